// Compile a 1943 firing situation into a roll program: one state per (turn, first shot or Rapid
// Fire shot, target unit bases / damage / immobilization, MG jammed, secondary ammo out, fuel
// out); each state's DAG rolls the fire dice (the Small Arms chart's dice, or the two hit dice
// then the kill die), then a jam die when an MG must check.
#include <array>
#include <map>
#include <queue>
#include <tuple>
#include <utility>

#include "checks.h"
#include "salvo/rules/w1943.h"

namespace salvo::w1943 {
namespace {

bool multi(const Situation& s) { return s.fire.turns > 1; }

const char* kind_name(FireKind k) {
  static constexpr std::array<Named<FireKind>, 4> kKindTexts = {
      {{"small arms fire (3.1, 3.5)", FireKind::kSmallArms},
       {"direct artillery fire (3.2, 3.6)", FireKind::kArtillery},
       {"flamethrower (3.7)", FireKind::kFlamethrower},
       {"light smoke (3.7)", FireKind::kSmoke}}};
  return name_in(kKindTexts, k).data();
}

std::string ammo_name(Ammo a) { return std::string(name_in(kAmmoNames, a)); }

std::string mg_name(MachineGun m) { return std::string(name_in(kMachineGunNames, m)); }

// The weapons that deliver each kind of fire, as weapon_class() knows them.
const char* fire_weapons(FireKind k) {
  switch (k) {
    case FireKind::kSmallArms:
      return "a small arms weapon for small arms fire: rifle, assault, atr, lmg, mmg or hmg (3.1)";
    case FireKind::kArtillery:
      return "a gun, a mortar, an atr, mmg or hmg for direct artillery fire (3.2, 3.6 Weapon Size Index, 3.7)";
    case FireKind::kFlamethrower:
      return "the flamethrower for flamethrower fire (3.7 Flamethrowers)";
    case FireKind::kSmoke:
      return "a mortar or a gun for light smoke (3.7 Light Smoke)";
  }
  return "?";
}

std::string type_name(TargetType t) { return std::string(name_in(kTargetTypeNames, t)); }

std::string signed_int(int v) {
  std::string r;
  if (v > 0) r.push_back('+');
  r += std::to_string(v);
  return r;
}

struct Key {
  int turn = 1;
  bool chain = false;  // a Rapid Fire shot (not the turn's first)
  int alive = 1;
  bool damaged = false, immobilized = false, jammed = false, ammo_out = false, fuel_out = false;
  auto tie() const { return std::tie(turn, chain, alive, damaged, immobilized, jammed, ammo_out, fuel_out); }
  bool operator<(const Key& o) const { return tie() < o.tie(); }
};

class Compiler {
 public:
  Compiler(const Chart& chart, const Situation& s) : s_(s) {
    // One spec per ammunition and per number of bases that changes a modifier: a packed unit
    // stops being packed at one base (3.5, 3.6).
    const int bases = s.target.bases;
    main_[0] = build_spec(chart, s, ammo_of(s.firer), 1);
    main_[1] = build_spec(chart, s, ammo_of(s.firer), bases);
    if (s.firer.fallback_ammo != Ammo::kNone) {
      fallback_[0] = build_spec(chart, s, s.firer.fallback_ammo, 1);
      fallback_[1] = build_spec(chart, s, s.firer.fallback_ammo, bases);
    }
  }

  RollProgram run() {
    auto& p = b_.program();
    const int T = s_.fire.turns;
    for (int i = 0; i < kNumFixedFlags; ++i) p.flag_names.emplace_back(flag_name(i));
    if (multi(s_)) p.add_turn_series(RollProgram::TurnSeries::Kind::kFlag, "remnant_by", T);
    for (int i = 0; i < kNumCounters; ++i) p.counter_names.emplace_back(counter_name(i));
    if (multi(s_)) {
      for (int k = 0; k <= s_.target.bases; ++k) p.outcome_names.push_back("lost_" + std::to_string(k));
      p.add_turn_series(RollProgram::TurnSeries::Kind::kEndReason, "destroyed", T);
      p.end_reason_names.emplace_back("turns_over");
      p.end_reason_names.emplace_back("out_of_ammo");
      p.end_reason_names.emplace_back("out_of_fuel");
    } else {
      for (int i = 0; i < kNumShotOutcomes; ++i) p.outcome_names.emplace_back(shot_outcome_name(i));
      for (int i = 0; i < kNumEndReasons; ++i) p.end_reason_names.emplace_back(end_reason_name(i));
    }
    Key start;
    start.alive = s_.target.bases;
    start.damaged = s_.target.damaged;
    start.immobilized = s_.target.immobilized;
    start.jammed = s_.firer.jammed;
    p.initial_state = state_of(start);
    while (!pending_.empty()) {
      const Key k = pending_.front();
      pending_.pop();
      b_.set_state_root(ids_.at(k), k.jammed ? repair_dag(k) : shot_dag(k));
    }
    return b_.take();
  }

