#pragma once
// A plain interpreter of fights, for the tests: the game turn written out as loops over steps
// and units, each unit's fire phase resolved by the reference loop (resolve_phase_from), the
// units' state in plain variables. It shares the shot functions with the compiler (one source
// of truth for the rules) but none of its state graph: asl_fight.cpp's joint states, exits,
// canonical forms and leaf copies are checked against it.

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "infantry_interpreter.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/rules/asl_reference.h"
#include "salvo/rules/asl_shot.h"

namespace salvo::asl::testing {

/// What one fight did: its winner (fight::Outcome), the turn it ended in, the units' flags
/// (fight::unit_flag) by the end of turn 1 and of the fight, the shots fired.
struct FightRecord {
  int winner = fight::kUndecided;
  int end_turn = 0;
  int winner_turn1 = fight::kUndecided;
  FlagMask flags_turn1 = 0, flags = 0;
  int shots = 0, shots_turn1 = 0;
};

class FightInterpreter {
 public:
  explicit FightInterpreter(const Fight& f) : f_(f), n_(f.units.size()) {
    for (std::size_t a = 0; a < n_; ++a)
      for (std::size_t b = 0; b < n_; ++b) situations_.push_back(fight_situation(f, a, b));
  }

  FightRecord run(Dice& dice) {
    const std::size_t n = f_.units.size();
    units_.assign(n, Unit{});
    for (std::size_t i = 0; i < n; ++i) {
      units_[i].low_ammo = f_.units[i].firer.low_ammo_marked;
      units_[i].inf.size = f_.units[i].as_target.personnel == Personnel::kSquad ? 0 : 2;
      units_[i].inf.status = f_.units[i].as_target.broken ? 2 : 0;
    }
    rec_ = FightRecord{};
    for (int t = 1; t <= f_.turns; ++t) {
      new_player_turn();
      for (const FightStep step : f_.sequence) {
        if (step == FightStep::kRally) {
          new_player_turn();
          rally(dice);
        } else {
          fire(step == FightStep::kFireA ? 0 : 1, dice);
        }
        if (const int w = winner()) return finish(w, t);
      }
      if (t == 1) {
        rec_.flags_turn1 = rec_.flags;
        rec_.shots_turn1 = rec_.shots;
      }
    }
    return finish(fight::kUndecided, f_.turns);
  }

 private:
  struct Unit {
    bool destroyed = false, immobilized = false, revealed = false;
    int shock = 0;  // 0 none, 1 Shocked, 2 Unconfirmed Kill
    int gun = 0;    // 0 ok, 1 malfunctioned, 2 disabled
    bool special_out = false, low_ammo = false, fired_before = false;
    int acq = 0, acq_target = -1;
    bool fired_pt = false, rof_left = false;  // fired this Player Turn; may fire again (C2.24)
    Personnel_ inf;                           // an infantry unit: its status (gun: its SW MG)
  };

  void new_player_turn() {
    for (Unit& u : units_) {
      u.fired_pt = u.rof_left = false;
      if (u.inf.status == 1) u.inf.status = 0;  // A7.8: pinned for the rest of the Player Turn
    }
  }

  FightRecord finish(int w, int t) {
    rec_.winner = w;
    rec_.end_turn = t;
    if (t == 1) {
      rec_.flags_turn1 = rec_.flags;
      rec_.shots_turn1 = rec_.shots;
      rec_.winner_turn1 = w;
    }
    return rec_;
  }

  int winner() const {
    bool a = false, b = false;
    for (std::size_t i = 0; i < units_.size(); ++i)
      if (!units_[i].destroyed) (f_.units[i].side == 0 ? a : b) = true;
    return !b ? fight::kOutcomeAWins : !a ? fight::kOutcomeBWins : fight::kUndecided;
  }

  void mark(std::size_t i, fight::UnitFlag what) { rec_.flags |= FlagMask{1} << fight::unit_flag(i, what); }

  bool has_ammo(std::size_t i) const {
    if (is_infantry(f_.units[i])) return true;
    ShotContext c;
    c.special_out = units_[i].special_out;
    c.low_ammo_marked = units_[i].low_ammo;
    return shot_ammo(situations_[i * n_], c) != Ammo::kNone;  // the firer's ammunition, any target
  }

