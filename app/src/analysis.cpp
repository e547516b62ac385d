// The analysis commands: compare, sensitivity, chart, and the HTML page of `odds`.

#include "salvo/app/analysis.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <tbb/info.h>

#include "salvo/app/commands.h"
#include "salvo/app/progress.h"
#include "salvo/app/runner.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/distribution.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/stats.h"

extern char** environ;

namespace salvo::app {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Flags

struct Settings {
  RunSettings run;
  std::string format = "text";
};

Settings settings_of(const AnalysisFlags& f, std::initializer_list<const char*> formats) {
  Settings s;
  const auto m = report::parse_method_choice(f.method);
  if (!m) throw UsageError(fmt::format("--method: expected exact, mc or both, got {}", f.method));
  s.run.method = *m;
  s.run.trials = integer_flag("--trials", f.trials, 1, 1'000'000'000'000);
  s.run.seed = integer_flag("--seed", f.seed, 0, std::numeric_limits<std::uint64_t>::max());
  const auto t = static_cast<int>(integer_flag("--threads", f.threads, 0, 1024));
  s.run.threads = t > 0 ? t : tbb::info::default_concurrency();
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

SourceOptions source_options(const AnalysisFlags& flags, bool explain = false) {
  SourceOptions o;
  o.explain = explain;
  o.limits.max_file_bytes = max_file_size_flag(flags.max_file_size);
  return o;
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Provenance and names

std::string provenance_text(const report::Provenance& p) {
  std::string s = fmt::format("{} | method {} | rules data {} #{}", version_line(), report::method_choice_name(p.method),
                              p.rules_data_version, report::hex16(p.rules_data_hash));
  if (p.method != report::MethodChoice::kExact)
    s += fmt::format(" | seed {} | {} trials | {} threads (results do not depend on it)", p.seed, p.trials, p.threads);
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
  j["rules_data"] = {{"version", p.rules_data_version}, {"hash", report::hex16(p.rules_data_hash)}};
  return j;
}

std::string sweep_text(const std::vector<std::pair<std::string, std::string>>& sweep) {
  std::string s;
  for (const auto& [k, v] : sweep) s += (s.empty() ? "" : ", ") + k + " = " + v;
  return s;
}

std::string quantity_label(const std::string& name) {
  if (name.rfind("p_", 0) == 0) {
    std::string n = name.substr(2);
    std::replace(n.begin(), n.end(), '_', ' ');
    return "P(" + n + ")";
  }
  if (name.rfind("e_", 0) == 0) return "E[" + name.substr(2) + "]";
  return name;
}

std::string pct(double v) { return report::format_percent(v); }
std::string pts(double v) { return fmt::format("{:+.1f}", 100.0 * v); }

// ---------------------------------------------------------------------------------------------
// HTML

std::string html_escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

constexpr const char* kCss = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px auto;max-width:1100px;color:#222;background:#fff}
h1{font-size:22px;border-bottom:3px solid #7f2704;padding-bottom:6px}
h2{font-size:17px;margin-top:28px;color:#7f2704}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}
th{background:#f3e9df}
td.l,th.l{text-align:left}
pre{background:#f7f7f7;border:1px solid #ddd;padding:10px;font-size:12px;overflow-x:auto}
.chart svg{max-width:100%;height:auto}
.prov{font-size:12px;color:#555}
.note{font-size:12px;color:#7a4a00}
)";

std::string html_page(const std::string& title, const std::string& body, const std::string& provenance) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n"
      "<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n{2}\n<h2>Provenance</h2>\n<p class=\"prov\">{3}</p>\n"
      "</body>\n</html>\n",
      html_escape(title), kCss, body, html_escape(provenance));
}

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
    if (!mkdtemp(tmpl.data())) throw IoError(fmt::format("salvo: cannot create a temporary directory: {}", std::strerror(errno)));
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

constexpr int kHitsCap = 5;

/// Every situation of `source` through the runner, kept in memory (charts and pages hold a
/// handful). Interrupted: the situations finished.
struct Computed {
  std::vector<Job> jobs;
  std::vector<report::SituationReport> reports;
  RunStatus status;
};

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
/// only. Null for a situation whose ruleset counts no hits.
Json distributions(const std::vector<Job>& jobs, const RunSettings& s, sim::Window window) {
  Json all = Json::array();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const RollProgram& p = jobs[i].program;
    const DisplayHints& h = jobs[i].ruleset->hints();
    const int hits = h.hits_counter.empty() ? -1 : index_of(p.counter_names, h.hits_counter);
    const int apart = h.outcome_apart_flag.empty() ? -1 : index_of(p.flag_names, h.outcome_apart_flag);
    Json d;  // null
    if (hits >= 0) {
      if (s.method == report::MethodChoice::kMonteCarlo) {
        sim::McDistributionOptions o;
        o.seed = s.seed;
        o.situation_key = i;
        o.trials = s.trials;
        o.threads = s.threads;
        const sim::McDistributions m = sim::mc_distributions(p, o, window, hits, kHitsCap, apart);
        d["hits"] = distribution_json(m.counter);
        d["outcomes"] = distribution_json(m.outcome);
      } else {
        d["hits"] = distribution_json(sim::exact_counter_distribution(p, window, hits, kHitsCap));
        d["outcomes"] = distribution_json(sim::exact_outcome_distribution(p, window, apart));
      }
      d["outcomes"]["outcome_names"] = p.outcome_names;
    }
    all.push_back(std::move(d));
  }
  return all;
}

/// The odds JSON of the reports plus, if given, each situation's distributions.
Json chart_data(const std::vector<report::SituationReport>& reports, const report::Provenance& prov, const Json* dists) {
  Json data = Json::parse(report::format_odds(reports, prov, report::Format::kJson));
  if (dists)
    for (std::size_t i = 0; i < reports.size() && i < dists->size(); ++i)
      if (!(*dists)[i].is_null()) data["situations"][i]["distributions"] = (*dists)[i];
  return data;
}

// ---------------------------------------------------------------------------------------------
// compare

struct ComparedPoint {
  std::size_t a = 0, b = 0;  // job indices
  std::uint64_t point = 0;   // sweep point (the situation key of the dice streams)
  std::optional<sim::Comparison> exact, mc;
};

/// Compare's text shows the key quantities of the display hints, each in its window.
bool shown(const DisplayHints& h, const sim::QuantityDiff& q) {
  return std::any_of(h.key.begin(), h.key.end(),
                     [&q](const DisplayHints::Key& k) { return k.quantity == q.name && k.run == (q.window == sim::Window::kRun); });
}

std::string compare_text(const std::vector<Job>& jobs, const std::vector<ComparedPoint>& points,
                         const report::Provenance& prov) {
  const DisplayHints& hints = prov.hints;
  std::string o;
  for (const ComparedPoint& c : points) {
    const Job& a = jobs[c.a];
    const Job& b = jobs[c.b];
    o += fmt::format("A: {} ({})\nB: {} ({})\n", a.name, a.file, b.name, b.file);
    if (!a.sweep.empty()) o += fmt::format("at {}\n", sweep_text(a.sweep));
    for (const sim::Comparison* cmp : {c.exact ? &*c.exact : nullptr, c.mc ? &*c.mc : nullptr}) {
      if (!cmp) continue;
      const bool mc = cmp->method == sim::Method::kMonteCarlo;
      o += mc ? fmt::format("Monte Carlo, common dice, {} trials:\n", cmp->trials) : "exact:\n";
      o += fmt::format("  {:<11} {:<16} {:>7} {:>7}  {:<26} {:>11} {:>11}\n", "window", "quantity", "A", "B",
                       mc ? "A - B (points) [95%]" : "A - B (points)", "P(A better)", "P(B better)");
      for (const sim::QuantityDiff& q : cmp->quantities) {
        if (!shown(hints, q)) continue;
        const bool p = q.name.rfind("p_", 0) == 0;
        const auto val = [p](double v) { return p ? pct(v) : fmt::format("{:.3f}", v); };
        std::string diff = p ? pts(q.diff.value) : fmt::format("{:+.3f}", q.diff.value);
        if (mc)
          diff += p ? fmt::format(" [{}, {}]", pts(q.diff.lo), pts(q.diff.hi))
                    : fmt::format(" [{:+.3f}, {:+.3f}]", q.diff.lo, q.diff.hi);
        const int dir = hints.direction(q.name);
        const std::string pa = dir == 0 ? "-" : pct(dir > 0 ? q.p_a_higher : q.p_b_higher);
        const std::string pb = dir == 0 ? "-" : pct(dir > 0 ? q.p_b_higher : q.p_a_higher);
        o += fmt::format("  {:<11} {:<16} {:>7} {:>7}  {:<26} {:>11} {:>11}\n",
                         q.window == sim::Window::kFirst ? hints.first_window : hints.run_window, quantity_label(q.name),
                         val(q.a.value), val(q.b.value), diff, pa, pb);
      }
      if (mc)
        for (const sim::QuantityDiff& q : cmp->quantities)
          if (!hints.headline.empty() && q.name == hints.headline && q.window == sim::Window::kRun)
            o += fmt::format("  on the same dice, the phase kills with A only in {} of trials, with B only in {}\n",
                             pct(q.paired_a_higher->value), pct(q.paired_b_higher->value));
    }
    o += "\n";
  }
  o += "P(A better): the chance that A's phase (or first shot) does better than B's, each rolled on its own dice.\n";
  o += provenance_text(prov) + "\n";
  return o;
}

Json estimate_json(const sim::Estimate& e) {
  // A mean of fewer than 2 trials has no interval: no lo and hi, as in `odds --format json`.
  if (!sim::has_interval(e)) return Json{{"p", e.value}, {"no_interval", "fewer than 2 trials"}};
  return Json{{"p", e.value}, {"lo", e.lo}, {"hi", e.hi}};
}

Json compare_json(const std::vector<Job>& jobs, const std::vector<ComparedPoint>& points, const report::Provenance& prov) {
  Json j = provenance_json(prov, "compare");
  j["situations"] = Json::array();
  for (const Job& job : jobs) j["situations"].push_back({{"file", job.file}, {"name", job.name}});
  j["comparisons"] = Json::array();
  for (const ComparedPoint& c : points)
    for (const sim::Comparison* cmp : {c.exact ? &*c.exact : nullptr, c.mc ? &*c.mc : nullptr}) {
      if (!cmp) continue;
      Json x;
      x["a"] = {{"file", jobs[c.a].file}, {"name", jobs[c.a].name}};
      x["b"] = {{"file", jobs[c.b].file}, {"name", jobs[c.b].name}};
      Json sw = Json::object();
      for (const auto& [k, v] : jobs[c.a].sweep) sw[k] = v;
      x["sweep"] = sw;
      x["method"] = cmp->method == sim::Method::kExact ? "exact" : "mc";
      x["trials"] = cmp->trials;
      x["interrupted"] = cmp->interrupted;
      x["quantities"] = Json::array();
      for (const sim::QuantityDiff& q : cmp->quantities) {
        Json y;
        y["name"] = q.name;
        y["window"] = q.window == sim::Window::kFirst ? "first_shot" : "phase";
        y["a"] = estimate_json(q.a);
        y["b"] = estimate_json(q.b);
        y["diff"] = estimate_json(q.diff);
        const int dir = prov.hints.direction(q.name);
        y["p_a_higher"] = q.p_a_higher;
        y["p_b_higher"] = q.p_b_higher;
        y["p_a_better"] = dir == 0 ? Json(nullptr) : Json(dir > 0 ? q.p_a_higher : q.p_b_higher);
        y["p_b_better"] = dir == 0 ? Json(nullptr) : Json(dir > 0 ? q.p_b_higher : q.p_a_higher);
        if (q.paired_a_higher) {
          y["paired_a_higher"] = estimate_json(*q.paired_a_higher);
          y["paired_b_higher"] = estimate_json(*q.paired_b_higher);
        }
        x["quantities"].push_back(y);
      }
      j["comparisons"].push_back(x);
    }
  return j;
}

std::string compare_md(const std::string& text) { return "```\n" + text + "```\n"; }

// ---------------------------------------------------------------------------------------------
// Odds tables in HTML

std::string odds_table_html(const std::vector<report::SituationReport>& reports, const DisplayHints& hints) {
  std::vector<std::pair<std::string, bool>> cols;  // the key quantities of the display hints
  for (const auto& k : hints.key) cols.emplace_back(k.quantity, k.run);
  std::vector<std::string> keys;
  for (const auto& r : reports)
    for (const auto& [k, v] : r.sweep)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::string h = "<table>\n<tr><th class=\"l\">situation</th>";
  // Names and sweep labels as the text table shows them (control characters escaped), then HTML-escaped
  for (const auto& k : keys) h += "<th>" + html_escape(report::printable(k)) + "</th>";
  h += "<th>method</th>";
  for (const auto& [q, phase] : cols)
    h += "<th>" + html_escape(quantity_label(q)) + "<br>" + html_escape(phase ? hints.run_window : hints.first_window) + "</th>";
  h += "</tr>\n";
  for (const auto& r : reports)
    for (const sim::RunResult* res : {r.exact ? &*r.exact : nullptr, r.mc ? &*r.mc : nullptr}) {
      if (!res) continue;
      const bool mc = res->method == sim::Method::kMonteCarlo;
      h += "<tr><td class=\"l\">" + html_escape(report::printable(r.name)) + "</td>";
      for (const auto& k : keys) {
        std::string v;
        for (const auto& [sk, sv] : r.sweep)
          if (sk == k) v = sv;
        h += "<td>" + html_escape(report::printable(v)) + "</td>";
      }
      h += std::string("<td>") + (mc ? "mc" : "exact") + "</td>";
      for (const auto& [q, phase] : cols) {
        const sim::WindowStats& w = phase ? res->run : res->first;
        const bool p = q.rfind("p_", 0) == 0;
        const int i = index_of(p ? r.names.flags : r.names.counters, q.substr(2));
        std::string cell = "-";
        if (i >= 0) {
          const sim::Estimate& e = p ? w.flags[static_cast<std::size_t>(i)] : w.counters[static_cast<std::size_t>(i)];
          cell = p ? pct(e.value) : fmt::format("{:.3f}", e.value);
          // As the Markdown table: a mean without an interval (fewer than 2 trials) "±?", one
          // clamped at 0 as [lo, hi]
          if (mc && p) cell += fmt::format(" <small>±{:.1f}</small>", 50.0 * (e.hi - e.lo));
          else if (mc && !sim::has_interval(e)) cell += " <small>±?</small>";
          else if (mc && e.value - e.lo < e.hi - e.value) cell += fmt::format(" <small>[{:.3f}, {:.3f}]</small>", e.lo, e.hi);
          else if (mc) cell += fmt::format(" <small>±{:.3f}</small>", (e.hi - e.lo) / 2);
        }
        h += "<td>" + cell + "</td>";
      }
      h += "</tr>\n";
    }
  return h + "</table>\n";
}

/// Charts for a page: drawn into a temporary directory and inlined; an explanation instead if
/// they cannot be drawn.
std::string charts_html(const std::vector<std::pair<Json, std::vector<std::string>>>& charts) {
  std::string h;
  try {
    TempDir tmp;
    int n = 0;
    for (const auto& [data, args] : charts) {
      const fs::path stem = tmp.path() / fmt::format("chart{}", n++);
      draw_chart(data, args, stem);
      h += "<div class=\"chart\">" + inline_svg(stem.string() + ".svg") + "</div>\n";
    }
  } catch (const std::exception& e) {
    h += "<p class=\"note\">Charts unavailable: " + html_escape(e.what()) + "</p>\n";
  }
  return h;
}

/// The first sweep key with numeric values in every report (fire.range preferred).
std::optional<std::string> numeric_sweep_key(const std::vector<report::SituationReport>& reports) {
  std::vector<std::string> keys;
  for (const auto& r : reports)
    for (const auto& [k, v] : r.sweep)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a == "fire.range" && b != "fire.range"; });
  for (const auto& k : keys) {
    bool all = true;
    std::set<std::string> distinct;
    for (const auto& r : reports) {
      bool found = false;
      for (const auto& [sk, sv] : r.sweep)
        if (sk == k) {
          double d = 0;
          const auto [end, ec] = std::from_chars(sv.data(), sv.data() + sv.size(), d);
          found = ec == std::errc{} && end == sv.data() + sv.size();
          distinct.insert(sv);
        }
      all = all && found;
    }
    if (all && distinct.size() > 1) return k;
  }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string html_odds_page(const std::vector<report::SituationReport>& reports, const report::Provenance& prov,
                           const std::vector<Job>& jobs, const RunSettings& settings) {
  std::string body;
  // An interrupted run is marked as the text table marks it: the trials run, the situations
  // reported (the provenance line states the trials asked for)
  std::uint64_t trials_run = 0;
  bool interrupted = prov.interrupted;
  for (const auto& r : reports)
    if (r.mc) {
      trials_run += r.mc->trials;
      interrupted = interrupted || r.mc->interrupted;
    }
  std::string stopped;
  if (interrupted) {
    stopped = report::interrupted_line(trials_run, reports.size(), prov);
    stopped.pop_back();  // its newline
    body += "<p class=\"note\"><strong>" + html_escape(stopped) +
            "</strong>: the run was stopped before it finished; the table holds the situations reported, "
            "with the intervals of the trials run.</p>\n";
  }
  body += "<h2>Odds</h2>\n";
  body += "<p>Every probability with its method; Monte Carlo values carry their 95% half-width in points "
          "(a mean: ±? with fewer than 2 trials, [lo, hi] when its interval stops at 0).</p>\n";
  body += odds_table_html(reports, prov.hints);

  // Charts: the headline along a numeric sweep key; the run's outcomes; hits per run. The
  // distributions of a handful of situations, with the run's settings (exact when the run had
  // exact results).
  std::vector<std::pair<Json, std::vector<std::string>>> charts;
  const std::size_t n = std::min(reports.size(), jobs.size());
  if (n > 0 && !stop_flag().load()) {
    std::vector<report::SituationReport> rs(reports.begin(), reports.begin() + static_cast<std::ptrdiff_t>(n));
    for (auto& r : rs) {  // the charts' labels as the table shows them: no raw control character
      r.name = report::printable(r.name);
      for (auto& [k, v] : r.sweep) v = report::printable(v);
    }
    if (const auto x = numeric_sweep_key(rs); x && !prov.hints.headline.empty())
      charts.push_back({chart_data(rs, prov, nullptr),
                        {"--kind", "range", "--x", *x, "--quantity", prov.hints.headline, "--prefer",
                         prov.method == report::MethodChoice::kExact ? "exact" : "mc"}});
    if (n <= 24) {
      RunSettings ds = settings;
      ds.method = settings.exact() ? report::MethodChoice::kExact : report::MethodChoice::kMonteCarlo;
      const std::vector<Job> shown(jobs.begin(), jobs.begin() + static_cast<std::ptrdiff_t>(n));
      const Json dists = distributions(shown, ds, sim::Window::kRun);
      const Json d = chart_data(rs, prov, &dists);
      charts.push_back({d, {"--kind", "outcomes"}});
      if (n <= 6) charts.push_back({d, {"--kind", "hits"}});
    }
  }
  if (!charts.empty()) body += "<h2>Charts</h2>\n" + charts_html(charts);

  // The explain trail: every modifier with its rule
  body += "<h2>Modifiers and rules (explain)</h2>\n";
  for (std::size_t i = 0; i < n; ++i)
    if (!jobs[i].explain.empty()) body += "<pre>" + html_escape(jobs[i].explain) + "</pre>\n";
  std::string title = "salvo odds";
  if (!reports.empty())
    title += ": " + report::printable(reports.front().name) + (reports.size() > 1 ? fmt::format(" ({} situations)", reports.size()) : "");
  return html_page(title, body, provenance_text(prov) + (interrupted ? " | " + stopped : ""));
}

int run_compare(const AnalysisFlags& flags) {
  const Settings settings = settings_of(flags, {"text", "json", "md", "html"});
  const RunSettings& s = settings.run;
  if (flags.files.size() < 2) throw UsageError("compare: needs at least two situation files");
  install_stop_signals();
  // Files expand to sweeps of equal size (paired point by point) or to one situation.
  const SituationSource source(flags.files, source_options(flags));
  check_output_path(flags.output, file_ids(source.input_paths()));  // before any work
  std::size_t points = 1;
  for (std::size_t k = 0; k < source.files(); ++k) points = std::max(points, source.file_size(k));
  for (std::size_t k = 0; k < source.files(); ++k)
    if (const std::size_t len = source.file_size(k); len != 1 && len != points)
      throw UsageError(fmt::format("compare: {} has {} situations, another option has {}: sweeps must match point by point",
                                   flags.files[k], len, points));
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < source.size(); ++i) jobs.push_back(source.compile(i));
  const auto job_at = [&](std::size_t file, std::size_t point) {
    return source.file_begin(file) + (source.file_size(file) == 1 ? 0 : point);
  };

  std::vector<ComparedPoint> out;
  Progress progress(points, "points");
  bool interrupted = false;
  for (std::size_t p = 0; p < points && !interrupted; ++p) {
    progress.start_situation();
    std::vector<const RollProgram*> programs;
    for (std::size_t f = 0; f < source.files(); ++f) programs.push_back(&jobs[job_at(f, p)].program);
    std::vector<sim::Comparison> mc;
    if (s.mc()) {
      sim::CompareOptions o;
      o.seed = s.seed;
      o.situation_key = p;
      o.trials = s.trials;
      o.threads = s.threads;
      o.stop = &stop_flag();
      o.progress = [&](std::uint64_t done, std::uint64_t planned) { progress.trials(done, planned); };
      mc = sim::compare_mc(programs, o);
      interrupted = !mc.empty() && mc.front().interrupted;
    }
    for (std::size_t f = 1; f < source.files(); ++f) {
      ComparedPoint c;
      c.a = job_at(0, p);
      c.b = job_at(f, p);
      c.point = p;
      if (s.exact()) c.exact = sim::compare_exact(*programs[0], *programs[f]);
      if (!mc.empty()) c.mc = mc[f - 1];
      out.push_back(std::move(c));
    }
    progress.situation_done();
  }
  progress.clear();
  report::Provenance prov = provenance_of(source, s);
  prov.interrupted = interrupted;
  std::string text;
  if (settings.format == "json") {
    text = compare_json(jobs, out, prov).dump(2) + "\n";
  } else if (settings.format == "md") {
    text = compare_md(compare_text(jobs, out, prov));
  } else if (settings.format == "html") {
    const Json data = compare_json(jobs, out, prov);
    std::string body = "<h2>Options compared</h2>\n<pre>" + html_escape(compare_text(jobs, out, prov)) + "</pre>\n";
    if (!prov.hints.headline.empty())
      body += "<h2>Charts</h2>\n" +
              charts_html({{data, {"--kind", "compare", "--quantity", prov.hints.headline, "--window", "phase"}}});
    text = html_page("salvo compare", body, provenance_text(prov));
  } else {
    text = compare_text(jobs, out, prov);
  }
  write_output(flags.output, text);
  if (const int signalled = stop_exit_code()) return signalled;
  return interrupted ? kExitInterrupted : kExitOk;
}

int run_sensitivity(const AnalysisFlags& flags, const std::string& quantity) {
  const Settings settings = settings_of(flags, {"text", "json", "md", "html"});
  const RunSettings& s = settings.run;
  if (flags.files.size() != 1) throw UsageError("sensitivity: expected one situation file");
  if (s.method != report::MethodChoice::kExact) throw UsageError("sensitivity: --method: only exact is supported");
  const std::string& path = flags.files.front();
  const SituationSource source({path}, source_options(flags));  // the file, read once
  const Ruleset& ruleset = source.ruleset(0);
  if (!ruleset.sensitivity(source.file(0), 0) && source.size() > 0)
    throw load::InputError(fmt::format("{}: sensitivity: the {} ruleset has no modifiers to vary", path, ruleset.name()));
  check_output_path(flags.output, file_ids(source.input_paths()));

  struct Row {
    std::string modifier, rule, change;
    int value = 0;
    bool worse = false;
    double p = 0.0, p_first = 0.0, effect = 0.0;
  };
  const std::string flag = quantity.rfind("p_", 0) == 0 ? quantity.substr(2) : quantity;
  const auto value_of = [&](const RollProgram& prog, bool phase) {
    const int i = index_of(prog.flag_names, flag);
    if (i < 0) throw UsageError(fmt::format("--quantity: no probability p_{} in this ruleset", flag));
    const sim::RunResult r = sim::solve_exact(prog);
    return (phase ? r.run : r.first).flags[static_cast<std::size_t>(i)].value;
  };

  const report::Provenance provenance = provenance_of(source, s);
  Json all = provenance_json(provenance, "sensitivity");
  all["quantity"] = "p_" + flag;
  all["situations"] = Json::array();
  std::string text, html;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const Job base = source.compile(i);
    const double p0 = value_of(base.program, true), p0_first = value_of(base.program, false);
    std::vector<Row> rows;
    std::vector<std::string> skipped;
    const std::vector<Variant> variants = ruleset.sensitivity(source.file(0), i).value_or(std::vector<Variant>{});
    for (const Variant& v : variants) {
      if (!v.program) {
        skipped.push_back(fmt::format("{} ({}): {}", v.modifier, v.change, v.error));
        continue;
      }
      Row r{v.modifier, v.rule, v.change, v.value, v.worse};
      r.p = value_of(*v.program, true);
      r.p_first = value_of(*v.program, false);
      r.effect = r.p - p0;
      rows.push_back(std::move(r));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return std::abs(a.effect) > std::abs(b.effect); });

    // Text
    const std::string label = quantity_label("p_" + flag);
    std::string t = fmt::format("{} ({}){}\n", base.name, path, base.sweep.empty() ? "" : " at " + sweep_text(base.sweep));
    t += fmt::format("phase {} as given: {} (first shot {}), exact\n\n", label, pct(p0), pct(p0_first));
    t += fmt::format("  {:<44} {:<7} {:>4}  {:<10} {:<44} {:>8} {:>9}\n", "modifier", "rule", "DRM", "variant", "change",
                     "phase", "effect");
    for (const Row& r : rows)
      t += fmt::format("  {:<44} {:<7} {:>+4}  {:<10} {:<44} {:>8} {:>9}\n", r.modifier, r.rule, r.value,
                       r.worse ? "one worse" : "removed", r.change, pct(r.p), pts(r.effect) + " pts");
    if (rows.empty()) t += "  (no modifier that a setting controls applies)\n";
    for (const Row& r : rows)
      if (!r.worse) {
        t += fmt::format("\n{} ({:+d}, {}) {} {:.1f} points of phase {} here.\n", r.modifier, r.value, r.rule,
                         r.effect >= 0 ? "costs you" : "gains you", 100.0 * std::abs(r.effect), label);
        break;
      }
    for (const std::string& sk : skipped) t += "  not computed: " + sk + "\n";
    text += t + "\n";
    html += "<h2>" + html_escape(base.name) + "</h2>\n<pre>" + html_escape(t) + "</pre>\n";

    Json j;
    j["file"] = path;
    j["name"] = base.name;
    Json sw = Json::object();
    for (const auto& [k, v] : base.sweep) sw[k] = v;
    j["sweep"] = sw;
    j["base"] = {{"phase", p0}, {"first_shot", p0_first}};
    j["variants"] = Json::array();
    for (const Row& r : rows)
      j["variants"].push_back({{"modifier", r.modifier}, {"rule", r.rule}, {"drm", r.value},
                               {"variant", r.worse ? "one_worse" : "removed"}, {"change", r.change},
                               {"phase", r.p}, {"first_shot", r.p_first}, {"effect", r.effect}});
    j["not_computed"] = skipped;
    all["situations"].push_back(j);
  }
  const std::string prov = provenance_text(provenance);
  if (settings.format == "json") text = all.dump(2) + "\n";
  else if (settings.format == "md") text = "```\n" + text + prov + "\n```\n";
  else if (settings.format == "html") text = html_page("salvo sensitivity", html, prov);
  else text += prov + "\n";
  write_output(flags.output, text);
  return kExitOk;
}

int run_chart(const ChartFlags& f) {
  const Settings settings = settings_of(f.run, {"text"});
  const RunSettings& s = settings.run;
  static const std::vector<std::string> kinds = {"range", "heatmap", "outcomes", "hits"};
  if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end())
    throw UsageError(fmt::format("chart: KIND: expected range, heatmap, outcomes or hits, got {}", f.kind));
  if (f.out.empty()) throw UsageError("chart: --out PATH is required (PATH.png and PATH.svg are written)");
  if (f.window != "phase" && f.window != "first_shot")
    throw UsageError(fmt::format("--window: expected phase or first_shot, got {}", f.window));
  if (f.kind == "range" && f.x.empty()) throw UsageError("chart range: --x KEY is required (e.g. fire.range)");
  if (f.kind == "heatmap" && (f.x.empty() || f.y.empty())) throw UsageError("chart heatmap: --x KEY and --y KEY are required");
  if (s.method == report::MethodChoice::kBoth) throw UsageError("chart: --method: expected exact or mc");
  install_stop_signals();
  const SituationSource source(f.run.files, source_options(f.run));
  if (!f.data.empty()) check_output_path(f.data, file_ids(source.input_paths()));
  const Computed c = compute(source, s);
  // A chart of part of a sweep would look like the whole one: a stopped run draws nothing.
  if (c.status.interrupted) {
    fmt::print(stderr, "salvo: chart: interrupted after {} of {} situations; nothing written\n", c.status.complete, source.size());
    return stop_exit_code() ? stop_exit_code() : kExitInterrupted;
  }
  const report::Provenance prov = provenance_of(source, s);
  const bool dists = f.kind == "outcomes" || f.kind == "hits";
  const Json d = dists ? distributions(c.jobs, s, f.window == "phase" ? sim::Window::kRun : sim::Window::kFirst) : Json();
  const Json data = chart_data(c.reports, prov, dists ? &d : nullptr);
  if (!f.data.empty()) write_output(f.data, data.dump(2) + "\n");
  std::vector<std::string> args{"--kind", f.kind, "--quantity", f.quantity, "--window", f.window};
  if (!f.x.empty()) args.insert(args.end(), {"--x", f.x});
  if (!f.y.empty()) args.insert(args.end(), {"--y", f.y});
  if (!f.title.empty()) args.insert(args.end(), {"--title", f.title});
  fs::path stem = f.out;
  if (stem.extension() == ".png" || stem.extension() == ".svg") stem.replace_extension();
  draw_chart(data, args, stem);
  fmt::print("{}.png\n{}.svg\n", stem.string(), stem.string());
  return kExitOk;
}

}  // namespace salvo::app
