#pragma once
// Run the salvo executable as a user would, capturing stdout, stderr and the exit code; the
// example files the end-to-end tests run; a refused command line's checks.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
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

/// Start `program` with `args` (no shell), its stdout and stderr into the files `out` and `err`
/// (e.g. "/dev/null"), the stop signals at their defaults whatever the test runner inherited (a
/// runner started as a background job ignores SIGINT, and salvo keeps an inherited SIG_IGN);
/// `ignore_sigint`: SIGINT ignored, as under nohup or `cmd &` in a script. Returns the child's
/// pid, or -1.
inline pid_t spawn(const std::string& program, const std::vector<std::string>& args, const std::string& out,
                   const std::string& err, bool ignore_sigint = false) {
  std::vector<std::string> argv_s{program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid == 0) {
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) _exit(127);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    close(o);
    close(e);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
    if (ignore_sigint) signal(SIGINT, SIG_IGN);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

/// Wait for a child: its exit code, or 128 + the signal that killed it.
inline int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

/// Run `program` with `args` (no shell). If `interrupt_after` > 0, send SIGINT after that many
/// milliseconds.
inline RunOutput run_program(const std::string& program, const std::vector<std::string>& args,
                             int interrupt_after_ms = 0) {
  TempDir dir;
  const auto out_path = dir / "stdout";
  const auto err_path = dir / "stderr";
  RunOutput r;
  const pid_t pid = spawn(program, args, out_path.string(), err_path.string());
  if (pid < 0) return r;
  if (interrupt_after_ms > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(interrupt_after_ms));
    kill(pid, SIGINT);
  }
  r.code = wait_for(pid);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

/// Run SALVO_BINARY with `args`, as run_program.
inline RunOutput run_salvo(const std::vector<std::string>& args, int interrupt_after_ms = 0) {
  return run_program(SALVO_BINARY, args, interrupt_after_ms);
}

/// The example situation most end-to-end tests run, and the example sweep (12 situations).
inline const std::string kExample = std::string(SALVO_SOURCE_DIR) + "/examples/sherman75-vs-panther.toml";
inline const std::string kSweep = std::string(SALVO_SOURCE_DIR) + "/examples/sweep-range.toml";

/// Write `text` to `p` (bytes as given); returns `p`.
inline std::filesystem::path write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

/// "salvo ARG ARG ... " for a failure message.
inline std::string command_line(const std::vector<std::string>& args) {
  std::string joined = "salvo ";
  for (const auto& a : args) joined += a + ' ';
  return joined;
}

/// salvo run with `args` is refused as bad input: exit 2, nothing on stdout, and on stderr
/// exactly `err` or, where `err` is empty, one line starting "salvo: ".
inline void check_refused(const std::vector<std::string>& args, const std::string& err) {
  INFO(command_line(args));
  const auto r = run_salvo(args);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  if (err.empty()) {
    CHECK(r.err.rfind("salvo: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  } else {
    CHECK(r.err == err);
  }
}

}  // namespace salvo::test
