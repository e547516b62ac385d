// Infantry units in fights (asl_fight.h, asl_infantry.h): several attacks on one hex as a
// one-sided fight, checked equal to the situation file's [[then]] attacks (which the
// independent model tests/differential/infantry_model.py checks); both sides firing, the Rally
// Phase's pin removal and SW MG repair, each derived from single attacks or by hand.
#include <random>
#include <string>
#include <vector>

#include "asl_test_util.h"
#include "fight_test_util.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/rules/asl_infantry.h"
#include "salvo/sim/exact.h"
#include "sanitized.h"
#include "support/named.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

// The situation of `shooter` firing at `target` in a fight: one attack, checked.
Solved attack(const Fight& f, std::size_t shooter, std::size_t target, void (*edit)(Situation&) = nullptr) {
  Situation s = fight_situation(f, shooter, target);
  if (edit != nullptr) edit(s);
  return solve(s);
}

// An infantry situation's attacks ([firer], then each [[then]]) as a fight: one unit each on
// side A, in order, and the target a unit of side B that never fires (sequence: A alone).
Fight as_fight(const Situation& s) {
  Fight f;
  f.name = s.name;
  f.sequence = {FightStep::kFireA};
  f.turns = 1;
  FightUnit t = squad("t", 1, 1);
  t.firer.normal_range = 40;  // (it never fires; check() checks it could)
  t.as_target = s.target;
  auto unit = [&](const std::string& name, const InfantryAttack& a) {
    FightUnit u = squad(name, 0, a.fp);
    u.firer.nationality = s.firer.nationality;
    u.firer.normal_range = a.normal_range;
    u.firer.mg = a.mg;
    u.firer.leader = a.leader;
    u.firer.inexperienced = a.inexperienced;
    u.firer.cowers = a.cowers;
    u.fire = s.fire;
    u.fire.range = a.range.value_or(s.fire.range);
    u.fire.pinned = a.pinned;
    u.fire.opportunity = a.opportunity;
    u.fire.extra_drm = a.extra_drm;
    u.fire.max_shots = a.max_shots;
    u.ranges = {{"t", u.fire.range}};
    f.units.push_back(u);
  };
  const Firer& w = s.firer;
  unit("a0", {w.fp, w.normal_range, w.mg, w.leader, w.inexperienced, w.cowers, s.fire.range, s.fire.pinned,
              s.fire.opportunity, s.fire.extra_drm, s.fire.max_shots});
  for (std::size_t k = 0; k < s.then.size(); ++k) unit("a" + std::to_string(k + 1), s.then[k]);
  f.units.push_back(t);
  return f;
}

void check_then_equals_fight(const Situation& s) {
  INFO(s.name);
  const Solved one = solve(s);
  const RollProgram p = compile(as_fight(s));
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(flag(p, r, "t_eliminated") == Approx(one.phase("eliminated")).margin(1e-12));
  CHECK(flag(p, r, "a_wins") == Approx(one.phase("eliminated")).margin(1e-12));
  CHECK(flag(p, r, "t_broken") == Approx(one.phase("broken")).margin(1e-12));
  CHECK(flag(p, r, "t_reduced") == Approx(one.phase("casualty_reduction")).margin(1e-12));
  CHECK(test::counter(p, r.run, "shots") == Approx(one.shots()).margin(1e-12));
}

