// An ASL fight compiled into one roll program (asl_fight.h).
//
// Readings (explain lists them):
// - Each unit fires its whole fire phase (ROF, Intensive Fire if its fire table asks, stop_on)
//   in every fire phase its side owns, units in file order; a Shocked or Unconfirmed Kill unit,
//   a gun out of action or out of ammunition does not fire (C7.42, A9.7, C8.9).
// - Its target: the enemy it names while that one is not destroyed, else the first enemy in
//   file order still able to fight (not Shocked or UK, its gun not disabled, with ammunition), else the first one not
//   destroyed.
// - Case A: only in a unit's first fire phase of the fight (C5.12); after it, its CA is taken
//   to cover its targets. Acquisition is kept of one target, lost on a malfunction or on firing
//   at another target (C6.5).
// - Rally Phase: every malfunctioned weapon whose crew is not Shocked or UK rolls for repair
//   (D3.7: dr 1 repairs, 6 disables; a Gun, A9.72: dr <= R# repairs, 6 eliminates it, here:
//   out of action for good), in file order; then, at its end, every Shocked or UK unit rolls for
//   recovery (C7.42).
// - A side wins when every enemy unit is destroyed (burned, eliminated, or a UK that became a
//   wreck); the fight ends there.
#include "salvo/rules/asl_fight.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <unordered_map>

#include "salvo/rules/asl_shot.h"

namespace salvo::asl {
namespace {

// What one unit carries from phase to phase.
struct UnitState {
  phase::Target self;  // its own status as a target
  phase::Gun gun = phase::Gun::kOk;
  bool special_out = false;
  bool low_ammo = false;
  bool fired_before = false;
  int acq = 0;          // Acquisition of acq_target
  int acq_target = -1;  // unit index; -1 none
};

// Where the game turn stands: step `step` of the sequence in turn `turn`; inside a Rally Phase
// `sub` 0 is the repair pass and 1 the recovery pass; `unit` the unit next considered.
struct Cursor {
  int turn = 1;
  int step = 0;
  int sub = 0;
  int unit = 0;
};

struct Joint {
  std::vector<UnitState> units;
  Cursor at;
};

// What no later roll or result can tell apart is made equal, so that such states are one:
// a destroyed unit carries nothing; a unit out of action for good keeps no Acquisition, nor
// does one whose acquired target is destroyed.
void canonical(Joint& j) {
  for (UnitState& u : j.units) {
    if (u.self.destroyed) {
      u = UnitState{};
      u.self.destroyed = true;
      continue;
    }
    if (u.gun == phase::Gun::kDisabled ||
        (u.acq_target >= 0 && j.units[static_cast<std::size_t>(u.acq_target)].self.destroyed)) {
      u.acq = 0;
      u.acq_target = -1;
    }
  }
}

// A byte string identifying a joint state and, inside a unit's fire phase, its phase state.
std::string key_of(const Joint& j, int phase_state) {
  std::string k;
  k.reserve(8 + 8 * j.units.size());
  for (const int v : {j.at.turn, j.at.step, j.at.sub, j.at.unit}) k.push_back(static_cast<char>(v + 1));
  const auto ps = static_cast<std::uint32_t>(phase_state + 1);  // a phase may have thousands of states
  for (int shift = 0; shift < 32; shift += 8) k.push_back(static_cast<char>((ps >> shift) & 0xffu));
  for (const UnitState& u : j.units) {
    const int bits = int{u.self.destroyed} | static_cast<int>(u.self.shock) << 1 | int{u.self.immobilized} << 3 |
                     int{u.self.revealed} << 4 | int{u.special_out} << 5 | int{u.low_ammo} << 6 |
                     int{u.fired_before} << 7;
    k.push_back(static_cast<char>(bits));
    k.push_back(static_cast<char>(static_cast<int>(u.gun) | u.acq << 2));
    k.push_back(static_cast<char>(u.acq_target + 1));
  }
  return k;
}

bool side_out(const Fight& f, const Joint& j, int side) {
  for (std::size_t i = 0; i < f.units.size(); ++i)
    if (f.units[i].side == side && !j.units[i].self.destroyed) return false;
  return true;
}

class FightCompiler {
 public:
  FightCompiler(const Fight& f, std::size_t max_states) : f_(f), n_(f.units.size()), max_states_(max_states) {
    for (std::size_t a = 0; a < n_; ++a)
      for (std::size_t b = 0; b < n_; ++b)
        situations_.push_back(f.units[a].side != f.units[b].side ? fight_situation(f, a, b) : Situation{});
  }

