// 1943 special fire rules: each expected value derived by hand first (in the comment), then
// checked against the exact engine on the compiled program.
#include <array>
#include <functional>

#include "salvo/sim/exact.h"
#include "support/named.h"
#include "w1943_test_util.h"

using namespace salvo;
using namespace salvo::w1943;
using namespace salvo::w1943::testing;

namespace {

sim::RunResult exact(const Chart& c, const Situation& s) {
  const Compiled compiled = compile(c, s);
  compiled.program.validate();
  return sim::solve_exact(compiled.program);
}

std::size_t outcome(const Chart& c, const Situation& s, const std::string& name) {
  return test::index_of(compile(c, s).program.outcome_names, name);
}

/// A chart whose artillery never hits (To Hit 13 at every range): only Rapid Fire, jams and
/// ammunition decide anything.
Chart never_hits() {
  Chart c = illustrative_chart();
  for (RangeBand& b : c.artillery_bands) b.value = 13;
  return c;
}

}  // namespace

TEST_CASE("3.7 Rapid Fire: a chain fires 36/35 shots on average", "[w1943][rules]") {
  // Each shot rolls a natural 12 with probability 1/36 and then fires again:
  // E[shots] = sum_k (1/36)^k = 1 / (1 - 1/36) = 36/35; P(at least one Rapid Fire) = 1/36.
  const sim::RunResult r = exact(never_hits(), artillery_vs_tank());
  CHECK(r.run.counters[kCounterShots].value == Approx(36.0 / 35.0).margin(1e-12));
  CHECK(r.run.flags[kFlagRapidFire].value == Approx(1.0 / 36.0).margin(1e-12));
  CHECK(r.first.counters[kCounterShots].value == Approx(1.0).margin(1e-12));
  // A target the chain can kill: every hit kills (all boxes K). P(hit) = h = P(2d6 >= 7) =
  // 21/36; the chain goes on only after a 12, which also hits and kills: E[shots] = 1, and
  // E[bases killed] = h.
  Situation s = artillery_vs_tank();
  const sim::RunResult k = exact(uniform_chart(Result::kKilled), s);
  CHECK(k.run.counters[kCounterShots].value == Approx(1.0).margin(1e-12));
  CHECK(k.run.counters[kCounterBasesKilled].value == Approx(21.0 / 36.0).margin(1e-12));
}

TEST_CASE("3.7 Rapid Fire against an infantry unit: expected bases killed include the chain", "[w1943][rules]") {
  // All kill boxes D, infantry of 3 bases, never-miss To Hit (2): each shot is a D.
  // One fire: the first D damages; a chain shot (1/36) turns it into a kill, a third D (1/36^2)
  // damages again, a fourth kills. Bases killed = floor(shots / 2); P(shots >= n) = 36^-(n-1).
  // E[killed] = P(shots >= 2) + P(shots >= 4) + P(shots >= 6) = 1/36 + 1/36^3 + 1/36^5 (target
  // of 3 bases: at 6 shots it is destroyed and the chain stops).
  Chart c = uniform_chart(Result::kDamaged);
  for (RangeBand& b : c.artillery_bands) b.value = 2;
  const sim::RunResult r = exact(c, artillery_vs_infantry(3));
  const double e = 1.0 / 36 + 1.0 / (36.0 * 36 * 36) + 1.0 / (36.0 * 36 * 36 * 36 * 36);
  CHECK(r.run.counters[kCounterBasesKilled].value == Approx(e).margin(1e-14));
}

TEST_CASE("3.7 MG jam on the small arms roll: a 1 on either die, then a 1", "[w1943][rules]") {
  // 2d6: P(at least one 1) = 11/36, then 1/6: P(jam) = 11/216. A 1d6 chart: 1/6 * 1/6 = 1/36.
  Situation s = small_arms();
  s.firer.mg = MachineGun::kHeavy;
  s.firer.bases = 1;  // 3.1: each machine gun base fires as a unit
  CHECK(exact(illustrative_chart(), s).run.flags[kFlagMgJam].value == Approx(11.0 / 216.0).margin(1e-12));
  Chart one = illustrative_chart();
  one.small_arms_dice = 1;
  one.small_arms_results = {
      1, {Result::kNone, Result::kNone, Result::kNone, Result::kDamaged, Result::kDamaged, Result::kKilled}};
  CHECK(exact(one, s).run.flags[kFlagMgJam].value == Approx(1.0 / 36.0).margin(1e-12));
  // No MG, no jam.
  s.firer.mg = MachineGun::kNone;
  CHECK(exact(illustrative_chart(), s).run.flags[kFlagMgJam].value == 0.0);
}

