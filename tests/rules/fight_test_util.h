#pragma once
// What the fight tests share: units whose chances are known in closed form (killer), random
// fights for the engine checks, and the tally of the plain interpreter's records against the
// exact engine's quantities.

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "asl_test_util.h"
#include "fight_interpreter.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/sim/exact.h"
#include "support/named.h"

namespace salvo::asl::testing {

// The chance that a killer() with Modified TH# `th` kills in one fire phase: its Final TH DR
// is the DR - 2 (full Acquisition), and every hit kills but an Original TK DR 12, a Dud
// (C7.35): P(DR <= th + 2) * 35/36.
inline double p_dr_at_most(int th) {
  int ways = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= 6; ++b) ways += a + b <= th + 2 ? 1 : 0;
  return ways / 36.0 * 35.0 / 36.0;
}

// A unit that kills with a fixed chance each fire phase: Modified TH# `th` (C3.3 override), no
// ROF, full Acquisition from the start (C6.5: -2 in every phase, so that no phase differs from
// another), a Basic TK# of 30 that every TK DR but a Dud is below (C7.1, C7.35), and a B# no
// DR reaches (no malfunction). Its chance: p_dr_at_most(th).
inline FightUnit killer(const std::string& name, int side, int th) {
  FightUnit u;
  u.name = name;
  u.side = side;
  const Situation b = base();
  u.firer = b.firer;
  u.firer.breakdown = 13;
  u.fire = b.fire;
  u.fire.acquisition = 2;
  u.as_target = b.target;
  u.override_.modified_th = th;
  u.override_.basic_tk = 30;
  return u;
}

inline Fight fight_of(std::vector<FightUnit> units, std::vector<FightStep> sequence, int turns) {
  Fight f;
  f.name = "test";
  f.units = std::move(units);
  f.sequence = std::move(sequence);
  f.turns = turns;
  return f;
}

inline double flag(const RollProgram& p, const sim::RunResult& r, const std::string& name) {
  return test::flag(p, r.run, name);
}

// A random unit for the Monte Carlo checks: a real gun and armor, ROF, B#, Low Ammo, APCR.
inline FightUnit random_unit(std::mt19937_64& g, const std::string& name, int side) {
  const auto pick = [&g](int n) { return static_cast<int>(g() % static_cast<std::uint64_t>(n)); };
  FightUnit u;
  u.name = name;
  u.side = side;
  u.firer.nationality = side == 0 ? Nationality::kAmerican : Nationality::kGerman;
  static const char* const kGuns[] = {"75", "76L", "75L", "88L", "57L", "50L"};
  u.firer.gun = *parse_gun(kGuns[pick(6)]);
  u.firer.rof = pick(3);
  u.firer.breakdown = 10 + pick(3);
  u.firer.low_ammo = pick(3) == 0;
  if (pick(4) == 0 && (u.firer.gun.designation == "75L" || u.firer.gun.designation == "76L")) {
    u.firer.ammo = Ammo::kAPCR;
    u.firer.depletion = 4 + pick(4);
  }
  static const int kAf[] = {3, 4, 6, 8, 11, 14};
  const int front = kAf[pick(6)], side_af = kAf[pick(3)];
  u.as_target.armor = Armor{front, side_af, front, side_af};
  u.as_target.facing = pick(3) == 0 ? Facing::kSide : Facing::kFront;
  u.as_target.hull_down = pick(5) == 0;
  u.fire.acquisition = pick(3) == 0 ? 1 : 0;
  return u;
}

/// A random Gun (C11): no vehicle, its R#, fired on as a Gun and its crew on the Infantry
/// Target Type, behind a gunshield or not, Emplaced or not, concealed or not.
inline FightUnit random_gun(std::mt19937_64& g, const std::string& name, int side) {
  const auto pick = [&g](int n) { return static_cast<int>(g() % static_cast<std::uint64_t>(n)); };
  FightUnit u = random_unit(g, name, side);
  u.firer.vehicle = false;
  u.firer.low_ammo = false;
  u.firer.repair = 2 + pick(3);
  u.as_target.type = TargetType::kInfantry;
  u.as_target.hull_down = false;
  u.as_target.gun = true;
  u.as_target.gunshield = pick(2) == 0;
  u.as_target.emplaced = pick(3) == 0;
  u.as_target.concealed = pick(3) == 0;
  u.as_target.tem = pick(3);
  u.as_target.size = pick(2);
  return u;
}

