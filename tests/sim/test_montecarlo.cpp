// Tier 2/3: the Monte Carlo engine against the exact answers of hand-built programs (fixed
// seeds, standard errors of the exact values, one threshold corrected for the number of checks),
// and its reproducibility across threads, splits and stops.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/stats.h"
#include "sim/programs.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::sim;
using salvo::sim::testing::KnownProgram;
using salvo::sim::testing::WindowAnswer;

namespace {

void add_into(std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
}

Tallies sum(Tallies a, const Tallies& b) {
  a.trials += b.trials;
  a.truncated += b.truncated;
  for (auto [x, y] : {std::pair{&a.first, &b.first}, std::pair{&a.run, &b.run}}) {
    add_into(x->flags, y->flags);
    add_into(x->counter_sum, y->counter_sum);
    add_into(x->counter_sumsq, y->counter_sumsq);
    add_into(x->outcomes, y->outcomes);
    add_into(x->end_reasons, y->end_reasons);
  }
  return a;
}

/// Every quantity of a window against its closed form: proportions in standard errors of the
/// closed-form p, counter means in standard errors from the exact variance of the counter.
void add_window(test::McAgreement& agree, const KnownProgram& k, Window window, const WindowStats& got,
                const WindowAnswer& want, std::uint64_t n, const std::string& what) {
  const auto proportions = [&](const std::vector<Estimate>& mc, const std::vector<double>& exact, const char* kind) {
    REQUIRE(mc.size() == exact.size());
    for (std::size_t i = 0; i < exact.size(); ++i)
      agree.proportion(exact[i], mc[i].value, n, what + " " + kind + " #" + std::to_string(i));
  };
  proportions(got.flags, want.flags, "flag");
  proportions(got.outcomes, want.outcomes, "outcome");
  proportions(got.end_reasons, want.end_reasons, "end reason");
  REQUIRE(got.counters.size() == want.counters.size());
  for (std::size_t c = 0; c < want.counters.size(); ++c) {
    const test::Moments m = test::exact_counter_moments(k.program, window, static_cast<int>(c));
    agree.mean(want.counters[c], m.variance, got.counters[c].value, n, what + " counter #" + std::to_string(c));
  }
}

}  // namespace

TEST_CASE("montecarlo: agrees with the closed forms in standard errors of the exact values",
          "[montecarlo][statistical]") {
  // Every quantity of every known program, judged together at one Bonferroni-corrected threshold
  // (McAgreement): a correct engine fails the set with probability at most 1e-5.
  test::McAgreement agree;
  std::uint64_t situation = 0;
  for (const KnownProgram& k : testing::known_programs()) {
    ++situation;
    McOptions o;
    o.seed = 20240601;
    o.situation_key = situation;
    o.trials = std::uint64_t{1} << 20;
    Tallies t;
    const RunResult r = monte_carlo(k.program, o, &t);
    REQUIRE(r.method == Method::kMonteCarlo);
    REQUIRE(r.trials == o.trials);
    REQUIRE(t.trials == o.trials);
    REQUIRE(t.truncated == 0);
    REQUIRE_FALSE(r.interrupted);
    CHECK(r.first.end_reasons.empty());
    CHECK(t.first.end_reasons.empty());
    add_window(agree, k, Window::kFirst, r.first, k.first, t.trials, k.name + " first");
    add_window(agree, k, Window::kRun, r.run, k.run, t.trials, k.name + " run");
    // The exact engine agrees with the same closed forms (see test_exact), so MC ~ exact.
    const RunResult e = solve_exact(k.program);
    agree.proportion(e.run.outcomes[0].value, r.run.outcomes[0].value, t.trials, k.name + " run outcome #0 vs exact");
  }
  agree.judge();
}

TEST_CASE("montecarlo: agrees with the exact engine on pseudo-random programs", "[montecarlo][statistical]") {
  test::McAgreement agree;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const RollProgram p = testing::random_program(seed, 6);
    REQUIRE_NOTHROW(p.validate());
    Tallies t;
    agree.both_engines(p, test::mc_options(5, seed, std::uint64_t{1} << 20), "program seed " + std::to_string(seed),
                       &t);
    REQUIRE(t.truncated == 0);
  }
  agree.judge();
}