TEST_CASE("3.7 MG jam in the anti-tank role: a 1 on the kill die, then a 1, and a jam ends the chain",
          "[w1943][rules]") {
  // Per shot P(jam) = 1/36; the chain goes on after a 12 only if the gun did not jam:
  // x = 1/36 + (35/36)(1/36) x  =>  x = (1/36) / (1 - 35/1296) = 36/1261.
  const Situation s = mg_vs_tank(MachineGun::kHeavy);
  const sim::RunResult r = exact(never_hits(), s);
  CHECK(r.run.flags[kFlagMgJam].value == Approx(36.0 / 1261.0).margin(1e-12));
  CHECK(r.first.flags[kFlagMgJam].value == Approx(1.0 / 36.0).margin(1e-12));
  // E[shots] = 1 / (1 - (1/36)(35/36)) = 1296/1261.
  CHECK(r.run.counters[kCounterShots].value == Approx(1296.0 / 1261.0).margin(1e-12));
}

TEST_CASE("1943 end reasons: what stopped a shot that was due", "[w1943][rules]") {
  // Anti-tank MG that never hits: the fire ends as mg_jammed only when the jam cut a Rapid Fire
  // shot, i.e. a natural 12 (1/36) and a jam (1/36) on the same shot: 1/1296; the chain goes on
  // after a 12 without a jam, 35/1296: y = 1/1296 + (35/1296) y => y = 1/1261. Every other jam
  // (36/1261 in all) ends the fire as fire_over.
  const sim::RunResult at = exact(never_hits(), mg_vs_tank(MachineGun::kHeavy));
  CHECK(at.run.end_reasons[kEndMgJammed].value == Approx(1.0 / 1261.0).margin(1e-12));
  CHECK(at.run.end_reasons[kEndFireOver].value == Approx(1260.0 / 1261.0).margin(1e-12));
  // Small arms have no Rapid Fire: a jam (11/216) never ends the fire as mg_jammed.
  Situation sa = small_arms();
  sa.firer.mg = MachineGun::kHeavy;
  sa.firer.bases = 1;
  const sim::RunResult r = exact(illustrative_chart(), sa);
  CHECK(r.run.flags[kFlagMgJam].value == Approx(11.0 / 216.0).margin(1e-12));
  CHECK(r.run.end_reasons[kEndMgJammed].value == 0.0);
  CHECK(r.run.end_reasons[kEndFireOver].value == Approx(1.0).margin(1e-12));
  // The same for fuel: one flamethrower fire runs dry with 1/3 and ends as fire_over.
  Situation ft = small_arms(6);
  ft.fire.kind = FireKind::kFlamethrower;
  ft.fire.range = 30;
  const sim::RunResult f = exact(illustrative_chart(), ft);
  CHECK(f.run.flags[kFlagOutOfFuel].value == Approx(1.0 / 3.0).margin(1e-12));
  CHECK(f.run.end_reasons[kEndOutOfFuel].value == 0.0);
}