  RollProgram run() {
    name_program();
    Joint start;
    start.units.resize(n_);
    for (std::size_t i = 0; i < n_; ++i) start.units[i].low_ammo = f_.units[i].firer.low_ammo_marked;
    // The first state: where a leaf from the start would lead.
    const Link first = advance(Leaf{}, start);
    const std::int32_t initial = b_.program().leaves[static_cast<std::size_t>(first.index())].next_state;
    if (initial < 0) throw RulesError("unit", "no unit of the fight can fire: nothing to roll");
    b_.program().initial_state = initial;
    for (std::size_t next = 0; next < pending_.size(); ++next) build(next);
    RollProgram p = b_.take();
    return p;
  }

 private:
  struct Pending {
    Joint joint;
    int phase_state = -1;  // >= 0: a unit's fire phase (the unit at joint.at.unit)
    std::shared_ptr<const phase::Program> phase;
    int target = -1;
  };

  int turns() const { return f_.turns; }

  void name_program() {
    RollProgram& p = b_.program();
    for (const char* n : {"a_wins", "b_wins", "neither"}) p.flag_names.emplace_back(n);
    for (const FightUnit& u : f_.units)
      for (const char* what : {"_destroyed", "_immobilized", "_gun_out"}) p.flag_names.push_back(u.name + what);
    p.counter_names = {"shots", "game_turns"};
    p.outcome_names = {"neither", "a_wins", "b_wins"};
    p.add_turn_series(RollProgram::TurnSeries::Kind::kEndReason, "a_wins", turns());
    p.add_turn_series(RollProgram::TurnSeries::Kind::kEndReason, "b_wins", turns());
    p.end_reason_names.emplace_back("turns_over");
  }

  const Situation& situation(std::size_t a, std::size_t b) const { return situations_[a * n_ + b]; }

  bool has_ammo(std::size_t i, const UnitState& u) const {
    ShotContext c;
    c.special_out = u.special_out;
    c.low_ammo_marked = u.low_ammo;
    // Any enemy's situation gives the same ammunition: the firer's.
    for (std::size_t b = 0; b < n_; ++b)
      if (f_.units[b].side != f_.units[i].side) return shot_ammo(situation(i, b), c) != Ammo::kNone;
    return false;
  }
  bool able(std::size_t i, const UnitState& u) const {
    return !u.self.destroyed && u.self.shock == phase::Shock::kNone && u.gun == phase::Gun::kOk && has_ammo(i, u);
  }
  bool can_repair(std::size_t i, const UnitState& u) const {
    return !u.self.destroyed && u.self.shock == phase::Shock::kNone && u.gun == phase::Gun::kMalfunctioned &&
           repairable(f_.units[i].firer) && has_ammo(i, u);
  }

  // The enemy unit i fires at, or -1.
  int target_of(const Joint& j, std::size_t i) const {
    const FightUnit& u = f_.units[i];
    if (u.target)
      for (std::size_t b = 0; b < n_; ++b)
        if (f_.units[b].name == *u.target && !j.units[b].self.destroyed) return static_cast<int>(b);
    int fallback = -1;
    for (std::size_t b = 0; b < n_; ++b) {
      if (f_.units[b].side == u.side || j.units[b].self.destroyed) continue;
      const UnitState& t = j.units[b];
      if (t.self.shock == phase::Shock::kNone && t.gun != phase::Gun::kDisabled && has_ammo(b, t))
        return static_cast<int>(b);
      if (fallback < 0) fallback = static_cast<int>(b);
    }
    return fallback;
  }

  std::shared_ptr<const phase::Program> phase_program(std::size_t a, std::size_t b, const phase::Start& s) {
    std::string k{static_cast<char>(a), static_cast<char>(b),
                  static_cast<char>(int{s.firer.fired_before} | s.firer.acquisition << 1 |
                                    int{s.firer.special_out} << 3 | int{s.firer.low_ammo} << 4),
                  static_cast<char>(static_cast<int>(s.target.shock) | int{s.target.immobilized} << 2 |
                                    int{s.target.revealed} << 3)};
    auto it = phases_.find(k);
    if (it == phases_.end())
      it = phases_.emplace(k, std::make_shared<const phase::Program>(phase::compile(situation(a, b), s))).first;
    return it->second;
  }

  // The run ends after `leaf`'s step: the fight's result.
  Link end(Leaf leaf, int reason, int winner) {
    leaf.next_state = -1;
    leaf.end_reason = static_cast<std::uint8_t>(reason);
    leaf.closes_window = true;
    leaf.outcome = static_cast<std::uint8_t>(winner);
    ++leaf.counts[fight::kGameTurns];  // the game turn it ends in
    const auto bit = [](int flag) { return FlagMask{1} << flag; };
    leaf.flags |= bit(winner == fight::kOutcomeAWins   ? fight::kAWins
                      : winner == fight::kOutcomeBWins ? fight::kBWins
                                                       : fight::kNeither);
    return b_.leaf(leaf);
  }

  std::int32_t state_of(Joint j, int phase_state, std::shared_ptr<const phase::Program> ph, int target) {
    canonical(j);
    const std::string k = key_of(j, phase_state);
    auto it = ids_.find(k);
    if (it != ids_.end()) return it->second;
    if (pending_.size() >= max_states_)
      throw RulesError("fight.turns", "the fight has more than " + std::to_string(max_states_) +
                                          " states, more than salvo solves: fewer turns or units");
    const std::int32_t id = b_.reserve_state(label(j, phase_state, target));
    ids_.emplace(k, id);
    pending_.push_back({j, phase_state, std::move(ph), target});
    return id;
  }

  std::string label(const Joint& j, int phase_state, int target) const {
    std::string l = "turn " + std::to_string(j.at.turn) + ", ";
    const FightStep step = f_.sequence[static_cast<std::size_t>(j.at.step)];
    const std::string& unit = f_.units[static_cast<std::size_t>(j.at.unit)].name;
    if (step == FightStep::kRally)
      l += "Rally Phase: " + unit + (j.at.sub == 0 ? " repair" : " recovery");
    else
      l += unit + " fires at " + f_.units[static_cast<std::size_t>(target)].name + " (phase state " +
           std::to_string(phase_state) + ")";
    return l;
  }

