#include "output/document_id.h"

namespace fiohist {

std::string HashHex128(const std::string& key) {
  IdHash h;
  h.Feed(key);
  std::string out(32, '0');
  h.Hex(out.data());
  return out;
}

}  // namespace fiohist
