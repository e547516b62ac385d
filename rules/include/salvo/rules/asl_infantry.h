#pragma once
/// salvo/rules/asl_infantry.h — Infantry fire on the IFT through the target's Morale Check.
///
/// Squads and crews fire their inherent FP (a Fire Group: their total) with at most one SW MG
/// (A7.2-.5, A9), and the MG fires on alone while it keeps its Multiple ROF (A9.2). Each attack's
/// IFT result (A7.301-.305) is applied to one Personnel target unit: its Pin Task Check or Morale
/// Check (A7.8, A10.1-.31), Casualty Reduction, ELR Replacement (A19.13) and the Original 2 that
/// calls for Heat of Battle (A15.1), with its status carried from attack to attack.
///
/// A situation with firer.weapon = "infantry" compiles to such a program of its own, as a
/// movement roll does (docs/infantry.md).

#include <optional>

#include "salvo/rules/asl.h"

namespace salvo::asl {

/// Is this situation infantry fire?
constexpr bool infantry_fire(const Situation& s) { return s.firer.weapon == Weapon::kInfantry; }

/// Rules conflicts of infantry fire; nothing if none.
std::optional<RulesError> check_infantry(const Situation& s);

/// For any other situation: the infantry fire keys it set (they would do nothing), refused.
std::optional<RulesError> check_infantry_keys_unused(const Situation& s);

/// The fire phase as a roll program, and its explanation when `explain`. Throws RulesError.
Compiled compile_infantry(const Situation& s, bool explain);

/// One fire phase of a fight's infantry unit (phase::compile): the situation's one attack (no
/// [[then]]) from `start`, each way its fire ends an exit. Throws RulesError; `checked` as
/// phase::compile.
phase::Program compile_infantry_phase(const Situation& s, const phase::Start& start, bool checked = false);

}  // namespace salvo::asl