/// A squad of `fp` inherent FP (Normal Range 6) at 3 hexes, fired on as a squad of morale 7.
inline FightUnit squad(const std::string& name, int side, int fp) {
  FightUnit u;
  u.name = name;
  u.side = side;
  u.firer.weapon = Weapon::kInfantry;
  u.firer.fp = fp;
  u.firer.normal_range = 6;
  u.fire.range = 3;
  u.as_target.type = TargetType::kInfantry;
  u.as_target.morale = 7;
  return u;
}

/// A random infantry unit: a squad or HS, with or without a SW MG or a leader directing it,
/// fired on in cover or not, concealed or not, with or without its leader's DRM, rallying or not.
inline FightUnit random_infantry(std::mt19937_64& g, const std::string& name, int side) {
  const auto pick = [&g](int n) { return static_cast<int>(g() % static_cast<std::uint64_t>(n)); };
  static constexpr int kFp[] = {2, 4, 6, 8};
  FightUnit u = squad(name, side, kFp[pick(4)]);
  u.firer.nationality = side == 0 ? Nationality::kGerman : Nationality::kRussian;
  u.firer.normal_range = 3 + pick(4);
  if (pick(2) == 0) u.firer.mg = SwMg{1 + pick(4), 6 + pick(7), pick(3), 10 + pick(3)};
  if (pick(4) == 0) u.firer.leader = -1;
  u.firer.inexperienced = pick(8) == 0;
  u.as_target.morale = 6 + pick(3);
  u.as_target.tem = pick(3);
  u.as_target.concealed = pick(5) == 0;
  if (pick(5) == 0) u.as_target.personnel = Personnel::kHalfSquad;
  if (pick(5) == 0) u.as_target.leader = -1;
  if (pick(2) == 0) u.rally_drm = pick(3);  // A10.6
  return u;
}

// `na` random units on side A and `nb` on side B, one random range between the sides.
inline Fight random_fight(std::mt19937_64& g, const std::string& name, int na, int nb) {
  Fight f;
  f.name = name;
  for (int k = 0; k < na; ++k) f.units.push_back(random_unit(g, "a" + std::to_string(k), 0));
  for (int k = 0; k < nb; ++k) f.units.push_back(random_unit(g, "b" + std::to_string(k), 1));
  const int range = 2 + static_cast<int>(g() % 12);
  for (FightUnit& u : f.units) u.fire.range = range;
  return f;
}

/// What fight records add up to, each with its weight (a dice path's probability, or 1 for a
/// sampled trial), numbered as the fight's program numbers its quantities.
struct FightTally {
  std::vector<double> flags;                       ///< flags of the whole fight (side and unit flags)
  std::vector<double> flags1;                      ///< unit flags by the end of game turn 1
  std::vector<double> ends;                        ///< end reasons
  std::array<double, fight::kNumOutcomes> won1{};  ///< who had won by the end of turn 1
  double turns = 0, shots = 0, shots1 = 0, weight = 0;

  explicit FightTally(const RollProgram& p)
      : flags(p.flag_names.size()), flags1(p.flag_names.size()), ends(p.end_reason_names.size()) {}

  void add(const Fight& f, const FightRecord& rec, double w) {
    const int side_flag = rec.winner == fight::kOutcomeAWins   ? fight::kAWins
                          : rec.winner == fight::kOutcomeBWins ? fight::kBWins
                                                               : fight::kNeither;
    flags[static_cast<std::size_t>(side_flag)] += w;
    for (std::size_t k = fight::kNumSideFlags; k < flags.size(); ++k) {
      if (rec.flags & (FlagMask{1} << k)) flags[k] += w;
      if (rec.flags_turn1 & (FlagMask{1} << k)) flags1[k] += w;
    }
    ends[static_cast<std::size_t>(rec.winner == fight::kOutcomeAWins   ? fight::end_a_wins(rec.end_turn)
                                  : rec.winner == fight::kOutcomeBWins ? fight::end_b_wins(rec.end_turn, f.turns)
                                                                       : fight::end_turns_over(f.turns))] += w;
    won1[static_cast<std::size_t>(rec.winner_turn1)] += w;
    turns += w * rec.end_turn;
    shots += w * rec.shots;
    shots1 += w * rec.shots_turn1;
    weight += w;
  }
};

}  // namespace salvo::asl::testing
