// IFT situations (Infantry and Area Target Types, MG/IFE fire, the Vehicle line) through both
// engines: exact == enumeration of the reference interpreter (matched by name, since each kind
// of program names only what it can produce); Monte Carlo in standard errors of the exact values.
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

namespace {

// The IFT situations (tests/rules/cases/ift-engines.toml); `finite`: each capped to few enough
// dice sequences to enumerate (in sanitizer builds one shot, but for the two named: sanitized.h).
std::vector<Situation> ift_situations(bool finite) {
  Situation he_at_infantry = base();
  he_at_infantry.firer.ammo = Ammo::kHE;
  he_at_infantry.target.type = TargetType::kInfantry;
  std::vector<Situation> v = situations_of(cases("ift-engines.toml", {{"base", he_at_infantry}}));
  if (finite)
    for (Situation& s : v)
      cap_for_enumeration(s, salvo::testing::cut_when_sanitized(s.name, {"ITT improbable", "ITT stop on effect"}));
  return v;
}

}  // namespace

TEST_CASE("IFT: exact engine == enumeration of the reference interpreter", "[asl][ift][engines]") {
  // Everything the enumeration saw must be named by the program, and equal; what the program
  // does not name (e.g. follow_up_done, named only when asked for) must have been exactly 0.
  for (const Situation& s : ift_situations(true)) check_exact_equals_enumeration(s, 0.0);
}

TEST_CASE("IFT: Monte Carlo agrees with exact (standard errors of the exact values)", "[asl][ift][engines][mc]") {
  constexpr std::uint64_t kTrials = 100'000;
  test::McAgreement agree;
  std::uint64_t key = 100;
  for (const Situation& s : ift_situations(false))
    agree.both_engines(compile(s).program, test::mc_options(20261122, key++, kTrials), s.name);
  agree.judge();
  CHECK(agree.size() > 500);
}
