#include "es/bulk_indexer.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>

#include "base/memory_release.h"

namespace fiohist {

const char kBulkPath[] =
    "/_bulk?filter_path=errors,items.*.status,items.*.error.type,items.*.error.reason,"
    "items.*.error.caused_by.reason";

namespace {

std::string ErrorReason(const rapidjson::Value& error) {
  if (error.IsString()) return error.GetString();
  if (!error.IsObject()) return "unknown error";
  std::string text;
  if (error.HasMember("type") && error["type"].IsString()) text = error["type"].GetString();
  if (error.HasMember("reason") && error["reason"].IsString()) {
    if (!text.empty()) text += ": ";
    text += error["reason"].GetString();
  }
  if (error.HasMember("caused_by") && error["caused_by"].IsObject()) {
    const rapidjson::Value& cause = error["caused_by"];
    if (cause.HasMember("reason") && cause["reason"].IsString()) {
      text += std::string(" (caused by: ") + cause["reason"].GetString() + ")";
    }
  }
  if (text.empty()) return "unknown error";
  // Some reasons (es_rejected_execution_exception) dump a whole thread pool: keep the start.
  const size_t kMaxReason = 300;
  if (text.size() > kMaxReason) text = text.substr(0, kMaxReason) + "...";
  return text;
}

// A splitmix64 step: a cheap, seedable source of jitter.
uint64_t NextRandom(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

namespace {

// True when `text` goes into a JSON string as it is (what rapidjson's writer would not
// escape): index names and fiohist's hex ids always do.
bool PlainJsonText(const std::string& text) {
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

}  // namespace

Status EncodeBulkActionLine(const BulkAction& action, std::string* line) {
  if (action.index.empty()) return Status::Error("bulk action without an index");
  bool is_delete = action.op == BulkAction::Op::kDelete;
  if (is_delete && action.id.empty()) return Status::Error("delete action without an id");
  if (PlainJsonText(action.index) && PlainJsonText(action.id)) {
    // Every document passes here: the same text as the writer below, without its buffer.
    line->assign(is_delete ? "{\"delete\":{\"_index\":\"" : "{\"index\":{\"_index\":\"");
    line->append(action.index);
    if (!action.id.empty()) {
      line->append("\",\"_id\":\"");
      line->append(action.id);
    }
    line->append("\"}}\n");
    return Status();
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key(is_delete ? "delete" : "index");
  writer.StartObject();
  writer.Key("_index");
  writer.String(action.index.data(), static_cast<rapidjson::SizeType>(action.index.size()));
  if (!action.id.empty()) {
    writer.Key("_id");
    writer.String(action.id.data(), static_cast<rapidjson::SizeType>(action.id.size()));
  }
  writer.EndObject();
  writer.EndObject();
  line->assign(buffer.GetString(), buffer.GetSize());
  line->push_back('\n');
  return Status();
}

bool IsOneLineObject(const std::string& source) {
  return !source.empty() && source[0] == '{' &&
         std::memchr(source.data(), '\n', source.size()) == nullptr;
}

Status EncodeBulkAction(const BulkAction& action, std::string* lines) {
  Status st = EncodeBulkActionLine(action, lines);
  if (!st.ok() || action.op == BulkAction::Op::kDelete) return st;

  // The source must be one line; a pretty-printed object is compacted, anything else refused.
  size_t first = action.source.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || action.source[first] != '{') {
    return Status::Error("document " + action.id + " is not a JSON object");
  }
  if (action.source.find('\n') == std::string::npos) {
    lines->append(action.source);
  } else {
    rapidjson::Document doc;
    doc.Parse(action.source.data(), action.source.size());
    if (doc.HasParseError() || !doc.IsObject()) {
      return Status::Error("document " + action.id + " is not valid JSON");
    }
    rapidjson::StringBuffer compact;
    rapidjson::Writer<rapidjson::StringBuffer> compact_writer(compact);
    doc.Accept(compact_writer);
    lines->append(compact.GetString(), compact.GetSize());
  }
  lines->push_back('\n');
  return Status();
}

Status BulkLines::Set(const BulkAction& action) {
  const bool as_is = action.op == BulkAction::Op::kIndex && IsOneLineObject(action.source);
  source_ = as_is ? &action.source : nullptr;
  return as_is ? EncodeBulkActionLine(action, &encoded_) : EncodeBulkAction(action, &encoded_);
}

void BulkLines::AppendTo(std::string* out) const {
  out->append(encoded_);
  if (source_) {
    out->append(*source_);
    out->push_back('\n');
  }
}

double BackoffSeconds(int retry, const BulkOptions& options, double unit_random) {
  double delay = options.initial_backoff_s * std::pow(2.0, std::max(0, retry - 1));
  delay = std::min(delay, options.max_backoff_s);
  unit_random = std::clamp(unit_random, 0.0, 1.0);
  return delay * (0.5 + 0.5 * unit_random);
}

bool IsRetryableStatus(long status) {
  return status == 429 || status == 502 || status == 503 || status == 504;
}

Status ParseBulkResponse(const std::string& body, std::vector<BulkItemResult>* items) {
  items->clear();
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return Status::Error("the _bulk response is not a JSON object");
  }
  if (!doc.HasMember("items")) {
    // filter_path drops empty arrays; a response without items only fits an empty request.
    return Status();
  }
  const rapidjson::Value& list = doc["items"];
  if (!list.IsArray()) return Status::Error("_bulk response: items is not an array");
  for (const rapidjson::Value& entry : list.GetArray()) {
    if (!entry.IsObject() || entry.MemberCount() != 1) {
      return Status::Error("_bulk response: an item is not {action: result}");
    }
    const rapidjson::Value& result = entry.MemberBegin()->value;
    BulkItemResult item;
    if (result.HasMember("status") && result["status"].IsInt()) {
      item.status = result["status"].GetInt();
    }
    if (result.HasMember("error")) {
      item.has_error = true;
      item.reason = ErrorReason(result["error"]);
    }
    items->push_back(std::move(item));
  }
  return Status();
}

BulkIndexer::BulkIndexer(HttpClient* client, BulkOptions options)
    : BulkIndexer(
          [client](const std::string& method, const std::string& path, const std::string& body) {
            return client->Request(method, path, body, "application/x-ndjson");
          },
          [](double seconds) {
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
          },
          options) {}

BulkIndexer::BulkIndexer(BulkTransport transport, BulkSleeper sleeper, BulkOptions options)
    : transport_(std::move(transport)),
      sleeper_(std::move(sleeper)),
      options_(options),
      jitter_state_(std::random_device{}()) {}

Status BulkIndexer::Add(BulkAction action) {
  Pending item;
  item.index = action.index;
  item.id = action.id;
  item.is_delete = action.op == BulkAction::Op::kDelete;
  if (!fatal_.ok()) {
    Fail(item, 0, "not sent: " + fatal_.message());
    return fatal_;
  }
  Status st = lines_.Set(action);
  if (!st.ok()) {
    Fail(item, 0, st.message());  // one bad action is counted, not fatal
    return fatal_;
  }
  const size_t size = lines_.size();
  if (!batch_.items.empty() && batch_.body.size() + size > options_.max_batch_bytes) Flush();
  if (batch_.items.empty()) batch_.body.reserve(std::max(options_.max_batch_bytes, size));
  touched_.insert(item.index);
  item.begin = batch_.body.size();
  lines_.AppendTo(&batch_.body);
  item.end = batch_.body.size();
  batch_.items.push_back(std::move(item));
  if (batch_.items.size() >= options_.max_batch_docs) Flush();
  return fatal_;
}

void BulkIndexer::Batch::Take(Pending item, std::string_view lines) {
  item.begin = body.size();
  body.append(lines);
  item.end = body.size();
  items.push_back(std::move(item));
}

Status BulkIndexer::Finish() {
  Status st = Drain();
  if (st.ok() && options_.refresh) st = Refresh(touched_);
  return st;
}

Status BulkIndexer::Drain() {
  Flush();
  return fatal_;
}

Status BulkIndexer::Refresh(const std::set<std::string>& indices) {
  if (indices.empty()) return Status();
  std::string path = "/";
  for (const std::string& index : indices) {
    if (path.size() > 1) path += ",";
    path += index;
  }
  path += "/_refresh?ignore_unavailable=true";
  HttpResult result = transport_("POST", path, "");
  if (!result.ok()) return Status::Error("refresh failed: " + DescribeHttpFailure(result));
  return Status();
}

void BulkIndexer::Fail(const Pending& item, long status, const std::string& reason) {
  ++stats_.failed;
  if (stats_.errors.size() < options_.max_kept_errors) {
    stats_.errors.push_back({item.index, item.id, status, reason});
  }
}

void BulkIndexer::Flush() {
  if (batch_.items.empty()) return;
  Batch batch;
  std::swap(batch, batch_);
  SendWithRetries(std::move(batch));
  ReleaseFreeMemory();  // the batch, its body and response: megabytes a sending thread keeps
  if (progress_) progress_(stats_);
}

void BulkIndexer::SendWithRetries(Batch batch) {
  auto start = std::chrono::steady_clock::now();
  double slept = 0;
  int round = 0;
  while (!batch.items.empty()) {
    if (!fatal_.ok()) {
      for (const Pending& item : batch.items) Fail(item, 0, "not sent: " + fatal_.message());
      return;
    }
    Batch retry;
    SendOnce(std::move(batch), &retry);
    batch = Batch();
    if (retry.items.empty()) return;

    ++round;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Real time, or the requested sleeps when a test's sleeper does not really wait.
    bool out_of_time = std::max(elapsed, slept) > options_.max_retry_time_s;
    bool server_gone = false;
    for (Pending& item : retry.items) {
      if (out_of_time || item.attempts >= options_.max_attempts) {
        std::string why = out_of_time ? "gave up (retry time limit) after " : "gave up after ";
        why += std::to_string(item.attempts) + " attempts: " + item.last_reason;
        Fail(item, item.last_status, why);
        // No HTTP answer at all after every retry: the server is gone. Later batches
        // would each wait out the same retries; fail them at once instead.
        if (item.no_answer && !server_gone) {
          server_gone = true;
          fatal_ = Status::Error("Elasticsearch stopped answering: " + item.last_reason);
        }
      } else {
        const std::string_view lines = retry.LinesOf(item);
        batch.Take(std::move(item), lines);
      }
    }
    if (batch.items.empty()) return;
    stats_.retried += batch.items.size();
    double unit = static_cast<double>(NextRandom(&jitter_state_) >> 11) * 0x1.0p-53;
    double delay = BackoffSeconds(round, options_, unit);
    slept += delay;
    sleeper_(delay);
  }
}

void BulkIndexer::SendOnce(Batch batch, Batch* retry) {
  for (Pending& item : batch.items) ++item.attempts;
  ++stats_.requests;
  HttpResult result = transport_("POST", kBulkPath, batch.body);

  auto retry_item = [&](Pending& item) {
    const std::string_view lines = batch.LinesOf(item);
    retry->Take(std::move(item), lines);
  };
  auto retry_all = [&](long status, const std::string& reason) {
    for (Pending& item : batch.items) {
      item.last_status = status;
      item.last_reason = reason;
      item.no_answer = !result.error.empty();
      retry_item(item);
    }
  };
  if (!result.error.empty()) {
    retry_all(0, result.error);
    return;
  }
  if (result.status == 413) {
    // Nothing was processed: this send does not count as an attempt.
    for (Pending& item : batch.items) --item.attempts;
    if (batch.items.size() == 1) {
      ++batch.items[0].attempts;
      Fail(batch.items[0], 413, "HTTP 413: the document alone is larger than the server accepts");
      return;
    }
    ++stats_.splits;
    const size_t half = batch.items.size() / 2;
    Batch first, second;
    for (size_t i = 0; i < batch.items.size(); ++i) {
      const std::string_view lines = batch.LinesOf(batch.items[i]);
      (i < half ? first : second).Take(std::move(batch.items[i]), lines);
    }
    batch = Batch();  // its lines are in the halves now
    SendOnce(std::move(first), retry);
    SendOnce(std::move(second), retry);
    return;
  }
  if (IsRetryableStatus(result.status)) {
    retry_all(result.status, DescribeHttpFailure(result));
    return;
  }
  if (!result.ok()) {
    // 400, 401, 403, ...: the next request would fail the same way.
    fatal_ = Status::Error("bulk request rejected: " + DescribeHttpFailure(result));
    for (const Pending& item : batch.items) Fail(item, result.status, DescribeHttpFailure(result));
    return;
  }
  std::vector<BulkItemResult> results;
  Status st = ParseBulkResponse(result.body, &results);
  if (st.ok() && results.size() != batch.items.size()) {
    st = Status::Error("_bulk response has " + std::to_string(results.size()) + " items for " +
                       std::to_string(batch.items.size()) + " actions");
  }
  if (!st.ok()) {
    // A garbled response (e.g. cut by a proxy): ids make a re-send harmless.
    retry_all(0, st.message());
    return;
  }
  for (size_t i = 0; i < batch.items.size(); ++i) {
    Pending& item = batch.items[i];
    const BulkItemResult& r = results[i];
    if (r.status >= 200 && r.status < 300 && !r.has_error) {
      ++(item.is_delete ? stats_.deleted : stats_.indexed);
    } else if (item.is_delete && r.status == 404 && !r.has_error) {
      ++stats_.not_found;
    } else if (IsRetryableStatus(r.status)) {
      item.no_answer = false;
      item.last_status = r.status;
      item.last_reason = r.has_error ? r.reason : "HTTP " + std::to_string(r.status);
      retry_item(item);
    } else {
      Fail(item, r.status, r.has_error ? r.reason : "HTTP " + std::to_string(r.status));
    }
  }
}

}  // namespace fiohist