 private:
  std::int32_t state_of(const Key& k) {
    if (auto it = ids_.find(k); it != ids_.end()) return it->second;
    std::string label = "turn " + std::to_string(k.turn) + (k.chain ? " rapid fire" : "") + ", " +
                        std::to_string(k.alive) + " bases" + (k.damaged ? " (1 damaged)" : "") +
                        (k.immobilized ? " immobilized" : "") + (k.jammed ? ", MG jammed" : "") +
                        (k.ammo_out ? ", secondary ammo out" : "") + (k.fuel_out ? ", out of fuel" : "");
    const std::int32_t id = b_.reserve_state(std::move(label));
    ids_.emplace(k, id);
    pending_.push(k);
    return id;
  }

  bool can_fire(const Key& k) const {
    if (k.fuel_out) return false;
    if (k.ammo_out && (s_.fire.kind == FireKind::kSmoke || !fallback_[0])) return false;
    return true;
  }

  const ShotSpec& spec_of(const Key& k) const {
    const std::size_t i = k.alive >= 2 ? 1 : 0;
    return k.ammo_out ? *fallback_[i] : main_[i];
  }

  std::uint32_t remnant_flags(int from_turn) const {
    std::uint32_t f = 1u << kFlagTargetRemnant;
    if (multi(s_))
      for (int t = from_turn; t <= s_.fire.turns; ++t) f |= 1u << (kNumFixedFlags + t - 1);
    return f;
  }

  Link end(Leaf leaf, End e, int turn) {
    leaf.next_state = -1;
    leaf.end_reason = static_cast<std::uint8_t>(end_index(s_, e, turn));
    leaf.closes_window = true;
    return b_.leaf(leaf);
  }

  // Turn over: the next turn, or the end of the fire.
  Link next_turn(Leaf leaf, Key next) {
    const int t = next.turn;
    if (t == 1) leaf.closes_window = true;
    if (t >= s_.fire.turns) return end(leaf, End::kFireOver, t);
    next.chain = false;
    next.turn = t + 1;
    if (!next.jammed && !can_fire(next)) return end(leaf, next.fuel_out ? End::kOutOfFuel : End::kOutOfAmmo, t);
    leaf.next_state = state_of(next);
    return b_.leaf(leaf);
  }

  // 3.7: a jammed MG tries to repair, one roll a turn; it is fixed on a 1.
  Link repair_dag(const Key& k) {
    std::vector<Link> faces(6);
    for (int d = 1; d <= 6; ++d) {
      Leaf leaf;
      leaf.outcome = static_cast<std::uint8_t>(outcome_index(s_, kOutMiss, s_.target.bases - k.alive));
      Key next = k;
      if (d == 1) {
        leaf.flags |= 1u << kFlagMgRepaired;
        next.jammed = false;
      }
      faces[static_cast<std::size_t>(d - 1)] = next_turn(leaf, next);
    }
    return b_.node(DieKind::kD6, faces);
  }

  // The leaf of a shot: its effect, then where the fire goes.
  Link finish(const Key& k, const ShotSpec& spec, const Shot& shot, bool jams) {
    TargetState ts{k.alive, k.damaged, k.immobilized};
    const int killed = apply_shot(s_.target.type, shot, ts);
    Leaf leaf;
    if (shot.hit) leaf.flags |= 1u << kFlagHit;
    if (shot.hit && shot.result == Result::kKilled) leaf.flags |= 1u << kFlagResultK;
    if (shot.hit && shot.result == Result::kDamaged) leaf.flags |= 1u << kFlagResultD;
    if (shot.hit && shot.result == Result::kImmobilized) leaf.flags |= 1u << kFlagResultI;
    if (killed) leaf.flags |= 1u << kFlagBaseKilled;
    if (ts.damaged && !k.damaged) leaf.flags |= 1u << kFlagBaseDamaged;
    if (ts.immobilized && !k.immobilized) leaf.flags |= 1u << kFlagImmobilized;
    if (shot.rapid_fire) leaf.flags |= 1u << kFlagRapidFire;
    if (jams) leaf.flags |= 1u << kFlagMgJam;
    const bool fuel = s_.fire.kind == FireKind::kFlamethrower && shot.ammo_out;
    const bool ammo = s_.fire.kind != FireKind::kFlamethrower && shot.ammo_out && spec.secondary;
    if (ammo) leaf.flags |= 1u << kFlagAmmoOut;
    if (fuel) leaf.flags |= 1u << kFlagOutOfFuel;
    if (ts.alive == 0) leaf.flags |= 1u << kFlagTargetDestroyed;
    if (is_remnant(ts.alive, s_.target.bases) && !is_remnant(k.alive, s_.target.bases))
      leaf.flags |= remnant_flags(k.turn);
    leaf.counts[kCounterShots] = 1;
    leaf.counts[kCounterHits] = shot.hit ? 1 : 0;
    leaf.counts[kCounterBasesKilled] = static_cast<std::uint8_t>(killed);
    leaf.counts[kCounterTurnsFired] = k.chain ? 0 : 1;
    leaf.outcome =
        static_cast<std::uint8_t>(outcome_index(s_, shot_outcome_of(s_.fire.kind, shot), s_.target.bases - ts.alive));
    if (!multi(s_)) leaf.closes_window = true;

    Key next = k;
    next.alive = ts.alive;
    next.damaged = ts.damaged;
    next.immobilized = ts.immobilized;
    next.jammed = jams;
    next.ammo_out = k.ammo_out || ammo;
    next.fuel_out = k.fuel_out || fuel;
    // Why the run ends (see EndReason): the target, then what stopped a shot that was due.
    if (ts.alive == 0) return end(leaf, End::kDestroyed, k.turn);
    if (jams) {
      if (shot.rapid_fire && !multi(s_)) return end(leaf, End::kMgJammed, k.turn);
      return next_turn(leaf, next);
    }
    if (shot.rapid_fire) {  // 3.7 Rapid Fire Reward: fire again at once, same turn
      if (!can_fire(next)) return end(leaf, next.fuel_out ? End::kOutOfFuel : End::kOutOfAmmo, k.turn);
      next.chain = true;
      leaf.next_state = state_of(next);
      return b_.leaf(leaf);
    }
    return next_turn(leaf, next);
  }

