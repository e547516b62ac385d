// Tier 1 (exact): the fast Monte Carlo kernel and the walk kernel equal the plain generic walker tally for tally,
// on the same streams, for every kind of program the engines accept.

#include <catch2/catch.hpp>

#include "salvo/sim/montecarlo.h"
#include "sim/programs.h"

using namespace salvo;
using namespace salvo::sim;

namespace {

// Both kernels (the fast one and the walk kernel) against the reference.
void check_same(const RollProgram& p, std::uint64_t seed, std::uint64_t key, std::uint64_t b0, std::uint64_t b1,
                std::uint64_t trials) {
  const Tallies ref = run_blocks_reference(p, seed, key, b0, b1, trials);
  for (const auto kernel : {&run_blocks, &run_blocks_walk}) {
    INFO((kernel == &run_blocks ? "fast kernel" : "walk kernel"));
    const Tallies fast = kernel(p, seed, key, b0, b1, trials);
    CHECK(fast.trials == ref.trials);
    CHECK(fast.truncated == ref.truncated);
    CHECK(fast.first == ref.first);
    CHECK(fast.run == ref.run);
  }
}

}  // namespace

TEST_CASE("kernel: fast == reference on the hand-built programs", "[kernel]") {
  std::uint64_t key = 0;
  for (const auto& k : testing::known_programs()) {
    INFO(k.name);
    ++key;
    check_same(k.program, 3, key, 0, 2, 2 * kBlockTrials);
    check_same(k.program, 4, key, 1, 2, kBlockTrials + 777);  // a partial block
    check_same(k.program, 5, key, 0, 1, 5);                   // fewer trials than lanes
  }
}

TEST_CASE("kernel: fast == reference on pseudo-random programs (deep DAGs, long runs)", "[kernel]") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const RollProgram p = testing::random_program(seed, 6);
    INFO("program seed " << seed);
    check_same(p, 11, seed, 0, 1, kBlockTrials);
  }
}

TEST_CASE("kernel: fast == reference with a state of more leaves than a row holds", "[kernel]") {
  const RollProgram p = testing::wide_program();
  REQUIRE(p.leaves.size() > 1296);  // the wide state's 1296, and the narrow state's two
  check_same(p, 9, 1, 0, 2, kBlockTrials + 333);
}

TEST_CASE("kernel: fast == reference on long runs of heavy steps, with and without leaf tables", "[kernel]") {
  const RollProgram p = testing::heavy_program();
  REQUIRE(p.state_leaf_begin[0] == p.state_leaf_begin[1]);  // "a" reaches its leaves directly
  REQUIRE(p.state_leaf_begin[1] != p.state_leaf_begin[2]);  // "b" through its table
  check_same(p, 13, 1, 0, 2, 2 * kBlockTrials);
}

TEST_CASE("kernel: fast == reference on many states sharing DAGs through leaf tables", "[kernel]") {
  // The fast kernel's cells per DAG (columns by leaf link) beside cells of a state's own, and
  // more summaries than it keeps: many trials end on its plain walk.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const RollProgram p = testing::shared_dags_program(seed, 3000);
    INFO("program seed " << seed);
    check_same(p, 17, seed, 0, 2, 2 * kBlockTrials - 5);
    // Prepared for a shorter run, the kernel keeps fewer summaries: the same tallies
    const Tallies ref = run_blocks_reference(p, 17, seed, 0, 2, 2 * kBlockTrials - 5);
    for (const std::uint64_t trials : {std::uint64_t{10'000}, std::uint64_t{300'000}})
      CHECK(PreparedProgram(p, trials).run(17, seed, 0, 2, 2 * kBlockTrials - 5) == ref);
  }
}

TEST_CASE("kernel: fast == reference where states of one DAG have leaf tables of different lengths", "[kernel]") {
  const RollProgram p = testing::unequal_tables_program();
  p.validate();
  check_same(p, 19, 1, 0, 2, 2 * kBlockTrials);
}

TEST_CASE("kernel: fast == reference at the step limit (truncated trials)", "[kernel]") {
  const RollProgram p = testing::trap_program(true);
  const Tallies fast = run_blocks(p, 5, 0, 0, 1, 40);
  const Tallies ref = run_blocks_reference(p, 5, 0, 0, 1, 40);
  CHECK(fast.truncated > 0);
  CHECK(fast == ref);
  CHECK(run_blocks_walk(p, 5, 0, 0, 1, 40) == ref);
}

TEST_CASE("kernel: a prepared program runs the kernel its size picks, with the reference's tallies", "[kernel]") {
  const RollProgram fast = testing::random_program(3, 6);
  const RollProgram walk = testing::long_chain(static_cast<int>(kFastKernelMaxStates) + 100, false);
  const RollProgram reference = testing::long_chain(static_cast<int>(kFastKernelMaxStates) + 100, true);
  REQUIRE(fast.num_states() <= kFastKernelMaxStates);
  REQUIRE((walk.num_states() > kFastKernelMaxStates && walk.nodes.size() <= kWalkMaxNodes));
  REQUIRE((reference.num_states() > kFastKernelMaxStates && reference.nodes.size() > kWalkMaxNodes));
  for (const RollProgram* p : {&fast, &walk, &reference}) {
    const PreparedProgram prepared(*p);
    const std::uint64_t trials = 2 * kBlockTrials + 99;  // blocks 1 and 2 of 3, the last partial
    const Tallies ref = run_blocks_reference(*p, 7, 2, 1, 3, trials);
    CHECK(ref.trials == kBlockTrials + 99);
    CHECK(prepared.run(7, 2, 1, 3, trials) == ref);
    Tallies split = prepared.run(7, 2, 1, 2, trials);
    add_tallies(split, prepared.run(7, 2, 2, 3, trials));
    CHECK(split == ref);
  }
}

TEST_CASE("kernel: lanes split a block's trials evenly", "[kernel]") {
  std::uint64_t sum = 0;
  for (std::uint64_t l = 0; l < kLanes; ++l) sum += lane_trials(kBlockTrials + 5, l);
  CHECK(sum == kBlockTrials + 5);
  CHECK(lane_trials(5, 4) == 1);
  CHECK(lane_trials(5, 5) == 0);
  CHECK(lane_stream(2, 3) == 2 * kLanes + 3);
}