TEST_CASE("3.6, 3.7: a machine gun in the anti-tank role fires no H.E.", "[w1943][rules]") {
  // Heavy MG, weapon value 2 vs defense 1, 300 yards, the illustrative chart. To Hit: 7+ on the
  // two hit dice with no modifier, 21/36. To Kill: Under 400 yards +1, Heavy MG -1, weapons
  // differential 2 - 1 = +1, and no "Firing H.E." (-2): +1 in all. The anti-tank boxes give K
  // on a modified 5 or 6, i.e. a kill die of 4, 5 or 6: 1/2. First shot P(K) = 21/36 * 1/2 = 7/24.
  Situation s = mg_vs_tank(MachineGun::kHeavy);
  s.firer.weapon_value = 2;
  s.target.defense = 1;
  s.fire.range = 300;
  CHECK(ammo_of(s.firer) == Ammo::kNone);
  const Chart c = illustrative_chart();
  CHECK(build_spec(c, s, ammo_of(s.firer), 1).kill_mod == 1);
  CHECK(exact(c, s).first.flags[kFlagResultK].value == Approx(7.0 / 24.0).margin(1e-12));
  // Any other firer fires H.E. unless told otherwise (3.6: H.E. is a choice against tanks).
  CHECK(ammo_of(artillery_vs_infantry().firer) == Ammo::kHE);
  CHECK(ammo_of(Firer{}) == Ammo::kHE);
}

TEST_CASE("3.7 MG repair: one roll a turn, fixed on a 1", "[w1943][rules]") {
  // Jammed at the start, 3 turns, a target it cannot hurt (all boxes none):
  // turn 1 repair (1/6); if fixed it fires in turns 2 and 3; else turn 2 repair (1/6) and fires
  // in turn 3, else turn 3 repair. P(repaired at least once) = 1 - (5/6)^3 = 91/216.
  // new jams happen only on fire rolls; with 2d6 a shot jams with 11/216.
  // Fixed in turn 1 (1/6): turn 2 fires; turn 3 fires unless turn 2 jammed (1 - 11/216).
  // Fixed in turn 2 (5/36): turn 3 fires.
  // E[shots] = 1/6 (1 + 205/216) + 5/36 = 1/6 * 421/216 + 5/36.
  Situation s = small_arms(2);
  s.firer.mg = MachineGun::kHeavy;
  s.firer.bases = 1;
  s.firer.jammed = true;
  s.fire.turns = 3;
  const sim::RunResult r = exact(uniform_chart(Result::kNone), s);
  CHECK(r.run.flags[kFlagMgRepaired].value == Approx(91.0 / 216.0).margin(1e-12));
  CHECK(r.run.counters[kCounterShots].value == Approx(421.0 / 1296.0 + 5.0 / 36.0).margin(1e-12));
}

TEST_CASE("3.7 secondary ammunition: out on an unmodified 1 or 2 on the kill die", "[w1943][rules]") {
  // APCP without a fallback, never hitting: per shot P(out) = 1/3. The chain continues after a
  // 12 only with ammunition left: x = 1/3 + (2/3)(1/36) x  =>  x = 18/53;
  // E[shots] = 1 / (1 - 2/108) = 54/53; P(a chain cut by the empty rack) = (1/108) / (106/108) = 1/106.
  Situation s = artillery_vs_tank();
  s.firer.ammo = Ammo::kAPCP;
  const Chart c = never_hits();
  const sim::RunResult r = exact(c, s);
  CHECK(r.run.flags[kFlagAmmoOut].value == Approx(18.0 / 53.0).margin(1e-12));
  CHECK(r.run.counters[kCounterShots].value == Approx(54.0 / 53.0).margin(1e-12));
  CHECK(r.run.end_reasons[kEndOutOfAmmo].value == Approx(1.0 / 106.0).margin(1e-12));
  // With AP to fall back on, the chain is not limited: 36/35 shots again.
  s.firer.fallback_ammo = Ammo::kAP;
  CHECK(exact(c, s).run.counters[kCounterShots].value == Approx(36.0 / 35.0).margin(1e-12));
  // Primary ammunition never runs out.
  CHECK(exact(c, artillery_vs_tank()).run.flags[kFlagAmmoOut].value == 0.0);
}

