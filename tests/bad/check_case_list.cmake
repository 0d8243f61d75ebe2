# Fails when run_bad.py has a case that tests/bad/CMakeLists.txt does not run (or back).
execute_process(COMMAND ${PY} ${SCRIPT} unused --list OUTPUT_VARIABLE listed
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run_bad.py --list failed")
endif()
string(REGEX REPLACE "\n$" "" listed "${listed}")
string(REPLACE "\n" ";" listed "${listed}")
list(SORT listed)
set(want ${CASES})
list(SORT want)
if(NOT listed STREQUAL want)
  message(FATAL_ERROR "case lists differ:\n run_bad.py: ${listed}\n CMakeLists: ${want}")
endif()
