#pragma once
/// app/src/analysis.h — the analysis commands: `salvo compare` (options on common dice),
/// `salvo sensitivity` (what each modifier is worth), `salvo chart` (odds charts through
/// scripts/chart.py and matplotlib), and the self-contained HTML page of `odds --format html`.

#include <cstdint>
#include <string>
#include <vector>

#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/report/report.h"

namespace salvo::app {

/// Flags shared by the analysis commands, as typed (validated by each command).
struct AnalysisFlags {
  std::vector<std::string> files;
  std::string method = "exact";  ///< exact, mc or both
  std::string trials = "1000000";
  std::string seed = "1";
  std::string threads = "0";
  std::string format = "text";  ///< text, json, md or html
  std::string output;           ///< empty: stdout
  std::string max_file_size = "4MiB";
};

/// `salvo compare A.toml B.toml [...]`: each option against the first. Returns the exit code.
int run_compare(const AnalysisFlags& flags);

/// What `salvo compare --format FORMAT` prints (text, json or md; flags.files unused) for files
/// given as text: the browser module's compare. Throws as run_compare does.
std::string compare_output(const std::vector<SourceText>& texts, const AnalysisFlags& flags);

/// `salvo sensitivity FILE`: every applicable modifier removed and one worse. Returns the exit code.
int run_sensitivity(const AnalysisFlags& flags, const std::string& quantity);

struct ChartFlags {
  AnalysisFlags run;
  std::string kind;      ///< range, heatmap, outcomes, hits
  std::string out;       ///< output path; PATH.png and PATH.svg are written
  std::string x, y;      ///< sweep keys
  std::string quantity;  ///< range, heatmap: empty = the rulesets' headline (ASL: p_kill)
  std::string window = "phase";
  std::string title;
  std::string data;  ///< also keep the chart data (JSON) here
};

/// `salvo chart KIND FILE...`: compute, then draw with scripts/chart.py. Returns the exit code.
int run_chart(const ChartFlags& flags);

/// The `odds --format html` page: tables, inline charts, the explain trail, provenance.
/// Charts need /usr/bin/python3 with matplotlib; without it the page says so and has none.
/// The outcome and hits charts of a handful of situations are computed first, with the run's
/// settings (exact if the run had exact results, else Monte Carlo with its trials).
std::string html_odds_page(const std::vector<report::SituationReport>& reports, const report::Provenance& prov,
                           const std::vector<Job>& jobs, const RunSettings& settings);

}  // namespace salvo::app
