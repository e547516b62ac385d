// Movement rolls (D2.5 ESB, D2.51 mechanical reliability, D2.401 Motion attempts): closed forms,
// scripted dice, both engines, and the 1/4 cap refused with file and line.
#include <cmath>
#include <string>

#include "asl_test_util.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl_movement.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "support/mc_agreement.h"
#include "support/named.h"
#include "support/thrown.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

Movement esb(double sought, Manufacturer m = Manufacturer::kGerman, bool red = false, int allotment = 12) {
  Movement mv;
  mv.roll = MovementRoll::kEsb;
  mv.mp_sought = sought;
  mv.manufacturer = m;
  mv.red_mp = red;
  mv.mp_allotment = allotment;
  return mv;
}

double exact_p(const Movement& m, const char* outcome) {
  const Compiled c = compile_movement(m);
  c.program.validate();
  return test::outcome(c.program, sim::solve_exact(c.program).run, outcome);
}

}  // namespace

TEST_CASE("D2.5 ESB DRM: MP sought (FRD, red FRU), nationality, 1/4 cap", "[asl][movement]") {
  CHECK(esb_nationality_drm(Manufacturer::kAmerican) == 0);
  CHECK(esb_nationality_drm(Manufacturer::kCzech) == 0);
  CHECK(esb_nationality_drm(Manufacturer::kRussian) == 1);
  CHECK(esb_nationality_drm(Manufacturer::kBritish) == 2);
  CHECK(esb_nationality_drm(Manufacturer::kGerman) == 2);
  CHECK(esb_nationality_drm(Manufacturer::kFrench) == 3);
  CHECK(esb_nationality_drm(Manufacturer::kItalian) == 3);
  CHECK(esb_nationality_drm(Manufacturer::kOther) == 3);
  CHECK(esb_mp_drm(2.5, false) == 2);
  CHECK(esb_mp_drm(2.5, true) == 3);
  CHECK(esb_cap(12) == 3);
  CHECK(esb_cap(17) == 4);
  CHECK(esb_cap(3) == 0);
  CHECK(esb_drm(esb(3)) == 5);
}

TEST_CASE("D2.5 ESB: P(success) = P(Final DR <= 11)", "[asl][movement]") {
  for (double sought : {0.5, 1.0, 2.0, 2.5, 3.0})
    for (Manufacturer m :
         {Manufacturer::kAmerican, Manufacturer::kRussian, Manufacturer::kGerman, Manufacturer::kItalian})
      for (bool red : {false, true}) {
        const Movement mv = esb(sought, m, red);
        INFO("sought " << sought << " drm " << esb_drm(mv));
        CHECK(exact_p(mv, "success") == Approx(test::p_2d6_at_most(11 - esb_drm(mv))).margin(1e-12));
        CHECK(exact_p(mv, "immobilized") == Approx(1 - test::p_2d6_at_most(11 - esb_drm(mv))).margin(1e-12));
      }
  CHECK(exact_p(esb(3), "success") == Approx(15.0 / 36).margin(1e-12));  // German, +5: DR <= 6
}

TEST_CASE("D2.51 mechanical reliability and D2.401 Motion attempts", "[asl][movement]") {
  Movement start;
  start.roll = MovementRoll::kStart;
  start.red_mp = true;
  CHECK(exact_p(start, "immobilized") == Approx(1.0 / 36).margin(1e-12));
  Movement motion;
  motion.roll = MovementRoll::kMotion;
  motion.mp_in_los = 3;
  CHECK(exact_p(motion, "success") == Approx(0.5).margin(1e-12));
  motion.mp_in_los = 1.5;
  CHECK(exact_p(motion, "success") == Approx(1.0 / 6).margin(1e-12));
  motion.mp_in_los = 4;
  motion.red_mp = true;  // a successful attempt then makes the reliability DR (D2.51)
  CHECK(exact_p(motion, "success") == Approx(4.0 / 6 * 35 / 36).margin(1e-12));
  CHECK(exact_p(motion, "immobilized") == Approx(4.0 / 6 / 36).margin(1e-12));
  CHECK(exact_p(motion, "failed") == Approx(2.0 / 6).margin(1e-12));
}

TEST_CASE("scripted dice: movement rolls", "[asl][movement]") {
  auto run = [](const Movement& m, std::vector<Roll> script) {
    ScriptedDice d(std::move(script));
    const MovementOutcome o = resolve_movement(m, d);
    CHECK(d.all_used());
    return o;
  };
  CHECK(run(esb(3), {TH(3, 3)}) == kMoveSuccess);      // 6 + 5 = 11
  CHECK(run(esb(3), {TH(3, 4)}) == kMoveImmobilized);  // 7 + 5 = 12
  Movement start;
  start.roll = MovementRoll::kStart;
  start.red_mp = true;
  CHECK(run(start, {TH(6, 6)}) == kMoveImmobilized);
  CHECK(run(start, {TH(5, 6)}) == kMoveSuccess);
  Movement motion;
  motion.roll = MovementRoll::kMotion;
  motion.mp_in_los = 2;
  CHECK(run(motion, {DR(2)}) == kMoveSuccess);
  CHECK(run(motion, {DR(3)}) == kMoveFailed);
  motion.red_mp = true;
  CHECK(run(motion, {DR(1), TH(6, 6)}) == kMoveImmobilized);
}

