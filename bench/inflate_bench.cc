// Inflate speed of the gzip engines on fio logs: `inflate_bench ENGINE FILE...` inflates
// every file (ENGINE: zlib, igzip or libdeflate) and prints bytes out and CPU seconds.
// zlib and igzip stream (16 KB of output at a time, as the log reader does); libdeflate
// can only inflate a whole member into a buffer that holds all of it, so it is given the
// whole file and an output buffer of the member's size (its gzip trailer's ISIZE).
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::string ReadFile(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// Streams one single-member file through zlib; returns the bytes made.
size_t Zlib(const std::string& in, std::vector<char>* out) {
  z_stream zs{};
  inflateInit2(&zs, 15 + 16);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  size_t made = 0;
  int ret = Z_OK;
  while (ret == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(out->data());
    zs.avail_out = static_cast<uInt>(out->size());
    ret = inflate(&zs, Z_NO_FLUSH);
    made += out->size() - zs.avail_out;
  }
  inflateEnd(&zs);
  return made;
}

size_t Igzip(const std::string& in, std::vector<char>* out, inflate_state* s) {
  isal_inflate_init(s);
  s->crc_flag = ISAL_GZIP;
  s->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data()));
  s->avail_in = static_cast<uint32_t>(in.size());
  size_t made = 0;
  while (s->block_state != ISAL_BLOCK_FINISH) {
    s->next_out = reinterpret_cast<uint8_t*>(out->data());
    s->avail_out = static_cast<uint32_t>(out->size());
    if (isal_inflate(s) != ISAL_DECOMP_OK) break;
    made += out->size() - s->avail_out;
  }
  return made;
}

size_t Libdeflate(const std::string& in, std::vector<char>* whole, libdeflate_decompressor* d) {
  const unsigned char* t = reinterpret_cast<const unsigned char*>(in.data()) + in.size() - 4;
  const size_t size = t[0] | t[1] << 8 | t[2] << 16 | static_cast<size_t>(t[3]) << 24;
  if (whole->size() < size) whole->resize(size);
  size_t made = 0;
  libdeflate_gzip_decompress(d, in.data(), in.size(), whole->data(), size, &made);
  return made;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: inflate_bench zlib|igzip|libdeflate FILE...\n");
    return 2;
  }
  const std::string engine = argv[1];
  std::vector<char> out(16 * 1024);
  inflate_state isal{};
  libdeflate_decompressor* ld = libdeflate_alloc_decompressor();
  size_t total = 0, compressed = 0;
  double cpu = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string in = ReadFile(argv[i]);
    compressed += in.size();
    const std::clock_t c0 = std::clock();
    if (engine == "zlib") {
      total += Zlib(in, &out);
    } else if (engine == "igzip") {
      total += Igzip(in, &out, &isal);
    } else {
      total += Libdeflate(in, &out, ld);
    }
    cpu += static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  }
  libdeflate_free_decompressor(ld);
  std::printf("%s: %zu bytes in, %zu out, %.3f CPU s inflating, %.0f MB/s\n", engine.c_str(),
              compressed, total, cpu, total / 1e6 / cpu);
  return 0;
}
