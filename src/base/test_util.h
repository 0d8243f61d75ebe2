// Helpers shared by the unit tests of every stage.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace fiohist {

/// Writes `text` to a fresh file under the test's temp dir and returns its path.
inline std::string WriteTempFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

}  // namespace fiohist