  // The fight goes on from `j` after the step that ends in `leaf`: to the next roll, or the end.
  Link advance(Leaf leaf, Joint j) {
    for (;;) {
      const bool a_out = side_out(f_, j, 0), b_out = side_out(f_, j, 1);
      if (b_out) return end(leaf, fight::end_a_wins(j.at.turn), fight::kOutcomeAWins);
      if (a_out) return end(leaf, fight::end_b_wins(j.at.turn, turns()), fight::kOutcomeBWins);
      if (j.at.step >= static_cast<int>(f_.sequence.size())) {  // the game turn is over
        if (j.at.turn == turns()) return end(leaf, fight::end_turns_over(turns()), fight::kUndecided);
        if (j.at.turn == 1) leaf.closes_window = true;  // the first window: the first game turn
        ++leaf.counts[fight::kGameTurns];               // game turns played, counted as each ends
        j.at = Cursor{j.at.turn + 1, 0, 0, 0};
        continue;
      }
      const FightStep step = f_.sequence[static_cast<std::size_t>(j.at.step)];
      if (j.at.unit >= static_cast<int>(n_)) {
        if (step == FightStep::kRally && j.at.sub == 0) {
          j.at.sub = 1;
          j.at.unit = 0;
        } else {
          j.at = Cursor{j.at.turn, j.at.step + 1, 0, 0};
        }
        continue;
      }
      const auto i = static_cast<std::size_t>(j.at.unit);
      const UnitState& u = j.units[i];
      if (step == FightStep::kRally) {
        const bool rolls = j.at.sub == 0 ? can_repair(i, u) : !u.self.destroyed && u.self.shock != phase::Shock::kNone;
        if (rolls) {
          leaf.next_state = state_of(j, -1, nullptr, -1);
          return b_.leaf(leaf);
        }
      } else if (f_.units[i].side == (step == FightStep::kFireA ? 0 : 1) && able(i, u)) {
        const int t = target_of(j, i);
        if (t >= 0) {
          const UnitState& v = j.units[static_cast<std::size_t>(t)];
          phase::Start s;
          s.firer = {u.fired_before, u.acq_target == t ? u.acq : 0, u.special_out, u.low_ammo, phase::Gun::kOk};
          s.target = v.self;
          auto ph = phase_program(i, static_cast<std::size_t>(t), s);
          const int initial = ph->program.initial_state;
          leaf.next_state = state_of(j, initial, std::move(ph), t);
          return b_.leaf(leaf);
        }
      }
      ++j.at.unit;
    }
  }

  // What happened to the units in a step from `before` to `after`, as their flags (each seen at
  // least once in a window: destroyed, immobilized, gun out of action).
  FlagMask happened(const Joint& before, const Joint& after) const {
    FlagMask m = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const UnitState &b = before.units[i], &a = after.units[i];
      if (a.self.destroyed && !b.self.destroyed) m |= FlagMask{1} << fight::unit_flag(i, fight::kDestroyed);
      if (a.self.immobilized && !b.self.immobilized) m |= FlagMask{1} << fight::unit_flag(i, fight::kImmobilized);
      if (a.gun != phase::Gun::kOk && b.gun == phase::Gun::kOk) m |= FlagMask{1} << fight::unit_flag(i, fight::kGunOut);
    }
    return m;
  }

  // A unit's phase ended in exit `e`: the joint state after it.
  static Joint after_phase(Joint j, std::size_t shooter, std::size_t target, const phase::Exit& e) {
    UnitState& u = j.units[shooter];
    u.fired_before = true;
    u.gun = e.firer.gun;
    u.special_out = e.firer.special_out;
    u.low_ammo = e.firer.low_ammo;
    u.acq = e.firer.acquisition;
    u.acq_target = e.firer.acquisition > 0 ? static_cast<int>(target) : -1;
    j.units[target].self = e.target;
    if (e.target.destroyed) j.units[target].self = phase::Target{true, phase::Shock::kNone, false, false};
    ++j.at.unit;
    return j;
  }

