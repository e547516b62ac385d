#pragma once
// Helpers for the 1943 tests: plain situations, a chart with every box set to one result, and
// an enumeration of every dice sequence through the reference interpreter.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "salvo/rules/w1943.h"
#include "salvo/rules/w1943_reference.h"
#include "support/dice_paths.h"

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

struct Enumerated {
  std::vector<double> first_flags, run_flags, first_counts, run_counts, first_outcomes, run_outcomes, ends;
  double truncated = 0;  ///< probability of the paths cut at max_steps
  std::size_t paths = 0;
};

/// Every dice sequence of the interpreter, each with its probability. Paths longer than
/// `max_draws` draws are cut and their probability summed in `truncated`.
inline Enumerated enumerate(const Chart& chart, const Situation& s, const RollProgram& names,
                            std::size_t max_draws = 64) {
  Enumerated e;
  const std::size_t nf = names.flag_names.size(), nc = names.counter_names.size(),
                    no = names.outcome_names.size(), ne = names.end_reason_names.size();
  e.first_flags.assign(nf, 0);
  e.run_flags.assign(nf, 0);
  e.first_counts.assign(nc, 0);
  e.run_counts.assign(nc, 0);
  e.first_outcomes.assign(no, 0);
  e.run_outcomes.assign(no, 0);
  e.ends.assign(ne, 0);
  const bool several = s.fire.turns > 1;
  Trace t;
  const auto visit = [&](double p) {
    FlagMask first = 0, run = 0;
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
      const StepRecord& st = t.steps[i];
      const bool in_first = several ? st.turn == 1 : i == 0;
      run |= st.flags;
      for (std::size_t c = 0; c < nc; ++c) e.run_counts[c] += p * st.counts[c];
      if (in_first) {
        first |= st.flags;
        for (std::size_t c = 0; c < nc; ++c) e.first_counts[c] += p * st.counts[c];
      }
    }
    // The first window's outcome: its last step's.
    std::size_t last_first = 0;
    for (std::size_t i = 0; i < t.steps.size(); ++i)
      if (several ? t.steps[i].turn == 1 : i == 0) last_first = i;
    e.first_outcomes[static_cast<std::size_t>(t.steps[last_first].outcome)] += p;
    e.run_outcomes[static_cast<std::size_t>(t.steps.back().outcome)] += p;
    e.ends[static_cast<std::size_t>(t.end)] += p;
    for (std::size_t f = 0; f < nf; ++f) {
      if (first & (FlagMask{1} << f)) e.first_flags[f] += p;
      if (run & (FlagMask{1} << f)) e.run_flags[f] += p;
    }
    ++e.paths;
  };
  e.truncated = test::for_each_dice_path([&](Dice& d) { t = resolve(chart, s, d); }, visit, max_draws);
  return e;
}

}  // namespace salvo::w1943::testing
