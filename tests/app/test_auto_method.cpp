// --method auto (the default of `salvo odds`): each situation is solved exactly up to the exact
// engine's state limit and run by Monte Carlo above it, and the reports say which; with exact
// asked for, a program over the limit is refused naming its key and pointing to --method mc.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/run_salvo.h"
#include "salvo/app/runner.h"
#include "salvo/app/source.h"
#include "salvo/load/asl_loader.h"
#include "salvo/report/report.h"

namespace {

using namespace salvo;
using namespace salvo::app;

const std::string kFight = std::string(SALVO_SOURCE_DIR) + "/examples/fights/sherman-vs-panther.toml";
const std::string kSituation = std::string(SALVO_SOURCE_DIR) + "/examples/sherman75-vs-panther.toml";

struct Run {
  std::vector<report::SituationReport> reports;
  RunStatus status;
  report::Provenance prov;
};

// Run `files` with `method` and an exact limit of `limit` states (the fight has 810).
Run run(const std::vector<std::string>& files, report::MethodChoice method, std::size_t limit) {
  const SituationSource source(files, SourceOptions{});
  RunSettings s;
  s.method = method;
  s.trials = 20'000;
  s.max_exact_states = limit;
  Run r;
  r.status = run_situations(source, s, [&](Job&&, report::SituationReport&& rep) { r.reports.push_back(rep); });
  r.prov = provenance_of(source, s, r.status);
  return r;
}

}  // namespace

TEST_CASE("auto: exact under the state limit, Monte Carlo above it, and the table says which", "[auto]") {
  SECTION("under: exact, reported as exact") {
    const Run r = run({kFight}, report::MethodChoice::kAuto, 1'000);
    REQUIRE(r.reports.size() == 1);
    CHECK(r.reports[0].exact);
    CHECK_FALSE(r.reports[0].mc);
    CHECK(r.prov.method == report::MethodChoice::kExact);
    CHECK(report::format_odds(r.reports, r.prov, report::Format::kText).find("  method  exact\n") != std::string::npos);
  }
  SECTION("over: Monte Carlo, and why") {
    const Run r = run({kFight}, report::MethodChoice::kAuto, 800);
    REQUIRE(r.reports.size() == 1);
    CHECK_FALSE(r.reports[0].exact);
    REQUIRE(r.reports[0].mc);
    CHECK(r.reports[0].mc->trials == 20'000);
    CHECK(r.prov.method == report::MethodChoice::kMonteCarlo);
    CHECK(report::format_odds(r.reports, r.prov, report::Format::kText)
              .find("  method  Monte Carlo (auto: more states than the 800 the exact engine solves), seed 1, 20,000 "
                    "trials, 1 thread, 95% intervals\n") != std::string::npos);
  }
  SECTION("a situation and a fight over the limit: each its engine, a method column") {
    const Run r = run({kSituation, kFight}, report::MethodChoice::kAuto, 800);
    REQUIRE(r.reports.size() == 2);
    CHECK(r.reports[0].exact);
    CHECK_FALSE(r.reports[0].mc);
    CHECK_FALSE(r.reports[1].exact);
    CHECK(r.reports[1].mc);
    CHECK(r.status.exact_runs == 1);
    CHECK(r.status.mc_runs == 1);
    CHECK(r.prov.method == report::MethodChoice::kAuto);
    const std::string text = report::format_odds(r.reports, r.prov, report::Format::kText);
    INFO(text);
    CHECK(text.find("  method  auto: exact up to 800 states, else Monte Carlo, seed 1, 20,000 trials") !=
          std::string::npos);
    CHECK(text.find("Sherman 75 vs Panther                 exact ") != std::string::npos);
    CHECK(text.find("Sherman 75 vs Panther, Sherman first  mc ") != std::string::npos);
  }
}

TEST_CASE("auto: exact or both over the state limit is refused, naming the key and --method mc", "[auto]") {
  for (const auto method : {report::MethodChoice::kExact, report::MethodChoice::kBoth}) {
    try {
      run({kFight}, method, 800);
      FAIL("ran");
    } catch (const load::InputError& e) {
      CHECK(std::string(e.what()) == kFight +
                                         ": Sherman 75 vs Panther, Sherman first: fight.turns: 810 states, more than "
                                         "the exact engine solves (800): run it with --method mc, or --method auto "
                                         "(Monte Carlo above that)");
    }
  }
  // Monte Carlo alone runs it.
  CHECK(run({kFight}, report::MethodChoice::kMonteCarlo, 800).reports.at(0).mc);
}

TEST_CASE("auto: the default of salvo odds, exact for every example under the limit", "[auto]") {
  const auto r = test::run_salvo({"odds", kFight, kSituation});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("  method  exact\n") != std::string::npos);
}
