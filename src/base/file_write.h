// Writing a program's output to a stdio stream with its errors reported (a full disk, a
// closed pipe), in one place: every writer of text output says the same thing.
#pragma once

#include <cstdio>
#include <string_view>

#include "base/status.h"

namespace fiohist {

/// Writes `text` to `out`; an error ("cannot write output: " and the system's reason) when
/// not all of it was written.
Status WriteText(std::FILE* out, std::string_view text);

/// Flushes `out`; an error when the flush, or any earlier write to `out`, failed.
Status FlushText(std::FILE* out);

}  // namespace fiohist
