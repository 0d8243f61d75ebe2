#include "log/client_stats.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace fiohist {
namespace {

const char kAllClients[] = "All clients";
const char* const kDirectionNames[kLogDirections] = {"read", "write", "trim"};

// One entry of client_stats, decoded.
struct Entry {
  int index = 0;
  FioJobSnapshot job;
  int64_t groupid = 0;
};

std::string EntryName(int index) { return "client_stats[" + std::to_string(index) + "]"; }

bool GetInt(const rapidjson::Value& o, const char* key, int64_t* out) {
  auto it = o.FindMember(key);
  if (it == o.MemberEnd() || !it->value.IsInt64()) return false;
  *out = it->value.GetInt64();
  return true;
}

bool HasGroupReporting(const rapidjson::Value& options) {
  if (options.IsObject()) return options.HasMember("group_reporting");
  if (options.IsArray()) {
    for (const auto& o : options.GetArray()) {
      if (HasGroupReporting(o)) return true;
    }
  }
  return false;
}

// `after` holds at least `before`'s count in every bucket; else says which bucket fell.
bool Dominates(const std::vector<std::pair<uint32_t, uint64_t>>& after,
               const std::vector<std::pair<uint32_t, uint64_t>>& before, const BucketLayout& layout,
               std::string* why) {
  size_t i = 0;
  for (const auto& [column, count] : before) {
    while (i < after.size() && after[i].first < column) ++i;
    const uint64_t now = i < after.size() && after[i].first == column ? after[i].second : 0;
    if (now < count) {
      *why = "the bucket of " + std::to_string(FioBucketValue(layout, static_cast<int>(column))) +
             " ns had " + std::to_string(count) + " I/Os and now has " + std::to_string(now);
      return false;
    }
  }
  return true;
}

// Whether `entries` (one server's, in file order) come as rounds of `jobs` entries: each
// round has the same job names (and job_start) in the same order, and every job's runtime
// and counts only grow. Else `*why` says what broke at `*bad` (an index into entries).
bool FitsRounds(const std::vector<Entry>& entries, size_t jobs, const BucketLayout& layout,
                std::string* why, size_t* bad) {
  if (entries.size() % jobs != 0) {
    *bad = entries.size() - 1;
    *why = "the server has " + std::to_string(entries.size()) + " entries, not a multiple of " +
           std::to_string(jobs) + " jobs per report (a report cut short?)";
    return false;
  }
  for (size_t i = jobs; i < entries.size(); ++i) {
    const FioJobSnapshot& now = entries[i].job;
    const FioJobSnapshot& was = entries[i - jobs].job;
    *bad = i;
    const std::string job = "job " + std::to_string(i % jobs + 1) + " ('" + was.name + "')";
    if (now.name != was.name || entries[i].groupid != entries[i - jobs].groupid) {
      *why = "expected the entry of " + job + " (a server's jobs come in the same order in every "
             "report), found job '" + now.name + "'";
      return false;
    }
    if (now.start_ms != was.start_ms) {
      *why = "expected the entry of " + job + ", found a job_start of " +
             std::to_string(now.start_ms) + " instead of " + std::to_string(was.start_ms);
      return false;
    }
    if (now.runtime_ms < was.runtime_ms) {
      *why = job + ": job_runtime goes backwards (" + std::to_string(was.runtime_ms) +
             " ms, now " + std::to_string(now.runtime_ms) + ")";
      return false;
    }
    for (int d = 0; d < kLogDirections; ++d) {
      std::string fell;
      if (!Dominates(now.bins[static_cast<size_t>(d)], was.bins[static_cast<size_t>(d)], layout,
                     &fell)) {
        *why = job + ": " + kDirectionNames[d] + " counts go backwards: " + fell;
        return false;
      }
    }
  }
  return true;
}

// "N" of every "<host> Starting N processes|threads" line of the text before the JSON: fio
// prints one per server, the number of jobs it starts.
std::vector<int> StartingCounts(const std::string& text) {
  // A plain scan, not std::regex: GCC 12 warns (maybe-uninitialized) inside <regex> at -O1
  // with sanitizers, which -Werror turns into a build failure.
  static const std::string kWord = "Starting ";
  std::vector<int> counts;
  for (size_t at = text.find(kWord); at != std::string::npos; at = text.find(kWord, at + 1)) {
    size_t p = at + kWord.size();
    size_t digits = p;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    if (digits == p || digits - p > 9 || digits >= text.size() || text[digits] != ' ') continue;
    size_t w = digits + 1;
    size_t e = w;
    while (e < text.size() && std::isalpha(static_cast<unsigned char>(text[e]))) ++e;
    const std::string noun = text.substr(w, e - w);
    if (noun == "process" || noun == "processes" || noun == "thread" || noun == "threads") {
      counts.push_back(std::stoi(text.substr(p, digits - p)));
    }
  }
  return counts;
}

// Sums (per direction) of total_ios and bins of `entries`, to check an All clients entry.
struct Sums {
  std::array<uint64_t, kLogDirections> ios{};
  std::array<std::map<uint32_t, uint64_t>, kLogDirections> bins;
  void Add(const FioJobSnapshot& j) {
    for (size_t d = 0; d < kLogDirections; ++d) {
      ios[d] += j.total_ios[d];
      for (const auto& [c, n] : j.bins[d]) bins[d][c] += n;
    }
  }
};

// An All clients entry's totals and bins (fio 3.33 writes it without bins; bins that do not
// decode are left out and the totals still checked).
FioJobSnapshot DecodeAllClients(const rapidjson::Value& e, const BucketLayout& layout) {
  FioJobSnapshot all;
  for (size_t d = 0; d < kLogDirections; ++d) {
    auto dir = e.FindMember(kDirectionNames[d]);
    if (dir == e.MemberEnd() || !dir->value.IsObject()) continue;
    int64_t total = 0;
    if (GetInt(dir->value, "total_ios", &total) && total > 0) {
      all.total_ios[d] = static_cast<uint64_t>(total);
    }
    auto clat = dir->value.FindMember("clat_ns");
    if (clat == dir->value.MemberEnd() || !clat->value.IsObject()) continue;
    auto bins = clat->value.FindMember("bins");
    if (bins == clat->value.MemberEnd() || !bins->value.IsObject()) continue;
    for (auto m = bins->value.MemberBegin(); m != bins->value.MemberEnd(); ++m) {
      int column = 0;
      if (!m->value.IsUint64() ||
          !ColumnOfFioValue(layout, std::strtoull(m->name.GetString(), nullptr, 10), &column)) {
        all.bins[d].clear();
        break;
      }
      all.bins[d].emplace_back(static_cast<uint32_t>(column), m->value.GetUint64());
    }
    std::sort(all.bins[d].begin(), all.bins[d].end());
  }
  return all;
}

// fio's All clients entry sums every entry the client received before it.
Status CheckAllClients(const std::string& where, const FioJobSnapshot& all, const Sums& sums,
                       size_t summed) {
  for (size_t d = 0; d < kLogDirections; ++d) {
    const std::string which = std::string(kDirectionNames[d]);
    if (all.total_ios[d] != sums.ios[d]) {
      return Status::Error(where + ": the 'All clients' entry counts " +
                           std::to_string(all.total_ios[d]) + " " + which +
                           " I/Os, but the " + std::to_string(summed) +
                           " entries before it sum to " + std::to_string(sums.ios[d]) +
                           " (expected fio's sum of them: entries missing or doubled?)");
    }
    if (all.bins[d].empty()) continue;  // fio 3.33 leaves its bins empty
    std::map<uint32_t, uint64_t> got(all.bins[d].begin(), all.bins[d].end());
    if (got != sums.bins[d]) {
      return Status::Error(where + ": the 'All clients' entry's " + which +
                           " bins are not the sum of the " + std::to_string(summed) +
                           " entries before it (expected fio's sum of them)");
    }
  }
  return Status();
}

}  // namespace

