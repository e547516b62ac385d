#pragma once
/// app/src/runner.h — the one batch runner: every command that computes odds (odds, compare,
/// sensitivity, chart, the HTML page) runs situations through it. It owns batching, exact and
/// Monte Carlo dispatch, precision targets, interruption (io.h's one stop handler), progress
/// (progress.h's one bar) and provenance (assembled here, once).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "salvo/app/source.h"
#include "salvo/report/report.h"

namespace salvo::app {
class Team;
}

namespace salvo::app {

/// How to run: engines, trials, precision target, seed, threads.
struct RunSettings {
  report::MethodChoice method = report::MethodChoice::kExact;
  std::uint64_t trials = 1'000'000;  ///< exact count; with a precision, the cap
  std::optional<double> precision;   ///< Monte Carlo: run until every 95% half-width is below
  std::uint64_t seed = 1;
  int threads = 1;  ///< threads used (resolved: never 0)
  /// The ranks the run is spread over (team.h); null or one rank: this process alone.
  Team* team = nullptr;
  /// The sink uses each Job (the HTML page's explain trail): spread over a team, rank 0 then
  /// compiles every situation of an exact sweep, not only its share.
  bool jobs_needed = false;
  std::size_t max_exact_states = kMaxExactStates;  ///< larger programs: Monte Carlo (kAuto) or refused

  /// Engines the run may use (kAuto: either, situation by situation).
  bool exact() const { return method != report::MethodChoice::kMonteCarlo; }
  bool mc() const { return method != report::MethodChoice::kExact; }
};

/// The first situation that missed the precision target, and how many did.
struct PrecisionMiss {
  std::size_t count = 0;
  std::string file, name, quantity;  ///< the first of them, and its widest quantity
  std::uint64_t trials = 0;
  double half_width = 0.0;
};

struct RunStatus {
  std::size_t complete = 0;  ///< situations fully run and handed over (a prefix)
  bool interrupted = false;  ///< stopped (a stop signal) before the last situation finished
  bool stopped = false;      ///< a stop signal reached the run (on any rank of a team)
  std::optional<PrecisionMiss> miss;
  std::size_t exact_runs = 0, mc_runs = 0;  ///< situations run by each engine
};

/// Each finished situation, in order.
using Sink = std::function<void(Job&& job, report::SituationReport&& report)>;

/// Compile and run every situation of `source`, a batch at a time (the batch's exact solves in
/// parallel, then its Monte Carlo runs one situation at a time over every thread). With Monte
/// Carlo, every situation is compiled once first, so a rules conflict anywhere costs no trials.
/// A program of more than settings.max_exact_states states runs by Monte Carlo with kAuto, and is
/// refused (load::InputError, naming its Job::states_key) with kExact or kBoth.
/// A stop signal ends the run at the next block: a Monte Carlo situation with at least one block
/// done is kept, with the intervals of the trials run. Throws load::InputError for a rules
/// conflict.
RunStatus run_situations(const SituationSource& source, const RunSettings& settings, const Sink& sink);

/// The report of one job run by itself (no batching, no progress); for a handful of programs
/// (sensitivity's variants).
report::SituationReport run_one(const Job& job, const RunSettings& settings, std::uint64_t situation_key);

/// The report of `job` before any engine has run: file, name, sweep point, program hash, names.
report::SituationReport empty_report(const Job& job);

/// Provenance of a run over `source`: settings, rules data of every ruleset used, display hints.
report::Provenance provenance_of(const SituationSource& source, const RunSettings& settings);
/// The same after the run: with --method auto, the engines `status` says were used.
report::Provenance provenance_of(const SituationSource& source, const RunSettings& settings, const RunStatus& status);

/// A Monte Carlo half-width as the precision messages print it: 0.012345, or "unknown (fewer
/// than 2 trials)" for a mean without an interval.
std::string half_width_text(double h);

/// "salvo 0.1.0 (git abcdef012345)".
std::string version_line();

}  // namespace salvo::app
