#pragma once
/// app/src/io.h — where a command's output goes, and the signals that stop a run.
///
/// Output paths (docs/robustness.md):
///  - stdout (no -o): every write and the final flush are checked; a failure is an IoError;
///  - a new path or a regular file: written to an unpredictable temporary file (O_EXCL, in the
///    target's own directory), flushed and synced, then renamed over the target; an existing
///    file keeps its permission bits;
///  - a symbolic link: resolved (a chain too); its final target is written as above, in the
///    target's directory, and the link stays a link;
///  - a character or block device or a FIFO: written directly, without a temporary file or a
///    rename (so -o /dev/null stays the device);
///  - a directory or a socket: refused before any work (bad input, exit 2);
///  - the same file (device and inode) as one of the run's input files: refused before any work.
///
/// Signals: SIGINT, SIGTERM and SIGHUP ask a run to stop at the next block boundary; it still
/// writes what it computed, marked interrupted, and exits 128 + the signal. A second signal, or
/// any of them while the output is being written, removes the temporary file and exits
/// 128 + the signal at once: the target then holds its old content, or (after the rename) the
/// complete new one. A signal the process inherited as ignored (nohup, `&` in a script) stays
/// ignored.

#include <sys/types.h>

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace salvo::app {

inline constexpr int kExitIo = 4;  ///< an output could not be written (disk full, closed stdout)

/// A failed write; what() is the whole message ("salvo: cannot write PATH: <reason>").
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- Stop signals --------------------------------------------------------------------------

/// Install the one handler for SIGINT, SIGTERM and SIGHUP (idempotent).
void install_stop_signals();
/// Set once a stop signal arrived; engines poll it at block boundaries.
const std::atomic<bool>& stop_flag();
/// 128 + the first stop signal received, or 0 if none.
int stop_exit_code();

// ---- Output ---------------------------------------------------------------------------------

/// A file the run reads: its identity, to refuse an -o that would overwrite it.
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  std::string path;  ///< as given
};
/// The identity of `path` (following links), or nothing if it cannot be stat'ed.
std::vector<FileId> file_ids(const std::vector<std::string>& paths);

/// Check an -o path before any work: refuses (load::InputError, exit 2) a directory, a socket,
/// a path whose directory does not exist, and a target that is one of `inputs`. "" (stdout)
/// passes.
void check_output_path(const std::string& path, const std::vector<FileId>& inputs);

/// A command's output: stdout (path empty), a device or FIFO written directly, or a file written
/// through a temporary file that commit() renames into place. Destroyed before commit(), it
/// removes the temporary file. Errors throw IoError ("salvo: cannot write PATH: <reason>").
class Output {
 public:
  explicit Output(std::string path);
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  void write(std::string_view text);
  void commit();

 private:
  [[noreturn]] void fail(int err);
  void discard();
  std::string path_;    ///< as given ("" = stdout)
  std::string target_;  ///< the file finally written (links resolved)
  std::string tmp_;     ///< the temporary file ("" when written directly)
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

/// Write `text` to stdout (path empty) or to `path` (through Output).
void write_output(const std::string& path, std::string_view text);

/// fdopen(fd, mode); if it fails, fd is closed and errno kept for the caller's message.
std::FILE* fdopen_or_close(int fd, const char* mode);

}  // namespace salvo::app