TEST_CASE("3.7 light smoke is secondary ammunition", "[w1943][rules]") {
  // 3 turns of smoke, out on 1-2: E[smoke fired] = 1 + 2/3 + 4/9 = 19/9, P(out) = 1 - (2/3)^3.
  Situation s = small_arms();
  s.fire.kind = FireKind::kSmoke;
  s.firer.mortar = true;
  s.fire.turns = 3;
  const sim::RunResult r = exact(illustrative_chart(), s);
  CHECK(r.run.counters[kCounterShots].value == Approx(19.0 / 9.0).margin(1e-12));
  CHECK(r.run.flags[kFlagAmmoOut].value == Approx(1.0 - 8.0 / 27.0).margin(1e-12));
}

TEST_CASE("3.7 flamethrower: one base a turn, out of fuel on 1-2", "[w1943][rules]") {
  // One fire: kills a base for certain; P(out of fuel) = 1/3.
  Situation s = small_arms(6);
  s.fire.kind = FireKind::kFlamethrower;
  s.fire.range = 30;
  const Chart c = illustrative_chart();
  const sim::RunResult one = exact(c, s);
  CHECK(one.run.counters[kCounterBasesKilled].value == Approx(1.0).margin(1e-12));
  CHECK(one.run.flags[kFlagOutOfFuel].value == Approx(1.0 / 3.0).margin(1e-12));
  // Three turns vs 6 bases: it fires in turn t if the fuel lasted t-1 rolls.
  // lost_1 = 1/3, lost_2 = 2/3 * 1/3 = 2/9, lost_3 = (2/3)^2 = 4/9; E = 19/9.
  // Out of fuel before the last turn ends the fire: 1/3 + 2/9 = 5/9.
  s.fire.turns = 3;
  const sim::RunResult r = exact(c, s);
  CHECK(r.run.counters[kCounterBasesKilled].value == Approx(19.0 / 9.0).margin(1e-12));
  CHECK(r.run.outcomes[outcome(c, s, "lost_1")].value == Approx(1.0 / 3.0).margin(1e-12));
  CHECK(r.run.outcomes[outcome(c, s, "lost_2")].value == Approx(2.0 / 9.0).margin(1e-12));
  CHECK(r.run.outcomes[outcome(c, s, "lost_3")].value == Approx(4.0 / 9.0).margin(1e-12));
  CHECK(r.run.end_reasons[static_cast<std::size_t>(end_index(s, End::kOutOfFuel, 1))].value ==
        Approx(5.0 / 9.0).margin(1e-12));
}

TEST_CASE("3.5, 3.6 packed target: the modifier lapses when one base is left", "[w1943][rules]") {
  // Small arms boxes: K on a modified 10+, nothing below. Six rifle bases at 300 yards (no
  // modifier) at a packed unit of 2 bases (+2), two turns.
  // Turn 1, packed: K on 2d6 >= 8, 15/36. Turn 2 at the last base, no longer packed (no two bases
  // within 10 yards): K on 2d6 >= 10, 6/36. P(destroyed) = 15/36 * 6/36 = 90/1296 = 5/72.
  // (Keeping the bonus would give 15/36 * 15/36 = 225/1296.)
  Chart c = illustrative_chart();
  c.small_arms_results = {2,
                          {Result::kNone, Result::kNone, Result::kNone, Result::kNone, Result::kNone, Result::kNone,
                           Result::kNone, Result::kNone, Result::kKilled, Result::kKilled, Result::kKilled}};
  Situation s = small_arms(2);
  s.target.packed = true;
  s.fire.turns = 2;
  CHECK(exact(c, s).run.flags[kFlagTargetDestroyed].value == Approx(90.0 / 1296.0).margin(1e-12));
  // The modifier as built for two bases and for one.
  CHECK(build_spec(c, s, ammo_of(s.firer), 2).hit_mod == 2);
  CHECK(build_spec(c, s, ammo_of(s.firer), 1).hit_mod == 0);
  // Direct artillery, within one fire: every kill box K, 500 yards, To Hit 7+, packed infantry +1
  // to hit (illustrative chart). The first shot kills a base on 2d6 >= 6; a natural 12 (1/36)
  // fires again at the last base, no longer packed: hits on 2d6 >= 7, 21/36.
  // P(destroyed) = 1/36 * 21/36 = 21/1296 (with the bonus kept: 26/1296).
  Chart k = uniform_chart(Result::kKilled);
  Situation a = artillery_vs_infantry(2);
  a.target.packed = true;
  CHECK(exact(k, a).run.flags[kFlagTargetDestroyed].value == Approx(21.0 / 1296.0).margin(1e-12));
}

