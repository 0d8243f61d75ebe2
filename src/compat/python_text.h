// Python's conversions between text and numbers, as fio's Python tools (the reference
// scripts the compat drop-ins reproduce) apply them to their options and output.
#pragma once

#include <cstdint>
#include <string>

namespace fiohist {
namespace compat {

/// Python's int(text): optional sign and digits, surrounding blanks allowed. False when
/// `text` is not such a number or does not fit 64 bits.
bool ParsePythonInt(const std::string& text, int64_t* value);

/// Python's float(text) for decimal text (no hexadecimal); surrounding blanks allowed.
/// Non-finite values are the caller's to refuse.
bool ParsePythonFloat(const std::string& text, double* value);

/// Python's '%d' % v for a float: its integer part (truncated toward zero).
std::string PythonIntegerPart(double v);

/// Python's '%.Nf' % v with N = `decimals` (>= 0): correctly rounded, as C's printf.
std::string PythonFixed(double v, int decimals);

}  // namespace compat
}  // namespace fiohist
