// gen_corpus: builds a large, deterministic benchmark corpus of fio latency histogram logs
// from a handful of real fio3 logs (1856 buckets, relative-ms stamps, read + write lines).
//
// Every synthetic (host, job) log walks through the seconds of the run; for each second it
// picks one real interval (a read and a write record of the same real second) of a template
// job and perturbs it so the shape stays real:
//   * host-level and job-level latency shifts by whole buckets (fio's buckets are log-linear,
//     so a shift of k buckets scales latency by about 2^(k/64)); a few hosts are "slow";
//   * throughput follows the shift (fixed queue depth: slower I/O, fewer I/Os);
//   * big counts get Poisson noise, small tail counts keep their size but may wander a few
//     buckets, so the occupied range and the number of zero columns stay close to the real ones;
//   * rare tail events (a few I/Os at 15-400 ms) and very rare clamped I/Os (last bucket).
// Stamps close the interval like fio: 1001, 2001, ... with occasional +2 ms jitter, read and
// write lines in either order. All randomness comes from a fixed-seed generator seeded per
// file, so the output bytes do not depend on thread scheduling: same options, same bytes.

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

constexpr int kVersion = 1;  // Bump when the output bytes change (run.sh caches by it).

/// One real histogram record, kept sparse: (bucket index, count) of non-zero buckets.
struct SparseRecord {
  std::vector<std::pair<uint16_t, uint32_t>> buckets;
};

/// One real second of one real job: the read and the write record written for it.
struct RealInterval {
  SparseRecord read;
  SparseRecord write;
};

/// All real intervals of one real job log, in time order.
struct TemplateJob {
  std::string name;
  std::vector<RealInterval> intervals;
};

/// splitmix64: tiny, fully specified generator (std distributions are not portable).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform double in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [lo, hi].
  int Range(int lo, int hi) {
    return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  /// Standard normal (Box-Muller; one value per call keeps the stream simple).
  double Gauss() {
    double u1 = Uniform();
    double u2 = Uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  /// Poisson draw: exact (Knuth) for small means, rounded normal for large ones.
  uint32_t Poisson(double mean) {
    if (mean <= 0) return 0;
    if (mean < 30) {
      double limit = std::exp(-mean);
      double p = 1.0;
      uint32_t k = 0;
      do {
        ++k;
        p *= Uniform();
      } while (p > limit);
      return k - 1;
    }
    double v = std::round(mean + std::sqrt(mean) * Gauss());
    return v < 0 ? 0 : static_cast<uint32_t>(v);
  }

 private:
  uint64_t state_;
};

uint64_t Mix(uint64_t a, uint64_t b) {
  Rng r(a * 0x100000001b3ULL ^ (b + 0x9e3779b97f4a7c15ULL));
  r.Next();
  return r.Next();
}

/// Reads one real fio3 log; returns false with a message when it is not what we expect.
bool LoadTemplate(const fs::path& path, int buckets, TemplateJob* out, std::string* err) {
  std::ifstream in(path);
  if (!in) {
    *err = "cannot open " + path.string();
    return false;
  }
  out->name = path.filename().string();
  std::string line;
  std::vector<SparseRecord> reads, writes;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<long long> v;
    const char* p = line.data();
    const char* end = p + line.size();
    while (p < end) {
      while (p < end && (*p == ',' || *p == ' ')) ++p;
      if (p >= end) break;
      long long x = 0;
      auto res = std::from_chars(p, end, x);
      if (res.ec != std::errc()) {
        *err = "bad number in " + path.string();
        return false;
      }
      v.push_back(x);
      p = res.ptr;
    }
    if (static_cast<int>(v.size()) != buckets + 3) {
      *err = path.string() + ": expected " + std::to_string(buckets) + " buckets, got " +
             std::to_string(v.size() - 3);
      return false;
    }
    SparseRecord r;
    for (int i = 0; i < buckets; ++i) {
      if (v[i + 3] > 0) r.buckets.emplace_back(i, static_cast<uint32_t>(v[i + 3]));
    }
    if (v[1] == 0) {
      reads.push_back(std::move(r));
    } else if (v[1] == 1) {
      writes.push_back(std::move(r));
    }
  }
  size_t n = std::min(reads.size(), writes.size());
  if (n == 0) {
    *err = path.string() + ": needs both read and write records";
    return false;
  }
  for (size_t i = 0; i < n; ++i) out->intervals.push_back({reads[i], writes[i]});
  return true;
}

/// Everything that defines the corpus (and therefore its bytes).
struct Config {
  int hosts = 64;
  int jobs = 4;
  int seconds = 600;
  uint64_t seed = 20261122;
  int buckets = 1856;
  std::string prefix = "randrw4";
  bool dirs = false;  // host directories instead of .hostNN suffixes
  int gzip_level = 6;
};