TEST_CASE("3.3 two damage hits on an infantry unit combine into one kill", "[w1943][rules]") {
  // Every small arms box is D and the roll cannot fail: turn 1 damages, turn 2 kills, turn 3
  // damages, turn 4 kills the last of 2 bases: destroyed in turn 4 for certain.
  const Chart c = uniform_chart(Result::kDamaged);
  Situation s = small_arms(2);
  s.fire.turns = 4;
  const sim::RunResult r = exact(c, s);
  CHECK(r.run.end_reasons[static_cast<std::size_t>(end_index(s, End::kDestroyed, 4))].value ==
        Approx(1.0).margin(1e-12));
  CHECK(r.first.flags[kFlagBaseDamaged].value == Approx(1.0).margin(1e-12));
  CHECK(r.first.flags[kFlagBaseKilled].value == 0.0);
  // Remnant (one third or less: 0 of 2 here, 1 of 3 for a 3-base unit) by turn.
  Situation t = small_arms(3);
  t.fire.turns = 4;
  const sim::RunResult r3 = exact(c, t);
  CHECK(r3.run.flags[kNumFixedFlags + 2].value == 0.0);                        // remnant by turn 3: no
  CHECK(r3.run.flags[kNumFixedFlags + 3].value == Approx(1.0).margin(1e-12));  // by turn 4: yes
  // A unit that already has a damaged base loses a base to the first D.
  Situation d = small_arms(2);
  d.target.damaged = true;
  CHECK(exact(c, d).run.flags[kFlagBaseKilled].value == Approx(1.0).margin(1e-12));
  // A vehicle's damage does not combine.
  Situation v = artillery_vs_tank();
  v.target.damaged = true;
  Chart dc = uniform_chart(Result::kDamaged);
  for (RangeBand& b : dc.artillery_bands) b.value = 2;
  CHECK(exact(dc, v).run.flags[kFlagBaseKilled].value == 0.0);
}

TEST_CASE("3.3 MG and mortar bases die when hit, immobilization only for vehicles and towed guns", "[w1943][rules]") {
  // Kill boxes all "none": a hit still kills a mortar base. P(hit) = P(2d6 + 0 >= 7) = 21/36.
  Situation m = artillery_vs_infantry(1);
  m.target.type = TargetType::kMortar;
  const Chart none = uniform_chart(Result::kNone);
  CHECK(exact(none, m).run.flags[kFlagBaseKilled].value == Approx(21.0 / 36.0 + 0.0).margin(1e-12));
  // Small arms: every box I, so every roll is a hit (3.3 Hit Results) and an MG or mortar base
  // dies: P(hit) = P(killed) = 1. An infantry unit is hit and loses nothing (I only for vehicles).
  const Chart imm_sa = uniform_chart(Result::kImmobilized);
  for (const TargetType type : {TargetType::kMachineGun, TargetType::kMortar}) {
    Situation sa = small_arms(2);
    sa.target.type = type;
    const sim::RunResult r = exact(imm_sa, sa);
    CHECK(r.run.flags[kFlagHit].value == Approx(1.0).margin(1e-12));
    CHECK(r.run.flags[kFlagBaseKilled].value == Approx(1.0).margin(1e-12));
  }
  const sim::RunResult inf_sa = exact(imm_sa, small_arms(2));
  CHECK(inf_sa.run.flags[kFlagHit].value == Approx(1.0).margin(1e-12));
  CHECK(inf_sa.run.flags[kFlagBaseKilled].value == 0.0);
  // Kill boxes all I: no effect on infantry, immobilizes a towed gun.
  const Chart imm = uniform_chart(Result::kImmobilized);
  const Situation inf = artillery_vs_infantry(2);
  CHECK(exact(imm, inf).run.flags[kFlagImmobilized].value == 0.0);
  CHECK(exact(imm, inf).run.flags[kFlagResultI].value == Approx(21.0 / 36.0).margin(1e-12));
  Situation gun = artillery_vs_infantry(1);
  gun.target.type = TargetType::kTowedGun;
  CHECK(exact(imm, gun).run.flags[kFlagImmobilized].value == Approx(21.0 / 36.0).margin(1e-12));
}

