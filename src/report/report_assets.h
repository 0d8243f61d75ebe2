// The files a report page inlines, embedded into the binary at build time
// (tools/embed_files.py; CMakeLists.txt names the files), so an installed fiohist needs none.
#pragma once

#include <string_view>

namespace fiohist {

/// Apache ECharts' minified build (report/package-lock.json pins its version).
std::string_view EchartsScript();
/// Apache ECharts' LICENSE and NOTICE files, shown in every report.
std::string_view EchartsLicense();
std::string_view EchartsNotice();
/// The version of the embedded ECharts (from its package.json).
std::string_view EchartsVersion();
/// The page's own script and style sheet (report/report.js, report/report.css).
std::string_view ReportScript();
std::string_view ReportStyle();

}  // namespace fiohist
