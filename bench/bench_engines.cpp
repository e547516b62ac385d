// Engine micro-benchmarks: the generator against a Mersenne Twister baseline, dice extraction,
// and the Monte Carlo kernel on a small hand-built program. Fixed seeds throughout.

#include <benchmark/benchmark.h>

#include <boost/random/mersenne_twister.hpp>
#include <cstdint>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/rng.h"
#include "sim/programs.h"

namespace {

using namespace salvo;
using namespace salvo::sim;

// --- Generators ------------------------------------------------------------------------------

void BM_Xoshiro256pp(benchmark::State& state) {
  Xoshiro256pp g(stream_state(1, 0, 0));
  for (auto _ : state) benchmark::DoNotOptimize(g.next());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Xoshiro256pp);

void BM_BoostMt19937_64(benchmark::State& state) {  // baseline
  boost::random::mt19937_64 g(1);
  for (auto _ : state) benchmark::DoNotOptimize(g());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BoostMt19937_64);

// --- Dice ------------------------------------------------------------------------------------

void BM_DicePair(benchmark::State& state) {
  DiceStream dice(1, 0, 0);
  for (auto _ : state) benchmark::DoNotOptimize(dice.pair());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DicePair);

void BM_DiceD6(benchmark::State& state) {
  DiceStream dice(1, 0, 0);
  for (auto _ : state) benchmark::DoNotOptimize(dice.d6());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DiceD6);

// --- Kernels ---------------------------------------------------------------------------------

/// Two states: A rolls a pair (sum <= 6: hit, to B; 7: end; else stay); B rolls a d6
/// (1: kill, else back to A). E[steps] = 6 per trial (tests/sim/programs.h, the engine tests'
/// program of the same name).
RollProgram pair_chain() { return sim::testing::pair_chain().program; }

void BM_RunBlocks(benchmark::State& state) {
  const RollProgram p = pair_chain();
  const auto blocks = static_cast<std::uint64_t>(state.range(0));
  std::uint64_t steps = 0;
  for (auto _ : state) {
    const Tallies t = run_blocks(p, 1, 0, 0, blocks, blocks * kBlockTrials);
    benchmark::DoNotOptimize(t.trials);
    steps += t.run.counter_sum[0];
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(steps));  // steps per second
}
BENCHMARK(BM_RunBlocks)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_MonteCarlo(benchmark::State& state) {
  const RollProgram p = pair_chain();
  McOptions o;
  o.seed = 1;
  o.trials = 64 * kBlockTrials;
  o.threads = static_cast<int>(state.range(0));
  std::uint64_t steps = 0;
  for (auto _ : state) {
    Tallies t;
    benchmark::DoNotOptimize(monte_carlo(p, o, &t));
    steps += t.run.counter_sum[0];
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(steps));
}
BENCHMARK(BM_MonteCarlo)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_SolveExact(benchmark::State& state) {
  const RollProgram p = pair_chain();
  for (auto _ : state) benchmark::DoNotOptimize(solve_exact(p));
  state.SetItemsProcessed(state.iterations());  // situations per second
}
BENCHMARK(BM_SolveExact);

}  // namespace