TEST_CASE("3.5 and 3.6 values the text states are built in", "[w1943][rules]") {
  const Chart c = illustrative_chart();
  Situation s = small_arms();
  s.firer.bases = 6;
  auto mod = [&](int firing) {
    s.firer.bases_firing = firing;
    return build_spec(c, s, ammo_of(s.firer), s.target.bases).hit_mod;
  };
  CHECK(mod(6) == 0);  // more than two thirds
  CHECK(mod(5) == 0);
  CHECK(mod(4) == -2);  // two thirds or less: Weak
  CHECK(mod(3) == -2);
  CHECK(mod(2) == -4);  // one third or less: Remnant
  CHECK(mod(1) == -4);
  Situation a = artillery_vs_tank();
  a.firer.training = Training::kOutstanding;
  const int base_hit = build_spec(c, artillery_vs_tank(), Ammo::kAP, 1).hit_mod;
  CHECK(build_spec(c, a, Ammo::kAP, 1).hit_mod == base_hit + 1);
  a.firer.training = Training::kAbysmal;
  CHECK(build_spec(c, a, Ammo::kAP, 1).hit_mod == base_hit - 1);
  const int base_kill = build_spec(c, artillery_vs_tank(), Ammo::kAP, 1).kill_mod;
  CHECK(build_spec(c, mg_vs_tank(MachineGun::kMedium), Ammo::kNone, 1).kill_mod == base_kill - 2);
  CHECK(build_spec(c, mg_vs_tank(MachineGun::kHeavy), Ammo::kNone, 1).kill_mod == base_kill - 1);
  // Weapon Size Index.
  CHECK(shell_size_of("machine_gun") == 0);
  CHECK(shell_size_of("75mm") == 5);
  CHECK(shell_size_of("200mm") == 11);
  CHECK(shell_size_of("light_mortar") == 1);
  CHECK(shell_size_of("medium_mortar") == 3);
  CHECK(shell_size_of("heavy_mortar") == 5);
  CHECK_FALSE(shell_size_of("88mm").has_value());
}

TEST_CASE("1943 weapons: what a known weapon name implies", "[w1943][rules]") {
  Firer f;
  f.weapon = "hmg";
  CHECK(mg_of(f) == MachineGun::kHeavy);
  CHECK(ammo_of(f) == Ammo::kNone);
  f.weapon = "lmg";
  CHECK(mg_of(f) == MachineGun::kLight);
  f.weapon = "rifle";
  CHECK(mg_of(f) == MachineGun::kNone);
  CHECK_FALSE(is_mortar(f));
  f.weapon = "medium_mortar";
  CHECK(is_mortar(f));
  CHECK(shell_size_of(f) == 3);  // 3.6 Weapon Size Index: Med.Mortar (80mm), 3
  f.shell_size = 4;              // a given shell size wins
  CHECK(shell_size_of(f) == 4);
  f.weapon = "81mm_mortar";
  CHECK(is_mortar(f));
  f.weapon = "atr";  // 3.6 Weapon Size Index "ATR,15mm+", 1
  f.shell_size.reset();
  CHECK(shell_size_of(f) == 1);
  f.weapon = "kar98k";  // a chart's own name: nothing implied
  CHECK_FALSE(weapon_class(f.weapon).has_value());
  CHECK(mg_of(f) == MachineGun::kNone);
  // The Hmg modifier follows from the weapon: +2 on the illustrative chart at 300 yards.
  Situation s = small_arms();
  s.firer.weapon = "hmg";
  s.firer.bases = 1;
  CHECK(build_spec(illustrative_chart(), s, ammo_of(s.firer), s.target.bases).hit_mod == 2);
}