  // After the fire dice: the jam die when an MG must check (3.7).
  Link after_dice(const Key& k, const ShotSpec& spec, const Shot& shot) {
    if (!shot.jam_check || k.jammed) return finish(k, spec, shot, false);
    std::vector<Link> jam(6);
    for (int d = 1; d <= 6; ++d) jam[static_cast<std::size_t>(d - 1)] = finish(k, spec, shot, d == 1);
    return b_.node(DieKind::kD6, jam);
  }

  Link shot_dag(const Key& k) {
    const ShotSpec& spec = spec_of(k);
    switch (spec.kind) {
      case FireKind::kSmallArms: {
        const DieKind die = spec.dice == 2 ? DieKind::kPair : DieKind::kD6;
        std::vector<Link> links(static_cast<std::size_t>(faces(die)));
        for (int f = 0; f < faces(die); ++f)
          links[static_cast<std::size_t>(f)] = after_dice(k, spec, resolve_shot(spec, f, 0));
        return b_.node(die, links);
      }
      case FireKind::kArtillery: {
        std::vector<Link> hit(36);
        for (int f = 0; f < 36; ++f) {
          std::vector<Link> kill(6);
          for (int d = 1; d <= 6; ++d)
            kill[static_cast<std::size_t>(d - 1)] = after_dice(k, spec, resolve_shot(spec, f, d));
          hit[static_cast<std::size_t>(f)] = b_.node(DieKind::kD6, kill);
        }
        return b_.node(DieKind::kPair, hit);
      }
      case FireKind::kFlamethrower:
      case FireKind::kSmoke: {
        std::vector<Link> links(6);
        for (int d = 1; d <= 6; ++d)
          links[static_cast<std::size_t>(d - 1)] = after_dice(k, spec, resolve_shot(spec, 0, d));
        return b_.node(DieKind::kD6, links);
      }
    }
    throw std::logic_error("unknown fire kind");
  }

