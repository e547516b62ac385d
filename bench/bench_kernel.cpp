// The reference workload B1 (examples/bench/b1.toml) through every Monte Carlo kernel, the
// exact engine per situation, and dice extraction. Counters in shots/s (a shot is one To Hit
// DR and, on a hit, its To Kill DR). Fixed seeds throughout.

#include <benchmark/benchmark.h>

#include <boost/random/mersenne_twister.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_reference.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/rng.h"

namespace {

using namespace salvo;
using namespace salvo::sim;

const asl::Situation& b1_situation() {
  static const asl::Situation s =
      load::load_file(std::string(SALVO_SOURCE_DIR) + "/examples/bench/b1.toml").situations.at(0).situation;
  return s;
}

const RollProgram& b1() {
  static const RollProgram p = asl::compile(b1_situation()).program;
  return p;
}

void shots_counter(benchmark::State& state, std::uint64_t shots) {
  state.counters["shots/s"] = benchmark::Counter(static_cast<double>(shots), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(static_cast<std::int64_t>(shots));
}

/// Time `run` (which returns the tallies of one iteration's trials) in shots per second.
template <class Run>
void shots_of(benchmark::State& state, Run&& run) {
  std::uint64_t shots = 0;
  for (auto _ : state) shots += run().run.counter_sum[asl::kCounterShots];
  shots_counter(state, shots);
}

// --- Dice extraction ---------------------------------------------------------------------------

/// Ten symbols (20 dice) per xoshiro256++ output, straight into a buffer.
void BM_SymbolsXoshiro(benchmark::State& state) {
  Xoshiro256pp g(stream_state(1, 0, 0));
  std::uint8_t buf[kSymbolsPerWord * 64];
  for (auto _ : state) {
    for (int w = 0; w < 64; ++w)
      while (!split_word(g.next(), buf + w * kSymbolsPerWord)) {
      }
    benchmark::DoNotOptimize(buf);
  }
  state.SetItemsProcessed(state.iterations() * 64 * kSymbolsPerWord);  // symbols (2d6) per second
}
BENCHMARK(BM_SymbolsXoshiro);

/// Baseline: one ordered pair per mt19937_64 output by Lemire's method (Boost.Random engine).
void BM_PairsMt19937_64(benchmark::State& state) {
  boost::random::mt19937_64 g(1);
  std::uint8_t buf[64];
  for (auto _ : state) {
    for (int i = 0; i < 64; ++i) {
      std::uint64_t r = g();
      buf[i] = static_cast<std::uint8_t>(mul36_high(r));  // bias 2^-58, ignored for a baseline
    }
    benchmark::DoNotOptimize(buf);
  }
  state.SetItemsProcessed(state.iterations() * 64);
}
BENCHMARK(BM_PairsMt19937_64);

// --- Kernels on B1 -----------------------------------------------------------------------------

/// The scalar reference: asl::resolve_phase (the rules functions called directly), one trial
/// at a time, dice from the same lane streams as the engines.
void BM_B1_RulesReference(benchmark::State& state) {
  struct StreamDice : asl::Dice {
    DiceStream d;
    explicit StreamDice(std::uint64_t stream) : d(1, 0, stream) {}
    int pair() override { return d.pair(); }
    int d6() override { return d.d6(); }
  };
  std::uint64_t shots = 0;
  for (auto _ : state) {
    for (std::uint64_t l = 0; l < kLanes; ++l) {
      StreamDice dice(lane_stream(0, l));
      for (std::uint64_t t = 0; t < lane_trials(kBlockTrials / 16, l); ++t) {
        const asl::PhaseTrace tr = asl::resolve_phase(b1_situation(), dice);
        for (const auto& st : tr.steps) shots += st.fired ? 1 : 0;
      }
    }
  }
  shots_counter(state, shots);
}
BENCHMARK(BM_B1_RulesReference)->Unit(benchmark::kMillisecond);

/// The generic scalar walker over the compiled program (the kernel before this one).
void BM_B1_GenericWalker(benchmark::State& state) {
  shots_of(state, [] { return run_blocks_reference(b1(), 1, 0, 0, 4, 4 * kBlockTrials); });
}
BENCHMARK(BM_B1_GenericWalker)->Unit(benchmark::kMillisecond);

/// The fast kernel, serial (includes preparing the program once per 16 blocks).
void BM_B1_FastKernel(benchmark::State& state) {
  shots_of(state, [] { return run_blocks(b1(), 1, 0, 0, 16, 16 * kBlockTrials); });
}
BENCHMARK(BM_B1_FastKernel)->Unit(benchmark::kMillisecond);

/// The whole engine (TBB over blocks) on 1 and 2 threads; wall-clock time.
void BM_B1_MonteCarlo(benchmark::State& state) {
  McOptions o;
  o.seed = 1;
  o.trials = std::uint64_t{1} << 24;
  o.threads = static_cast<int>(state.range(0));
  shots_of(state, [&] {
    Tallies t;
    benchmark::DoNotOptimize(monte_carlo(b1(), o, &t));
    return t;
  });
}
BENCHMARK(BM_B1_MonteCarlo)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// --- Exact engine per situation ----------------------------------------------------------------

void BM_B1_ExactSolve(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(solve_exact(b1()));
  state.SetItemsProcessed(state.iterations());  // situations per second
}
BENCHMARK(BM_B1_ExactSolve);

void BM_B1_CompileAndSolve(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(solve_exact(asl::compile(b1_situation()).program));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_B1_CompileAndSolve);

/// The same without the explanation (`salvo odds` prints none).
void BM_B1_CompileAndSolveNoExplain(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(solve_exact(asl::compile(b1_situation(), {.explain = false}).program));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_B1_CompileAndSolveNoExplain);

void BM_B1_Compile(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(asl::compile(b1_situation()).program.leaves.size());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_B1_Compile);

void BM_B1_CompileNoExplain(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(asl::compile(b1_situation(), {.explain = false}).program.leaves.size());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_B1_CompileNoExplain);

void BM_B1_ProgramHash(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(b1().hash());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_B1_ProgramHash);

/// The per-situation work of `salvo odds` on the 10,000-situation sweep
/// (examples/bench/sweep10k.toml), without loading and writing: compile (range(1): with the
/// explanation), the program hash (provenance, range(2)) and the exact solve, over every
/// range(0)-th situation of the sweep.
void BM_Sweep10k_PerSituation(benchmark::State& state) {
  static const load::LoadedFile file = load::load_file(std::string(SALVO_SOURCE_DIR) + "/examples/bench/sweep10k.toml");
  const auto stride = static_cast<std::size_t>(state.range(0));
  const asl::CompileOptions options{.explain = state.range(1) != 0};
  const bool hash = state.range(2) != 0;
  std::int64_t situations = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < file.situations.size(); i += stride) {
      const RollProgram p = asl::compile(file.situations[i].situation, options).program;
      if (hash) benchmark::DoNotOptimize(p.hash());
      benchmark::DoNotOptimize(solve_exact(p));
      ++situations;
    }
  }
  state.SetItemsProcessed(situations);  // situations per second
}
BENCHMARK(BM_Sweep10k_PerSituation)
    ->ArgNames({"stride", "explain", "hash"})
    ->Args({10, 1, 1})
    ->Args({10, 0, 1})
    ->Args({10, 0, 0})
    ->Unit(benchmark::kMillisecond);

}  // namespace
