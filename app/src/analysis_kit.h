#pragma once
// app/src/analysis_kit.h — what the analysis commands (compare, sensitivity, chart, the HTML
// page) share: flags, provenance lines, charts drawn by scripts/chart.py, and the distributions
// the charts show (salvo::report's report/html.h lays the pages out). Private to salvo::app.

#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/app/analysis.h"
#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/report/html.h"
#include "salvo/report/report.h"
#include "salvo/sim/distribution.h"

namespace salvo::app::kit {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

/// The flags every analysis command takes, checked.
struct Settings {
  RunSettings run;
  std::string format = "text";
};
/// Throws UsageError for a bad value or a format not in `formats`.
Settings settings_of(const AnalysisFlags& f, std::initializer_list<const char*> formats);
SourceOptions source_options(const AnalysisFlags& flags, bool explain = false);

/// "salvo 0.1.0 (git ...) | method exact | rules data ... #hash[ | seed ... ]".
std::string provenance_text(const report::Provenance& p);
/// The provenance object of a JSON output.
Json provenance_json(const report::Provenance& p, const char* command);
/// "fire.range = 6, target.tem = 1".
std::string sweep_text(const std::vector<std::pair<std::string, std::string>>& sweep);
/// "P(kill)", "E[shots]".
using report::quantity_label;
/// A probability as text tables print it; a difference in points ("+1.5").
std::string pct(double v);
std::string pts(double v);
/// The index of `n` in `names`, or -1.
int index_of(const std::vector<std::string>& names, const std::string& n);
/// An estimate in JSON: {"p", "lo", "hi"}, or {"p", "no_interval"} for a mean of fewer than 2 trials.
Json estimate_json(const sim::Estimate& e);

/// Draw one chart from `data`; writes OUT_STEM.png and OUT_STEM.svg. Throws IoError with
/// chart.py's message when it cannot draw (matplotlib missing), load::InputError when it
/// refuses what was asked (a sweep key the data lacks).
void draw_chart(const Json& data, const std::vector<std::string>& chart_args, const fs::path& out_stem);
/// Charts for a page, drawn into a temporary directory: their SVG elements, and why not if they
/// cannot all be drawn (report::html_charts lays them out).
report::HtmlCharts draw_charts(const std::vector<std::pair<Json, std::vector<std::string>>>& charts);

/// Every situation of `source` through the runner, kept in memory (charts and pages hold a
/// handful). Interrupted: the situations finished.
struct Computed {
  std::vector<Job> jobs;
  std::vector<report::SituationReport> reports;
  RunStatus status;
};
Computed compute(const SituationSource& source, const RunSettings& s);

/// Hits shown per run, the last bar "5 or more".
inline constexpr int kHitsCap = 5;
/// Per situation, the distributions of hits and of the run's outcome (the ruleset's display
/// hints name the counter and the flag shown apart): exact unless the settings are Monte Carlo
/// only. Null for a situation whose ruleset counts no hits.
Json distributions(const std::vector<Job>& jobs, const RunSettings& s, sim::Window window);
/// The odds JSON of the reports plus, if given, each situation's distributions.
Json chart_data(const std::vector<report::SituationReport>& reports, const report::Provenance& prov, const Json* dists);

/// Whether a report is a fight's: its per-turn end reasons say who won in which game turn.
bool is_fight(const report::SituationReport& r);

}  // namespace salvo::app::kit
