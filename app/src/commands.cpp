// The `salvo` commands: validate flags, load every situation, compile and run them a batch at a
// time, format and write.

#include "salvo/app/commands.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <tuple>

#include "salvo/app/analysis.h"
#include "salvo/app/progress.h"
#include "salvo/app/runner.h"
#include "salvo/app/shard.h"
#include "salvo/app/source.h"
#include "salvo/app/spill.h"
#include "salvo/core/text.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/stats.h"

namespace salvo::app {
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
  const std::optional<double> v = parse_number(text);
  if (!v || !(*v > 0.0) || !(*v < 0.5))
    throw UsageError(fmt::format("--precision: expected a number in (0, 0.5), got {}", text));
  return *v;
}

/// 128 + the stop signal this process received; 130 (SIGINT's) when another rank of the run
/// was the one stopped.
int interrupted_exit_code() {
  const int signalled = stop_exit_code();
  return signalled != 0 ? signalled : kExitInterrupted;
}

/// --format html holds every situation (its table, charts and explain trail) in one page.
constexpr std::size_t kMaxHtmlSituations = 10'000;

}  // namespace

// ---------------------------------------------------------------------------------------------

OddsOptions odds_options(const OddsFlags& flags) {
  OddsOptions o;
  o.files = flags.files;
  const auto method = report::parse_method_choice(flags.method);
  if (!method) throw UsageError(fmt::format("--method: expected auto, exact, mc or both, got {}", flags.method));
  o.method = *method;
  o.html = flags.format == "html";
  const auto format =
      o.html ? std::optional<report::Format>(report::Format::kText) : report::parse_format(flags.format);
  if (!format) throw UsageError(fmt::format("--format: expected text, csv, json, md or html, got {}", flags.format));
  o.format = *format;
  if (flags.trials) o.trials = integer_flag("--trials", *flags.trials, 1, kMaxTrials);
  if (flags.precision) {
    o.precision = precision_flag(*flags.precision);
    if (o.method == report::MethodChoice::kExact || o.method == report::MethodChoice::kAuto)
      throw UsageError("--precision: needs --method mc or both (exact results have no error)");
    // With a target precision --trials is the cap; without it, the engine's default cap.
    if (!flags.trials) o.trials = sim::McOptions{}.max_trials;
  }
  o.seed = integer_flag("--seed", flags.seed, 0, std::numeric_limits<std::uint64_t>::max());
  o.threads = static_cast<int>(integer_flag("--threads", flags.threads, 0, kMaxThreads));
  o.output = flags.output;
  o.max_situations = max_situations_flag(flags.max_situations);
  o.max_file_bytes = max_file_size_flag(flags.max_file_size);
  if (flags.shard) {
    std::tie(o.shard, o.shards) = shard_flag(*flags.shard);
    if (flags.format != "text")
      throw UsageError("--shard: a shard is written as a shard file (JSON); give --format to salvo merge");
  }
  return o;
}

std::uint64_t integer_flag(std::string_view flag, std::string_view text, std::uint64_t lo, std::uint64_t hi) {
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
  static constexpr Unit kUnits[] = {{"", 0},    {"B", 0},    {"K", 10}, {"KB", 10}, {"KIB", 10}, {"M", 20},
                                    {"MB", 20}, {"MIB", 20}, {"G", 30}, {"GB", 30}, {"GIB", 30}};
  int shift = -1;
  for (const Unit& u : kUnits)
    if (unit == u.name) shift = u.shift;
  const auto value = to_u64(text.substr(0, digits));
  const std::uint64_t limit = load::kMaxFileBytesLimit;
  if (shift < 0 || !value || *value == 0 || *value > (limit >> shift))
    throw UsageError(
        fmt::format("--max-file-size: expected a size from 1 byte to 1GiB (e.g. 4MiB, 512KiB, 100000), got {}", text));
  return static_cast<std::size_t>(*value << shift);
}

std::size_t max_situations_flag(std::string_view text) {
  return static_cast<std::size_t>(integer_flag("--max-situations", text, 1, kMaxSituationsLimit));
}

RunSettings odds_settings(const OddsOptions& o) {
  return {.method = o.method,
          .trials = o.trials,
          .precision = o.precision,
          .seed = o.seed,
          .threads = o.threads > 0 ? o.threads : sim::default_concurrency(),
          .team = o.team,
          .jobs_needed = o.html,
          .max_exact_states = kMaxExactStates};
}

std::string odds_table(const SituationSource& source, const OddsOptions& o) {
  const RunSettings settings = odds_settings(o);
  std::vector<report::SituationReport> reports;
  const RunStatus status =
      run_situations(source, settings, [&](Job&&, report::SituationReport&& r) { reports.push_back(std::move(r)); });
  report::Provenance prov = provenance_of(source, settings, status);
  prov.interrupted = status.interrupted;
  return report::format_odds(reports, prov, o.format);
}

