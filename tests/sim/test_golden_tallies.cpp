// Golden tallies: every example situation, run by the Monte Carlo kernel at a fixed seed and trial
// count, must give exactly the integer tallies recorded in tests/golden/ (flags, counter sums and
// sums of squares, outcomes, end reasons, both windows). Any change to the dice streams, the
// kernel, a compiler or a rules table that moves one trial shows here, with the situation and
// the quantity named. When such a change is intended, regenerate and review the diff:
//   SALVO_REGENERATE_GOLDEN=1 build/tests/salvo_tests_sim "golden*"
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "salvo/app/source.h"
#include "salvo/load/units.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::uint64_t kSeed = 20261125;
constexpr std::uint64_t kTrials = 20'000;  // one block

Json window_json(const salvo::RollProgram& p, const salvo::sim::WindowTallies& w) {
  Json j;
  for (std::size_t i = 0; i < w.flags.size(); ++i) j["p_" + p.flag_names[i]] = w.flags[i];
  for (std::size_t i = 0; i < w.counter_sum.size(); ++i)
    j["e_" + p.counter_names[i]] = {w.counter_sum[i], w.counter_sumsq[i]};
  for (std::size_t i = 0; i < w.outcomes.size(); ++i) j["outcome_" + p.outcome_names[i]] = w.outcomes[i];
  for (std::size_t i = 0; i < w.end_reasons.size(); ++i) j["end_" + p.end_reason_names[i]] = w.end_reasons[i];
  return j;
}

/// The tallies of every situation of one example file.
Json tallies_of(const std::string& path) {
  const salvo::app::SituationSource source({path}, {});
  Json all = Json::array();
  for (std::size_t i = 0; i < source.size(); ++i) {
    const salvo::app::Job job = source.compile(i);
    // The kernel the engine chooses (all give the same tallies)
    const salvo::sim::Tallies t = salvo::sim::PreparedProgram(job.program).run(kSeed, i, 0, 1, kTrials);
    Json s;
    s["name"] = job.name;
    Json sweep = Json::object();
    for (const auto& [k, v] : job.sweep) sweep[k] = v;
    s["sweep"] = sweep;
    s["trials"] = t.trials;
    s["truncated"] = t.truncated;
    s["first"] = window_json(job.program, t.first);
    s["run"] = window_json(job.program, t.run);
    all.push_back(s);
  }
  return all;
}

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(SALVO_SOURCE_DIR) / "examples")) {
    const std::string p = e.path().string();
    if (e.path().extension() != ".toml" || p.find("/bench/") != std::string::npos) continue;
    if (e.path().filename() == "illustrative-chart.toml") continue;              // a 1943 chart, not a situation
    if (salvo::load::is_unit_library(salvo::load::read_text_file(p))) continue;  // examples/units/: a library
    // A fight of about two million states: ten seconds to compile here, minutes under the
    // sanitizers (its kind of program is in this list already, smaller).
    if (salvo::testing::release_only(e.path().filename().string(), {"platoon-2v2.toml"})) continue;
    files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("golden tallies: every example at a fixed seed gives the recorded integer tallies", "[golden]") {
  const bool regenerate = std::getenv("SALVO_REGENERATE_GOLDEN") != nullptr;
  const fs::path dir = fs::path(SALVO_SOURCE_DIR) / "tests/golden";
  const auto files = example_files();
  REQUIRE(files.size() >= 20);
  for (const std::string& file : files) {
    const std::string rel = fs::relative(file, SALVO_SOURCE_DIR).string();
    std::string stem = rel;
    for (char& c : stem)
      if (c == '/') c = '_';
    const fs::path golden = dir / (stem.substr(0, stem.size() - 5) + ".json");
    Json now;
    now["file"] = rel;
    now["seed"] = kSeed;
    now["trials"] = kTrials;
    now["situations"] = tallies_of(file);
    if (regenerate) {
      std::ofstream(golden) << now.dump(1) << "\n";
      continue;
    }
    INFO(rel << " against " << golden.string() << " (SALVO_REGENERATE_GOLDEN=1 rewrites it)");
    std::ifstream in(golden);
    REQUIRE(in.good());
    const Json want = Json::parse(in);
    REQUIRE(want["situations"].size() == now["situations"].size());
    for (std::size_t i = 0; i < now["situations"].size(); ++i) {
      const Json& w = want["situations"][i];
      const Json& n = now["situations"][i];
      INFO("situation " << i << ": " << n["name"].get<std::string>() << " " << n["sweep"].dump());
      for (const char* window : {"first", "run"}) {
        INFO("window " << window);
        for (const auto& [q, v] : n[window].items()) {
          INFO("quantity " << q);
          REQUIRE(w[window].contains(q));
          CHECK(w[window][q] == v);
        }
        CHECK(w[window].size() == n[window].size());
      }
      CHECK(w["truncated"] == n["truncated"]);
    }
  }
}
