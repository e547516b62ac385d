// Output paths written safely, and the one handler for the signals that stop a run (io.h).
#include "salvo/app/io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

#include "salvo/load/asl_loader.h"

namespace salvo::app {
namespace {

// ---- Signals ---------------------------------------------------------------------------------

std::atomic<bool> g_stop{false};
std::atomic<int> g_first_signal{0};
// While an output is being written: any stop signal removes the temporary file (if one is
// armed) and exits. The path is a fixed buffer: the handler may only call async-signal-safe
// functions (unlink, _exit).
std::atomic<bool> g_writing{false};
std::atomic<bool> g_tmp_armed{false};
char g_tmp_path[PATH_MAX + 1];
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  int none = 0;
  if (!g_writing.load() && g_first_signal.compare_exchange_strong(none, sig)) {
    g_stop.store(true);  // the first one: stop at the next block boundary, then write
    return;
  }
  if (g_tmp_armed.load()) unlink(g_tmp_path);
  _exit(128 + sig);
}

void arm_tmp(const std::string& path) {
  g_tmp_armed.store(false);
  if (path.size() > PATH_MAX) return;  // open() fails with ENAMETOOLONG
  std::memcpy(g_tmp_path, path.c_str(), path.size() + 1);
  g_tmp_armed.store(true);
}

// ---- Paths -----------------------------------------------------------------------------------

[[noreturn]] void refuse(const std::string& path, std::string_view why) {
  throw load::InputError(fmt::format("salvo: cannot write {}: {}", path, why));
}

/// `path` with every symbolic link along the last component followed (a chain too); a dangling
/// link gives the path it points to, which is then created.
std::string resolve_links(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string link(PATH_MAX, '\0');
    const ssize_t n = readlink(p.c_str(), link.data(), link.size());
    if (n < 0) return p;
    link.resize(static_cast<std::size_t>(n));
    if (link.empty() || link.front() != '/') {
      const std::filesystem::path dir = std::filesystem::path(p).parent_path();
      if (!dir.empty()) link = (dir / link).string();
    }
    p = std::move(link);
  }
  refuse(path, std::strerror(ELOOP));
}

std::string directory_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

}  // namespace

void install_stop_signals() {
  static const bool installed = [] {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      sigaction(sig, nullptr, &old);
      if (old.sa_handler == SIG_IGN) continue;  // inherited as ignored: stays ignored
      struct sigaction sa {};
      sa.sa_handler = on_stop_signal;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESTART;
      sigaction(sig, &sa, nullptr);
    }
    return true;
  }();
  (void)installed;
}

const std::atomic<bool>& stop_flag() { return g_stop; }

int stop_exit_code() {
  const int sig = g_first_signal.load();
  return sig ? 128 + sig : 0;
}

std::vector<FileId> file_ids(const std::vector<std::string>& paths) {
  std::vector<FileId> ids;
  for (const std::string& p : paths) {
    struct stat st {};
    if (stat(p.c_str(), &st) == 0) ids.push_back(FileId{st.st_dev, st.st_ino, p});
  }
  return ids;
}

void check_output_path(const std::string& path, const std::vector<FileId>& inputs) {
  if (path.empty()) return;
  const std::string target = resolve_links(path);
  struct stat st {};
  if (stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) refuse(path, "is a directory");
    if (S_ISSOCK(st.st_mode)) refuse(path, "is a socket (salvo writes to files, devices and FIFOs)");
    for (const FileId& in : inputs)
      if (in.dev == st.st_dev && in.ino == st.st_ino)
        throw load::InputError(fmt::format(
            "salvo: -o {}: is the input file {}; nothing was run (choose another output path)", path, in.path));
    if (!S_ISREG(st.st_mode)) return;  // a device or FIFO: written directly
  } else if (errno != ENOENT) {
    refuse(path, std::strerror(errno));
  }
  // A new or regular file: its directory must take the temporary file.
  const std::string dir = directory_of(target);
  struct stat ds {};
  if (stat(dir.c_str(), &ds) != 0) refuse(path, std::strerror(errno));
  if (!S_ISDIR(ds.st_mode)) refuse(path, std::strerror(ENOTDIR));
  if (access(dir.c_str(), W_OK | X_OK) != 0) refuse(path, std::strerror(errno));
}

