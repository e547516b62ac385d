// The scalar reference interpreter: a fire phase as a plain loop over shots.
#include "salvo/rules/asl_reference.h"

#include <algorithm>

#include "salvo/rules/asl_ift.h"
#include "salvo/rules/asl_latw.h"
#include "salvo/rules/asl_movement.h"
#include "salvo/rules/asl_shot.h"

namespace salvo::asl {

namespace {

/// A concealed target is acquired only from the shot that removes its concealment (C6.57); the
/// Area Target Type acquires it shot by shot.
bool tracks_concealment(const Situation& s) { return s.target.concealed && s.target.type != TargetType::kArea; }

struct PhaseRun {
  EndReason end = kEndRofExhausted;
  ShotContext ctx;  // after the phase: spent special ammo, Low Ammo
  int fired = 0;
  bool rof_kept = false;  // stopped at fire.max_shots with the Multiple ROF kept (C2.24)
};

// One fire phase from `ctx`, its steps appended to `steps`. `spec_of` builds (or recalls) the
// spec of a shot.
// `tracked`: the target carries on past the phase (a duel, a fight): a Gun left without its crew
// is out for good (unmans_gun).
template <class SpecOf>
PhaseRun run_phase(const Situation& s, ShotContext ctx, Dice& dice, std::vector<StepRecord>& steps, bool tracked,
                   SpecOf&& spec_of) {
  PhaseRun run;
  PhaseTrace trace;
  int fired_total = 0;
  bool wreck = false;  // stop_on = "never": destroyed by an earlier shot; its fate is settled
  auto done = [&](EndReason e) {
    for (StepRecord& st : trace.steps) steps.push_back(st);
    run.end = e;
    run.ctx = ctx;
    run.fired = fired_total;
    return run;
  };
  // C13.31: a Panzerfaust's PF Check before its shot; no shot ends the phase.
  if (is_panzerfaust(s.firer) && ctx.shots_fired == 0) {
    const PfCheckSpec pf = pf_check(s);
    const int r = dice.d6() + 1;
    if (r == 6 || r + pf.drm > pf.shot_max) {
      StepRecord step;
      step.outcome = kOutcomeNoShot;
      if (r == 6) step.flags |= 1u << (s.fire.pinned ? kFlagFirerBroken : kFlagFirerPinned);
      trace.steps.push_back(step);
      return done(kEndPfCheckFailed);
    }
  }
  for (;;) {
    const ShotSpec& spec = spec_of(ctx);
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
      if (shot_ammo(s, ctx) == Ammo::kNone) return done(kEndOutOfAmmo);
      continue;
    }
    step.fired = true;
    step.counts[kCounterShots] = 1;
    step.outcome = spec.ift.direct ? kOutcomeNoEffect : kOutcomeMiss;
    if (bd == Breakdown::kFirerCasualty) {
      step.flags |= 1u << kFlagFirerCasualty;  // C13.36: a miss, and the firer's Casualty Reduction
    } else if (dep == Depletion::kNotAvailable) {
      // C8.9: no such ammunition; the shot counts only for the malfunction it caused.
    } else if (spec.ift.direct) {
      // MG/IFE: the IFT DR is the attack (D3.5, C2.29); Unlikely Kill dr (A7.309).
      const int sub = direct_needs_subsequent_dr(spec, c, w) ? dice.d6() + 1 : 0;
      step.outcome = direct_ift(spec, c, w, sub);
      step.counts[kCounterHits] = 0;
      step.flags |= outcome_flags(step.outcome);
    } else {
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
          const SecondHit second = second_hit(spec, hit, pair_colored(f1), pair_white(f1));
          if (second.kill) {
            const int f2 = dice.pair();
            const Location loc2 = second_hit_location(pair_colored(f1), pair_white(f1));
            best = std::max(best, to_kill(spec, *second.kill, loc2, pair_colored(f2), pair_white(f2)));
          } else if (second.strikes) {
            best = std::max(best, kOutcomeNoEffect);  // the second hit cannot harm (C7.24 NA)
          } else {
            step.counts[kCounterHits] = 1;  // it strikes the hull of a hull-down target: no hit (D4.2)
          }
        } else if (spec.deliberate_immobilization) {
          best = deliberate_immobilization_effect(hit);  // C5.72: no To Kill DR
        } else if (k1.possible) {
          const int f1 = dice.pair();
          best = to_kill(spec, k1, hit.location, pair_colored(f1), pair_white(f1));
        }
        step.outcome = best;
        step.flags |= outcome_flags(best);
      }
    }
    if (wreck) {  // a shot at a wreck hits or misses, nothing more
      step.flags &= ~outcome_flags(step.outcome);
      step.outcome = (step.flags & (1u << kFlagHit)) || spec.ift.direct ? kOutcomeNoEffect : kOutcomeMiss;
    }
    trace.steps.push_back(step);
    ++fired_total;
    // C6.57: a hit removes a concealed target's concealment; from that shot on, shots acquire it
    if (s.target.concealed && (ctx.revealed || (step.flags & (1u << kFlagHit)))) {
      ctx.revealed = true;
      if (ctx.acquiring_shots >= 0) ctx.acquiring_shots = std::min(2, ctx.acquiring_shots + 1);
    }

    // Does the phase go on?
    const bool killed = destroys_target(step.outcome) || (tracked && unmans_gun(s.target, step.outcome));
    wreck = wreck || killed;
    if (killed && s.fire.stop_on != StopOn::kNever) return done(kEndTargetDestroyed);
    if (step.outcome >= kOutcomePossibleShock && s.fire.stop_on == StopOn::kEffect) return done(kEndTargetEffect);
    if (s.fire.deliberate_immobilization && step.outcome == kOutcomeImmobilized)
      return done(kEndTargetEffect);  // C5.71
    if (bd == Breakdown::kMalfunction || bd == Breakdown::kDisabled) return done(kEndMalfunction);
    if (ctx.follow_up) return done(kEndFollowUpDone);
    if (s.fire.max_shots && fired_total >= *s.fire.max_shots) {
      if (!s.fire.follow_up || c > spec.rof) {
        run.rof_kept = spec.keeps_rof && c <= spec.rof;
        return done(kEndShotCap);
      }
      ctx.follow_up = true;  // D3.32: ROF kept through the MPh shots; once more in the AFPh
      ctx.shots_fired = fired_total;
      if (shot_ammo(s, ctx) == Ammo::kNone) return done(kEndOutOfAmmo);
      continue;
    }
    if (ctx.intensive) return done(kEndIntensiveFireDone);
    if (c > spec.rof) {
      if (!s.fire.intensive_fire || (!ctx.later_turn && conditional_rof_bars_intensive(s)))
        return done(kEndRofExhausted);  // C2.5
      ctx.intensive = true;
    }
    ctx.shots_fired = fired_total;
    if (shot_ammo(s, ctx) == Ammo::kNone) return done(kEndOutOfAmmo);
  }
}

}  // namespace

PhaseTrace resolve_phase(const Situation& s, Dice& dice) {
  if (s.movement) throw RulesError("movement", "a movement roll is resolved by resolve_movement()");
  if (auto e = check(s)) throw *e;
  if (s.fire.turns > 1) throw RulesError("fire.turns", "a duel over several turns is resolved by DuelInterpreter");
  PhaseTrace trace;
  ShotContext ctx;
  ctx.low_ammo_marked = s.firer.low_ammo_marked;
  if (tracks_concealment(s)) ctx.acquiring_shots = 0;
  ShotSpec spec;
  trace.end = run_phase(s, ctx, dice, trace.steps, false, [&](const ShotContext& c) -> const ShotSpec& {
                return spec = build_shot(s, c, nullptr);
              }).end;
  return trace;
}

DuelInterpreter::DuelInterpreter(Situation s) : s_(std::move(s)) {
  if (auto e = check(s_)) throw *e;
  if (s_.movement) throw RulesError("movement", "a movement roll is resolved by resolve_movement()");
}

const ShotSpec& DuelInterpreter::spec(const ShotContext& c) {
  const auto key = std::make_tuple(c.shots_fired, c.special_out, c.low_ammo_marked, c.intensive, c.later_turn,
                                   c.carried_acquisition, c.revealed, c.acquiring_shots);
  auto it = specs_.find(key);
  if (it == specs_.end()) it = specs_.emplace(key, build_shot(s_, c, nullptr)).first;
  return it->second;
}

