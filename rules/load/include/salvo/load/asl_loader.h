#pragma once
/// salvo/load/asl_loader.h — ASL situation files (TOML) into rules data.
///
/// Strict: unknown keys, wrong types, out-of-range values and rule conflicts are errors naming
/// file, line and key, e.g.
///   tank.toml:14: firer.rof: expected an integer in 0..6, got 9
/// and nothing is computed from a file with any error.

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "salvo/load/toml_util.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/rules/asl_situation.h"

namespace salvo::load {

/// Bad input. what() is the full message ("file:line: key: expected ..., got ...").
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One situation of a file (one point of its sweep).
struct LoadedSituation {
  asl::Situation situation;
  /// The sweep values that made this point, in [sweep] key order: ("fire.range", "6").
  std::vector<std::pair<std::string, std::string>> sweep_values;
};

struct LoadedFile {
  std::string path;                         ///< as given
  std::string ruleset;                      ///< "asl"
  std::vector<std::string> sweep_keys;      ///< dotted paths of the [sweep] axes, in file order
  SweepPoints<LoadedSituation> situations;  ///< cartesian product of the sweep (1 if no sweep), made on demand
};

struct LoadOptions {
  std::size_t max_situations = 1'000'000;             ///< a sweep expanding to more is refused
  std::size_t max_file_bytes = kDefaultMaxFileBytes;  ///< every file read (a 1943 chart too)
};

/// One fight of a fight file: a point of its [sweep], or the fight itself.
struct FightPoint {
  asl::Fight situation;  ///< the fight (named as a situation file's points are, for the sweep expander)
  std::vector<std::pair<std::string, std::string>> sweep_values;  ///< ("unit.Sherman.fire.range", "6")
};

/// A fight file (docs/fights.md): [fight] and [[unit]] tables, and a [sweep] of their settings.
struct LoadedFight {
  std::string path;                          ///< as given
  std::vector<std::string> sweep_keys;       ///< the sweep's axes, in file order
  SweepPoints<FightPoint> fights;            ///< one per sweep point (1 if no sweep), made on demand
  std::shared_ptr<const void> sweep_schema;  ///< the swept settings the points apply (kept alive)
};

/// An ASL file: situations, or a fight (it has a [fight] table or [[unit]] tables). Throws
/// InputError.
std::variant<LoadedFile, LoadedFight> load_any_string(std::string_view toml, const std::string& source_name,
                                                      const LoadOptions& options = {});

/// Load a situation file. Throws InputError.
LoadedFile load_file(const std::string& path, const LoadOptions& options = {});

/// Load from a string; `source_name` stands in for the file name in messages.
LoadedFile load_string(std::string_view toml, const std::string& source_name, const LoadOptions& options = {});

/// `base` with the settings of a situation file's text written over it, each read as strictly as
/// in load_string. No [sweep], `units` or [[then]], and no rules check: asl::check() is the
/// caller's. For building situations as edits of another. Throws InputError.
asl::Situation edit_situation(asl::Situation base, std::string_view toml, const std::string& source_name);

}  // namespace salvo::load