TEST_CASE("movement rolls: exact == enumeration, Monte Carlo agrees with exact", "[asl][movement][engines]") {
  std::vector<Movement> all = {esb(1), esb(2.5, Manufacturer::kRussian, true),
                               esb(4, Manufacturer::kItalian, false, 16)};
  Movement start;
  start.roll = MovementRoll::kStart;
  start.red_mp = true;
  all.push_back(start);
  Movement motion;
  motion.roll = MovementRoll::kMotion;
  motion.mp_in_los = 5;
  motion.red_mp = true;
  all.push_back(motion);
  std::uint64_t key = 0;
  test::McAgreement agree;
  for (const Movement& m : all) {
    // Enumerate the reference resolution over every die it can ask for.
    std::vector<double> p(kNumMoveOutcomes, 0.0);
    struct Fixed : Dice {
      int pf = 0, df = 0;
      int pair() override { return pf; }
      int d6() override { return df; }
    } d;
    for (d.df = 0; d.df < 6; ++d.df)
      for (d.pf = 0; d.pf < 36; ++d.pf) p[static_cast<std::size_t>(resolve_movement(m, d))] += 1.0 / 216;
    const Compiled c = compile_movement(m);
    const sim::RunResult ex = sim::solve_exact(c.program);
    for (std::size_t i = 0; i < p.size(); ++i) CHECK(ex.run.outcomes[i].value == Approx(p[i]).margin(1e-12));
    constexpr std::uint64_t kTrials = 100'000;
    sim::McOptions o;
    o.seed = 99;
    o.situation_key = key++;
    o.trials = kTrials;
    const sim::RunResult mc = sim::monte_carlo(c.program, o);
    for (std::size_t i = 0; i < p.size(); ++i)
      agree.proportion(p[i], mc.run.outcomes[i].value, kTrials, "movement roll outcome " + c.program.outcome_names[i]);
  }
  agree.judge();
}

TEST_CASE("movement files: the 1/4 cap is refused with file, line and key", "[asl][movement][load]") {
  const std::string text =
      "ruleset = \"asl\"\n"
      "\n"
      "[movement]\n"
      "roll = \"esb\"\n"
      "mp_allotment = 12\n"
      "mp_sought = 4\n";
  try {
    load::load_string(text, "t.toml");
    FAIL("expected an error");
  } catch (const load::InputError& e) {
    CHECK(std::string(e.what()) ==
          "t.toml:6: movement.mp_sought: at most 1/4 of the MP allotment (FRD): 3 for 12 MP, got 4");
  }
  try {
    load::load_string("ruleset = \"asl\"\n[movement]\nmp_sought = 2\n", "u.toml");
    FAIL("expected an error");
  } catch (const load::InputError& e) {
    CHECK(std::string(e.what()) == "u.toml:2: movement.roll: required: \"esb\", \"start\" or \"motion\"");
  }
  // A movement roll reads only its own keys: anything else would be silently ignored (D2)
  const auto refused = [](const std::string& toml) {
    return test::message_of<load::InputError>([&] { load::load_string(toml, "m.toml"); });
  };
  CHECK(refused("ruleset = \"asl\"\n[movement]\nroll = \"start\"\nred_mp = true\nmp_sought = 2\n") ==
        "m.toml:5: movement.mp_sought: not used by the \"start\" roll (D2.51): remove it");
  CHECK(refused("ruleset = \"asl\"\n[movement]\nroll = \"esb\"\nmp_in_los = 2\n") ==
        "m.toml:4: movement.mp_in_los: not used by the \"esb\" roll (D2.5): remove it");
  CHECK(refused("ruleset = \"asl\"\n[movement]\nroll = \"motion\"\n[fire]\nrange = 3\n") ==
        "m.toml:5: fire.range: a movement roll (D2) uses only its [movement] keys: this key would have no effect");
  CHECK(refused("ruleset = \"asl\"\nname = \"n\"\n[movement]\nroll = \"motion\"\nmp_in_los = 2\n") == test::kNoError);
  const auto f = load::load_file(std::string(SALVO_SOURCE_DIR) + "/examples/esb.toml");
  REQUIRE(f.situations.size() == 3);
  CHECK(f.situations[2].situation.movement->mp_sought == 3);
  CHECK(compile(f.situations[2].situation).program.outcome_names.front() == "success");
}
