#include "stats/percentile_interval.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>

namespace fiohist {
namespace {

// The binomial in double precision: Boost.Math otherwise promotes double to long double
// inside the incomplete beta, which costs about twice the time; the cdf is only compared
// with alpha/2, and the tests check the ranks against the promoted computation.
using Binomial = boost::math::binomial_distribution<
    double, boost::math::policies::policy<boost::math::policies::promote_double<false>>>;

// The largest k in [lo, hi] with pred(k) true, for pred true up to some k and false after;
// pred(lo) is taken as true and pred(hi + 1) as false without asking. Gallops out from
// `guess`, then bisects: a good guess costs two or three evaluations of pred.
template <typename Pred>
int64_t LastTrue(const Pred& pred, int64_t lo, int64_t hi, int64_t guess) {
  int64_t t = lo, f = hi + 1;
  const int64_t g = std::clamp(guess, lo, hi);
  bool up = true;
  if (g > t) {
    if (pred(g)) {
      t = g;
    } else {
      f = g;
      up = false;
    }
  }
  int64_t step = 1;
  if (up) {
    while (t + step < f) {
      if (!pred(t + step)) {
        f = t + step;
        break;
      }
      t += step;
      step *= 2;
    }
  } else {
    while (f - step > t) {
      if (pred(f - step)) {
        t = f - step;
        break;
      }
      f -= step;
      step *= 2;
    }
  }
  while (f - t > 1) {
    const int64_t m = t + (f - t) / 2;
    if (pred(m)) {
      t = m;
    } else {
      f = m;
    }
  }
  return t;
}

// Cornish-Fisher approximation of the binomial's q-quantile (normal plus skew term): only
// the starting point of the exact search.
double GuessQuantile(int64_t n, double p, double z) {
  const double sigma = std::sqrt(static_cast<double>(n) * p * (1 - p));
  if (!(sigma > 0)) return static_cast<double>(n) * p;
  const double skew = (1 - 2 * p) / sigma;
  return static_cast<double>(n) * p + sigma * (z + (z * z - 1) * skew / 6);
}

RankInterval ComputeRanks(int64_t n, double p, double confidence) {
  RankInterval r;
  if (n <= 0) {
    r.lower = 0;
    r.upper = n + 1;
    return r;
  }
  if (p <= 0) {  // B = 0 always: no lower bound, the fastest I/O bounds it above
    r.lower = 0;
    r.upper = 1;
    return r;
  }
  if (p >= 1) {  // B = n always: the slowest I/O bounds it below, nothing above
    r.lower = n;
    r.upper = n + 1;
    return r;
  }
  const double a = (1 - confidence) / 2;
  const Binomial b(static_cast<double>(n), p);
  const boost::math::normal_distribution<double> normal;
  const double z = boost::math::quantile(normal, a);  // negative
  auto guess = [](double x) {
    return static_cast<int64_t>(std::floor(std::clamp(x, -2.0, 9.0e18)));
  };
  // Lower: the largest k with P(B <= k) <= a; l = k + 1 (k = -1: none, l = 0).
  const int64_t k_low = LastTrue(
      [&](int64_t k) { return boost::math::cdf(b, static_cast<double>(k)) <= a; }, -1, n - 1,
      guess(GuessQuantile(n, p, z)) - 1);
  // Upper: the largest k with P(B > k) > a, k = -1 included (always); u - 1 is the next k,
  // the smallest with P(B >= u) <= a.
  const int64_t k_high = LastTrue(
      [&](int64_t k) {
        return boost::math::cdf(boost::math::complement(b, static_cast<double>(k))) > a;
      },
      -1, n - 1, guess(GuessQuantile(n, p, -z)) - 1);
  r.lower = k_low + 1;
  r.upper = k_high + 2;
  return r;
}

struct RankKey {
  int64_t n;
  double p;
  double confidence;
  bool operator==(const RankKey& o) const {
    return n == o.n && p == o.p && confidence == o.confidence;
  }
};

// splitmix64's finalizer: keys differ in a few low bits of n (grid points are multiples of
// a power of two), which a plain combination leaves in long bucket chains.
uint64_t MixSeed(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t Bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

struct RankKeyHash {
  size_t operator()(const RankKey& k) const {
    return static_cast<size_t>(
        MixSeed(static_cast<uint64_t>(k.n) ^ MixSeed(Bits(k.p) ^ MixSeed(Bits(k.confidence)))));
  }
};

// Bounds the per-thread cache; a full cache starts over (a run's n repeat in streaks).
constexpr size_t kMaxCachedRanks = 1 << 16;

// The bracket grid: every n below 256, then 128 points per power of two.
int64_t GridStep(int64_t n) {
  if (n < 256) return 1;
  const int octave = 63 - __builtin_clzll(static_cast<unsigned long long>(n));
  return int64_t{1} << (octave - 7);
}

// A grid point's place in a dense table: 0..255, then 128 slots per octave from 256 on.
size_t GridIndex(int64_t n) {
  if (n < 256) return static_cast<size_t>(n);
  const int octave = 63 - __builtin_clzll(static_cast<unsigned long long>(n));
  const int64_t m = n >> (octave - 7);  // 128..255
  return 256 + static_cast<size_t>(octave - 8) * 128 + static_cast<size_t>(m - 128);
}

// The exact ranks at grid point n, from a per-thread table per (p, confidence): a run
// looks the grid up twice per percentile per quantum and scope, and a hash map's cache
// misses cost more than the rest of the interval.
RankInterval GridRanks(int64_t n, double p, double confidence) {
  struct Table {
    double p, confidence;
    std::vector<RankInterval> ranks;  // upper == 0: not computed yet
  };
  thread_local std::vector<Table> tables;
  Table* t = nullptr;
  for (Table& e : tables) {
    if (e.p == p && e.confidence == confidence) t = &e;
  }
  if (t == nullptr) {
    tables.push_back(Table{p, confidence, {}});
    t = &tables.back();
  }
  const size_t i = GridIndex(n);
  if (i >= t->ranks.size()) t->ranks.resize(i + 1);
  RankInterval& r = t->ranks[i];
  if (r.upper == 0) r = ComputeRanks(n, p, confidence);  // upper >= 1 once computed
  return r;
}

}  // namespace

Status CheckConfidence(double confidence) {
  if (!(confidence > 0 && confidence < 1)) {
    return Status::Error("--confidence: expected a level strictly between 0 and 1 (such as 0.95 "
                         "or 95%), got " +
                         std::to_string(confidence));
  }
  return Status();
}

Status ParseConfidence(const std::string& text, double* confidence) {
  std::string t = text;
  bool percent = false;
  if (!t.empty() && t.back() == '%') {
    percent = true;
    t.pop_back();
  }
  char* rest = nullptr;
  double v = std::strtod(t.c_str(), &rest);
  if (t.empty() || rest == t.c_str() || *rest != '\0' || !std::isfinite(v)) {
    return Status::Error("--confidence: expected a level strictly between 0 and 1 (such as "
                         "0.95 or 95%), got '" +
                         text + "'");
  }
  if (percent) v /= 100;
  if (!(v > 0 && v < 1)) {
    return Status::Error("--confidence: expected a level strictly between 0 and 1 (such as "
                         "0.95 or 95%), got '" +
                         text + "'");
  }
  *confidence = v;
  return Status();
}

int64_t WholeIos(double weighted) {
  if (!(weighted > 0)) return 0;
  // fio's counts are 64-bit, but a sum of them need not fit int64_t (a corrupt or fuzzed log
  // comes near); beyond kMaxIntervalIos the ranks' grid would overflow, and the interval of so
  // many I/Os is far narrower than any bucket anyway.
  const double whole = std::floor(weighted * (1 + 1e-9));
  return whole >= static_cast<double>(kMaxIntervalIos) ? kMaxIntervalIos
                                                       : static_cast<int64_t>(whole);
}

RankInterval QuantileRanks(int64_t n, double p, double confidence) {
  thread_local std::unordered_map<RankKey, RankInterval, RankKeyHash> cache;
  const RankKey key{n, p, confidence};
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() >= kMaxCachedRanks) cache.clear();
  const RankInterval r = ComputeRanks(n, p, confidence);
  cache.emplace(key, r);
  return r;
}

RankBracket QuantileRankBracket(int64_t n, double p, double confidence) {
  RankBracket b;
  const int64_t n0 = n - n % GridStep(n);
  if (n0 == n) {
    const RankInterval r = GridRanks(n, p, confidence);
    b.lower_min = b.lower_max = r.lower;
    b.upper_min = b.upper_max = r.upper;
    return b;
  }
  const int64_t n1 = n0 + GridStep(n);
  const RankInterval r0 = GridRanks(n0, p, confidence);
  const RankInterval r1 = GridRanks(n1, p, confidence);
  b.lower_min = std::max(r0.lower, r1.lower - (n1 - n));
  b.lower_max = std::min(r1.lower, r0.lower + (n - n0));
  b.upper_min = std::max(r0.upper, r1.upper - (n1 - n));
  b.upper_max = std::min(r1.upper, r0.upper + (n - n0));
  return b;
}

bool LowerRankAtLeast(int64_t n, double p, double confidence, int64_t rank) {
  if (rank <= 0) return true;
  if (rank > n) return false;
  if (!(p > 0 && p < 1)) return QuantileRanks(n, p, confidence).lower >= rank;
  const Binomial b(static_cast<double>(n), p);
  return boost::math::cdf(b, static_cast<double>(rank - 1)) <= (1 - confidence) / 2;
}

bool UpperRankAtMost(int64_t n, double p, double confidence, int64_t rank) {
  if (rank <= 0) return false;
  if (rank > n) return true;
  if (!(p > 0 && p < 1)) return QuantileRanks(n, p, confidence).upper <= rank;
  const Binomial b(static_cast<double>(n), p);
  return boost::math::cdf(boost::math::complement(b, static_cast<double>(rank - 1))) <=
         (1 - confidence) / 2;
}

double RanksCoverage(int64_t n, double p, RankInterval r) {
  if (n <= 0) return 0;
  const double pc = std::clamp(p, 0.0, 1.0);
  const Binomial b(static_cast<double>(n), pc);
  auto cdf = [&](int64_t k) {
    if (k < 0) return 0.0;
    if (k >= n) return 1.0;
    return boost::math::cdf(b, static_cast<double>(k));
  };
  return cdf(r.upper - 1) - cdf(r.lower - 1);
}

}  // namespace fiohist