DuelTrace DuelInterpreter::run(Dice& dice) {
  const int T = s_.fire.turns;
  const Fire& fire = s_.fire;
  DuelTrace trace;
  enum { kOk, kOut, kGone } gun = kOk;  // working, malfunctioned, disabled
  int shock = 0;                        // 0 none, 1 Shocked, 2 Unconfirmed Kill (C7.42)
  bool immobilized = false;
  int acq = fire.acquisition;
  bool revealed = false;  // C6.57: a hit removed the target's concealment
  bool special_out = false, low_ammo = s_.firer.low_ammo_marked;
  const bool keeps_acq = s_.firer.stabilized || !(fire.phase == Phase::kBounding || fire.motion);  // C6.55
  auto status = [&](bool wreck) {
    if (wreck) return duel::kDestroyed;
    if (shock == 2) return duel::kUnconfirmedKill;
    if (shock == 1) return duel::kShocked;
    return immobilized ? duel::kImmobilized : duel::kIntact;
  };
  auto flag = [](int f) { return FlagMask{1} << f; };
  // Flags of the gun's status at the end of turns from..to, on the last step so far.
  auto gun_flags = [&](int from, int to) {
    if (gun == kOk) return;
    for (int u = from; u <= to; ++u) {
      trace.steps.back().flags |= flag(duel::flag_gun_out(u, T));
      for (int v = u; v <= T; ++v) trace.steps.back().flags |= flag(duel::flag_gun_out_by(v, T));
    }
  };
  auto wrecked = [&](int t) {
    for (int u = t; u <= T; ++u) trace.steps.back().flags |= flag(duel::flag_destroyed_by(u));
    gun_flags(t, T);
    trace.end = duel::end_destroyed(t);
    return trace;
  };
  auto has_ammo = [&] {
    ShotContext c;
    c.special_out = special_out;
    return shot_ammo(s_, c) != Ammo::kNone;
  };
  auto can_fire = [&] { return gun == kOk && has_ammo(); };
  // A9.72, D3.7: a repair attempt needs a weapon the firer may repair, and ammunition to fire.
  auto repairs = [&] { return gun == kOut && repairable(s_.firer) && has_ammo(); };
  for (int t = 1; t <= T; ++t) {
    // Rally Phases (D3.7 / A9.72 repair; C7.42 Shock recovery)
    for (int r = 1; t > 1 && r <= fire.rally_phases; ++r) {
      if (!repairs() && shock == 0) break;
      StepRecord st;
      if (repairs()) {
        const int dr = dice.d6() + 1;
        const int repair = s_.firer.vehicle ? 1 : *s_.firer.repair;
        if (dr == 6) {
          gun = kGone;
          st.flags |= flag(kFlagDisabled);
        } else if (dr <= repair) {
          gun = kOk;
        }
      }
      bool wreck = false;
      if (shock != 0) {
        const int dr = dice.d6() + 1;
        if (shock == 1)
          shock = dr <= 2 ? 0 : 2;
        else if (dr <= 3)
          shock = 0;
        else
          wreck = true;
      }
      st.outcome = static_cast<Outcome>(status(wreck));
      trace.steps.push_back(st);
      if (wreck) return wrecked(t);
    }
    // The fire phase
    if (can_fire()) {
      ShotContext c;
      c.special_out = special_out;
      c.low_ammo_marked = low_ammo;
      c.later_turn = t > 1;
      c.carried_acquisition = acq;
      c.revealed = revealed;
      if (tracks_concealment(s_)) c.acquiring_shots = 0;
      const std::size_t first = trace.steps.size();
      const PhaseRun r = run_phase(s_, c, dice, trace.steps, true,
                                   [this](const ShotContext& x) -> const ShotSpec& { return spec(x); });
      bool wreck = false;
      for (std::size_t i = first; i < trace.steps.size(); ++i) {
        StepRecord& st = trace.steps[i];
        if (st.fired) {
          if (destroys_target(st.outcome) || unmans_gun(s_.target, st.outcome)) wreck = true;
          if (st.outcome == kOutcomeShock) shock = 1;
          if (st.outcome == kOutcomeImmobilized) immobilized = true;
        }
        if (st.flags & flag(kFlagMalfunction)) gun = kOut;
        if (st.flags & flag(kFlagDisabled)) gun = kGone;
        st.outcome = static_cast<Outcome>(status(wreck));
      }
      special_out = r.ctx.special_out;
      low_ammo = r.ctx.low_ammo_marked;
      revealed = r.ctx.revealed;
      const int built = r.ctx.acquiring_shots >= 0 ? (revealed ? r.ctx.acquiring_shots : 0) : r.fired;  // C6.57
      acq = gun != kOk || !keeps_acq ? 0 : std::min(2, (t > 1 ? acq : fire.acquisition) + built);
      if (wreck) return wrecked(t);
    }
    if (t == 1) trace.first_window_steps = trace.steps.size();
    gun_flags(t, t);
    if (!can_fire() && !repairs() && (shock == 0 || t == T)) {  // the gun out for good
      gun_flags(t + 1, T);
      trace.end = gun != kGone && !has_ammo() ? duel::end_out_of_ammo(T) : duel::end_gun_disabled(T);
      return trace;
    }
    if (t == T) {
      trace.end = duel::end_turns_over(T);
      return trace;
    }
  }
  return trace;  // not reached: the last turn returns
}

PhaseResult resolve_phase_from(const Situation& s, const ShotContext& ctx, Dice& dice, std::vector<StepRecord>& steps,
                               const std::function<const ShotSpec&(const ShotContext&)>& spec_of) {
  const PhaseRun r = run_phase(s, ctx, dice, steps, true, spec_of);
  return {r.end, r.ctx, r.fired, r.rof_kept};
}

}  // namespace salvo::asl