  // D3.7, A9.72: repairs in file order, then C7.42 recoveries at the end of the phase.
  void rally(Dice& dice) {
    for (std::size_t i = 0; i < units_.size(); ++i) {
      Unit& u = units_[i];
      if (u.destroyed || u.shock != 0 || u.gun != 1 || !repairable(f_.units[i].firer) || !has_ammo(i)) continue;
      if (u.inf.status == 2) continue;  // a broken unit repairs nothing
      const int dr = dice.d6() + 1;
      const bool sw = is_infantry(f_.units[i]);  // a SW MG: A9.72, dr 1
      const int r = f_.units[i].firer.vehicle || sw ? 1 : f_.units[i].firer.repair.value_or(1);
      if (dr == 6)
        u.gun = 2;
      else if (dr <= r)
        u.gun = 0;
    }
    for (std::size_t i = 0; i < units_.size(); ++i) {
      Unit& u = units_[i];
      const FightUnit& fu = f_.units[i];
      if (!u.destroyed && is_infantry(fu) && fu.rally_drm && u.inf.status == 2) {  // A10.6
        const int face = dice.pair();
        const int dr = pair_colored(face) + pair_white(face);
        const int morale = fu.as_target.broken_morale.value_or(*fu.as_target.morale) - (fu.as_target.encircled ? 1 : 0);
        if (dr == 12) {  // Casualty Reduction
          mark(i, fight::kReduced);
          if (u.inf.size == 0) {
            u.inf.size = 1;
          } else {
            u.destroyed = true;
            mark(i, fight::kDestroyed);
          }
        } else if (dr + *fu.rally_drm <= morale) {
          u.inf.status = 0;
        }
        continue;
      }
      if (u.destroyed || u.shock == 0) continue;
      const int dr = dice.d6() + 1;
      if (u.shock == 1) {
        u.shock = dr <= 2 ? 0 : 2;
      } else if (dr <= 3) {
        u.shock = 0;
      } else {
        u.destroyed = true;
        mark(i, fight::kDestroyed);
      }
    }
  }

  int target_of(std::size_t i) const {
    const FightUnit& fu = f_.units[i];
    for (std::size_t b = 0; b < units_.size(); ++b)
      if (fu.target && f_.units[b].name == *fu.target && !units_[b].destroyed) return static_cast<int>(b);
    for (std::size_t b = 0; b < units_.size(); ++b) {
      if (f_.units[b].side == fu.side || units_[b].destroyed) continue;
      if (is_infantry(f_.units[b]) ? units_[b].inf.status != 2
                                   : units_[b].shock == 0 && units_[b].gun != 2 && has_ammo(b))
        return static_cast<int>(b);
    }
    for (std::size_t b = 0; b < units_.size(); ++b)
      if (f_.units[b].side != fu.side && !units_[b].destroyed) return static_cast<int>(b);
    return -1;
  }

