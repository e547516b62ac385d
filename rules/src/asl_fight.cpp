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
#include <optional>
#include <stdexcept>

#include "salvo/core/hash.h"
#include "salvo/core/text.h"
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
  std::int8_t acq = 0;          // Acquisition of acq_target
  std::int8_t acq_target = -1;  // unit index; -1 none
  // This Player Turn: it fired (C2.24: once a Player Turn), and its last phase stopped at
  // fire.max_shots with its Multiple ROF kept (it may fire again)
  bool fired_pt = false;
  bool rof_left = false;
};

// A unit's state in 21 bits, and back.
std::uint32_t pack(const UnitState& u) {
  return std::uint32_t{u.self.destroyed} | static_cast<std::uint32_t>(u.self.shock) << 1 |
         std::uint32_t{u.self.immobilized} << 3 | std::uint32_t{u.self.revealed} << 4 |
         std::uint32_t{u.special_out} << 5 | std::uint32_t{u.low_ammo} << 6 | std::uint32_t{u.fired_before} << 7 |
         static_cast<std::uint32_t>(u.gun) << 8 | static_cast<std::uint32_t>(u.acq) << 10 |
         static_cast<std::uint32_t>(u.acq_target + 1) << 12 | std::uint32_t{u.fired_pt} << 16 |
         std::uint32_t{u.rof_left} << 17 | static_cast<std::uint32_t>(u.self.morale) << 18 |
         std::uint32_t{u.self.reduced} << 20;
}
UnitState unpack(std::uint32_t w) {
  UnitState u;
  u.self.destroyed = (w & 1u) != 0;
  u.self.shock = static_cast<phase::Shock>(w >> 1 & 3u);
  u.self.immobilized = (w >> 3 & 1u) != 0;
  u.self.revealed = (w >> 4 & 1u) != 0;
  u.special_out = (w >> 5 & 1u) != 0;
  u.low_ammo = (w >> 6 & 1u) != 0;
  u.fired_before = (w >> 7 & 1u) != 0;
  u.gun = static_cast<phase::Gun>(w >> 8 & 3u);
  u.acq = static_cast<std::int8_t>(w >> 10 & 3u);
  u.acq_target = static_cast<std::int8_t>(static_cast<int>(w >> 12 & 15u) - 1);
  u.fired_pt = (w >> 16 & 1u) != 0;
  u.rof_left = (w >> 17 & 1u) != 0;
  u.self.morale = static_cast<phase::Morale>(w >> 18 & 3u);
  u.self.reduced = (w >> 20 & 1u) != 0;
  return u;
}

// Where the game turn stands: step `step` of the sequence in turn `turn`; inside a Rally Phase
// `sub` 0 is the repair pass and 1 the recovery pass; `unit` the unit next considered.
struct Cursor {
  int turn = 1;
  int step = 0;
  int sub = 0;
  int unit = 0;
};

struct Joint {
  std::array<UnitState, kMaxFightUnits> units{};
  Cursor at;
};

// Per step of the game turn and side: does that side own a fire phase after it in the same
// Player Turn (before the next Rally Phase or the game turn's end)? (exclusive of the step)
using FiresAgain = std::vector<std::array<bool, 2>>;
FiresAgain fires_again(const std::vector<FightStep>& sequence) {
  FiresAgain out(sequence.size(), {false, false});
  std::array<bool, 2> later{false, false};
  for (std::size_t k = sequence.size(); k-- > 0;) {
    out[k] = later;
    if (sequence[k] == FightStep::kRally) later = {false, false};
    if (sequence[k] == FightStep::kFireA) later[0] = true;
    if (sequence[k] == FightStep::kFireB) later[1] = true;
  }
  return out;
}

// What no later roll or result can tell apart is made equal, so that such states are one:
// a destroyed unit carries nothing; a unit out of action for good keeps no Acquisition, nor
// does one whose acquired target is destroyed; a unit whose side fires no more this Player Turn
// forgets that it fired in it.
void canonical(Joint& j, const Fight& f, const FiresAgain& again) {
  for (std::size_t i = 0; i < f.units.size(); ++i) {
    UnitState& u = j.units[i];
    if (u.self.destroyed) {
      u = UnitState{};
      u.self.destroyed = true;
      continue;
    }
    // Whether it fired this Player Turn matters while its side has a fire phase to come in it: a
    // later step, or this one if the unit's turn in it has not come (a unit after the cursor).
    const auto step = static_cast<std::size_t>(j.at.step);
    const auto side = static_cast<std::size_t>(f.units[i].side);
    const bool this_step = step < f.sequence.size() &&
                           f.sequence[step] == (side == 0 ? FightStep::kFireA : FightStep::kFireB) &&
                           static_cast<int>(i) > j.at.unit;
    if (step >= again.size() || !(again[step][side] || this_step)) u.fired_pt = u.rof_left = false;
    if (u.gun == phase::Gun::kDisabled ||
        (u.acq_target >= 0 && j.units[static_cast<std::size_t>(u.acq_target)].self.destroyed)) {
      u.acq = 0;
      u.acq_target = -1;
    }
  }
}

bool side_out(const Fight& f, const Joint& j, int side) {
  for (std::size_t i = 0; i < f.units.size(); ++i)
    if (f.units[i].side == side && !j.units[i].self.destroyed) return false;
  return true;
}

// The fight's states by their keys, each key a few 32-bit words (the cursor, the phase and the
// units' states, packed): keys in one array, found through an open-addressing table.
class StateIndex {
 public:
  explicit StateIndex(std::size_t words) : words_(words), slots_(1024, 0) {}
  std::size_t size() const { return keys_.size() / words_; }
  std::size_t words() const { return words_; }
  const std::uint32_t* key(std::size_t id) const { return keys_.data() + id * words_; }
  // The id of this key, or -1.
  std::int32_t lookup(const std::uint32_t* key) const {
    const std::uint64_t s = slots_[probe(key, hash(key))];
    return s == 0 ? -1 : static_cast<std::int32_t>(static_cast<std::uint32_t>(s) - 1);
  }
  // The state with this key; if there is none, add it as the next id (`fresh` set).
  std::int32_t find(const std::uint32_t* key, bool& fresh) {
    if (2 * (size() + 1) > slots_.size()) grow();
    const std::uint64_t h = hash(key);
    const std::size_t at = probe(key, h);
    fresh = slots_[at] == 0;
    if (!fresh) return static_cast<std::int32_t>(static_cast<std::uint32_t>(slots_[at]) - 1);
    const auto id = static_cast<std::uint32_t>(size());
    slots_[at] = (h & ~std::uint64_t{0xffffffff}) | (std::uint64_t{id} + 1);
    keys_.insert(keys_.end(), key, key + words_);
    return static_cast<std::int32_t>(id);
  }

