// Compile an ASL firing situation into a roll program: one state per distinct shot context,
// each with a DAG over the To Hit DR, the subsequent dr and the To Kill DR(s).
#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "checks.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_arc.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/rules/asl_infantry.h"
#include "salvo/rules/asl_latw.h"
#include "salvo/rules/asl_movement.h"
#include "salvo/rules/asl_shot.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {
namespace {

using Gun_ = phase::Gun;     // the firing gun in a duel or a fight
using Shock = phase::Shock;  // C7.42

// A state: where the fire phase stands and, in a duel (fire.turns > 1), the turn, the Rally
// Phase and what carries over between turns. A one-turn phase uses only the first four fields.
struct Key {
  int shots = 0;             // shots fired this phase (canonical: saturates once they are alike)
  bool special_out = false;  // the special ammo is gone (C8.9)
  bool low_ammo = false;     // Low Ammo counter (D3.71)
  bool intensive = false;    // the Intensive Fire shot (C5.6)
  bool follow_up = false;    // the AFPh follow-up shot (D3.32)
  int turn = 1;              // duel: 1..T
  int rph = 0;               // duel: 0 the fire phase; r >= 1 the r-th Rally Phase before it
  int acq = 0;               // duel, later turns: Acquisition carried over (C6.5)
  Gun_ gun = Gun_::kOk;
  Shock shock = Shock::kNone;
  bool immobilized = false;
  // A concealed target (C6.57): a hit removes its concealment, and only that shot and the later
  // ones build Acquisition. acq_shots: those shots this phase (0..2); -1 for any other target.
  bool revealed = false;
  int acq_shots = -1;
  // stop_on = "never": the target was destroyed by an earlier shot of this phase; later shots
  // still count as shots and hits, but cannot change its fate.
  bool wreck = false;
  auto tie() const {
    return std::tie(shots, special_out, low_ammo, intensive, follow_up, turn, rph, acq, gun, shock, immobilized,
                    revealed, acq_shots, wreck);
  }
  bool operator==(const Key& o) const { return tie() == o.tie(); }
};

struct KeyHash {
  std::size_t operator()(const Key& k) const noexcept {
    std::uint64_t h = static_cast<std::uint32_t>(k.shots);
    for (const int v : {int{k.special_out}, int{k.low_ammo}, int{k.intensive}, int{k.follow_up}, k.turn, k.rph, k.acq,
                        static_cast<int>(k.gun), static_cast<int>(k.shock), int{k.immobilized}, int{k.revealed},
                        k.acq_shots, int{k.wreck}})
      h = (h ^ static_cast<std::uint32_t>(v)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
};

ShotContext context_of(const Key& k) {
  return {.shots_fired = k.shots,
          .special_out = k.special_out,
          .low_ammo_marked = k.low_ammo,
          .intensive = k.intensive,
          .follow_up = k.follow_up,
          .later_turn = k.turn > 1,
          .carried_acquisition = k.acq,
          .revealed = k.revealed,
          .acquiring_shots = k.acq_shots};
}

int status_of(bool destroyed, Shock shock, bool immobilized) {
  if (destroyed) return duel::kDestroyed;
  if (shock == Shock::kUnconfirmed) return duel::kUnconfirmedKill;
  if (shock == Shock::kShocked) return duel::kShocked;
  return immobilized ? duel::kImmobilized : duel::kIntact;
}

// "shot 2", "shots 3+ (fallback ammo)", ...
std::string shot_label(const Situation& s, const ShotContext& ctx, int saturate) {
  std::string l;
  if (ctx.intensive)
    l = "Intensive Fire shot";
  else if (ctx.follow_up)
    l = "AFPh follow-up shot";
  else if (s.fire.max_shots || ctx.shots_fired < saturate)
    l = "shot " + std::to_string(ctx.shots_fired + 1);
  else
    l = "shots " + std::to_string(ctx.shots_fired + 1) + "+";
  const Ammo a = shot_ammo(s, ctx);
  if (is_special(s.firer.ammo) && ctx.special_out) l += a == Ammo::kNone ? " (no ammo)" : " (fallback ammo)";
  if (ctx.low_ammo_marked && !s.firer.low_ammo_marked) l += " (Low Ammo)";
  if (ctx.revealed)  // C6.57: the hit and the shots after it acquire the target (saturating at 2)
    l += " (concealment removed by a hit; " + std::to_string(ctx.acquiring_shots) +
         (ctx.acquiring_shots >= 2 ? "+" : "") + " acquiring shot" + (ctx.acquiring_shots == 1 ? ")" : "s)");
  return l;
}

std::string state_label(const Situation& s, const Key& k, int saturate) {
  const std::string l = shot_label(s, context_of(k), saturate);
  if (s.fire.turns == 1) return l;
  std::string d = "turn " + std::to_string(k.turn) + ", ";
  if (k.rph > 0) {
    d += "Rally Phase";
    if (s.fire.rally_phases > 1) d += " " + std::to_string(k.rph);
    if (k.gun == Gun_::kMalfunctioned) d += ": repair";
    if (k.shock != Shock::kNone) d += k.gun == Gun_::kMalfunctioned ? ", Shock recovery" : ": Shock recovery";
  } else {
    d += l;
    if (k.turn > 1 && k.acq > 0) d += " (Acquisition -" + std::to_string(k.acq) + " carried over)";
  }
  if (k.gun == Gun_::kDisabled) d += "; gun disabled";
  if (k.shock == Shock::kShocked) d += "; target Shocked";
  if (k.shock == Shock::kUnconfirmed) d += "; target Unconfirmed Kill";
  if (k.immobilized) d += "; target immobilized";
  return d;
}

// A small map from packed keys to links (the compiler's memos): open addressing in a
// power-of-two table, cleared without freeing.
class LinkMemo {
 public:
  const Link* find(std::uint32_t key) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t at = slot(key);; at = (at + 1) & (slots_.size() - 1)) {
      if (slots_[at].first == 0) return nullptr;
      if (slots_[at].first == key + 1) return &slots_[at].second;
    }
  }
  void insert(std::uint32_t key, Link l) {  // key not present
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t at = slot(key);
    while (slots_[at].first != 0) at = (at + 1) & (slots_.size() - 1);
    slots_[at] = {key + 1, l};
    ++size_;
  }
  void clear() {
    std::fill(slots_.begin(), slots_.end(), std::pair<std::uint32_t, Link>{});
    size_ = 0;
  }

 private:
  std::size_t slot(std::uint32_t key) const { return (key * 0x9E3779B1u >> 8) & (slots_.size() - 1); }
  void grow() {
    std::vector<std::pair<std::uint32_t, Link>> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    size_ = 0;
    for (const auto& [k, l] : old)
      if (k != 0) insert(k - 1, l);
  }
  std::vector<std::pair<std::uint32_t, Link>> slots_;  // (key + 1, link); 0: empty
  std::size_t size_ = 0;
};

class Compiler {
 public:
  // `first_shot`: the spec of the first state's shot, already built (unexplained).
  // `phase`: compile one fire phase of a fight from this start (phase::compile), ending in exits.
  Compiler(const Situation& s, bool explain, const ShotSpec* first_shot, const phase::Start* phase = nullptr)
      : s_(s), turns_(phase ? 1 : s.fire.turns), explain_(explain), first_shot_(first_shot), phase_(phase) {}

  const std::vector<phase::Exit>& exits() const { return exits_; }

  Compiled run() {
    Compiled out;
    auto& p = b_.program();
    // Room for a one-turn phase of a few kinds of shot (growth costs more than the rest).
    p.nodes.reserve(32);
    p.links.reserve(32 * 36);
    p.leaves.reserve(64);
    p.flag_names.reserve(kMaxFlags);
    p.outcome_names.reserve(kNumOutcomes);
    p.end_reason_names.reserve(kNumEndReasons);
    p.counter_names.reserve(kNumCounters);
    if (duel()) {
      duel::add_names(p, turns_);
    } else if (phase_) {
      for (int i = 0; i < kNumFlags; ++i) p.flag_names.emplace_back(flag_name(i));
      for (int i = 0; i < duel::kNumStatus; ++i) p.outcome_names.emplace_back(duel::status_name(i));
    } else {
      for (int i = 0; i < kNumFlags; ++i) p.flag_names.emplace_back(flag_name(i));
      for (int i = 0; i < kNumOutcomes; ++i) p.outcome_names.emplace_back(outcome_name(i));
      for (int i = 0; i < kNumEndReasons; ++i)
        p.end_reason_names.emplace_back(end_reason_name(i));  // name_program drops
    }
    for (int i = 0; i < kNumCounters; ++i) p.counter_names.emplace_back(counter_name(i));

    Key start;
    start.low_ammo = s_.firer.low_ammo_marked;
    // C6.57: the Area Target Type acquires a concealed target shot by shot like any other
    if (s_.target.concealed && s_.target.type != TargetType::kArea) start.acq_shots = 0;
    if (phase_) {  // what the firer and the target carry from earlier phases of the fight
      start.low_ammo = start.low_ammo || phase_->firer.low_ammo;
      start.special_out = phase_->firer.special_out;
      if (phase_->firer.fired_before) {  // as a duel's later turn: no Case A, Acquisition carried
        start.turn = 2;
        start.acq = phase_->firer.acquisition;
      }
      start.shock = phase_->target.shock;
      start.immobilized = phase_->target.immobilized;
      start.revealed = phase_->target.revealed;
    }
    p.initial_state = state_of(start);
    std::set<std::tuple<int, bool, bool, bool, bool, bool, int, bool, int>> explained;  // one per kind of shot
    for (std::size_t next = 0; next < pending_.size(); ++next) {
      const Key k = pending_[next];
      const std::int32_t id = ids_.at(k);
      if (k.rph > 0) {
        b_.set_state_root(id, rally_dag(k));
        continue;
      }
      const ShotContext ctx = context_of(k);
      const bool explain = explain_ && explained
                                           .insert({k.shots, k.special_out, k.low_ammo, k.intensive, k.follow_up,
                                                    k.turn > 1, k.acq, k.revealed, k.acq_shots})
                                           .second;
      ShotExplain ex;
      // The first state is the first shot: ShotContext{.low_ammo_marked = marked}, as check()
      const ShotSpec spec =
          next == 0 && first_shot_ && !explain ? *first_shot_ : build_shot(s_, ctx, explain ? &ex : nullptr);
      b_.set_state_root(id, build_state(k, spec));
      if (!explain) continue;
      ex.label = shot_label(s_, ctx, saturate(k));
      if (duel() && k.turn == 1) ex.label = "turn 1: " + ex.label;
      if (duel() && k.turn > 1)
        ex.label = "later turns" +
                   (k.acq > 0 ? " (Acquisition -" + std::to_string(k.acq) + " carried over)" : std::string()) + ": " +
                   ex.label;
      out.explain.shots.push_back(std::move(ex));
    }
    out.program = b_.take();
    return out;
  }

 private:
  bool duel() const { return turns_ > 1; }
  // The target's and the gun's status carry over past the phase: a duel, or a fight's phase.
  bool tracks() const { return duel() || phase_ != nullptr; }

  // Shots beyond this many fired are alike unless a cap counts them: Case A only on the first
  // (C5.12), Acquisition saturates at -2 (C6.5).
  // and in Bounding First Fire Case C1/C2 fall away as the MP in LOS grow with each shot (C5.31-.32),
  // as Case J1/J2 do in Defensive First Fire (C6.17).
  int saturate(const Key& k) const {
    int n = std::max(1, 2 - (k.turn > 1 ? k.acq : s_.fire.acquisition));
    if (s_.fire.phase == Phase::kBounding && s_.fire.los_mp && *s_.fire.los_mp <= 3.0)
      n = std::max(n, static_cast<int>(std::floor(3.0 - *s_.fire.los_mp)) + 1);
    if (s_.fire.phase == Phase::kDefensive && s_.target.moving && s_.target.mp_in_los && *s_.target.mp_in_los <= 3.0)
      n = std::max(n, static_cast<int>(std::floor(3.0 - *s_.target.mp_in_los)) + 1);
    return n;
  }

  std::int32_t state_of(const Key& k) {
    auto it = ids_.find(k);
    if (it != ids_.end()) return it->second;
    // (a fight's phase: its states are the fight's, which have no labels)
    const std::int32_t id = phase_ ? b_.reserve_state() : b_.reserve_state(state_label(s_, k, saturate(k)));
    ids_.emplace(k, id);
    pending_.push_back(k);
    return id;
  }

  Link end(Leaf leaf, int reason) {
    leaf.next_state = -1;
    leaf.end_reason = static_cast<std::uint8_t>(reason);
    leaf.closes_window = true;
    return b_.leaf(leaf);
  }

  // Leaf of a step: what happened, and where the phase goes next. Within one state the leaf
  // depends on the colored dr only through "ROF kept", so it is built once per distinct input.
  // `hits`: the hits the shot scored (counter "hits"); -1: from `hit` (a Multiple Hit is two).
  Link finish(const Key& k, const ShotSpec& spec, int colored, Breakdown bd, Depletion dep, bool fired, const Hit& hit,
              Outcome outcome, int hits = -1) {
    if (hits < 0) hits = hit.hit ? (hit.multiple ? 2 : 1) : 0;
    const bool kept_rof = spec.keeps_rof && colored <= spec.rof;  // C2.24
    const std::uint32_t memo = static_cast<std::uint32_t>(kept_rof) | static_cast<std::uint32_t>(bd) << 1 |
                               static_cast<std::uint32_t>(dep) << 4 | static_cast<std::uint32_t>(fired) << 6 |
                               static_cast<std::uint32_t>(hit.hit) << 7 |
                               static_cast<std::uint32_t>(hit.critical) << 8 |
                               static_cast<std::uint32_t>(hit.multiple) << 9 |
                               static_cast<std::uint32_t>(outcome) << 10 | static_cast<std::uint32_t>(hits) << 24;
    if (const Link* l = finish_memo_.find(memo)) return *l;
    const Link l = finish_leaf(k, kept_rof, bd, dep, fired, hit, outcome, hits);
    finish_memo_.insert(memo, l);
    return l;
  }

  Link finish_leaf(const Key& k, bool kept_rof, Breakdown bd, Depletion dep, bool fired, const Hit& hit,
                   Outcome outcome, int hits) {
    const ShotContext ctx = context_of(k);
    // A shot at a wreck (stop_on = "never", after a kill): it hits or misses, nothing more.
    // (MG/IFE roll no To Hit DR: their shot has no effect, never a miss.)
    if (k.wreck && fired) outcome = hit.hit || direct_ift(s_.firer) ? kOutcomeNoEffect : kOutcomeMiss;
    Leaf leaf;
    leaf.outcome = static_cast<std::uint8_t>(fired ? outcome : kOutcomeNoShot);
    leaf.closes_window = fired && !tracks();  // a duel's first window is its first turn
    if (bd == Breakdown::kMalfunction) leaf.flags |= 1u << kFlagMalfunction;
    if (bd == Breakdown::kDisabled) leaf.flags |= (1u << kFlagMalfunction) | (1u << kFlagDisabled);
    if (bd == Breakdown::kLowAmmo) leaf.flags |= 1u << kFlagLowAmmo;
    if (bd == Breakdown::kFirerCasualty) leaf.flags |= 1u << kFlagFirerCasualty;
    if (dep == Depletion::kRunsOut || dep == Depletion::kNotAvailable) leaf.flags |= 1u << kFlagDepleted;
    if (hit.hit) leaf.flags |= 1u << kFlagHit;
    if (hit.critical) leaf.flags |= 1u << kFlagCritical;
    if (hit.multiple) leaf.flags |= 1u << kFlagMultipleHit;
    leaf.flags |= outcome_flags(outcome);
    leaf.counts[kCounterShots] = fired ? 1 : 0;
    leaf.counts[kCounterHits] = static_cast<std::uint8_t>(hits);

    Key next = k;
    next.special_out = k.special_out || dep == Depletion::kRunsOut || dep == Depletion::kNotAvailable;
    next.low_ammo = k.low_ammo || bd == Breakdown::kLowAmmo;
    // burn, eliminated, #KIA (A7.301); carried on (a duel, a fight), a Gun whose crew a K eliminates
    const bool kill = fired && (destroys_target(outcome) || (tracks() && unmans_gun(s_.target, outcome)));
    next.wreck = k.wreck || (kill && !tracks());
    if (fired && s_.target.concealed && (k.revealed || hit.hit)) {  // C6.57: a hit removes the concealment
      next.revealed = true;
      if (k.acq_shots >= 0) next.acq_shots = std::min(2, k.acq_shots + 1);
    }
    if (tracks()) {  // the target and the gun after the step carry over to later steps and turns
      if (fired && outcome == kOutcomeShock) next.shock = Shock::kShocked;  // C7.42: a UK flips back to Shock
      if (fired && outcome == kOutcomeImmobilized) next.immobilized = true;
      if (bd == Breakdown::kMalfunction) next.gun = Gun_::kMalfunctioned;
      if (bd == Breakdown::kDisabled) next.gun = Gun_::kDisabled;
      leaf.outcome = static_cast<std::uint8_t>(status_of(kill, next.shock, next.immobilized));
    }

    // The phase ends for `reason`: a one-turn phase ends the run; a duel goes on to the next
    // turn; a fight's phase ends in the exit that says what carries on.
    auto phase_over = [&](EndReason reason) {
      if (!tracks()) return end(leaf, reason);
      if (kill && duel()) return destroyed(leaf, k.turn, next.gun);
      // C6.5: Acquisition is lost on a malfunction; otherwise the shots of this phase build it up
      // (a firer that moves keeps none without a gyrostabilizer, C6.55: build_shot ignores it).
      const int base = k.turn > 1 ? k.acq : s_.fire.acquisition;
      const bool moving = s_.fire.phase == Phase::kBounding || s_.fire.motion;
      const bool keeps = s_.firer.stabilized || !moving;
      const int built =
          next.acq_shots >= 0 ? (next.revealed ? next.acq_shots : 0) : k.shots + (fired ? 1 : 0);  // C6.57
      next.acq = next.gun != Gun_::kOk || !keeps ? 0 : std::min(2, base + built);
      if (phase_) return exit(leaf, next, kill, reason == kEndShotCap && kept_rof);
      return turn_over(leaf, next);
    };
    if (!fired) {
      // C8.9: no such ammunition; the shot did not happen. Fire again with the fallback.
      if (shot_ammo(s_, context_of(next)) == Ammo::kNone) return phase_over(kEndOutOfAmmo);
      leaf.next_state = state_of(next);
      return b_.leaf(leaf);
    }
    // Why the phase ends, in order of precedence: the target, then the Gun, then the ROF.
    if (kill && (s_.fire.stop_on != StopOn::kNever || tracks())) return phase_over(kEndTargetDestroyed);
    if (outcome >= kOutcomePossibleShock && s_.fire.stop_on == StopOn::kEffect) return phase_over(kEndTargetEffect);
    // C5.71: no Deliberate Immobilization attempt against an immobilized target.
    if (s_.fire.deliberate_immobilization && outcome == kOutcomeImmobilized) return phase_over(kEndTargetEffect);
    if (bd == Breakdown::kMalfunction || bd == Breakdown::kDisabled) return phase_over(kEndMalfunction);  // A9.7
    const int fired_now = ctx.shots_fired + 1;
    if (ctx.follow_up) return phase_over(kEndFollowUpDone);  // D3.32: "again once"
    if (s_.fire.max_shots && fired_now >= *s_.fire.max_shots) {
      if (!s_.fire.follow_up || !kept_rof) return phase_over(kEndShotCap);
      // D3.32: the MPh fire stopped with the Multiple ROF kept: one more shot in the AFPh.
      next.shots = fired_now;
      next.follow_up = true;
      if (shot_ammo(s_, context_of(next)) == Ammo::kNone) return phase_over(kEndOutOfAmmo);
      leaf.next_state = state_of(next);
      return b_.leaf(leaf);
    }
    if (ctx.intensive) return phase_over(kEndIntensiveFireDone);  // C5.6: one and only one shot
    bool intensive_next = false;
    if (!kept_rof) {
      // C2.5: no Intensive Fire in the Player Turn of a Conditional ROF CA change (the first).
      if (!s_.fire.intensive_fire || (k.turn <= 1 && conditional_rof_bars_intensive(s_)))
        return phase_over(kEndRofExhausted);
      intensive_next = true;  // C5.6: after the normal ROF is exhausted
    }
    next.shots = s_.fire.max_shots ? fired_now : std::min(fired_now, saturate(k));
    next.intensive = intensive_next;
    if (shot_ammo(s_, context_of(next)) == Ammo::kNone) return phase_over(kEndOutOfAmmo);
    leaf.next_state = state_of(next);
    return b_.leaf(leaf);
  }

  // ---- A fight's phase (phase::compile) ----

  // The phase is over in the state `k` (`kill`: the target destroyed; `rof_kept`: stopped at
  // fire.max_shots with the Multiple ROF kept): the exit that says what the firer and the target
  // carry on, as end_reason.
  Link exit(Leaf leaf, const Key& k, bool kill, bool rof_kept) {
    phase::Exit e;
    e.firer = {true, k.acq, k.special_out, k.low_ammo, k.gun};
    e.rof_kept = rof_kept;
    if (kill)
      e.target.destroyed = true;
    else
      e.target = {false, k.shock, k.immobilized, k.revealed};
    auto it = std::find(exits_.begin(), exits_.end(), e);
    if (it == exits_.end()) {
      if (exits_.size() > 255) throw std::logic_error("asl: a fight's fire phase with more than 256 exits");
      it = exits_.insert(exits_.end(), e);
    }
    leaf.next_state = -1;
    leaf.end_reason = static_cast<std::uint8_t>(it - exits_.begin());
    leaf.closes_window = true;
    return b_.leaf(leaf);
  }

  // ---- Duel bookkeeping (fire.turns > 1) ----

  FlagMask bit(int flag) const { return FlagMask{1} << flag; }

  // The gun's status at the end of turn t.
  void mark_gun(Leaf& leaf, int t, Gun_ gun) const {
    if (gun == Gun_::kOk) return;
    leaf.flags |= bit(duel::flag_gun_out(t, turns_));
    for (int u = t; u <= turns_; ++u) leaf.flags |= bit(duel::flag_gun_out_by(u, turns_));
  }

  // The target is destroyed in turn t: the duel is over. The gun keeps its status to the end.
  Link destroyed(Leaf leaf, int t, Gun_ gun) {
    for (int u = t; u <= turns_; ++u) {
      leaf.flags |= bit(duel::flag_destroyed_by(u));
      mark_gun(leaf, u, gun);
    }
    return end(leaf, duel::end_destroyed(t));
  }

  bool has_ammo(const Key& k) const { return shot_ammo(s_, context_of(k)) != Ammo::kNone; }
  bool can_fire(const Key& k) const { return k.gun == Gun_::kOk && has_ammo(k); }
  // A repair attempt in the Rally Phase: a malfunctioned weapon this firer may repair (A9.72,
  // D3.7) and that has ammunition left to fire (else nothing it could do depends on it).
  bool repairs(const Key& k) const { return k.gun == Gun_::kMalfunctioned && repairable(s_.firer) && has_ammo(k); }

  // Turn k.turn is over (its fire phase was played, or the gun could not fire): mark the gun,
  // then go on to the next turn's first Rally Phase, or end the run.
  Link turn_over(Leaf leaf, Key k) {
    const int t = k.turn;
    mark_gun(leaf, t, k.gun);
    if (t == 1) leaf.closes_window = true;  // the first window is the first turn
    // The gun out for good (disabled, malfunctioned with no repair possible, or no ammunition
    // left): the duel ends there, unless a Shocked target still has its recovery to roll. So a
    // run that ends with the gun out for good, on the last turn too, says so.
    if (!can_fire(k) && !repairs(k) && (k.shock == Shock::kNone || t == turns_)) {
      for (int u = t + 1; u <= turns_; ++u) mark_gun(leaf, u, k.gun);
      return end(leaf, k.gun != Gun_::kDisabled && !has_ammo(k) ? duel::end_out_of_ammo(turns_)
                                                                : duel::end_gun_disabled(turns_));
    }
    if (t == turns_) return end(leaf, duel::end_turns_over(turns_));
    k.turn = t + 1;
    k.rph = 1;
    k.shots = 0;
    k.intensive = false;
    if (k.acq_shots > 0) k.acq_shots = 0;  // counted again in the new phase (the target stays revealed)
    return enter(leaf, k);
  }

  // The run goes on at Rally Phase k.rph of turn k.turn (k.rph == 0: at its fire phase).
  Link enter(Leaf leaf, Key k) {
    if (k.rph > 0 && !repairs(k) && k.shock == Shock::kNone) k.rph = 0;  // nothing to roll
    if (k.rph > 0 || can_fire(k)) {
      leaf.next_state = state_of(k);
      return b_.leaf(leaf);
    }
    return turn_over(leaf, k);  // the gun cannot fire this turn
  }

  // A Rally Phase: the repair dr of a malfunctioned gun (D3.7: 1 repairs, 6 disables; a Gun,
  // A9.72: dr <= R# repairs, 6 eliminates), then the Shock recovery dr at its end (C7.42:
  // Shock 1-2 removed, else Unconfirmed Kill; UK 1-3 removed, else a wreck).
  Link rally_dag(const Key& k) {
    const int repair = s_.firer.vehicle ? 1 : repair_number(s_.firer).value_or(1);
    auto after_repair = [&](Gun_ gun) {
      auto leaf_for = [&](Shock shock, bool wreck) {
        Leaf leaf;
        leaf.outcome = static_cast<std::uint8_t>(status_of(wreck, shock, k.immobilized));
        if (gun == Gun_::kDisabled && k.gun != Gun_::kDisabled) leaf.flags |= bit(kFlagDisabled);
        if (wreck) return destroyed(leaf, k.turn, gun);
        Key n = k;
        n.gun = gun;
        n.shock = shock;
        n.rph = k.rph < s_.fire.rally_phases ? k.rph + 1 : 0;
        return enter(leaf, n);
      };
      if (k.shock == Shock::kNone) return leaf_for(Shock::kNone, false);
      std::array<Link, 6> dr;
      for (int r = 1; r <= 6; ++r) {
        const bool removed = k.shock == Shock::kShocked ? r <= 2 : r <= 3;
        dr[static_cast<std::size_t>(r - 1)] = removed                      ? leaf_for(Shock::kNone, false)
                                              : k.shock == Shock::kShocked ? leaf_for(Shock::kUnconfirmed, false)
                                                                           : leaf_for(Shock::kUnconfirmed, true);
      }
      return b_.node(DieKind::kD6, dr);
    };
    if (!repairs(k)) return after_repair(k.gun);
    std::array<Link, 6> dr;
    for (int r = 1; r <= 6; ++r)
      dr[static_cast<std::size_t>(r - 1)] = after_repair(r == 6        ? Gun_::kDisabled
                                                         : r <= repair ? Gun_::kOk
                                                                       : Gun_::kMalfunctioned);
    Link root = b_.node(DieKind::kD6, dr);
    return root;
  }

  // The effect of each TK DR on one aspect, for the state being built: kept from state to state
  // while the To Kill inputs stay the same (shots of the same ammunition).
  void reuse_tk_outcomes(const ShotSpec& spec) {
    const bool same = spec.ift.effects == Effects::kToKill && tk_for_.ift.effects == Effects::kToKill &&
                      spec.he == tk_for_.he && spec.red_cs == tk_for_.red_cs && spec.kill == tk_for_.kill;
    if (same) return;
    tk_known_ = {};
    tk_for_ = spec;
  }

  const std::array<Outcome, 36>& tk_outcomes(const ShotSpec& spec, Location loc, Facing facing, bool critical) {
    const auto i = static_cast<std::size_t>(kill_index(loc, facing, critical));
    if (!tk_known_[i]) {
      const KillSpec& k = spec.kill[i];
      for (int f = 0; f < 36; ++f)
        tk_[i][static_cast<std::size_t>(f)] = to_kill(spec, k, loc, pair_colored(f), pair_white(f));
      tk_known_[i] = true;
    }
    return tk_[i];
  }

  // After a hit: the To Kill DR(s) (C7; C3.8 Multiple Hits).
  Link kill_dag(const Key& key, const ShotSpec& spec, int colored, Breakdown bd, Depletion dep, const Hit& hit) {
    const KillSpec& k1 = spec.kill[static_cast<std::size_t>(kill_index(hit.location, hit.facing, hit.critical))];
    if (!hit.multiple && !k1.possible) return finish(key, spec, colored, bd, dep, true, hit, kOutcomeNoEffect);
    // Only the outcome differs between the leaves of one kill DAG: finish() once per outcome.
    // A second hit on the hull of a hull-down target is no hit (D4.2): the shot scored one.
    std::array<Link, 2 * kNumOutcomes> by_outcome;
    std::array<bool, 2 * kNumOutcomes> known{};
    const auto leaf_for = [&](Outcome o, bool second_struck = true) {
      const auto i = static_cast<std::size_t>(o) + (second_struck ? 0 : kNumOutcomes);
      if (!known[i]) {
        by_outcome[i] = second_struck ? finish(key, spec, colored, bd, dep, true, hit, o)
                                      : finish(key, spec, colored, bd, dep, true, hit, o, 1);
        known[i] = true;
      }
      return by_outcome[i];
    };
    const std::array<Outcome, 36>& first = tk_outcomes(spec, hit.location, hit.facing, hit.critical);
    std::array<Link, 36> links;
    for (int f = 0; f < 36; ++f) {
      const int c1 = pair_colored(f), w1 = pair_white(f);
      const Outcome o1 = first[static_cast<std::size_t>(f)];
      if (!hit.multiple) {
        links[static_cast<std::size_t>(f)] = leaf_for(o1);
        continue;
      }
      // C3.8: the first TK DR decides the location of the second hit; the firer keeps the better.
      const SecondHit second_hit_at = second_hit(spec, hit, c1, w1);
      if (!second_hit_at.kill) {  // no TK DR: it cannot harm (at least "no effect"), or strikes nothing
        links[static_cast<std::size_t>(f)] =
            second_hit_at.strikes ? leaf_for(std::max(o1, kOutcomeNoEffect)) : leaf_for(o1, false);
        continue;
      }
      const std::array<Outcome, 36>& o2 = tk_outcomes(spec, second_hit_location(c1, w1), hit.facing, false);
      std::array<Link, 36> second;
      for (std::size_t g = 0; g < 36; ++g) second[g] = leaf_for(std::max(o1, o2[g]));
      links[static_cast<std::size_t>(f)] = b_.node(DieKind::kPair, second);
    }
    return b_.node(DieKind::kPair, links);
  }

  // A To Hit DR's hit, or miss: the To Kill DR(s), or a Deliberate Immobilization's effect (C5.72).
  template <class KillDag>
  Link resolve_hit(const Key& key, const ShotSpec& spec, int c, Breakdown bd, Depletion dep, const Hit& h,
                   const KillDag& kill_dag_memo) {
    if (!h.hit) return finish(key, spec, c, bd, dep, true, h, kOutcomeMiss);
    if (spec.deliberate_immobilization)
      return finish(key, spec, c, bd, dep, true, h, deliberate_immobilization_effect(h));
    return kill_dag_memo(c, bd, dep, h);
  }

  Link build_state(const Key& key, const ShotSpec& spec) {
    finish_memo_.clear();
    // kill_dag depends only on its arguments, and on the colored dr only through "ROF kept":
    // build each distinct one once (the builder would de-duplicate the nodes anyway, so the
    // program is unchanged; this saves the work).
    kill_dags_.clear();
    reuse_tk_outcomes(spec);
    const auto kill_dag_memo = [&](int c, Breakdown bd, Depletion dep, const Hit& h) {
      const bool kept = spec.keeps_rof && c <= spec.rof;
      const std::uint32_t mkey =
          static_cast<std::uint32_t>(kept) | static_cast<std::uint32_t>(bd) << 1 |
          static_cast<std::uint32_t>(dep) << 4 | static_cast<std::uint32_t>(h.hit) << 6 |
          static_cast<std::uint32_t>(h.critical) << 7 | static_cast<std::uint32_t>(h.multiple) << 8 |
          static_cast<std::uint32_t>(h.improbable) << 9 | static_cast<std::uint32_t>(h.location) << 10 |
          static_cast<std::uint32_t>(h.facing) << 11;
      if (const Link* l = kill_dags_.find(mkey)) return *l;
      const Link l = kill_dag(key, spec, c, bd, dep, h);
      kill_dags_.insert(mkey, l);
      return l;
    };
    std::array<Link, 36> th;
    for (int f = 0; f < 36; ++f) {
      const int c = pair_colored(f), w = pair_white(f), o = c + w;
      const Breakdown bd = breakdown(spec, o);
      const Depletion dep = depletion(spec, o);
      Link& out = th[static_cast<std::size_t>(f)];
      if (dep == Depletion::kNotAvailable) {
        // C8.9: not fired for any purpose unless Malfunction or Low Ammo occurs.
        out = finish(key, spec, c, bd, dep, bd != Breakdown::kNone, Hit{},
                     spec.ift.direct ? kOutcomeNoEffect : kOutcomeMiss);
        continue;
      }
      if (bd == Breakdown::kFirerCasualty) {  // C13.36: a miss, and the firer's Casualty Reduction
        out = finish(key, spec, c, bd, dep, true, Hit{}, kOutcomeMiss);
        continue;
      }
      if (spec.ift.direct) {  // MG/IFE: the IFT DR is the attack (D3.5, C2.29); A7.309 Unlikely Kill dr
        if (!direct_needs_subsequent_dr(spec, c, w)) {
          out = finish(key, spec, c, bd, dep, true, Hit{}, direct_ift(spec, c, w, 0));
          continue;
        }
        std::array<Link, 6> sub;
        for (int r = 1; r <= 6; ++r)
          sub[static_cast<std::size_t>(r - 1)] = finish(key, spec, c, bd, dep, true, Hit{}, direct_ift(spec, c, w, r));
        out = b_.node(DieKind::kD6, sub);
        continue;
      }
      if (needs_subsequent_dr(spec, c, w)) {
        std::array<Link, 6> sub;
        for (int r = 1; r <= 6; ++r) {
          const Hit h = to_hit(spec, c, w, r);
          sub[static_cast<std::size_t>(r - 1)] = resolve_hit(key, spec, c, bd, dep, h, kill_dag_memo);
        }
        out = b_.node(DieKind::kD6, sub);
        continue;
      }
      out = resolve_hit(key, spec, c, bd, dep, to_hit(spec, c, w, 0), kill_dag_memo);
    }
    const Link shot = b_.node(DieKind::kPair, th);
    return is_panzerfaust(s_.firer) && key.shots == 0 ? pf_check_dag(shot) : shot;
  }

  // C13.31: the PF Check dr before the Panzerfaust's shot: a Final dr <= the PF Check number
  // fires it; otherwise no shot, and an Original 6 pins the firer (breaks it if pinned).
  Link pf_check_dag(Link shot) {
    const PfCheckSpec pf = pf_check(s_);
    std::array<Link, 6> dr;
    for (int r = 1; r <= 6; ++r) {
      if (r < 6 && r + pf.drm <= pf.shot_max) {
        dr[static_cast<std::size_t>(r - 1)] = shot;
        continue;
      }
      Leaf leaf;
      leaf.outcome = kOutcomeNoShot;
      if (r == 6) leaf.flags |= 1u << (s_.fire.pinned ? kFlagFirerBroken : kFlagFirerPinned);
      dr[static_cast<std::size_t>(r - 1)] = end(leaf, kEndPfCheckFailed);
    }
    return b_.node(DieKind::kD6, dr);
  }

  const Situation& s_;
  int turns_ = 1;
  bool explain_ = true;
  const ShotSpec* first_shot_ = nullptr;
  const phase::Start* phase_ = nullptr;
  std::vector<phase::Exit> exits_;  // a fight's phase: its exits, by end_reason
  ProgramBuilder b_;
  std::unordered_map<Key, std::int32_t, KeyHash> ids_;
  std::vector<Key> pending_;                      // every state, in the order reserved: built first to last
  LinkMemo finish_memo_;                          // finish() within the state being built
  LinkMemo kill_dags_;                            // kill_dag() within the state being built
  std::array<std::array<Outcome, 36>, 12> tk_{};  // tk_outcomes() by kill_index
  std::array<bool, 12> tk_known_{};
  ShotSpec tk_for_;  // the shot tk_ was computed for
};

bool in_obstacle(Terrain t) { return t != Terrain::kOpen; }

}  // namespace

// C8.3: HEAT is available to the Germans from May 1942, to the U.S., Britain and Russia from 1943.
std::optional<RulesError> check_heat_date(const Firer& f) {
  if (f.ammo != Ammo::kHEAT) return std::nullopt;
  const auto before = [&](int year, int month) { return f.year < year || (f.year == year && f.month < month); };
  const char* who = nullptr;
  const char* from = nullptr;
  if (f.nationality == Nationality::kGerman && before(1942, 5)) {
    who = "the Germans";
    from = "5/1942";
  } else if ((f.nationality == Nationality::kAmerican || f.nationality == Nationality::kBritish ||
              f.nationality == Nationality::kRussian) &&
             before(1943, 1)) {
    who = f.nationality == Nationality::kAmerican  ? "the U.S."
          : f.nationality == Nationality::kBritish ? "the British"
                                                   : "the Russians";
    from = "1943";
  }
  if (!who) return std::nullopt;
  return RulesError("firer.ammo", std::string("HEAT is available to ") + who + " from " + from + " (C8.3), got " +
                                      std::to_string(f.month) + "/" + std::to_string(f.year));
}

std::optional<RulesError> check_duel(const Situation& s) {
  constexpr auto err = refusal;
  const Fire& fire = s.fire;
  if (fire.turns < 1 || fire.turns > kMaxTurns)
    return err("fire.turns",
               "expected 1 to " + std::to_string(kMaxTurns) + " turns, got " + std::to_string(fire.turns));
  if (fire.rally_phases < 1 || fire.rally_phases > 2)
    return err("fire.rally_phases", "expected 1 or 2 Rally Phases between the firer's fire phases, got " +
                                        std::to_string(fire.rally_phases));
  if (s.firer.repair && s.firer.vehicle)
    return err(
        "firer.repair",
        "a vehicle's weapon is repaired on a dr of 1 (D3.7); firer.repair is the R# of a non-vehicular Gun (A9.72)");
  if (s.firer.repair && (*s.firer.repair < 1 || *s.firer.repair > 5))
    return err("firer.repair",
               "expected an R# of 1 to 5 (a dr of 6 always eliminates, A9.72), got " + std::to_string(*s.firer.repair));
  if (fire.turns == 1) return std::nullopt;
  if (s.movement) return err("fire.turns", "a movement roll is a single roll: fire.turns needs a fire situation");
  if (s.target.type != TargetType::kVehicle && !s.target.gun)  // a Gun (C11): its crew does not rally here
    return err("fire.turns",
               "a duel over several turns needs a vehicle target (target.type = \"vehicle\"): salvo does not model "
               "rallying Personnel");
  if (fire.stop_on == StopOn::kNever)
    return err(
        "fire.stop_on",
        "a duel over several turns ends when the target is destroyed: fire.stop_on = \"never\" is for one fire phase");
  // A weapon that never malfunctions (an X# alone removes it, C13.47; a Panzerfaust) needs no R#.
  if (!s.firer.vehicle && !repair_number(s.firer) && repairable(s.firer) && can_malfunction(s.firer))
    return err("firer.repair", std::string("a non-vehicular ") + (is_latw(s.firer) ? "weapon" : "Gun") +
                                   " in a duel over several turns needs its R# (firer.repair) to roll for repair "
                                   "(A9.72)");
  return std::nullopt;
}

namespace {

// check(); on success also the spec of the first shot (unexplained), if `first_shot` is given.
std::optional<RulesError> check_situation(const Situation& s, ShotSpec* first_shot) {
  if (infantry_fire(s))  // compile() and check() take infantry fire apart; here: a fight's unit
    return RulesError("firer.weapon", "infantry fire is checked by check_infantry (asl_infantry.h)");
  if (auto e = check_duel(s)) return e;
  if (auto e = check_infantry_keys_unused(s)) return e;
  if (auto e = is_latw(s.firer) ? check_latw(s) : check_latw_keys_unused(s)) return e;
  if (s.movement) return check_movement(*s.movement);  // D2: a movement roll, not a shot
  if (auto e = check_ift(s)) return e;
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  constexpr auto err = refusal;
  if (t.hull_down && t.tem != 0) return err("target.tem", "a hull-down target cannot also claim TEM (D4.2)");
  if (fire.deliberate_immobilization) {  // C5.71
    if (f.weapon != Weapon::kGun && !is_latw(f))
      return err("fire.deliberate_immobilization", "only ordnance attempts it, not MG or IFE (C5.71)");
    if (t.type != TargetType::kVehicle || f.mortar)
      return err("fire.deliberate_immobilization", "only on the Vehicle Target Type, not the Area Target Type (C5.71)");
    if (fire.range > 6)
      return err("fire.deliberate_immobilization",
                 "only at a range of 6 hexes or less (C5.71), got " + std::to_string(fire.range));
    if (t.hull_down) return err("fire.deliberate_immobilization", "not against a hull-down target (C5.71)");
    if (fire.turns > 1)
      return err("fire.deliberate_immobilization",
                 "one fire phase only (fire.turns = 1): an immobilized target may not be attempted again (C5.71)");
  }
  if (fire.same_hex && fire.range != 0)
    return err("fire.range", "same-hex fire is at range 0 (C5.5), got " + std::to_string(fire.range));
  if (!fire.same_hex && fire.range == 0)
    return err("fire.range", "range 0 is same-hex fire: set fire.same_hex = true (C5.5)");
  if (fire.phase == Phase::kBounding && !f.vehicle)
    return err("fire.phase", "only a vehicle uses Bounding First Fire (D3.3)");
  if (fire.opportunity && fire.phase != Phase::kAdvancing)
    return err("fire.opportunity",
               "Opportunity Fire is fire in the Advancing Fire Phase (A7.25): set fire.phase = \"advancing\"");
  if (fire.opportunity && f.vehicle)
    return err("fire.opportunity", "vehicles are not eligible for Opportunity Fire (D3.3, A7.25)");
  if (f.armor_leader != 0 && !f.vehicle)
    return err("firer.armor_leader", "an Armor Leader has no effect on non-vehicular Guns (D3.4)");
  if (f.inexperienced_crew && !f.vehicle)
    return err("firer.inexperienced_crew", "Inexperienced Crews are crews of armed vehicles (D3.45)");
  if (f.inexperienced_crew && f.armor_leader != 0)
    return err("firer.armor_leader",
               "not with firer.inexperienced_crew: salvo's reading is that one Armor Leader directs a vehicle's fire, "
               "and D3.45 does not say whether a real one replaces the crew's quasi-Armor Leader (+1): choose one");
  if (fire.buttoned_up && !f.vehicle)
    return err("fire.buttoned_up", "Case I is for a buttoned-up closed-top AFV (C5.9), not a non-vehicular Gun");
  if (f.low_ammo && !f.vehicle)
    return err("firer.low_ammo",
               "a circled B# (Low Ammo) is a vehicle rule: the vehicle gets the Low Ammo counter (D3.71)");
  if (auto e = check_heat_date(f)) return e;
  const bool geometry = fire.target_direction || fire.vca || fire.tca;
  if (fire.ca_change > 0 && (geometry || fire.maintained_ca))
    return err("fire.ca_change",
               "give either fire.ca_change or the Covered Arc geometry (fire.vca, fire.tca, fire.target_direction, "
               "fire.maintained_ca), not both");
  if (fire.maintained_ca && fire.target_direction)
    return err("fire.maintained_ca", "give either fire.maintained_ca (D3.51) or fire.target_direction, not both");
  if (f.bypass && !f.cafp)
    return err("firer.cafp", "a vehicle in Bypass needs its CAFP, the direction its VCA points to (D2.32)");
  if (f.cafp && !f.bypass)
    return err("firer.cafp", "a CAFP is for a vehicle in Bypass (D2.32): set firer.bypass = true, or remove it");
  if (f.bypass && fire.vca && f.cafp && *fire.vca != *f.cafp)
    return err(
        "fire.vca",
        "a vehicle in Bypass has its VCA pointing at its CAFP (D2.32): give fire.vca = firer.cafp, or leave it out");
  if (f.bypass && fire.firer_terrain == Terrain::kRubble)
    return err("firer.bypass", "Bypass is not allowed in a rubble hex (D2.31)");
  // D3.12: a non-turreted vehicle's weapon (NT) fires in its VCA, as a bow-mounted one does
  if (f.vehicle && f.gun_type == GunType::kNT && !f.bow_mounted && fire.tca && fire.vca && *fire.tca != *fire.vca)
    return err("fire.tca",
               "a non-turreted (NT) vehicle fires in its VCA (D3.12): fire.tca must equal fire.vca, or leave it out");
  if (fire.maintained_ca && !f.vehicle)
    return err(
        "fire.maintained_ca",
        "maintaining CA is for a vehicle's turret weapons (D3.51); a Gun's CA change is fire.ca_change or fire.tca");
  if (fire.motion && fire.phase == Phase::kPrep)
    return err("fire.motion", "a vehicle that starts its Player Turn in Motion may not Prep Fire (D2.4)");
  if (fire.los_mp && fire.phase != Phase::kBounding)
    return err("fire.los_mp",
               "MP in the target's LOS count for Bounding First Fire only: Case C1/C2 do not apply in the AFPh, "
               "and a firer in the opponent's Player Turn spends no MP (C5.31-.32, C5.35)");
  if (fire.same_hex && (s.target.ffmo || s.target.ffnam))
    return err(s.target.ffmo ? "target.ffmo" : "target.ffnam",
               "Cases J3 and J4 do not apply to a To Hit DR with Case E, same-hex fire (C5.5)");
  // C5.51: firing at a target in the same hex does not change the firer's CA, but in Defensive
  // First (or Final) Fire or with the firer or the target in Bypass (D2.321)
  if (fire.same_hex && fire.phase != Phase::kDefensive && fire.phase != Phase::kFinal && !f.bypass && !t.bypass) {
    const char* key = fire.ca_change > 0      ? "fire.ca_change"
                      : fire.target_direction ? "fire.target_direction"
                      : fire.maintained_ca    ? "fire.maintained_ca"
                                              : nullptr;
    if (key)
      return err(key,
                 "same-hex fire does not change the firer's CA outside Defensive First and Final Fire or Bypass "
                 "(C5.51): no Case A");
  }
  if (f.bypass && !f.vehicle) return err("firer.bypass", "only a vehicle uses Bypass (D2.3)");
  if (f.non_qualified && f.vehicle)
    return err(
        "firer.non_qualified",
        "non-qualified use is Infantry manning a crew-served Gun (A21.13): a vehicle's weapons are fired by its crew "
        "(a captured vehicle: firer.captured)");
  if (f.bow_mounted && !f.vehicle) return err("firer.bow_mounted", "only a vehicle has bow-mounted weapons (D3.11)");
  if (fire.pivot && (!f.vehicle || f.bow_mounted || f.bypass || f.gun_type == GunType::kNT))
    return err(
        "fire.pivot",
        "only a turreted vehicle not in Bypass pivots its VCA to bring its turret weapon to bear (D3.51, D2.33)");
  if (fire.motion && !f.vehicle) return err("fire.motion", "only a vehicle fires in Motion (C5.35)");
  if (fire.follow_up) {
    if (fire.phase != Phase::kBounding)
      return err("fire.follow_up",
                 "the AFPh follow-up shot comes after Bounding First Fire (D3.32): set fire.phase = \"bounding\"");
    if (multiple_rof(f) == 0)
      return err("fire.follow_up",
                 f.rof == 0 ? "only a weapon with Multiple ROF keeps it through the MPh for an AFPh shot (D3.32)"
                            : "a captured weapon's Multiple ROF is one lower (A21.12): none is left to keep through "
                              "the MPh for an AFPh shot (D3.32)");
    if (!fire.max_shots)
      return err("fire.follow_up",
                 "give fire.max_shots, the shots fired in the MPh: the AFPh shot follows only if the ROF is kept after "
                 "them (D3.32)");
    if (fire.intensive_fire)
      return err("fire.follow_up",
                 "the AFPh follow-up shot is the weapon's last shot: no Intensive Fire with it (D3.32, C5.6)");
  }
  if (f.bypass && fire.ca_change > 0)
    return err("fire.ca_change",
               "a vehicle in Bypass measures Case A in Target Facings, not hexspines (D2.321): "
               "give fire.tca and fire.target_direction instead");
  if (fire.phase == Phase::kBounding && fire.ca_change > 0)
    return err("fire.ca_change",
               "Case A never applies to Bounding First Fire: the CA is changed by MP expenditure (C5.13)");
  if (f.low_ammo_marked && !f.low_ammo)
    return err("firer.low_ammo_marked", "a Low Ammo counter needs a circled B# (firer.low_ammo = true) (D3.71)");
  if (f.x_number && *f.x_number < f.breakdown && !is_latw(f))  // a LATW's: check_latw
    return err("firer.x_number", "the X# must not be below the B# (A9.7), got X" + std::to_string(*f.x_number) +
                                     " with B" + std::to_string(f.breakdown));
  if (f.ammo == Ammo::kNone) return err("firer.ammo", "a shot needs ammunition");
  if (is_special(f.fallback_ammo))
    return err("firer.fallback_ammo", "the fallback after special ammunition must be AP, HE or none (C8.9)");
  if (fire.intensive_fire) {
    if (f.no_intensive_fire) return err("fire.intensive_fire", "the Gun is marked \"No IF\" (C5.63)");
    if (fire.phase == Phase::kAdvancing && !fire.opportunity)
      return err("fire.intensive_fire",
                 "Intensive Fire is not allowed in the Advancing Fire Phase except by an Opportunity Firer (C5.6)");
    if (fire.pinned) return err("fire.intensive_fire", "a pinned firer cannot use Intensive Fire (C5.4, C5.6)");
    if (conditional_rof_bars_intensive(s) && fire.turns == 1)
      return err("fire.intensive_fire",
                 "a Gun without Multiple ROF that changes CA under Conditional ROF cannot Intensive Fire this Player "
                 "Turn (C2.5)");
  }
  if (fire.same_hex && in_obstacle(fire.firer_terrain) && fire.phase == Phase::kBounding) {
    // Allowed; Case E doubles (C5.5). Nothing to check.
  }
  // The tables must cover the gun and ammo of every shot kind (first shot, fallback ammo).
  try {
    const ShotSpec first = build_shot(s, ShotContext{.low_ammo_marked = f.low_ammo_marked}, nullptr);
    if (is_special(f.ammo) && f.fallback_ammo != Ammo::kNone && !always_apcr(f.gun, f.nationality))
      build_shot(s, ShotContext{.special_out = true, .low_ammo_marked = f.low_ammo_marked}, nullptr);
    if (first_shot) *first_shot = first;
  } catch (const RulesError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

std::optional<RulesError> check(const Situation& s) {
  return infantry_fire(s) ? check_infantry(s) : check_situation(s, nullptr);
}

phase::Program phase::compile(const Situation& s, const Start& start, bool checked) {
  if (infantry_fire(s)) return compile_infantry_phase(s, start, checked);
  if (!checked)
    if (auto e = check_situation(s, nullptr)) throw *e;
  Compiler c(s, false, nullptr, &start);
  Compiled out = c.run();
  Program p{std::move(out.program), c.exits()};
  for (std::size_t i = 0; i < p.exits.size(); ++i) p.program.end_reason_names.push_back("exit_" + std::to_string(i));
  return p;
}

Compiled compile(const Situation& s, const CompileOptions& options) {
  if (infantry_fire(s)) return compile_infantry(s, options.explain);
  if (s.movement) {
    Compiled c = compile_movement(*s.movement);
    if (!options.explain)
      c.explain = {};
    else
      c.explain.notes.insert(c.explain.notes.begin(), s.units.notes.begin(), s.units.notes.end());
    return c;
  }
  ShotSpec first;  // check() builds the first shot: the compiler need not build it again
  if (auto e = check_situation(s, &first)) throw *e;
  Compiled c = Compiler(s, options.explain, &first).run();
  name_program(c.program, s);  // the names this kind of target and weapon can produce
  if (!options.explain) return c;
  // Notes: readings and limits that matter for this situation.
  auto& notes = c.explain.notes;
  notes = s.units.notes;  // which values came from a unit library (docs/units.md)
  ift_notes(s, notes);
  if (is_latw(s.firer)) latw_notes(s, notes);
  std::string reason;
  const bool red = uses_red_th(s.firer.nationality, s.firer.year, s.firer.month, s.firer.vehicle, &reason);
  if (is_latw(s.firer) && s.firer.weapon != Weapon::kAtr)
    c.explain.th_color = is_panzerfaust(s.firer) ? "its own: Basic TH# 10, -2 for each hex of range (C13.33)"
                                                 : "its own, from the counter (firer.to_hit, C13.42)";
  else if (s.firer.weapon == Weapon::kAtr)
    c.explain.th_color = s.firer.captured ? "red: a captured ATR (C13.2, A21.12)"
                                          : "black: an ATR uses the black TH# unless captured (C13.2)";
  else if (s.target.type == TargetType::kArea)
    c.explain.th_color = "red: the Area Target Type has only red TH#, for every nationality (C3.3)";
  else if (s.firer.captured)
    c.explain.th_color = "red: captured weapon (A21.12, C5.8)";
  else if (s.firer.non_qualified)
    c.explain.th_color = "red: non-qualified crew (A21.13, C5.8)";
  else if (s.firer.th_color == ThColor::kRed)
    c.explain.th_color = "red (set in the situation)";
  else if (s.firer.th_color == ThColor::kBlack)
    c.explain.th_color = "black (set in the situation)";
  else
    c.explain.th_color = (red ? "red: " : "black: ") + reason;
  bool uncertain = false;
  case_d(s.firer.gun, s.firer.ammo, s.fire.range, &uncertain);
  if (uncertain)
    notes.push_back("Case D: the chart prints no row for this caliber; salvo uses the nearest row (C7.24)");
  if (s.fire.same_hex)
    notes.push_back("same hex: Target Facing from the colored dr, 1-2 rear, 3-4 side, 5-6 front (D3.2)");
  if (s.fire.phase == Phase::kBounding && (s.fire.target_direction || s.fire.ca_change))
    notes.push_back("Bounding First Fire never pays Case A: the CA was changed by MP expenditure (C5.13)");
  if (s.fire.follow_up)
    notes.push_back(
        "AFPh follow-up shot after the MPh shots if the Multiple ROF was kept: Case C (C1/C2 do not apply), no further "
        "ROF (D3.32)");
  // MG/IFE roll no To Hit DR: no Acquisition, no Case C4 (their FP is halved instead, D2.42).
  const bool th_dr = !direct_ift(s.firer);
  if ((s.fire.phase == Phase::kBounding || s.fire.motion) && !s.firer.stabilized && th_dr)
    notes.push_back("a moving firer without a gyrostabilized gun gains and keeps no Acquisition (C6.55)");
  if (s.fire.motion && !s.firer.stabilized && th_dr)
    notes.push_back("Case C4: the lower die of the To Hit DR counts double (C5.35)");
  if (s.target.hull_down) notes.push_back("hull down: only turret hits and Critical Hits count (D4.2, C3.9)");
  if (s.fire.deliberate_immobilization)
    notes.push_back(
        "Deliberate Immobilization (C5.7-.72): no To Kill DR, not even on a CH; a hull hit (C3.9) immobilizes, with "
        "a Crew TC salvo does not roll (D5.5), a turret hit has no effect; no Acquisition DRM, though Acquisition is "
        "gained; reading: the phase ends once the target is immobilized, since C5.71 allows no attempt against an "
        "immobilized target");
  if (s.fire.stop_on == StopOn::kNever && s.fire.turns == 1)
    notes.push_back(
        "stop_on = \"never\": shots after a kill still count as shots and hits, but a destroyed target's fate is "
        "settled: they neither burn nor shock nor immobilize it, and their outcome is no_effect (a hit) or miss");
  if (s.target.moving && s.target.type == TargetType::kVehicle && !s.fire.same_hex && s.fire.range <= 2)
    notes.push_back(
        "no Case L: a vehicle fired on while it moves (target.moving) is Non-Stopped, and Point Blank Range is NA "
        "against a Motion/Non-Stopped vehicle (C6.3); a vehicle that has stopped is target.moving = false");
  if (s.fire.same_hex && s.firer.bypass && s.target.bypass)
    notes.push_back(
        "firer and target both in Bypass in one hex: a shot needs LOS between their CAFPs (C5.5), which salvo cannot "
        "check");
  if (s.target.concealed && s.target.type != TargetType::kArea)
    notes.push_back(
        "concealed target: misses gain no Acquisition; salvo takes a hit as the shot that removes the concealment, "
        "after which Case K no longer applies and Acquisition builds (C6.57)");
  if (s.firer.vehicle && s.fire.intensive_fire)
    notes.push_back(
        "Intensive Fire by a vehicle: allowed here; the rules imply it (C5.6, D3.12) without saying so outright");
  if (s.target.mp_in_los && s.fire.phase != Phase::kDefensive)
    notes.push_back("target.mp_in_los matters only for Defensive First Fire (C6.11-.12): ignored");
  if (s.firer.depletion && !is_special(s.firer.ammo) && s.firer.weapon != Weapon::kCanister && !places_smoke(s.firer))
    notes.push_back("firer.depletion applies only to special ammunition (C8.9): ignored for this ammo");
  if (is_special(s.firer.ammo) && s.firer.fallback_ammo != Ammo::kNone && s.target.type == TargetType::kVehicle)
    notes.push_back(
        "p_hit can be higher than with AP: when the special ammunition is not there (Original TH DR > Depletion #) "
        "the shot is not fired and the firer fires again with its fallback ammunition (C8.9), and that shot can hit "
        "too; set firer.fallback_ammo = \"none\" for the special ammunition alone");
  if (s.fire.turns > 1) {
    notes.push_back("duel over " + std::to_string(s.fire.turns) + " turns: the same fire phase each turn, " +
                    std::to_string(s.fire.rally_phases) + " Rally Phase" + (s.fire.rally_phases > 1 ? "s" : "") +
                    " between two of them (fire.rally_phases: 2 when the firer fires only in its own Player Turns)");
    const bool latw = is_latw(s.firer);
    notes.push_back(
        !can_malfunction(s.firer)
            ? std::string("it never malfunctions: an X# removes it for good (C13.47, A9.7), a Panzerfaust has no "
                          "breakdown (C13.36)")
        : s.firer.captured
            ? "a captured weapon is never repaired (A9.72): a malfunction puts it out for the rest of the duel"
        : !repairable(s.firer) ? "only a crew repairs a Gun (A9.72): manned by non-qualified Infantry, a malfunction "
                                 "puts it out for the rest of the duel"
        : s.firer.vehicle      ? "repair in each Rally Phase: dr 1 repairs, 6 disables the weapon (D3.7)"
                          : "repair in each Rally Phase: dr <= R" + std::to_string(repair_number(s.firer).value_or(0)) +
                                " repairs, 6 eliminates " + (latw ? "it" : "the Gun") + " (A9.72)");
    notes.push_back(
        "the duel ends when nothing more can change: the target destroyed, or (the target not Shocked) the gun "
        "disabled, "
        "malfunctioned for good, or out of ammunition (a gun with none left makes no repair attempt)");
    if (s.fire.intensive_fire && conditional_rof_bars_intensive(s))
      notes.push_back(
          "Conditional ROF (C2.5): no Intensive Fire in the first turn, which changes CA; in later turns it may");
    if (!latw) {  // a LATW never acquires (C6.5) and has no ammunition to run short of (C8.3)
      notes.push_back(
          "Acquisition carries over to the next turn and is lost on a malfunction (C6.5); Case A only on the first "
          "turn's first shot (C5.12)");
      notes.push_back("Low Ammo and spent special ammunition carry over (D3.71, C8.9)");
    }
    notes.push_back(
        "Shock: at the end of the next Rally Phase dr 1-2 removes it, else Unconfirmed Kill; a UK dr 1-3 removes it, "
        "else a wreck (C7.42); another Shock flips a UK back to Shock");
    notes.push_back(
        "Possible Shock (C7.41) needs the AFV's NTC, which salvo does not roll: it has no lasting effect in a duel");
  } else if (s.fire.rally_phases != 1) {
    notes.push_back("fire.rally_phases matters only with fire.turns > 1: ignored");
  }
  if (s.firer.weapon == Weapon::kGun && s.target.type == TargetType::kVehicle) {  // To Kill notes
    notes.push_back(
        "multiple hits: the firer keeps the better result, ranked burn > eliminated > shock > immobilized > possible "
        "shock > no effect > dud (C3.8)");
    notes.push_back("possible shock (non-HE at TK+1) is reported on its own: it needs the AFV's NTC (C7.41)");
  }
  return c;
}

}  // namespace salvo::asl