/// Per-host traits, drawn from the host's own stream.
struct HostTraits {
  int shift = 0;        // latency shift in buckets
  double rate = 1.0;    // throughput factor
  double tail_p = 0.0;  // probability of a tail event per record
};

HostTraits MakeHost(const Config& c, int host) {
  Rng r(Mix(c.seed, 1000003ULL + host));
  HostTraits t;
  t.shift = r.Range(-8, 16);
  t.tail_p = 0.002;
  if (r.Uniform() < 1.0 / 16) {  // a slow host: ~1.5x latency, more tail events
    t.shift += 38;
    t.tail_p = 0.01;
  }
  t.rate = std::pow(2.0, -t.shift / 64.0) * (1.0 + 0.03 * r.Gauss());
  return t;
}

/// Appends `v` in decimal.
inline char* PutInt(char* p, uint64_t v) {
  auto res = std::to_chars(p, p + 24, v);
  return res.ptr;
}

/// Generates one record into dense `counts` (zeroed by the caller).
void Perturb(const SparseRecord& src, int shift, double rate, double tail_p, int buckets, Rng& r,
             std::vector<uint32_t>& counts) {
  const int last = buckets - 1;
  for (const auto& [idx, c] : src.buckets) {
    int i = idx + shift;
    uint32_t n;
    if (c >= 8) {
      n = r.Poisson(c * rate);
    } else {
      n = c;
      double u = r.Uniform();
      if (u < 0.1 && n > 1) {
        --n;
      } else if (u < 0.2) {
        ++n;
      }
      if (r.Uniform() < 0.5) i += r.Range(-3, 3);
    }
    i = std::clamp(i, 0, last);
    counts[i] += n;
  }
  if (r.Uniform() < tail_p) {
    // A short hiccup: a few I/Os between ~15 ms and ~400 ms (buckets 1200..1500 in fio3).
    int k = r.Range(1, 5);
    for (int j = 0; j < k; ++j) counts[std::min(last, r.Range(1200, 1500))] += 1;
  }
  if (r.Uniform() < 5e-6) counts[last] += 1;  // latency beyond fio's range: clamped
}

/// Writes one line exactly as fio does: "time, dir, bs, c0, ..., cN-1\n".
size_t FormatLine(char* buf, uint64_t stamp, int dir, const std::vector<uint32_t>& counts) {
  char* p = buf;
  p = PutInt(p, stamp);
  *p++ = ',';
  *p++ = ' ';
  *p++ = static_cast<char>('0' + dir);
  std::memcpy(p, ", 4096", 6);
  p += 6;
  for (uint32_t c : counts) {
    *p++ = ',';
    *p++ = ' ';
    if (c == 0) {
      *p++ = '0';
    } else {
      p = PutInt(p, c);
    }
  }
  *p++ = '\n';
  return static_cast<size_t>(p - buf);
}