TEST_CASE("montecarlo: tallies do not depend on threads, splits or block order", "[montecarlo]") {
  const KnownProgram k = testing::pair_chain();
  const std::uint64_t trials = 10 * kBlockTrials + 123;  // the last block is partial
  const std::uint64_t blocks = 11;
  McOptions o;
  o.seed = 99;
  o.situation_key = 4;
  o.trials = trials;

  Tallies t1, t2, t0;
  o.threads = 1;
  monte_carlo(k.program, o, &t1);
  o.threads = 2;
  monte_carlo(k.program, o, &t2);
  o.threads = 0;
  monte_carlo(k.program, o, &t0);
  CHECK(t1.trials == trials);
  CHECK(t1 == t2);
  CHECK(t1 == t0);

  const Tallies serial = run_blocks(k.program, o.seed, o.situation_key, 0, blocks, trials);
  CHECK(serial == t1);
  const Tallies split = sum(run_blocks(k.program, o.seed, o.situation_key, 0, 4, trials),
                            run_blocks(k.program, o.seed, o.situation_key, 4, blocks, trials));
  CHECK(split == serial);
  Tallies reverse = run_blocks(k.program, o.seed, o.situation_key, blocks - 1, blocks, trials);
  CHECK(reverse.trials == 123);
  for (std::uint64_t b = blocks - 1; b-- > 0;)
    reverse = sum(reverse, run_blocks(k.program, o.seed, o.situation_key, b, b + 1, trials));
  CHECK(reverse == serial);

  // Blocks past the trial count are empty; another seed or situation gives other tallies
  CHECK(run_blocks(k.program, o.seed, o.situation_key, blocks, blocks + 3, trials).trials == 0);
  CHECK_FALSE(run_blocks(k.program, o.seed + 1, o.situation_key, 0, 1, trials) ==
              run_blocks(k.program, o.seed, o.situation_key, 0, 1, trials));
  CHECK_FALSE(run_blocks(k.program, o.seed, o.situation_key + 1, 0, 1, trials) ==
              run_blocks(k.program, o.seed, o.situation_key, 0, 1, trials));
}

TEST_CASE("montecarlo: tally vectors are sized by the program's names", "[montecarlo]") {
  const KnownProgram k = testing::aim_and_fire();
  const Tallies t = run_blocks(k.program, 1, 0, 0, 1, 1000);
  CHECK(t.trials == 1000);
  for (const WindowTallies* w : {&t.first, &t.run}) {
    CHECK(w->flags.size() == 2);
    CHECK(w->counter_sum.size() == 2);
    CHECK(w->counter_sumsq.size() == 2);
    CHECK(w->outcomes.size() == 4);
  }
  CHECK(t.first.end_reasons.empty());
  CHECK(t.run.end_reasons.size() == 2);
  // Every trial ends with exactly one outcome and one end reason
  CHECK(t.run.outcomes[0] + t.run.outcomes[1] + t.run.outcomes[2] + t.run.outcomes[3] == 1000);
  CHECK(t.run.end_reasons[0] + t.run.end_reasons[1] == 1000);
  CHECK(t.first.outcomes[1] == 1000);  // the first window always ends with the shot
  CHECK(t.first.flags[0] == 1000);
  CHECK(t.first.flags[1] == 0);
  CHECK(t.first.counter_sum[1] == 1000);
  CHECK(t.first.counter_sumsq[1] == 1000);
}

TEST_CASE("montecarlo: a trial past the step limit counts only as truncated", "[montecarlo]") {
  const RollProgram p = testing::trap_program(true);  // 4-6 on the first roll: stuck for ever
  const Tallies t = run_blocks(p, 5, 0, 0, 1, 8);
  CHECK(t.trials == 8);
  CHECK(t.truncated > 0);
  CHECK(t.run.outcomes[0] == t.trials - t.truncated);
  CHECK(t.run.end_reasons[0] == t.trials - t.truncated);
  CHECK(t.first.outcomes[0] == t.trials - t.truncated);
  // Finished trials took 1 step each
  CHECK(t.run.counter_sum[0] == t.trials - t.truncated);
}

