// The `salvo` commands: validate flags, load and compile every situation, run the engines,
// format and write.

#include "commands.h"

#include <fmt/format.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>

#include "analysis.h"
#include "jobs.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/stats.h"

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

std::uint64_t integer_flag(std::string_view flag, std::string_view text, std::uint64_t lo,
                           std::uint64_t hi) {
  const auto v = to_u64(text);
  if (!v || *v < lo || *v > hi)
    throw UsageError(fmt::format("{}: expected an integer in {}..{}, got {}", flag, lo, hi, text));
  return *v;
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
// SIGINT: stop Monte Carlo at the next block boundary; a second SIGINT kills (SA_RESETHAND).

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) { g_stop.store(true); }

void install_sigint() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
}

// ---------------------------------------------------------------------------------------------
// Progress bar on a terminal's stderr, drawn only once a run has lasted a second.

class Progress {
 public:
  explicit Progress(std::size_t situations)
      : enabled_(isatty(STDERR_FILENO) == 1),
        total_(situations),
        start_(std::chrono::steady_clock::now()) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { clear(); }

  void situation_done() {
    done_.fetch_add(1);
    draw(false);
  }
  void start_situation() {
    std::lock_guard lock(mutex_);
    trials_done_ = 0;
    trials_planned_ = 0;
  }
  void trials(std::uint64_t done, std::uint64_t planned) {
    {
      std::lock_guard lock(mutex_);
      trials_done_ = done;
      trials_planned_ = planned;
    }
    draw(false);
  }
  void set_done(std::size_t n) { done_.store(n); }
  void clear() {
    std::lock_guard lock(mutex_);
    if (drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }

 private:
  void draw(bool force) {
    if (!enabled_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && (now - start_ < std::chrono::seconds(1) ||
                   (drawn_ && now - last_ < std::chrono::milliseconds(100))))
      return;
    last_ = now;
    const std::size_t done = done_.load();
    double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
    std::string trials;
    if (trials_planned_ > 0) {
      const double within =
          static_cast<double>(trials_done_) / static_cast<double>(trials_planned_);
      frac += std::min(within, 1.0) / static_cast<double>(std::max<std::size_t>(total_, 1));
      trials = fmt::format("  {:.1f}M / {:.1f}M trials", static_cast<double>(trials_done_) / 1e6,
                           static_cast<double>(trials_planned_) / 1e6);
    }
    constexpr int kWidth = 30;
    const int filled = std::clamp(static_cast<int>(frac * kWidth), 0, kWidth);
    fmt::print(stderr, "\r\033[K[{}{}] {}/{} situations{}", std::string(filled, '#'),
               std::string(kWidth - filled, '-'), done, total_, trials);
    std::fflush(stderr);
    drawn_ = true;
  }

  const bool enabled_;
  const std::size_t total_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
  std::atomic<std::size_t> done_{0};
  std::mutex mutex_;
  std::uint64_t trials_done_ = 0, trials_planned_ = 0;
  bool drawn_ = false;
};

// ---------------------------------------------------------------------------------------------
// Precision targets

struct PrecisionMiss {
  std::size_t count = 0;  ///< situations whose widest half-width exceeds the target
  std::string file, name, quantity;  ///< the first of them, and its widest quantity
  std::uint64_t trials = 0;
  double half_width = 0.0;
};

/// Situations among the first `complete` (and any not run at all) whose Monte Carlo result
/// misses the target half-width; nullopt if every situation run reached it.
std::optional<PrecisionMiss> precision_missed(const std::vector<sim::SituationReport>& reports,
                                              const std::vector<Job>& jobs, std::size_t complete,
                                              double precision) {
  std::optional<PrecisionMiss> miss;
  for (std::size_t i = 0; i < complete && i < reports.size(); ++i) {
    const auto& r = reports[i];
    if (!r.mc) continue;
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
    if (!(widest > precision)) continue;
    if (!miss) miss = PrecisionMiss{0, jobs[i].file, jobs[i].name, quantity, r.mc->trials, widest};
    ++miss->count;
  }
  return miss;
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
  return o;
}

std::size_t max_situations_flag(std::string_view text) {
  return static_cast<std::size_t>(integer_flag("--max-situations", text, 1, kMaxSituationsLimit));
}

int run_odds(const OddsOptions& o) {
  install_sigint();

  // Load and compile everything first: nothing is written if any file fails.
  JobOptions job_options;
  job_options.max_situations = o.max_situations;
  job_options.explain = o.html;  // the page carries the explain trail
  const std::vector<Job> jobs = load_jobs(o.files, job_options);
  const std::size_t n = jobs.size();

  const int threads = o.threads > 0 ? o.threads : tbb::info::default_concurrency();
  const bool want_exact = o.method != sim::MethodChoice::kMonteCarlo;
  const bool want_mc = o.method != sim::MethodChoice::kExact;

  std::vector<sim::SituationReport> reports(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto& r = reports[i];
    const Job& j = jobs[i];
    r.file = j.file;
    r.name = j.name;
    r.sweep = j.sweep;
    r.program_hash = j.program.hash();
    r.names = sim::names_of(j.program);
  }

  Progress progress(n);
  std::size_t complete = n;  // situations fully reported (a prefix)

  // Exact: independent solves, in parallel over situations.
  if (want_exact) {
    tbb::task_arena arena(threads);
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
        if (g_stop.load()) return;
        reports[i].exact = sim::solve_exact(jobs[i].program);
        progress.situation_done();
      });
    });
    complete = 0;
    while (complete < n && reports[complete].exact) ++complete;
  }

  // Monte Carlo: one situation at a time, each spread over the threads.
  if (want_mc) {
    progress.set_done(0);
    std::size_t i = 0;
    for (; i < complete && !g_stop.load(); ++i) {
      sim::McOptions mc;
      mc.seed = o.seed;
      mc.situation_key = i;
      mc.trials = o.trials;
      if (o.precision) {
        mc.precision = *o.precision;
        mc.max_trials = o.trials;
      }
      mc.threads = threads;
      mc.stop = &g_stop;
      progress.start_situation();
      mc.progress = [&progress](std::uint64_t done, std::uint64_t planned) {
        progress.trials(done, planned);
      };
      reports[i].mc = sim::monte_carlo(jobs[i].program, mc);
      progress.situation_done();
      if (reports[i].mc->interrupted) {
        // Keep the situation if any block finished: its intervals are those of the trials run.
        if (reports[i].mc->trials > 0) ++i;
        break;
      }
    }
    complete = i;
  }
  progress.clear();

  // A precision that was asked for and not reached: an interrupted run writes nothing (its
  // table would not be what was asked for); a run that hit the --trials cap says so.
  if (want_mc && o.precision) {
    if (const auto miss = precision_missed(reports, jobs, complete, *o.precision)) {
      if (g_stop.load()) {
        fmt::print(stderr,
                   "salvo: interrupted: --precision {} not reached for {} ({}) after {} trials (widest "
                   "95% half-width {:.6f}, {}); nothing written\n",
                   *o.precision, miss->name, miss->file, miss->trials, miss->half_width, miss->quantity);
        return kExitInterrupted;
      }
      fmt::print(stderr,
                 "salvo: warning: --precision {} not reached within {} trials for {} situation(s), "
                 "e.g. {} ({}): widest 95% half-width {:.6f} ({}); the table shows the intervals "
                 "reached\n",
                 *o.precision, o.trials, miss->count, miss->name, miss->file, miss->half_width,
                 miss->quantity);
    } else if (g_stop.load() && complete < n) {
      fmt::print(stderr,
                 "salvo: interrupted: --precision {} reached for {} of {} situations; nothing written\n",
                 *o.precision, complete, n);
      return kExitInterrupted;
    }
  }

  const bool interrupted = g_stop.load() || complete < n;
  reports.resize(complete);

  sim::Provenance prov;
  prov.method = o.method;
  prov.seed = o.seed;
  prov.trials = o.trials;
  prov.precision = o.precision;
  prov.threads = threads;
  // One ruleset per run is the common case; several are recorded side by side.
  for (const RulesData& r : rules_data_of(jobs)) {
    if (!prov.rules_data_version.empty()) prov.rules_data_version += ", ";
    prov.rules_data_version += r.version;
    prov.rules_data_hash ^= r.hash;
  }
  prov.interrupted = interrupted;
  prov.situations_total = n;

  write_output(o.output, o.html ? html_odds_page(reports, prov, jobs) : sim::format_odds(reports, prov, o.format));
  return interrupted ? kExitInterrupted : kExitOk;
}

int run_explain(const std::vector<std::string>& paths, std::size_t max_situations) {
  JobOptions options;
  options.explain = true;
  options.max_situations = max_situations;
  const std::vector<Job> jobs = load_jobs(paths, options);
  std::string out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i) out += '\n';
    out += jobs[i].explain;
  }
  write_output("", out);
  return kExitOk;
}

void write_output(const std::string& path, std::string_view text) {
  if (path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  auto fail = [&path](int err) {
    return load::InputError(fmt::format("salvo: cannot write {}: {}", path, std::strerror(err)));
  };
  const std::string tmp = fmt::format("{}.tmp.{}", path, getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw fail(errno);
  const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  int err = errno;
  const bool closed = std::fclose(f) == 0;
  if (!closed && wrote) err = errno;
  if (!wrote || !closed) {
    std::remove(tmp.c_str());
    throw fail(err);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    std::remove(tmp.c_str());
    throw fail(err);
  }
}

}  // namespace salvo::cli
