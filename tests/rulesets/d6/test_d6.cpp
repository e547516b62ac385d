// The test-only d6 ruleset through the app layer: odds in every format, exact and Monte Carlo,
// explain, compare and chart, with no change outside this folder but its registry line.
//
// Expected values by hand: a d6 hits on N+ with p = (7 - N) / 6; with S shots, stopping at the
// first hit, P(hit in the phase) = 1 - (1 - p)^S and E[shots] = sum_{k<S} (1 - p)^k.
//   hit on 4+, 3 shots: first shot 1/2; phase 1 - 1/8 = 7/8 = 87.5%; E[shots] = 1.75
//   hit on 5+, 3 shots: phase 1 - (2/3)^3 = 19/27 = 70.4%; A - B = 37/216 = +17.1 points
//   hit on 3+/4+/5+, 2 shots: phase 8/9 = 88.9%, 3/4 = 75.0%, 5/9 = 55.6%
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cli/run_salvo.h"
#include "d6_ruleset.h"
#include "salvo/app/analysis.h"
#include "salvo/app/commands.h"
#include "salvo/app/io.h"
#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/app/stepper.h"

namespace {

using salvo::test::slurp;
using salvo::test::TempDir;

void register_d6() {
  static const bool once = [] {
    salvo::Registry::global().add(salvo::testing::make_d6_ruleset());  // the registry line
    return true;
  }();
  (void)once;
}

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

std::string odds(const std::string& file, const std::string& format, const std::string& method = "exact") {
  TempDir out;
  salvo::app::OddsFlags f;
  f.files = {file};
  f.format = format;
  f.method = method;
  if (method != "exact") f.trials = "200000";
  f.output = (out / "table").string();
  REQUIRE(salvo::app::run_odds(salvo::app::odds_options(f)) == 0);
  return slurp(out / "table");
}

}  // namespace

TEST_CASE("a test-only ruleset registers with one line and runs through odds in every format", "[ruleset]") {
  register_d6();
  TempDir dir;
  const auto a = write(dir, "a.toml", "ruleset = \"d6\"\nname = \"three shots, hit on 4+\"\nhit_on = 4\nshots = 3\n");

  const std::string text = odds(a, "text");
  INFO(text);
  CHECK(text.find("three shots, hit on 4+") != std::string::npos);
  CHECK(text.find("d6-test-1") != std::string::npos);
  CHECK(text.find("50.0%") != std::string::npos);  // the first shot
  CHECK(text.find("87.5%") != std::string::npos);  // the phase
  CHECK(text.find("1.750") != std::string::npos);  // E[shots]
  CHECK(text.find("how the phase ended") != std::string::npos);

  const auto j = nlohmann::json::parse(odds(a, "json"));
  const auto& exact = j["situations"][0]["results"]["exact"];
  CHECK(std::abs(exact["phase"]["p_hit"]["p"].get<double>() - 7.0 / 8.0) < 1e-12);
  CHECK(std::abs(exact["first_shot"]["p_hit"]["p"].get<double>() - 0.5) < 1e-12);
  CHECK(std::abs(exact["phase"]["e_shots"]["mean"].get<double>() - 1.75) < 1e-12);

  CHECK(odds(a, "csv").find("0.875") != std::string::npos);
  CHECK(odds(a, "md").find("| 0.500 | 0.875 | 1.750 |") !=
        std::string::npos);  // first_p_hit, phase_p_hit, phase_e_shots
  CHECK(odds(a, "html").find("87.5%") != std::string::npos);

  // Monte Carlo: 200,000 trials at seed 1 within 4.5 standard errors of the exact 7/8 (one check).
  const auto mc = nlohmann::json::parse(odds(a, "json", "mc"));
  const double p = mc["situations"][0]["results"]["mc"]["phase"]["p_hit"]["p"].get<double>();
  CHECK(std::abs(p - 7.0 / 8.0) < 4.5 * std::sqrt(7.0 / 8.0 * (1.0 / 8.0) / 200000.0));
}

TEST_CASE("a test-only ruleset: its sweep in the compact table, with its own key columns", "[ruleset]") {
  register_d6();
  TempDir dir;
  const auto s =
      write(dir, "s.toml", "ruleset = \"d6\"\nname = \"two shots\"\nshots = 2\n[sweep]\nhit_on = [3, 4, 5]\n");
  const std::string text = odds(s, "text");
  INFO(text);
  const auto head = text.find("hit_on");
  REQUIRE(head != std::string::npos);
  const std::string header = text.substr(head, text.find('\n', head) - head);
  CHECK(header.find("first p_hit") != std::string::npos);
  CHECK(header.find("phase p_hit") != std::string::npos);
  CHECK(header.find("p_kill") == std::string::npos);  // no ASL column
  for (const char* v : {"88.9%", "75.0%", "55.6%"}) CHECK(text.find(v) != std::string::npos);
}

