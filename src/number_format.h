// Printing doubles: shortest round-trip text, as CSV and JSON want it.
#pragma once

#include <string>

namespace fiohist {

/// Appends the shortest decimal text that reads back as exactly `v` ("0.6", "1e+20").
/// Non-finite values append nothing (an empty CSV field; JSON writers must check).
void AppendShortest(std::string* out, double v);

/// Appends `v` as Python 3's repr(float) would print it ("1.0", "0.6", "1e-05",
/// "1.5e+16"): what fio's Python tools print, for byte-identical compatibility output.
void AppendPythonRepr(std::string* out, double v);

}  // namespace fiohist
