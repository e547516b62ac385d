// The page of `salvo odds --format html`: tables, inline charts, the explain trail, provenance.
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
#include "salvo/core/text.h"
#include "salvo/load/asl_loader.h"
#include "salvo/sim/compare.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/stats.h"

namespace salvo::app {

using namespace kit;

namespace {

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
    h += "<th>" + html_escape(quantity_label(q)) + "<br>" + html_escape(phase ? hints.run_window : hints.first_window) +
         "</th>";
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
          if (mc && p)
            cell += fmt::format(" <small>±{:.1f}</small>", 50.0 * (e.hi - e.lo));
          else if (mc && !sim::has_interval(e))
            cell += " <small>±?</small>";
          else if (mc && e.value - e.lo < e.hi - e.value)
            cell += fmt::format(" <small>[{:.3f}, {:.3f}]</small>", e.lo, e.hi);
          else if (mc)
            cell += fmt::format(" <small>±{:.3f}</small>", (e.hi - e.lo) / 2);
        }
        h += "<td>" + cell + "</td>";
      }
      h += "</tr>\n";
    }
  return h + "</table>\n";
}

/// The first sweep key with numeric values in every report (fire.range preferred).
std::optional<std::string> numeric_sweep_key(const std::vector<report::SituationReport>& reports) {
  std::vector<std::string> keys;
  for (const auto& r : reports)
    for (const auto& [k, v] : r.sweep)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return a == "fire.range" && b != "fire.range"; });
  for (const auto& k : keys) {
    bool all = true;
    std::set<std::string> distinct;
    for (const auto& r : reports) {
      bool found = false;
      for (const auto& [sk, sv] : r.sweep)
        if (sk == k) {
          found = parse_number(sv).has_value();
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
  body +=
      "<p>Every probability with its method; Monte Carlo values carry their 95% half-width in points "
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
    // A fight: who wins by each game turn, P(A wins by turn t) and P(B wins by turn t).
    if (std::all_of(rs.begin(), rs.end(), [](const report::SituationReport& r) { return is_fight(r); }))
      charts.push_back({chart_data(rs, prov, nullptr),
                        {"--kind", "turns", "--prefer", prov.method == report::MethodChoice::kExact ? "exact" : "mc"}});
    if (n <= 24) {
      RunSettings ds = settings;  // the engine the run used (--method auto: Monte Carlo if any situation did)
      ds.method = prov.method == report::MethodChoice::kExact || prov.method == report::MethodChoice::kBoth
                      ? report::MethodChoice::kExact
                      : report::MethodChoice::kMonteCarlo;
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
    title += ": " + report::printable(reports.front().name) +
             (reports.size() > 1 ? fmt::format(" ({} situations)", reports.size()) : "");
  return html_page(title, body, provenance_text(prov) + (interrupted ? " | " + stopped : ""));
}

}  // namespace salvo::app