 private:
  // The slot of the key with hash `h`, or the empty slot where it would go.
  std::size_t probe(const std::uint32_t* key, std::uint64_t h) const {
    for (std::size_t at = h & (slots_.size() - 1);; at = (at + 1) & (slots_.size() - 1)) {
      const std::uint64_t s = slots_[at];
      if (s == 0 || ((s ^ h) >> 32 == 0 && same(key, this->key(static_cast<std::uint32_t>(s) - 1)))) return at;
    }
  }
  // (a loop: a few words, which std::equal would hand to memcmp)
  bool same(const std::uint32_t* a, const std::uint32_t* b) const {
    for (std::size_t w = 0; w < words_; ++w)
      if (a[w] != b[w]) return false;
    return true;
  }
  std::uint64_t hash(const std::uint32_t* key) const {
    std::uint64_t h = kFnvOffset;
    for (std::size_t w = 0; w < words_; ++w) h = fnv_word(h, key[w]);
    return h ^ (h >> 29);
  }
  void grow() {
    std::vector<std::uint64_t> old(2 * slots_.size(), 0);
    old.swap(slots_);
    for (const std::uint64_t s : old) {
      if (s == 0) continue;
      const std::uint64_t h = hash(key(static_cast<std::uint32_t>(s) - 1));
      std::size_t at = h & (slots_.size() - 1);
      while (slots_[at] != 0) at = (at + 1) & (slots_.size() - 1);
      slots_[at] = s;
    }
  }

  std::size_t words_;
  std::vector<std::uint32_t> keys_;
  std::vector<std::uint64_t> slots_;  // the key's hash (high half) | id + 1; 0 empty
};

class FightCompiler {
 public:
  FightCompiler(const Fight& f, std::size_t max_states, bool copy_twins)
      : f_(f),
        n_(f.units.size()),
        max_states_(max_states),
        copy_twins_(copy_twins),
        index_(n_ + kKeyHead),
        runs_(n_ + kKeyHead),
        again_(fires_again(f.sequence)) {
    for (std::size_t a = 0; a < n_; ++a)
      for (std::size_t b = 0; b < n_; ++b)
        situations_.push_back(f.units[a].side != f.units[b].side ? fight_situation(f, a, b) : Situation{});
    phase_ids_.resize(n_ * n_);
    for (const FightUnit& u : f.units) infantry_.push_back(is_infantry(u));
    // A unit's ammunition for each (special out, Low Ammo): any enemy's situation gives its own.
    ammo_.assign(n_, {});
    for (std::size_t a = 0; a < n_; ++a)
      for (std::size_t b = 0; b < n_; ++b) {
        if (f.units[a].side == f.units[b].side) continue;
        for (int k = 0; k < 4; ++k) {
          ShotContext c;
          c.special_out = (k & 1) != 0;
          c.low_ammo_marked = (k & 2) != 0;
          ammo_[a][static_cast<std::size_t>(k)] = shot_ammo(situation(a, b), c) != Ammo::kNone;
        }
        break;
      }
    // Each unit's named target (check() found it), or -1.
    named_.assign(n_, -1);
    for (std::size_t a = 0; a < n_; ++a)
      for (std::size_t b = 0; b < n_ && f.units[a].target; ++b)
        if (f.units[b].name == *f.units[a].target) {
          named_[a] = static_cast<int>(b);
          break;
        }
  }

  RollProgram run() {
    name_program();
    Joint start;
    for (std::size_t i = 0; i < n_; ++i) {
      start.units[i].low_ammo = f_.units[i].firer.low_ammo_marked;
      if (f_.units[i].as_target.broken) start.units[i].self.morale = phase::Morale::kBroken;  // A10.4
    }
    // The first state: where a leaf from the start would lead.
    const Link first = b_.leaf(advance(Leaf{}, start));
    const std::int32_t initial = b_.program().leaves[static_cast<std::size_t>(first.index())].next_state;
    if (initial < 0) throw RulesError("unit", "no unit of the fight can fire: nothing to roll");
    b_.program().initial_state = initial;
    for (std::size_t next = 0; next < owner_.size(); ++next) build(next);
    return b_.take();
  }

 private:
  // A key (keys of Rally Phase rolls, and of phase runs): the cursor, the phase + 1 (0: a Rally
  // Phase roll), then a word per unit.
  static constexpr std::size_t kKeyHead = 2;
  using Key = std::array<std::uint32_t, kKeyHead + kMaxFightUnits>;

  // One leaf of a shared phase DAG, as the fight sees it: the shots fired, the target's marks
  // (phase::Marks: bit k for fight::UnitFlag k), and where the phase goes (its next state, or an
  // exit).
  struct Slot {
    int shots = 0;
    std::uint32_t marks = 0;
    std::int32_t next = -1;  // phase state; -1: the phase ends in `exit`
    std::int32_t exit = -1;
    friend bool operator==(const Slot&, const Slot&) = default;
  };
  // A phase state's DAG, copied once into the fight's program: its leaf links are slots.
  struct SharedDag {
    Link root;
    std::vector<Slot> slots;
  };
  // A unit's fire phase at one target from one start, compiled once.
  struct Phase {
    std::size_t shooter = 0, target = 0;
    phase::Program program;
    std::vector<std::int32_t> dag;  // per phase state: its SharedDag, -1 not yet copied
  };

  int turns() const { return f_.turns; }

  void name_program() {
    RollProgram& p = b_.program();
    for (const char* n : {"a_wins", "b_wins", "neither"}) p.flag_names.emplace_back(n);
    for (const FightUnit& u : f_.units)
      for (const char* what : fight::unit_flag_suffixes(u)) p.flag_names.push_back(u.name + what);
    p.counter_names = {"shots", "game_turns"};
    p.outcome_names = {"neither", "a_wins", "b_wins"};
    p.add_turn_series(RollProgram::TurnSeries::Kind::kEndReason, "a_wins", turns());
    p.add_turn_series(RollProgram::TurnSeries::Kind::kEndReason, "b_wins", turns());
    p.end_reason_names.emplace_back("turns_over");
  }

  const Situation& situation(std::size_t a, std::size_t b) const { return situations_[a * n_ + b]; }

  bool has_ammo(std::size_t i, const UnitState& u) const {
    return infantry_[i] || ammo_[i][static_cast<std::size_t>(int{u.special_out} | int{u.low_ammo} << 1)];
  }
  // It can fire: a vehicle or Gun not Shocked or UK, its gun in order, with ammunition; an
  // infantry unit not broken (A10.5), with its inherent FP or its MG in order.
  bool able(std::size_t i, const UnitState& u) const {
    if (u.self.destroyed) return false;
    if (infantry_[i])
      return u.self.morale != phase::Morale::kBroken && (f_.units[i].firer.fp > 0 || u.gun == phase::Gun::kOk);
    return u.self.shock == phase::Shock::kNone && u.gun == phase::Gun::kOk && has_ammo(i, u);
  }
  // Still able to fight, as a target chosen by "auto": a vehicle or Gun not Shocked or UK, its
  // gun not disabled, with ammunition; an infantry unit not broken.
  bool fighting(std::size_t i, const UnitState& u) const {
    if (infantry_[i]) return u.self.morale != phase::Morale::kBroken;
    return u.self.shock == phase::Shock::kNone && u.gun != phase::Gun::kDisabled && has_ammo(i, u);
  }
  // Fires in its side's phase: able, and not yet this Player Turn unless it kept its ROF (C2.24).
  bool fires(std::size_t i, const UnitState& u) const { return able(i, u) && (!u.fired_pt || u.rof_left); }
  bool can_repair(std::size_t i, const UnitState& u) const {
    return !u.self.destroyed && u.self.shock == phase::Shock::kNone && u.self.morale != phase::Morale::kBroken &&
           u.gun == phase::Gun::kMalfunctioned && repairable(f_.units[i].firer) && has_ammo(i, u);
  }

