#pragma once
/// salvo/rules/w1943.h — "1943 – Battalion Level Ground Combat for WWII" (The War Times
/// Journal), sections 3.1-3.7: Small Arms Fire, Direct Artillery Fire, hit results and the
/// special fire rules, compiled into a roll program like every other ruleset.
///
/// The published charts are not public: their values live in a Chart (loaded from a chart
/// file, or built in code by a test). The values the text states are built in here and cited.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "salvo/core/names.h"
#include "salvo/core/rules.h"
#include "salvo/rules/program.h"

namespace salvo::w1943 {

using salvo::kMaxTurns;  // salvo/core/rules.h
using salvo::Modifier;
using salvo::RulesError;

// ---- Values the text states (built in) ----

inline constexpr int kWeakFire = -2;          ///< 3.5: two thirds or less of the bases fire
inline constexpr int kRemnantFire = -4;       ///< 3.5: one third or less
inline constexpr int kOutstandingHit = +1;    ///< 3.6: to hit
inline constexpr int kAbysmalHit = -1;        ///< 3.6: to hit
inline constexpr int kMediumMgKill = -2;      ///< 3.6: anti-tank, to kill
inline constexpr int kHeavyMgKill = -1;       ///< 3.6: anti-tank, to kill
inline constexpr int kMortarMinRange = 120;   ///< 3.7, yards
inline constexpr int kMortarMaxRange = 1800;  ///< 3.7, yards
inline constexpr int kNumShellSizes = 12;     ///< 3.6 Weapon Size Index: categories 0..11

/// 3.6 Weapon Size Index: the shell size category of a named weapon class
/// ("75mm", "light_mortar", "machine_gun", ...), or nullopt if the name is not in the index.
std::optional<int> shell_size_of(const std::string& weapon_class);
/// The names shell_size_of() knows, in the order of the index.
const std::vector<std::string>& shell_size_names();

// ---- The chart (data) ----

/// A result box of the charts.
enum class Result : std::uint8_t { kNone, kImmobilized, kDamaged, kKilled };
const char* result_name(Result r);  ///< "none", "I", "D", "K"

/// Result boxes by modified total; a total below the first box reads the first, above the
/// last reads the last.
struct ResultTable {
  int lowest = 1;               ///< modified total of results[0]
  std::vector<Result> results;  ///< consecutive totals
  Result at(int total) const;
  int highest() const { return lowest + static_cast<int>(results.size()) - 1; }
};

/// A range band in yards, both ends included; `value` is a modifier (Small Arms) or a To Hit
/// number (Direct Artillery).
struct RangeBand {
  int from = 0;
  int to = 0;
  int value = 0;
};

/// The modifiers of one Direct Artillery section (anti-tank or anti-personnel): name -> value,
/// each on the To Hit roll, the To Kill roll, or both.
struct ArtillerySection {
  std::map<std::string, int> to_hit;
  std::map<std::string, int> to_kill;
  ResultTable kill;  ///< the To Kill result boxes by modified kill die
};

/// Every chart value salvo needs that the text does not state.
struct Chart {
  std::string name;
  std::map<std::string, int> ranges;  ///< Base and Range chart: weapon -> maximum range, yards
  // Small Arms Fire chart (3.1, 3.5).
  int small_arms_dice = 2;                     ///< 1 (1d6) or 2 (2d6)
  std::map<std::string, int> small_arms_mods;  ///< kSmallArmsModifiers
  std::vector<RangeBand> small_arms_bands;     ///< value: range modifier
  ResultTable small_arms_results;
  // Direct Artillery Fire chart (3.2, 3.6).
  std::vector<RangeBand> artillery_bands;  ///< value: modified 2d6 needed to hit
  ArtillerySection anti_tank, anti_personnel;
  std::array<int, kNumShellSizes> shell_size_kill{};  ///< To Kill modifier per shell size category