// A random infantry situation of 1 to 4 attacks (stop_on "destroyed": a fight's unit that stops
// on an effect stops its own fire, not the next unit's).
Situation random_attacks(std::mt19937_64& g, int i) {
  const auto pick = [&g](int n) { return static_cast<int>(g() % static_cast<std::uint64_t>(n)); };
  static constexpr int kFp[] = {0, 1, 2, 4, 6, 8, 12, 16};
  Situation s;
  s.name = "random attacks " + std::to_string(i);
  s.firer.weapon = Weapon::kInfantry;
  s.firer.nationality = pick(6) == 0 ? Nationality::kFinnish : Nationality::kGerman;
  s.target.type = TargetType::kInfantry;
  s.target.morale = 6 + pick(4);
  if (pick(3) == 0) s.target.broken_morale = *s.target.morale + pick(3) - 1;
  s.target.personnel = pick(4) == 0 ? Personnel::kHalfSquad : pick(5) == 0 ? Personnel::kCrew : Personnel::kSquad;
  s.target.broken = pick(8) == 0;
  s.target.concealed = !s.target.broken && pick(5) == 0;
  s.target.tem = pick(4);
  s.target.hindrance = pick(4) == 0 ? 1 : 0;
  if (pick(4) == 0) s.target.leader = pick(3) - 2;
  if (pick(4) == 0) s.target.elr = pick(5);
  s.target.encircled = pick(8) == 0;
  s.fire.range = 1 + pick(8);
  const int phase = pick(4);
  s.fire.phase = phase == 0 ? Phase::kDefensive : phase == 1 ? Phase::kAdvancing : Phase::kPrep;
  if (s.fire.phase == Phase::kDefensive && s.target.tem == 0 && s.target.hindrance == 0 && pick(2) == 0)
    (pick(2) == 0 ? s.target.ffmo : s.target.ffnam) = true;
  const auto group = [&]() {
    InfantryAttack a;
    a.fp = kFp[pick(8)];
    if (a.fp > 0) a.normal_range = 3 + pick(6);
    if (a.fp == 0 || pick(3) == 0) a.mg = SwMg{2 + pick(7), 6 + pick(11), pick(4), 10 + pick(3)};
    if (pick(4) == 0) a.leader = pick(3) - 2;
    a.inexperienced = pick(6) == 0;
    if (pick(6) == 0) a.cowers = pick(2) == 0;
    a.range = 1 + pick(8);
    a.pinned = pick(6) == 0;
    a.opportunity = s.fire.phase == Phase::kAdvancing && pick(2) == 0;
    a.extra_drm = pick(3) - 1;
    if (pick(5) == 0) a.max_shots = 1 + pick(3);
    return a;
  };
  const InfantryAttack first = group();
  s.firer.fp = first.fp;
  s.firer.normal_range = first.normal_range;
  s.firer.mg = first.mg;
  s.firer.leader = first.leader;
  s.firer.inexperienced = first.inexperienced;
  s.firer.cowers = first.cowers;
  s.fire.range = *first.range;
  s.fire.pinned = first.pinned;
  s.fire.opportunity = first.opportunity;
  s.fire.extra_drm = first.extra_drm;
  s.fire.max_shots = first.max_shots;
  for (int k = pick(4); k > 0; --k) s.then.push_back(group());
  return s;
}

}  // namespace

TEST_CASE("fight: several infantry attacks on one hex equal the situation's [[then]] attacks",
          "[asl][fight][infantry]") {
  const auto file =
      load::load_file(std::string(SALVO_SOURCE_DIR) + "/examples/infantry/three-attacks-at-squad-in-building.toml");
  REQUIRE(file.situations.size() == 1);
  check_then_equals_fight(file.situations[0].situation);
  // Random situations the rules accept, until enough are checked.
  std::mt19937_64 g(1717);
  const int wanted = salvo::testing::kSanitized ? 15 : 120;
  int checked = 0, multi = 0;
  for (int i = 0; checked < wanted && i < 20 * wanted; ++i) {
    const Situation s = random_attacks(g, i);
    if (check(s) || check(as_fight(s))) continue;
    check_then_equals_fight(s);
    ++checked;
    multi += s.then.empty() ? 0 : 1;
  }
  CHECK(checked == wanted);
  CHECK(multi >= wanted / 2);
}

TEST_CASE("fight: infantry both sides - the answer of a pinned, Reduced or broken squad", "[asl][fight][infantry]") {
  // A (8 FP) fires at B (a 4 FP squad), then B answers at A if it is not broken or eliminated:
  // pinned, with its FP halved and no ROF (A7.8, A7.81, fire.pinned); Reduced to a HS, with half
  // its inherent FP (the reading: 2 FP); both. Each term is a situation of one attack.
  const Fight f = fight_of({squad("a", 0, 8), squad("b", 1, 4)}, {FightStep::kFireA, FightStep::kFireB}, 1);
  const Solved ab = attack(f, 0, 1);
  const Solved ba = attack(f, 1, 0);
  const Solved ba_pinned = attack(f, 1, 0, [](Situation& s) { s.fire.pinned = true; });
  const Solved ba_hs = attack(f, 1, 0, [](Situation& s) { s.firer.fp = 2; });
  const Solved ba_hs_pinned = attack(f, 1, 0, [](Situation& s) {
    s.firer.fp = 2;
    s.fire.pinned = true;
  });
  const double good = ab.outcome("unharmed"), pinned = ab.outcome("pinned"), hs = ab.outcome("reduced"),
               hs_pinned = ab.outcome("reduced_pinned");
  const auto answered = [&](const char* what) {
    return good * ba.phase(what) + pinned * ba_pinned.phase(what) + hs * ba_hs.phase(what) +
           hs_pinned * ba_hs_pinned.phase(what);
  };
  const RollProgram p = compile(f);
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(flag(p, r, "b_eliminated") == Approx(ab.phase("eliminated")).margin(1e-12));
  CHECK(flag(p, r, "b_broken") == Approx(ab.phase("broken")).margin(1e-12));
  CHECK(flag(p, r, "a_broken") == Approx(answered("broken")).margin(1e-12));
  CHECK(flag(p, r, "a_eliminated") == Approx(answered("eliminated")).margin(1e-12));
  CHECK(flag(p, r, "a_reduced") == Approx(answered("casualty_reduction")).margin(1e-12));
  CHECK(flag(p, r, "b_wins") == Approx(answered("eliminated")).margin(1e-12));
  CHECK(test::counter(p, r.run, "shots") == Approx(1 + good + pinned + hs + hs_pinned).margin(1e-12));
  CHECK(good + pinned + hs + hs_pinned < 0.99);  // (some answers are lost: the terms matter)
}

