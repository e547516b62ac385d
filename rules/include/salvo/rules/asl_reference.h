#pragma once
/// salvo/rules/asl_reference.h — the scalar reference interpreter: one fire phase, one trial at
/// a time, the shot functions called directly in a plain loop. It shares no code with the
/// compiler's state graph, so the two check each other (tests enumerate every dice sequence).

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_shot.h"

namespace salvo::asl {

using salvo::Dice;  // salvo/core/rules.h

/// What one step (a shot, or an attempt that was not a shot) did.
struct StepRecord : StepTally {
  Outcome outcome = kOutcomeNoShot;
  bool fired = false;
};

struct PhaseTrace {
  std::vector<StepRecord> steps;
  EndReason end = kEndRofExhausted;
};

/// Resolve one fire phase with the given dice. Throws RulesError like compile().
PhaseTrace resolve_phase(const Situation& s, Dice& dice);

/// One fire phase from `ctx` (what the firer carries into it: spent special ammo, Low Ammo,
/// Acquisition, a later turn, concealment), its steps appended to `steps`: the plain loop of
/// resolve_phase, the target carried on past it (a Gun left without its crew ends it,
/// unmans_gun). For interpreters of several phases (a fight's, in its tests).
struct PhaseResult {
  EndReason end = kEndRofExhausted;
  ShotContext ctx;        ///< after the phase: spent special ammo, Low Ammo, concealment removed
  int fired = 0;          ///< shots fired
  bool rof_kept = false;  ///< stopped at fire.max_shots with the Multiple ROF kept (C2.24)
};
/// `spec_of` gives the spec of a shot (build_shot, or one kept from an earlier call).
PhaseResult resolve_phase_from(const Situation& s, const ShotContext& ctx, Dice& dice, std::vector<StepRecord>& steps,
                               const std::function<const ShotSpec&(const ShotContext&)>& spec_of);

/// A duel over several turns (fire.turns > 1): every step in order (Rally Phase rolls and
/// shots). Each step's outcome is the target's status after it (duel::Status); the per-turn
/// flags (duel::flag_*) are set on the last step of their turn; `end` is a duel end reason.
struct DuelTrace {
  std::vector<StepRecord> steps;
  int end = 0;
  std::size_t first_window_steps = static_cast<std::size_t>(-1);  ///< steps of turn 1 (all, if the run ended in it)
};

/// Resolves duels one trial at a time: the turn loop written out plainly, the shots resolved by
/// the same loop as resolve_phase. Throws RulesError like compile().
class DuelInterpreter {
 public:
  explicit DuelInterpreter(Situation s);
  DuelTrace run(Dice& dice);

 private:
  const ShotSpec& spec(const ShotContext& c);
  Situation s_;
  std::map<std::tuple<int, bool, bool, bool, bool, int, bool, int>, ShotSpec> specs_;
};

}  // namespace salvo::asl
