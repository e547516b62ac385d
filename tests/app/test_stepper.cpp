// The browser's Monte Carlo stepper (app/stepper.h) against the command line's runner: stepped
// one block at a time or many, its finished JSON equals odds_json's (the runner's) for the same
// seed and trials, sweep points included; stopped after k blocks, its numbers are those of a
// k-block run, marked interrupted; errors are the command line's messages.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_salvo.h"
#include "salvo/app/json_api.h"
#include "salvo/app/stepper.h"
#include "salvo/sim/montecarlo.h"

namespace {

using Json = nlohmann::json;
using salvo::app::OddsStepper;

const std::string kSweep = salvo::test::slurp(std::string(SALVO_SOURCE_DIR) + "/examples/sweep-range.toml");

/// Step to the end; the number of steps that left work to do.
int step_all(OddsStepper& s, std::uint32_t blocks) {
  int steps = 0;
  while (s.step(blocks)) ++steps;
  return steps;
}

}  // namespace

TEST_CASE("stepper: a finished run is the runner's JSON, byte for byte", "[app][stepper]") {
  // 3 blocks and a partial one per situation, 12 situations (sweep points: distinct dice keys)
  const std::string options = R"({"name": "sweep.toml", "method": "both", "trials": 200000, "seed": 11})";
  const std::string expected = salvo::app::odds_json(kSweep, options);
  REQUIRE(expected.find("\"error\"") == std::string::npos);
  for (std::uint32_t blocks : {1u, 3u, 100u}) {
    OddsStepper s(kSweep, options);
    CHECK(s.trials_planned() == 12 * 200000.0);
    // 4 blocks per situation (the last partial), 48 in all
    CHECK(step_all(s, blocks) == (blocks == 1 ? 47 : blocks == 3 ? 15 : 0));
    CHECK(s.json() == expected);
    CHECK(s.trials_done() == s.trials_planned());
  }
}

TEST_CASE("stepper: stopped after k blocks, the numbers of a k-block run, marked interrupted", "[app][stepper]") {
  OddsStepper s(kSweep, R"({"method": "mc", "trials": 1000000, "seed": 3})");
  REQUIRE(s.step(2));  // 2 of the first situation's 16 blocks
  CHECK(s.trials_done() == 2.0 * salvo::sim::kBlockTrials);
  const Json partial = Json::parse(s.json());
  CHECK(partial["interrupted"] == true);
  const Json k_blocks = Json::parse(salvo::app::odds_json(kSweep, R"({"method": "mc", "trials": 131072, "seed": 3})"));
  REQUIRE(partial["situations"].size() == 1);
  const Json& mc = partial["situations"][0]["results"]["mc"];
  const Json& ref = k_blocks["situations"][0]["results"]["mc"];
  CHECK(mc["interrupted"] == true);
  CHECK(mc["trials"] == 131072);
  CHECK(mc["first_shot"] == ref["first_shot"]);
  CHECK(mc["phase"] == ref["phase"]);
}

TEST_CASE("stepper: exact only needs no steps, and errors are the command line's", "[app][stepper]") {
  OddsStepper exact(kSweep, R"({"name": "sweep.toml"})");
  CHECK_FALSE(exact.step(1));
  CHECK(exact.json() == salvo::app::odds_json(kSweep, R"({"name": "sweep.toml"})"));

  OddsStepper bad("ruleset = \"asl\"\n[firer]\nrof = 9\n", R"({"name": "bad.toml", "method": "mc"})");
  CHECK_FALSE(bad.step(1));
  CHECK(Json::parse(bad.json())["error"] == "bad.toml:3: firer.rof: expected an integer in 0..3, got 9");
  OddsStepper trials(kSweep, R"({"method": "mc", "trials": 0})");
  CHECK(Json::parse(trials.json())["error"] == "salvo: --trials: expected an integer in 1..1000000000000, got 0");
}
