// A run spread over the ranks of a team (team.h): every rank runs a fixed share of each Monte
// Carlo situation's blocks and of each batch's exact solves; integer tallies are added up, and
// rank 0 hands every situation to the sink in order. Every decision (how far the exact solves
// got, when --precision is reached, whether to stop) is taken from values every rank reduced
// together, so every rank takes it alike and the collectives stay in step.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "runner_parts.h"
#include "salvo/app/commands.h"
#include "salvo/app/io.h"
#include "salvo/app/spill.h"
#include "salvo/sim/exact.h"

namespace salvo::app::detail {
namespace {

/// Run `step` (which may throw) on every rank, then agree: a failure on any rank becomes every
/// rank's TeamError, so no rank waits for another that has given up.
template <class Step>
void agreed(Team& team, const Step& step) {
  std::optional<Failure> failure;
  try {
    step();
  } catch (const std::exception& e) {
    const ErrorExit error = error_exit(e);
    failure = Failure{error.message, error.code};
  }
  agree(team, failure);
}

/// Situation `key`'s Monte Carlo run, its blocks shared among the ranks: the blocks of one
/// round (all of them without --precision) split into contiguous shares, each rank's run on
/// its threads, the tallies summed over the ranks. --precision follows monte_carlo's rounds and
/// stops when the summed tallies reach the target, on every rank alike. `stopped` is set when
/// any rank was stopped by a signal.
sim::RunResult spread_monte_carlo(const RollProgram& program, const RunSettings& s, std::uint64_t key, Team& team,
                                  sim::Workers& workers, bool& stopped) {
  const sim::Tallies shape = sim::empty_tallies(program);
  std::vector<std::uint64_t> total = flat_tallies(shape);
  std::uint64_t done_blocks = 0;
  const auto round = [&](std::uint64_t trials_total) {
    const std::uint64_t blocks = (trials_total + sim::kBlockTrials - 1) / sim::kBlockTrials;
    const auto [b0, b1] = share(blocks - done_blocks, team.rank(), team.size());
    const BlockRun run =
        run_block_range(program, s.seed, key, done_blocks + b0, done_blocks + b1, trials_total, workers);
    std::vector<std::uint64_t> v = flat_tallies(run.tallies);
    v.push_back(run.interrupted || stop_flag().load() ? 1 : 0);
    team.reduce(v, Team::Op::kSum);
    const bool any_stopped = v.back() > 0;
    v.pop_back();
    add_into(total, v);
    done_blocks = blocks;
    stopped = stopped || any_stopped;
    return !any_stopped;
  };

  bool interrupted = false;
  if (!s.precision) {
    interrupted = !round(s.trials);
  } else {
    // --trials is the cap
    for (std::uint64_t target = 0; target < s.trials;) {
      target = sim::precision_round_target(target, s.trials);
      if (!round(target)) {
        interrupted = true;
        break;
      }
      if (sim::precision_reached(sim::estimates_from(program, tallies_from_flat(shape, total)), *s.precision)) break;
    }
  }
  sim::RunResult r = sim::estimates_from(program, tallies_from_flat(shape, total));
  r.interrupted = interrupted;
  return r;
}

}  // namespace

std::vector<std::uint64_t> flat_tallies(const sim::Tallies& t) {
  std::vector<std::uint64_t> v{t.trials, t.truncated};
  for (const sim::WindowTallies* w : {&t.first, &t.run})
    for (const auto* part : {&w->flags, &w->counter_sum, &w->counter_sumsq, &w->outcomes, &w->end_reasons})
      v.insert(v.end(), part->begin(), part->end());
  return v;
}

sim::Tallies tallies_from_flat(const sim::Tallies& shape, const std::vector<std::uint64_t>& v) {
  sim::Tallies t = shape;
  std::size_t i = 0;
  const auto next = [&] { return v.at(i++); };
  t.trials = next();
  t.truncated = next();
  for (sim::WindowTallies* w : {&t.first, &t.run})
    for (auto* part : {&w->flags, &w->counter_sum, &w->counter_sumsq, &w->outcomes, &w->end_reasons})
      for (std::uint64_t& x : *part) x = next();
  return t;
}

void add_into(std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b.at(i);
}

BlockRun run_block_range(const RollProgram& program, std::uint64_t seed, std::uint64_t key, std::uint64_t b0,
                         std::uint64_t b1, std::uint64_t trials_total, sim::Workers& workers) {
  // The program is prepared for the kernel once (sim::PreparedProgram); a task runs up to 8
  // consecutive blocks, fewer when the range would leave threads idle; a wave gives each thread
  // a few tasks, and the stop flag is read before each task.
  const sim::PreparedProgram kernel(program, std::min(trials_total, (b1 - b0) * sim::kBlockTrials));
  const auto threads = static_cast<std::uint64_t>(workers.concurrency());
  const std::uint64_t task_blocks = std::clamp<std::uint64_t>((b1 - b0) / threads, 1, 8);
  const std::uint64_t wave = 4 * threads;
  std::vector<std::uint64_t> total = flat_tallies(sim::empty_tallies(program));
  bool interrupted = false;
  for (std::uint64_t b = b0; b < b1 && !interrupted;) {
    const std::uint64_t tasks = std::min(wave, (b1 - b + task_blocks - 1) / task_blocks);
    std::vector<std::optional<sim::Tallies>> slots(static_cast<std::size_t>(tasks));
    workers.for_each(std::uint64_t{0}, tasks, [&](std::uint64_t i) {
      if (stop_flag().load()) return;
      const std::uint64_t tb = b + i * task_blocks;
      const std::uint64_t te = std::min(b1, tb + task_blocks);
      slots[static_cast<std::size_t>(i)] = kernel.run(seed, key, tb, te, trials_total);
    });
    for (const auto& slot : slots) {
      if (slot)
        add_into(total, flat_tallies(*slot));
      else
        interrupted = true;
    }
    b = std::min(b1, b + tasks * task_blocks);
  }
  return {tallies_from_flat(sim::empty_tallies(program), total), interrupted};
}

RunStatus run_spread(const SituationSource& source, const RunSettings& s, Team& team, const Sink& sink) {
  const std::size_t n = source.size();
  const int rank = team.rank();
  const bool root = rank == 0;
  sim::Workers workers(s.threads);

  // Monte Carlo runs a share of every situation on every rank, so each rank compiles them all
  // before the first trial, as one process does: a rules conflict anywhere costs no trials.
  std::optional<CompiledFirst> compiled;
  agreed(team, [&] { compiled.emplace(source, s, workers); });

  RunStatus status;
  bool stopped = false;
  for (std::size_t begin = 0; begin < n && !stopped; begin += kBatch) {
    const std::size_t m = std::min(n, begin + kBatch) - begin;
    // This rank's share of the batch's exact solves
    // (situation indexes: std::size_t, which is 32 bits in the browser's build)
    const auto [share_b, share_e] = share(m, rank, team.size());
    const auto own_b = static_cast<std::size_t>(share_b), own_e = static_cast<std::size_t>(share_e);
    // Compiled here: the whole batch where Monte Carlo runs all of it (or rank 0's sink needs
    // every job), else this rank's share (--method auto: then, on every rank, the situations it
    // gives to Monte Carlo). A rules conflict is the first one in order, as on one process:
    // shares are in rank order, and agree takes the lowest failing rank.
    const bool auto_method = s.method == report::MethodChoice::kAuto;
    const bool all = (s.mc() && !auto_method) || (root && s.jobs_needed);
    const std::size_t cb = all ? 0 : own_b;
    const std::size_t ce = all ? m : own_e;
    std::vector<Job> jobs(m);
    std::vector<report::SituationReport> reports(m);
    std::vector<char> exact(m);  // known for the jobs compiled here
    agreed(team, [&] {
      std::vector<Job> batch =
          all ? compiled->batch(begin, begin + m) : compile_batch(source, begin + cb, begin + ce, workers);
      for (std::size_t k = cb; k < ce; ++k) {
        jobs[k] = std::move(batch[k - cb]);
        reports[k] = report_of(jobs[k]);
        exact[k] = runs_exact(jobs[k], s);
      }
    });
    if (auto_method) {
      // Which situations auto gives to Monte Carlo, from the ranks that compiled them; each rank
      // runs a share of every one of them, so each compiles those it has not
      std::vector<std::uint64_t> by_mc(m, 0);
      for (std::size_t k = cb; k < ce; ++k) by_mc[k] = exact[k] ? 0 : 1;
      team.reduce(by_mc, Team::Op::kMax);
      agreed(team, [&] {
        for (std::size_t k = 0; k < m; ++k) {
          if (k >= cb && k < ce) continue;
          exact[k] = by_mc[k] == 0;
          if (exact[k]) continue;
          jobs[k] = source.compile(begin + k);
          reports[k] = report_of(jobs[k]);
        }
      });
    }
    std::size_t done = m;  // of this batch, a prefix

    // Exact: this rank's share in parallel; then how far every rank got, and rank 0 takes the
    // other ranks' situations.
    if (s.exact()) {
      workers.for_each(own_b, own_e, [&](std::size_t k) {
        if (stop_flag().load() || !exact[k]) return;
        reports[k].exact = sim::solve_exact(jobs[k].program);
      });
      std::uint64_t first_missing = m;
      for (std::size_t k = own_b; k < own_e && first_missing == m; ++k)
        if (exact[k] && !reports[k].exact) first_missing = k;
      std::vector<std::uint64_t> v{first_missing, stop_flag().load() ? 0u : 1u};
      team.reduce(v, Team::Op::kMin);
      done = static_cast<std::size_t>(v[0]);
      stopped = v[1] == 0;
      std::string mine;
      if (!root)
        for (std::size_t k = own_b; k < std::min<std::size_t>(own_e, done); ++k) append_report_bytes(mine, reports[k]);
      const std::vector<std::string> parts = team.gather(mine);
      for (std::size_t r = 1; r < parts.size(); ++r) {
        std::vector<report::SituationReport> got = reports_from_bytes(parts[r]);
        const auto from = static_cast<std::size_t>(share(m, static_cast<int>(r), team.size()).first);
        for (std::size_t i = 0; i < got.size(); ++i) reports[from + i] = std::move(got[i]);
      }
    }

    // Monte Carlo: one situation at a time, its blocks shared among the ranks
    if (s.mc()) {
      // (`exact` is alike on every rank: each compiled the batch, or learnt it above)
      agreed(team, [&] { compiled->before_trials(begin + m, exact); });
      std::size_t k = 0;
      for (; k < done && !stopped; ++k) {
        if (s.method == report::MethodChoice::kAuto && exact[k]) continue;  // solved exactly
        reports[k].mc = spread_monte_carlo(jobs[k].program, s, begin + k, team, workers, stopped);
        if (stopped) {
          // Kept if any block finished, as on one process
          if (reports[k].mc->trials > 0) ++k;
          break;
        }
      }
      done = k;
    }

    hand_over(status, jobs, reports, done, s, root ? &sink : nullptr);
    if (done < m) break;
  }
  team.phase = Team::Phase::kAfter;  // the run's last collective is done
  status.stopped = stopped;
  status.interrupted = stopped || status.complete < n;
  return status;
}

}  // namespace salvo::app::detail
