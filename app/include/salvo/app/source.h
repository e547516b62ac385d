#pragma once
/// app/src/source.h — situation files of any ruleset, loaded through the Registry and compiled
/// one situation at a time.
///
/// A file's `ruleset` key picks its ruleset; everything after this point (the runner, the
/// engines, the reports) sees only roll programs, names and display hints.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "salvo/core/display_hints.h"
#include "salvo/rules/program.h"
#include "salvo/rulesets/ruleset.h"

namespace salvo::app {

/// One situation, compiled and ready to run.
struct Job {
  std::string file;  ///< as given on the command line
  const Ruleset* ruleset = nullptr;
  const DisplayHints* hints = nullptr;  ///< the file's, or its ruleset's (SituationFile::hints)
  std::string name;
  SweepLabel sweep;  ///< sweep point, file order
  RollProgram program;
  std::string explain;     ///< the `explain` listing, with its heading (only when asked for)
  std::string states_key;  ///< CompiledSituation::states_key
};

/// Provenance of the rules data of one ruleset in a run.
struct RulesData {
  std::string ruleset;
  std::string version;
  std::uint64_t hash = 0;  ///< the ruleset's tables, and the data that came with its files
};

/// A situation file given as text (the browser's text box): `name` stands for its path in
/// messages, reports and explain headings.
struct SourceText {
  std::string name;
  std::string text;
};

struct SourceOptions {
  ReadLimits limits;
  bool explain = false;  ///< also format each job's explain listing
};

/// Situation files loaded (every file checked by its ruleset, its sweep known) and compiled one
/// situation at a time on demand: what stays in memory is the loaded files, not every compiled
/// program.
class SituationSource {
 public:
  /// Load every file, in order. Throws load::InputError ("FILE:LINE: key: ...").
  SituationSource(const std::vector<std::string>& paths, const SourceOptions& options,
                  const Registry& registry = Registry::global());
  /// The same over files given as text (checked against options.limits.max_file_bytes as a file
  /// read is). A file they name (a 1943 chart) is still read from its path.
  SituationSource(const std::vector<SourceText>& texts, const SourceOptions& options,
                  const Registry& registry = Registry::global());

  /// Situations over all files, and where each file's begin.
  std::size_t size() const { return size_; }
  std::size_t files() const { return files_.size(); }
  std::size_t file_begin(std::size_t k) const { return files_.at(k).begin; }
  std::size_t file_size(std::size_t k) const { return files_.at(k).file->size(); }

  /// Compile situation i (files in order, each file's sweep in order). Throws load::InputError
  /// ("FILE: situation: key: ..." for a rules conflict). Safe to call from several threads.
  Job compile(std::size_t i) const;

  /// File k, its path and its ruleset.
  const SituationFile& file(std::size_t k) const { return *files_.at(k).file; }
  const std::string& path(std::size_t k) const { return files_.at(k).path; }
  const Ruleset& ruleset(std::size_t k) const { return *files_.at(k).ruleset; }

  /// The rules data behind every situation, one entry per ruleset used, in first-use order.
  std::vector<RulesData> rules_data() const;
  /// The display hints of every ruleset used, merged in first-use order.
  DisplayHints hints() const;

  /// Every file read: the situation files and the files they name (a 1943 chart).
  std::vector<std::string> input_paths() const;

 private:
  struct File {
    std::size_t begin = 0;  ///< index of its first situation
    std::string path;
    const Ruleset* ruleset = nullptr;
    std::unique_ptr<SituationFile> file;
  };
  void add(const std::string& path, const std::string& text, const Registry& registry);

  SourceOptions options_;
  std::vector<File> files_;
  std::size_t size_ = 0;
};

/// "== NAME  (FILE)" and the sweep point, as `explain` heads each situation.
std::string explain_heading(const std::string& file, const std::string& name, const SweepLabel& sweep);

}  // namespace salvo::app
