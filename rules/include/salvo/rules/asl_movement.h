#pragma once
/// salvo/rules/asl_movement.h — vehicle rolls beyond firing (D2): Excessive Speed Breakdown
/// (D2.5), mechanical reliability on a start (D2.51), Motion attempts (D2.401). Each compiles to
/// a one-step roll program, so both engines run it like a shot.

#include <optional>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_reference.h"

namespace salvo::asl {

/// Flags of a movement roll program.
enum MovementFlag : int { kMoveFlagSuccess, kMoveFlagImmobilized, kNumMoveFlags };
/// Outcomes of a movement roll program.
enum MovementOutcome : int { kMoveSuccess, kMoveFailed, kMoveImmobilized, kNumMoveOutcomes };

/// D2.5 ESB DRM of the manufacturer's nationality: U.S./Czech 0, Russian +1, British/German +2,
/// French/Italian/others +3.
int esb_nationality_drm(Manufacturer m);
/// D2.5: largest ESB gain, 1/4 of the printed MP allotment (FRD).
int esb_cap(int mp_allotment);
/// D2.5: +1 per extra MP sought, FRD (FRU with a red MP allotment).
int esb_mp_drm(double mp_sought, bool red_mp);
/// Total ESB DRM (MP sought, nationality, other).
int esb_drm(const Movement& m);

/// Rules conflicts of a movement roll (e.g. the 1/4 cap); nothing if none.
std::optional<RulesError> check_movement(const Movement& m);

/// Compile a movement roll: one state, a DAG over its dice. Throws RulesError.
Compiled compile_movement(const Movement& m);

/// Reference resolution from dice, sharing nothing with the compiled DAG: the outcome.
MovementOutcome resolve_movement(const Movement& m, Dice& dice);

}  // namespace salvo::asl
