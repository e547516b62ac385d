#pragma once
// Run the salvo executable as a user would, capturing stdout, stderr and the exit code.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace salvo::test {

struct RunOutput {
  int code = -1;  ///< exit code; 128 + signal if killed by a signal
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A fresh empty directory under the system temp directory, removed on destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("salvo-cli-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

/// Whether `dir` holds a temporary output file: salvo's (".NAME.salvo-XXXXXX") or the
/// "NAME.tmp.PID" of older versions.
inline bool has_tmp_leftover(const std::filesystem::path& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (const std::string n = e.path().filename().string();
        n.find(".tmp.") != std::string::npos || n.find(".salvo-") != std::string::npos)
      return true;
  return false;
}

/// Run `program` with `args` (no shell). If `interrupt_after` > 0, send SIGINT after that many
/// milliseconds.
inline RunOutput run_program(const std::string& program, const std::vector<std::string>& args,
                             int interrupt_after_ms = 0) {
  TempDir dir;
  const auto out_path = dir / "stdout";
  const auto err_path = dir / "stderr";
  std::vector<std::string> argv_s{program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid == 0) {
    const int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) _exit(127);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    close(o);
    close(e);
    // The stop signals at their defaults, whatever the test runner inherited (a runner started
    // as a background job ignores SIGINT, and salvo keeps an inherited SIG_IGN).
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
    execv(argv[0], argv.data());
    _exit(127);
  }
  RunOutput r;
  if (pid < 0) return r;
  if (interrupt_after_ms > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(interrupt_after_ms));
    kill(pid, SIGINT);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status))
    r.code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.code = 128 + WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

/// Run SALVO_BINARY with `args`, as run_program.
inline RunOutput run_salvo(const std::vector<std::string>& args, int interrupt_after_ms = 0) {
  return run_program(SALVO_BINARY, args, interrupt_after_ms);
}

}  // namespace salvo::test
