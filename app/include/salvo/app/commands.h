#pragma once
/// app/src/commands.h — the `salvo` commands behind the command-line parser.
///
/// Errors are thrown, and printed in one place (main): bad input exits 2, whether it is the
/// command line (CLI11's parse errors, UsageError) or a file (load::InputError; rules errors are
/// rethrown as InputError naming file and situation); anything else exits 3. A run stopped by
/// stop signal (SIGINT, SIGTERM, SIGHUP; io.h) still writes its output and returns 128 + the
/// signal (kExitInterrupted for SIGINT). A failed write exits kExitIo (4).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "salvo/app/io.h"
#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/app/team.h"
#include "salvo/load/toml_util.h"
#include "salvo/report/report.h"

namespace salvo::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInput = 2;  ///< bad input: a flag, a flag's value or a file
inline constexpr int kExitInternal = 3;
inline constexpr int kExitInterrupted = 130;  ///< 128 + SIGINT; SIGTERM 143, SIGHUP 129

/// A bad command line; what() is the message without the "salvo: " prefix.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `salvo odds` flags as typed; validated by odds_options().
struct OddsFlags {
  std::vector<std::string> files;
  std::string method = "auto";
  std::optional<std::string> trials;
  std::optional<std::string> precision;
  std::string seed = "1";
  std::string threads = "0";
  std::string format = "text";
  std::string output;  ///< empty: stdout
  std::string max_situations = "1000000";
  std::string max_file_size = "4MiB";
  std::optional<std::string> shard;  ///< --shard K/N (shard.h)
};

struct OddsOptions {
  std::vector<std::string> files;
  report::MethodChoice method = report::MethodChoice::kAuto;
  std::uint64_t trials = 1'000'000;  ///< exact count; with a precision, the cap
  std::optional<double> precision;
  std::uint64_t seed = 1;
  int threads = 0;  ///< 0 = all cores
  report::Format format = report::Format::kText;
  std::string output;
  std::size_t max_situations = 1'000'000;                   ///< per file: a larger sweep is refused before any work
  std::size_t max_file_bytes = load::kDefaultMaxFileBytes;  ///< per file read
  bool html = false;                                        ///< --format html: one self-contained page (analysis.h)
  Team* team = nullptr;  ///< the MPI ranks the run is spread over (team.h); rank 0 writes the output
  int shard = 0;         ///< --shard K/N: K (1-based) and N; 0: the whole run (shard.h)
  int shards = 0;
};

/// Check every flag value; throws UsageError ("--trials: expected an integer in 1..10^12 ...").
OddsOptions odds_options(const OddsFlags& flags);

/// `salvo odds`: load every file, then compile and run the situations a batch at a time
/// (finished ones kept in a ReportSpill, spill.h), then write the table. Returns the exit code.
int run_odds(const OddsOptions& options);

/// How `salvo odds` runs with `options` (threads 0: all cores).
RunSettings odds_settings(const OddsOptions& options);

/// The table `salvo odds` writes for `source`, in options.format (not html), held in memory:
/// what the browser module returns. No stop signals, no --precision messages.
std::string odds_table(const SituationSource& source, const OddsOptions& options);

/// What `salvo explain` prints for `source` (loaded with SourceOptions::explain).
std::string explain_text(const SituationSource& source);

/// `salvo explain`: print each situation's modifiers with their rules. Returns the exit code.
int run_explain(const std::vector<std::string>& files, std::size_t max_situations = 1'000'000,
                std::size_t max_file_bytes = load::kDefaultMaxFileBytes);

/// What a command's error prints (one line, without its newline) and the exit code it gives:
/// the one place errors become messages, for the command line and the browser module.
struct ErrorExit {
  std::string message;
  int code = kExitInternal;
};
ErrorExit error_exit(const std::exception& e);

/// A flag's integer value in lo..hi (decimal digits only). Throws UsageError
/// "FLAG: expected an integer in LO..HI, got TEXT".
std::uint64_t integer_flag(std::string_view flag, std::string_view text, std::uint64_t lo, std::uint64_t hi);

/// --max-situations: an integer in 1..10^9. Throws UsageError.
std::size_t max_situations_flag(std::string_view text);

/// --max-file-size: bytes, or a number with a binary unit (512KiB, 4MiB, 1GiB; K, M, G and KB,
/// MB, GB mean the same), 1 byte..1 GiB. Throws UsageError.
std::size_t max_file_size_flag(std::string_view text);

}  // namespace salvo::app
