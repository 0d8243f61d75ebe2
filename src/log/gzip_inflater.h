// Streaming gzip decompression with ISA-L's igzip (or zlib, when built without it).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace fiohist {

/// Inflates one gzip member after another from input handed in pieces into output buffers
/// of any size. igzip (ISA-L, `isal_inflate`) inflates fio's logs about twice as fast as
/// zlib (bench/README.md); zlib is the fallback of a build without it. libdeflate is
/// faster still but only inflates whole buffers, so it cannot stream thousands of logs.
class GzipInflater {
 public:
  /// What one Inflate() call came to.
  enum class Result {
    kOk,         // made output or took all input; call again with more of either
    kMemberEnd,  // a member ended (its check value was right); Reset() for the next one.
                 // next_in may then move back by up to kGiveBack bytes of the last input.
    kError,      // damaged data; `error` says how
  };

  /// Bytes before next_in that the caller keeps when it hands in more input.
  static constexpr size_t kGiveBack = 8;

  GzipInflater();
  ~GzipInflater();
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  /// The engine compiled in: "igzip" or "zlib".
  static const char* Engine();

  /// Hands in the next input bytes (they must stay valid until taken).
  void SetInput(const unsigned char* data, size_t size);
  /// Input bytes not yet taken, and where they start.
  size_t avail_in() const;
  const unsigned char* next_in() const;
  /// Inflates into `out` (up to `room` bytes), setting `*made` to the bytes written. On
  /// kError `*error` says what is wrong in zlib's words ("incorrect data check", ...).
  Result Inflate(char* out, size_t room, size_t* made, std::string* error);
  /// Starts the next member.
  void Reset();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace fiohist
