// IFT situations (Infantry and Area Target Types, MG/IFE fire, the Vehicle line) through both
// engines: exact == enumeration of the reference interpreter (matched by name, since each kind
// of program names only what it can produce); Monte Carlo within 5 standard errors of exact.
#include <cmath>
#include <string>

#include "asl_test_util.h"
#include "salvo/sim/exact.h"
#include "salvo/sim/montecarlo.h"
#include "sanitized.h"
#include "support/mc_agreement.h"

using namespace salvo;
using namespace salvo::asl;
using namespace salvo::asl::testing;

namespace {

std::vector<Situation> ift_situations(bool finite) {
  std::vector<Situation> v;
  auto add = [&](const std::string& name, auto&& edit) {
    Situation s = base();
    s.name = name;
    s.firer.ammo = Ammo::kHE;
    s.target.type = TargetType::kInfantry;
    edit(s);
    // Sanitizer builds: one shot, but for the two named (see sanitized.h).
    const bool one_shot = salvo::testing::cut_when_sanitized(name, {"ITT improbable", "ITT stop on effect"});
    const int cap = s.firer.gun.caliber_mm <= 40 || one_shot ? 1 : 2;
    if (finite && (!s.fire.max_shots || *s.fire.max_shots > cap)) s.fire.max_shots = cap;
    v.push_back(s);
  };
  auto mg = [](Situation& s, int fp) {
    s.firer.weapon = Weapon::kMg;
    s.firer.fp = fp;
    s.firer.normal_range = 8;  // required for MG fire (A7.22)
    s.firer.ammo = Ammo::kAP;
  };
  auto unarmored = [](Situation& s) {
    s.target.type = TargetType::kVehicle;
    s.target.unarmored = true;
    s.target.armor = Armor{std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  };
  add("ITT 75L in woods", [](Situation& s) { s.target.tem = 1; s.firer.rof = 1; });
  add("ITT C3.7 EX DRM -1", [](Situation& s) { s.fire.extra_drm = 1; s.fire.acquisition = 2; s.firer.rof = 2; });
  add("ITT subsequent dr CH", [](Situation& s) { s.target.tem = 3; s.firer.rof = 1; });
  add("ITT improbable", [](Situation& s) { s.fire.extra_drm = 7; s.firer.rof = 1; });
  add("ITT 37L multiple hits", [](Situation& s) { s.firer.gun = *parse_gun("37L"); s.firer.rof = 2; s.target.tem = 1; });
  add("ITT 120 heavy payload", [](Situation& s) { s.firer.gun = *parse_gun("120"); s.fire.range = 14; });
  add("ITT AP equivalency", [](Situation& s) { s.firer.ammo = Ammo::kAP; s.fire.range = 3; s.firer.rof = 1; });
  add("ITT FFNAM defensive", [](Situation& s) { s.fire.phase = Phase::kDefensive; s.target.ffnam = true; s.target.tem = 1; s.firer.rof = 1; });
  add("ITT stop on effect", [](Situation& s) { s.fire.stop_on = StopOn::kEffect; s.firer.rof = 2; s.target.tem = 2; });
  add("Area 75 woods", [](Situation& s) { s.target.type = TargetType::kArea; s.target.tem = 1; s.firer.rof = 2; });
  add("Area 50 FFNAM CH", [](Situation& s) {
    s.firer.gun = *parse_gun("50"); s.target.type = TargetType::kArea; s.target.tem = 1; s.target.ffnam = true; s.fire.phase = Phase::kDefensive; });
  add("Area 105 building", [](Situation& s) { s.firer.gun = *parse_gun("105"); s.target.type = TargetType::kArea; s.target.tem = 3; s.fire.range = 20; });
  add("Area 20L: only a CH attacks", [](Situation& s) { s.firer.gun = *parse_gun("20L"); s.target.type = TargetType::kArea; s.target.tem = 1; });
  add("Area, concealed, Intensive Fire (C6.57)", [](Situation& s) {
    s.target.type = TargetType::kArea; s.target.concealed = true; s.fire.intensive_fire = true; s.fire.range = 14; });
  add("MG 4 FP woods ROF 2", [&](Situation& s) { mg(s, 4); s.target.tem = 1; s.firer.rof = 2; s.fire.range = 5; });
  add("MG 2 FP Case A bow", [&](Situation& s) { mg(s, 2); s.firer.gun_type = GunType::kNT; s.fire.ca_change = 1; s.firer.rof = 1; });
  add("MG 8 FP AFPh", [&](Situation& s) { mg(s, 8); s.fire.phase = Phase::kAdvancing; s.firer.rof = 1; });
  add("MG PBF FFMO", [&](Situation& s) { mg(s, 6); s.fire.range = 1; s.fire.phase = Phase::kDefensive; s.target.ffmo = true; s.firer.rof = 1; });
  add("IFE 12 FP long", [&](Situation& s) { mg(s, 12); s.firer.weapon = Weapon::kIfe; s.firer.normal_range.reset(); s.fire.range = 20; s.firer.rof = 2; });
  add("IFE circled B# 10", [&](Situation& s) { mg(s, 8); s.firer.weapon = Weapon::kIfe; s.firer.normal_range.reset(); s.firer.breakdown = 10; s.firer.low_ammo = true; s.firer.rof = 3; });
  add("MG vehicle line 8 FP", [&](Situation& s) { mg(s, 8); unarmored(s); s.firer.rof = 1; });
  add("MG vehicle line unlikely kill", [&](Situation& s) { mg(s, 1); unarmored(s); s.target.tem = 2; s.firer.rof = 1; });
  return v;
}

std::size_t index_of(const std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  REQUIRE(it != names.end());
  return static_cast<std::size_t>(it - names.begin());
}

// Everything the enumeration saw must be named by the program, and equal.
void check_by_name(const RollProgram& p, const sim::WindowStats& w, const std::vector<double>& flags,
                   const std::vector<double>& counts, const std::vector<double>& outcomes, const char* what) {
  INFO(what);
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string n = flag_name(static_cast<int>(i));
    INFO("flag " << n);
    const auto it = std::find(p.flag_names.begin(), p.flag_names.end(), n);
    if (it == p.flag_names.end()) { CHECK(flags[i] == 0.0); continue; }
    CHECK(w.flags[static_cast<std::size_t>(it - p.flag_names.begin())].value == Approx(flags[i]).margin(1e-12));
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::string n = counter_name(static_cast<int>(i));
    INFO("counter " << n);
    const auto it = std::find(p.counter_names.begin(), p.counter_names.end(), n);
    if (it == p.counter_names.end()) { CHECK(counts[i] == 0.0); continue; }
    CHECK(w.counters[static_cast<std::size_t>(it - p.counter_names.begin())].value == Approx(counts[i]).margin(1e-12));
  }
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const std::string n = outcome_name(static_cast<int>(i));
    INFO("outcome " << n);
    const auto it = std::find(p.outcome_names.begin(), p.outcome_names.end(), n);
    if (it == p.outcome_names.end()) { CHECK(outcomes[i] == 0.0); continue; }
    CHECK(w.outcomes[static_cast<std::size_t>(it - p.outcome_names.begin())].value == Approx(outcomes[i]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("IFT: exact engine == enumeration of the reference interpreter", "[asl][ift][engines]") {
  for (const Situation& s : ift_situations(true)) {
    INFO("situation: " << s.name);
    const Compiled c = compile(s);
    c.program.validate();
    const sim::RunResult r = sim::solve_exact(c.program);
    const Enumerated e = enumerate_phase(s);
    check_by_name(c.program, r.first, e.first_flags, e.first_counts, e.first_outcomes, "first shot");
    check_by_name(c.program, r.run, e.phase_flags, e.phase_counts, e.phase_outcomes, "phase");
    for (std::size_t i = 0; i < e.end_reasons.size(); ++i) {
      INFO("end reason " << end_reason_name(static_cast<int>(i)));
      if (i == kEndFollowUpDone && !s.fire.follow_up) {  // named only when asked for
        CHECK(e.end_reasons[i] == 0);
        continue;
      }
      CHECK(r.run.end_reasons[index_of(c.program.end_reason_names, end_reason_name(static_cast<int>(i)))].value ==
            Approx(e.end_reasons[i]).margin(1e-12));
    }
    double first = 0;
    for (const auto& x : r.first.outcomes) first += x.value;
    CHECK(first == Approx(1.0).margin(1e-12));
  }
}

TEST_CASE("IFT: Monte Carlo agrees with exact (standard errors of the exact values)", "[asl][ift][engines][mc]") {
  constexpr std::uint64_t kTrials = 100'000;
  test::McAgreement agree;
  std::uint64_t key = 100;
  for (const Situation& s : ift_situations(false)) {
    const Compiled c = compile(s);
    const sim::RunResult ex = sim::solve_exact(c.program);
    sim::McOptions o;
    o.seed = 20261122;
    o.situation_key = key++;
    o.trials = kTrials;
    const sim::RunResult mc = sim::monte_carlo(c.program, o);
    agree.run(c.program, ex, mc, kTrials, s.name);
  }
  agree.judge();
  CHECK(agree.size() > 500);
}