TEST_CASE("fight: infantry - the pin ends with the Player Turn (A7.8)", "[asl][fight][infantry]") {
  // Defensive First Fire at a squad moving in the open (FFNAM, -1), twice: in one Player Turn (two
  // units) a pinned target no longer gets FFNAM for the second attack (A7.83); with a Rally Phase
  // between (one unit, in two Player Turns), the pin is gone and FFNAM counts again. Each start of the second attack is
  // a situation: a good order squad, or a good order HS (Reduced before).
  FightUnit a = squad("a", 0, 6), b = squad("b", 1, 4);
  a.fire.phase = Phase::kDefensive;
  b.as_target.ffnam = true;
  FightUnit a2 = a;  // (a unit fires once a Player Turn: a second one fires the second attack)
  a2.name = "a2";
  const Fight one_pt = fight_of({a, a2, b}, {FightStep::kFireA}, 1);
  const Fight two_pt = fight_of({a, b}, {FightStep::kFireA, FightStep::kRally, FightStep::kFireA}, 1);
  const Solved first = attack(two_pt, 0, 1);
  const Solved squad_again = attack(two_pt, 0, 1);
  const Solved hs_again = attack(two_pt, 0, 1, [](Situation& s) { s.target.personnel = Personnel::kHalfSquad; });
  const double broken = first.phase("broken") +
                        (first.outcome("unharmed") + first.outcome("pinned")) * squad_again.phase("broken") +
                        (first.outcome("reduced") + first.outcome("reduced_pinned")) * hs_again.phase("broken");
  const RollProgram p = compile(two_pt);
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(flag(p, r, "b_broken") == Approx(broken).margin(1e-12));
  // In one Player Turn, a pinned target has lost FFNAM's -1 for the second attack: fewer breaks.
  const RollProgram q = compile(one_pt);
  const sim::RunResult rq = sim::solve_exact(q);
  CHECK(flag(q, rq, "b_broken") < broken - 1e-3);
}

TEST_CASE("fight: infantry - a SW MG malfunctions, and is repaired or eliminated in the Rally Phase (A9.72)",
          "[asl][fight][infantry]") {
  // An MG of B#2 malfunctions on every attack (A9.7), at a target it cannot harm: 1 FP column
  // (Long Range, A7.22, and Cowering aside) and +6 TEM. Sequence: A fires, a Rally Phase, A fires.
  // The Rally Phase repairs it on a dr 1 (1/6), eliminates it on a 6 (A9.72): the MG alone
  // fires again with chance 1/6: 1 + 1/6 attacks. With inherent FP too, the squad fires its
  // inherent FP alone when the MG is out: 2 attacks always.
  FightUnit a = squad("a", 0, 0), b = squad("b", 1, 1);
  a.firer.normal_range.reset();
  a.firer.mg = SwMg{1, 12, 0, 2};
  b.as_target.tem = 6;
  const Fight mg_only = fight_of({a, b}, {FightStep::kFireA, FightStep::kRally, FightStep::kFireA}, 1);
  const RollProgram p = compile(mg_only);
  const sim::RunResult r = sim::solve_exact(p);
  CHECK(flag(p, r, "b_broken") == 0);  // (the target is out of harm's way: no term is missed)
  CHECK(flag(p, r, "b_eliminated") == 0);
  CHECK(test::counter(p, r.run, "shots") == Approx(1 + 1.0 / 6).margin(1e-12));
  // Over two game turns of [A, Rally]: the same: fired in turn 2 only if repaired in turn 1's.
  const RollProgram p2 = compile(fight_of({a, b}, {FightStep::kFireA, FightStep::kRally}, 2));
  CHECK(test::counter(p2, sim::solve_exact(p2).run, "shots") == Approx(1 + 1.0 / 6).margin(1e-12));
  a.firer.fp = 1;
  a.firer.normal_range = 6;
  const RollProgram p3 = compile(fight_of({a, b}, {FightStep::kFireA, FightStep::kRally, FightStep::kFireA}, 1));
  CHECK(test::counter(p3, sim::solve_exact(p3).run, "shots") == Approx(2).margin(1e-12));
}

