// The batch runner: compile, solve exactly, run Monte Carlo, a batch at a time.
#include "salvo/app/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "runner_parts.h"
#include "salvo/app/io.h"
#include "salvo/app/progress.h"
#include "salvo/core/text.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/stats.h"

namespace salvo::app {
namespace detail {

std::vector<Job> compile_batch(const SituationSource& source, std::size_t begin, std::size_t end,
                               sim::Workers& workers) {
  std::vector<Job> jobs(end - begin);
  std::vector<std::optional<std::string>> errors(end - begin);
  workers.for_each(begin, end, [&](std::size_t i) {
    try {
      jobs[i - begin] = source.compile(i);
    } catch (const load::InputError& e) {
      errors[i - begin] = e.what();
    }
  });
  for (const auto& e : errors)
    if (e) throw load::InputError(*e);
  return jobs;
}

CompiledFirst::CompiledFirst(const SituationSource& source, const RunSettings& s, sim::Workers& workers)
    : source_(source), s_(s), workers_(workers) {
  if (!s.mc() || s.method == report::MethodChoice::kAuto) return;
  first_ = compile_batch(source, 0, std::min(source.size(), kBatch), workers);
  compile_from(kBatch);
}

std::vector<Job> CompiledFirst::batch(std::size_t begin, std::size_t end) {
  if (begin == 0 && !first_.empty()) return std::move(first_);
  return compile_batch(source_, begin, end, workers_);
}

void CompiledFirst::before_trials(std::size_t end, const std::vector<char>& exact) {
  if (all_compiled_ || !s_.mc()) return;
  if (s_.method == report::MethodChoice::kAuto && std::all_of(exact.begin(), exact.end(), [](char e) { return e; }))
    return;
  compile_from(end);
}

void CompiledFirst::compile_from(std::size_t begin) {
  const std::size_t n = source_.size();
  for (; begin < n; begin += kBatch) compile_batch(source_, begin, std::min(n, begin + kBatch), workers_);
  all_compiled_ = true;
}

report::SituationReport report_of(const Job& j) {
  return {.file = j.file,
          .name = j.name,
          .sweep = j.sweep,
          .program_hash = j.program.hash(),
          .names = report::names_of(j.program),
          .exact = std::nullopt,  // filled in by the engines
          .mc = std::nullopt};
}

sim::McOptions mc_options(const RunSettings& s, std::uint64_t situation_key) {
  sim::McOptions mc;
  mc.seed = s.seed;
  mc.situation_key = situation_key;
  mc.trials = s.trials;
  if (s.precision) {
    mc.precision = *s.precision;
    mc.max_trials = s.trials;
  }
  mc.threads = s.threads;
  mc.stop = &stop_flag();
  return mc;
}

void note_precision(std::optional<PrecisionMiss>& miss, const report::SituationReport& r, double precision) {
  if (!r.mc) return;
  double widest = 0.0;
  std::string quantity;
  const auto scan = [&](const std::vector<sim::Estimate>& v, const std::vector<std::string>& names,
                        const char* prefix) {
    for (std::size_t k = 0; k < v.size(); ++k) {
      const double h = sim::half_width(v[k]);
      if (h > widest) {
        widest = h;
        quantity = prefix + (k < names.size() ? names[k] : std::to_string(k));
      }
    }
  };
  for (const sim::WindowStats* w : {&r.mc->first, &r.mc->run}) {
    scan(w->flags, r.names.flags, "p_");
    scan(w->counters, r.names.counters, "e_");
    scan(w->outcomes, r.names.outcomes, "outcome_");
    scan(w->end_reasons, r.names.end_reasons, "end_");
  }
  if (!(widest > precision)) return;
  if (!miss) miss = PrecisionMiss{0, r.file, r.name, quantity, r.mc->trials, widest};
  ++miss->count;
}

bool runs_exact(const Job& j, const RunSettings& s) {
  if (!s.exact()) return false;
  const std::size_t states = j.program.num_states();
  if (states <= s.max_exact_states) return true;
  if (s.method == report::MethodChoice::kAuto) return false;
  throw load::InputError(fmt::format(
      "{}: {}: {}{} states, more than the exact engine solves ({}): run it with --method mc, or --method auto "
      "(Monte Carlo above that)",
      j.file, j.name, j.states_key.empty() ? "" : j.states_key + ": ", with_commas(states),
      with_commas(s.max_exact_states)));
}

void hand_over(RunStatus& status, std::vector<Job>& jobs, std::vector<report::SituationReport>& reports,
               std::size_t done, const RunSettings& s, const Sink* sink) {
  for (std::size_t k = 0; k < done; ++k) {
    if (s.precision) note_precision(status.miss, reports[k], *s.precision);
    status.exact_runs += reports[k].exact ? 1 : 0;
    status.mc_runs += reports[k].mc ? 1 : 0;
    if (sink) (*sink)(std::move(jobs[k]), std::move(reports[k]));
  }
  status.complete += done;
}

}  // namespace detail

using namespace detail;

RunStatus run_situations(const SituationSource& source, const RunSettings& s, const Sink& sink) {
  if (s.team != nullptr && s.team->size() > 1) return run_spread(source, s, *s.team, sink);
  const std::size_t n = source.size();
  sim::Workers workers(s.threads);
  CompiledFirst compiled(source, s, workers);

  RunStatus status;
  Progress progress(n);
  for (std::size_t begin = 0; begin < n && !stop_flag().load(); begin += kBatch) {
    std::vector<Job> jobs = compiled.batch(begin, std::min(n, begin + kBatch));
    const std::size_t m = jobs.size();
    std::vector<report::SituationReport> reports(m);
    std::vector<char> exact(m);
    for (std::size_t k = 0; k < m; ++k) {
      reports[k] = report_of(jobs[k]);
      exact[k] = runs_exact(jobs[k], s);
    }
    std::size_t done = m;  // of this batch, a prefix

    // Exact: independent solves, in parallel over situations.
    if (s.exact()) {
      workers.for_each(std::size_t{0}, m, [&](std::size_t k) {
        if (stop_flag().load() || !exact[k]) return;
        reports[k].exact = sim::solve_exact(jobs[k].program);
        if (!s.mc()) progress.situation_done();
      });
      done = 0;
      while (done < m && (reports[done].exact || !exact[done])) ++done;
    }

    // Monte Carlo: one situation at a time, each spread over the threads (with kAuto, those not
    // solved exactly).
    if (s.mc()) {
      compiled.before_trials(begin + m, exact);
      std::size_t k = 0;
      for (; k < done && !stop_flag().load(); ++k) {
        if (s.method == report::MethodChoice::kAuto && exact[k]) {
          progress.situation_done();
          continue;
        }
        sim::McOptions mc = mc_options(s, begin + k);
        progress.start_situation();
        mc.progress = [&progress](std::uint64_t trials_done, std::uint64_t planned) {
          progress.trials(trials_done, planned);
        };
        reports[k].mc = sim::monte_carlo(jobs[k].program, mc);
        progress.situation_done();
        if (reports[k].mc->interrupted) {
          // Keep the situation if any block finished: its intervals are those of the trials run.
          if (reports[k].mc->trials > 0) ++k;
          break;
        }
      }
      done = k;
    }

    hand_over(status, jobs, reports, done, s, &sink);
    if (done < m) break;
  }
  progress.clear();
  status.stopped = stop_flag().load();
  status.interrupted = status.stopped || status.complete < n;
  return status;
}

report::SituationReport run_one(const Job& job, const RunSettings& s, std::uint64_t situation_key) {
  report::SituationReport r = report_of(job);
  const bool exact = runs_exact(job, s);
  if (exact) r.exact = sim::solve_exact(job.program);
  if (s.mc() && !(exact && s.method == report::MethodChoice::kAuto))
    r.mc = sim::monte_carlo(job.program, mc_options(s, situation_key));
  return r;
}

report::SituationReport empty_report(const Job& job) { return report_of(job); }

report::Provenance provenance_of(const SituationSource& source, const RunSettings& s) {
  report::Provenance prov;
  prov.method = s.method;
  prov.seed = s.seed;
  prov.trials = s.trials;
  prov.precision = s.precision;
  prov.threads = s.threads;
  prov.ranks = s.team != nullptr ? s.team->size() : 1;
  // One ruleset per run is the common case; several are recorded side by side.
  for (const RulesData& r : source.rules_data()) {
    if (!prov.rules_data_version.empty()) prov.rules_data_version += ", ";
    prov.rules_data_version += r.version;
    prov.rules_data_hash ^= r.hash;
  }
  prov.situations_total = source.size();
  prov.hints = source.hints();
  prov.max_exact_states = s.max_exact_states;
  return prov;
}

report::Provenance provenance_of(const SituationSource& source, const RunSettings& s, const RunStatus& status) {
  report::Provenance prov = provenance_of(source, s);
  if (s.method == report::MethodChoice::kAuto) {
    prov.auto_method = true;
    prov.method = status.mc_runs == 0      ? report::MethodChoice::kExact
                  : status.exact_runs == 0 ? report::MethodChoice::kMonteCarlo
                                           : report::MethodChoice::kAuto;
  }
  return prov;
}

std::string half_width_text(double h) {
  return std::isfinite(h) ? fmt::format("{:.6f}", h) : std::string("unknown (fewer than 2 trials)");
}

std::string version_line() { return fmt::format("salvo {} (git {})", report::version(), report::git_revision()); }

}  // namespace salvo::app