  // The enemy unit i fires at, or -1.
  int target_of(const Joint& j, std::size_t i) const {
    const FightUnit& u = f_.units[i];
    if (const int named = named_[i]; named >= 0 && !j.units[static_cast<std::size_t>(named)].self.destroyed)
      return named;
    int fallback = -1;
    for (std::size_t b = 0; b < n_; ++b) {
      if (f_.units[b].side == u.side || j.units[b].self.destroyed) continue;
      if (fighting(b, j.units[b])) return static_cast<int>(b);
      if (fallback < 0) fallback = static_cast<int>(b);
    }
    return fallback;
  }

  // The phase of unit a firing at unit b from `s`, compiled on first use: its index.
  std::uint32_t phase_of(std::size_t a, std::size_t b, const phase::Start& s) {
    const std::uint32_t k = static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b) << 3 |
                            static_cast<std::uint32_t>(int{s.firer.fired_before} | s.firer.acquisition << 1 |
                                                       int{s.firer.special_out} << 3 | int{s.firer.low_ammo} << 4)
                                << 6 |
                            static_cast<std::uint32_t>(static_cast<int>(s.target.shock) |
                                                       int{s.target.immobilized} << 2 | int{s.target.revealed} << 3)
                                << 11 |
                            static_cast<std::uint32_t>(int{s.firer.pinned} | static_cast<int>(s.firer.gun) << 1 |
                                                       static_cast<int>(s.target.morale) << 3 |
                                                       int{s.target.reduced} << 5 | int{s.firer.reduced} << 6)
                                << 15;
    auto& ids = phase_ids_[a * n_ + b];  // (a few starts a pair: a short list)
    for (const auto& [key, id] : ids)
      if (key == k) return id;
    Phase p{a, b, phase::compile(situation(a, b), s, true), {}};  // (check() checked each pair)
    p.dag.assign(p.program.program.num_states(), -1);
    phases_.push_back(std::move(p));
    ids.emplace_back(k, static_cast<std::uint32_t>(phases_.size() - 1));
    return static_cast<std::uint32_t>(phases_.size() - 1);
  }

  // The shared DAG of phase state `ps` of phase `pi`: its index in dags_.
  std::size_t shared_dag(std::uint32_t pi, std::int32_t ps) {
    if (const std::int32_t d = phases_[pi].dag[static_cast<std::size_t>(ps)]; d >= 0)
      return static_cast<std::size_t>(d);
    const Phase& phase = phases_[pi];
    const RollProgram& ph = phase.program.program;
    SharedDag out;
    std::vector<Link> copied(ph.nodes.size(), Link::leaf(0));  // phase node -> fight node; a leaf: not yet
    const auto new_slot = [&](const Leaf& from) {
      Slot s;
      s.shots = from.counts[kCounterShots];
      for (std::size_t k = 0; k < phase.program.marks.size(); ++k)
        if (const int flag = phase.program.marks[k]; flag >= 0 && (from.flags & (FlagMask{1} << flag)) != 0)
          s.marks |= 1u << k;
      if (from.next_state >= 0)
        s.next = from.next_state;
      else
        s.exit = from.end_reason;
      auto it = std::find(out.slots.begin(), out.slots.end(), s);
      if (it == out.slots.end()) it = out.slots.insert(out.slots.end(), s);
      return static_cast<std::int32_t>(it - out.slots.begin());
    };
    std::vector<std::int32_t> slot_link(ph.leaves.size(), -1);  // phase leaf -> its slot; -1 not yet
    const auto slot_of = [&](std::int32_t leaf) {
      std::int32_t& known = slot_link[static_cast<std::size_t>(leaf)];
      if (known < 0) known = new_slot(ph.leaves[static_cast<std::size_t>(leaf)]);
      return Link::leaf(known);
    };
    const auto copy = [&](auto&& self, Link l) -> Link {
      if (l.is_leaf()) return slot_of(l.index());
      if (const Link c = copied[static_cast<std::size_t>(l.index())]; !c.is_leaf()) return c;
      const auto n = static_cast<std::uint32_t>(l.index());
      const DieKind die = ph.nodes[n].die;
      std::array<Link, 36> links;
      for (int face = 0; face < faces(die); ++face)
        links[static_cast<std::size_t>(face)] = self(self, ph.link(n, face));
      const Link node = b_.node(die, std::span<const Link>(links.data(), static_cast<std::size_t>(faces(die))));
      copied[static_cast<std::size_t>(l.index())] = node;
      return node;
    };
    out.root = copy(copy, Link::node(static_cast<std::int32_t>(ph.state_root[static_cast<std::size_t>(ps)])));
    phases_[pi].dag[static_cast<std::size_t>(ps)] = static_cast<std::int32_t>(dags_.size());
    dags_.push_back(std::move(out));
    return dags_.size() - 1;
  }

  // The run ends after `leaf`'s step: the fight's result.
  static Leaf end(Leaf leaf, int reason, int winner) {
    leaf.next_state = -1;
    leaf.end_reason = static_cast<std::uint8_t>(reason);
    leaf.closes_window = true;
    leaf.outcome = static_cast<std::uint8_t>(winner);
    ++leaf.counts[fight::kGameTurns];  // the game turn it ends in
    const auto bit = [](int flag) { return FlagMask{1} << flag; };
    leaf.flags |= bit(winner == fight::kOutcomeAWins   ? fight::kAWins
                      : winner == fight::kOutcomeBWins ? fight::kBWins
                                                       : fight::kNeither);
    return leaf;
  }

  // The state of joint state `j` (in phase `phase` at its state `ps`, or -1 outside a phase: a
  // Rally Phase roll), reserved on first sight. A phase's run from a joint state has all its
  // phase states reserved at once, in a row (each is reached: the phase was compiled from its
  // start), so that its states find each other by their phase state alone.
  std::int32_t state_of(const Joint& j, std::int32_t ps, std::int32_t phase) {
    Key key = key_of(j);
    return state_of_key(key, ps, phase);
  }
  // The same by the joint state's key (its phase word 0).
  std::int32_t state_of_key(Key& key, std::int32_t ps, std::int32_t phase) {
    bool fresh = false;
    if (ps < 0) {
      const auto at = static_cast<std::size_t>(index_.find(key.data(), fresh));
      if (fresh) rally_state_.push_back(reserve(1, -static_cast<std::int32_t>(at) - 1));
      return rally_state_[at];
    }
    key[1] = static_cast<std::uint32_t>(phase + 1);
    const auto run = static_cast<std::size_t>(runs_.find(key.data(), fresh));
    if (fresh) {
      const Phase& ph = phases_[static_cast<std::size_t>(phase)];
      run_base_.push_back(reserve(ph.program.program.num_states(), static_cast<std::int32_t>(run)));
      run_exits_.push_back(static_cast<std::uint32_t>(exit_leaves_.size()));
      exit_leaves_.resize(exit_leaves_.size() + ph.program.exits.size());
      exit_known_.resize(exit_known_.size() + ph.program.exits.size(), 0);
    }
    return run_base_[run] + ps;
  }

  // A joint state's key, its phase word 0.
  Key key_of(Joint j) const {
    canonical(j, f_, again_);
    Key key{};
    key[0] = static_cast<std::uint32_t>(j.at.turn | j.at.step << 5 | j.at.sub << 10 | j.at.unit << 11);
    for (std::size_t i = 0; i < n_; ++i) key[kKeyHead + i] = pack(j.units[i]);
    return key;
  }

  // `count` new states in a row, each owned by `owner` (a run, or -1 - a Rally Phase key): the
  // first.
  std::int32_t reserve(std::size_t count, std::int32_t owner) {
    if (owner_.size() + count > max_states_)
      throw RulesError("fight.turns", "the fight has more than " + with_commas(max_states_) +
                                          " states, more than salvo builds: fewer turns or units");
    const auto first = static_cast<std::int32_t>(owner_.size());
    for (std::size_t k = 0; k < count; ++k)
      if (b_.reserve_state() != static_cast<std::int32_t>(owner_.size()))
        throw std::logic_error("asl: fight states out of step");
      else
        owner_.push_back(owner);
    return first;
  }

  // The joint state of a key.
  Joint decode(const std::uint32_t* key) const {
    Joint j;
    j.at.turn = static_cast<int>(key[0] & 31u);
    j.at.step = static_cast<int>(key[0] >> 5 & 31u);
    j.at.sub = static_cast<int>(key[0] >> 10 & 1u);
    j.at.unit = static_cast<int>(key[0] >> 11 & 15u);
    for (std::size_t i = 0; i < n_; ++i) j.units[i] = unpack(key[kKeyHead + i]);
    return j;
  }

  // The fight goes on from `j` after the step that ends in `leaf`: to the next roll, or the end.
  // The leaf, not yet added to the program.
  Leaf advance(Leaf leaf, Joint j) {
    // (the units' states do not change on the way: which side is out neither)
    const bool a_out = side_out(f_, j, 0), b_out = side_out(f_, j, 1);
    for (;;) {
      if (b_out) return end(leaf, fight::end_a_wins(j.at.turn), fight::kOutcomeAWins);
      if (a_out) return end(leaf, fight::end_b_wins(j.at.turn, turns()), fight::kOutcomeBWins);
      if (j.at.step >= static_cast<int>(f_.sequence.size())) {  // the game turn is over
        if (j.at.turn == turns()) return end(leaf, fight::end_turns_over(turns()), fight::kUndecided);
        if (j.at.turn == 1) leaf.closes_window = true;  // the first window: the first game turn
        ++leaf.counts[fight::kGameTurns];               // game turns played, counted as each ends
        j.at = Cursor{j.at.turn + 1, 0, 0, 0};
        new_player_turn(j);
        continue;
      }
      const FightStep step = f_.sequence[static_cast<std::size_t>(j.at.step)];
      if (j.at.unit >= static_cast<int>(n_)) {
        if (step == FightStep::kRally && j.at.sub == 0) {
          j.at.sub = 1;
          j.at.unit = 0;
        } else {
          j.at = Cursor{j.at.turn, j.at.step + 1, 0, 0};
          if (j.at.step < static_cast<int>(f_.sequence.size()) &&
              f_.sequence[static_cast<std::size_t>(j.at.step)] == FightStep::kRally)
            new_player_turn(j);
        }
        continue;
      }
      const auto i = static_cast<std::size_t>(j.at.unit);
      const UnitState& u = j.units[i];
      if (step == FightStep::kRally) {
        const bool rolls = j.at.sub == 0 ? can_repair(i, u)
                                         : !u.self.destroyed && (u.self.shock != phase::Shock::kNone || rallies(i, u));
        if (rolls) {
          leaf.next_state = state_of(j, -1, -1);
          return leaf;
        }
      } else if (f_.units[i].side == (step == FightStep::kFireA ? 0 : 1) && fires(i, u)) {
        const int t = target_of(j, i);
        if (t >= 0) {
          const UnitState& v = j.units[static_cast<std::size_t>(t)];
          phase::Start s;
          s.firer = {u.fired_before, u.acq_target == t ? u.acq : 0,           u.special_out, u.low_ammo,
                     u.gun,          u.self.morale == phase::Morale::kPinned, u.self.reduced};
          s.target = v.self;
          const std::uint32_t pi = phase_of(i, static_cast<std::size_t>(t), s);
          leaf.next_state = state_of(j, phases_[pi].program.program.initial_state, static_cast<std::int32_t>(pi));
          return leaf;
        }
      }
      ++j.at.unit;
    }
  }

  // A Rally Phase or a game turn begins a Player Turn: no unit has fired in it, and no unit is
  // pinned (A7.8: for the rest of the Player Turn).
  void new_player_turn(Joint& j) const {
    for (std::size_t i = 0; i < n_; ++i) {
      j.units[i].fired_pt = j.units[i].rof_left = false;
      if (j.units[i].self.morale == phase::Morale::kPinned) j.units[i].self.morale = phase::Morale::kGood;
    }
  }

  // What happened to the units in a step from `before` to `after`, as their flags (each seen at
  // least once in a window: destroyed, immobilized, gun out of action).
  FlagMask happened(const Joint& before, const Joint& after) const {
    FlagMask m = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const UnitState &b = before.units[i], &a = after.units[i];
      if (a.self.destroyed && !b.self.destroyed) m |= FlagMask{1} << fight::unit_flag(i, fight::kDestroyed);
      if (infantry_[i]) continue;  // broken, reduced: only in fire phases, which mark them (phase::Marks)
      if (a.self.immobilized && !b.self.immobilized) m |= FlagMask{1} << fight::unit_flag(i, fight::kImmobilized);
      if (a.gun != phase::Gun::kOk && b.gun == phase::Gun::kOk) m |= FlagMask{1} << fight::unit_flag(i, fight::kGunOut);
    }
    return m;
  }

  // A unit's phase ended in exit `e`: the joint state after it.
  static Joint after_phase(Joint j, std::size_t shooter, std::size_t target, const phase::Exit& e) {
    UnitState& u = j.units[shooter];
    u.fired_before = true;
    u.fired_pt = true;
    u.rof_left = e.rof_kept;
    u.gun = e.firer.gun;
    u.special_out = e.firer.special_out;
    u.low_ammo = e.firer.low_ammo;
    u.acq = static_cast<std::int8_t>(e.firer.acquisition);
    u.acq_target = static_cast<std::int8_t>(e.firer.acquisition > 0 ? static_cast<int>(target) : -1);
    j.units[target].self = e.target;
    if (e.target.destroyed) j.units[target].self = phase::Target{true, phase::Shock::kNone, false, false};
    ++j.at.unit;
    return j;
  }

  // The key of state `id` (its phase word: the phase + 1, 0 a Rally Phase roll), its phase state
  // (-1: a Rally Phase roll) and its phase (-1 none).
  Key key_of_state(std::size_t id, std::int32_t& ps, std::int32_t& phase) const {
    Key key{};
    const std::int32_t owner = owner_[id];
    const std::uint32_t* k =
        owner < 0 ? index_.key(static_cast<std::size_t>(-owner - 1)) : runs_.key(static_cast<std::size_t>(owner));
    std::copy_n(k, kKeyHead + n_, key.begin());
    ps = owner < 0 ? -1 : static_cast<std::int32_t>(id) - run_base_[static_cast<std::size_t>(owner)];
    phase = owner < 0 ? -1 : static_cast<std::int32_t>(key[1]) - 1;
    key[1] = 0;
    return key;
  }

  // Later game turns repeat the earlier ones: what a step does and where it leads depend on the
  // game turn only through the turn's end (the next turn, or after the last the fight's end), the
  // first window's close (at the end of turn 1) and the turn a side wins in. So a state of game
  // turn t >= 2 whose twin (the same key in turn t - 1) is built already takes the twin's DAG,
  // and the twin's leaves one game turn on (one_turn_on): the program is the one build() makes
  // (detail::compile_without_twins). A state without a twin built is built. True if copied.
  bool copy_twin(std::size_t id) {
    const std::int32_t owner = owner_[id];
    std::int32_t twin = -1;
    if (owner < 0) {
      twin = twin_of(id);
    } else {
      // (the twin of a run's states: the same phase states of its twin run, found once a run)
      const auto run = static_cast<std::size_t>(owner);
      if (run_twin_.size() <= run) run_twin_.resize(runs_.size(), -2);
      if (run_twin_[run] == -2) run_twin_[run] = twin_of(static_cast<std::size_t>(run_base_[run]));
      if (run_twin_[run] >= 0) twin = run_twin_[run] + static_cast<std::int32_t>(id) - run_base_[run];
    }
    if (twin < 0) return false;
    const RollProgram& p = b_.program();
    const auto t = static_cast<std::size_t>(twin);
    const std::int32_t shift =
        owner < 0 ? 0 : run_base_[static_cast<std::size_t>(owner)] - run_twin_[static_cast<std::size_t>(owner)];
    for (std::uint32_t e = p.state_leaf_begin[t]; e < p.state_leaf_begin[t + 1]; ++e)
      leaves_.push_back(one_turn_on(p.state_leaves[e], owner_[t], shift));
    b_.set_state_root(static_cast<std::int32_t>(id), Link::node(static_cast<std::int32_t>(p.state_root[t])));
    b_.set_state_leaves(static_cast<std::int32_t>(id), leaves_);
    return true;
  }

  // The twin of the states from `first` (a run's, or a Rally Phase roll's): the first of theirs,
  // if they are built; else -1.
  std::int32_t twin_of(std::size_t first) {
    std::int32_t ps = -1, phase = -1;
    Key key = key_of_state(first, ps, phase);
    const auto turn = static_cast<int>(key[0] & 31u);
    if (turn < 2) return -1;
    key[0] = (key[0] & ~31u) | static_cast<std::uint32_t>(turn - 1);
    std::int32_t twin = -1;
    if (phase < 0) {
      const std::int32_t at = index_.lookup(key.data());
      if (at >= 0) twin = rally_state_[static_cast<std::size_t>(at)];
    } else {
      key[1] = static_cast<std::uint32_t>(phase + 1);
      const std::int32_t run = runs_.lookup(key.data());
      if (run >= 0) twin = run_base_[static_cast<std::size_t>(run)];
    }
    if (twin < 0 || static_cast<std::size_t>(twin) >= first) return -1;
    return twin;
  }

  // Leaf `leaf` of a state of run `owner` (-1 - key: a Rally Phase roll) one game turn on, each
  // made once: a step to a state of game turn u leads to the same state of turn u + 1 and does not
  // close the first window (only the end of turn 1 does); one to a state of the last game turn
  // ends the fight there, the turns over (it went over the last turn's end); the fight's end
  // comes a game turn later: a side wins a turn later, and the turns are over after one game
  // turn fewer (a step counts the game turns it ends).
  std::int32_t one_turn_on(std::int32_t leaf, std::int32_t owner, std::int32_t shift) {
    const auto l = static_cast<std::size_t>(leaf);
    if (l >= turned_.size()) turned_.resize(l + 1, -1);
    if (turned_[l] >= 0) return turned_[l];
    Leaf out = b_.program().leaves[l];
    if (out.next_state >= 0 && owner >= 0 && owner_[static_cast<std::size_t>(out.next_state)] == owner) {
      // A step inside a phase leads to its run's own states, which no other run's step does: in
      // the copy, to the copy's (`shift` on: the twin run's states and the copy's are in a row).
      out.next_state += shift;
      out.closes_window = false;
      turned_[l] = b_.unindexed_leaf(out).index();
    } else if (out.next_state >= 0) {
      const auto next = static_cast<std::size_t>(out.next_state);
      std::int32_t ps = -1, phase = -1;
      Key key = key_of_state(next, ps, phase);
      const auto turn = static_cast<int>(key[0] & 31u);
      if (turn < turns()) {
        key[0] = (key[0] & ~31u) | static_cast<std::uint32_t>(turn + 1);
        out.next_state = state_of_key(key, ps, phase);
        out.closes_window = false;
        turned_[l] = b_.leaf(out).index();
      } else {
        Leaf over{out.flags, out.counts};
        --over.counts[fight::kGameTurns];  // (end() counts the game turn it ends in)
        turned_[l] = b_.leaf(end(over, fight::end_turns_over(turns()), fight::kUndecided)).index();
      }
    } else {
      if (out.end_reason == fight::end_turns_over(turns()))
        --out.counts[fight::kGameTurns];
      else
        ++out.end_reason;  // a_wins_turn_t or b_wins_turn_t, t a game turn later (not past the last)
      turned_[l] = b_.leaf(out).index();
    }
    return turned_[l];
  }

  // State `id`: its DAG (a phase state's, shared; or a Rally Phase roll) and its leaf table.
  void build(std::size_t id) {
    const std::int32_t owner = owner_[id];
    leaves_.clear();
    if (copy_twins_ && copy_twin(id)) return;
    Link root;
    if (owner < 0) {
      root = rally(decode(index_.key(static_cast<std::size_t>(-owner - 1))));
    } else {
      const auto run = static_cast<std::size_t>(owner);
      const std::uint32_t* key = runs_.key(run);
      const Joint j = decode(key);
      const auto pi = static_cast<std::size_t>(key[1] - 1);
      const std::int32_t base = run_base_[run];
      const std::size_t d = shared_dag(static_cast<std::uint32_t>(pi), static_cast<std::int32_t>(id) - base);
      // (phases_ grows as the fight goes on: no reference into it is kept)
      const std::size_t shooter = phases_[pi].shooter;
      const std::size_t target = phases_[pi].target;
      root = dags_[d].root;
      // Each slot: the phase's next state, or on through the fight after its exit.
      if (run != leaves_run_) {
        leaves_run_ = run;
        run_leaves_.clear();
      }
      for (const Slot& s : dags_[d].slots) {
        // A slot's leaf is the same from every state of the run: found once.
        const std::uint32_t slot_key = std::uint32_t{s.next < 0} << 31 |
                                       static_cast<std::uint32_t>(s.next >= 0 ? s.next : s.exit) << 11 |
                                       static_cast<std::uint32_t>(s.shots) << 3 | s.marks;
        const auto known = std::find_if(run_leaves_.begin(), run_leaves_.end(),
                                        [slot_key](const auto& x) { return x.first == slot_key; });
        if (known != run_leaves_.end()) {
          leaves_.push_back(known->second);
          continue;
        }
        Leaf leaf;
        if (s.next >= 0) {
          leaf.next_state = base + s.next;
        } else {
          const std::size_t e = run_exits_[run] + static_cast<std::size_t>(s.exit);
          if (!exit_known_[e]) {  // the first slot of the run to reach this exit
            const Joint next =
                after_phase(j, shooter, target, phases_[pi].program.exits[static_cast<std::size_t>(s.exit)]);
            Leaf after;
            after.flags = happened(j, next);
            exit_leaves_[e] = advance(after, next);
            exit_known_[e] = 1;
          }
          leaf = exit_leaves_[e];
        }
        leaf.counts[fight::kShots] = static_cast<std::uint8_t>(s.shots);
        // Immobilized (broken, reduced) by this shot, even if a later shot of the phase destroys it.
        for (int k = 0; k < fight::kNumUnitFlags; ++k)
          if ((s.marks >> k & 1u) != 0)
            leaf.flags |= FlagMask{1} << fight::unit_flag(target, static_cast<fight::UnitFlag>(k));
        // A step inside the phase leads to the run's own states, which no other run's step does: its
        // leaf is added without the program-wide index.
        leaves_.push_back(s.next >= 0 ? b_.unindexed_leaf(leaf).index() : b_.leaf(leaf).index());
        run_leaves_.emplace_back(slot_key, leaves_.back());
      }
    }
    b_.set_state_root(static_cast<std::int32_t>(id), root);
    b_.set_state_leaves(static_cast<std::int32_t>(id), leaves_);
  }

  // A Rally Phase roll of the unit at the cursor: repair (D3.7, A9.72) or recovery (C7.42). Its
  // DAG is one dr, shared: slot r - 1 for the dr r.
  // A broken infantry unit that rallies (FightUnit::rally_drm).
  bool rallies(std::size_t i, const UnitState& u) const {
    return infantry_[i] && f_.units[i].rally_drm && u.self.morale == phase::Morale::kBroken;
  }

  // A broken infantry unit's rally attempt (A10.6): its Final DR at most its broken-side morale
  // rallies it; an Original 12 is its Casualty Reduction (a squad to a broken HS, a HS or crew
  // eliminated). Its DAG is one DR, shared: slot f for the pair face f.
  Link rally_infantry(const Joint& j) {
    const auto i = static_cast<std::size_t>(j.at.unit);
    const Target& t = f_.units[i].as_target;
    const int morale = t.broken_morale.value_or(*t.morale) - (t.encircled ? 1 : 0);  // A10.4, A7.7
    std::array<std::int32_t, 3> made{-1, -1, -1};  // the leaf of each result: rallied, still broken, 12
    for (int face = 0; face < 36; ++face) {
      const int dr = pair_colored(face) + pair_white(face);
      const int result = dr == 12 ? 2 : dr + *f_.units[i].rally_drm <= morale ? 0 : 1;
      if (made[static_cast<std::size_t>(result)] < 0) {
        Joint n = j;
        UnitState& u = n.units[i];
        Leaf leaf;
        if (result == 0) u.self.morale = phase::Morale::kGood;
        if (result == 2) {
          leaf.flags |= FlagMask{1} << fight::unit_flag(i, fight::kReduced);
          if (u.self.reduced || t.personnel != Personnel::kSquad)
            u.self = phase::Target{true, phase::Shock::kNone, false, false};
          else
            u.self.reduced = true;
        }
        ++n.at.unit;
        leaf.flags |= happened(j, n);
        made[static_cast<std::size_t>(result)] = b_.leaf(advance(leaf, n)).index();
      }
      leaves_.push_back(made[static_cast<std::size_t>(result)]);
    }
    if (!rally_dr2_) {
      std::array<Link, 36> dr;
      for (int f = 0; f < 36; ++f) dr[static_cast<std::size_t>(f)] = Link::leaf(f);
      rally_dr2_ = b_.node(DieKind::kPair, dr);
    }
    return *rally_dr2_;
  }

  Link rally(const Joint& j) {
    const auto i = static_cast<std::size_t>(j.at.unit);
    const FightUnit& fu = f_.units[i];
    if (j.at.sub == 1 && infantry_[i]) return rally_infantry(j);
    std::array<std::uint32_t, 6> after{};  // the unit's state after each dr so far (packed)
    for (int r = 1; r <= 6; ++r) {
      Joint n = j;
      UnitState& u = n.units[i];
      if (j.at.sub == 0) {
        // (an infantry unit's SW MG: dr 1 repairs it, 6 eliminates it, A9.72)
        const int repair = fu.firer.vehicle || is_infantry(fu) ? 1 : fu.firer.repair.value_or(1);
        u.gun = r == 6 ? phase::Gun::kDisabled : r <= repair ? phase::Gun::kOk : phase::Gun::kMalfunctioned;
      } else if (u.self.shock == phase::Shock::kShocked) {
        u.self.shock = r <= 2 ? phase::Shock::kNone : phase::Shock::kUnconfirmed;
      } else if (r <= 3) {
        u.self.shock = phase::Shock::kNone;
      } else {
        u.self = phase::Target{true, phase::Shock::kNone, false, false};  // a wreck
      }
      // The drs that leave the unit alike (most: 2 to 5 of a repair) lead alike: followed once.
      const auto k = static_cast<std::size_t>(r - 1);
      after[k] = pack(u);
      if (const auto same = std::find(after.begin(), after.begin() + static_cast<std::ptrdiff_t>(k), after[k]);
          same != after.begin() + static_cast<std::ptrdiff_t>(k)) {
        leaves_.push_back(leaves_[leaves_.size() - k + static_cast<std::size_t>(same - after.begin())]);
        continue;
      }
      ++n.at.unit;
      Leaf leaf;
      leaf.flags = happened(j, n);
      leaves_.push_back(b_.leaf(advance(leaf, n)).index());
    }
    if (!rally_dr_) {
      std::array<Link, 6> dr;
      for (int r = 0; r < 6; ++r) dr[static_cast<std::size_t>(r)] = Link::leaf(r);
      rally_dr_ = b_.node(DieKind::kD6, dr);
    }
    return *rally_dr_;
  }

  const Fight& f_;
  std::size_t n_;
  std::size_t max_states_;
  bool copy_twins_;                        // copy_twin() where it can
  std::vector<Situation> situations_;      // [shooter * n + target]
  std::vector<std::array<bool, 4>> ammo_;  // per unit: has_ammo by special_out | low_ammo << 1
  std::vector<int> named_;                 // per unit: the unit its target names, -1 none (auto)
  std::vector<char> infantry_;             // per unit: is_infantry
  ProgramBuilder b_;
  // A Rally Phase roll's key (its cursor and the units), and its state.
  StateIndex index_;
  std::vector<std::int32_t> rally_state_;
  // Per state: the run it belongs to, or -1 - the key of its Rally Phase roll.
  std::vector<std::int32_t> owner_;
  // A phase's run from a joint state (the key of its states, phase state 0), and the leaf each
  // of its exits leads to, but for the slot's shots and immobilization: run_exits_[run] + exit.
  StateIndex runs_;
  std::vector<std::int32_t> run_base_;  // per run: the state of its phase state 0
  std::vector<std::uint32_t> run_exits_;
  std::vector<Leaf> exit_leaves_;
  std::vector<char> exit_known_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> phase_ids_;  // [shooter * n + target]: (key, phase)
  std::vector<Phase> phases_;
  std::vector<SharedDag> dags_;
  std::vector<std::int32_t> leaves_;  // the leaf table of the state being built
  // The leaves of the run whose states are being built (its states are built one after another),
  // by their slot: (exit? << 31 | phase state or exit << 11 | shots << 3 | marks, leaf)
  std::size_t leaves_run_ = ~std::size_t{0};
  std::vector<std::pair<std::uint32_t, std::int32_t>> run_leaves_;
  std::optional<Link> rally_dr_;
  std::optional<Link> rally_dr2_;  // a rally attempt's DR (rally_infantry)
  FiresAgain again_;
  // Per leaf: the leaf one game turn on (one_turn_on); -1 not made yet
  std::vector<std::int32_t> turned_;
  std::vector<std::int32_t> run_twin_;  // per run: the state of its twin's phase state 0; -1 none, -2 not known yet
};

}  // namespace

