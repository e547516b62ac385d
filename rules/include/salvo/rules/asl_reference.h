#pragma once
/// salvo/rules/asl_reference.h — the scalar reference interpreter: one fire phase, one trial at
/// a time, the shot functions called directly in a plain loop. It shares no code with the
/// compiler's state graph, so the two check each other (tests enumerate every dice sequence).

#include <array>
#include <cstdint>
#include <vector>

#include "salvo/rules/asl.h"

namespace salvo::asl {

/// A source of dice for the interpreter.
class Dice {
 public:
  virtual ~Dice() = default;
  virtual int pair() = 0;  ///< ordered (colored, white) face 0..35, see pair_face()
  virtual int d6() = 0;    ///< 0..5 (dr - 1)
};

/// What one step (a shot, or an attempt that was not a shot) did.
struct StepRecord {
  std::uint32_t flags = 0;
  std::array<std::uint8_t, kMaxCounters> counts{};
  Outcome outcome = kOutcomeNoShot;
  bool fired = false;
};

struct PhaseTrace {
  std::vector<StepRecord> steps;
  EndReason end = kEndRofExhausted;
};

/// Resolve one fire phase with the given dice. Throws RulesError like compile().
PhaseTrace resolve_phase(const Situation& s, Dice& dice);

}  // namespace salvo::asl
