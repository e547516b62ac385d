#pragma once
/// salvo/rulesets/ruleset.h — what a ruleset gives salvo, and the registry that finds it by the
/// `ruleset` key of a situation file.
///
/// A ruleset reads its situation files (strict TOML, sweeps expanded), checks and compiles each
/// situation into a RollProgram, explains the modifiers it applied, says which version of its
/// rules data it is and hashes that data, and tells the reports how to show its results
/// (DisplayHints). Everything after compile (the engines, the app layer, the reports) sees only
/// programs, names and hints. A new ruleset is one folder and one line in registry.cpp (or, for
/// a test, one call to Registry::add).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/core/display_hints.h"
#include "salvo/rules/program.h"

namespace salvo {

/// A sweep point as the file wrote it: ("fire.range", "6"), in file order.
using SweepLabel = std::vector<std::pair<std::string, std::string>>;

/// One situation, compiled.
struct CompiledSituation {
  RollProgram program;
  std::string explain;  ///< the ruleset's `explain` listing (only when asked for); ends with \n
  /// The setting the program's states grow with ("fight.turns"), named when there are too many
  /// to solve exactly; "" if none.
  std::string states_key;
};

/// A situation file as its ruleset read it: every value checked, the sweep known but not
/// expanded (points are made on demand).
class SituationFile {
 public:
  virtual ~SituationFile() = default;
  /// Situations in the file (sweep points, in order: first axis slowest).
  virtual std::size_t size() const = 0;
  /// Name and sweep point of situation i.
  virtual std::string name(std::size_t i) const = 0;
  virtual SweepLabel sweep(std::size_t i) const = 0;
  /// Compile situation i. Throws RulesError (its key names the setting) for a situation the
  /// rules cannot resolve. Safe to call from several threads.
  virtual CompiledSituation compile(std::size_t i, bool explain) const = 0;
  /// Files read besides the situation file itself (a 1943 chart).
  virtual std::vector<std::string> other_inputs() const { return {}; }
  /// Hash of rules data that came with the file (a 1943 chart); 0: none.
  virtual std::uint64_t data_hash() const { return 0; }
  /// How this file's results are shown, when it differs from its ruleset's (an ASL fight);
  /// nullptr: the ruleset's hints. Lives as long as the file.
  virtual const DisplayHints* hints() const { return nullptr; }
};

/// What each modifier is worth (`salvo sensitivity`): one situation with one modifier removed
/// or made one step worse.
struct Variant {
  std::string modifier, rule, change;  ///< "Case I: buttoned up", "C5.9", "target.buttoned_up = false"
  int value = 0;                       ///< the modifier's DRM
  bool worse = false;                  ///< one step worse (else removed)
  std::optional<RollProgram> program;  ///< nullopt: the variant breaks a rule (see error)
  std::string error;                   ///< "key: message" when program is empty
};

/// Limits a loader applies while reading.
struct ReadLimits {
  std::size_t max_situations = 1'000'000;             ///< per file: a larger sweep is refused
  std::size_t max_file_bytes = std::size_t{4} << 20;  ///< per file read (a chart named by a file)
};

class Ruleset {
 public:
  virtual ~Ruleset() = default;
  /// The value of the `ruleset` key that picks it ("asl").
  virtual std::string_view name() const = 0;
  /// Version of the rules data ("asl-2026.11-4") and a hash of every table it uses.
  virtual std::string_view data_version() const = 0;
  virtual std::uint64_t data_hash() const = 0;
  virtual const DisplayHints& hints() const = 0;
  /// Read a situation file from its text. `path` is the file as named on the command line
  /// (for messages, and to find files it names). Throws load::InputError ("PATH:LINE: ...").
  virtual std::unique_ptr<SituationFile> load(std::string_view text, const std::string& path,
                                              const ReadLimits& limits) const = 0;
  /// Variants of situation i for `salvo sensitivity`; nullopt if the ruleset has none.
  virtual std::optional<std::vector<Variant>> sensitivity(const SituationFile& file, std::size_t i) const {
    (void)file;
    (void)i;
    return std::nullopt;
  }
};

/// The rulesets salvo knows, by name.
class Registry {
 public:
  /// The registry with every built-in ruleset (registry.cpp: one line each).
  static Registry& global();
  /// Adds a ruleset; throws std::logic_error if its name is taken.
  void add(std::unique_ptr<Ruleset> ruleset);
  /// The ruleset of that name, or nullptr.
  const Ruleset* find(std::string_view name) const;
  /// The ruleset a file with this `ruleset` value goes to: its own, or, for a missing or
  /// unknown value, the default one (ASL), whose loader says what is wrong.
  const Ruleset& for_file(std::string_view name) const;
  /// Every name, in registration order ("asl", "1943").
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<Ruleset>> rulesets_;
};

}  // namespace salvo