/// Output sinks of one log: plain file and/or gzip copy.
class Sink {
 public:
  Sink(const fs::path& plain, const fs::path& gz, int level) {
    if (!plain.empty()) {
      plain_ = std::fopen(plain.c_str(), "wb");
      if (!plain_) error_ = "cannot create " + plain.string();
    }
    if (!gz.empty() && error_.empty()) {
      std::string mode = "wb" + std::to_string(level);
      gz_ = gzopen(gz.c_str(), mode.c_str());
      if (!gz_) {
        error_ = "cannot create " + gz.string();
      } else {
        gzbuffer(gz_, 1 << 20);
      }
    }
  }
  ~Sink() { Close(); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  const std::string& error() const { return error_; }

  void Write(const char* data, size_t n) {
    if (!error_.empty()) return;
    if (plain_ && std::fwrite(data, 1, n, plain_) != n) error_ = "write failed";
    if (gz_ && gzwrite(gz_, data, static_cast<unsigned>(n)) != static_cast<int>(n)) {
      error_ = "gzwrite failed";
    }
  }

  /// Flushes and closes both sinks (idempotent); errors land in error().
  void Close() {
    if (plain_) {
      if (std::fclose(plain_) != 0 && error_.empty()) error_ = "close failed";
      plain_ = nullptr;
    }
    if (gz_) {
      if (gzclose(gz_) != Z_OK && error_.empty()) error_ = "gzclose failed";
      gz_ = nullptr;
    }
  }

 private:
  std::FILE* plain_ = nullptr;
  gzFile gz_ = nullptr;
  std::string error_;
};

/// Counters of one generated log.
struct FileStats {
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t io = 0;
  std::string error;
};

std::string HostName(const Config& c, int host) {
  int width = std::max(2, static_cast<int>(std::to_string(c.hosts).size()));
  std::string n = std::to_string(host + 1);
  return "host" + std::string(width - std::min<int>(width, n.size()), '0') + n;
}

fs::path LogPath(const Config& c, const fs::path& dir, int host, int job, const char* ext) {
  std::string base = c.prefix + "_clat_hist." + std::to_string(job + 1) + ".log";
  if (c.dirs) return dir / HostName(c, host) / (base + ext);
  return dir / (base + "." + HostName(c, host) + ext);
}

FileStats GenerateLog(const Config& c, const std::vector<TemplateJob>& templates,
                      const fs::path& plain_dir, const fs::path& gz_dir, int host, int job) {
  FileStats st;
  fs::path plain = plain_dir.empty() ? fs::path() : LogPath(c, plain_dir, host, job, "");
  fs::path gz = gz_dir.empty() ? fs::path() : LogPath(c, gz_dir, host, job, ".gz");
  Sink sink(plain, gz, c.gzip_level);
  if (!sink.error().empty()) {
    st.error = sink.error();
    return st;
  }
  const HostTraits ht = MakeHost(c, host);
  Rng r(Mix(Mix(c.seed, host), 7919ULL + job));
  const TemplateJob& tj = templates[(host + job) % templates.size()];
  const int job_shift = ht.shift + r.Range(-2, 2);
  const double job_rate = ht.rate * std::pow(2.0, -(job_shift - ht.shift) / 64.0);
  // fio sometimes writes one more interval than its siblings (the run ends mid-flush).
  const int records = c.seconds + (r.Uniform() < 0.25 ? 1 : 0);
  const size_t n_int = tj.intervals.size();
  size_t cursor = static_cast<size_t>(r.Range(0, static_cast<int>(n_int) - 1));

  std::vector<uint32_t> counts(c.buckets, 0);
  std::string chunk;
  const size_t line_max = 64 + static_cast<size_t>(c.buckets) * 12;
  chunk.resize(1 << 20);
  size_t used = 0;
  for (int s = 0; s < records; ++s) {
    // Mostly walk forward through the real run (neighbouring seconds look alike),
    // sometimes jump, so long runs do not repeat with a visible period.
    if (r.Uniform() < 0.2) {
      cursor = static_cast<size_t>(r.Range(0, static_cast<int>(n_int) - 1));
    } else {
      cursor = (cursor + 1) % n_int;
    }
    const RealInterval& ri = tj.intervals[cursor];
    const double wobble = std::max(0.5, 1.0 + 0.04 * r.Gauss());
    uint64_t stamp = static_cast<uint64_t>(s + 1) * 1000 + 1;
    if (r.Uniform() < 0.05) stamp += 2;
    uint64_t stamp2 = stamp + (r.Uniform() < 0.03 ? 1 : 0);
    const bool write_first = r.Uniform() < 0.35;
    for (int k = 0; k < 2; ++k) {
      const int dir = (k == 0) == write_first ? 1 : 0;
      std::fill(counts.begin(), counts.end(), 0);
      Perturb(dir ? ri.write : ri.read, job_shift, job_rate * wobble, ht.tail_p, c.buckets, r,
              counts);
      for (uint32_t x : counts) st.io += x;
      if (used + line_max > chunk.size()) {
        sink.Write(chunk.data(), used);
        used = 0;
      }
      size_t n = FormatLine(chunk.data() + used, k == 0 ? stamp : stamp2, dir, counts);
      used += n;
      st.bytes += n;
      ++st.lines;
    }
  }
  sink.Write(chunk.data(), used);
  sink.Close();
  st.error = sink.error();
  return st;
}

void WriteManifest(const fs::path& dir, const Config& c, const std::vector<FileStats>& stats,
                   bool gz) {
  uint64_t bytes = 0, lines = 0, io = 0, stored = 0;
  for (const auto& s : stats) {
    bytes += s.bytes;
    lines += s.lines;
    io += s.io;
  }
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().filename() != "MANIFEST") stored += e.file_size();
  }
  std::ofstream m(dir / "MANIFEST");
  m << "generator_version " << kVersion << "\n"
    << "seed " << c.seed << "\n"
    << "hosts " << c.hosts << "\n"
    << "jobs " << c.jobs << "\n"
    << "seconds " << c.seconds << "\n"
    << "layout " << (c.dirs ? "dirs" : "suffix") << "\n"
    << "compressed " << (gz ? 1 : 0) << "\n"
    << "files " << stats.size() << "\n"
    << "records " << lines << "\n"
    << "text_bytes " << bytes << "\n"
    << "stored_bytes " << stored << "\n"
    << "ios " << io << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  std::string logs_dir = FIOHIST_SOURCE_DIR "/tests/data/fio-logs/randrw4";
  std::string out_dir, gz_dir, layout = "suffix";
  double scale = 1.0;
  bool long_run = false;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  po::options_description desc(
      "gen_corpus: deterministic fio histogram log corpus built from real logs\nOptions");
  desc.add_options()("help,h", "show this help")(
      "logs", po::value(&logs_dir)->default_value(logs_dir),
      "directory with the real fio3 logs (*_clat_hist.*.log)")(
      "out", po::value(&out_dir), "write plain logs into this directory")(
      "gz-out", po::value(&gz_dir), "write a gzip copy (.gz) into this directory")(
      "hosts", po::value(&c.hosts)->default_value(c.hosts), "number of hosts")(
      "jobs", po::value(&c.jobs)->default_value(c.jobs), "jobs (logs) per host")(
      "seconds", po::value(&c.seconds)->default_value(c.seconds), "run length, 1 s records")(
      "long", po::bool_switch(&long_run), "10x the duration (the flat-memory variant)")(
      "scale", po::value(&scale)->default_value(scale),
      "scale the corpus size: hosts and seconds are each multiplied by sqrt(F)")(
      "seed", po::value(&c.seed)->default_value(c.seed), "random seed")(
      "layout", po::value(&layout)->default_value(layout),
      "suffix: PREFIX_clat_hist.J.log.hostNN; dirs: hostNN/PREFIX_clat_hist.J.log")(
      "gzip-level", po::value(&c.gzip_level)->default_value(c.gzip_level), "zlib level 1..9")(
      "threads", po::value(&threads)->default_value(threads), "worker threads");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "gen_corpus: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  if (out_dir.empty() && gz_dir.empty()) {
    std::cerr << "gen_corpus: give --out and/or --gz-out\n";
    return 2;
  }
  if (layout != "suffix" && layout != "dirs") {
    std::cerr << "gen_corpus: --layout must be suffix or dirs\n";
    return 2;
  }
  c.dirs = layout == "dirs";
  if (scale <= 0 || c.hosts < 1 || c.jobs < 1 || c.seconds < 1 || threads < 1 || c.gzip_level < 1 ||
      c.gzip_level > 9) {
    std::cerr << "gen_corpus: bad size options\n";
    return 2;
  }
  if (scale != 1.0) {
    double f = std::sqrt(scale);
    c.hosts = std::max(1, static_cast<int>(std::lround(c.hosts * f)));
    c.seconds = std::max(5, static_cast<int>(std::lround(c.seconds * f)));
  }
  if (long_run) c.seconds *= 10;

  std::vector<TemplateJob> templates;
  std::vector<fs::path> real;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(logs_dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.find("_clat_hist.") != std::string::npos && n.size() > 4 &&
        n.compare(n.size() - 4, 4, ".log") == 0) {
      real.push_back(e.path());
    }
  }
  if (ec || real.empty()) {
    std::cerr << "gen_corpus: no *_clat_hist.*.log in " << logs_dir << "\n";
    return 1;
  }
  std::sort(real.begin(), real.end());
  for (const auto& p : real) {
    TemplateJob t;
    std::string err;
    if (!LoadTemplate(p, c.buckets, &t, &err)) {
      std::cerr << "gen_corpus: " << err << "\n";
      return 1;
    }
    templates.push_back(std::move(t));
  }

  for (const std::string& d : {out_dir, gz_dir}) {
    if (d.empty()) continue;
    fs::create_directories(d, ec);
    if (!ec && c.dirs) {
      for (int h = 0; h < c.hosts && !ec; ++h)
        fs::create_directories(fs::path(d) / HostName(c, h), ec);
    }
    if (ec) {
      std::cerr << "gen_corpus: cannot create " << d << ": " << ec.message() << "\n";
      return 1;
    }
  }

  const int total = c.hosts * c.jobs;
  std::vector<FileStats> stats(total);
  std::atomic<int> next{0};
  auto worker = [&]() {
    for (int i = next++; i < total; i = next++) {
      stats[i] = GenerateLog(c, templates, out_dir, gz_dir, i / c.jobs, i % c.jobs);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min(threads, total); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  for (const auto& s : stats) {
    if (!s.error.empty()) {
      std::cerr << "gen_corpus: " << s.error << "\n";
      return 1;
    }
  }
  if (!out_dir.empty()) WriteManifest(out_dir, c, stats, false);
  if (!gz_dir.empty()) WriteManifest(gz_dir, c, stats, true);
  uint64_t bytes = 0, lines = 0;
  for (const auto& s : stats) {
    bytes += s.bytes;
    lines += s.lines;
  }
  std::cout << "gen_corpus: " << total << " logs (" << c.hosts << " hosts x " << c.jobs
            << " jobs x " << c.seconds << " s), " << lines << " records, " << bytes
            << " text bytes\n";
  return 0;
}
