#pragma once
// Helpers for the 1943 tests: plain situations, a chart with every box set to one result, an
// enumeration of every dice sequence through the reference interpreter, and the message a rules
// conflict is refused with.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "salvo/rules/w1943.h"
#include "salvo/rules/w1943_reference.h"
#include "support/dice_paths.h"
#include "support/refusal.h"

namespace salvo::w1943::testing {

/// The illustrative chart with every small arms and kill box set to `r` (the To Hit numbers
/// kept): isolates one rule at a time.
inline Chart uniform_chart(Result r) {
  Chart c = illustrative_chart();
  for (auto* t : {&c.small_arms_results, &c.anti_tank.kill, &c.anti_personnel.kill})
    for (Result& box : t->results) box = r;
  return c;
}

inline Situation small_arms(int target_bases = 4) {
  Situation s;
  s.name = "small arms";
  s.firer.bases = 6;
  s.target.bases = target_bases;
  s.fire.kind = FireKind::kSmallArms;
  s.fire.range = 300;
  return s;
}

/// One machine gun base (3.5 Hmg/Lmg) firing small arms at `target_bases` bases.
inline Situation mg_small_arms(MachineGun mg, int target_bases = 4) {
  Situation s = small_arms(target_bases);
  s.firer.mg = mg;
  s.firer.bases = 1;
  return s;
}

inline Situation artillery_vs_tank() {
  Situation s;
  s.name = "artillery vs tank";
  s.firer.ammo = Ammo::kAP;
  s.firer.weapon_value = 5;
  s.target.type = TargetType::kVehicle;
  s.target.defense = 5;
  s.fire.kind = FireKind::kArtillery;
  s.fire.range = 500;
  return s;
}

/// A medium or heavy machine gun in the anti-tank role (3.7): Direct Artillery, no ammunition
/// setting (it fires no H.E. or APCP).
inline Situation mg_vs_tank(MachineGun mg) {
  Situation s = artillery_vs_tank();
  s.name = "machine gun vs tank";
  s.firer.mg = mg;
  s.firer.ammo.reset();
  return s;
}

inline Situation artillery_vs_infantry(int bases = 3) {
  Situation s;
  s.name = "artillery vs infantry";
  s.firer.ammo = Ammo::kHE;
  s.firer.shell_size = 5;
  s.target.bases = bases;
  s.fire.kind = FireKind::kArtillery;
  s.fire.range = 500;
  return s;
}

/// Every dice sequence of the interpreter, each with its probability, indexed as the program
/// `names` numbers its quantities (support/dice_paths.h). The first window is turn 1 of a fire
/// over several turns, else the first step. Paths longer than `max_draws` draws are cut and
/// their probability summed in `truncated`.
inline test::PathTally enumerate(const Chart& chart, const Situation& s, const RollProgram& names,
                                 std::size_t max_draws = 64) {
  test::PathTally e(names.flag_names.size(), names.counter_names.size(), names.outcome_names.size(),
                    names.end_reason_names.size());
  const bool several = s.fire.turns > 1;
  Trace t;
  const auto visit = [&](double p) {
    std::size_t first_steps = 1;
    if (several)
      for (std::size_t i = 0; i < t.steps.size(); ++i)
        if (t.steps[i].turn == 1) first_steps = i + 1;
    e.add(p, t.steps, first_steps, t.end);
  };
  e.truncated = test::for_each_dice_path([&](Dice& d) { t = resolve(chart, s, d); }, visit, max_draws);
  return e;
}

/// What check() refuses `s` with on `chart`, "key: message"; fails the test if it accepts `s`.
inline std::string refusal(const Chart& chart, const Situation& s) { return test::refusal(check(chart, s)); }

using test::with;

/// check() on `chart` refuses each case's situation with exactly its refusal.
inline void check_refused(const Chart& chart, const std::vector<test::Refused<Situation>>& cases) {
  test::check_refused([&](const Situation& s) { return refusal(chart, s); }, cases);
}

}  // namespace salvo::w1943::testing
