// Fights (docs/fights.md) on the engines: a 1-against-1 fight over 6 game turns compiled and
// solved exactly after parsing, the compile of a 2-against-2 fight, and 2-against-2 fights by
// Monte Carlo in shots/s, to be read beside BM_B1_* (bench_kernel.cpp) in the same run; and the
// machine's random reads, which the plain walk of a large fight waits on.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "salvo/load/asl_loader.h"
#include "salvo/load/toml_util.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"

namespace {

using namespace salvo;

// A fight file of examples/, parsed once, over `turns` game turns.
asl::Fight fight_of(const std::string& file, int turns) {
  const std::string path = std::string(SALVO_SOURCE_DIR) + "/examples/" + file;
  auto loaded = load::load_any_string(load::read_text_file(path), path);
  asl::Fight f = std::get<load::LoadedFight>(loaded).fights.at(0).situation;
  f.turns = turns;
  return f;
}

const asl::Fight& one_against_one() {  // Sherman 75 against a Panther, 6 game turns
  static const asl::Fight f = fight_of("fights/sherman-vs-panther.toml", 6);
  return f;
}

void BM_Fight1v1_6Turns_CompileAndSolve(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(sim::solve_exact(asl::compile(one_against_one())));
  state.SetItemsProcessed(state.iterations());  // fights per second
}
BENCHMARK(BM_Fight1v1_6Turns_CompileAndSolve)->Unit(benchmark::kMicrosecond);

void BM_Fight1v1_6Turns_Compile(benchmark::State& state) {
  std::size_t states = 0, leaves = 0, entries = 0, nodes = 0;
  for (auto _ : state) {
    const RollProgram p = asl::compile(one_against_one());
    states = p.num_states();
    leaves = p.leaves.size();
    entries = p.state_leaves.size();
    nodes = p.nodes.size();
  }
  state.counters["states"] = static_cast<double>(states);
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["table_entries"] = static_cast<double>(entries);
  state.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(BM_Fight1v1_6Turns_Compile)->Unit(benchmark::kMicrosecond);

void BM_Fight1v1_6Turns_Solve(benchmark::State& state) {
  const RollProgram p = asl::compile(one_against_one());
  for (auto _ : state) benchmark::DoNotOptimize(sim::solve_exact(p));
}
BENCHMARK(BM_Fight1v1_6Turns_Solve)->Unit(benchmark::kMicrosecond);

/// The compile of examples/bench/fight-2v2.toml over Arg game turns, in states per second.
void BM_Fight2v2_Compile(benchmark::State& state) {
  const asl::Fight f = fight_of("bench/fight-2v2.toml", static_cast<int>(state.range(0)));
  std::size_t states = 0;
  for (auto _ : state) states += asl::compile(f).num_states();
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Fight2v2_Compile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);

/// A million trials of `p` by Monte Carlo on `threads` threads, timed by `state`, in shots/s (a
/// shot is a To Hit DR and what follows it, as in BM_B1_*).
void monte_carlo_shots(benchmark::State& state, const RollProgram& p, int threads) {
  sim::McOptions o;
  o.seed = 1;
  o.trials = std::uint64_t{1} << 20;
  o.threads = threads;
  std::uint64_t shots = 0;
  for (auto _ : state) {
    sim::Tallies t;
    benchmark::DoNotOptimize(sim::monte_carlo(p, o, &t));
    shots += t.run.counter_sum[asl::fight::kShots];
  }
  state.counters["shots/s"] = benchmark::Counter(static_cast<double>(shots), benchmark::Counter::kIsRate);
  state.counters["states"] = static_cast<double>(p.num_states());
  state.counters["nodes"] = static_cast<double>(p.nodes.size());
  state.counters["leaves"] = static_cast<double>(p.leaves.size());
  state.counters["entries"] = static_cast<double>(p.state_leaves.size());
  state.SetItemsProcessed(static_cast<std::int64_t>(shots));
}

/// Monte Carlo on examples/bench/fight-2v2.toml over Arg(0) game turns (1: 41,513 states; 3:
/// 2,422,020, beyond the exact limit) on Arg(1) threads, wall-clock time.
void BM_Fight2v2_MonteCarlo(benchmark::State& state) {
  static const RollProgram one = asl::compile(fight_of("bench/fight-2v2.toml", 1));
  static const RollProgram three = asl::compile(fight_of("bench/fight-2v2.toml", 3));
  monte_carlo_shots(state, state.range(0) == 1 ? one : three, static_cast<int>(state.range(1)));
}
BENCHMARK(BM_Fight2v2_MonteCarlo)
    ->Args({1, 1})
    ->Args({1, 2})
    ->Args({3, 1})
    ->Args({3, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

/// Monte Carlo on examples/fights/platoon-2v2.toml (2 game turns, 2,189,944 states: about 10 s
/// to compile, once) on one thread, wall-clock time.
void BM_FightPlatoon_MonteCarlo(benchmark::State& state) {
  static const RollProgram p = asl::compile(fight_of("fights/platoon-2v2.toml", 2));
  monte_carlo_shots(state, p, 1);
}
BENCHMARK(BM_FightPlatoon_MonteCarlo)->UseRealTime()->Unit(benchmark::kMillisecond);

/// The preparation for Monte Carlo of examples/bench/fight-2v2.toml over Arg game turns (once per
/// Monte Carlo run, before its trials), in leaves per second.
void BM_Fight2v2_Prepare(benchmark::State& state) {
  const RollProgram p = asl::compile(fight_of("bench/fight-2v2.toml", static_cast<int>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(sim::PreparedProgram(p));
  state.counters["leaves/s"] =
      benchmark::Counter(static_cast<double>(p.leaves.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Fight2v2_Prepare)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond);

/// The machine's memory, as the plain walk of a large fight meets it (docs/performance.md): reads
/// at random in a 256 MB table, each read's address the value of the one before, Arg such chains
/// in turn (1: the latency of one read; more: as many in flight). Time per read.
void BM_RandomReads(benchmark::State& state) {
  static const std::vector<std::uint32_t> next = [] {
    std::vector<std::uint32_t> t(std::size_t{1} << 26);  // 256 MB of 4-byte links
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<std::uint32_t>(i);
    std::mt19937_64 gen(1);
    for (std::size_t i = t.size() - 1; i > 0; --i)  // Sattolo: one cycle through every entry
      std::swap(t[i], t[std::uniform_int_distribution<std::size_t>(0, i - 1)(gen)]);
    return t;
  }();
  const auto chains = static_cast<std::size_t>(state.range(0));
  std::vector<std::uint32_t> at(chains);
  for (std::size_t c = 0; c < chains; ++c) at[c] = static_cast<std::uint32_t>(c * (next.size() / chains));
  constexpr std::size_t kReads = std::size_t{1} << 20;
  for (auto _ : state) {
    for (std::size_t r = 0; r < kReads / chains; ++r)
      for (std::size_t c = 0; c < chains; ++c) at[c] = next[at[c]];
    benchmark::DoNotOptimize(at.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * (kReads / chains * chains)));
}
BENCHMARK(BM_RandomReads)->Arg(1)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace
