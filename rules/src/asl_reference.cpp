// The scalar reference interpreter: a fire phase as a plain loop over shots.
#include "salvo/rules/asl_reference.h"

#include <algorithm>

#include "salvo/rules/asl_movement.h"
#include "salvo/rules/asl_shot.h"

namespace salvo::asl {

PhaseTrace resolve_phase(const Situation& s, Dice& dice) {
  if (s.movement) throw RulesError("movement", "a movement roll is resolved by resolve_movement()");
  if (auto e = check(s)) throw *e;
  PhaseTrace trace;
  ShotContext ctx{0, false, s.firer.low_ammo_marked, false};
  int fired_total = 0;
  for (;;) {
    const ShotSpec spec = build_shot(s, ctx, nullptr);
    StepRecord step;
    // To Hit DR (ordered colored/white pair).
    const int face = dice.pair();
    const int c = pair_colored(face), w = pair_white(face), original = c + w;
    const Breakdown bd = breakdown(spec, original);
    const Depletion dep = depletion(spec, original);
    if (bd == Breakdown::kMalfunction) step.flags |= 1u << kFlagMalfunction;
    if (bd == Breakdown::kDisabled) step.flags |= (1u << kFlagMalfunction) | (1u << kFlagDisabled);
    if (bd == Breakdown::kLowAmmo) step.flags |= 1u << kFlagLowAmmo;
    if (dep == Depletion::kRunsOut || dep == Depletion::kNotAvailable) step.flags |= 1u << kFlagDepleted;
    if (dep == Depletion::kRunsOut || dep == Depletion::kNotAvailable) ctx.special_out = true;
    if (bd == Breakdown::kLowAmmo) ctx.low_ammo_marked = true;

    if (dep == Depletion::kNotAvailable && bd == Breakdown::kNone) {
      // C8.9: no such ammunition, no shot; try again with the fallback ammunition.
      step.outcome = kOutcomeNoShot;
      trace.steps.push_back(step);
      if (s.firer.fallback_ammo == Ammo::kNone) {
        trace.end = kEndOutOfAmmo;
        return trace;
      }
      continue;
    }
    step.fired = true;
    step.counts[kCounterShots] = 1;
    step.outcome = kOutcomeMiss;
    if (spec.ift.direct) {
      // MG/IFE: the IFT DR is the attack (D3.5, C2.29); Unlikely Kill dr (A7.309).
      const int sub = direct_needs_subsequent_dr(spec, c, w) ? dice.d6() + 1 : 0;
      step.outcome = direct_ift(spec, c, w, sub);
      step.counts[kCounterHits] = 0;
      step.flags |= outcome_flags(step.outcome);
    } else if (dep != Depletion::kNotAvailable) {
      const int sub = needs_subsequent_dr(spec, c, w) ? dice.d6() + 1 : 0;
      const Hit hit = to_hit(spec, c, w, sub);
      if (hit.hit) {
        step.flags |= 1u << kFlagHit;
        if (hit.critical) step.flags |= 1u << kFlagCritical;
        if (hit.multiple) step.flags |= 1u << kFlagMultipleHit;
        step.counts[kCounterHits] = hit.multiple ? 2 : 1;
        const KillSpec& k1 = spec.kill[static_cast<std::size_t>(kill_index(hit.location, hit.facing, hit.critical))];
        Outcome best = kOutcomeNoEffect;
        if (hit.multiple) {
          const int f1 = dice.pair();
          best = to_kill(spec, k1, hit.location, pair_colored(f1), pair_white(f1));
          const Location loc2 = second_hit_location(pair_colored(f1), pair_white(f1));
          const KillSpec& k2 = spec.kill[static_cast<std::size_t>(kill_index(loc2, hit.facing, false))];
          if (k2.possible) {
            const int f2 = dice.pair();
            best = std::max(best, to_kill(spec, k2, loc2, pair_colored(f2), pair_white(f2)));
          } else {
            best = std::max(best, kOutcomeNoEffect);  // the second hit cannot harm (Case D NA)
          }
        } else if (k1.possible) {
          const int f1 = dice.pair();
          best = to_kill(spec, k1, hit.location, pair_colored(f1), pair_white(f1));
        }
        step.outcome = best;
        step.flags |= outcome_flags(best);
      }
    }
    trace.steps.push_back(step);
    ++fired_total;

    // Does the phase go on?
    const bool killed = destroys_target(step.outcome);
    if (killed && s.fire.stop_on != StopOn::kNever) { trace.end = kEndTargetDestroyed; return trace; }
    if (step.outcome >= kOutcomePossibleShock && s.fire.stop_on == StopOn::kEffect) { trace.end = kEndTargetEffect; return trace; }
    if (bd == Breakdown::kMalfunction || bd == Breakdown::kDisabled) { trace.end = kEndMalfunction; return trace; }
    if (s.fire.max_shots && fired_total >= *s.fire.max_shots) { trace.end = kEndShotCap; return trace; }
    if (ctx.intensive) { trace.end = kEndIntensiveFireDone; return trace; }
    if (c > spec.rof) {
      if (!s.fire.intensive_fire) { trace.end = kEndRofExhausted; return trace; }
      ctx.intensive = true;
    }
    ctx.shots_fired = fired_total;
    if (shot_ammo(s, ctx) == Ammo::kNone) { trace.end = kEndOutOfAmmo; return trace; }
  }
}

}  // namespace salvo::asl
