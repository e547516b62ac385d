// Compile an ASL firing situation into a roll program: one state per distinct shot context,
// each with a DAG over the To Hit DR, the subsequent dr and the To Kill DR(s).
#include <algorithm>
#include <map>
#include <queue>
#include <string>
#include <tuple>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_arc.h"
#include "salvo/rules/asl_shot.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/rules/asl_movement.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {
namespace {

bool is_special(Ammo a) { return a == Ammo::kAPCR || a == Ammo::kAPDS || a == Ammo::kHEAT; }

using Key = std::tuple<int, bool, bool, bool>;  // shots fired (canonical), special out, Low Ammo, IF shot

ShotContext context_of(const Key& k) { return ShotContext{std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<3>(k)}; }

std::string state_label(const Situation& s, const ShotContext& ctx, int saturate) {
  std::string l;
  if (ctx.intensive) l = "Intensive Fire shot";
  else if (s.fire.max_shots || ctx.shots_fired < saturate) l = "shot " + std::to_string(ctx.shots_fired + 1);
  else l = "shots " + std::to_string(ctx.shots_fired + 1) + "+";
  const Ammo a = shot_ammo(s, ctx);
  if (is_special(s.firer.ammo) && ctx.special_out) l += a == Ammo::kNone ? " (no ammo)" : " (fallback ammo)";
  if (ctx.low_ammo_marked && !s.firer.low_ammo_marked) l += " (Low Ammo)";
  return l;
}

class Compiler {
 public:
  explicit Compiler(const Situation& s) : s_(s) {
    // Shots beyond `saturate_` fired are alike unless a cap counts them: Case A only on the
    // first (C5.12), Acquisition saturates at -2 (C6.5).
    saturate_ = std::max(1, 2 - s.fire.acquisition);
  }

  Compiled run() {
    Compiled out;
    auto& p = b_.program();
    for (int i = 0; i < kNumFlags; ++i) p.flag_names.emplace_back(flag_name(i));
    for (int i = 0; i < kNumCounters; ++i) p.counter_names.emplace_back(counter_name(i));
    for (int i = 0; i < kNumOutcomes; ++i) p.outcome_names.emplace_back(outcome_name(i));
    for (int i = 0; i < kNumEndReasons; ++i) p.end_reason_names.emplace_back(end_reason_name(i));

    const Key start{0, false, s_.firer.low_ammo_marked, false};
    p.initial_state = state_of(start);
    while (!pending_.empty()) {
      const Key k = pending_.front();
      pending_.pop();
      const std::int32_t id = ids_.at(k);
      const ShotContext ctx = context_of(k);
      ShotExplain ex;
      ex.label = p.state_labels[static_cast<std::size_t>(id)];
      const ShotSpec spec = build_shot(s_, ctx, &ex);
      b_.set_state_root(id, build_state(ctx, spec));
      out.explain.shots.push_back(std::move(ex));
    }
    out.program = b_.take();
    return out;
  }

 private:
  std::int32_t state_of(const Key& k) {
    auto it = ids_.find(k);
    if (it != ids_.end()) return it->second;
    const std::int32_t id = b_.reserve_state(state_label(s_, context_of(k), saturate_));
    ids_.emplace(k, id);
    pending_.push(k);
    return id;
  }

