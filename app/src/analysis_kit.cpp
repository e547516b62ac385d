// What the analysis commands share: their flags, provenance lines, charts drawn by
// scripts/chart.py, and distributions for the charts (pages are laid out by report/html.h).
#include "analysis_kit.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "salvo/app/commands.h"
#include "salvo/app/progress.h"
#include "salvo/app/runner.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/distribution.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/parallel.h"
#include "salvo/sim/stats.h"

extern char** environ;

namespace salvo::app::kit {

// ---------------------------------------------------------------------------------------------
// Flags

Settings settings_of(const AnalysisFlags& f, std::initializer_list<const char*> formats) {
  Settings s;
  const auto m = report::parse_method_choice(f.method);
  if (!m || *m == report::MethodChoice::kAuto)
    throw UsageError(fmt::format("--method: expected exact, mc or both, got {}", f.method));
  s.run.method = *m;
  s.run.trials = integer_flag("--trials", f.trials, 1, 1'000'000'000'000);
  s.run.seed = integer_flag("--seed", f.seed, 0, std::numeric_limits<std::uint64_t>::max());
  const auto t = static_cast<int>(integer_flag("--threads", f.threads, 0, 1024));
  s.run.threads = t > 0 ? t : sim::default_concurrency();
  bool ok = false;
  std::string list;
  for (const char* name : formats) {
    ok = ok || f.format == name;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  if (!ok) throw UsageError(fmt::format("--format: expected {}, got {}", list, f.format));
  s.format = f.format;
  return s;
}

SourceOptions source_options(const AnalysisFlags& flags, bool explain) {
  SourceOptions o;
  o.explain = explain;
  o.limits.max_file_bytes = max_file_size_flag(flags.max_file_size);
  return o;
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Provenance and names

std::string provenance_text(const report::Provenance& p) {
  std::string s =
      fmt::format("{} | method {} | rules data {} #{}", version_line(), report::method_choice_name(p.method),
                  p.rules_data_version, report::hex16(p.rules_data_hash));
  if (p.method != report::MethodChoice::kExact)
    s += fmt::format(" | seed {} | {} trials | {} (results do not depend on {})", p.seed, p.trials,
                     report::workers_text(p), p.ranks > 1 || p.shards > 1 ? "them" : "it");
  return s;
}

Json provenance_json(const report::Provenance& p, const char* command) {
  Json j;
  j["salvo"] = {{"version", std::string(report::version())}, {"git", std::string(report::git_revision())}};
  j["command"] = command;
  j["method"] = std::string(report::method_choice_name(p.method));
  j["seed"] = p.seed;
  j["trials"] = p.trials;
  j["threads"] = p.threads;
  if (p.ranks > 1) j["ranks"] = p.ranks;
  if (p.shards > 1) j["shards"] = p.shards;
  j["rules_data"] = {{"version", p.rules_data_version}, {"hash", report::hex16(p.rules_data_hash)}};
  return j;
}

std::string sweep_text(const std::vector<std::pair<std::string, std::string>>& sweep) {
  std::string s;
  for (const auto& [k, v] : sweep) s += (s.empty() ? "" : ", ") + k + " = " + v;
  return s;
}

std::string pct(double v) { return report::format_percent(v); }
std::string pts(double v) { return fmt::format("{:+.1f}", 100.0 * v); }

// ---------------------------------------------------------------------------------------------
// Charts: scripts/chart.py under /usr/bin/python3 (matplotlib)

std::string python_path() {
  if (const char* p = std::getenv("SALVO_PYTHON"); p && *p) return p;
  return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

std::string chart_script() {
  if (const char* p = std::getenv("SALVO_CHART_SCRIPT"); p && *p) return p;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec)
    for (const char* rel : {"scripts/chart.py", "../scripts/chart.py", "../share/salvo/chart.py"})
      candidates.push_back(exe.parent_path() / rel);
#ifdef SALVO_SOURCE_DIR
  candidates.push_back(fs::path(SALVO_SOURCE_DIR) / "scripts/chart.py");
#endif
  for (const fs::path& c : candidates)
    if (fs::exists(c)) return fs::weakly_canonical(c).string();
  throw IoError("salvo: chart: cannot find scripts/chart.py (set SALVO_CHART_SCRIPT)");
}

/// A temporary directory removed on destruction.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "salvo-chart-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw IoError(fmt::format("salvo: cannot create a temporary directory: {}", std::strerror(errno)));
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// Run a program (no shell); its stdout goes to /dev/null, stderr to `err`. Returns the exit code.
int run_program(const std::vector<std::string>& args, const fs::path& err) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> a = args;
  std::vector<char*> argv;
  for (auto& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return 127;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Draw one chart from `data`; writes OUT_STEM.png and OUT_STEM.svg. Throws IoError with
/// chart.py's message when it cannot draw (matplotlib missing), InputError when it refuses what
/// was asked (a sweep key the data lacks).
void draw_chart(const Json& data, const std::vector<std::string>& chart_args, const fs::path& out_stem) {
  TempDir tmp;
  const fs::path data_path = tmp.path() / "data.json";
  std::ofstream(data_path) << data.dump();
  const std::string script = chart_script();
  if (!fs::exists(script)) throw IoError("salvo: chart: cannot find " + script + " (SALVO_CHART_SCRIPT)");
  std::vector<std::string> args{python_path(), script, data_path.string()};
  args.insert(args.end(), chart_args.begin(), chart_args.end());
  args.push_back("--out");
  args.push_back(out_stem.string());
  const fs::path err = tmp.path() / "stderr";
  const int rc = run_program(args, err);
  if (rc != 0) {
    std::string msg = read_file(err);
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    if (rc == 127 && msg.empty()) msg = "cannot run " + args[0];
    const std::string what = "salvo: chart: " + (msg.empty() ? fmt::format("chart.py exited with {}", rc) : msg);
    // chart.py exits 3 without matplotlib, 127 is a python that cannot be run: the output
    // cannot be produced (exit 4); its other refusals are about the data asked for (exit 2).
    if (rc == 3 || rc == 127) throw IoError(what);
    throw load::InputError(what);
  }
}

/// The SVG element of a chart file, for inlining in HTML.
std::string inline_svg(const fs::path& svg) {
  const std::string s = read_file(svg);
  const auto at = s.find("<svg");
  return at == std::string::npos ? std::string() : s.substr(at);
}

// ---------------------------------------------------------------------------------------------
// Computing odds and distributions for charts and pages

Computed compute(const SituationSource& source, const RunSettings& s) {
  Computed c;
  c.status = run_situations(source, s, [&c](Job&& job, report::SituationReport&& r) {
    c.jobs.push_back(std::move(job));
    c.reports.push_back(std::move(r));
  });
  return c;
}

Json distribution_json(const sim::Distribution& d) {
  Json j;
  j["method"] = d.method == sim::Method::kExact ? "exact" : "mc";
  j["trials"] = d.trials;
  Json p = Json::array(), lo = Json::array(), hi = Json::array();
  for (const sim::Estimate& e : d.p) {
    p.push_back(e.value);
    lo.push_back(e.lo);
    hi.push_back(e.hi);
  }
  j["p"] = p;
  j["lo"] = lo;
  j["hi"] = hi;
  return j;
}

int index_of(const std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

/// Per situation, the distributions of hits and of the run's outcome (the ruleset's hits counter
/// and the flag shown apart, from its display hints): exact unless the settings are Monte Carlo
/// only. No "hits" for a situation whose ruleset counts none (a fight).
Json distributions(const std::vector<Job>& jobs, const RunSettings& s, sim::Window window) {
  Json all = Json::array();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const RollProgram& p = jobs[i].program;
    const DisplayHints& h = *jobs[i].hints;
    const int hits = h.hits_counter.empty() ? -1 : index_of(p.counter_names, h.hits_counter);
    const int apart = h.outcome_apart_flag.empty() ? -1 : index_of(p.flag_names, h.outcome_apart_flag);
    Json d;
    if (s.method == report::MethodChoice::kMonteCarlo) {
      sim::McDistributionOptions o;
      o.seed = s.seed;
      o.situation_key = i;
      o.trials = s.trials;
      o.threads = s.threads;
      const sim::McDistributions m = sim::mc_distributions(p, o, window, std::max(hits, 0), kHitsCap, apart);
      if (hits >= 0) d["hits"] = distribution_json(m.counter);
      d["outcomes"] = distribution_json(m.outcome);
    } else {
      if (hits >= 0) d["hits"] = distribution_json(sim::exact_counter_distribution(p, window, hits, kHitsCap));
      d["outcomes"] = distribution_json(sim::exact_outcome_distribution(p, window, apart));
    }
    d["outcomes"]["outcome_names"] = p.outcome_names;
    all.push_back(std::move(d));
  }
  return all;
}

/// The odds JSON of the reports plus, if given, each situation's distributions.
Json chart_data(const std::vector<report::SituationReport>& reports, const report::Provenance& prov,
                const Json* dists) {
  Json data = Json::parse(report::format_odds(reports, prov, report::Format::kJson));
  if (dists)
    for (std::size_t i = 0; i < reports.size() && i < dists->size(); ++i)
      if (!(*dists)[i].is_null()) data["situations"][i]["distributions"] = (*dists)[i];
  return data;
}

bool is_fight(const report::SituationReport& r) {
  return std::any_of(r.names.turn_series.begin(), r.names.turn_series.end(), [](const RollProgram::TurnSeries& ts) {
    return ts.kind == RollProgram::TurnSeries::Kind::kEndReason && ts.name == "a_wins";
  });
}

/// Charts for a page: drawn into a temporary directory, each one's SVG element; why not, if they
/// cannot all be drawn.
report::HtmlCharts draw_charts(const std::vector<std::pair<Json, std::vector<std::string>>>& charts) {
  report::HtmlCharts c;
  try {
    TempDir tmp;
    int n = 0;
    for (const auto& [data, args] : charts) {
      const fs::path stem = tmp.path() / fmt::format("chart{}", n++);
      draw_chart(data, args, stem);
      c.svgs.push_back(inline_svg(stem.string() + ".svg"));
    }
  } catch (const std::exception& e) {
    c.unavailable = e.what();
  }
  return c;
}

Json estimate_json(const sim::Estimate& e) {
  // A mean of fewer than 2 trials has no interval: no lo and hi, as in `odds --format json`.
  if (!sim::has_interval(e)) return Json{{"p", e.value}, {"no_interval", "fewer than 2 trials"}};
  return Json{{"p", e.value}, {"lo", e.lo}, {"hi", e.hi}};
}

}  // namespace salvo::app::kit
