// The page of `salvo odds --format html`: what it shows is computed here (the charts'
// distributions with the run's settings, the charts drawn by scripts/chart.py, the explain
// trails); report::format_html_odds lays it out.
#include "analysis_kit.h"

#include <algorithm>
#include <set>

#include "salvo/app/analysis.h"
#include "salvo/app/commands.h"
#include "salvo/app/progress.h"
#include "salvo/core/text.h"
#include "salvo/report/html.h"

namespace salvo::app {

using namespace kit;

namespace {

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
  // The explain trail: every modifier with its rule
  std::vector<std::string> explains;
  for (std::size_t i = 0; i < n; ++i) explains.push_back(jobs[i].explain);
  return report::format_html_odds(reports, prov, charts.empty() ? report::HtmlCharts{} : draw_charts(charts), explains,
                                  provenance_text(prov));
}

}  // namespace salvo::app
