#include "log/log_reader.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "base/open_files.h"
#include "base/test_util.h"

namespace fiohist {
namespace {

std::vector<std::string> Lines(const std::string& path, Status* status = nullptr) {
  std::unique_ptr<LogReader> r;
  Status s = LogReader::Open(path, &r);
  EXPECT_TRUE(s.ok()) << s.message();
  std::vector<std::string> lines;
  std::string_view line;
  while (r->NextLine(&line)) lines.emplace_back(line);
  if (status) *status = r->status();
  return lines;
}

// Lines long enough that the reader refills and inflates many times.
std::string ManyLines(int n, const std::string& tag) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += std::to_string(i * 1000) + ", 0, 4096, " + tag + std::string(200 + i % 300, '7') + "\n";
  }
  return text;
}

TEST(LogReaderTest, GzipOfSeveralMembersReadsAsTheirConcatenation) {
  const std::string a = ManyLines(300, "a"), b = ManyLines(200, "b");
  const std::string path = WriteTempFile("multi.log.gz", GzipText(a) + GzipText(b));
  Status s;
  const std::vector<std::string> lines = Lines(path, &s);
  EXPECT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(lines.size(), 500u);
  EXPECT_EQ(lines[299].substr(0, 12), "299000, 0, 4");
  EXPECT_EQ(lines[300].substr(0, 16), "0, 0, 4096, b777");
}

TEST(LogReaderTest, BytesAfterTheLastMemberAreIgnoredAsByGzread) {
  const std::string path = WriteTempFile("trail.log.gz", GzipText(ManyLines(50, "x")) + "junk");
  Status s;
  EXPECT_EQ(Lines(path, &s).size(), 50u);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(LogReaderTest, TruncatedGzipSaysSoAtTheLineItReached) {
  const std::string gz = GzipText(ManyLines(400, "t"));
  const std::string path = WriteTempFile("cut.log.gz", gz.substr(0, gz.size() / 2));
  Status s;
  const size_t n = Lines(path, &s).size();
  EXPECT_LT(n, 400u);
  ASSERT_FALSE(s.ok());
  const std::string want = ":" + std::to_string(n + 1) + ": bad gzip data: unexpected end of file";
  EXPECT_NE(s.message().find(want), std::string::npos)
      << s.message();
}

// Beyond the open-file budget every read opens the file again: many readers at once, the
// same lines, and no file left open.
TEST(LogReaderTest, ReadersBeyondTheBudgetReadTheSame) {
  const int budget = OpenFileBudget();
  SetOpenFileBudget(HeldOpenFiles() + 3);
  const std::string text = ManyLines(500, "p");
  const std::string plain = WriteTempFile("many.log", text);
  const std::string gz = WriteTempFile("many.log.gz", GzipText(text));
  std::vector<std::unique_ptr<LogReader>> readers(40);
  for (size_t i = 0; i < readers.size(); ++i) {
    ASSERT_TRUE(LogReader::Open(i % 2 ? gz : plain, &readers[i]).ok());
  }
  EXPECT_EQ(HeldOpenFiles(), OpenFileBudget());
  // Round robin, as the pipeline reads them quantum by quantum.
  std::vector<std::string> got(readers.size());
  std::string_view line;
  for (bool more = true; more;) {
    more = false;
    for (size_t i = 0; i < readers.size(); ++i) {
      if (readers[i]->NextLine(&line)) {
        got[i].append(line).push_back('\n');
        more = true;
      }
    }
  }
  for (size_t i = 0; i < readers.size(); ++i) {
    EXPECT_TRUE(readers[i]->status().ok()) << readers[i]->status().message();
    EXPECT_EQ(got[i], text) << i;
  }
  readers.clear();
  SetOpenFileBudget(budget);
}

TEST(LogReaderTest, ReplacedFileIsAnErrorForAReaderBeyondTheBudget) {
  const int budget = OpenFileBudget();
  SetOpenFileBudget(HeldOpenFiles());
  const std::string path = WriteTempFile("replaced.log", ManyLines(500, "r"));
  std::unique_ptr<LogReader> r;
  ASSERT_TRUE(LogReader::Open(path, &r).ok());
  std::string_view line;
  ASSERT_TRUE(r->NextLine(&line));
  const std::string other = WriteTempFile("replacement.log", ManyLines(500, "s"));
  ASSERT_EQ(rename(other.c_str(), path.c_str()), 0);
  while (r->NextLine(&line)) {
  }
  EXPECT_NE(r->status().message().find("replaced by another file"), std::string::npos)
      << r->status().message();
  SetOpenFileBudget(budget);
}

// At the process's limit, the error names the file and gives the numbers.
TEST(LogReaderTest, OpenAtTheFileLimitGivesTheNumbers) {
  const std::string path = WriteTempFile("limit.log", ManyLines(3, "l"));
  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  std::vector<int> fds;
  struct rlimit low = saved;
  low.rlim_cur = 64;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  for (int fd; (fd = dup(0)) >= 0;) fds.push_back(fd);
  std::unique_ptr<LogReader> r;
  Status s = LogReader::Open(path, &r);
  for (int fd : fds) close(fd);
  setrlimit(RLIMIT_NOFILE, &saved);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path + ": cannot open: Too many open files (limit 64 per process"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace fiohist