namespace {
// The range unit a lists for unit b, if any.
std::optional<int> listed_range(const FightUnit& a, const FightUnit& b) {
  for (const auto& [name, range] : a.ranges)
    if (name == b.name) return range;
  return std::nullopt;
}
}  // namespace

int pair_range(const Fight& f, std::size_t a, std::size_t b) {
  const FightUnit &u = f.units.at(a), &v = f.units.at(b);
  if (const auto r = listed_range(u, v)) return *r;
  if (const auto r = listed_range(v, u)) return *r;
  return u.fire.range;
}

Situation fight_situation(const Fight& f, std::size_t shooter, std::size_t target) {
  const FightUnit& a = f.units.at(shooter);
  const FightUnit& b = f.units.at(target);
  Situation s;
  s.name = a.name + " at " + b.name;
  s.firer = a.firer;
  s.fire = a.fire;
  s.fire.range = pair_range(f, shooter, target);
  // One fire phase of several: checked as a duel's are (a vehicle target, a Gun's R#, Intensive
  // Fire under Conditional ROF only after the first phase), compiled one phase at a time.
  // Infantry fire is one fire phase as it is.
  if (!is_infantry(a)) {
    s.fire.turns = 2;
    s.fire.rally_phases = 1;
  }
  s.target = b.as_target;
  s.override_ = a.override_;
  return s;
}