TEST_CASE("montecarlo: precision mode stops when every half-width is small enough", "[montecarlo]") {
  const KnownProgram k = testing::d6_loop();
  McOptions o;
  o.seed = 7;
  o.precision = 0.0012;  // E[steps]: sd 0.866 needs 2.0 * 10^6 trials: two rounds (1 + 2) x 2^20
  std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
  o.progress = [&](std::uint64_t done, std::uint64_t planned) { progress.emplace_back(done, planned); };
  Tallies t;
  const RunResult r = monte_carlo(k.program, o, &t);
  CHECK_FALSE(r.interrupted);
  CHECK(r.trials == 3 * (std::uint64_t{1} << 20));
  for (const WindowStats* w : {&r.first, &r.run})
    for (const auto* v : {&w->flags, &w->counters, &w->outcomes, &w->end_reasons})
      for (const Estimate& e : *v) CHECK(half_width(e) <= o.precision);
  // ... and not after the first round
  const RunResult r1 = estimates_from(k.program, run_blocks(k.program, 7, 0, 0, 16, std::uint64_t{1} << 20));
  CHECK(half_width(r1.run.counters[0]) > o.precision);
  // The tallies equal a fixed run of the same size
  McOptions fixed;
  fixed.seed = 7;
  fixed.trials = r.trials;
  Tallies tf;
  monte_carlo(k.program, fixed, &tf);
  CHECK(tf == t);
  REQUIRE_FALSE(progress.empty());
  CHECK(progress.back().first == r.trials);
  for (auto [done, planned] : progress) CHECK(done <= planned);

  SECTION("max_trials caps the run") {
    McOptions capped;
    capped.seed = 7;
    capped.precision = 1e-6;
    capped.max_trials = (std::uint64_t{1} << 20) + 5;
    Tallies tc;
    const RunResult rc = monte_carlo(k.program, capped, &tc);
    CHECK_FALSE(rc.interrupted);
    CHECK(rc.trials == capped.max_trials);
    fixed.trials = capped.max_trials;
    monte_carlo(k.program, fixed, &tf);
    CHECK(tf == tc);
  }
}

TEST_CASE("montecarlo: the stop flag keeps a reproducible prefix of blocks", "[montecarlo]") {
  const KnownProgram k = testing::pair_chain();
  McOptions o;
  o.seed = 11;
  o.trials = 200 * kBlockTrials;
  std::atomic<bool> stop{false};
  o.stop = &stop;

  SECTION("set before the start: nothing runs") {
    stop = true;
    Tallies t;
    const RunResult r = monte_carlo(k.program, o, &t);
    CHECK(r.interrupted);
    CHECK(r.trials == 0);
    CHECK(t.trials == 0);
    CHECK(r.run.flags[0].value == 0.0);
    CHECK(r.run.flags[0].hi == 1.0);
  }
  SECTION("set from the progress callback") {
    o.threads = 1;
    o.progress = [&](std::uint64_t, std::uint64_t) { stop = true; };
    Tallies t;
    const RunResult r = monte_carlo(k.program, o, &t);
    CHECK(r.interrupted);
    CHECK(r.trials > 0);
    CHECK(r.trials < o.trials);
    CHECK(r.trials % kBlockTrials == 0);
    CHECK(t == run_blocks(k.program, o.seed, 0, 0, r.trials / kBlockTrials, o.trials));
  }
  SECTION("set by another thread during the run") {
    o.threads = 2;
    std::thread setter([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      stop = true;
    });
    Tallies t;
    const RunResult r = monte_carlo(k.program, o, &t);
    setter.join();
    CHECK(r.trials == t.trials);
    if (r.interrupted) {
      CHECK(r.trials % kBlockTrials == 0);
    } else {
      CHECK(r.trials == o.trials);
    }
    CHECK(t == run_blocks(k.program, o.seed, 0, 0, r.trials / kBlockTrials, o.trials));
  }
}

TEST_CASE("montecarlo: estimates from no trials are uninformative (the whole range), never NaN", "[montecarlo]") {
  const KnownProgram k = testing::aim_and_fire();
  const RunResult r = estimates_from(k.program, run_blocks(k.program, 1, 0, 0, 0, 0));
  CHECK(r.method == Method::kMonteCarlo);
  CHECK(r.trials == 0);
  for (const WindowStats* w : {&r.first, &r.run}) {
    for (const auto* v : {&w->flags, &w->outcomes, &w->end_reasons})
      for (const Estimate& e : *v) {
        CHECK(e.value == 0.0);
        CHECK(e.lo == 0.0);
        CHECK(e.hi == 1.0);
      }
    // A counter's whole range: [0, infinity), no interval (the tables print none)
    for (const Estimate& e : w->counters)
      CHECK((e.value == 0.0 && e.lo == 0.0 && e.hi == std::numeric_limits<double>::infinity() && !has_interval(e)));
  }
  CHECK(r.run.outcomes.size() == 4);
  CHECK(r.first.end_reasons.empty());
}