  void build(std::size_t index) {
    const Pending p = pending_[index];  // a copy: pending_ grows while the state is built
    const auto id = static_cast<std::int32_t>(index);
    if (p.phase_state < 0) {
      b_.set_state_root(id, rally(p.joint));
      return;
    }
    const RollProgram& ph = p.phase->program;
    const auto shooter = static_cast<std::size_t>(p.joint.at.unit);
    const auto target = static_cast<std::size_t>(p.target);
    std::unordered_map<std::uint32_t, Link> copied;
    // Copy the phase state's DAG; its leaves lead to the phase's next state or, at an exit, on
    // through the fight.
    const auto copy = [&](auto&& self, Link l) -> Link {
      if (l.is_leaf()) {
        const Leaf& from = ph.leaves[static_cast<std::size_t>(l.index())];
        Leaf leaf;
        leaf.counts[fight::kShots] = from.counts[kCounterShots];
        // Immobilized by this shot, even if a later shot of the phase destroys it.
        if (from.flags & (FlagMask{1} << kFlagImmobilized))
          leaf.flags |= FlagMask{1} << fight::unit_flag(target, fight::kImmobilized);
        if (from.next_state >= 0) {
          leaf.next_state = state_of(p.joint, from.next_state, p.phase, p.target);
          return b_.leaf(leaf);
        }
        const Joint next = after_phase(p.joint, shooter, target, p.phase->exits[from.end_reason]);
        leaf.flags |= happened(p.joint, next);
        return advance(leaf, next);
      }
      const auto n = static_cast<std::uint32_t>(l.index());
      if (auto it = copied.find(n); it != copied.end()) return it->second;
      const DieKind die = ph.nodes[n].die;
      std::array<Link, 36> links;
      for (int face = 0; face < faces(die); ++face)
        links[static_cast<std::size_t>(face)] = self(self, ph.link(n, face));
      const Link out = b_.node(die, std::span<const Link>(links.data(), static_cast<std::size_t>(faces(die))));
      copied.emplace(n, out);
      return out;
    };
    b_.set_state_root(
        id, copy(copy, Link::node(static_cast<std::int32_t>(ph.state_root[static_cast<std::size_t>(p.phase_state)]))));
  }

  // A Rally Phase roll of the unit at the cursor: repair (D3.7, A9.72) or recovery (C7.42).
  Link rally(const Joint& j) {
    const auto i = static_cast<std::size_t>(j.at.unit);
    const FightUnit& fu = f_.units[i];
    std::array<Link, 6> dr;
    for (int r = 1; r <= 6; ++r) {
      Joint n = j;
      UnitState& u = n.units[i];
      if (j.at.sub == 0) {
        const int repair = fu.firer.vehicle ? 1 : fu.firer.repair.value_or(1);
        u.gun = r == 6 ? phase::Gun::kDisabled : r <= repair ? phase::Gun::kOk : phase::Gun::kMalfunctioned;
      } else if (u.self.shock == phase::Shock::kShocked) {
        u.self.shock = r <= 2 ? phase::Shock::kNone : phase::Shock::kUnconfirmed;
      } else if (r <= 3) {
        u.self.shock = phase::Shock::kNone;
      } else {
        u.self = phase::Target{true, phase::Shock::kNone, false, false};  // a wreck
      }
      ++n.at.unit;
      Leaf leaf;
      leaf.flags = happened(j, n);
      dr[static_cast<std::size_t>(r - 1)] = advance(leaf, n);
    }
    return b_.node(DieKind::kD6, dr);
  }

  const Fight& f_;
  std::size_t n_;
  std::size_t max_states_;
  std::vector<Situation> situations_;  // [shooter * n + target]
  ProgramBuilder b_;
  std::unordered_map<std::string, std::int32_t> ids_;
  std::vector<Pending> pending_;
  std::map<std::string, std::shared_ptr<const phase::Program>> phases_;
};

}  // namespace

Situation fight_situation(const Fight& f, std::size_t shooter, std::size_t target) {
  const FightUnit& a = f.units.at(shooter);
  const FightUnit& b = f.units.at(target);
  Situation s;
  s.name = a.name + " at " + b.name;
  s.firer = a.firer;
  s.fire = a.fire;
  // One fire phase of several: checked as a duel's are (a vehicle target, a Gun's R#, Intensive
  // Fire under Conditional ROF only after the first phase), compiled one phase at a time.
  s.fire.turns = 2;
  s.fire.rally_phases = 1;
  s.target = b.as_target;
  s.override_ = a.override_;
  return s;
}