std::array<const char*, fight::kNumUnitFlags> fight::unit_flag_suffixes(const FightUnit& u) {
  if (is_infantry(u)) return {"_eliminated", "_broken", "_reduced"};
  return {"_destroyed", "_immobilized", "_gun_out"};
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
    const std::string key = "unit." + u.name;
    const FightStep enemy_fires = u.side == 0 ? FightStep::kFireB : FightStep::kFireA;
    const bool fired_on = std::find(f.sequence.begin(), f.sequence.end(), enemy_fires) != f.sequence.end();
    const bool infantry = is_infantry(u);
    const bool vehicle = u.firer.vehicle && !infantry;
    const bool gun_fired_on = !vehicle && !infantry && fired_on;  // a Gun the enemy fires at (C11)
    // Settings a fight's unit cannot have, in the order they are checked: the setting's key and why.
    const struct {
      bool refused;
      const char* key;
      const char* why;
    } refusals[] = {
        {infantry && u.as_target.type != TargetType::kInfantry, ".as_target.type",
         "an infantry unit of a fight is fired on as Personnel: as_target.type = \"infantry\", with its morale "
         "(A7.3, A10)"},
        {infantry && !u.as_target.morale, ".as_target.morale",
         "missing: the infantry unit's Morale Level, for its Morale Checks when fired on (A10.1)"},
        {infantry && u.as_target.gun, ".as_target.gun", "an infantry unit is not a Gun: remove as_target.gun"},
        {!infantry && u.rally_drm, ".rally_drm", "Rally (A10.6) is for an infantry unit: remove rally_drm"},
        {vehicle && u.as_target.gun, ".as_target.gun",
         "a vehicle is not a Gun: as_target.gun is for a Gun (firer.vehicle = false, C11)"},
        {vehicle && u.as_target.type != TargetType::kVehicle, ".as_target.type",
         "a vehicle of a fight is fired on with the Vehicle Target Type (as_target.type = \"vehicle\"): salvo does "
         "not model Personnel as a fight's units"},
        {gun_fired_on && !u.as_target.gun, ".as_target.gun",
         "a Gun the enemy fires at is fired on as a Gun and its crew (C11): set as_target.gun = true, with "
         "as_target.type = \"infantry\" or \"area\" (C11.2)"},
        {gun_fired_on && u.firer.non_qualified, ".firer.non_qualified",
         "a Gun of a fight is manned by its crew, which a K result's Casualty Reduction eliminates (C11.6, A7.302): "
         "salvo does not model a Gun manned by other Infantry as a fight's unit"},
        // What a duel's checks would refuse as "a duel over several turns": said for a fight's unit.
        {u.fire.stop_on == StopOn::kNever, ".fire.stop_on",
         "a fight's unit fires at its target until it is destroyed: fire.stop_on = \"never\" is for one fire phase "
         "of a situation file"},
        {u.fire.deliberate_immobilization, ".fire.deliberate_immobilization",
         "a fight's unit fires in phase after phase, and an immobilized target may not be attempted again (C5.71): "
         "Deliberate Immobilization is for one fire phase of a situation file"},
        {!vehicle && !infantry && !u.firer.repair && repairable(u.firer), ".firer.repair",
         "a Gun of a fight needs its R# (firer.repair) to roll for repair in the Rally Phase (A9.72)"}};
    for (const auto& r : refusals)
      if (r.refused) return RulesError(key + r.key, r.why);
  }
  // Infantry units fight infantry units: vehicles and Guns fight vehicles and Guns.
  for (const FightUnit& u : f.units)
    for (const FightUnit& v : f.units)
      if (u.side == 0 && v.side == 1 && is_infantry(u) != is_infantry(v)) {
        const FightUnit& inf = is_infantry(u) ? u : v;
        const FightUnit& other = is_infantry(u) ? v : u;
        return RulesError("unit." + other.name,
                          "a fight of infantry units (" + inf.name + ") against a vehicle or Gun (" + other.name +
                              ") is not modelled: infantry units fight infantry units (infantry fire on an armored "
                              "target has no effect, A7.307; LATW and ordnance at infantry are situation files)");
      }
  // Ranges: listed to an enemy, and the same both ways; else one fire.range for the pair.
  for (const FightUnit& u : f.units)
    for (const auto& listed : u.ranges) {
      const std::string& name = listed.first;  // (a structured binding: clang 14 does not capture one)
      const int range = listed.second;
      const std::string key = "unit." + u.name + ".range." + name;
      const auto v = std::find_if(f.units.begin(), f.units.end(), [&](const FightUnit& x) { return x.name == name; });
      if (v == f.units.end()) return RulesError(key, "no unit is named \"" + name + "\"");
      if (v->side == u.side)
        return RulesError(key, "\"" + name + "\" is on " + u.name + "'s own side: a range is to an enemy");
      if (const auto back = listed_range(*v, u); back && *back != range)
        return RulesError(key, u.name + " lists " + std::to_string(range) + " hexes to " + name + " and " + name + " " +
                                   std::to_string(*back) + " to " + u.name + ": a range is the same both ways");
    }
  for (const FightUnit& u : f.units)
    for (const FightUnit& v : f.units)
      if (u.side == 0 && v.side == 1 && !listed_range(u, v) && !listed_range(v, u) && u.fire.range != v.fire.range)
        return RulesError("unit." + v.name + ".fire.range",
                          v.name + " fires at " + std::to_string(v.fire.range) + " hexes and " + u.name + " at " +
                              std::to_string(u.fire.range) +
                              ": units fire at each other at one range (fire.range of both, or range." + u.name +
                              " of one)");
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
  return FightCompiler(f, max_states, true).run();
}