  const Situation& s_;
  std::array<ShotSpec, 2> main_;  // [0]: one base left, [1]: two or more
  std::array<std::optional<ShotSpec>, 2> fallback_;
  ProgramBuilder b_;
  std::map<Key, std::int32_t> ids_;
  std::queue<Key> pending_;
};

void explain_mods(std::vector<std::string>& out, const std::vector<Modifier>& mods, int total) {
  for (const Modifier& m : mods) out.push_back("    " + signed_int(m.value) + "  " + m.what + " (" + m.rule + ")");
  out.push_back("    = " + signed_int(total));
}

void explain_spec(std::vector<std::string>& out, const Situation& s, const Chart& c, const ShotSpec& spec,
                  const std::string& label) {
  out.push_back(label);
  switch (spec.kind) {
    case FireKind::kSmallArms:
      out.push_back("  Small Arms Fire chart: " + std::to_string(spec.dice) + "d6, modifiers (3.5):");
      explain_mods(out, spec.hit_mods, spec.hit_mod);
      if (spec.jam_on_fire_die) out.push_back("  MG jam: any 1 on the fire roll, then a 1 on a second roll (3.7)");
      break;
    case FireKind::kArtillery:
      out.push_back(std::string("  section: ") + (spec.anti_tank ? "anti-tank" : "anti-personnel") + " (3.2, 3.6)");
      out.push_back("  To Hit: two hit dice, modified total " + std::to_string(spec.to_hit) + "+ hits at " +
                    std::to_string(s.fire.range) + " yards (chart range band); modifiers:");
      explain_mods(out, spec.hit_mods, spec.hit_mod);
      out.push_back("  To Kill: kill die, modifiers:");
      explain_mods(out, spec.kill_mods, spec.kill_mod);
      {
        std::string boxes;
        const ResultTable& t = *spec.table;
        for (int v = t.lowest; v <= t.highest(); ++v)
          boxes += (boxes.empty() ? "" : ", ") + std::to_string(v) + ":" + result_name(t.at(v));
        out.push_back("  kill boxes (" + std::string(spec.anti_tank ? "anti-tank" : "anti-personnel") + "): " + boxes);
      }
      out.push_back("  Rapid Fire Reward: a natural 12 on the hit dice fires again at once (3.7)");
      if (spec.jam_on_kill_die) out.push_back("  MG jam: a 1 on the kill die, then a 1 on a second roll (3.7)");
      break;
    case FireKind::kFlamethrower:
      out.push_back("  destroys one base regardless of protection; out of fuel on a 1-2 on 1d6 (3.7)");
      break;
    case FireKind::kSmoke:
      out.push_back("  light smoke: secondary ammunition, out on a 1-2 on the die (3.7)");
      break;
  }
  if (spec.secondary && spec.kind == FireKind::kArtillery)
    out.push_back(std::string("  secondary ammunition ") + ammo_name(spec.ammo) +
                  ": runs out on an unmodified 1 or 2 on the kill die (3.7)");
  (void)c;
}

// Where a setting changes the fire: the contexts of a shot.
enum Where : unsigned {
  kSaPersonnel = 1,  // Small Arms Fire chart at a personnel target (3.5)
  kSaVehicle = 2,    // Small Arms Fire chart at a vehicle: infantry assaulting armor (3.5)
  kAntiTank = 4,     // Direct Artillery, anti-tank section (3.6)
  kAntiPersonnel = 8,
  kFlame = 16,       // 3.7 Flamethrowers: "regardless of the target's protection"
  kLightSmoke = 32,  // 3.7 Light Smoke: no target, no modifiers
  kSmallArms = kSaPersonnel | kSaVehicle,
  kArtillery = kAntiTank | kAntiPersonnel,
};

Where where_of(const Situation& s) {
  const bool vehicle = s.target.type == TargetType::kVehicle;
  switch (s.fire.kind) {
    case FireKind::kSmallArms:
      return vehicle ? kSaVehicle : kSaPersonnel;
    case FireKind::kArtillery:
      return vehicle ? kAntiTank : kAntiPersonnel;
    case FireKind::kFlamethrower:
      return kFlame;
    case FireKind::kSmoke:
      return kLightSmoke;
  }
  return kSaPersonnel;
}

const char* where_name(Where w) {
  switch (w) {
    case kSaPersonnel:
      return "small arms fire at personnel";
    case kSaVehicle:
      return "small arms fire at a vehicle";
    case kAntiTank:
      return "direct artillery fire at a vehicle";
    case kAntiPersonnel:
      return "direct artillery fire at personnel";
    case kFlame:
      return "flamethrower fire";
    case kLightSmoke:
      return "light smoke";
    default:
      return "?";
  }
}

std::string quoted(const std::string& v) { return "\"" + v + "\""; }

// A setting that changes nothing in the fire described (a modifier of the other chart or
// section, a target condition under a flamethrower or smoke, the tank values of a personnel
// target), or that contradicts another: refused, so no setting is silently ignored.
std::optional<RulesError> setting_problem(const Situation& s) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  constexpr auto err = refusal;
  // 3.6 At stationary in open: "Target base is not moving or behind any sort of cover."
  if (t.stationary_in_open && t.moving)
    return err("target.stationary_in_open",
               "expected false for a moving target (3.6 At stationary in open: \"not "
               "moving or behind any sort of cover\"), got true");
  if (t.stationary_in_open && (t.soft_cover || t.solid_cover || t.hard_cover))
    return err("target.stationary_in_open",
               "expected false for a target in cover (3.6 At stationary in open: \"not "
               "moving or behind any sort of cover\"), got true");
  // 3.6 APCP: "firing unit may run out each time it is used"; 3.7 Mortars: "light smoke
  // counting as secondary ammunition", so their HE is primary.
  if (f.secondary == false && ammo_of(f) == Ammo::kAPCP)
    return err("firer.secondary",
               "expected true for APCP (3.6: the firing unit may run out each time it is used), "
               "got false");
  if (f.secondary == true && is_mortar(f) && fire.kind == FireKind::kArtillery)
    return err("firer.secondary",
               "expected false for a mortar's HE (3.7 Mortars: light smoke counts as secondary "
               "ammunition), got true");