TEST_CASE("1943: each setting is accepted exactly where a rule uses it", "[w1943][errors]") {
  // The contexts of a shot, and the settings each rule of the text uses there:
  //   3.5 Small Arms: prone, rushing (personnel only), soft/solid/hard cover, packed,
  //       demoralized, weak/remnant (bases_firing), moving-firing; the weapon differential
  //       (weapon value, defense) against tanks only.
  //   3.6 Direct Artillery: solid/hard cover, stationary in open, moving target, moved, damaged,
  //       training; ammunition (3.6, 3.7); anti-tank: size, flank/rear, weapons differential;
  //       anti-personnel: packed infantry.
  //   3.7 Flamethrowers: "regardless of the target's protection"; Light Smoke: no target.
  enum { kSaP, kSaV, kAT, kAP, kFT, kSmoke, kContexts };
  Situation base[kContexts];
  base[kSaP] = small_arms(3);
  base[kSaV] = small_arms(1);
  base[kSaV].target.type = TargetType::kVehicle;
  base[kAT] = artillery_vs_tank();
  base[kAT].firer.weapon_value = 0;
  base[kAT].target.defense = 0;
  base[kAT].firer.ammo.reset();
  base[kAP] = artillery_vs_infantry(3);
  base[kAP].firer.ammo.reset();
  base[kFT] = small_arms(3);
  base[kFT].firer.bases = 1;
  base[kFT].fire.kind = FireKind::kFlamethrower;
  base[kFT].fire.range = 30;
  base[kSmoke] = small_arms(3);
  base[kSmoke].firer.bases = 1;
  base[kSmoke].fire.kind = FireKind::kSmoke;
  struct Setting {
    const char* key;
    std::function<void(Situation&)> set;
    std::array<bool, kContexts> used;  // SaP, SaV, AT, AP, FT, smoke
  };
  const Setting settings[] = {
      {"target.prone", [](Situation& s) { s.target.prone = true; }, {1, 0, 0, 0, 0, 0}},
      {"target.rushing", [](Situation& s) { s.target.rushing = true; }, {1, 0, 0, 0, 0, 0}},
      {"target.soft_cover", [](Situation& s) { s.target.soft_cover = true; }, {1, 1, 0, 0, 0, 0}},
      {"target.solid_cover", [](Situation& s) { s.target.solid_cover = true; }, {1, 1, 1, 1, 0, 0}},
      {"target.hard_cover", [](Situation& s) { s.target.hard_cover = true; }, {1, 1, 1, 1, 0, 0}},
      {"target.stationary_in_open", [](Situation& s) { s.target.stationary_in_open = true; }, {0, 0, 1, 1, 0, 0}},
      {"target.moving", [](Situation& s) { s.target.moving = true; }, {0, 0, 1, 1, 0, 0}},
      {"target.size", [](Situation& s) { s.target.size = TargetSize::kLarge; }, {0, 0, 1, 0, 0, 0}},
      {"target.defense", [](Situation& s) { s.target.defense = 3; }, {0, 1, 1, 0, 0, 0}},
      {"firer.weapon_value", [](Situation& s) { s.firer.weapon_value = 3; }, {0, 1, 1, 0, 0, 0}},
      {"fire.flank_rear", [](Situation& s) { s.fire.flank_rear = true; }, {0, 0, 1, 0, 0, 0}},
      {"firer.demoralized", [](Situation& s) { s.firer.demoralized = true; }, {1, 1, 0, 0, 0, 0}},
      {"firer.bases_firing", [](Situation& s) { s.firer.bases_firing = 1; }, {1, 1, 0, 0, 0, 0}},
      {"firer.training", [](Situation& s) { s.firer.training = Training::kOutstanding; }, {0, 0, 1, 1, 0, 0}},
      {"firer.damaged", [](Situation& s) { s.firer.damaged = true; }, {0, 0, 1, 1, 0, 0}},
      {"firer.moved", [](Situation& s) { s.firer.moved = true; }, {1, 1, 1, 1, 0, 0}},
      {"firer.ammo", [](Situation& s) { s.firer.ammo = Ammo::kHE; }, {0, 0, 1, 1, 0, 0}},
      {"firer.secondary", [](Situation& s) { s.firer.secondary = true; }, {0, 0, 1, 1, 0, 0}},
  };
  const Chart c = illustrative_chart();
  for (int w = 0; w < kContexts; ++w) {
    REQUIRE_FALSE(check(c, base[w]).has_value());
    for (const Setting& st : settings) {
      INFO("context " << w << ", " << st.key);
      Situation s = base[w];
      st.set(s);
      const auto e = check(c, s);
      if (st.used[static_cast<std::size_t>(w)]) {
        CHECK_FALSE(e.has_value());
      } else {
        REQUIRE(e.has_value());
        CHECK(e->key() == st.key);
        CHECK(std::string(e->what()).rfind("expected ", 0) == 0);
      }
    }
  }
  // packed needs two bases (3.5) and, for direct artillery, an infantry unit (3.6).
  Situation p = small_arms(3);
  p.target.packed = true;
  CHECK_FALSE(check(c, p).has_value());
  p.fire.kind = FireKind::kFlamethrower;
  p.fire.range = 30;
  p.firer.bases = 1;
  REQUIRE(check(c, p).has_value());
  CHECK(check(c, p)->key() == "target.packed");
}

