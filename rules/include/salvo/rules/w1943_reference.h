#pragma once
/// salvo/rules/w1943_reference.h — the 1943 scalar reference interpreter: a fire (or several
/// turns of fire) as a plain loop over shots, calling the shot functions directly. It shares no
/// code with the compiler's state graph, so the two check each other.

#include <array>
#include <cstdint>
#include <vector>

#include "salvo/rules/w1943.h"

namespace salvo::w1943 {

using salvo::Dice;  // salvo/core/rules.h

/// What one step (a shot or a repair roll) did, named as the compiled program names it.
struct StepRecord : StepTally {
  int outcome = 0;  ///< outcome_index()
  int turn = 1;
};

struct Trace {
  std::vector<StepRecord> steps;
  int end = 0;  ///< end_index()
};

/// Resolve the fire with the given dice. Throws RulesError like compile().
Trace resolve(const Chart& chart, const Situation& s, Dice& dice);

}  // namespace salvo::w1943