  struct Use {
    const char* key;
    bool set;
    unsigned where;        // the contexts where it changes the fire
    std::string expected;  // its neutral value
    std::string got;
    const char* what;  // the rule that uses it
  };
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  const char* sizes[] = {"normal", "large", "small"};
  const char* trainings[] = {"average", "outstanding", "abysmal"};
  const Use uses[] = {
      {"target.prone", t.prone, kSaPersonnel, "false", "true", "At prone is a 3.5 Small Arms modifier for personnel"},
      {"target.rushing", t.rushing, kSaPersonnel, "false", "true",
       "At rushing is a 3.5 Small Arms modifier for personnel"},
      {"target.soft_cover", t.soft_cover, kSmallArms, "false", "true",
       "At soft cover is a 3.5 Small Arms modifier; 3.6 has solid and hard cover"},
      {"target.solid_cover", t.solid_cover, kSmallArms | kArtillery, "false", "true",
       "At solid cover is a 3.5 and 3.6 modifier"},
      {"target.hard_cover", t.hard_cover, kSmallArms | kArtillery, "false", "true",
       "At hard cover is a 3.5 and 3.6 modifier"},
      {"target.packed", t.packed, kSmallArms | kAntiPersonnel, "false", "true", "At packed is a 3.5 and 3.6 modifier"},
      {"target.stationary_in_open", t.stationary_in_open, kArtillery, "false", "true",
       "At stationary in open is a 3.6 Direct Artillery modifier"},
      {"target.moving", t.moving, kArtillery, "false", "true", "Moving target is a 3.6 Direct Artillery modifier"},
      {"target.size", t.size != TargetSize::kNormal, kAntiTank, quoted("normal"),
       quoted(sizes[static_cast<int>(t.size)]), "Large and Small target are 3.6 anti-tank modifiers"},
      {"target.defense", t.defense != 0, kSaVehicle | kAntiTank, "no defense value", std::to_string(t.defense),
       "the weapon differential is against tank targets, 3.5, 3.6"},
      {"firer.weapon_value", f.weapon_value != 0, kSaVehicle | kAntiTank, "no weapon value",
       std::to_string(f.weapon_value), "the weapon differential is against tank targets, 3.5, 3.6"},
      {"fire.flank_rear", fire.flank_rear, kAntiTank, "false", "true",
       "At flank/rear is a 3.6 anti-tank modifier: the flank or rear sectors of the target tanks"},
      {"firer.demoralized", f.demoralized, kSmallArms, "false", "true", "Demoralized is a 3.5 Small Arms modifier"},
      {"firer.bases_firing", f.bases_firing != 0, kSmallArms, "no bases_firing", std::to_string(f.bases_firing),
       "Weak and Remnant unit firing are 3.5 Small Arms modifiers"},
      {"firer.training", f.training != Training::kAverage, kArtillery, quoted("average"),
       quoted(trainings[static_cast<int>(f.training)]), "Outstanding and Abysmal are 3.6 Direct Artillery modifiers"},
      {"firer.damaged", f.damaged, kArtillery, "false", "true", "Damaged is a 3.6 Direct Artillery modifier"},
      {"firer.moved", f.moved, kSmallArms | kArtillery, "false", "true", "Moving-firing is 3.5, Moved 3.6"},
      {"firer.ammo", f.ammo.has_value(), kArtillery, "no ammunition type", f.ammo ? quoted(ammo_name(*f.ammo)) : "",
       "ammunition types are fired on the Direct Artillery chart, 3.6, 3.7"},
      {"firer.secondary", f.secondary.has_value(), kArtillery, "no secondary setting",
       flag(f.secondary.value_or(false)), "secondary ammunition runs out on the Direct Artillery kill die, 3.7"},
  };
  const Where here = where_of(s);
  for (const Use& u : uses)
    if (u.set && !(u.where & here))
      return err(u.key, "expected " + u.expected + " for " + where_name(here) + " (" + u.what + "), got " + u.got);
  return std::nullopt;
}

// True when row i of `table` is the row of enumerator i (`key_of(row)`): a table indexed by
// its enum, every value in order.
template <class Table, class KeyOf>
constexpr bool indexed_by_enum(const Table& table, KeyOf key_of) {
  for (std::size_t i = 0; i < table.size(); ++i)
    if (static_cast<std::size_t>(key_of(table[i])) != i) return false;
  return true;
}

// How a run's End is numbered (EndReason, w1943.h): one fire by its own end reason; several
// turns by destroyed_turn_<t> (index t - 1), or by the slot `after_turns` past the T turns:
// turns_over (a jammed MG spends the next turn on its repair roll), out_of_ammo, out_of_fuel.
constexpr int kByTurn = -1;
struct EndSlot {
  End end;
  EndReason one_fire;
  int after_turns;
};
constexpr std::array<EndSlot, kNumEndReasons> kEndSlots = {{{End::kFireOver, kEndFireOver, 0},
                                                            {End::kDestroyed, kEndTargetDestroyed, kByTurn},
                                                            {End::kMgJammed, kEndMgJammed, 0},
                                                            {End::kOutOfAmmo, kEndOutOfAmmo, 1},
                                                            {End::kOutOfFuel, kEndOutOfFuel, 2}}};
static_assert(indexed_by_enum(kEndSlots, [](const EndSlot& r) { return r.end; }) &&
                  static_cast<std::size_t>(End::kOutOfFuel) + 1 == kEndSlots.size(),
              "one EndSlot for every End, in the enum's order");

// The outcome of a hit by its result box (ShotOutcome).
constexpr std::array<std::pair<Result, ShotOutcome>, 4> kHitOutcomes = {
    {{Result::kNone, kOutNone}, {Result::kImmobilized, kOutI}, {Result::kDamaged, kOutD}, {Result::kKilled, kOutK}}};
static_assert(indexed_by_enum(kHitOutcomes, [](const auto& r) { return r.first; }) &&
                  static_cast<std::size_t>(Result::kKilled) + 1 == kHitOutcomes.size(),
              "one outcome for every Result, in the enum's order");

}  // namespace