  void fire(int side, Dice& dice) {
    for (std::size_t i = 0; i < units_.size(); ++i) {
      if (f_.units[i].side != side || winner() != fight::kUndecided) continue;
      Unit& u = units_[i];
      if (is_infantry(f_.units[i])) {
        fire_infantry(i, dice);
        continue;
      }
      if (u.destroyed || u.shock != 0 || u.gun != 0 || !has_ammo(i)) continue;
      if (u.fired_pt && !u.rof_left) continue;  // once a Player Turn, unless its ROF was kept
      const int t = target_of(i);
      if (t < 0) continue;
      Unit& v = units_[static_cast<std::size_t>(t)];
      const Situation& s = situations_[i * n_ + static_cast<std::size_t>(t)];
      ShotContext c;
      c.special_out = u.special_out;
      c.low_ammo_marked = u.low_ammo;
      c.later_turn = u.fired_before;
      c.carried_acquisition = u.acq_target == t ? u.acq : 0;
      c.revealed = v.revealed;
      const bool concealment = s.target.concealed && s.target.type != TargetType::kArea;  // C6.57
      if (concealment) c.acquiring_shots = 0;
      std::vector<StepRecord> steps;
      const PhaseResult r = resolve_phase_from(s, c, dice, steps, [&](const ShotContext& x) -> const ShotSpec& {
        const auto key =
            std::make_tuple(i, t, x.shots_fired, x.special_out, x.low_ammo_marked, x.intensive, x.follow_up,
                            x.later_turn, x.carried_acquisition, x.revealed, x.acquiring_shots);
        auto it = specs_.find(key);
        if (it == specs_.end()) it = specs_.emplace(key, build_shot(s, x, nullptr)).first;
        return it->second;
      });
      for (const StepRecord& st : steps) {
        rec_.shots += st.counts[kCounterShots];
        if (st.fired && !v.destroyed) {
          // A K leaves a Gun without its crew (C11.6, A7.302): out for good, as if destroyed.
          if (destroys_target(st.outcome) || unmans_gun(s.target, st.outcome)) {
            v = Unit{};
            v.destroyed = true;
            mark(static_cast<std::size_t>(t), fight::kDestroyed);
          } else if (st.outcome == kOutcomeShock) {
            v.shock = 1;
          } else if (st.outcome == kOutcomeImmobilized && !v.immobilized) {
            v.immobilized = true;
            mark(static_cast<std::size_t>(t), fight::kImmobilized);
          }
        }
        if (st.flags & (FlagMask{1} << kFlagDisabled)) {
          if (u.gun == 0) mark(i, fight::kGunOut);
          u.gun = 2;
        } else if (st.flags & (FlagMask{1} << kFlagMalfunction)) {
          if (u.gun == 0) mark(i, fight::kGunOut);
          u.gun = 1;
        }
      }
      u.special_out = r.ctx.special_out;
      u.low_ammo = r.ctx.low_ammo_marked;
      if (!v.destroyed) v.revealed = r.ctx.revealed;
      // C6.5: the shots build Acquisition (C6.57: against a concealed target, from the hit that
      // revealed it); lost on a malfunction, and kept by a moving firer only if stabilized.
      const bool keeps = s.firer.stabilized || !(s.fire.phase == Phase::kBounding || s.fire.motion);
      const int built = r.ctx.acquiring_shots >= 0 ? (r.ctx.revealed ? r.ctx.acquiring_shots : 0) : r.fired;
      const int base = u.fired_before ? c.carried_acquisition : s.fire.acquisition;
      u.acq = u.gun != 0 || !keeps ? 0 : std::min(2, base + built);
      u.acq_target = t;
      u.fired_before = true;
      u.fired_pt = true;
      u.rof_left = r.rof_kept;
    }
  }

  // An infantry unit's fire phase (infantry_interpreter.h): not broken, with its inherent FP or
  // its MG; once a Player Turn.
  void fire_infantry(std::size_t i, Dice& dice) {
    Unit& u = units_[i];
    if (u.destroyed || u.inf.status == 2 || u.fired_pt) return;
    if (f_.units[i].firer.fp == 0 && u.gun != 0) return;
    const int t = target_of(i);
    if (t < 0) return;
    Unit& v = units_[static_cast<std::size_t>(t)];
    const InfantryAttacks attacks(situations_[i * n_ + static_cast<std::size_t>(t)], u.inf.status == 1, u.inf.size == 1,
                                  u.gun == 0);
    const InfantryPhase r = attacks.fire(v.inf, dice);
    rec_.shots += r.attacks;
    if (r.broke) mark(static_cast<std::size_t>(t), fight::kBroken);
    if (r.reduced) mark(static_cast<std::size_t>(t), fight::kReduced);
    if (v.inf.eliminated) {
      v.destroyed = true;
      mark(static_cast<std::size_t>(t), fight::kDestroyed);
    }
    if (r.mg_malfunctioned) u.gun = 1;
    u.fired_pt = true;
    u.fired_before = true;
  }

  const Fight& f_;
  std::size_t n_;
  std::vector<Situation> situations_;  // [shooter * n + target]
  std::vector<Unit> units_;
  FightRecord rec_;
  // The shots' specs by shooter, target and context (build_shot is the costly part of a trial).
  std::map<std::tuple<std::size_t, int, int, bool, bool, bool, bool, bool, int, bool, int>, ShotSpec> specs_;
};

}  // namespace salvo::asl::testing