  // Leaf of a step: what happened, and where the phase goes next.
  Link finish(const ShotContext& ctx, const ShotSpec& spec, int colored, Breakdown bd, Depletion dep, bool fired,
              const Hit& hit, Outcome outcome) {
    Leaf leaf;
    leaf.outcome = static_cast<std::uint8_t>(fired ? outcome : kOutcomeNoShot);
    leaf.closes_window = fired;
    if (bd == Breakdown::kMalfunction) leaf.flags |= 1u << kFlagMalfunction;
    if (bd == Breakdown::kDisabled) leaf.flags |= (1u << kFlagMalfunction) | (1u << kFlagDisabled);
    if (bd == Breakdown::kLowAmmo) leaf.flags |= 1u << kFlagLowAmmo;
    if (dep == Depletion::kRunsOut || dep == Depletion::kNotAvailable) leaf.flags |= 1u << kFlagDepleted;
    if (hit.hit) leaf.flags |= 1u << kFlagHit;
    if (hit.critical) leaf.flags |= 1u << kFlagCritical;
    if (hit.multiple) leaf.flags |= 1u << kFlagMultipleHit;
    leaf.flags |= outcome_flags(outcome);
    leaf.counts[kCounterShots] = fired ? 1 : 0;
    leaf.counts[kCounterHits] = static_cast<std::uint8_t>(hit.hit ? (hit.multiple ? 2 : 1) : 0);

    ShotContext next = ctx;
    next.special_out = ctx.special_out || dep == Depletion::kRunsOut || dep == Depletion::kNotAvailable;
    next.low_ammo_marked = ctx.low_ammo_marked || bd == Breakdown::kLowAmmo;
    auto end = [&](EndReason r) {
      leaf.next_state = -1;
      leaf.end_reason = static_cast<std::uint8_t>(r);
      leaf.closes_window = true;
      return b_.leaf(leaf);
    };
    if (!fired) {
      // C8.9: no such ammunition; the shot did not happen. Fire again with the fallback.
      if (shot_ammo(s_, next) == Ammo::kNone) return end(kEndOutOfAmmo);
      leaf.next_state = state_of(Key{ctx.shots_fired, next.special_out, next.low_ammo_marked, ctx.intensive});
      return b_.leaf(leaf);
    }
    // Why the phase ends, in order of precedence: the target, then the Gun, then the ROF.
    const bool kill = destroys_target(outcome);  // burn, eliminated, #KIA (A7.301)
    if (kill && s_.fire.stop_on != StopOn::kNever) return end(kEndTargetDestroyed);
    if (outcome >= kOutcomePossibleShock && s_.fire.stop_on == StopOn::kEffect) return end(kEndTargetEffect);
    if (bd == Breakdown::kMalfunction || bd == Breakdown::kDisabled) return end(kEndMalfunction);  // A9.7
    const int fired_now = ctx.shots_fired + 1;
    if (s_.fire.max_shots && fired_now >= *s_.fire.max_shots) return end(kEndShotCap);
    if (ctx.intensive) return end(kEndIntensiveFireDone);  // C5.6: one and only one shot
    bool intensive_next = false;
    if (!(spec.keeps_rof && colored <= spec.rof)) {  // C2.24
      if (!s_.fire.intensive_fire) return end(kEndRofExhausted);
      intensive_next = true;  // C5.6: after the normal ROF is exhausted
    }
    next.shots_fired = s_.fire.max_shots ? fired_now : std::min(fired_now, saturate_);
    next.intensive = intensive_next;
    if (shot_ammo(s_, next) == Ammo::kNone) return end(kEndOutOfAmmo);
    leaf.next_state = state_of(Key{next.shots_fired, next.special_out, next.low_ammo_marked, next.intensive});
    return b_.leaf(leaf);
  }

  // After a hit: the To Kill DR(s) (C7; C3.8 Multiple Hits).
  Link kill_dag(const ShotContext& ctx, const ShotSpec& spec, int colored, Breakdown bd, Depletion dep, const Hit& hit) {
    const KillSpec& k1 = spec.kill[static_cast<std::size_t>(kill_index(hit.location, hit.facing, hit.critical))];
    if (!hit.multiple && !k1.possible) return finish(ctx, spec, colored, bd, dep, true, hit, kOutcomeNoEffect);
    std::vector<Link> links(36);
    for (int f = 0; f < 36; ++f) {
      const int c1 = pair_colored(f), w1 = pair_white(f);
      const Outcome o1 = to_kill(spec, k1, hit.location, c1, w1);
      if (!hit.multiple) {
        links[static_cast<std::size_t>(f)] = finish(ctx, spec, colored, bd, dep, true, hit, o1);
        continue;
      }
      // C3.8: the first TK DR decides the location of the second hit; the firer keeps the better.
      const Location loc2 = second_hit_location(c1, w1);
      const KillSpec& k2 = spec.kill[static_cast<std::size_t>(kill_index(loc2, hit.facing, false))];
      if (!k2.possible) {
        links[static_cast<std::size_t>(f)] = finish(ctx, spec, colored, bd, dep, true, hit, std::max(o1, kOutcomeNoEffect));
        continue;
      }
      std::vector<Link> second(36);
      for (int g = 0; g < 36; ++g) {
        const Outcome o2 = to_kill(spec, k2, loc2, pair_colored(g), pair_white(g));
        second[static_cast<std::size_t>(g)] = finish(ctx, spec, colored, bd, dep, true, hit, std::max(o1, o2));
      }
      links[static_cast<std::size_t>(f)] = b_.node(DieKind::kPair, second);
    }
    return b_.node(DieKind::kPair, links);
  }

