// The self-contained HTML page of a run report.
#pragma once

#include <string>

#include "base/status.h"

namespace fiohist {

/// Writes the report page to `path`: the chart library, the page's script and style, and
/// `json` (ReportJson) all inlined, so it opens offline; the library's licence is shown at
/// its end. `title` names the run(s).
Status WriteReportPage(const std::string& path, const std::string& title,
                       const std::string& json);

/// `text` with &, <, > and " written as HTML entities.
std::string HtmlEscape(const std::string& text);

}  // namespace fiohist
