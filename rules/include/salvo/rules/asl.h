#pragma once
/// salvo/rules/asl.h — ASL ordnance fire: compile a situation into a roll program.

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "salvo/core/rules.h"
#include "salvo/rules/asl_situation.h"
#include "salvo/rules/program.h"

namespace salvo::asl {

using salvo::Modifier;
using salvo::RulesError;  // salvo/core/rules.h

/// Flags recorded per step (a shot, or an attempt that turned out not to be a shot).
enum Flag : int {
  kFlagHit,
  kFlagCritical,
  kFlagMultipleHit,
  kFlagKill,
  kFlagBurn,
  kFlagEliminated,
  kFlagImmobilized,
  kFlagShock,
  kFlagPossibleShock,
  kFlagDud,
  kFlagMalfunction,
  kFlagDisabled,
  kFlagLowAmmo,
  kFlagDepleted,
  // IFT results vs Personnel (A7.3), cumulative: PTC or worse, NMC or worse, K/# or #KIA, #KIA.
  kFlagPtcOrWorse,
  kFlagMcOrWorse,
  kFlagCasualty,
  kFlagKia,
  // What a Panzerfaust does to its own firer: the PF Check's Original 6 pins it, or breaks a
  // pinned one (C13.31); an Original TH DR 12 is its Casualty Reduction (C13.36).
  kFlagFirerPinned,
  kFlagFirerBroken,
  kFlagFirerCasualty,
  kNumFlags
};
/// Counters summed per step.
enum Counter : int { kCounterShots, kCounterHits, kNumCounters };
/// Categorical outcome of a step (the best effect of the shot on the target).
enum Outcome : int {
  kOutcomeNoShot,
  kOutcomeMiss,
  kOutcomeDud,
  kOutcomeNoEffect,
  kOutcomePossibleShock,
  kOutcomeImmobilized,
  kOutcomeShock,
  kOutcomeEliminated,
  kOutcomeBurn,
  // IFT Personnel results (A7.3), from least to most severe; "—" is kOutcomeNoEffect.
  kOutcomePtc,
  kOutcomeNmc,
  kOutcome1Mc,
  kOutcome2Mc,
  kOutcome3Mc,
  kOutcome4Mc,
  kOutcomeK1,
  kOutcomeK2,
  kOutcomeK3,
  kOutcomeK4,
  kOutcome1Kia,
  kOutcome2Kia,
  kOutcome3Kia,
  kOutcome4Kia,
  kOutcome5Kia,
  kOutcome6Kia,
  kOutcome7Kia,
  kNumOutcomes
};
/// Why a fire phase ends.
enum EndReason : int {
  kEndRofExhausted,
  kEndIntensiveFireDone,
  kEndMalfunction,
  kEndTargetDestroyed,
  kEndTargetEffect,
  kEndShotCap,
  kEndOutOfAmmo,
  kEndFollowUpDone,  ///< the AFPh follow-up shot after Bounding First Fire was fired (D3.32); named only when asked for
  kEndPfCheckFailed,  ///< a Panzerfaust's PF Check gave no shot (C13.31); named only for a Panzerfaust
  kNumEndReasons
};

const char* flag_name(int flag);
const char* counter_name(int counter);
const char* outcome_name(int outcome);
const char* end_reason_name(int reason);

/// A duel over several turns (fire.turns = T > 1): the same fire phase each turn, a gun that
/// malfunctions rolls for repair in each Rally Phase (D3.7; A9.72), Low Ammo and spent special
/// ammunition carry over (D3.71, C8.9), Acquisition carries over until a malfunction (C6.5),
/// and a Shocked target recovers or becomes a wreck (C7.42). Its programs name things so:
namespace duel {
/// The outcome of every step is the target's status after it, least to most severe (a Shocked
/// or Unconfirmed Kill target that is also immobilized counts as Shocked / Unconfirmed Kill).
enum Status : int { kIntact, kImmobilized, kShocked, kUnconfirmedKill, kDestroyed, kNumStatus };
const char* status_name(int status);
/// End reasons: destroyed in turn t (index t - 1), then these.
constexpr int end_destroyed(int turn) { return turn - 1; }
constexpr int end_turns_over(int turns) { return turns; }        ///< every turn was played
constexpr int end_gun_disabled(int turns) { return turns + 1; }  ///< gun disabled, nothing left to roll
constexpr int end_out_of_ammo(int turns) { return turns + 2; }   ///< no ammunition, nothing left to roll
constexpr int num_end_reasons(int turns) { return turns + 3; }
/// Flags after the kNumFlags per-step ones: the target is destroyed by the end of turn t; the
/// gun is out of action (malfunctioned or disabled) at the end of turn t; it has been out of
/// action at the end of some turn <= t.
constexpr int flag_destroyed_by(int turn) { return kNumFlags + turn - 1; }
constexpr int flag_gun_out(int turn, int turns) { return kNumFlags + turns + turn - 1; }
constexpr int flag_gun_out_by(int turn, int turns) { return kNumFlags + 2 * turns + turn - 1; }
constexpr int num_flags(int turns) { return kNumFlags + 3 * turns; }
/// Names of the flags, outcomes and end reasons of a T-turn duel program (before naming drops
/// the per-step flags a target type cannot produce).
std::vector<std::string> flag_names(int turns);
std::vector<std::string> end_reason_names(int turns);
/// Names a T-turn duel program (flags, outcomes, end reasons), with its per-turn series.
void add_names(RollProgram& p, int turns);
}  // namespace duel

/// One fire phase inside a fight (asl_fight.h): it starts from what the firer and its target
/// carry from earlier phases, and each way it can end is an exit, with what they carry on.
/// Its program's states are the phase's shots; a leaf that ends the phase has next_state -1 and
/// end_reason = the index of its exit. Leaves record the per-step flags and counters of a
/// one-turn phase; their outcome is the target's duel::Status after the step.
namespace phase {
enum class Gun : std::uint8_t { kOk, kMalfunctioned, kDisabled };
enum class Shock : std::uint8_t { kNone, kShocked, kUnconfirmed };  ///< C7.42
/// A Personnel unit's status (A7.8, A10.3): good order, pinned (for the rest of the Player
/// Turn), broken.
enum class Morale : std::uint8_t { kGood, kPinned, kBroken };
/// What the firer carries: it fired before in the fight (no Case A, C5.12; the Acquisition it
/// carries counts, C6.5), its Acquisition of this target, its ammunition.
struct Firer {
  bool fired_before = false;
  int acquisition = 0;       ///< of this target (0..2), when fired_before
  bool special_out = false;  ///< C8.9
  bool low_ammo = false;     ///< a Low Ammo counter (D3.71), besides firer.low_ammo_marked
  /// at the start: kOk (a gun out of action does not fire); infantry: its SW MG's, which fires
  /// only when kOk (the inherent FP fires either way)
  Gun gun = Gun::kOk;
  bool pinned = false;   ///< infantry: the firer is pinned (A7.8: FP halved, no Multiple ROF, A7.81)
  bool reduced = false;  ///< infantry: the firer, a squad, was Reduced to a HS (A7.302)
  friend bool operator==(const Firer&, const Firer&) = default;
};
/// What the target carries.
struct Target {
  bool destroyed = false;
  Shock shock = Shock::kNone;
  bool immobilized = false;
  bool revealed = false;          ///< C6.57: a hit removed its concealment (Personnel: a PTC or worse, A12.14)
  Morale morale = Morale::kGood;  ///< Personnel (target.type = "infantry" of infantry fire)
  bool reduced = false;           ///< Personnel: a squad Reduced to a HS (A7.302)
  friend bool operator==(const Target&, const Target&) = default;
};
struct Start {
  Firer firer;
  Target target;
};
struct Exit {
  Firer firer;  ///< fired_before set, Acquisition as built and kept (C6.5), gun, ammunition
  Target target;
  bool rof_kept = false;  ///< it stopped at fire.max_shots with its Multiple ROF kept (C2.24)
  friend bool operator==(const Exit&, const Exit&) = default;
};
/// The target's marks of a fight (fight::UnitFlag: destroyed, then two by the target's kind)
/// that a step of the phase records as it happens, even if a later step goes further (an
/// immobilized target destroyed by the next shot): per mark, the flag of the program's leaves
/// that sets it; -1: the exits alone tell it.
using Marks = std::array<int, 3>;
struct Program {
  RollProgram program;
  std::vector<Exit> exits;
  Marks marks = {-1, kFlagImmobilized, -1};
};
/// The fire phase of situation `s` (its firer at its target; fire.turns ignored) from `start`.
/// Throws RulesError as compile() does; `checked`: check(s) found nothing already (a fight's
/// check), not checked again.
Program compile(const Situation& s, const Start& start, bool checked = false);
}  // namespace phase

/// To Kill numbers for one struck aspect.
struct AspectKill {
  std::string aspect;          ///< "hull front", "turret side", ...
  int basic_tk = 0;            ///< Basic TK# (already doubled for a CH where `critical`)
  std::vector<Modifier> mods;  ///< C7 Cases applied to the Basic TK#
  std::optional<int> af;       ///< armor factor used (nullopt: unarmored)
  int final_tk = 0;
  bool critical = false;
};

/// Everything that decides one kind of shot in the phase (first shot, later shots, ...).
struct ShotExplain {
  std::string label;  ///< "shot 1 (APCR)", "shots 3+", "Intensive Fire shot"
  Ammo ammo = Ammo::kAP;
  const char* ammo_name = nullptr;  ///< what the Gun fires when it is not an Ammo: "SMOKE", "WP"
  int basic_th = 0;
  std::vector<Modifier> th_mods;  ///< C4 Gun/Ammo modifications to the Basic TH#
  int modified_th = 0;
  std::vector<Modifier> drm;      ///< C5/C6 To Hit DRM
  bool double_lower_die = false;  ///< C5.35 Case C4: the lower die of the TH DR counts double
  int total_drm = 0;
  int rof = 0;                       ///< ROF in effect for this shot
  int breakdown = 12;                ///< B# in effect
  std::optional<int> x_number;       ///< X# in effect
  std::optional<int> depletion;      ///< Depletion # in effect (special ammo)
  std::vector<AspectKill> kills;     ///< Final TK# per aspect that can be struck
  bool direct_ift = false;           ///< MG/IFE: no To Hit DR; the IFT DR is the attack (D3.5, C2.29)
  std::vector<std::string> effects;  ///< how a hit (or the MG/IFE attack) is resolved on the IFT
};

struct Explanation {
  std::string th_color;  ///< "red" or "black", and why
  std::vector<ShotExplain> shots;
  std::vector<std::string> notes;  ///< rule readings and limits that matter for this situation
};

struct Compiled {
  RollProgram program;
  Explanation explain;
};

/// The `explain` listing of an explanation (after the situation's name and sweep point, which
/// the caller prints): the To Hit table color, each shot's modifiers with their rules, the
/// notes. Ends with a newline.
std::string format_explanation(const Explanation& e);

/// Check a situation against the rules; returns the first problem found, or nothing.
/// compile() calls it and throws it.
std::optional<RulesError> check(const Situation& s);

struct CompileOptions {
  /// Fill Compiled::explain (the `explain` listing, sensitivity variants). The program is the
  /// same either way; without it, compile() skips building the explanation's text.
  bool explain = true;
};

/// Compile a situation into a roll program. Throws RulesError.
Compiled compile(const Situation& s, const CompileOptions& options = {});

/// Version of the ASL rules data (bumped when any table or rule reading changes a number).
inline constexpr const char* kRulesDataVersion = "asl-2026.11-6";

}  // namespace salvo::asl

namespace salvo::asl {
/// Parse a gun designation: caliber in mm then an optional barrel mark: "75", "37*", "75L",
/// "88LL". Returns nullopt if it is not one.
std::optional<Gun> parse_gun(std::string_view designation);
}  // namespace salvo::asl

namespace salvo::asl {
/// Hash of every entry of the ASL charts the lookups read (asl::table_data(): A25, C3 rows of
/// every Target Type, C4, C7 To Kill, Case D, C8.12 depletion, the IFT, Case A, armor factors,
/// the C5/C6 To Hit DRM, C7.21 TK Case A, the D2.5 ESB DRM): any change of a table entry changes
/// it. About 30 microseconds.
std::uint64_t tables_hash();

/// tables_hash(), computed on first use and kept: what provenance records.
std::uint64_t rules_data_hash();
}  // namespace salvo::asl