int end_index(const Situation& s, End e, int turn) {
  const EndSlot& slot = kEndSlots[static_cast<std::size_t>(e)];
  if (!multi(s)) return slot.one_fire;
  return slot.after_turns == kByTurn ? turn - 1 : s.fire.turns + slot.after_turns;
}

int outcome_index(const Situation& s, int shot_outcome, int lost) { return multi(s) ? lost : shot_outcome; }

int shot_outcome_of(FireKind kind, const Shot& shot) {
  if (kind == FireKind::kSmoke) return kOutSmoke;
  if (kind == FireKind::kSmallArms && shot.result == Result::kNone) return kOutNone;
  if (!shot.hit) return kOutMiss;
  return kHitOutcomes[static_cast<std::size_t>(shot.result)].second;
}

std::optional<RulesError> check(const Chart& chart, const Situation& s) {
  constexpr auto err = refusal;
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  if (const auto problems = chart_problems(chart); !problems.empty()) return err("chart", problems.front());
  if (f.bases < 1 || f.bases > kMaxBases)
    return err("firer.bases", "expected 1.." + std::to_string(kMaxBases) + " bases");
  if (f.bases_firing < 0 || f.bases_firing > f.bases)
    return err("firer.bases_firing", "more bases firing (" + std::to_string(f.bases_firing) + ") than the unit has (" +
                                         std::to_string(f.bases) + ")");
  if (t.bases < 1 || t.bases > kMaxBases)
    return err("target.bases", "expected 1.." + std::to_string(kMaxBases) + " bases");
  if ((t.type == TargetType::kVehicle || t.type == TargetType::kTowedGun) && t.bases != 1)
    return err("target.bases", "a vehicle or towed gun target is one base");
  if (t.damaged && (t.type == TargetType::kMachineGun || t.type == TargetType::kMortar))
    return err("target.damaged", "machine gun and mortar bases are killed when hit, never damaged (3.3)");
  if (t.immobilized && t.type != TargetType::kVehicle && t.type != TargetType::kTowedGun)
    return err("target.immobilized", "only vehicles and towed guns can be immobilized (3.3)");
  if (fire.turns < 1 || fire.turns > kMaxTurns) return err("fire.turns", "expected 1.." + std::to_string(kMaxTurns));
  // 3.5 At packed target, 3.6 At packed Infantry: "any bases which are within 10 yards of each
  // other" takes two bases; 3.6 gives the artillery bonus against "an infantry unit" only.
  if (t.packed && t.bases < 2)
    return err("target.packed",
               "expected a target unit of 2 or more bases (3.5, 3.6: bases within 10 yards of each "
               "other), got true with target.bases = " +
                   std::to_string(t.bases));
  if (t.packed && fire.kind == FireKind::kArtillery && t.type != TargetType::kInfantry)
    return err("target.packed", std::string("expected an infantry target for direct artillery fire (3.6 At packed "
                                            "Infantry), got true with target.type = \"") +
                                    type_name(t.type) + "\"");
  // The base type: an MG and the mortar rules follow from a weapon salvo knows (mg_of(),
  // is_mortar()); a setting that contradicts the weapon is refused. A problem of a derived
  // setting is reported at the weapon.
  const std::optional<WeaponClass> wc = weapon_class(f.weapon);
  const MachineGun mg = mg_of(f);
  const bool mortar = is_mortar(f);
  const char* mg_key = f.mg ? "firer.mg" : "firer.weapon";
  const char* mortar_key = f.mortar ? "firer.mortar" : "firer.weapon";
  if (wc && f.mg && *f.mg != wc->mg)
    return err("firer.mg", std::string("expected \"") + mg_name(wc->mg) + "\" for weapon \"" + f.weapon +
                               "\" (3.5 Hmg/Lmg, 3.6 Medium/Heavy MG), got \"" + mg_name(*f.mg) + "\"");
  if (wc && f.mortar && *f.mortar != wc->mortar)
    return err("firer.mortar", std::string("expected ") + (wc->mortar ? "true" : "false") + " for weapon \"" +
                                   f.weapon + "\" (3.7 Mortars), got " + (*f.mortar ? "true" : "false"));
  if (mg != MachineGun::kNone && mortar)
    return err(mortar_key, "expected a machine gun or a mortar, not both (3.7), got a mortar that is a machine gun");
  if (mg != MachineGun::kNone && f.mounted_cavalry)
    return err("firer.mounted_cavalry",
               "expected false for a machine gun base (3.1: cavalry bases fire small arms "
               "while mounted; each machine gun base fires as a unit), got true");
  // What the weapon can fire (3.1, 3.2, 3.7).
  if (wc) {
    const bool can = fire.kind == FireKind::kSmallArms      ? wc->small_arms
                     : fire.kind == FireKind::kArtillery    ? wc->artillery
                     : fire.kind == FireKind::kFlamethrower ? wc->flamethrower
                                                            : wc->smoke;
    if (!can)
      return err("firer.weapon", "expected " + std::string(fire_weapons(fire.kind)) + ", got \"" + f.weapon + "\"");
  }
  // 3.1: "Each machine gun base also fires as a unit"; 3.2: "Each such artillery base may fire
  // once each turn" - one base, never Weak or Remnant.
  if (mg != MachineGun::kNone && f.bases > 1)
    return err("firer.bases", "expected 1 for a machine gun (3.1: each machine gun base fires as a unit), got " +
                                  std::to_string(f.bases));
  if (fire.kind == FireKind::kArtillery && f.bases > 1)
    return err("firer.bases", "expected 1 for direct artillery fire (3.2: each artillery base fires on its own), got " +
                                  std::to_string(f.bases));
  if (f.jammed && mg == MachineGun::kNone) return err("firer.jammed", "only a machine gun jams (3.7)");
  if (f.jammed && fire.turns == 1)
    return err("firer.jammed",
               "a jammed machine gun cannot fire; it tries to repair on following turns (3.7): set fire.turns > 1");
  if (f.moved && mg != MachineGun::kNone && fire.kind != FireKind::kFlamethrower)
    return err("firer.moved", "machine gun bases may not fire on the same turn that they have moved (3.7)");
  // 3.7: "Medium and light mortar bases assigned as heavy weapons may not fire on the same turn they
  // have moved": a heavy mortar may, with the Moved modifier (3.6).
  const bool heavy_mortar =
      f.weapon == "heavy_mortar" || shell_size_of(f) == shell_size_of(std::string("heavy_mortar"));
  if (f.moved && mortar && !heavy_mortar)
    return err("firer.moved",
               "medium and light mortar bases may not fire on the same turn they have moved (3.7); "
               "a heavy mortar (weapon or shell_size \"heavy_mortar\") may");
  // 3.7 Machine Guns: an MG fires no shells, so neither H.E. ("from mortars or field guns for
  // example", 3.6 Firing H.E.) nor APCP, and it has no secondary ammunition.
  const Ammo ammo = ammo_of(f);
  if (mg != MachineGun::kNone && f.ammo)
    return err("firer.ammo", std::string("expected no ammunition type for a machine gun (it fires no H.E. or APCP "
                                         "shells, 3.6, 3.7), got \"") +
                                 ammo_name(*f.ammo) + "\"");
  if (mg != MachineGun::kNone && f.secondary.value_or(false))
    return err("firer.secondary", "expected false for a machine gun (it has no secondary ammunition, 3.7), got true");
  if (f.shell_size && (*f.shell_size < 0 || *f.shell_size >= kNumShellSizes))
    return err("firer.shell_size", "expected a category in 0..11 (3.6 Weapon Size Index)");
  switch (fire.kind) {
    case FireKind::kSmallArms:
      if (mortar) return err(mortar_key, "mortars fire on the Direct Artillery Fire chart (3.2)");
      // 3.7: light MGs "may not fire in any anti-tank capacity"; medium and heavy MGs firing on
      // tank targets "are subject to all standard modifiers shown on the Direct Artillery
      // Anti-Tank section" (3.5: the Small Arms chart is used by infantry assaulting armor).
      if (mg == MachineGun::kLight && t.type == TargetType::kVehicle)
        return err(mg_key, "light machine guns may not fire in any anti-tank capacity (3.7)");
      if (mg != MachineGun::kNone && t.type == TargetType::kVehicle)
        return err("fire.kind",
                   "expected \"direct_artillery\" for a medium or heavy machine gun firing on a vehicle "
                   "(3.7: the Direct Artillery Anti-Tank section), got \"small_arms\"");
      break;
    case FireKind::kArtillery:
      if (mg == MachineGun::kLight)
        return err(mg_key, "light machine guns may not fire in any anti-tank capacity (3.7)");
      if (mg != MachineGun::kNone && t.type != TargetType::kVehicle)
        return err("fire.kind",
                   "machine guns fire on personnel with the Small Arms Fire chart; the Direct Artillery chart only "
                   "against tank targets (3.1, 3.7)");
      if (mg == MachineGun::kNone && (ammo == Ammo::kSmoke || ammo == Ammo::kNone))
        return err("firer.ammo", "direct artillery fire needs HE, AP or APCP (light smoke is fire.kind = \"smoke\")");
      if (t.type != TargetType::kVehicle && ammo != Ammo::kHE)
        return err("firer.ammo", "you must use H.E. in an antipersonnel role (3.6)");
      if (mortar && ammo != Ammo::kHE) return err("firer.ammo", "mortars may only use HE and light smoke (3.7)");
      if (f.fallback_ammo != Ammo::kNone && f.fallback_ammo == ammo)
        return err("firer.fallback_ammo", "the primary ammunition must differ from the secondary");
      if (f.fallback_ammo == Ammo::kAPCP || f.fallback_ammo == Ammo::kSmoke)
        return err("firer.fallback_ammo", "APCP and light smoke are always secondary ammunition (3.6, 3.7)");
      if (f.fallback_ammo == Ammo::kAP && t.type != TargetType::kVehicle)
        return err("firer.fallback_ammo", "you must use H.E. in an antipersonnel role (3.6)");
      if (mortar && (fire.range < kMortarMinRange || fire.range > kMortarMaxRange))
        return err("fire.range", "mortars fire from 120 to 1800 yards (3.7), got " + std::to_string(fire.range));
      break;
    case FireKind::kFlamethrower:
      break;
    case FireKind::kSmoke:
      if (mg != MachineGun::kNone) return err(mg_key, "machine guns do not fire smoke (3.7)");
      break;
  }
  // Settings that change nothing here, or contradict each other.
  if (auto e = setting_problem(s)) return e;
  if (fire.kind != FireKind::kArtillery && f.fallback_ammo != Ammo::kNone)
    return err("firer.fallback_ammo", "only direct artillery fire has secondary ammunition with a fallback (3.7)");
  if (fire.kind == FireKind::kArtillery && f.fallback_ammo != Ammo::kNone && !f.secondary.value_or(false) &&
      ammo != Ammo::kAPCP)
    return err("firer.fallback_ammo", "a fallback needs secondary ammunition (firer.secondary = true) (3.7)");
  // Base and Range chart.
  std::string weapon = f.weapon;
  if (f.mounted_cavalry) {
    if (fire.kind != FireKind::kSmallArms)
      return err("firer.mounted_cavalry", "mounted cavalry fires small arms only (3.1)");
    weapon = "assault";  // 3.1: mounted cavalry uses the assault weapon range
  }
  if (!weapon.empty()) {
    const auto it = chart.ranges.find(weapon);
    if (it == chart.ranges.end()) {
      std::string known;
      for (const auto& [k, v] : chart.ranges) known += (known.empty() ? "" : ", ") + k;
      return err(f.mounted_cavalry ? "firer.mounted_cavalry" : "firer.weapon",
                 "\"" + weapon + "\" is not in the chart's Base and Range chart (" + known + ")");
    }
    if (fire.range > it->second)
      return err("fire.range", std::to_string(fire.range) + " yards is beyond the " + std::to_string(it->second) +
                                   "-yard range of " + weapon + " (Base and Range chart)");
  }
  try {
    build_spec(chart, s, ammo, t.bases);
    if (f.fallback_ammo != Ammo::kNone) build_spec(chart, s, f.fallback_ammo, t.bases);
  } catch (const RulesError& e) {
    return e;
  }
  return std::nullopt;
}