  Link build_state(const ShotContext& ctx, const ShotSpec& spec) {
    // kill_dag depends only on its arguments: build each distinct one once (the builder would
    // de-duplicate the nodes anyway, so the program is unchanged; this saves the work).
    std::map<std::tuple<int, Breakdown, Depletion, bool, bool, bool, bool, Location, Facing>, Link> kill_dags;
    const auto kill_dag_memo = [&](int c, Breakdown bd, Depletion dep, const Hit& h) {
      const auto key = std::make_tuple(c, bd, dep, h.hit, h.critical, h.multiple, h.improbable, h.location, h.facing);
      auto it = kill_dags.find(key);
      if (it == kill_dags.end()) it = kill_dags.emplace(key, kill_dag(ctx, spec, c, bd, dep, h)).first;
      return it->second;
    };
    std::vector<Link> th(36);
    for (int f = 0; f < 36; ++f) {
      const int c = pair_colored(f), w = pair_white(f), o = c + w;
      const Breakdown bd = breakdown(spec, o);
      const Depletion dep = depletion(spec, o);
      Link& out = th[static_cast<std::size_t>(f)];
      if (dep == Depletion::kNotAvailable) {
        // C8.9: not fired for any purpose unless Malfunction or Low Ammo occurs.
        out = finish(ctx, spec, c, bd, dep, bd != Breakdown::kNone, Hit{}, kOutcomeMiss);
        continue;
      }
      if (spec.ift.direct) {  // MG/IFE: the IFT DR is the attack (D3.5, C2.29); A7.309 Unlikely Kill dr
        if (!direct_needs_subsequent_dr(spec, c, w)) {
          out = finish(ctx, spec, c, bd, dep, true, Hit{}, direct_ift(spec, c, w, 0));
          continue;
        }
        std::vector<Link> sub(6);
        for (int r = 1; r <= 6; ++r)
          sub[static_cast<std::size_t>(r - 1)] = finish(ctx, spec, c, bd, dep, true, Hit{}, direct_ift(spec, c, w, r));
        out = b_.node(DieKind::kD6, sub);
        continue;
      }
      if (needs_subsequent_dr(spec, c, w)) {
        std::vector<Link> sub(6);
        for (int r = 1; r <= 6; ++r) {
          const Hit h = to_hit(spec, c, w, r);
          sub[static_cast<std::size_t>(r - 1)] =
              h.hit ? kill_dag_memo(c, bd, dep, h) : finish(ctx, spec, c, bd, dep, true, h, kOutcomeMiss);
        }
        out = b_.node(DieKind::kD6, sub);
        continue;
      }
      const Hit h = to_hit(spec, c, w, 0);
      out = h.hit ? kill_dag_memo(c, bd, dep, h) : finish(ctx, spec, c, bd, dep, true, h, kOutcomeMiss);
    }
    return b_.node(DieKind::kPair, th);
  }

  const Situation& s_;
  int saturate_ = 1;
  ProgramBuilder b_;
  std::map<Key, std::int32_t> ids_;
  std::queue<Key> pending_;
};

bool in_obstacle(Terrain t) { return t != Terrain::kOpen; }

}  // namespace

