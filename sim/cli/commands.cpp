// The `salvo` commands: validate flags, load every situation, compile and run them a batch at a
// time, format and write.

#include "commands.h"

#include <fmt/format.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>

#include "analysis.h"
#include "jobs.h"
#include "progress.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/stats.h"
#include "spill.h"

namespace salvo::cli {
namespace {

// ---------------------------------------------------------------------------------------------
// Flag values

constexpr std::uint64_t kMaxTrials = 1'000'000'000'000;
constexpr int kMaxThreads = 1024;
constexpr std::uint64_t kMaxSituationsLimit = 1'000'000'000;

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return v;
}


double precision_flag(std::string_view text) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || !(v > 0.0) ||
      !(v < 0.5))
    throw UsageError(fmt::format("--precision: expected a number in (0, 0.5), got {}", text));
  return v;
}

// ---------------------------------------------------------------------------------------------
// Precision targets

struct PrecisionMiss {
  std::size_t count = 0;  ///< situations whose widest half-width exceeds the target
  std::string file, name, quantity;  ///< the first of them, and its widest quantity
  std::uint64_t trials = 0;
  double half_width = 0.0;
};

/// Count situation r in `miss` if its Monte Carlo result misses the target half-width (the
/// first one missed is the one named); `miss` stays empty while every situation reaches it.
void note_precision(std::optional<PrecisionMiss>& miss, const sim::SituationReport& r, double precision) {
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

/// A half-width as the precision messages print it: 0.012345, or "unknown (fewer than 2 trials)"
/// for a mean without an interval.
std::string half_width_text(double h) {
  return std::isfinite(h) ? fmt::format("{:.6f}", h) : std::string("unknown (fewer than 2 trials)");
}

// ---------------------------------------------------------------------------------------------
// Running a sweep a batch at a time

/// Situations compiled, solved and run together: what a run holds in memory besides the loaded
/// files (a compiled situation with its results is about 10 KB).
constexpr std::size_t kBatch = 256;

/// --format html holds every situation (its table, charts and explain trail) in one page.
constexpr std::size_t kMaxHtmlSituations = 10'000;

/// Compile situations [begin, end) in `arena`, in parallel. A rules conflict throws the error of
/// the first conflicting situation in order, whichever thread met it first.
std::vector<Job> compile_batch(const JobSource& source, std::size_t begin, std::size_t end,
                               tbb::task_arena& arena) {
  std::vector<Job> jobs(end - begin);
  std::vector<std::optional<std::string>> errors(end - begin);
  arena.execute([&] {
    sim::parallel_for(begin, end, [&](std::size_t i) {
      try {
        jobs[i - begin] = source.compile(i);
      } catch (const load::InputError& e) {
        errors[i - begin] = e.what();
      }
    });
  });
  for (const auto& e : errors)
    if (e) throw load::InputError(*e);
  return jobs;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string version_line() {
  return fmt::format("salvo {} (git {})", sim::version(), sim::git_revision());
}

OddsOptions odds_options(const OddsFlags& flags) {
  OddsOptions o;
  o.files = flags.files;
  const auto method = sim::parse_method_choice(flags.method);
  if (!method)
    throw UsageError(fmt::format("--method: expected exact, mc or both, got {}", flags.method));
  o.method = *method;
  o.html = flags.format == "html";
  const auto format = o.html ? std::optional<sim::Format>(sim::Format::kText) : sim::parse_format(flags.format);
  if (!format)
    throw UsageError(fmt::format("--format: expected text, csv, json, md or html, got {}", flags.format));
  o.format = *format;
  if (flags.trials) o.trials = integer_flag("--trials", *flags.trials, 1, kMaxTrials);
  if (flags.precision) {
    o.precision = precision_flag(*flags.precision);
    if (o.method == sim::MethodChoice::kExact)
      throw UsageError("--precision: needs --method mc or both (exact results have no error)");
    // With a target precision --trials is the cap; without it, the engine's default cap.
    if (!flags.trials) o.trials = sim::McOptions{}.max_trials;
  }
  o.seed = integer_flag("--seed", flags.seed, 0, std::numeric_limits<std::uint64_t>::max());
  o.threads = static_cast<int>(integer_flag("--threads", flags.threads, 0, kMaxThreads));
  o.output = flags.output;
  o.max_situations = max_situations_flag(flags.max_situations);
  o.max_file_bytes = max_file_size_flag(flags.max_file_size);
  return o;
}

std::uint64_t integer_flag(std::string_view flag, std::string_view text, std::uint64_t lo,
                           std::uint64_t hi) {
  const auto v = to_u64(text);
  if (!v || *v < lo || *v > hi)
    throw UsageError(fmt::format("{}: expected an integer in {}..{}, got {}", flag, lo, hi, text));
  return *v;
}

std::size_t max_file_size_flag(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::string unit(text.substr(digits));
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  struct Unit {
    std::string_view name;
    int shift;
  };
  static constexpr Unit kUnits[] = {{"", 0},   {"B", 0},   {"K", 10},  {"KB", 10}, {"KIB", 10}, {"M", 20},
                                    {"MB", 20}, {"MIB", 20}, {"G", 30}, {"GB", 30}, {"GIB", 30}};
  int shift = -1;
  for (const Unit& u : kUnits)
    if (unit == u.name) shift = u.shift;
  const auto value = to_u64(text.substr(0, digits));
  const std::uint64_t limit = load::kMaxFileBytesLimit;
  if (shift < 0 || !value || *value == 0 || *value > (limit >> shift))
    throw UsageError(fmt::format("--max-file-size: expected a size from 1 byte to 1GiB (e.g. 4MiB, 512KiB, 100000), got {}",
                                 text));
  return static_cast<std::size_t>(*value << shift);
}

std::size_t max_situations_flag(std::string_view text) {
  return static_cast<std::size_t>(integer_flag("--max-situations", text, 1, kMaxSituationsLimit));
}

int run_odds(const OddsOptions& o) {
  install_stop_signals();

  // Every file loaded and checked by its loader before any work. The situations are compiled
  // and run a batch at a time; each finished one goes to the spill (or, for the HTML page,
  // stays in memory), so nothing reaches the output before the last one.
  JobOptions job_options;
  job_options.max_situations = o.max_situations;
  job_options.max_file_bytes = o.max_file_bytes;
  job_options.explain = o.html;  // the page carries the explain trail
  const JobSource source(o.files, job_options);
  check_output_path(o.output, file_ids(source.input_paths()));  // before any work
  const std::size_t n = source.size();
  if (o.html && n > kMaxHtmlSituations)
    throw UsageError(fmt::format("--format html: {} situations, more than a page holds ({}); use csv, json, md or text",
                                 n, kMaxHtmlSituations));

  const int threads = o.threads > 0 ? o.threads : tbb::info::default_concurrency();
  const bool want_exact = o.method != sim::MethodChoice::kMonteCarlo;
  const bool want_mc = o.method != sim::MethodChoice::kExact;
  tbb::task_arena arena(threads);

  std::optional<ReportSpill> spill;
  if (!o.html) spill.emplace();
  std::vector<Job> html_jobs;
  std::vector<sim::SituationReport> html_reports;

  // With Monte Carlo, a rules conflict anywhere costs no trials: every situation is compiled
  // once first. (An exact run meets it as it goes; either way nothing is written.)
  if (want_mc)
    for (std::size_t begin = 0; begin < n; begin += kBatch) compile_batch(source, begin, std::min(n, begin + kBatch), arena);

  Progress progress(n);
  std::optional<PrecisionMiss> miss;
  std::size_t complete = 0;  // situations fully reported (a prefix)
  for (std::size_t begin = 0; begin < n && !stop_flag().load(); begin += kBatch) {
    std::vector<Job> jobs = compile_batch(source, begin, std::min(n, begin + kBatch), arena);
    const std::size_t m = jobs.size();
    std::vector<sim::SituationReport> reports(m);
    for (std::size_t k = 0; k < m; ++k) {
      auto& r = reports[k];
      const Job& j = jobs[k];
      r.file = j.file;
      r.name = j.name;
      r.sweep = j.sweep;
      r.program_hash = j.program.hash();
      r.names = sim::names_of(j.program);
    }
    std::size_t done = m;  // of this batch, a prefix

    // Exact: independent solves, in parallel over situations.
    if (want_exact) {
      arena.execute([&] {
        sim::parallel_for(std::size_t{0}, m, [&](std::size_t k) {
          if (stop_flag().load()) return;
          reports[k].exact = sim::solve_exact(jobs[k].program);
          if (!want_mc) progress.situation_done();
        });
      });
      done = 0;
      while (done < m && reports[done].exact) ++done;
    }

    // Monte Carlo: one situation at a time, each spread over the threads.
    if (want_mc) {
      std::size_t k = 0;
      for (; k < done && !stop_flag().load(); ++k) {
        sim::McOptions mc;
        mc.seed = o.seed;
        mc.situation_key = begin + k;
        mc.trials = o.trials;
        if (o.precision) {
          mc.precision = *o.precision;
          mc.max_trials = o.trials;
        }
        mc.threads = threads;
        mc.stop = &stop_flag();
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

    for (std::size_t k = 0; k < done; ++k) {
      if (o.precision) note_precision(miss, reports[k], *o.precision);
      if (spill) {
        spill->append(reports[k]);
      } else {
        html_jobs.push_back(std::move(jobs[k]));
        html_reports.push_back(std::move(reports[k]));
      }
    }
    complete += done;
    if (done < m) break;
  }
  progress.clear();

  // A precision that was asked for and not reached: an interrupted run writes nothing (its
  // table would not be what was asked for); a run that hit the --trials cap says so.
  if (want_mc && o.precision) {
    if (miss) {
      if (stop_flag().load()) {
        fmt::print(stderr,
                   "salvo: interrupted: --precision {} not reached for {} ({}) after {} trials (widest "
                   "95% half-width {}, {}); nothing written\n",
                   *o.precision, miss->name, miss->file, miss->trials, half_width_text(miss->half_width), miss->quantity);
        return stop_exit_code();
      }
      fmt::print(stderr,
                 "salvo: warning: --precision {} not reached within {} trials for {} situation(s), "
                 "e.g. {} ({}): widest 95% half-width {} ({}); the table shows the intervals "
                 "reached\n",
                 *o.precision, o.trials, miss->count, miss->name, miss->file, half_width_text(miss->half_width),
                 miss->quantity);
    } else if (stop_flag().load() && complete < n) {
      fmt::print(stderr,
                 "salvo: interrupted: --precision {} reached for {} of {} situations; nothing written\n",
                 *o.precision, complete, n);
      return stop_exit_code();
    }
  }

  const bool interrupted = stop_flag().load() || complete < n;

  sim::Provenance prov;
  prov.method = o.method;
  prov.seed = o.seed;
  prov.trials = o.trials;
  prov.precision = o.precision;
  prov.threads = threads;
  // One ruleset per run is the common case; several are recorded side by side.
  for (const RulesData& r : source.rules_data()) {
    if (!prov.rules_data_version.empty()) prov.rules_data_version += ", ";
    prov.rules_data_version += r.version;
    prov.rules_data_hash ^= r.hash;
  }
  prov.interrupted = interrupted;
  prov.situations_total = n;

  if (o.html) {
    write_output(o.output, html_odds_page(html_reports, prov, html_jobs));
  } else {
    Output out(o.output);
    sim::write_odds(*spill, prov, o.format, [&out](std::string_view piece) { out.write(piece); });
    out.commit();
  }
  // A stop signal, even one that came after the last situation, gives 128 + the signal.
  if (const int signalled = stop_exit_code()) return signalled;
  return interrupted ? kExitInterrupted : kExitOk;
}

int run_explain(const std::vector<std::string>& paths, std::size_t max_situations, std::size_t max_file_bytes) {
  JobOptions options;
  options.explain = true;
  options.max_situations = max_situations;
  options.max_file_bytes = max_file_bytes;
  const std::vector<Job> jobs = load_jobs(paths, options);
  std::string out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i) out += '\n';
    out += jobs[i].explain;
  }
  write_output("", out);
  return kExitOk;
}

}  // namespace salvo::cli