// ---- Output ----------------------------------------------------------------------------------

Output::Output(std::string path) : path_(std::move(path)) {
  g_writing.store(true);
  if (path_.empty()) {
    file_ = stdout;
    return;
  }
  target_ = resolve_links(path_);
  struct stat st {};
  const bool exists = stat(target_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) refuse(path_, "is a directory");
  if (exists && S_ISSOCK(st.st_mode)) refuse(path_, "is a socket (salvo writes to files, devices and FIFOs)");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or FIFO: written in place, never replaced.
    const int fd = open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) fail(errno);
    file_ = fdopen(fd, "wb");
    if (!file_) {
      const int err = errno;
      close(fd);
      fail(err);
    }
    return;
  }

  // A new or regular file: an unpredictable temporary file beside the target (O_CREAT|O_EXCL,
  // never through a link), with the target's permission bits (a new file: 0666 less the umask).
  // Why not mkstemp: a signal between mkstemp's creation of the file and the moment its name is
  // armed for the handler would leave the file behind. The name is armed first, then created
  // with O_CREAT | O_EXCL (never through a link); a signal before the creation unlinks nothing.
  const std::string stem = (std::filesystem::path(directory_of(target_)) /
                            ("." + std::filesystem::path(target_).filename().string() + ".salvo-"))
                               .string();
  std::random_device entropy;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    tmp_ = stem + fmt::format("{:08x}{:08x}", entropy(), entropy());
    arm_tmp(tmp_);
    fd = open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    const int err = errno;
    g_tmp_armed.store(false);
    tmp_.clear();
    fail(err);
  }
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
    if (fchown(fd, st.st_uid, st.st_gid) != 0) {
      // Not the owner (and not root): the new file is the writer's, as any rewrite makes it.
    }
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (fchmod(fd, mode) != 0) {
    const int err = errno;
    close(fd);
    fail(err);
  }
  file_ = fdopen_or_close(fd, "wb");
  if (!file_) fail(errno);
}

std::FILE* fdopen_or_close(int fd, const char* mode) {
  std::FILE* f = fdopen(fd, mode);
  if (!f) {
    const int err = errno;
    close(fd);
    errno = err;
  }
  return f;
}

Output::~Output() {
  if (!committed_) discard();
  g_writing.store(false);
}

void Output::discard() {
  if (file_ && file_ != stdout) std::fclose(file_);
  file_ = nullptr;
  if (!tmp_.empty()) {
    g_tmp_armed.store(false);
    unlink(tmp_.c_str());
  }
}

void Output::fail(int err) {
  discard();
  committed_ = true;  // nothing left to clean up
  throw IoError(
      fmt::format("salvo: cannot write {}: {}", path_.empty() ? "standard output" : path_, std::strerror(err)));
}

void Output::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail(errno ? errno : EIO);
}

void Output::commit() {
  if (std::fflush(file_) != 0 || std::ferror(file_)) fail(errno ? errno : EIO);
  if (file_ == stdout) {
    committed_ = true;
    return;
  }
  if (!tmp_.empty() && fsync(fileno(file_)) != 0) fail(errno);
  std::FILE* f = std::exchange(file_, nullptr);
  if (std::fclose(f) != 0) fail(errno);
  if (!tmp_.empty()) {
    if (std::rename(tmp_.c_str(), target_.c_str()) != 0) fail(errno);
    g_tmp_armed.store(false);
  }
  committed_ = true;
}

void write_output(const std::string& path, std::string_view text) {
  Output out(path);
  out.write(text);
  out.commit();
}

}  // namespace salvo::app