std::optional<RulesError> check(const Situation& s) {
  if (s.movement) return check_movement(*s.movement);  // D2: a movement roll, not a shot
  if (auto e = check_ift(s)) return e;
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  auto err = [](const char* key, std::string msg) { return std::optional<RulesError>(RulesError(key, msg)); };
  if (t.hull_down && t.tem != 0) return err("target.tem", "a hull-down target cannot also claim TEM (D4.2)");
  if (fire.same_hex && fire.range != 0)
    return err("fire.range", "same-hex fire is at range 0 (C5.5), got " + std::to_string(fire.range));
  if (!fire.same_hex && fire.range == 0) return err("fire.range", "range 0 is same-hex fire: set fire.same_hex = true (C5.5)");
  if (fire.phase == Phase::kBounding && !f.vehicle) return err("fire.phase", "only a vehicle uses Bounding First Fire (D3.3)");
  const bool geometry = fire.target_direction || fire.vca || fire.tca;
  if (fire.ca_change > 0 && (geometry || fire.maintained_ca))
    return err("fire.ca_change", "give either fire.ca_change or the Covered Arc geometry (fire.vca, fire.tca, fire.target_direction, fire.maintained_ca), not both");
  if (fire.maintained_ca && fire.target_direction)
    return err("fire.maintained_ca", "give either fire.maintained_ca (D3.51) or fire.target_direction, not both");
  if (f.bypass && !f.cafp) return err("firer.cafp", "a vehicle in Bypass needs its CAFP, the direction its VCA points to (D2.32)");
  if (f.bypass && !f.vehicle) return err("firer.bypass", "only a vehicle uses Bypass (D2.3)");
  if (f.bow_mounted && !f.vehicle) return err("firer.bow_mounted", "only a vehicle has bow-mounted weapons (D3.11)");
  if (fire.pivot && (!f.vehicle || f.bow_mounted || f.bypass))
    return err("fire.pivot", "only a turreted vehicle not in Bypass pivots its VCA to bring its turret weapon to bear (D3.51, D2.33)");
  if (fire.motion && !f.vehicle) return err("fire.motion", "only a vehicle fires in Motion (C5.35)");
  if (fire.phase == Phase::kBounding && fire.ca_change > 0)
    return err("fire.ca_change", "Case A never applies to Bounding First Fire: the CA is changed by MP expenditure (C5.13)");
  if (f.low_ammo_marked && !f.low_ammo)
    return err("firer.low_ammo_marked", "a Low Ammo counter needs a circled B# (firer.low_ammo = true) (D3.71)");
  if (f.x_number && *f.x_number < f.breakdown)
    return err("firer.x_number", "the X# must not be below the B# (A9.7), got X" + std::to_string(*f.x_number) +
                                     " with B" + std::to_string(f.breakdown));
  if (f.ammo == Ammo::kNone) return err("firer.ammo", "a shot needs ammunition");
  if (is_special(f.fallback_ammo))
    return err("firer.fallback_ammo", "the fallback after special ammunition must be AP, HE or none (C8.9)");
  if (fire.intensive_fire) {
    if (f.no_intensive_fire) return err("fire.intensive_fire", "the Gun is marked \"No IF\" (C5.63)");
    if (fire.phase == Phase::kAdvancing && !fire.opportunity)
      return err("fire.intensive_fire", "Intensive Fire is not allowed in the Advancing Fire Phase except by an Opportunity Firer (C5.6)");
    if (fire.pinned) return err("fire.intensive_fire", "a pinned firer cannot use Intensive Fire (C5.4, C5.6)");
    if (!f.vehicle && f.gun_type == GunType::kNT && ca_hexspines(s) > 0 && f.rof == 0)
      return err("fire.intensive_fire",
                 "a Gun without Multiple ROF that changes CA under Conditional ROF cannot Intensive Fire this Player Turn (C2.5)");
  }
  if (fire.same_hex && in_obstacle(fire.firer_terrain) && fire.phase == Phase::kBounding) {
    // Allowed; Case E doubles (C5.5). Nothing to check.
  }
  // The tables must cover the gun and ammo of every shot kind (first shot, fallback ammo).
  try {
    build_shot(s, ShotContext{0, false, f.low_ammo_marked, false}, nullptr);
    if (is_special(f.ammo) && f.fallback_ammo != Ammo::kNone)
      build_shot(s, ShotContext{0, true, f.low_ammo_marked, false}, nullptr);
  } catch (const RulesError& e) {
    return e;
  }
  return std::nullopt;
}

Compiled compile(const Situation& s) {
  if (s.movement) return compile_movement(*s.movement);
  if (auto e = check(s)) throw *e;
  Compiled c = Compiler(s).run();
  name_program(c.program, s);  // the names this kind of target and weapon can produce
  // Notes: readings and limits that matter for this situation.
  auto& notes = c.explain.notes;
  ift_notes(s, notes);
  std::string reason;
  const bool red = uses_red_th(s.firer.nationality, s.firer.year, s.firer.month, s.firer.vehicle, &reason);
  if (s.firer.captured) c.explain.th_color = "red: captured weapon (C5.8)";
  else if (s.firer.th_color == ThColor::kRed) c.explain.th_color = "red (set in the situation)";
  else if (s.firer.th_color == ThColor::kBlack) c.explain.th_color = "black (set in the situation)";
  else c.explain.th_color = (red ? "red: " : "black: ") + reason;
  bool uncertain = false;
  case_d(s.firer.gun, s.firer.ammo, s.fire.range, &uncertain);
  if (uncertain)
    notes.push_back("Case D: the chart prints no row for this caliber; salvo uses the nearest row (C7.24)");
  if (s.fire.same_hex) notes.push_back("same hex: Target Facing from the colored dr, 1-2 rear, 3-4 side, 5-6 front (D3.2)");
  if (s.fire.phase == Phase::kBounding && (s.fire.target_direction || s.fire.ca_change))
    notes.push_back("Bounding First Fire never pays Case A: the CA was changed by MP expenditure (C5.13)");
  if ((s.fire.phase == Phase::kBounding || s.fire.motion) && !s.firer.stabilized)
    notes.push_back("a moving firer without a gyrostabilized gun gains and keeps no Acquisition (C6.55)");
  if (s.fire.motion && !s.firer.stabilized)
    notes.push_back("Case C4: the lower die of the To Hit DR counts double (C5.35)");
  if (s.target.hull_down) notes.push_back("hull down: only turret hits and Critical Hits count (D4.2, C3.9)");
  if (s.firer.vehicle && s.fire.intensive_fire)
    notes.push_back("Intensive Fire by a vehicle: allowed here; the rules imply it (C5.6, D3.12) without saying so outright");
  if (s.target.mp_in_los && s.fire.phase != Phase::kDefensive)
    notes.push_back("target.mp_in_los matters only for Defensive First Fire (C6.11-.12): ignored");
  if (s.fire.los_mp && s.fire.phase != Phase::kBounding)
    notes.push_back("fire.los_mp matters only for Bounding First Fire (C5.31-.32): ignored");
  if (s.firer.depletion && !is_special(s.firer.ammo))
    notes.push_back("firer.depletion applies only to special ammunition (C8.9): ignored for this ammo");
  if (s.firer.weapon == Weapon::kGun && s.target.type == TargetType::kVehicle) {  // To Kill notes
    notes.push_back("multiple hits: the firer keeps the better result, ranked burn > eliminated > shock > immobilized > possible shock > no effect > dud (C3.8)");
    notes.push_back("possible shock (non-HE at TK+1) is reported on its own: it needs the AFV's NTC (C7.41)");
  }
  return c;
}

std::uint64_t rules_data_hash() {
  // Hash the tables through their lookups over every caliber, barrel, ammo, nationality and
  // range that matters: any change of a chart value changes the hash.
  static const std::uint64_t h = [] {
    std::uint64_t x = 14695981039346656037ull;
    auto mix = [&x](std::int64_t v) {
      for (int i = 0; i < 8; ++i) {
        x ^= static_cast<std::uint64_t>(v >> (8 * i)) & 0xff;
        x *= 1099511628211ull;
      }
    };
    const int calibers[] = {15, 20, 25, 28, 37, 40, 45, 47, 50, 57, 65, 70, 75, 76, 77, 80, 83, 84, 85, 88,
                            90, 94, 95, 100, 105, 114, 120, 122, 128, 140, 150, 152, 155, 170, 200};
    const Nationality nats[] = {Nationality::kGerman, Nationality::kRussian, Nationality::kAmerican,
                                Nationality::kBritish, Nationality::kItalian, Nationality::kJapanese};
    const Ammo ammos[] = {Ammo::kAP, Ammo::kAPCR, Ammo::kAPDS, Ammo::kHEAT, Ammo::kHE};
    for (int cal : calibers)
      for (int barrel = 0; barrel < 4; ++barrel) {
        Gun g;
        g.caliber_mm = cal;
        g.barrel = static_cast<Gun::Barrel>(barrel);
        for (Ammo a : ammos) {
          for (Nationality n : nats) {
            mix(basic_tk(g, a, n).value_or(-1));
            for (int y = 1941; y <= 1945; ++y) mix(default_depletion(n, g, a, y, 9).value_or(-1));
          }
          mix(unarmored_final_tk(g, a).value_or(-1));
          for (int r = 0; r <= 80; ++r) {
            mix(case_d(g, a, r, nullptr).value_or(-99));
            for (const Modifier& m : gun_ammo_modifications(g, a, Nationality::kGerman, r)) mix(m.value);
          }
        }
      }
    for (int r = 0; r <= 80; ++r) {
      mix(basic_th_vehicle(true, r));
      mix(basic_th_vehicle(false, r));
    }
    for (int t = 0; t < 3; ++t)
      for (int n = 0; n <= 3; ++n) mix(case_a(static_cast<GunType>(t), n));
    for (int af = 0; af <= 26; ++af) mix(is_armor_factor(af) ? armor_factor_step(af, 1) * 100 + armor_factor_step(af, -1) : -1);
    return x;
  }();
  return h;
}

}  // namespace salvo::asl