std::optional<RulesError> check(const Fight& f) {
  if (f.units.size() > kMaxFightUnits)
    return RulesError("unit", "a fight has at most " + std::to_string(kMaxFightUnits) + " units, this one has " +
                                  std::to_string(f.units.size()));
  if (f.turns < 1 || f.turns > kMaxTurns)
    return RulesError("fight.turns", "expected 1.." + std::to_string(kMaxTurns) + " game turns");
  for (int side = 0; side < 2; ++side)
    if (std::none_of(f.units.begin(), f.units.end(), [side](const FightUnit& u) { return u.side == side; }))
      return RulesError("unit", std::string("side ") + (side == 0 ? "A" : "B") + " has no unit: a fight needs both");
  for (std::size_t a = 0; a < f.units.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (f.units[b].name == f.units[a].name)
        return RulesError("unit." + f.units[a].name + ".name", "two units are named \"" + f.units[a].name + "\"");
  if (f.sequence.empty() || f.sequence.size() > 24 ||
      std::none_of(f.sequence.begin(), f.sequence.end(), [](FightStep s) { return s != FightStep::kRally; }))
    return RulesError("fight.sequence", "expected 1 to 24 steps in a game turn, at least one a side's fire phase");
  for (const FightUnit& u : f.units) {
    if (u.name == "auto") return RulesError("unit.auto.name", "\"auto\" is target = \"auto\": name the unit otherwise");
    const FightStep enemy_fires = u.side == 0 ? FightStep::kFireB : FightStep::kFireA;
    if (!u.firer.vehicle && std::find(f.sequence.begin(), f.sequence.end(), enemy_fires) != f.sequence.end())
      return RulesError("unit." + u.name + ".firer.vehicle",
                        "a unit the enemy fires at is a vehicle: salvo does not model a Gun (its crew and shield, "
                        "A9.72 elimination) as a fight's target yet");
  }
  // What a duel's checks would refuse as "a duel over several turns": said for a fight's unit.
  for (const FightUnit& u : f.units) {
    const std::string key = "unit." + u.name;
    if (u.fire.stop_on == StopOn::kNever)
      return RulesError(key + ".fire.stop_on",
                        "a fight's unit fires at its target until it is destroyed: fire.stop_on = \"never\" is for one "
                        "fire phase of a situation file");
    if (u.fire.deliberate_immobilization)
      return RulesError(key + ".fire.deliberate_immobilization",
                        "a fight's unit fires in phase after phase, and an immobilized target may not be attempted "
                        "again (C5.71): Deliberate Immobilization is for one fire phase of a situation file");
    if (!u.firer.vehicle && !u.firer.repair && repairable(u.firer))
      return RulesError(key + ".firer.repair",
                        "a Gun of a fight needs its R# (firer.repair) to roll for repair in the Rally Phase (A9.72)");
  }
  for (const FightUnit& u : f.units)
    for (const FightUnit& v : f.units)
      if (u.side == 0 && v.side == 1 && u.fire.range != v.fire.range)
        return RulesError("unit." + v.name + ".fire.range",
                          v.name + " fires at " + std::to_string(v.fire.range) + " hexes and " + u.name + " at " +
                              std::to_string(u.fire.range) +
                              ": a fight has one range between its sides (fire.range of every unit)");
  for (const FightUnit& u : f.units)
    if (u.as_target.type != TargetType::kVehicle)
      return RulesError("unit." + u.name + ".as_target.type",
                        "a unit of a fight is fired on as a vehicle (as_target.type = \"vehicle\"): salvo does not "
                        "model Personnel or a Gun's crew as a fight's targets yet");
  for (std::size_t a = 0; a < f.units.size(); ++a) {
    const FightUnit& u = f.units[a];
    const std::string key = "unit." + u.name;
    if (u.target) {
      const auto t =
          std::find_if(f.units.begin(), f.units.end(), [&](const FightUnit& v) { return v.name == *u.target; });
      if (t == f.units.end()) return RulesError(key + ".target", "no unit is named \"" + *u.target + "\"");
      if (t->side == u.side)
        return RulesError(key + ".target", "\"" + *u.target + "\" is on " + u.name + "'s own side: name an enemy");
    }
    for (std::size_t b = 0; b < f.units.size(); ++b) {
      if (f.units[b].side == u.side) continue;
      if (auto e = check(fight_situation(f, a, b))) {
        // A situation's [target] settings are the target unit's [as_target] table.
        const std::string& k = e->key();
        const std::string where =
            k.rfind("target.", 0) == 0 ? "unit." + f.units[b].name + ".as_target." + k.substr(7) : key + "." + k;
        return RulesError(where, std::string(e->what()) + " (" + u.name + " firing at " + f.units[b].name + ")");
      }
    }
  }
  return std::nullopt;
}

RollProgram compile(const Fight& f, std::size_t max_states) {
  if (auto e = check(f)) throw *e;
  return FightCompiler(f, max_states).run();
}

std::string explain(const Fight& f) {
  std::string out;
  out += "fight over " + std::to_string(f.turns) + " game turn" + (f.turns > 1 ? "s" : "") + "; each game turn:";
  for (const FightStep s : f.sequence)
    out += s == FightStep::kRally ? " Rally Phase," : s == FightStep::kFireA ? " side A fires," : " side B fires,";
  out.back() = '\n';
  static constexpr const char* kReadings[] = {
      "each unit fires its whole fire phase (ROF, Intensive Fire if asked, stop_on) in every fire phase of its side, "
      "in file order; a Shocked or Unconfirmed Kill unit, or a gun out of action or out of ammunition, does not fire "
      "(C7.42, A9.7, C8.9)",
      "a unit fires at the enemy it names while that one is not destroyed, else at the first enemy in file order "
      "still able to fight (not Shocked or UK, its gun not disabled, with ammunition), else at the first one not "
      "destroyed; a unit keeps its target through its fire phase",
      "every unit fires stationary; one range between the sides (fire.range); its fire.phase applies to its Prep "
      "Fire and its Defensive Fire alike",
      "Case A applies only in a unit's first fire phase (C5.12); Acquisition is kept of one target, lost on a "
      "malfunction or on firing at another target (C6.5)",
      "Rally Phase: a malfunctioned weapon whose crew is not Shocked rolls for repair (D3.7: dr 1 repairs, 6 "
      "disables; a Gun, A9.72: dr <= R# repairs, 6 eliminates it: out of action for good), then at its end each "
      "Shocked or UK unit rolls for recovery (C7.42: Shock 1-2 removed, else UK; UK 1-3 removed, else a wreck)",
      "Low Ammo and spent special ammunition carry over (D3.71, C8.9); Possible Shock (C7.41) needs the AFV's NTC, "
      "which salvo does not roll: it has no lasting effect",
      "a side wins when every enemy unit is destroyed (burned, eliminated, or a UK that became a wreck)",
  };
  for (const char* r : kReadings) out += std::string("  note: ") + r + "\n";
  for (const FightUnit& u : f.units)
    for (const std::string& n : u.unit_notes) out += "  " + u.name + ": " + n + "\n";
  for (std::size_t a = 0; a < f.units.size(); ++a)
    for (std::size_t b = 0; b < f.units.size(); ++b) {
      if (f.units[b].side == f.units[a].side) continue;
      out += "\n" + f.units[a].name + " (side " + (f.units[a].side == 0 ? "A" : "B") + ") at " + f.units[b].name +
             " (its first fire phase is the duel's turn 1, its later ones turn 2):\n";
      out += format_explanation(asl::compile(fight_situation(f, a, b)).explain);
    }
  return out;
}

}  // namespace salvo::asl
