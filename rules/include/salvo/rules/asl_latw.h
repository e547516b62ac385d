#pragma once
/// salvo/rules/asl_latw.h — Light Anti-Tank Weapons (C13): the Bazooka, Panzerschreck, PIAT,
/// Panzerfaust, PFk and ATR, SW fired by Infantry at a vehicle (firer.weapon, is_latw()).
///
/// A LATW shot is an ordnance shot (asl_shot.h builds it) with the weapon's own Basic TH# by
/// range, only the To Hit DRM marked "L" on the To Hit Table, its own To Kill number, and its own
/// breakdown; a Panzerfaust first makes a PF Check (C13.31), and its Original TH DR 12 harms its
/// firer (C13.36). The chart values are in table_data() (latw_*, pf_*, atr_tk); the Bazooka's,
/// Panzerschreck's and PIAT's To Hit tables and X# are the counters', given by the player.

#include <optional>
#include <string>
#include <vector>

#include "salvo/rules/asl.h"

namespace salvo::asl {

/// Index of a LATW listing in table_data().latw_heat_tk (C7.33).
enum class LatwHeat : std::uint8_t { kBaz43, kBaz44, kPiat, kPsk, kPfk, kPf };
/// Index of a date in table_data().latw_dates: from when a weapon exists, or changes.
enum class LatwDate : std::uint8_t { kBazooka, kBaz44, kPiat, kPsk, kPf, kPfk, kFinnishPf };
/// Index of an entry of table_data().pf_check (C13.31, A25.76; C13.36: the Original TH DR from
/// which the firer suffers Casualty Reduction, and for Inexperienced Personnel).
enum class PfCheck : std::uint8_t {
  kShot,
  kShotFinnish,
  kAugSep1943,
  k1945,
  kNotAfv,
  kCx,
  kHalfSquadOrCrew,
  kSmc,
  kCasualty,              ///< C13.36: the Original TH DR from which the firer suffers Casualty Reduction
  kCasualtyInexperienced  ///< the same for Inexperienced Personnel (A19.32)
};

/// "Bazooka", "Panzerschreck", "PIAT", "Panzerfaust", "PFk", "ATR".
const char* latw_name(Weapon w);

/// The weapon can malfunction (and be repaired): any weapon but a LATW whose counter prints an X#
/// alone (the Bazooka, the Panzerschreck, an ATR with an X#: removed, C13.47, A9.7) or a
/// Panzerfaust (no breakdown, C13.36).
bool can_malfunction(const Firer& f);

/// The weapon can malfunction (and be repaired): any weapon but a LATW whose counter prints an X#
/// alone (the Bazooka, the Panzerschreck, an ATR with an X#: removed, C13.47, A9.7) or a
/// Panzerfaust (no breakdown, C13.36).
bool can_malfunction(const Firer& f);

/// The weapon has a backblast (C13.8): the Bazooka, Panzerschreck, Panzerfaust and PFk.
bool has_backblast(const Firer& f);

/// Case C3's backblast +2 applies (C5.34, C13.8): a backblast weapon fired from ground-level
/// rubble or a building, not as Opportunity Fire.
bool backblast_drm(const Situation& s);

/// The longest range it may fire at (C13.22, C13.32, the length of its counter's To Hit table).
int latw_max_range(const Firer& f);

/// The Basic TH# at `range` (C13.33, C13.42, C3 for the ATR). The range must be allowed.
int latw_basic_th(const Firer& f, int range);

/// The Basic TK# vs armor (C7.33 HEAT; C7.31 AP for the ATR), and the Final TK# vs an unarmored
/// target before a CH doubles it (C7.331, C7.311).
int latw_basic_tk(const Firer& f);
int latw_unarmored_tk(const Firer& f);
/// The To Kill ammunition: HEAT, or AP for the ATR.
Ammo latw_ammo(const Firer& f);

/// The Panzerfaust's PF Check (C13.31): a shot on a Final dr <= `shot_max`; an Original 6 pins
/// the firer (breaks it if pinned) and gives no shot.
struct PfCheckSpec {
  int shot_max = 3;
  int drm = 0;
  std::vector<Modifier> mods;  ///< the drm, for explain
};
PfCheckSpec pf_check(const Situation& s);

/// The Original TH DR from which a Panzerfaust's firer suffers Casualty Reduction: 12, or 11 for
/// Inexperienced Personnel (C13.36, A19.32).
int pf_casualty_dr(const Firer& f);

/// Check a LATW situation: dates, ranges, target, the keys a LATW does not use.
std::optional<RulesError> check_latw(const Situation& s);

/// Refuse a LATW's own keys (firer.to_hit, firer.personnel, firer.cx) in a situation whose
/// weapon is not a LATW: they would do nothing.
std::optional<RulesError> check_latw_keys_unused(const Situation& s);

/// The R# of a non-vehicular weapon: the PIAT's by rule (C13.63), else firer.repair (A9.72), if
/// the situation gives it.
std::optional<int> repair_number(const Firer& f);

/// The explain notes of a LATW situation: its rules and readings.
void latw_notes(const Situation& s, std::vector<std::string>& notes);

}  // namespace salvo::asl
