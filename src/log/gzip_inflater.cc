#include "log/gzip_inflater.h"

#ifdef FIOHIST_GZIP_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

namespace fiohist {

#ifdef FIOHIST_GZIP_ISAL

// 87 KB of state per stream: the history and igzip's decode tables.
struct GzipInflater::State {
  inflate_state s;
};

GzipInflater::GzipInflater() : state_(std::make_unique<State>()) {
  state_->s.next_in = nullptr;
  state_->s.avail_in = 0;
  Reset();
}

const char* GzipInflater::Engine() { return "igzip"; }

void GzipInflater::Reset() {
  inflate_state& s = state_->s;
  uint8_t* const next_in = s.next_in;  // isal_inflate_init() forgets the input
  const uint32_t avail_in = s.avail_in;
  isal_inflate_init(&s);
  s.crc_flag = ISAL_GZIP;  // parse the gzip header, check CRC32 and length
  s.next_in = next_in;
  s.avail_in = avail_in;
}

void GzipInflater::SetInput(const unsigned char* data, size_t size) {
  state_->s.next_in = const_cast<unsigned char*>(data);
  state_->s.avail_in = static_cast<uint32_t>(size);
}

size_t GzipInflater::avail_in() const { return state_->s.avail_in; }
const unsigned char* GzipInflater::next_in() const { return state_->s.next_in; }

GzipInflater::Result GzipInflater::Inflate(char* out, size_t room, size_t* made,
                                           std::string* error) {
  inflate_state& s = state_->s;
  s.next_out = reinterpret_cast<uint8_t*>(out);
  s.avail_out = static_cast<uint32_t>(room);
  const int ret = isal_inflate(&s);
  *made = room - s.avail_out;
  switch (ret) {
    case ISAL_DECOMP_OK:
    case ISAL_END_INPUT:
      if (s.block_state != ISAL_BLOCK_FINISH) return Result::kOk;
      // igzip reads whole words: bytes after the member's trailer may sit in its bit
      // buffer. Hand them back (they are the ones just before next_in).
      s.next_in -= s.read_in_length / 8;
      s.avail_in += static_cast<uint32_t>(s.read_in_length / 8);
      s.read_in = 0;
      s.read_in_length = 0;
      return Result::kMemberEnd;
    // zlib's words for the same faults, which users (and the bad-input tests) know.
    case ISAL_INCORRECT_CHECKSUM:
      *error = "incorrect data check";
      break;
    case ISAL_INVALID_BLOCK:
      *error = "invalid block type";
      break;
    case ISAL_INVALID_SYMBOL:
      *error = "invalid code";
      break;
    case ISAL_INVALID_LOOKBACK:
      *error = "invalid distance too far back";
      break;
    case ISAL_INVALID_WRAPPER:
      *error = "incorrect header check";
      break;
    case ISAL_UNSUPPORTED_METHOD:
      *error = "unknown compression method";
      break;
    default:
      *error = "invalid data (igzip error " + std::to_string(ret) + ")";
  }
  return Result::kError;
}

#else

// About 7 KB of state plus zlib's 32 KB window per stream.
struct GzipInflater::State {
  z_stream zs{};
  bool initialized = false;
  ~State() {
    if (initialized) inflateEnd(&zs);
  }
};

GzipInflater::GzipInflater() : state_(std::make_unique<State>()) {
  // 15 + 16: a gzip wrapper, the largest window.
  state_->initialized = inflateInit2(&state_->zs, 15 + 16) == Z_OK;
}

const char* GzipInflater::Engine() { return "zlib"; }

void GzipInflater::Reset() { inflateReset(&state_->zs); }

void GzipInflater::SetInput(const unsigned char* data, size_t size) {
  state_->zs.next_in = const_cast<unsigned char*>(data);
  state_->zs.avail_in = static_cast<uInt>(size);
}

size_t GzipInflater::avail_in() const { return state_->zs.avail_in; }
const unsigned char* GzipInflater::next_in() const { return state_->zs.next_in; }

GzipInflater::Result GzipInflater::Inflate(char* out, size_t room, size_t* made,
                                           std::string* error) {
  z_stream& zs = state_->zs;
  if (!state_->initialized) {
    *made = 0;
    *error = "cannot start gzip decompression";
    return Result::kError;
  }
  zs.next_out = reinterpret_cast<Bytef*>(out);
  zs.avail_out = static_cast<uInt>(room);
  const int ret = inflate(&zs, Z_NO_FLUSH);
  *made = room - zs.avail_out;
  if (ret == Z_STREAM_END) return Result::kMemberEnd;
  if (ret == Z_OK || ret == Z_BUF_ERROR) return Result::kOk;
  *error = zs.msg != nullptr ? zs.msg : "zlib error " + std::to_string(ret);
  return Result::kError;
}

#endif

GzipInflater::~GzipInflater() = default;

}  // namespace fiohist
