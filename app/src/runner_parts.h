#pragma once
// app/src/runner_parts.h — the runner's pieces shared by its one-process loop (runner.cpp) and
// the loop spread over a team (spread.cpp). Private to salvo::app.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/app/team.h"
#include "salvo/report/report.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"

namespace salvo::app::detail {

/// Situations compiled, solved and run together: what a run holds in memory besides the loaded
/// files (a compiled situation with its results is about 10 KB).
inline constexpr std::size_t kBatch = 256;

/// Compile situations [begin, end) on `workers`, in parallel. A rules conflict throws the error
/// of the first conflicting situation in order, whichever thread met it first.
std::vector<Job> compile_batch(const SituationSource& source, std::size_t begin, std::size_t end,
                               sim::Workers& workers);

/// Monte Carlo compiles every situation before its first trial, so that a rules conflict in the
/// middle of a sweep costs no trials: with --method mc or both before anything (the first batch
/// is kept for the run: a fight's compile can take seconds); with --method auto before the first
/// situation it gives to Monte Carlo, so that a run it solves all exactly compiles each situation
/// once, as --method exact does. Kept memory stays one batch (the run streams).
class CompiledFirst {
 public:
  /// Before the run: the whole source compiled with mc or both (throws as compile_batch).
  CompiledFirst(const SituationSource& source, const RunSettings& s, sim::Workers& workers);
  /// Situations [begin, end) (a batch): the kept first batch, or compiled now.
  std::vector<Job> batch(std::size_t begin, std::size_t end);
  /// Before the first trial of batch [begin, end): the batches after it compiled, once, when
  /// a situation of it runs Monte Carlo (`exact[k]` false for situation begin + k under auto).
  void before_trials(std::size_t end, const std::vector<char>& exact);

 private:
  void compile_from(std::size_t begin);
  const SituationSource& source_;
  const RunSettings& s_;
  sim::Workers& workers_;
  bool all_compiled_ = false;
  std::vector<Job> first_;
};

/// A job's report before any engine ran: file, name, sweep point, program hash, names.
report::SituationReport report_of(const Job& j);

/// Does job j run exactly? With --method auto: if it has at most s.max_exact_states states. With
/// exact asked for, it must: a larger program is refused (load::InputError naming the state count
/// and --method mc).
bool runs_exact(const Job& j, const RunSettings& s);

/// The engine's options for situation `situation_key` under `s` (the stop flag of io.h).
sim::McOptions mc_options(const RunSettings& s, std::uint64_t situation_key);

/// Count situation r in `miss` if its Monte Carlo result misses the target half-width (the
/// first one missed is the one named); `miss` stays empty while every situation reaches it.
void note_precision(std::optional<PrecisionMiss>& miss, const report::SituationReport& r, double precision);

/// The first `done` situations of a batch finished: their precision and engines counted in
/// `status`, each handed to `sink` in order (none on the ranks of a team other than the root).
void hand_over(RunStatus& status, std::vector<Job>& jobs, std::vector<report::SituationReport>& reports,
               std::size_t done, const RunSettings& s, const Sink* sink);

/// Tallies as one vector of integers, what a team adds up: trials, truncated, then each window's
/// flags, counter sums, sums of squares, outcomes and end reasons.
std::vector<std::uint64_t> flat_tallies(const sim::Tallies& t);
/// The inverse: tallies shaped as `shape` (sim::empty_tallies of the program) from `flat`.
sim::Tallies tallies_from_flat(const sim::Tallies& shape, const std::vector<std::uint64_t>& flat);
/// a[i] += b[i].
void add_into(std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

/// Blocks [b0, b1) of a run of `trials_total` trials, over `workers`.
struct BlockRun {
  sim::Tallies tallies;
  bool interrupted = false;  ///< a stop signal came first: some blocks were not run
};
BlockRun run_block_range(const RollProgram& program, std::uint64_t seed, std::uint64_t key, std::uint64_t b0,
                         std::uint64_t b1, std::uint64_t trials_total, sim::Workers& workers);

/// run_situations over a team of more than one rank (spread.cpp): every rank calls it with the
/// same source and settings; rank 0's sink gets every situation, the others' none.
RunStatus run_spread(const SituationSource& source, const RunSettings& s, Team& team, const Sink& sink);

}  // namespace salvo::app::detail
