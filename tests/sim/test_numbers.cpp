// Numbers that reach a table: never NaN or infinite (no trials, probabilities 0 and 1), exact
// partitions checked to 1e-12, and a table refused loudly if a bad value slips through.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "salvo/report/report.h"
#include "salvo/rulesets/ruleset.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "salvo/sim/stats.h"
#include "sim/programs.h"

using namespace salvo;
using namespace salvo::sim;
using namespace salvo::report;

namespace {

Estimate exact_value(double v) { return {v, v, v}; }

/// A well-formed exact result: 2 flags, 1 counter, 3 outcomes, 2 end reasons.
RunResult exact_result() {
  RunResult r;
  r.first.flags = {exact_value(0.5), exact_value(0.0)};
  r.first.counters = {exact_value(1.0)};
  r.first.outcomes = {exact_value(0.5), exact_value(0.25), exact_value(0.25)};
  r.run.flags = {exact_value(0.75), exact_value(1.0)};
  r.run.counters = {exact_value(2.0)};
  r.run.outcomes = {exact_value(0.125), exact_value(0.375), exact_value(0.5)};
  r.run.end_reasons = {exact_value(0.0), exact_value(1.0)};
  return r;
}

ResultNames names() {
  ResultNames n;
  n.flags = {"hit", "kill"};
  n.counters = {"shots"};
  n.outcomes = {"miss", "hit", "kill"};
  n.end_reasons = {"rof_exhausted", "target_destroyed"};
  return n;
}

SituationReport report_with(std::optional<RunResult> exact, std::optional<RunResult> mc) {
  SituationReport r;
  r.file = "t.toml";
  r.name = "t";
  r.names = names();
  r.exact = std::move(exact);
  r.mc = std::move(mc);
  return r;
}

Provenance provenance(MethodChoice m) {
  Provenance p;
  p.method = m;
  p.hints = salvo::Registry::global().find("asl")->hints();
  p.trials = 0;
  p.situations_total = 1;
  return p;
}

/// Every number of a JSON document is finite and no value is null except the documented
/// "precision" (null when none was asked for).
void check_json_numbers(const nlohmann::json& j, const std::string& where = "") {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "precision" && it.value().is_null()) continue;
      check_json_numbers(it.value(), where + "." + it.key());
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) check_json_numbers(j[i], where + "[" + std::to_string(i) + "]");
  } else {
    INFO(where);
    CHECK_FALSE(j.is_null());
    if (j.is_number_float()) CHECK(std::isfinite(j.get<double>()));
  }
}

/// Text, CSV and Markdown: no "nan" or "inf" anywhere (JSON: check_json_numbers).
void check_no_nan_text(const std::string& text) {
  INFO(text);
  for (const char* bad : {"nan", "NaN", "inf", "Inf"}) CHECK(text.find(bad) == std::string::npos);
}

}  // namespace

TEST_CASE("exact results: partitions are checked to 1e-12, with the window in the message", "[numbers]") {
  REQUIRE_NOTHROW(check_exact_result(exact_result()));

  RunResult r = exact_result();
  r.first.outcomes[0].value = 0.5 - 1e-11;
  CHECK_THROWS_WITH(check_exact_result(r),
                    "exact: first window: outcome probabilities sum to 0.99999999999, not 1 within 1e-12");

  r = exact_result();
  r.run.outcomes[2].value = 0.5 + 2e-12;
  CHECK_THROWS_WITH(check_exact_result(r),
                    "exact: whole run: outcome probabilities sum to 1.000000000002, not 1 within 1e-12");

  r = exact_result();
  r.run.end_reasons[1].value = 0.75;
  CHECK_THROWS_WITH(check_exact_result(r),
                    "exact: whole run: end reason probabilities sum to 0.75, not 1 within 1e-12");

  r = exact_result();
  r.run.flags[0].value = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(check_exact_result(r), "exact: whole run: flag #0 is nan (not a probability)");

  r = exact_result();
  r.first.counters[0].value = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(check_exact_result(r), "exact: first window: counter #0 is inf (not a probability)");

  // Within the tolerance is fine.
  r = exact_result();
  r.run.outcomes[2].value = 0.5 + 5e-13;
  CHECK_NOTHROW(check_exact_result(r));
}

TEST_CASE("no NaN or infinity in any format: zero trials, probabilities 0 and 1", "[numbers][report]") {
  // Zero Monte Carlo trials (a run interrupted before its first block): uninformative intervals.
  const auto k = testing::aim_and_fire();
  RunResult none = estimates_from(k.program, run_blocks(k.program, 1, 0, 0, 0, 0));
  none.interrupted = true;
  SituationReport zero = report_with(std::nullopt, std::nullopt);
  zero.names = names_of(k.program);
  zero.mc = none;

  // p = 0 and p = 1 everywhere, exact and Monte Carlo (all trials hit, none killed).
  RunResult certain;
  certain.method = Method::kMonteCarlo;
  certain.trials = 1000;
  for (WindowStats* w : {&certain.first, &certain.run}) {
    w->flags = {wilson_interval(1000, 1000), wilson_interval(0, 1000)};
    w->counters = {mean_interval(1000, 1000, 1000)};
    w->outcomes = {wilson_interval(0, 1000), wilson_interval(1000, 1000), wilson_interval(0, 1000)};
  }
  certain.run.end_reasons = {wilson_interval(0, 1000), wilson_interval(1000, 1000)};
  const SituationReport edges = report_with(exact_result(), certain);

  Provenance prov = provenance(MethodChoice::kBoth);
  prov.trials = 1000;
  for (const auto& reports : {std::vector<SituationReport>{zero}, std::vector<SituationReport>{edges},
                              std::vector<SituationReport>{zero, edges}, std::vector<SituationReport>{}}) {
    for (Format f : {Format::kText, Format::kCsv, Format::kJson, Format::kMarkdown}) {
      INFO("format " << format_name(f) << ", " << reports.size() << " reports");
      const std::string out = format_odds(reports, prov, f);
      if (f == Format::kJson)
        check_json_numbers(nlohmann::json::parse(out));
      else
        check_no_nan_text(out);
    }
  }
  // The interval ends at the boundaries are exact.
  CHECK(certain.run.flags[0].hi == 1.0);
  CHECK(certain.run.flags[0].value == 1.0);
  CHECK(certain.run.flags[1].lo == 0.0);
  CHECK(certain.run.flags[1].value == 0.0);
  CHECK(none.run.flags[0].lo == 0.0);
  CHECK(none.run.flags[0].hi == 1.0);
}

TEST_CASE("a NaN that reaches the report refuses the whole table", "[numbers][report]") {
  RunResult bad = exact_result();
  bad.run.flags[1].value = std::numeric_limits<double>::quiet_NaN();
  const auto prov = provenance(MethodChoice::kExact);
  for (Format f : {Format::kText, Format::kCsv, Format::kJson, Format::kMarkdown}) {
    INFO(format_name(f));
    CHECK_THROWS_AS(format_odds({report_with(bad, std::nullopt)}, prov, f), std::logic_error);
    CHECK_THROWS_WITH(format_odds({report_with(bad, std::nullopt)}, prov, f),
                      "t.toml: t: exact phase p_kill is nan [1, 1]; no table written");
  }
  RunResult mc = exact_result();
  mc.method = Method::kMonteCarlo;
  mc.trials = 10;
  mc.first.outcomes[0].hi = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(format_odds({report_with(std::nullopt, mc)}, provenance(MethodChoice::kMonteCarlo), Format::kCsv),
                    "t.toml: t: mc first_shot outcome_miss is 0.5 [0.5, inf]; no table written");
}
