#pragma once
/// salvo/rules/asl_fight.h — an ASL fight: units on two sides, each firing its whole fire phase
/// in the phases its side owns, over several game turns, compiled into one RollProgram.
///
/// The program's states are the joint state of the fight (every unit's status, gun,
/// ammunition and Acquisition; where in the game turn the fight stands) and, inside a unit's
/// fire phase, the phase's own states: each unit's phase is compiled by the same compiler as a
/// single situation (asl::phase::compile) and its exits lead to the next joint state. The
/// engines run it like any other program: the exact engine solves it, Monte Carlo rolls it.

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_situation.h"
#include "salvo/rules/program.h"

namespace salvo::asl {

/// One unit of a fight: a vehicle, a Gun, or an infantry unit (firer.weapon = "infantry": a
/// squad, crew or Fire Group and its SW MG, fired on as Personnel) on side A (0) or B (1).
/// Infantry units fight infantry units only.
struct FightUnit {
  std::string name;  ///< letters, digits, '_' and '-': it names the unit's results
  int side = 0;
  Firer firer;  ///< its weapon, as a situation's [firer]
  Fire fire;    ///< how it fires (range, phase, ROF use, stop_on, ...), as a situation's [fire]
  Override override_;
  Target as_target;                     ///< what it is when fired on, as a situation's [target]
  std::optional<std::string> target;    ///< the enemy it fires at; nullopt: "auto"
  std::vector<std::string> unit_notes;  ///< which values came from a unit library (docs/units.md)
  /// Its range to an enemy (by name), both ways; an enemy not listed: fire.range (pair_range).
  std::vector<std::pair<std::string, int>> ranges;
  /// An infantry unit that rallies (A10.6): once broken, it attempts to rally in each Rally
  /// Phase with this DRM on its rally DR (the player's sum: a leader's DRM, -1 rally terrain, +1
  /// self-rally, +4 Desperation Morale, A10.6-.63). Unset: it does not rally.
  std::optional<int> rally_drm;
};

/// A step of the game turn: a Rally Phase, or a fire phase owned by a side.
enum class FightStep : std::uint8_t { kRally, kFireA, kFireB };

/// The ASL game turn: A's Player Turn (RPh, A's PFPh, B's DFPh), then B's (RPh, B's PFPh,
/// A's DFPh).
inline std::vector<FightStep> asl_game_turn() {
  static constexpr FightStep kTurn[] = {FightStep::kRally, FightStep::kFireA, FightStep::kFireB,
                                        FightStep::kRally, FightStep::kFireB, FightStep::kFireA};
  return {std::begin(kTurn), std::end(kTurn)};
}

struct Fight {
  std::string name;
  std::vector<FightUnit> units;
  std::vector<FightStep> sequence = asl_game_turn();  ///< one game turn
  int turns = 1;                                      ///< game turns, 1..kMaxTurns
};

/// An infantry unit: it fires on the IFT and is fired on as Personnel (asl_infantry.h).
inline bool is_infantry(const FightUnit& u) { return u.firer.weapon == Weapon::kInfantry; }

inline constexpr std::size_t kMaxFightUnits = 8;
/// A fight whose program would have more states is refused: its compile takes about 200 bytes
/// a state at its peak (docs/fights.md). Up to kMaxExactStates the app solves it exactly; above,
/// Monte Carlo runs it.
inline constexpr std::size_t kMaxFightStates = 20'000'000;

/// The range between units a and b of `f`: the one either lists for the other (`ranges`), else
/// a's fire.range (check() requires b's to be the same).
int pair_range(const Fight& f, std::size_t a, std::size_t b);

/// The situation of `shooter` firing at `target` (units of `f`): its firer, fire and override,
/// the target unit as target, at their pair_range; fire.turns = 2: one fire phase of several,
/// checked as a duel.
Situation fight_situation(const Fight& f, std::size_t shooter, std::size_t target);

/// Check a fight: sides, names, targets, and every situation a unit could fire in. The key of
/// the error names the setting ("unit.Sherman.target").
std::optional<RulesError> check(const Fight& f);

/// Compile a fight. Throws RulesError (check(), or more than `max_states` states).
RollProgram compile(const Fight& f, std::size_t max_states = kMaxFightStates);

namespace detail {
/// The program compile() makes, with every state built from the rules: none of a later game turn
/// copied from its twin a game turn earlier. For tests: the two programs are the same.
RollProgram compile_without_twins(const Fight& f);
}  // namespace detail

/// The `explain` listing: the fight's readings, then each unit's shots against each enemy it
/// could fire at. Ends with a newline.
std::string explain(const Fight& f);

/// How a fight program names its results.
namespace fight {
/// Flags: a_wins, b_wins, neither (set on the run's last step), then per unit, in file order,
/// NAME_destroyed, NAME_immobilized, NAME_gun_out (each at least once in the fight); an
/// infantry unit's: NAME_eliminated, NAME_broken (A10.3), NAME_reduced (Casualty Reduction,
/// A7.302), in the same three places (unit_flag_suffixes).
enum Flag : int { kAWins, kBWins, kNeither, kNumSideFlags };
enum UnitFlag : int { kDestroyed, kImmobilized, kGunOut, kNumUnitFlags };
/// An infantry unit's flags, in the places of kImmobilized and kGunOut.
inline constexpr UnitFlag kBroken = kImmobilized, kReduced = kGunOut;
/// The suffixes of a unit's flags, by UnitFlag.
std::array<const char*, kNumUnitFlags> unit_flag_suffixes(const FightUnit& u);
constexpr int unit_flag(std::size_t unit, UnitFlag what) {
  return kNumSideFlags + static_cast<int>(unit) * kNumUnitFlags + what;
}
/// Counters: shots fired by all units; game_turns, the game turns played (counted as each
/// ends, and the one the fight ends in): over the run, the game turn the fight ended in.
enum Counter : int { kShots, kGameTurns, kNumCounters };
/// Outcome of a step: the fight's state after it (neither: not decided yet, or at all).
enum Outcome : int { kUndecided, kOutcomeAWins, kOutcomeBWins, kNumOutcomes };
/// End reasons: a_wins_turn_t, b_wins_turn_t (per-turn series), then turns_over.
constexpr int end_a_wins(int turn) { return turn - 1; }
constexpr int end_b_wins(int turn, int turns) { return turns + turn - 1; }
constexpr int end_turns_over(int turns) { return 2 * turns; }
}  // namespace fight

}  // namespace salvo::asl
