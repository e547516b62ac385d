#pragma once
/// sim/cli/jobs.h — situation files of any ruleset into compiled jobs.
///
/// A file's `ruleset` key picks its loader and compiler; everything after this point (engines,
/// reports) sees only roll programs and names, never a ruleset.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "salvo/load/asl_loader.h"
#include "salvo/load/w1943_loader.h"
#include "salvo/rules/program.h"

namespace salvo::cli {

/// One situation, compiled and ready to run.
struct Job {
  std::string file;     ///< as given on the command line
  std::string ruleset;  ///< "asl", ...
  std::string name;
  std::vector<std::pair<std::string, std::string>> sweep;  ///< sweep point, file order
  RollProgram program;
  std::string explain;  ///< the `explain` listing (only when asked for)
  std::uint64_t data_hash = 0;  ///< rules data that comes with the file (a 1943 chart); 0: none
};

/// Provenance of a ruleset's tables.
struct RulesData {
  std::string ruleset;
  std::string version;
  std::uint64_t hash = 0;
};

struct JobOptions {
  std::size_t max_situations = 1'000'000;  ///< per file: a larger sweep is refused
  bool explain = false;                     ///< also format each job's explain listing
  std::size_t max_file_bytes = load::kDefaultMaxFileBytes;  ///< per file read (--max-file-size)
};

/// Situation files loaded (every file checked by its loader, its sweep expanded) and compiled
/// one situation at a time on demand: what stays in memory is the loaded sweep points, not
/// every compiled program.
class JobSource {
 public:
  /// Load every file, in order. Throws load::InputError ("FILE:LINE: key: ...").
  JobSource(const std::vector<std::string>& paths, const JobOptions& options);

  /// Situations over all files.
  std::size_t size() const { return size_; }

  /// Compile situation i (files in order, each file's sweep in order). Throws load::InputError
  /// ("FILE: situation: key: ..." for a rules conflict). Safe to call from several threads.
  Job compile(std::size_t i) const;

  /// The rules data behind every situation, one entry per ruleset used, in first-use order.
  std::vector<RulesData> rules_data() const;

  /// File k as the ASL loader read it, or nullptr if it is not an ASL file.
  const load::LoadedFile* asl_file(std::size_t k) const;

  /// Every file read: the situation files and the files they name (a 1943 chart).
  std::vector<std::string> input_paths() const;

 private:
  struct File {
    std::size_t begin = 0;  ///< index of its first situation
    std::optional<load::LoadedFile> asl;
    std::optional<load::W1943File> w1943;
    std::uint64_t data_hash = 0;  ///< 1943: its chart
  };
  JobOptions options_;
  std::vector<File> files_;
  std::size_t size_ = 0;
};

/// Load and compile every file, in order. Throws load::InputError ("FILE:LINE: key: ...",
/// or "FILE: situation: key: ..." for a rules conflict found while compiling).
std::vector<Job> load_jobs(const std::vector<std::string>& paths, const JobOptions& options);

/// The rules data behind a set of jobs, one entry per ruleset used, in first-use order.
std::vector<RulesData> rules_data_of(const std::vector<Job>& jobs);

}  // namespace salvo::cli
