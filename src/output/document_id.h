// Document ids: deterministic 128-bit hashes of what a document is about, so a re-push
// overwrites its documents instead of adding new ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace fiohist {
namespace id_hash {

constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
constexpr uint64_t kIdSeedA = 0xcbf29ce484222325ULL;
constexpr uint64_t kIdSeedB = 0x84222325cbf29ce4ULL;

inline uint64_t Mix(uint64_t z) {  // splitmix64 finaliser: spreads every input bit
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace id_hash

/// The two FNV-1a hashes behind a document id, fed piece by piece so that the key string
/// never has to be built; Hex() gives the id.
struct IdHash {
  uint64_t a = id_hash::kIdSeedA;
  uint64_t b = id_hash::kIdSeedB;

  /// Hashes `n` bytes of `s` into both.
  void Feed(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      a = (a ^ c) * id_hash::kFnvPrime;
      b = (b ^ c) * id_hash::kFnvPrime;
    }
  }
  void Feed(const std::string& s) { Feed(s.data(), s.size()); }
  void Feed(const char* s) { Feed(s, std::strlen(s)); }
  /// Separates two parts of the key (so "ab","c" and "a","bc" differ).
  void Sep() { Feed("\x1f", 1); }

  /// The 32 lowercase hex digits of the id.
  void Hex(char* out) const {
    static const char kHex[] = "0123456789abcdef";
    const uint64_t x = id_hash::Mix(a);
    const uint64_t y = id_hash::Mix(b ^ x);
    for (int i = 0; i < 16; ++i) {
      out[15 - i] = kHex[(x >> (4 * i)) & 15];
      out[31 - i] = kHex[(y >> (4 * i)) & 15];
    }
  }
};

/// Lowercase hex of a 128-bit hash of `key` (not cryptographic; for document ids).
std::string HashHex128(const std::string& key);

}  // namespace fiohist
