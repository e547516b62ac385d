#pragma once
/// salvo/load/units.h — unit libraries (docs/units.md): named vehicles and Guns whose counter
/// values a situation or a fight takes with `firer.unit = "PzKpfw IVH"`.
///
///   library = "asl-units"
///   [[unit]]
///   name = "PzKpfw IVH"            kind = "vehicle" or "gun"; dates, class, source, notes
///   [unit.firer]                   nationality, gun, rof, breakdown, x_number, low_ammo,
///                                  gun_type, stabilized, bow_mounted, mortar, min_range,
///                                  max_range, no_intensive_fire
///   [unit.target]                  armor, turret_armor, size, red_cs
///   [unit.movement]                mp_allotment, red_mp, manufacturer
///   [unit.depletion]               APCR / APDS / HEAT = 5, or { 1942 = 5, 1943 = 4 } (C8.91)
///
/// Read strictly, like a situation: every error names the library's file, line and key.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "salvo/load/asl_loader.h"

namespace salvo::load {

/// One setting a unit makes: a situation key ("firer.gun") and its value as written.
struct UnitSetting {
  std::string path;   ///< the situation key it sets, e.g. "firer.gun", "target.armor"
  std::string value;  ///< as written in the library, e.g. "\"75L\"", "{ hull_front = 8, ... }"
  int line = 0;       ///< where, in the library
};

/// A special ammunition's Depletion Numbers (C8.1, C8.91): by the year from which each applies,
/// or one number for every year (key 0).
using DepletionByYear = std::map<int, int>;

struct Unit {
  std::string name;                                  ///< as written in the library
  std::string kind;                                  ///< "vehicle" or "gun"
  std::string dates, unit_class, source;             ///< shown by `units show`, not used
  std::vector<std::string> notes;                    ///< free text (a dagger's Vehicle Note)
  std::vector<UnitSetting> settings;                 ///< in library order
  std::map<std::string, DepletionByYear> depletion;  ///< "APCR" -> years
  int line = 0;                                      ///< the [[unit]] header
  bool has(std::string_view path) const;             ///< a setting at `path` (or inside it)
  /// The Depletion Number of `ammo` ("APCR") in `year`: nullopt if the unit lists none for that
  /// ammunition, 0 if it lists it only from a later year.
  std::optional<int> depletion_in(std::string_view ammo, int year) const;
};

/// Unit names compare without regard to case, spaces and punctuation: "PzKpfw IVH" =
/// "pzkpfw-ivh" = "PZKPFW IV H".
std::string unit_key(std::string_view name);

/// The libraries a file uses, in the order given, and the units they hold.
class UnitLibraries {
 public:
  struct Found {
    const Unit* unit;
    std::string library;  ///< its file, as given
  };
  /// Read `paths` (each relative to `base_dir` unless absolute). Throws InputError.
  static UnitLibraries read(const std::vector<std::string>& paths, const std::string& base_dir,
                            std::size_t max_file_bytes = kDefaultMaxFileBytes);
  /// Parse one library from text. Throws InputError.
  static UnitLibraries parse(std::string_view toml, const std::string& source_name);

  /// The unit named `name` (unit_key), the first library that has it winning.
  std::optional<Found> find(std::string_view name) const;
  /// Up to three names close to `name`, for "did you mean".
  std::vector<std::string> closest(std::string_view name) const;
  /// Every unit, library by library, in file order.
  std::vector<Found> all() const;
  bool empty() const { return docs_.empty(); }

  /// Apply the settings of `unit` for `role` ("firer", "target" or "movement") to `s`, each
  /// checked by the situation schema (errors name the library's line).
  void apply(const Found& unit, std::string_view role, asl::Situation& s) const;

  struct Doc;  ///< one library's parsed file and units (units.cpp)

 private:
  std::vector<std::shared_ptr<const Doc>> docs_;
};

/// Whether a TOML text is a unit library (it has `library = ...`).
bool is_unit_library(std::string_view toml);

/// A unit's values in the game's notation, one per line ("Gun: 75L  ROF: 1  B#: 12 ..."), for
/// `salvo units show`.
std::vector<std::string> describe_unit(const Unit& unit);

}  // namespace salvo::load
