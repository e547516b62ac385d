// The compiled program run by both engines, checked against the reference interpreter:
// exact engine == exhaustive enumeration of every dice sequence; Monte Carlo in standard errors
// of the exact values (support/mc_agreement.h); tallies independent of the thread count.
#include <string>

#include "asl_cases.h"
#include "asl_test_util.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

// A varied set of one-phase situations (asl_test_util.h).
std::vector<Situation> salvo::asl::testing::varied_situations() {
  return situations_of(cases("varied.toml", {{"base", base()}}));
}

namespace {

// The varied situations; `finite`: each capped to few enough dice sequences to enumerate.
std::vector<Situation> situations(bool finite) {
  std::vector<Situation> v = varied_situations();
  if (finite)
    for (Situation& s : v)
      cap_for_enumeration(
          s, salvo::testing::cut_when_sanitized(s.name, {"improbable hits", "CH only on subsequent dr", "same hex",
                                                         "CA change from woods", "B10 X11", "point blank acquired"}));
  return v;
}

}  // namespace

TEST_CASE("exact engine on the compiled program == enumeration of the reference interpreter", "[asl][engines]") {
  // The enumeration counts every flag, counter and outcome of the rules; a program names only
  // those its kind of shot can produce (name_program): matched by name, the rest must be 0.
  for (const Situation& s : situations(true)) check_exact_equals_enumeration(s, 1e-12);
}

TEST_CASE("Monte Carlo agrees with exact on every situation (standard errors of the exact values)",
          "[asl][engines][mc]") {
  constexpr std::uint64_t kTrials = 200'000;
  test::McAgreement agree;
  std::uint64_t key = 0;
  for (const Situation& s : situations(false)) {
    INFO("situation: " << s.name);
    agree.both_engines(compile(s).program, test::mc_options(20261122, key++, kTrials), s.name);
  }
  agree.judge();
  CHECK(situations(false).size() >= 30);
  CHECK(agree.size() > 1000);
}

TEST_CASE("Monte Carlo tallies are identical for 1 and 2 threads on ASL programs", "[asl][engines][mc]") {
  for (const Situation& s : situations(false)) {
    INFO("situation: " << s.name);
    const RollProgram p = compile(s).program;
    const sim::McOptions o = test::mc_options(7, 3, 3 * sim::kBlockTrials + 1234);
    CHECK(test::tallies_on(p, o, 1) == test::tallies_on(p, o, 2));
  }
}

TEST_CASE("rules conflicts are refused with the key and the rule", "[asl][errors]") {
  // and what they accept.
  const std::vector<Case> cs = cases("refused.toml", {{"base", base()}});
  check_cases(cs, 28);
  CHECK(cs.size() == 28 + 6);
}
