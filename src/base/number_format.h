// Printing doubles: shortest round-trip text, as CSV and JSON want it.
#pragma once

#include <string>

namespace fiohist {

/// Bytes WriteShortest() may write.
constexpr int kShortestMaxBytes = 32;

/// Writes the shortest decimal text that reads back as exactly `v` ("0.6", "1e+20"), byte
/// for byte what std::to_chars(out, end, v) writes, but several times faster for the
/// common values of at most 15 significant digits. `v` must be finite. Returns the end.
char* WriteShortest(char* out, double v);

/// Appends the shortest decimal text that reads back as exactly `v` ("0.6", "1e+20").
/// Non-finite values append nothing (an empty CSV field; JSON writers must check).
void AppendShortest(std::string* out, double v);

/// Appends `v` as Python 3's repr(float) would print it ("1.0", "0.6", "1e-05",
/// "1.5e+16"): what fio's Python tools print, for byte-identical compatibility output.
void AppendPythonRepr(std::string* out, double v);

}  // namespace fiohist