TEST_CASE("fight: infantry units are refused where the rules are not modelled", "[asl][fight][infantry][input]") {
  const auto refusal = [](const Fight& f) {
    const auto e = check(f);
    REQUIRE(e);
    return e->key() + ": " + e->what();
  };
  FightUnit tank = killer("tank", 1, 7);
  CHECK(refusal(fight_of({squad("a", 0, 4), tank}, {FightStep::kFireA, FightStep::kFireB}, 1)) ==
        "unit.tank: a fight of infantry units (a) against a vehicle or Gun (tank) is not modelled: infantry units "
        "fight infantry units (infantry fire on an armored target has no effect, A7.307; LATW and ordnance at "
        "infantry are situation files)");
  FightUnit a = squad("a", 0, 4);
  a.as_target.morale.reset();
  CHECK(refusal(fight_of({a, squad("b", 1, 4)}, {FightStep::kFireA}, 1)) ==
        "unit.a.as_target.morale: missing: the infantry unit's Morale Level, for its Morale Checks when fired on "
        "(A10.1)");
  a = squad("a", 0, 4);
  a.as_target.type = TargetType::kVehicle;
  CHECK(refusal(fight_of({a, squad("b", 1, 4)}, {FightStep::kFireA}, 1)).rfind("unit.a.as_target.type: ", 0) == 0);
}

TEST_CASE("fight: infantry - a broken unit rallies in the Rally Phase (A10.6)", "[asl][fight][infantry]") {
  // B starts broken (morale 7, broken side 8) and attempts to rally with rally_drm +1: it rallies
  // on a DR + 1 <= 8 that is not an Original 12, DR <= 7: 21/36; an Original 12 (1/36) is its
  // Casualty Reduction (a broken HS, or a HS eliminated); else it stays broken. Once rallied it
  // fires at A, which its 1 FP cannot harm (+5 TEM: a Final DR of 7 or more on the 1 column).
  FightUnit a = squad("a", 0, 4), b = squad("b", 1, 1);
  a.as_target.tem = 5;
  b.as_target.broken = true;
  b.as_target.broken_morale = 8;
  b.rally_drm = 1;
  const std::vector<FightStep> rally_then_b = {FightStep::kRally, FightStep::kFireB};
  {
    const RollProgram p = compile(fight_of({a, b}, rally_then_b, 1));
    const sim::RunResult r = sim::solve_exact(p);
    CHECK(flag(p, r, "a_eliminated") == 0);  // (A out of harm's way: the count is B's rallies)
    CHECK(test::counter(p, r.run, "shots") == Approx(21.0 / 36).margin(1e-12));
    CHECK(flag(p, r, "b_reduced") == Approx(1.0 / 36).margin(1e-12));
    CHECK(flag(p, r, "b_eliminated") == 0);
  }
  {  // a HS: its Original 12 eliminates it, and A wins
    FightUnit hs = b;
    hs.as_target.personnel = Personnel::kHalfSquad;
    const RollProgram p = compile(fight_of({a, hs}, rally_then_b, 1));
    const sim::RunResult r = sim::solve_exact(p);
    CHECK(flag(p, r, "b_eliminated") == Approx(1.0 / 36).margin(1e-12));
    CHECK(flag(p, r, "a_wins") == Approx(1.0 / 36).margin(1e-12));
  }
  {  // two game turns: rallied in turn 1 (21/36): it fires in both; else still broken (14/36) or
     // a broken HS (1/36), it tries again in turn 2 (21/36: one attack; the HS's 12 eliminates it)
    const RollProgram p = compile(fight_of({a, b}, rally_then_b, 2));
    const sim::RunResult r = sim::solve_exact(p);
    const double shots = 21.0 / 36 * 2 + 14.0 / 36 * 21.0 / 36 + 1.0 / 36 * 21.0 / 36;
    CHECK(test::counter(p, r.run, "shots") == Approx(shots).margin(1e-12));
    CHECK(flag(p, r, "b_eliminated") == Approx(1.0 / 36 * 1.0 / 36).margin(1e-12));
  }
  // Without rally_drm it stays broken and never fires: nothing is left to roll.
  b.rally_drm.reset();
  CHECK_THROWS_WITH(compile(fight_of({a, b}, rally_then_b, 2)), "no unit of the fight can fire: nothing to roll");
  // rally_drm is for infantry
  FightUnit tank = killer("tank", 0, 7), other = killer("other", 1, 7);
  tank.rally_drm = 0;
  const auto e = check(fight_of({tank, other}, {FightStep::kFireA}, 1));
  REQUIRE(e);
  CHECK(e->key() + ": " + e->what() == "unit.tank.rally_drm: Rally (A10.6) is for an infantry unit: remove rally_drm");
}