TEST_CASE("1943 rules conflicts are refused with the key and the rule", "[w1943][errors]") {
  const Chart c = illustrative_chart();
  const std::string no_ammunition =
      "firer.ammo: expected no ammunition type for a machine gun (it fires no H.E. or APCP shells, 3.6, 3.7), got ";
  check_refused(
      c,
      {
          {mg_vs_tank(MachineGun::kLight), "firer.mg: light machine guns may not fire in any anti-tank capacity (3.7)"},
          {with(artillery_vs_infantry(), [](Situation& s) { s.firer.ammo = Ammo::kAP; }),
           "firer.ammo: you must use H.E. in an antipersonnel role (3.6)"},
          {with(artillery_vs_infantry(),
                [](Situation& s) {
                  s.firer.mortar = true;
                  s.fire.range = 100;
                }),
           "fire.range: mortars fire from 120 to 1800 yards (3.7), got 100"},
          {with(small_arms(),
                [](Situation& s) {
                  s.firer.mg = MachineGun::kHeavy;
                  s.firer.bases = 1;
                  s.firer.moved = true;
                }),
           "firer.moved: machine gun bases may not fire on the same turn that they have moved (3.7)"},
          {with(small_arms(1), [](Situation& s) { s.target.packed = true; }),
           "target.packed: expected a target unit of 2 or more bases (3.5, 3.6: bases within 10 yards of each other), "
           "got true with target.bases = 1"},
          {with(artillery_vs_infantry(3),
                [](Situation& s) {
                  s.target.type = TargetType::kMachineGun;
                  s.target.packed = true;
                }),
           "target.packed: expected an infantry target for direct artillery fire (3.6 At packed Infantry), got true "
           "with target.type = \"machine_gun\""},
          {with(mg_vs_tank(MachineGun::kHeavy), [](Situation& s) { s.firer.ammo = Ammo::kHE; }),
           no_ammunition + "\"HE\""},
          {with(mg_vs_tank(MachineGun::kHeavy), [](Situation& s) { s.firer.ammo = Ammo::kAPCP; }),
           no_ammunition + "\"APCP\""},
          {with(mg_vs_tank(MachineGun::kMedium), [](Situation& s) { s.firer.secondary = true; }),
           "firer.secondary: expected false for a machine gun (it has no secondary ammunition, 3.7), got true"},
          {with(small_arms(),
                [](Situation& s) {
                  s.firer.weapon = "rifle";
                  s.fire.range = 900;
                }),
           "fire.range: 900 yards is beyond the 800-yard range of rifle (Base and Range chart)"},
      });
  // 3.5 At packed target: "the unit being fired upon", any unit.
  Situation s = small_arms(3);
  s.target.type = TargetType::kMachineGun;
  s.target.packed = true;
  CHECK_FALSE(check(c, s).has_value());
}