RollProgram detail::compile_without_twins(const Fight& f) {
  if (auto e = check(f)) throw *e;
  return FightCompiler(f, kMaxFightStates, false).run();
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
      "a unit's settings hold in every phase it fires or is fired on: its fire.phase serves its Prep Fire and its "
      "Defensive Fire alike, and settings of movement (Bounding First Fire, Motion, a moving target) hold in each of "
      "its phases, as in a duel over several turns; each pair of enemies at its range (range.ENEMY, else "
      "fire.range), which the fight does not change",
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
  if (std::any_of(f.units.begin(), f.units.end(), [](const FightUnit& u) { return u.as_target.gun; }))
    out +=
        "  note: a Gun (as_target.gun, C11) is fired on with the Infantry or Area Target Type; a CH, or a KIA on the "
        "Final DR before the gunshield, eliminates it and its crew (C11.4, C11.6); a K malfunctions it and its crew's "
        "Casualty Reduction eliminates the crew (A7.302; AP-type ammunition: the Gun too, C11.52): either way the Gun "
        "is out of the fight, counted destroyed; reading: a Near Miss's PTC or MC on the crew is not rolled (the Gun "
        "fights on), as a Possible Shock's NTC is not\n";
  if (std::any_of(f.units.begin(), f.units.end(), [](const FightUnit& u) { return is_infantry(u); })) {
    static constexpr const char* kInfantry[] = {
        "an infantry unit fires one attack in each fire phase of its side: its inherent FP and SW MG as a Fire Group, "
        "then the MG alone while it keeps its Multiple ROF (A7.5, A9.2), at one target unit, whose Morale Check "
        "result carries to the next attack (A7.31); a broken unit does not fire (A10.5); a pinned one fires with its "
        "FP halved and no Multiple ROF (A7.8, A7.81); a unit is pinned for the rest of the Player Turn (A7.8)",
        "reading: a squad Reduced to a HS (A7.302) fires its SW MG alone (a HS firing a SW loses its inherent FP, "
        "A7.352), or without one half the squad's inherent FP at the same Normal Range (salvo has no HS counter)",
        "a malfunctioned SW MG does not fire, its unit's inherent FP does; in the Rally Phase a unit not broken "
        "repairs it on a dr 1, and a 6 eliminates it (A9.72)",
        "a broken unit with rally_drm attempts to rally in each Rally Phase, after the repairs (A10.6: no unit "
        "rallies more than once a Rally Phase): Final DR = DR + rally_drm <= its broken-side morale rallies it, an "
        "Original 12 is its Casualty Reduction; reading: rally_drm is the player's sum of DRM (leader, -1 rally "
        "terrain, +1 self-rally, +4 Desperation Morale, A10.6-.63), salvo does not decide who may rally; a unit "
        "without rally_drm stays broken for the rest of the fight, still open to Casualty Reduction and elimination",
        "an infantry unit's results: NAME_eliminated, NAME_broken (broken at least once, A10.3), NAME_reduced "
        "(Casualty Reduction at least once, A7.302)",
    };
    for (const char* r : kInfantry) out += std::string("  note: ") + r + "\n";
  }
  for (const FightUnit& u : f.units)
    for (const std::string& n : u.unit_notes) out += "  " + u.name + ": " + n + "\n";
  for (std::size_t a = 0; a < f.units.size(); ++a)
    for (std::size_t b = 0; b < f.units.size(); ++b) {
      if (f.units[b].side == f.units[a].side) continue;
      // (an infantry unit's attack is the same in every fire phase)
      out +=
          "\n" + f.units[a].name + " (side " + (f.units[a].side == 0 ? "A" : "B") + ") at " + f.units[b].name +
          (is_infantry(f.units[a]) ? ":\n"
                                   : " (its first fire phase is \"turn 1\" below, its later ones \"later turns\"):\n");
      // The situation as one phase of a duel (fight_situation): its shots, and the notes of a
      // single fire phase; the duel's own notes (its turns, its end) are the fight's readings above.
      Explanation e = asl::compile(fight_situation(f, a, b)).explain;
      Situation one = fight_situation(f, a, b);
      one.fire.turns = 1;
      try {
        const std::vector<std::string> single = asl::compile(one).explain.notes;
        std::erase_if(e.notes,
                      [&](const std::string& n) { return std::find(single.begin(), single.end(), n) == single.end(); });
      } catch (const RulesError&) {  // not a situation of one fire phase: keep every note
      }
      out += format_explanation(e);
    }
  return out;
}

}  // namespace salvo::asl