int run_odds(const OddsOptions& o) {
  install_stop_signals();

  // Every file loaded and checked by its ruleset before any work. The runner compiles and runs
  // the situations a batch at a time; each finished one goes to the spill (or, for the HTML
  // page, stays in memory), so nothing reaches the output before the last one.
  SourceOptions source_options;
  source_options.limits.max_situations = o.max_situations;
  source_options.limits.max_file_bytes = o.max_file_bytes;
  source_options.explain = o.html;  // the page carries the explain trail
  const SituationSource source(o.files, source_options);
  const bool root = o.team == nullptr || o.team->rank() == 0;             // spread over MPI ranks: rank 0 writes
  if (root) check_output_path(o.output, file_ids(source.input_paths()));  // before any work
  const std::size_t n = source.size();
  if (o.html && n > kMaxHtmlSituations)
    throw UsageError(fmt::format("--format html: {} situations, more than a page holds ({}); use csv, json, md or text",
                                 n, kMaxHtmlSituations));

  const RunSettings settings = odds_settings(o);
  std::optional<ReportSpill> spill;
  if (!o.html) spill.emplace();
  std::vector<Job> html_jobs;
  std::vector<report::SituationReport> html_reports;
  const RunStatus status = run_situations(source, settings, [&](Job&& job, report::SituationReport&& r) {
    if (spill) {
      spill->append(r);
    } else {
      html_jobs.push_back(std::move(job));
      html_reports.push_back(std::move(r));
    }
  });

  // A precision that was asked for and not reached: an interrupted run writes nothing (its
  // table would not be what was asked for); a run that hit the --trials cap says so.
  if (settings.mc() && o.precision) {
    if (const auto& miss = status.miss) {
      if (status.stopped) {
        if (!root) return interrupted_exit_code();
        fmt::print(stderr,
                   "salvo: interrupted: --precision {} not reached for {} ({}) after {} trials (widest "
                   "95% half-width {}, {}); nothing written\n",
                   *o.precision, miss->name, miss->file, miss->trials, half_width_text(miss->half_width),
                   miss->quantity);
        return interrupted_exit_code();
      }
      if (root)
        fmt::print(stderr,
                   "salvo: warning: --precision {} not reached within {} trials for {} situation(s), "
                   "e.g. {} ({}): widest 95% half-width {} ({}); the table shows the intervals "
                   "reached\n",
                   *o.precision, o.trials, miss->count, miss->name, miss->file, half_width_text(miss->half_width),
                   miss->quantity);
    } else if (status.stopped && status.complete < n) {
      if (root)
        fmt::print(stderr, "salvo: interrupted: --precision {} reached for {} of {} situations; nothing written\n",
                   *o.precision, status.complete, n);
      return interrupted_exit_code();
    }
  }
  if (!root) return status.interrupted ? interrupted_exit_code() : kExitOk;

  report::Provenance prov = provenance_of(source, settings, status);
  prov.interrupted = status.interrupted;
  if (o.html) {
    write_output(o.output, html_odds_page(html_reports, prov, html_jobs, settings));
  } else {
    Output out(o.output);
    report::write_odds(*spill, prov, o.format, [&out](std::string_view piece) { out.write(piece); });
    out.commit();
  }
  // A stop signal, even one that came after the last situation, gives 128 + the signal.
  if (const int signalled = stop_exit_code()) return signalled;
  return status.interrupted ? interrupted_exit_code() : kExitOk;
}

int run_explain(const std::vector<std::string>& paths, std::size_t max_situations, std::size_t max_file_bytes) {
  SourceOptions options;
  options.explain = true;
  options.limits.max_situations = max_situations;
  options.limits.max_file_bytes = max_file_bytes;
  std::string out;
  for (const std::string& path : paths) {  // each file explained before the next is loaded
    const std::string text = explain_text(SituationSource(std::vector<std::string>{path}, options));
    if (!out.empty() && !text.empty()) out += '\n';
    out += text;
  }
  write_output("", out);
  return kExitOk;
}

std::string explain_text(const SituationSource& source) {
  std::string out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (i > 0) out += '\n';
    out += source.compile(i).explain;
  }
  return out;
}

ErrorExit error_exit(const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e)) return {fmt::format("salvo: {}", e.what()), kExitInput};
  if (dynamic_cast<const IoError*>(&e)) return {e.what(), kExitIo};
  if (dynamic_cast<const load::InputError*>(&e)) return {e.what(), kExitInput};
  return {fmt::format("salvo: internal error: {}", e.what()), kExitInternal};
}

}  // namespace salvo::app
