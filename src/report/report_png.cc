#include "report/report_png.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fiohist {
namespace {

// Runs argv, its stdout and stderr into `log`; returns its exit status or -1.
int RunLogged(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string Tail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string t = ss.str();
  if (t.size() > 600) t = "..." + t.substr(t.size() - 600);
  return t;
}

// A directory that removes itself and what Chromium left in it.
struct TempDir {
  std::string path;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

std::string FindChromium() {
  if (const char* env = std::getenv("FIOHIST_CHROMIUM"); env != nullptr && *env != '\0') {
    return env;
  }
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

Status ScreenshotCharts(const std::string& chromium, const std::string& html,
                        const std::vector<ChartShot>& charts, const std::string& dir) {
  if (chromium.empty() || access(chromium.c_str(), X_OK) != 0) {
    return Status::Error(
        "--png needs headless Chromium: none found (install Debian's chromium, or set "
        "FIOHIST_CHROMIUM to its path)" +
        (chromium.empty() ? std::string() : ": '" + chromium + "' is not executable"));
  }
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return Status::Error("cannot create " + dir + ": " + std::strerror(errno));
  }
  char real[PATH_MAX];
  if (realpath(html.c_str(), real) == nullptr) {
    return Status::Error("cannot find " + html + ": " + std::strerror(errno));
  }
  char tmpl[] = "/tmp/fiohist-chromium-XXXXXX";
  TempDir profile;
  if (mkdtemp(tmpl) == nullptr) return Status::Error(std::string("mkdtemp: ") + std::strerror(errno));
  profile.path = tmpl;
  for (const ChartShot& chart : charts) {
    const std::string& id = chart.id;
    const std::string png = dir + "/" + id + ".png";
    unlink(png.c_str());
    const std::vector<std::string> argv = {
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", "--user-data-dir=" + profile.path, "--window-size=1200," + std::to_string(chart.height),
        "--virtual-time-budget=30000", "--screenshot=" + png,
        std::string("file://") + real + "#only=" + id};
    const std::string log = profile.path + "/chromium.log";
    const int rc = RunLogged(argv, log);
    struct stat st;
    if (rc != 0 || stat(png.c_str(), &st) != 0 || st.st_size == 0) {
      return Status::Error("chromium could not screenshot chart '" + id + "' (exit status " +
                           std::to_string(rc) + "): " + Tail(log));
    }
  }
  return Status();
}

}  // namespace fiohist