  /// 64-bit FNV-1a hash of every value (recorded in provenance).
  std::uint64_t hash() const;
};

/// Names of the chart modifiers each table must give.
extern const std::vector<std::string> kSmallArmsModifiers;
extern const std::vector<std::string> kAntiTankModifiers;
extern const std::vector<std::string> kAntiPersonnelModifiers;

/// Structural problems of a chart (for charts built in code; the loader reports the same with
/// file:line): "small_arms.results: missing result for total 5". Empty: none.
std::vector<std::string> chart_problems(const Chart& chart);

/// The illustrative chart of examples/1943/illustrative-chart.toml, built in code (tests).
Chart illustrative_chart();

// ---- The situation ----

enum class FireKind : std::uint8_t { kSmallArms, kArtillery, kFlamethrower, kSmoke };
enum class MachineGun : std::uint8_t { kNone, kLight, kMedium, kHeavy };
enum class Training : std::uint8_t { kAverage, kOutstanding, kAbysmal };
enum class Ammo : std::uint8_t { kNone, kHE, kAP, kAPCP, kSmoke };
enum class TargetType : std::uint8_t { kInfantry, kMachineGun, kMortar, kTowedGun, kVehicle };
enum class TargetSize : std::uint8_t { kNormal, kLarge, kSmall };

/// The words situation files spell these with: the loader reads them, messages quote them back.
inline constexpr std::array<Named<MachineGun>, 4> kMachineGunNames = {{{"none", MachineGun::kNone},
                                                                       {"light", MachineGun::kLight},
                                                                       {"medium", MachineGun::kMedium},
                                                                       {"heavy", MachineGun::kHeavy}}};
inline constexpr std::array<Named<Ammo>, 5> kAmmoNames = {
    {{"none", Ammo::kNone}, {"HE", Ammo::kHE}, {"AP", Ammo::kAP}, {"APCP", Ammo::kAPCP}, {"smoke", Ammo::kSmoke}}};
inline constexpr std::array<Named<TargetType>, 5> kTargetTypeNames = {{{"infantry", TargetType::kInfantry},
                                                                       {"machine_gun", TargetType::kMachineGun},
                                                                       {"mortar", TargetType::kMortar},
                                                                       {"towed_gun", TargetType::kTowedGun},
                                                                       {"vehicle", TargetType::kVehicle}}};

struct Firer {
  int bases = 1;
  int bases_firing = 0;          ///< 0: all of them (3.1, 3.5 Weak/Remnant)
  std::optional<MachineGun> mg;  ///< unset: from the weapon, see mg_of()
  std::optional<bool> mortar;    ///< the 3.7 mortar rules; unset: from the weapon, see is_mortar()
  bool mounted_cavalry = false;  ///< 3.1: assault weapon range, Moved modifier
  Training training = Training::kAverage;
  bool demoralized = false;
  bool moved = false;  ///< moving-firing (3.5) / moved (3.6)
  bool damaged = false;
  std::string weapon;  ///< Base and Range chart entry, "" for no range check
  /// Direct artillery ammunition; unset: the weapon's own, see ammo_of(). A machine gun fires
  /// no H.E. or APCP shells and takes no ammunition setting (3.6, 3.7).
  std::optional<Ammo> ammo;
  std::optional<bool> secondary;     ///< ammo is secondary (3.7); unset: only APCP and smoke are
  Ammo fallback_ammo = Ammo::kNone;  ///< the primary ammunition once the secondary is out
  std::optional<int> shell_size;     ///< 0..11 (3.6 Weapon Size Index); unset: see shell_size_of(const Firer&)
  int weapon_value = 0;              ///< anti-tank value for the weapon differential
  bool jammed = false;               ///< an MG already jammed when the fire starts
};

struct Target {
  TargetType type = TargetType::kInfantry;
  int bases = 1;
  bool damaged = false;      ///< has a damaged base already (3.3)
  bool immobilized = false;  ///< vehicles and towed guns
  bool prone = false, rushing = false;
  bool packed = false;  ///< every base within 10 yards of another: holds while two bases are left (3.5, 3.6)
  bool soft_cover = false, solid_cover = false, hard_cover = false;  ///< cumulative (3.5)
  TargetSize size = TargetSize::kNormal;
  bool stationary_in_open = false;
  bool moving = false;
  int defense = 0;  ///< defense value for the weapon differential
};

struct Fire {
  FireKind kind = FireKind::kSmallArms;
  int range = 100;          ///< yards, closest point to closest point (a situation file must give it)
  bool flank_rear = false;  ///< 3.6 At flank/rear
  int turns = 1;            ///< 1: one fire (with its Rapid Fire chain); >1: that many turns
};

inline constexpr int kMaxBases = 12;

struct Situation {
  std::string name = "situation";
  Firer firer;
  Target target;
  Fire fire;
};

/// What salvo knows of a Base and Range chart weapon by its name: the names of
/// examples/1943/illustrative-chart.toml, and any name ending in "_mortar". The fire it can
/// deliver (3.1, 3.2, 3.7) and the base type it implies. Other names get the range check only.
struct WeaponClass {
  MachineGun mg = MachineGun::kNone;
  bool mortar = false;
  bool small_arms = false;    ///< 3.1: infantry, machine guns, anti-tank rifles
  bool artillery = false;     ///< 3.2: guns and mortars; 3.7: medium and heavy MGs at tanks; ATRs (3.6 size 1)
  bool flamethrower = false;  ///< 3.7 Flamethrowers
  bool smoke = false;         ///< 3.7 Light Smoke: mortars and guns
};
std::optional<WeaponClass> weapon_class(const std::string& weapon);

/// The firer's machine gun: `firer.mg` if given, else the weapon's (lmg, mmg, hmg), else none.
MachineGun mg_of(const Firer& f);
/// Whether the 3.7 mortar rules apply: `firer.mortar` if given, else a "*_mortar" weapon.
bool is_mortar(const Firer& f);
/// The shell size category: `firer.shell_size` if given, else the weapon's name in the 3.6
/// Weapon Size Index ("medium_mortar" is 3), else nothing.
std::optional<int> shell_size_of(const Firer& f);

/// The ammunition the firer starts with: `firer.ammo` if given, else none for a machine gun
/// (3.7: it fires bullets, never "high explosives (from mortars or field guns for example)",
/// 3.6 Firing H.E.) and HE for every other weapon (3.6: "you must use H.E. in an
/// antipersonnel role").
Ammo ammo_of(const Firer& f);

// ---- What the program records ----

enum Flag : int {
  kFlagHit,
  kFlagResultK,
  kFlagResultD,
  kFlagResultI,
  kFlagBaseKilled,
  kFlagBaseDamaged,
  kFlagImmobilized,
  kFlagRapidFire,
  kFlagMgJam,
  kFlagMgRepaired,
  kFlagAmmoOut,
  kFlagOutOfFuel,
  kFlagTargetDestroyed,
  kFlagTargetRemnant,
  kNumFixedFlags
};
/// Multi-turn fire adds flags remnant_by_turn_<t>, t = 1..turns, after the fixed ones.
enum Counter : int { kCounterShots, kCounterHits, kCounterBasesKilled, kCounterTurnsFired, kNumCounters };
/// Outcome of a step in one fire (turns == 1): the result box of the shot.
enum ShotOutcome : int { kOutMiss, kOutNone, kOutI, kOutD, kOutK, kOutSmoke, kNumShotOutcomes };
/// End reasons of one fire; multi-turn fire uses destroyed_turn_<t>, turns_over, out_of_ammo,
/// out_of_fuel instead. One rule for both: the target destroyed ends the run; otherwise the run
/// ends for what stopped a shot that was due - a Rapid Fire shot (3.7) or a following turn's
/// fire - as mg_jammed (one fire only: over several turns a jammed MG spends the next turn on
/// its repair roll), out_of_ammo (secondary ammunition out, no fallback) or out_of_fuel; when no
/// shot was due, fire_over / turns_over. A jam or an empty rack on a shot that fires nothing
/// more shows in the flags (mg_jam, secondary_ammo_out, out_of_fuel), not in the end reason.
enum EndReason : int { kEndFireOver, kEndTargetDestroyed, kEndMgJammed, kEndOutOfAmmo, kEndOutOfFuel, kNumEndReasons };

const char* flag_name(int flag);
const char* counter_name(int counter);

/// How a run ends, before naming: compile() and the reference interpreter both map it with
/// end_index() to the program's end-reason index.
enum class End : std::uint8_t { kFireOver, kDestroyed, kMgJammed, kOutOfAmmo, kOutOfFuel };
/// Program end-reason index of `e` in turn `turn` (1-based) for this situation.
int end_index(const Situation& s, End e, int turn);
/// Program outcome index of a step: the shot outcome (one fire) or the bases lost so far
/// (multi-turn fire).
int outcome_index(const Situation& s, int shot_outcome, int lost);
struct Shot;
/// Shot outcome of a resolved shot (ShotOutcome).
int shot_outcome_of(FireKind kind, const Shot& shot);
const char* shot_outcome_name(int outcome);
const char* end_reason_name(int reason);

// ---- Shots as pure functions ----

/// Everything fixed about the shots of one ammunition.
struct ShotSpec {
  FireKind kind = FireKind::kSmallArms;
  Ammo ammo = Ammo::kNone;
  bool anti_tank = false;
  int dice = 2;                        ///< small arms: 1 or 2
  int to_hit = 0;                      ///< artillery: modified 2d6 needed
  int hit_mod = 0;                     ///< artillery To Hit, or the small arms roll modifier
  int kill_mod = 0;                    ///< artillery To Kill
  const ResultTable* table = nullptr;  ///< small arms results or the section's kill boxes
  bool secondary = false;              ///< 3.7 secondary ammunition rule on the kill die
  bool jam_on_fire_die = false;        ///< 3.7 MG: any 1 on the small arms roll checks for a jam
  bool jam_on_kill_die = false;        ///< 3.7 MG in the anti-tank role: a 1 on the kill die checks
  bool rapid_fire = false;             ///< 3.7 Rapid Fire Reward on a natural 12
  std::vector<Modifier> hit_mods, kill_mods;
};

/// The target unit as the program tracks it.
struct TargetState {
  int alive = 1;
  bool damaged = false;
  bool immobilized = false;
  friend bool operator==(const TargetState&, const TargetState&) = default;
};

/// The result of one shot given its dice.
struct Shot {
  bool hit = false;
  Result result = Result::kNone;  ///< the chart box read (kNone on a miss)
  bool jam_check = false;         ///< a jam roll is needed
  bool ammo_out = false;          ///< 3.7 secondary ammunition exhausted
  bool rapid_fire = false;        ///< 3.7 fires again at once
};

/// Resolve one shot. Small arms: `roll` is the face of the chart's dice (pair face 0..35 for
/// 2d6, 0..5 for 1d6), kill_die unused. Artillery: `roll` the hit dice pair face, `kill_die`
/// 1..6. Flamethrower and smoke: `kill_die` is the d6 rolled (1..6), roll unused.
Shot resolve_shot(const ShotSpec& spec, int roll, int kill_die);

/// 3.3: the effect of a shot on the target unit; returns bases killed (0 or 1). A hit is any
/// result box but "none" (3.3 Hit Results: K, D, I); machine gun and mortar bases die on any hit.
int apply_shot(TargetType type, const Shot& shot, TargetState& t);

/// The remnant threshold of 3.5 applied to the target: one third or less of its bases left.
inline bool is_remnant(int alive, int bases) { return 3 * alive <= bases; }

/// Build the spec of the shots with `ammo` at a target unit with `alive` bases left (3.5, 3.6
/// At packed: "any bases which are within 10 yards of each other at the time the die is rolled"
/// needs two bases; with one left the packed modifier lapses). Throws RulesError if the chart
/// cannot serve it.
ShotSpec build_spec(const Chart& chart, const Situation& s, Ammo ammo, int alive);

// ---- Compile ----

struct Explanation {
  std::vector<std::string> lines;  ///< formatted listing: modifiers with rule numbers, notes
};

struct Compiled {
  RollProgram program;
  Explanation explain;
};

/// First problem of a situation with this chart, or nothing. compile() throws it.
std::optional<RulesError> check(const Chart& chart, const Situation& s);

/// Compile a situation into a roll program. Throws RulesError.
Compiled compile(const Chart& chart, const Situation& s);

/// The `explain` listing of a compiled situation (after its name and sweep point, which the
/// caller prints). Ends with a newline.
std::string format_explanation(const Explanation& e);

/// Version of the built-in 1943 rules data (the chart itself is hashed separately).
inline constexpr const char* kRulesDataVersion = "1943-2026.11-2";

/// Hash of the built-in values (shell size index, stated modifiers) combined with a chart.
std::uint64_t rules_data_hash(const Chart& chart);

}  // namespace salvo::w1943
