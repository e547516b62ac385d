// Where -o writes (devices, FIFOs, links, directories, the run's own inputs), write errors on
// stdout, and stop signals at any moment: the target holds its old content or the complete new
// one, never a temporary file, and the exit code is 128 + the signal.

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_salvo.h"

namespace {

using namespace salvo::test;  // run_salvo, slurp, TempDir, kExample, write_text, spawn ...
namespace fs = std::filesystem;

const std::string kSweep10k = std::string(SALVO_SOURCE_DIR) + "/examples/bench/sweep10k.toml";

/// The text table salvo prints for the example on stdout: what every -o target must receive.
std::string example_table() {
  const auto r = run_salvo({"odds", kExample});
  REQUIRE(r.code == 0);
  return r.out;
}

struct Spawned {
  pid_t pid = -1;
  int code = -1;  ///< after wait(): exit code, or 128 + signal
  void wait() { code = wait_for(pid); }
};

/// Start salvo with `args`, stdout and stderr to /dev/null; `ignore_sigint`: the child starts
/// with SIGINT ignored, as under nohup or `cmd &` in a script.
Spawned spawn_salvo(const std::vector<std::string>& args, bool ignore_sigint = false) {
  return Spawned{spawn(SALVO_BINARY, args, "/dev/null", "/dev/null", ignore_sigint)};
}

/// Run salvo writing -o DIR/out.json from a 10,000-situation sweep, and send `sig` the moment
/// its temporary output file appears in DIR (inotify): the signal lands while the table is
/// being written. Returns the exit code.
int signal_during_write(const TempDir& dir, int sig) {
  const int in = inotify_init1(IN_CLOEXEC);
  REQUIRE(in >= 0);
  REQUIRE(inotify_add_watch(in, dir.path().c_str(), IN_CREATE) >= 0);
  Spawned s = spawn_salvo({"odds", kSweep10k, "--format", "json", "-o", (dir / "out.json").string(), "--threads", "1"});
  alignas(inotify_event) char buf[4096];
  bool sent = false;
  while (!sent) {
    const ssize_t n = read(in, buf, sizeof buf);
    REQUIRE(n > 0);
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
      if (e->len > 0 && std::string(e->name).find(".out.json.salvo-") == 0 && !sent) {
        kill(s.pid, sig);
        sent = true;
      }
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
  close(in);
  s.wait();
  return s.code;
}

}  // namespace

TEST_CASE("output onto a FIFO (-o) writes into it and the FIFO stays a FIFO", "[cli][output]") {
  const std::string table = example_table();
  TempDir dir;
  const fs::path fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  const auto r = run_salvo({"odds", kExample, "-o", fifo.string()});
  reader.join();
  CHECK(r.code == 0);
  CHECK(got == table);
  struct stat st {};
  REQUIRE(lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK_FALSE(has_tmp_leftover(dir.path()));
}

TEST_CASE("output onto /dev/null (-o) writes to the device and leaves it a device", "[cli][output]") {
  struct stat before {};
  REQUIRE(stat("/dev/null", &before) == 0);
  const auto r = run_salvo({"odds", kExample, "-o", "/dev/null"});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  struct stat after {};
  REQUIRE(stat("/dev/null", &after) == 0);
  CHECK(S_ISCHR(after.st_mode));
  CHECK(after.st_rdev == before.st_rdev);
  CHECK(after.st_ino == before.st_ino);
}

TEST_CASE("output onto a symbolic link (-o) replaces its target and the link stays", "[cli][output]") {
  const std::string table = example_table();
  TempDir dir;
  fs::create_directory(dir / "sub");
  write_text(dir / "sub" / "real.txt", "old\n");
  REQUIRE(chmod((dir / "sub" / "real.txt").c_str(), 0640) == 0);
  fs::create_symlink("sub/real.txt", dir / "link1");
  fs::create_symlink("link1", dir / "link2");  // a chain
  const auto r = run_salvo({"odds", kExample, "-o", (dir / "link2").string()});
  CHECK(r.code == 0);
  CHECK(fs::is_symlink(dir / "link1"));
  CHECK(fs::is_symlink(dir / "link2"));
  CHECK(slurp(dir / "sub" / "real.txt") == table);
  struct stat st {};
  REQUIRE(stat((dir / "sub" / "real.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);  // the target's permission bits kept
  CHECK_FALSE(has_tmp_leftover(dir.path()));
  CHECK_FALSE(has_tmp_leftover(dir / "sub"));

  // A dangling link: its target is created.
  fs::create_symlink("new.txt", dir / "dangling");
  CHECK(run_salvo({"odds", kExample, "-o", (dir / "dangling").string()}).code == 0);
  CHECK(slurp(dir / "new.txt") == table);
  CHECK(fs::is_symlink(dir / "dangling"));
}

TEST_CASE("output onto an existing file (-o) keeps its permission bits, a new file gets 0666 less the umask",
          "[cli][output]") {
  TempDir dir;
  write_text(dir / "odds.txt", "old\n");
  REQUIRE(chmod((dir / "odds.txt").c_str(), 0604) == 0);
  CHECK(run_salvo({"odds", kExample, "-o", (dir / "odds.txt").string()}).code == 0);
  struct stat st {};
  REQUIRE(stat((dir / "odds.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0604);

  const mode_t mask = umask(0);
  umask(mask);
  CHECK(run_salvo({"odds", kExample, "-o", (dir / "new.txt").string()}).code == 0);
  REQUIRE(stat((dir / "new.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == (0666 & ~mask));
}

TEST_CASE("output (-o) onto a directory, a socket or the run's own input files is refused before any work",
          "[cli][output]") {
  TempDir dir;
  auto r = run_salvo({"odds", kExample, "-o", dir.path().string()});
  CHECK(r.code == 2);
  CHECK(r.err == "salvo: cannot write " + dir.path().string() + ": is a directory\n");

  const fs::path input = dir / "in.toml";
  fs::copy_file(kExample, input);
  const std::string before = slurp(input);
  r = run_salvo({"odds", input.string(), "-o", input.string()});
  CHECK(r.code == 2);
  CHECK(r.err == "salvo: -o " + input.string() + ": is the input file " + input.string() +
                     "; nothing was run (choose another output path)\n");
  CHECK(slurp(input) == before);
  // The same file under another name: a hard link and a symbolic link.
  fs::create_hard_link(input, dir / "hard.toml");
  fs::create_symlink("in.toml", dir / "soft.toml");
  for (const char* other : {"hard.toml", "soft.toml"}) {
    r = run_salvo({"odds", kExample, input.string(), "-o", (dir / other).string()});
    CHECK(r.code == 2);
    CHECK(r.err.find(": is the input file " + input.string() + ";") != std::string::npos);
    CHECK(slurp(input) == before);
  }
  // A 1943 situation's chart file is an input too.
  const fs::path chart = dir / "chart.toml";
  fs::copy_file(std::string(SALVO_SOURCE_DIR) + "/examples/1943/illustrative-chart.toml", chart);
  fs::copy_file(std::string(SALVO_SOURCE_DIR) + "/examples/1943/rifles-vs-infantry.toml", dir / "w.toml");
  fs::rename(chart, dir / "illustrative-chart.toml");
  fs::create_symlink("illustrative-chart.toml", chart);  // -o names the chart through a link
  r = run_salvo({"odds", (dir / "w.toml").string(), "-o", chart.string()});
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find(": is the input file ") != std::string::npos);
  CHECK(r.err.find("illustrative-chart.toml; nothing was run") != std::string::npos);

  // A socket.
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string sock = (dir / "sock").string();
  REQUIRE(sock.size() < sizeof addr.sun_path);
  std::copy(sock.begin(), sock.end(), addr.sun_path);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  r = run_salvo({"odds", kExample, "-o", sock});
  close(fd);
  CHECK(r.code == 2);
  CHECK(r.err == "salvo: cannot write " + sock + ": is a socket (salvo writes to files, devices and FIFOs)\n");
}

TEST_CASE("write errors on stdout are reported and exit 4", "[cli][output]") {
  const auto r =
      run_program("/bin/sh", {"-c", std::string("exec ") + SALVO_BINARY + " odds " + kExample + " > /dev/full"});
  CHECK(r.code == 4);
  CHECK(r.err == "salvo: cannot write standard output: No space left on device\n");
  const auto o = run_salvo({"odds", kExample, "-o", "/dev/full"});
  CHECK(o.code == 4);
  CHECK(o.err == "salvo: cannot write /dev/full: No space left on device\n");
}

TEST_CASE("a stop signal while the table is written leaves the old file and no temporary file", "[cli][output][e2e]") {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    INFO("signal " << sig);
    TempDir dir;
    write_text(dir / "out.json", "old output\n");
    const int code = signal_during_write(dir, sig);
    CHECK(code == 128 + sig);
    CHECK_FALSE(has_tmp_leftover(dir.path()));
    // Either the old file or the complete new one: the kill came with the temporary file's
    // creation, so here the old one.
    const std::string now = slurp(dir / "out.json");
    CHECK(now == "old output\n");
  }
}

TEST_CASE("SIGTERM during Monte Carlo: the finished part is written, marked, exit 143", "[cli][output][e2e]") {
  TempDir dir;
  const fs::path out = dir / "out.json";
  Spawned s = spawn_salvo(
      {"odds", kExample, "--method", "mc", "--trials", "1000000000000", "--format", "json", "-o", out.string()});
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  kill(s.pid, SIGTERM);
  s.wait();
  CHECK(s.code == 143);
  REQUIRE(fs::exists(out));
  CHECK(slurp(out).find("\"interrupted\": true") != std::string::npos);
  CHECK_FALSE(has_tmp_leftover(dir.path()));
}

TEST_CASE("a SIGINT inherited as ignored stays ignored", "[cli][output][e2e]") {
  TempDir dir;
  const fs::path out = dir / "out.json";
  Spawned s = spawn_salvo({"odds", kExample, "--method", "mc", "--trials", "30000000", "--threads", "1", "--format",
                           "json", "-o", out.string()},
                          /*ignore_sigint=*/true);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(s.pid, SIGINT);
  s.wait();
  CHECK(s.code == 0);
  REQUIRE(fs::exists(out));
  const std::string text = slurp(out);
  CHECK(text.find("\"interrupted\": false") != std::string::npos);
  CHECK(text.find("\"trials\": 30000000") != std::string::npos);
}