Compiled compile(const Chart& chart, const Situation& s) {
  if (auto e = check(chart, s)) throw *e;
  Compiled out;
  out.program = Compiler(chart, s).run();
  auto& l = out.explain.lines;
  l.push_back("chart: " + chart.name);
  l.push_back(std::string("fire: ") + kind_name(s.fire.kind) + ", " + std::to_string(s.fire.range) + " yards, " +
              (s.fire.turns == 1 ? std::string("one fire") : std::to_string(s.fire.turns) + " turns"));
  const Ammo ammo = ammo_of(s.firer);
  const ShotSpec main = build_spec(chart, s, ammo, s.target.bases);
  std::string label = "each fire";
  if (s.fire.kind == FireKind::kArtillery)
    label =
        ammo == Ammo::kNone ? std::string("machine gun shots (no H.E.)") : std::string("shots with ") + ammo_name(ammo);
  explain_spec(l, s, chart, main, label);
  if (s.firer.fallback_ammo != Ammo::kNone)
    explain_spec(l, s, chart, build_spec(chart, s, s.firer.fallback_ammo, s.target.bases),
                 std::string("shots with ") + ammo_name(s.firer.fallback_ammo) + " once the secondary is out");
  l.push_back("notes");
  l.push_back("  - hits: a K removes a base; a second D on an infantry unit with a damaged base is a K (3.3)");
  if (s.target.type == TargetType::kMachineGun || s.target.type == TargetType::kMortar)
    l.push_back(
        "  - machine gun and mortar bases are killed when hit: any hit kills, whatever the box, K, D or I (3.3)");
  if (s.target.type == TargetType::kInfantry)
    l.push_back("  - immobilization only happens to vehicles and towed guns: I has no effect here (3.3)");
  l.push_back("  - a K removes an undamaged base while one remains (salvo's reading; the text does not say)");
  if (s.fire.kind == FireKind::kArtillery)
    l.push_back("  - Rapid Fire shots stay on the same target while it lives (3.7 allows another target)");
  if (s.fire.turns > 1) {
    l.push_back(
        "  - the target unit does not move, rally or return fire between turns; remnant: one third or less of its "
        "bases (3.5)");
    if (mg_of(s.firer) != MachineGun::kNone)
      l.push_back(
          "  - a jammed MG spends each following turn on one repair roll (fixed on a 1) and fires again the turn after "
          "(3.7)");
  }
  if (s.target.packed && (s.fire.turns > 1 || s.fire.kind == FireKind::kArtillery))
    l.push_back(
        "  - packed target: the modifier lapses once one base is left, no two bases within 10 yards (3.5, 3.6);"
        " salvo takes every base as packed (3.3 removes packed bases first)");
  return out;
}

std::string format_explanation(const Explanation& e) {
  std::string out;
  for (const std::string& line : e.lines) out += line + "\n";
  return out;
}

}  // namespace salvo::w1943