bool IsClientStatsText(const std::string& json) {
  const size_t stats = json.find("\"client_stats\"");
  if (stats == std::string::npos) return false;
  const size_t jobs = json.find("\"jobs\"");
  return jobs == std::string::npos || stats < jobs;
}

Status ReadClientStats(const std::string& path, const BucketLayout& layout, ClientStatsRun* out) {
  *out = ClientStatsRun();
  out->path = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InputError(path, 0, "cannot open");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // The document starts at the first line whose first byte is '{'; the lines before it are
  // the servers' text output.
  size_t start = 0;
  while (start < text.size() && text[start] != '{') {
    const size_t nl = text.find('\n', start);
    ++out->text_lines;
    if (nl == std::string::npos) {
      start = text.size();
      break;
    }
    start = nl + 1;
  }
  if (start >= text.size()) {
    return Status::Error(path + ": byte " + std::to_string(text.size()) + ": expected a line "
                         "starting with '{' (fio's JSON document) after " +
                         std::to_string(out->text_lines) + " text lines, found the end of the "
                         "file (fio stopped before writing its results?)");
  }
  out->json_offset = start;
  const std::string where_file = path + ": ";
  rapidjson::MemoryStream ms(text.data() + start, text.size() - start);
  rapidjson::Document doc;
  doc.ParseStream<rapidjson::kParseStopWhenDoneFlag, rapidjson::UTF8<>>(ms);
  if (doc.HasParseError()) {
    const uint64_t at = start + doc.GetErrorOffset();
    size_t last = text.find_last_not_of(" \t\r\n");
    if (last == std::string::npos) last = 0;
    if (at > last) {
      return Status::Error(where_file + "byte " + std::to_string(text.size()) +
                           ": the JSON document starting at byte " + std::to_string(start) +
                           " is cut (expected it to end with '}': fio stopped while writing, or "
                           "the file was copied while fio ran)");
    }
    return Status::Error(where_file + "byte " + std::to_string(at) + ": not valid JSON: " +
                         rapidjson::GetParseError_En(doc.GetParseError()) +
                         " (in the document starting at byte " + std::to_string(start) + ")");
  }
  const size_t after = start + ms.Tell();
  if (text.find_first_not_of(" \t\r\n", after) != std::string::npos) {
    out->warnings.push_back(path + ": byte " + std::to_string(after) + ": " +
                            std::to_string(text.size() - after) +
                            " bytes after fio's JSON document not read (not JSON)");
  }
  if (!doc.IsObject() || !doc.HasMember("client_stats") || !doc["client_stats"].IsArray()) {
    return Status::Error(where_file + "byte " + std::to_string(start) +
                         ": expected fio's client/server output (an object with a "
                         "\"client_stats\" array: fio --client=HOST ... --output-format=json+)");
  }
  if (doc.HasMember("fio version") && doc["fio version"].IsString()) {
    out->fio_version = doc["fio version"].GetString();
  }
  int64_t seconds = 0;
  if (GetInt(doc, "timestamp", &seconds)) out->client_start_ms = seconds * 1000;
  bool grouped = doc.HasMember("global options") && HasGroupReporting(doc["global options"]);

  // Entries by server, in order of first appearance.
  std::vector<std::pair<std::string, int64_t>> keys;
  std::vector<std::vector<Entry>> entries;
  Sums sums;
  size_t summed = 0;
  const auto& list = doc["client_stats"].GetArray();
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const int index = static_cast<int>(i);
    const std::string where = where_file + EntryName(index);
    const rapidjson::Value& e = list[i];
    Entry entry;
    entry.index = index;
    auto name = e.IsObject() ? e.FindMember("jobname") : e.MemberEnd();
    if (e.IsObject() && name != e.MemberEnd() && name->value.IsString() &&
        std::string(name->value.GetString()) == kAllClients) {
      Status s = CheckAllClients(where, DecodeAllClients(e, layout), sums, summed);
      if (!s.ok()) return s;
      ++out->all_clients;
      continue;
    }
    Status s = DecodeFioJob(e, layout, EntryName(index), &entry.job);
    if (!s.ok()) return Status::Error(where_file + s.message());
    auto host = e.FindMember("hostname");
    if (host == e.MemberEnd() || !host->value.IsString()) {
      return Status::Error(where + ": expected \"hostname\" (fio's client/server output names "
                           "each entry's server; fio " + out->fio_version + " wrote another "
                           "layout?)");
    }
    int64_t port = 0;
    GetInt(e, "port", &port);
    GetInt(e, "groupid", &entry.groupid);
    if (e.HasMember("job options")) grouped = grouped || HasGroupReporting(e["job options"]);
    sums.Add(entry.job);
    ++summed;
    const std::pair<std::string, int64_t> key(host->value.GetString(), port);
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      entries.emplace_back();
      it = keys.end() - 1;
    }
    entries[static_cast<size_t>(it - keys.begin())].push_back(std::move(entry));
  }
  if (keys.empty()) {
    return Status::Error(where_file + "byte " + std::to_string(start) +
                         ": \"client_stats\" holds no job entry");
  }

  // Jobs per report: fio names them in its text ("Starting N processes", one line per
  // server) unless group_reporting folds them; else the shortest round that fits.
  const std::vector<int> starting = StartingCounts(text.substr(0, start));
  int hinted = 0;
  if (!grouped && starting.size() == keys.size() &&
      std::all_of(starting.begin(), starting.end(), [&](int n) { return n == starting[0]; })) {
    hinted = starting[0];
  }
  bool all_started = true;
  for (size_t k = 0; k < keys.size(); ++k) {
    std::vector<Entry>& es = entries[k];
    ClientServer server;
    server.hostname = keys[k].first;
    server.port = keys[k].second;
    server.host = server.hostname;
    for (size_t o = 0; o < keys.size(); ++o) {
      if (o != k && keys[o].first == server.hostname) {
        server.host += ":" + std::to_string(server.port);
        break;
      }
    }
    const std::string where_server = "server " + server.host;
    std::string why;
    size_t bad = 0;
    size_t jobs = 0;
    if (hinted > 0 && es.size() % static_cast<size_t>(hinted) == 0) {
      jobs = static_cast<size_t>(hinted);
      if (!FitsRounds(es, jobs, layout, &why, &bad)) {
        return Status::Error(where_file + EntryName(es[bad].index) + " (" + where_server +
                             ", report " + std::to_string(bad / jobs + 1) + "): " + why);
      }
    } else {
      for (size_t j = 1; j <= es.size() && jobs == 0; ++j) {
        if (FitsRounds(es, j, layout, &why, &bad)) jobs = j;
      }
      if (jobs == es.size() && es.size() > 1 && es.front().job.name == es.back().job.name) {
        out->warnings.push_back(
            where_file + where_server + ": its " + std::to_string(es.size()) +
            " entries do not come as reports of a fixed set of jobs (counts or runtimes would go "
            "backwards), so they are taken as the jobs of one final report: whole run only");
      }
    }
    server.jobs = static_cast<int>(jobs);
    int64_t previous = INT64_MIN;
    for (size_t r = 0; r * jobs < es.size(); ++r) {
      FioSnapshot snap;
      snap.fio_version = out->fio_version;
      int64_t end = INT64_MIN;
      for (size_t j = 0; j < jobs; ++j) {
        FioJobSnapshot job = es[r * jobs + j].job;
        job.number = static_cast<int>(j + 1);
        if (job.runtime_ms > 0) {
          if (job.start_ms <= 0) all_started = false;
          const int64_t from = job.start_ms > 0 ? job.start_ms : out->client_start_ms;
          end = std::max(end, from + job.runtime_ms);
        }
        snap.jobs.push_back(std::move(job));
      }
      // A report in which no job ran yet, or one with the time of the last (every job over),
      // adds nothing at its own instant: one millisecond after the previous keeps time
      // moving, as fio's own report stamps do.
      if (end == INT64_MIN) end = previous == INT64_MIN ? out->client_start_ms : previous + 1;
      if (previous != INT64_MIN && end <= previous) end = previous + 1;
      snap.timestamp_ms = end;
      previous = end;
      server.reports.push_back(std::move(snap));
      server.first_entry.push_back(es[r * jobs].index);
    }
    out->servers.push_back(std::move(server));
  }
  out->anchor = all_started ? "job_start" : "client timestamp";
  if (!all_started && out->client_start_ms <= 0) {
    return Status::Error(where_file + "byte " + std::to_string(start) +
                         ": expected \"timestamp\" (the client's start, in s) or every job's "
                         "\"job_start\": nothing places the run in time");
  }
  return Status();
}

Status ClientServerUpdates(const ClientStatsRun& run, const ClientServer& server,
                           const BucketLayout& layout, std::vector<StatusUpdate>* updates) {
  SnapshotDiffer differ;
  differ.set_layout(layout);
  for (size_t r = 0; r < server.reports.size(); ++r) {
    StatusUpdate u;
    // No byte offset per entry in a parsed document: the entry index stands for it.
    u.offset = static_cast<uint64_t>(server.first_entry[r]);
    Status s = differ.Add(server.reports[r], u.offset, &u);
    if (!s.ok()) {
      return Status::Error(run.path + ": " + EntryName(server.first_entry[r]) + " (server " +
                           server.host + ", report " + std::to_string(r + 1) + "): " +
                           s.message());
    }
    updates->push_back(std::move(u));
  }
  return Status();
}

}  // namespace fiohist
