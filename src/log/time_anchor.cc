#include "log/time_anchor.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "log/fio_json.h"

namespace fiohist {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's formula).
int64_t CivilDaysFromEpoch(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

}  // namespace

Status ParseStartTime(const std::string& text, int64_t* epoch_ms) {
  const std::string bad =
      "--start-time: expected ISO 8601 (2026-11-22T00:08:42Z) or Unix "
      "epoch seconds/milliseconds, got '" +
      text + "'";
  if (text.empty()) return Status::Error(bad);
  if (text.find_first_not_of("0123456789.") == std::string::npos) {
    char* rest = nullptr;
    const double v = std::strtod(text.c_str(), &rest);
    // 10^15 ms is the year 33658: anything larger is a typo (and would overflow int64).
    if (*rest != '\0' || !(v < 1e15)) return Status::Error(bad);
    *epoch_ms = v > 1e11 ? static_cast<int64_t>(v) : static_cast<int64_t>(v * 1000.0 + 0.5);
    return Status();
  }
  int y, mo, d, h = 0, mi = 0, consumed = 0;
  double sec = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &y, &mo, &d, &consumed) != 3) {
    return Status::Error(bad);
  }
  size_t pos = static_cast<size_t>(consumed);
  if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
    int n = 0;
    if (std::sscanf(text.c_str() + pos + 1, "%2d:%2d%n", &h, &mi, &n) != 2) {
      return Status::Error(bad);
    }
    pos += 1 + static_cast<size_t>(n);
    if (pos < text.size() && text[pos] == ':') {
      if (std::sscanf(text.c_str() + pos + 1, "%lf%n", &sec, &n) != 1) return Status::Error(bad);
      pos += 1 + static_cast<size_t>(n);
    }
  }
  int64_t offset_min = 0;
  if (pos < text.size()) {
    if (text[pos] == 'Z' && pos + 1 == text.size()) {
      pos++;
    } else if (text[pos] == '+' || text[pos] == '-') {
      int oh = 0, om = 0;
      if (std::sscanf(text.c_str() + pos + 1, "%2d:%2d", &oh, &om) < 1) {
        return Status::Error(bad);
      }
      offset_min = (text[pos] == '-' ? -1 : 1) * (oh * 60 + om);
      pos = text.size();
    } else {
      return Status::Error(bad);
    }
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec < 0 || sec >= 61) {
    return Status::Error(bad);
  }
  const int64_t days = CivilDaysFromEpoch(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  const int64_t secs = days * 86400 + h * 3600 + mi * 60 - offset_min * 60;
  *epoch_ms = secs * 1000 + static_cast<int64_t>(sec * 1000.0 + 0.5);
  return Status();
}

bool WriteIsoTime(int64_t epoch_ms, char* out) {
  // Civil date from days (Howard Hinnant's algorithm): no gmtime_r (it takes the time-zone
  // lock) and no printf, as this runs twice for every document.
  int64_t secs = epoch_ms >= 0 ? epoch_ms / 1000 : -((-epoch_ms + 999) / 1000);
  const int ms = static_cast<int>(epoch_ms - secs * 1000);
  int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
  const int sod = static_cast<int>(secs - days * 86400);
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
  if (y < 0 || y > 9999) return false;  // outside ISO's 4-digit years
  auto put = [&](int pos, int64_t v, int width) {
    for (int i = pos + width - 1; i >= pos; --i, v /= 10) out[i] = static_cast<char>('0' + v % 10);
  };
  std::memcpy(out, "0000-00-00T00:00:00.000Z", kIsoTimeBytes);
  put(0, y, 4);
  put(5, m, 2);
  put(8, d, 2);
  put(11, sod / 3600, 2);
  put(14, sod / 60 % 60, 2);
  put(17, sod % 60, 2);
  put(20, ms, 3);
  return true;
}

std::string FormatIsoTime(int64_t epoch_ms) {
  char buf[kIsoTimeBytes];
  if (!WriteIsoTime(epoch_ms, buf)) return std::to_string(epoch_ms);
  return std::string(buf, kIsoTimeBytes);
}

Status ReadFioJsonAnchor(const std::string& path, FioJsonAnchor* anchor) {
  FioJsonOutput out;
  Status s = ReadFioJson(path, &out);
  if (!s.ok()) return s;
  // A client/server output: the host that started first.
  *anchor = out.hosts.front().anchor;
  for (const FioJsonHost& h : out.hosts) {
    if (h.anchor.start_ms < anchor->start_ms) *anchor = h.anchor;
  }
  return Status();
}

}  // namespace fiohist
