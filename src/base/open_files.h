// How many files fiohist may hold open at once, so that thousands of logs never run into
// the per-process limit (RLIMIT_NOFILE, `ulimit -n`).
#pragma once

#include <string>

namespace fiohist {

/// Raises the soft limit on open files to the hard limit (as far as the system lets) and
/// sizes the budget from it. Called once at start; without it the budget follows the limit
/// found at the first TryHoldOpenFile().
void RaiseOpenFileLimit();

/// Takes one of the budget's file slots: true when the caller may keep a file open across
/// reads, false when the budget is spent and the caller must open the file for each read
/// and close it again (a bounded number of files is open, whatever the number of logs).
bool TryHoldOpenFile();
/// Gives back a slot taken by TryHoldOpenFile().
void ReleaseOpenFile();

/// Files held open through the budget, and the budget itself (the soft limit minus room
/// for what else fiohist opens: outputs, connections, fio JSON files).
int HeldOpenFiles();
int OpenFileBudget();

/// Sets the budget (tests: to read beyond it without a lower `ulimit -n`).
void SetOpenFileBudget(int files);

/// What an open() failure with EMFILE/ENFILE means here, with the numbers: "Too many open
/// files (limit N per process, M held by fiohist; raise it with `ulimit -n`)".
std::string TooManyOpenFiles(int errnum);

}  // namespace fiohist
