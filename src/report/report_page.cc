#include "report/report_page.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "report/report_assets.h"

namespace fiohist {

std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

Status WriteReportPage(const std::string& path, const std::string& title,
                       const std::string& json) {
  const std::string version(EchartsVersion());
  std::string page;
  page.reserve(json.size() + EchartsScript().size() + 64 * 1024);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"generator\" content=\"fiohist " FIOHIST_VERSION "\">\n";
  page += "<title>" + HtmlEscape(title) + "</title>\n<style>\n";
  page += ReportStyle();
  page += "</style>\n</head>\n<body>\n<main id=\"report\"></main>\n";
  page += "<footer><details id=\"licences\"><summary>Licences</summary>\n";
  page += "<p>Charts are drawn by Apache ECharts " + HtmlEscape(version) +
          " (https://echarts.apache.org/), inlined in this page under the Apache License "
          "2.0:</p>\n<pre>";
  page += HtmlEscape(std::string(EchartsNotice()));
  page += "\n";
  page += HtmlEscape(std::string(EchartsLicense()));
  page += "</pre></details></footer>\n";
  page += "<script id=\"fiohist-data\" type=\"application/json\">";
  page += json;
  page += "</script>\n<script>/* Apache ECharts " + version +
          ", Apache License 2.0: see Licences at the end of the page */\n";
  page += EchartsScript();
  page += "\n</script>\n<script>\n";
  page += ReportScript();
  page += "\n</script>\n</body>\n</html>\n";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  out.write(page.data(), static_cast<std::streamsize>(page.size()));
  out.close();
  if (!out) return Status::Error("cannot write " + path + ": " + std::strerror(errno));
  return Status();
}

}  // namespace fiohist
