#pragma once
// One Monte Carlo trial of a roll program, walked on any dice source, with everything the
// analysis engines (paired comparison, distributions) tally. Internal to salvo::sim.
//
// The walk consumes the dice exactly as the Monte Carlo engine does (one draw per node, in
// DAG order), so a block run through here sees the same trials as `salvo odds --method mc`.

#include <algorithm>
#include <array>
#include <cstdint>

#include "salvo/rules/program.h"
#include "salvo/sim/montecarlo.h"

namespace salvo::sim::detail {

/// What one window of one trial recorded.
struct TrialWindow {
  FlagMask mask = 0;                                 ///< flags seen
  std::array<std::uint32_t, kMaxCounters> counts{};  ///< counters summed
  std::uint8_t last_outcome = 0;                     ///< outcome of the window's last step
  std::uint8_t max_outcome = 0;                      ///< highest outcome index of the window's steps
};

struct TrialRecord {
  TrialWindow first;
  TrialWindow run;
  std::uint8_t end_reason = 0;
  bool finished = false;  ///< false: cut off by kMaxStepsPerTrial
};

/// Run one trial; Dice has pair() (0..35) and d6() (0..5).
template <class Dice>
TrialRecord run_trial(const RollProgram& program, Dice& dice) {
  TrialRecord r;
  std::int32_t state = program.initial_state;
  bool first_open = true;
  for (std::uint32_t step = 0; step < kMaxStepsPerTrial; ++step) {
    // Walk the state's DAG to a leaf
    std::uint32_t n = program.state_root[static_cast<std::size_t>(state)];
    Link l;
    for (;;) {
      const RollNode& node = program.nodes[n];
      const int face = node.die == DieKind::kPair ? dice.pair() : dice.d6();
      l = program.links[node.first + static_cast<std::uint32_t>(face)];
      if (l.is_leaf()) break;
      n = static_cast<std::uint32_t>(l.v);
    }
    const Leaf& leaf = program.leaves[static_cast<std::size_t>(program.leaf_of(static_cast<std::size_t>(state), l))];

    // Apply the leaf to the run window, and to the first window while it is open
    const auto apply = [&leaf](TrialWindow& w, bool first_step) {
      w.mask |= leaf.flags;
      for (std::size_t c = 0; c < kMaxCounters; ++c) w.counts[c] += leaf.counts[c];
      w.last_outcome = leaf.outcome;
      w.max_outcome = first_step ? leaf.outcome : std::max(w.max_outcome, leaf.outcome);
    };
    apply(r.run, step == 0);
    if (first_open) {
      apply(r.first, step == 0);
      first_open = !(leaf.closes_window || leaf.next_state < 0);
    }
    if (leaf.next_state < 0) {
      r.end_reason = leaf.end_reason;
      r.finished = true;
      return r;
    }
    state = leaf.next_state;
  }
  return r;
}

}  // namespace salvo::sim::detail
