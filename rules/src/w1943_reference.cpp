// The 1943 scalar reference interpreter: turns of fire as a plain loop over shots.
#include "salvo/rules/w1943_reference.h"

#include <map>
#include <utility>

namespace salvo::w1943 {

Trace resolve(const Chart& chart, const Situation& s, Dice& dice) {
  if (auto e = check(chart, s)) throw *e;
  const bool has_fallback = s.firer.fallback_ammo != Ammo::kNone;
  const bool several = s.fire.turns > 1;
  // The modifiers as the dice are rolled depend on the ammunition left and on the bases left
  // (a packed unit is no longer packed at one base): specs by [secondary out][bases left].
  std::map<std::pair<bool, int>, ShotSpec> specs;
  auto spec_for = [&](bool out, int alive) -> const ShotSpec& {
    auto it = specs.find({out, alive});
    if (it == specs.end())
      it = specs
               .emplace(std::pair{out, alive},
                        build_spec(chart, s, out ? s.firer.fallback_ammo : ammo_of(s.firer), alive))
               .first;
    return it->second;
  };
  const int full = s.target.bases;

  Trace trace;
  TargetState target{full, s.target.damaged, s.target.immobilized};
  bool jammed = s.firer.jammed, ammo_out = false, fuel_out = false;
  auto can_fire = [&] { return !fuel_out && !(ammo_out && (s.fire.kind == FireKind::kSmoke || !has_fallback)); };
  auto finish = [&](End e, int turn) {
    trace.end = end_index(s, e, turn);
    return trace;
  };

  for (int turn = 1; turn <= s.fire.turns; ++turn) {
    if (jammed) {
      // 3.7: one repair roll this turn; fixed on a 1.
      StepRecord step;
      step.turn = turn;
      if (dice.d6() == 0) {
        jammed = false;
        step.flags |= 1u << kFlagMgRepaired;
      }
      step.outcome = outcome_index(s, kOutMiss, full - target.alive);
      trace.steps.push_back(step);
    } else {
      for (bool first = true;; first = false) {
        const ShotSpec& spec = spec_for(ammo_out, target.alive);
        // Roll the fire dice, then the jam die if needed.
        int roll = 0, kill_die = 0;
        if (spec.kind == FireKind::kSmallArms) {
          roll = spec.dice == 2 ? dice.pair() : dice.d6();
        } else if (spec.kind == FireKind::kArtillery) {
          roll = dice.pair();
          kill_die = dice.d6() + 1;
        } else {
          kill_die = dice.d6() + 1;
        }
        const Shot shot = resolve_shot(spec, roll, kill_die);
        const bool jams = shot.jam_check && dice.d6() == 0;

        StepRecord step;
        step.turn = turn;
        const TargetState before = target;
        const int killed = apply_shot(s.target.type, shot, target);
        if (shot.hit) {
          step.flags |= 1u << kFlagHit;
          if (shot.result == Result::kKilled) step.flags |= 1u << kFlagResultK;
          if (shot.result == Result::kDamaged) step.flags |= 1u << kFlagResultD;
          if (shot.result == Result::kImmobilized) step.flags |= 1u << kFlagResultI;
        }
        if (killed) step.flags |= 1u << kFlagBaseKilled;
        if (target.damaged && !before.damaged) step.flags |= 1u << kFlagBaseDamaged;
        if (target.immobilized && !before.immobilized) step.flags |= 1u << kFlagImmobilized;
        if (shot.rapid_fire) step.flags |= 1u << kFlagRapidFire;
        if (jams) step.flags |= 1u << kFlagMgJam;
        if (s.fire.kind == FireKind::kFlamethrower && shot.ammo_out) {
          step.flags |= 1u << kFlagOutOfFuel;
          fuel_out = true;
        } else if (shot.ammo_out && spec.secondary) {
          step.flags |= 1u << kFlagAmmoOut;
          ammo_out = true;
        }
        if (target.alive == 0) step.flags |= 1u << kFlagTargetDestroyed;
        if (is_remnant(target.alive, full) && !is_remnant(before.alive, full)) {
          step.flags |= 1u << kFlagTargetRemnant;
          if (several)
            for (int t = turn; t <= s.fire.turns; ++t) step.flags |= 1u << (kNumFixedFlags + t - 1);
        }
        step.counts[kCounterShots] = 1;
        step.counts[kCounterHits] = shot.hit ? 1 : 0;
        step.counts[kCounterBasesKilled] = static_cast<std::uint8_t>(killed);
        step.counts[kCounterTurnsFired] = first ? 1 : 0;
        step.outcome = outcome_index(s, shot_outcome_of(s.fire.kind, shot), full - target.alive);
        trace.steps.push_back(step);

        if (target.alive == 0) return finish(End::kDestroyed, turn);
        if (jams) {
          jammed = true;
          if (!several && shot.rapid_fire) return finish(End::kMgJammed, turn);  // a Rapid Fire shot was due
          break;
        }
        if (!shot.rapid_fire) break;
        if (!can_fire()) return finish(fuel_out ? End::kOutOfFuel : End::kOutOfAmmo, turn);
      }
    }
    if (turn == s.fire.turns) return finish(End::kFireOver, turn);
    if (!jammed && !can_fire()) return finish(fuel_out ? End::kOutOfFuel : End::kOutOfAmmo, turn);
  }
  return finish(End::kFireOver, s.fire.turns);
}

}  // namespace salvo::w1943
