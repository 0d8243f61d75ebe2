// PNG pictures of a report's charts, taken by headless Chromium.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace fiohist {

/// The Chromium to run: FIOHIST_CHROMIUM if set, else the first of /usr/bin/chromium,
/// /usr/bin/chromium-browser, /usr/bin/google-chrome that exists; empty when none does.
std::string FindChromium();

/// One chart to screenshot: its id ("latency-read") and the page height it needs.
struct ChartShot {
  std::string id;
  int height = 700;
};

/// Screenshots each chart of the report page `html` alone on a page 1200 pixels wide
/// into `dir`/ID.png, with headless Chromium `chromium` (the page shows
/// one chart when its address ends in #only=ID). Chromium runs with a fresh profile in a
/// temporary directory and no network use of its own; it waits for the page through its
/// virtual time budget (the page draws without timers, so the budget is not a delay).
Status ScreenshotCharts(const std::string& chromium, const std::string& html,
                        const std::vector<ChartShot>& charts, const std::string& dir);

}  // namespace fiohist
