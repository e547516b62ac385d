// `salvo compare A.toml B.toml [...]`: each option against the first, on common dice.
#include "analysis_kit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "salvo/app/analysis.h"
#include "salvo/app/commands.h"
#include "salvo/app/io.h"
#include "salvo/app/progress.h"
#include "salvo/core/text_table.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/stats.h"

namespace salvo::app {

using namespace kit;

namespace {

// ---------------------------------------------------------------------------------------------
// compare

struct ComparedPoint {
  std::size_t a = 0, b = 0;  // job indices
  std::uint64_t point = 0;   // sweep point (the situation key of the dice streams)
  std::optional<sim::Comparison> exact, mc;
};

/// Compare's text shows the key quantities of the display hints, each in its window, and the
/// whole-run quantities they name besides (a fight's units' fates).
bool shown(const DisplayHints& h, const sim::QuantityDiff& q) {
  const bool run = q.window == sim::Window::kRun;
  return std::any_of(h.key.begin(), h.key.end(),
                     [&](const DisplayHints::Key& k) { return k.quantity == q.name && k.run == run; }) ||
         (run && std::find(h.compare_also.begin(), h.compare_also.end(), q.name) != h.compare_also.end());
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
      TextTable t;  // columns as wide as their widest cell: window and quantity names vary by ruleset
      t.indent = "  ";
      t.align = {Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kLeft, Align::kRight, Align::kRight};
      t.rows.push_back({"window", "quantity", "A", "B", mc ? "A - B (points) [95%]" : "A - B (points)", "P(A better)",
                        "P(B better)"});
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
        t.rows.push_back({q.window == sim::Window::kFirst ? hints.first_window : hints.run_window,
                          quantity_label(q.name), val(q.a.value), val(q.b.value), diff, pa, pb});
      }
      o += t.render();
      if (mc)
        for (const sim::QuantityDiff& q : cmp->quantities)
          if (!hints.headline.empty() && q.name == hints.headline && q.window == sim::Window::kRun)
            o += fmt::format("  on the same dice, {} in the {} with A only in {} of trials, with B only in {}\n",
                             quantity_label(q.name), hints.run_window, pct(q.paired_a_higher->value),
                             pct(q.paired_b_higher->value));
    }
    o += "\n";
  }
  o += fmt::format("P(A better): the chance that A's {} (or {}) does better{} than B's, each rolled on its own dice.\n",
                   hints.run_window, hints.first_window, hints.better_for.empty() ? "" : " for " + hints.better_for);
  o += provenance_text(prov) + "\n";
  return o;
}

Json compare_json(const std::vector<Job>& jobs, const std::vector<ComparedPoint>& points,
                  const report::Provenance& prov) {
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

struct CompareRun {
  std::vector<Job> jobs;
  std::vector<ComparedPoint> points;
  report::Provenance prov;
  bool interrupted = false;
};

/// Every option of `source` against the first.
CompareRun compare_run(const SituationSource& source, const RunSettings& s) {
  // Files expand to sweeps of equal size (paired point by point) or to one situation.
  std::size_t points = 1;
  for (std::size_t k = 0; k < source.files(); ++k) points = std::max(points, source.file_size(k));
  for (std::size_t k = 0; k < source.files(); ++k)
    if (const std::size_t len = source.file_size(k); len != 1 && len != points)
      throw UsageError(
          fmt::format("compare: {} has {} situations, another option has {}: sweeps must match point by point",
                      source.path(k), len, points));
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
  return {std::move(jobs), std::move(out), std::move(prov), interrupted};
}

/// The comparison as text, json or md (html is run_compare's: it draws charts).
std::string compare_format(const CompareRun& r, const std::string& format) {
  if (format == "json") return compare_json(r.jobs, r.points, r.prov).dump(2) + "\n";
  if (format == "md") return compare_md(compare_text(r.jobs, r.points, r.prov));
  return compare_text(r.jobs, r.points, r.prov);
}

}  // namespace

int run_compare(const AnalysisFlags& flags) {
  const Settings settings = settings_of(flags, {"text", "json", "md", "html"});
  if (flags.files.size() < 2) throw UsageError("compare: needs at least two situation files");
  install_stop_signals();
  const SituationSource source(flags.files, source_options(flags));
  check_output_path(flags.output, file_ids(source.input_paths()));  // before any work
  const CompareRun run = compare_run(source, settings.run);
  std::string text;
  if (settings.format == "html") {
    report::HtmlCharts charts;
    if (!run.prov.hints.headline.empty())
      charts = draw_charts({{compare_json(run.jobs, run.points, run.prov),
                             {"--kind", "compare", "--quantity", run.prov.hints.headline, "--window", "phase"}}});
    text = report::format_html_sections("salvo compare",
                                        {{"Options compared", compare_text(run.jobs, run.points, run.prov)}}, charts,
                                        provenance_text(run.prov));
  } else {
    text = compare_format(run, settings.format);
  }
  write_output(flags.output, text);
  if (const int signalled = stop_exit_code()) return signalled;
  return run.interrupted ? kExitInterrupted : kExitOk;
}

std::string compare_output(const std::vector<SourceText>& texts, const AnalysisFlags& flags) {
  const Settings settings = settings_of(flags, {"text", "json", "md"});
  if (texts.size() < 2) throw UsageError("compare: needs at least two situation files");
  return compare_format(compare_run(SituationSource(texts, source_options(flags)), settings.run), settings.format);
}

}  // namespace salvo::app
