#pragma once
/// salvo/rules/asl_shot.h — one ASL ordnance shot: its specification and the pure functions
/// that resolve it from the dice. The compiler (asl_compile.cpp) and the scalar reference
/// interpreter (asl_reference.cpp) are both built on these.

#include <array>
#include <optional>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_ift.h"

namespace salvo::asl {

enum class Location : std::uint8_t { kHull = 0, kTurret = 1 };

/// To Kill for one struck aspect (location x facing) and CH or not.
struct KillSpec {
  bool possible = true;    ///< false: Case D "NA" (C7.24) — the hit cannot harm; no TK DR is rolled
  bool unarmored = false;  ///< unarmored target or aspect: unarmored destruction table
  int final_tk = 0;        ///< Final TK# (C7.11)
  bool critical = false;   ///< IFT effects: this entry resolves a Critical Hit (C3.71)

  friend bool operator==(const KillSpec&, const KillSpec&) = default;
};

/// Where this shot stands in the phase (what makes one shot differ from another).
struct ShotContext {
  int shots_fired = 0;           ///< shots already fired this phase at this target
  bool special_out = false;      ///< the special ammo is gone: fire the fallback ammo (C8.9)
  bool low_ammo_marked = false;  ///< Low Ammo counter on the vehicle (D3.71)
  bool intensive = false;        ///< this is the Intensive Fire shot (C5.6)
  bool follow_up = false;        ///< the AFPh follow-up shot after Bounding First Fire (D3.32)
  // A duel over several turns (fire.turns > 1): a later turn pays no Case A or C2.5 (the CA
  // already points at the target) and starts from the Acquisition carried over (C6.5).
  bool later_turn = false;
  int carried_acquisition = 0;  ///< Acquisition level (0..2) at the start of a later turn
  // C6.57: a concealed target is acquired only by the shot that removes its concealment (here:
  // a hit), so against it only that shot and the ones after it build Acquisition.
  bool revealed = false;     ///< a hit removed the target's concealment: no more Case K
  int acquiring_shots = -1;  ///< shots that built Acquisition this phase; -1: every shot fired
};

/// ShotSpec::breakdown of a weapon with no B#: an X# alone (C13.47), or a Panzerfaust (C13.36).
inline constexpr int kNoBreakdownNumber = 13;

/// Everything fixed for one shot before the dice are rolled.
struct ShotSpec {
  Ammo ammo = Ammo::kAP;
  // To Hit (C3.3)
  int modified_th = 0;
  int drm = 0;
  bool double_lower_die = false;  ///< C5.35 Case C4: Motion Fire without a gyrostabilizer
  bool hull_down = false;         ///< D4.2
  bool target_bypass = false;     ///< same-hex hull hits strike the side (D3.2 EXC, An 97)
  bool same_hex = false;          ///< Case E: Target Facing from the colored dr (D3.2)
  Facing facing = Facing::kFront;
  bool multiple_hits = false;              ///< C3.8: Gun 15-40mm
  bool deliberate_immobilization = false;  ///< C5.7-.72: a hull hit immobilizes, a turret hit does nothing
  // To Kill (C7)
  bool he = false;                  ///< HE: TK+1 immobilizes/shocks; other ammo: possible shock
  bool red_cs = false;              ///< note A: -1 on the burn check
  std::array<KillSpec, 12> kill{};  ///< by kill_index(location, facing, critical)
  // Malfunction and ammunition (A9.7, C2.28, D3.7, D3.71, C8.9)
  int breakdown = 12;
  std::optional<int> x_number;
  bool low_ammo_possible = false;     ///< circled B# and no Low Ammo counter yet
  std::optional<int> depletion;       ///< Depletion # of the special ammo fired (nullopt: not depleting)
  std::optional<int> firer_casualty;  ///< a Panzerfaust: from this Original TH DR, a miss and the firer's CR (C13.36)
  // Rate of Fire (C2.24)
  int rof = 0;
  bool keeps_rof = true;  ///< false for the Intensive Fire shot (C5.6)
  // Infantry Fire Table (A7, C.6, C3.32-.33, C3.71; MG/IFE D3.5, C2.29)
  IftSpec ift;
};

constexpr int kill_index(Location loc, Facing f, bool critical) {
  return (static_cast<int>(loc) * 3 + static_cast<int>(f)) * 2 + (critical ? 1 : 0);
}

/// Build the spec (and its explanation) of the shot in context `ctx`. Throws RulesError.
ShotSpec build_shot(const Situation& s, const ShotContext& ctx, ShotExplain* explain);

/// "AP", "APCR", "APDS", "HEAT", "HE", "none": as explain and messages name ammunition.
const char* ammo_text(Ammo a);

/// A21.11-.13: 1 for a captured weapon (manned by a qualified enemy crew) or one manned by
/// non-qualified friendly Infantry, 2 for both (non-qualified enemy MMC double the penalties),
/// else 0. Each level: red To Hit numbers, Case H +2 (C5.8), B# -2 (A21.11, A.11), Multiple ROF -1
/// (A21.12).
int crew_penalty(const Firer& f);
/// The Multiple ROF the weapon fires with before any per-shot reduction: the counter's, less the
/// crew penalty (A21.12-.13).
int multiple_rof(const Firer& f);
/// A malfunctioned weapon this firer may repair in a Rally Phase: never a captured one (A9.72),
/// and only a crew repairs a Gun (A9.72), so not a Gun manned by non-qualified Infantry.
bool repairable(const Firer& f);
/// C2.5: a non-vehicular NT Gun without Multiple ROF that changes CA for its first shot is
/// marked so that it cannot Intensive Fire in that Player Turn (in a duel: the first turn).
bool conditional_rof_bars_intensive(const Situation& s);

/// The ammunition a shot in context `ctx` fires (the special ammo, or the fallback).
Ammo shot_ammo(const Situation& s, const ShotContext& ctx);

/// Breakdown of the Gun from the Original TH DR (A9.7, A.11, C2.28, C5.62, D3.7, D3.71, C13.36).
/// kFirerCasualty: not the weapon but its firer, a Panzerfaust's Original 12 (C13.36): a miss,
/// and the firer suffers Casualty Reduction.
enum class Breakdown : std::uint8_t { kNone, kLowAmmo, kMalfunction, kDisabled, kFirerCasualty };
Breakdown breakdown(const ShotSpec& spec, int original_dr);

/// Special ammunition depletion from the Original TH DR (C8.9).
enum class Depletion : std::uint8_t { kNotSpecial, kUsed, kRunsOut, kNotAvailable };
Depletion depletion(const ShotSpec& spec, int original_dr);

/// Final TH DR of an Original (colored, white) (C3.3).
int final_th_dr(const ShotSpec& spec, int colored, int white);
/// Lowest Final TH DR possible for this shot (C3.6, C3.7).
int lowest_final_th_dr(const ShotSpec& spec);

/// Does this TH DR need a subsequent dr? (C3.6 Improbable Hit; C3.7 lowest-Final-DR CH check)
bool needs_subsequent_dr(const ShotSpec& spec, int colored, int white);

struct Hit {
  bool hit = false;
  bool critical = false;                ///< C3.7
  bool multiple = false;                ///< C3.8: two hits, the firer uses the better effects DR
  bool improbable = false;              ///< C3.6
  Location location = Location::kHull;  ///< C3.9
  Facing facing = Facing::kFront;       ///< D3.2
};

/// Resolve the To Hit DR; `subsequent_dr` (1..6) is used only when needs_subsequent_dr().
Hit to_hit(const ShotSpec& spec, int colored, int white, int subsequent_dr);

/// C5.72: a Deliberate Immobilization hit is not resolved on a To Kill Table, even a CH: a hull
/// hit immobilizes (the Crew TC is not rolled), any other hit has no effect.
constexpr Outcome deliberate_immobilization_effect(const Hit& h) {
  return h.location == Location::kHull ? kOutcomeImmobilized : kOutcomeNoEffect;
}

/// Effect of one TK DR (C7.7 AFV Destruction Table; Unarmored Vehicle Destruction Table).
Outcome to_kill(const ShotSpec& spec, const KillSpec& kill, Location location, int colored, int white);

/// C3.8: location of the second hit of a Multiple Hit, from the first TK DR (C3.9 reading).
Location second_hit_location(int first_tk_colored, int first_tk_white);

/// The second hit of a Multiple Hit (C3.8), located by the first TK DR (C3.9 reading).
struct SecondHit {
  const KillSpec* kill = nullptr;  ///< its To Kill entry, when a TK DR is rolled for it
  bool strikes = true;             ///< false: it lands on the hull of a hull-down target, nothing (D4.2)
};
/// kill is nullptr when no TK DR is rolled: the hit cannot harm (Case D NA, C7.24: the result is
/// at least "no effect") or strikes nothing (D4.2: the first hit's result stands alone).
SecondHit second_hit(const ShotSpec& spec, const Hit& first, int first_tk_colored, int first_tk_white);

/// Flags that an outcome sets (kill, burn, ...).
std::uint32_t outcome_flags(Outcome o);

}  // namespace salvo::asl