TEST_CASE("a test-only ruleset: compare, explain and chart", "[ruleset]") {
  register_d6();
  TempDir dir;
  const auto a = write(dir, "a.toml", "ruleset = \"d6\"\nname = \"4+\"\nhit_on = 4\nshots = 3\n");
  const auto b = write(dir, "b.toml", "ruleset = \"d6\"\nname = \"5+\"\nhit_on = 5\nshots = 3\n");

  salvo::app::AnalysisFlags cf;
  cf.files = {a, b};
  cf.output = (dir / "compare.txt").string();
  REQUIRE(salvo::app::run_compare(cf) == 0);
  const std::string cmp = slurp(dir / "compare.txt");
  INFO(cmp);
  CHECK(cmp.find("P(hit)") != std::string::npos);
  CHECK(cmp.find("+17.1") != std::string::npos);
  CHECK(cmp.find("70.4%") != std::string::npos);

  // Explain prints its heading for every ruleset, then the ruleset's own lines.
  salvo::app::SourceOptions so;
  so.explain = true;
  const salvo::app::SituationSource source({a}, so);
  CHECK(source.compile(0).explain == "== 4+  (" + a + ")\nhits on a d6 roll of 4 or more, 3 shot(s)\n");

  // The chart data (and, where matplotlib is installed, the chart).
  const auto s =
      write(dir, "s.toml", "ruleset = \"d6\"\nname = \"two shots\"\nshots = 2\n[sweep]\nhit_on = [3, 4, 5]\n");
  salvo::app::ChartFlags chart;
  chart.run.files = {s};
  chart.kind = "range";
  chart.x = "hit_on";
  chart.quantity = "p_hit";
  chart.out = (dir / "chart").string();
  chart.data = (dir / "chart.json").string();
  try {
    CHECK(salvo::app::run_chart(chart) == 0);
  } catch (const salvo::app::IoError& e) {
    WARN("chart not drawn (the data is still checked): " << e.what());
  }
  const auto data = nlohmann::json::parse(slurp(dir / "chart.json"));
  REQUIRE(data["situations"].size() == 3);
  CHECK(std::abs(data["situations"][2]["results"]["exact"]["phase"]["p_hit"]["p"].get<double>() - 5.0 / 9.0) < 1e-12);
}

// The runner compiles a situation before its first trial, so that a rules conflict anywhere in a
// run costs no trials; a run solved all exactly compiles each situation once. 300 situations are
// two batches (app::detail::kBatch = 256): the first batch kept from the compile before the
// trials, the second compiled again when its turn comes.
TEST_CASE("a test-only ruleset: how often the runner compiles its situations", "[ruleset]") {
  register_d6();
  TempDir dir;
  std::string shots;
  for (int i = 0; i < 300; ++i) shots += (i == 0 ? "" : ", ") + std::string(i == 0 ? "6" : "1");
  const auto file = write(dir, "sweep.toml", "ruleset = \"d6\"\nname = \"sweep\"\n[sweep]\nshots = [" + shots + "]\n");
  const salvo::app::SituationSource source({file}, salvo::app::SourceOptions{});
  REQUIRE(source.size() == 300);
  // Compiles during a run of `method` with an exact limit of `limit` states, and those made
  // before the first situation reached the sink (its batch's trials run before it does).
  const auto compiles = [&](salvo::report::MethodChoice method, std::size_t limit) {
    salvo::app::RunSettings s;
    s.method = method;
    s.trials = 1'000;
    s.max_exact_states = limit;
    const std::size_t before = salvo::testing::d6_compiles();
    std::size_t at_first = 0;
    salvo::app::run_situations(source, s, [&](salvo::app::Job&&, salvo::report::SituationReport&&) {
      if (at_first == 0) at_first = salvo::testing::d6_compiles() - before;
    });
    return std::pair{salvo::testing::d6_compiles() - before, at_first};
  };
  using M = salvo::report::MethodChoice;
  CHECK(compiles(M::kExact, 100) == std::pair<std::size_t, std::size_t>{300, 256});
  // auto, every situation under the limit: exact, each compiled once
  CHECK(compiles(M::kAuto, 100) == std::pair<std::size_t, std::size_t>{300, 256});
  // Monte Carlo: all 300 before any trial, then the second batch again
  CHECK(compiles(M::kMonteCarlo, 100) == std::pair<std::size_t, std::size_t>{344, 300});
  // auto with the first situation (6 states) over a limit of 5: Monte Carlo for it, so all 300
  // are compiled before its trials
  CHECK(compiles(M::kAuto, 5) == std::pair<std::size_t, std::size_t>{344, 300});
}

// The browser's stepper checks every situation before its first trial, as the runner does, and
// runs the first one on the program it compiled then: a single situation is compiled once; the
// later points of a sweep twice (checked, then run in turn).
TEST_CASE("a test-only ruleset: how often the browser's stepper compiles its situations", "[ruleset]") {
  register_d6();
  const auto compiles = [](const std::string& toml) {
    const std::size_t before = salvo::testing::d6_compiles();
    salvo::app::OddsStepper s(toml, R"({"name": "d6.toml", "method": "mc", "trials": 1000, "seed": 1})");
    while (s.step(100)) {
    }
    CHECK(s.json().find("\"error\"") == std::string::npos);
    return salvo::testing::d6_compiles() - before;
  };
  CHECK(compiles("ruleset = \"d6\"\nname = \"one\"\nhit_on = 4\nshots = 2\n") == 1);
  CHECK(compiles("ruleset = \"d6\"\nname = \"sweep\"\nhit_on = 4\n[sweep]\nshots = [1, 2, 3]\n") == 5);
}
