#pragma once
// Monte Carlo against exact: every check is judged in standard errors of the *exact* value (a
// proportion's sqrt(p (1 - p) / n), a mean's sqrt(Var / n) with the variance from the exact
// distribution), never from the Monte Carlo run's own interval, at one threshold corrected for
// the number of checks (Bonferroni, normal approximation): a correct engine fails a whole test
// with probability at most `alpha`.

#include <catch2/catch.hpp>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/distribution.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/result.h"

namespace salvo::test {

/// z such that a two-sided normal deviation beyond z has probability alpha / checks.
inline double bonferroni_z(std::size_t checks, double alpha) {
  const double per_check = alpha / static_cast<double>(std::max<std::size_t>(checks, 1));
  return boost::math::quantile(boost::math::complement(boost::math::normal(), per_check / 2.0));
}

/// Exact mean and variance of a counter summed over a window of one trial (from its exact
/// distribution; the tail beyond the cap must be empty).
struct Moments {
  double mean = 0.0, variance = 0.0;
};
inline Moments exact_counter_moments(const RollProgram& program, sim::Window window, int counter) {
  for (int cap : {64, 256}) {
    const sim::Distribution d = sim::exact_counter_distribution(program, window, counter, cap);
    // Mass at the cap means the counter can go higher; a tail below 1e-13 moves the mean and the
    // variance by far less than any standard error judged here (ROF chains are unbounded).
    if (d.p.back().value > 1e-13) continue;
    Moments m;
    double second = 0.0;
    for (std::size_t k = 0; k < d.p.size(); ++k) {
      m.mean += static_cast<double>(k) * d.p[k].value;
      second += static_cast<double>(k * k) * d.p[k].value;
    }
    m.variance = std::max(0.0, second - m.mean * m.mean);
    return m;
  }
  throw std::runtime_error("exact_counter_moments: the counter reaches 256");
}

/// A fixed-size Monte Carlo run: `trials` trials at `seed`, situation key `key`.
inline sim::McOptions mc_options(std::uint64_t seed, std::uint64_t key, std::uint64_t trials) {
  sim::McOptions o;
  o.seed = seed;
  o.situation_key = key;
  o.trials = trials;
  return o;
}

/// The tallies of a Monte Carlo run with `options` on `threads` threads (they must never depend
/// on it).
inline sim::Tallies tallies_on(const RollProgram& program, sim::McOptions options, int threads) {
  options.threads = threads;
  sim::Tallies t;
  sim::monte_carlo(program, options, &t);
  return t;
}

class McAgreement {
 public:
  /// alpha: the chance that a correct engine fails the set (fixed seeds make each run
  /// deterministic; alpha is what a change of seed risks).
  explicit McAgreement(double alpha = 1e-5) : alpha_(alpha) {}

  /// A probability: exact p, the Monte Carlo estimate over n trials. p = 0 or 1: must be equal.
  void proportion(double exact, double mc, std::uint64_t n, std::string what) {
    const double p = std::clamp(exact, 0.0, 1.0);
    add(exact, mc, std::sqrt(p * (1.0 - p) / static_cast<double>(n)), std::move(what));
  }
  void proportions(const std::vector<sim::Estimate>& exact, const std::vector<sim::Estimate>& mc, std::uint64_t n,
                   const std::string& what) {
    REQUIRE(exact.size() == mc.size());
    for (std::size_t i = 0; i < exact.size(); ++i)
      proportion(exact[i].value, mc[i].value, n, what + " #" + std::to_string(i));
  }
  /// A mean of n trials, with the exact mean and the exact variance of one trial's value.
  void mean(double exact, double variance, double mc, std::uint64_t n, std::string what) {
    add(exact, mc, std::sqrt(variance / static_cast<double>(n)), std::move(what));
  }
  /// Every counter of both windows of a run, against the exact program.
  void counters(const RollProgram& program, const sim::RunResult& exact, const sim::RunResult& mc, std::uint64_t n,
                const std::string& what) {
    for (const auto& [window, e, m] :
         {std::tuple{sim::Window::kFirst, &exact.first, &mc.first}, std::tuple{sim::Window::kRun, &exact.run, &mc.run}})
      for (std::size_t c = 0; c < e->counters.size(); ++c) {
        const Moments mo = exact_counter_moments(program, window, static_cast<int>(c));
        const std::string name = what + (window == sim::Window::kFirst ? " first " : " run ") +
                                 (c < program.counter_names.size() ? program.counter_names[c] : std::to_string(c));
        REQUIRE(mo.mean == Approx(e->counters[c].value).margin(1e-9));  // the two exact paths agree
        mean(e->counters[c].value, mo.variance, m->counters[c].value, n, name);
      }
  }
  /// Every quantity of a run (flags, outcomes, end reasons, counters) of both windows.
  void run(const RollProgram& program, const sim::RunResult& exact, const sim::RunResult& mc, std::uint64_t n,
           const std::string& what) {
    proportions(exact.first.flags, mc.first.flags, n, what + " first flag");
    proportions(exact.run.flags, mc.run.flags, n, what + " run flag");
    proportions(exact.first.outcomes, mc.first.outcomes, n, what + " first outcome");
    proportions(exact.run.outcomes, mc.run.outcomes, n, what + " run outcome");
    proportions(exact.run.end_reasons, mc.run.end_reasons, n, what + " end reason");
    counters(program, exact, mc, n, what);
  }

  /// Solve `program` exactly and run it by Monte Carlo with `options` (a fixed number of trials;
  /// the tallies into `tallies` if given), and add every quantity of both windows as `what`.
  void both_engines(const RollProgram& program, const sim::McOptions& options, const std::string& what,
                    sim::Tallies* tallies = nullptr) {
    const sim::RunResult exact = sim::solve_exact(program);
    const sim::RunResult mc = sim::monte_carlo(program, options, tallies);
    REQUIRE(mc.trials == options.trials);
    run(program, exact, mc, options.trials, what);
  }

  std::size_t size() const { return checks_.size(); }
  double z() const { return bonferroni_z(checks_.size(), alpha_); }

  /// Judge every check collected at z() standard errors (zero standard error: equal within
  /// 1e-12). Each failure is a failed CHECK naming the quantity.
  void judge() const {
    const double z = this->z();
    for (const Check& c : checks_) {
      INFO(c.what << ": exact " << c.exact << ", Monte Carlo " << c.mc << ", se " << c.se << ", threshold " << z
                  << " se over " << checks_.size() << " checks");
      if (c.se < 1e-12)
        CHECK(std::abs(c.mc - c.exact) < 1e-12);
      else
        CHECK(std::abs(c.mc - c.exact) <= z * c.se);
    }
  }

 private:
  struct Check {
    double exact, mc, se;
    std::string what;
  };
  void add(double exact, double mc, double se, std::string what) {
    checks_.push_back({exact, mc, se, std::move(what)});
  }
  double alpha_;
  std::vector<Check> checks_;
};

}  // namespace salvo::test
