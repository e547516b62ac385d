// Infantry fire on the IFT through the target's Morale Check (asl_infantry.h), compiled to a
// roll program: one state per attack kind and target status, each a DAG over the IFT DR and the
// MC (or Pin TC) DR it calls for.
#include "salvo/rules/asl_infantry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "checks.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/rules/asl_latw.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {
namespace {

// ---- What the program records ----

enum Flag : int {
  kPtcOrWorse,
  kMcOrWorse,
  kCasualty,
  kKia,
  kCowered,
  kMalfunction,  // only with a SW MG
  kPinned,
  kBroken,
  kBrokenOrWorse,  // broken or eliminated after an attack: the classic "P(break)" of IFT charts
  kCasualtyReduction,
  kEliminated,
  kReplaced,  // only with an ELR
  kHeatOfBattle,
  kNumFlags
};
constexpr std::array<const char*, kNumFlags> kFlagNames = {
    "ptc_or_worse", "mc_or_worse",     "casualty",           "kia",        "cowered",  "malfunction",   "pinned",
    "broken",       "broken_or_worse", "casualty_reduction", "eliminated", "replaced", "heat_of_battle"};

// The target's state after an attack: unharmed .. eliminated ("reduced": a squad now a HS).
constexpr std::array<const char*, 7> kOutcomeNames = {"unharmed",       "pinned",         "broken",    "reduced",
                                                      "reduced_pinned", "reduced_broken", "eliminated"};
enum End : int { kEndEliminated, kEndEffect, kEndMalfunction, kEndCowered, kEndRof, kEndShotCap };
constexpr std::array<const char*, 6> kEndNames = {"target_eliminated", "target_effect", "malfunction",
                                                  "cowered",           "rof_exhausted", "shot_cap"};

enum class Status : std::uint8_t { kGood, kPinned, kBroken };

struct Unit {
  Personnel size = Personnel::kSquad;
  Status status = Status::kGood;
  bool concealed = false;
  bool eliminated = false;
  auto tie() const { return std::tuple(size, status, concealed, eliminated); }
};

const char* status_text(const Unit& u) {
  if (u.eliminated) return "eliminated";
  return u.status == Status::kGood ? "good order" : u.status == Status::kPinned ? "pinned" : "broken";
}
const char* size_text(Personnel p) {
  return p == Personnel::kSquad ? "squad" : p == Personnel::kHalfSquad ? "HS" : "crew";
}

bool is_mc(Outcome r) { return r >= kOutcomeNmc && r <= kOutcome4Mc; }
bool is_k(Outcome r) { return r >= kOutcomeK1 && r <= kOutcomeK4; }
bool is_kia(Outcome r) { return r >= kOutcome1Kia; }

// A7.3: FP fractions are kept; the column is the rightmost whose FP does not exceed the total.
int column_left(int column, int shift) {  // A7.9 Cowering: `shift` columns left; 0 below the 1 column
  const auto& columns = table_data().ift_columns;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return static_cast<int>(i) >= shift ? columns[i - static_cast<std::size_t>(shift)] : 0;
  return 0;
}

// One attacking unit or Fire Group of the phase: the situation's [firer] and [fire], then each
// of its [[then]] attacks (A7.31: resolved one after another on the same target).
struct Group {
  int fp = 0;
  std::optional<int> normal_range;
  std::optional<SwMg> mg;
  std::optional<int> leader;
  bool inexperienced = false;
  bool cowers = true;
  int range = 1;
  bool pinned = false;
  bool opportunity = false;
  int extra_drm = 0;
  std::optional<int> max_shots;
  bool half_squad = false;  // a fight's squad Reduced to a HS: half its inherent FP (reading)
};

std::vector<Group> groups_of(const Situation& s) {
  const auto cowers = [&](std::optional<bool> c) { return c.value_or(s.firer.nationality != Nationality::kFinnish); };
  std::vector<Group> out;
  const Firer& f = s.firer;
  out.push_back({f.fp, f.normal_range, f.mg, f.leader, f.inexperienced, cowers(f.cowers), s.fire.range, s.fire.pinned,
                 s.fire.opportunity, s.fire.extra_drm, s.fire.max_shots});
  for (const InfantryAttack& a : s.then)
    out.push_back({a.fp, a.normal_range, a.mg, a.leader, a.inexperienced, cowers(a.cowers),
                   a.range.value_or(s.fire.range), a.pinned, a.opportunity, a.extra_drm, a.max_shots});
  return out;
}

class Compiler {
 public:
  // `start`: compile one fire phase of a fight's unit from this start (phase::compile), every
  // end of its fire an exit.
  explicit Compiler(const Situation& s, const phase::Start* start = nullptr)
      : s_(s), f_(s.firer), t_(s.target), fire_(s.fire), start_(start), groups_(groups_of(s)), g_(&groups_[0]) {
    if (start_ != nullptr) {  // what the firer carries: its pin (A7.8) and its MG, out of action
      Group& g = groups_[0];
      g.pinned = g.pinned || start_->firer.pinned;
      if (start_->firer.gun != phase::Gun::kOk) g.mg.reset();
      // Reduced to a HS (A7.302): a HS that fires a SW loses its inherent FP (A7.352); without
      // one it fires half the squad's (reading: salvo has no HS counter's FP).
      g.half_squad = start_->firer.reduced;
    }
    const bool any_mg = std::any_of(groups_.begin(), groups_.end(), [](const Group& g) { return g.mg.has_value(); });
    int bit = 0;
    for (int i = 0; i < kNumFlags; ++i) {
      if ((i == kMalfunction && !any_mg) || (i == kReplaced && !t_.elr)) continue;
      bit_[static_cast<std::size_t>(i)] = bit++;
    }
  }
  std::size_t num_groups() const { return groups_.size(); }
  void use_group(std::size_t gi) {
    gi_ = gi;
    g_ = &groups_[gi];
  }

  RollProgram run() {
    RollProgram& p = b_.program();
    for (int i = 0; i < kNumFlags; ++i)
      if (bit_[static_cast<std::size_t>(i)] >= 0) p.flag_names.emplace_back(kFlagNames[static_cast<std::size_t>(i)]);
    p.counter_names = {"shots"};
    p.outcome_names.assign(kOutcomeNames.begin(), kOutcomeNames.end());
    if (start_ == nullptr) p.end_reason_names.assign(kEndNames.begin(), kEndNames.end());  // else: exits
    Unit start{t_.personnel, t_.broken ? Status::kBroken : Status::kGood, t_.concealed, false};
    if (start_ != nullptr) {  // the target as the fight carries it
      const phase::Target& t = start_->target;
      if (t.reduced) start.size = Personnel::kHalfSquad;
      start.status = static_cast<Status>(t.morale);
      start.concealed = t_.concealed && !t.revealed;
    }
    state(0, 0, start);
    while (!todo_.empty()) {
      const auto [gi, k, u, index] = todo_.front();
      todo_.pop_front();
      use_group(gi);
      b_.set_state_root(index, attack(k, u));
    }
    return b_.take();
  }

  // ---- The attack (A7.2-.3, A7.9, A9.2, A9.7) ----

  bool inherent_fires(int k) const { return k == 0 && g_->fp > 0; }
  // A7.2: each element's FP, Long Range (A7.22) and Point Blank (A7.21), then the halvings of the
  // whole attack; `steps` says how (for explain).
  // `broken`: the target is broken (A9.4 does not treat a broken target as concealed).
  double attack_fp(int k, bool concealed, bool broken, std::string* steps) const {
    double total = 0;
    auto element = [&](const char* what, int fp, int normal_range, bool mg) {
      double v = fp;
      std::string t = std::string(what) + " " + std::to_string(fp) + " FP";
      if (!mg && g_->half_squad) {
        v *= 0.5;
        t += " halved: a squad Reduced to a HS (reading, A7.302)";
      }
      if (g_->range > normal_range) {
        v *= 0.5;
        t += " halved: Long Range Fire (A7.22)";
      }
      if (g_->range == 1) {
        v *= 2;
        t += " doubled: Point Blank Fire (A7.21)";
      }
      // A9.4: a MG attack beyond 16 hexes treats unconcealed, unbroken Infantry as concealed.
      if (mg && g_->range >= 17 && !concealed && !broken) {
        v *= 0.5;
        t += " halved: beyond 16 hexes, the target treated as concealed (A9.4)";
      }
      total += v;
      if (steps != nullptr) *steps += (steps->empty() ? "" : " + ") + t;
    };
    if (inherent_fires(k) && !(g_->half_squad && g_->mg))  // A7.352: a HS firing a SW
      element("inherent", g_->fp, g_->normal_range.value_or(0), false);
    if (g_->mg) element("MG", g_->mg->fp, g_->mg->normal_range, true);
    auto halve = [&](bool apply, const char* why) {
      if (!apply) return;
      total *= 0.5;
      if (steps != nullptr) *steps += std::string(", halved: ") + why;
    };
    halve(concealed, "concealed target, Area Fire (A7.23, A12.13)");
    halve(fire_.phase == Phase::kAdvancing && !g_->opportunity, "Advancing Fire Phase (A7.24)");
    halve(g_->pinned, "pinned firer (A7.8, A7.81)");
    return total;
  }

  int attack_drm(const Unit& u, std::vector<Modifier>* mods) const {
    std::vector<Modifier> local;
    auto& m = mods != nullptr ? *mods : local;
    int drm = 0;
    if (g_->leader) add_modifier(m, drm, "leader directing the attack", *g_->leader, "A7.53");
    add_modifier(m, drm, "TEM", t_.tem, "A7.6");
    add_modifier(m, drm, "hindrance", t_.hindrance, "A6.7");
    if (u.status != Status::kPinned) {  // A7.83: a pinned target no longer gets FFNAM/FFMO
      if (t_.ffnam) add_modifier(m, drm, "FFNAM", -1, "A4.6, A8.13");
      if (t_.ffmo) add_modifier(m, drm, "FFMO", -1, "A4.6, A8.13");
    }
    add_modifier(m, drm, "other DRM", g_->extra_drm, "[extra_drm]");
    return drm;
  }

  bool cowers() const {  // A7.9: unless a leader directs it, or the firer is exempt
    return !g_->leader && g_->cowers;
  }
  int cower_shift() const { return g_->inexperienced ? 2 : 1; }                         // A19.33
  int mg_breakdown() const { return g_->mg->breakdown - (g_->inexperienced ? 1 : 0); }  // A19.32
  // A7.81: a pinned firer has no Multiple ROF; A7.25: in the AFPh only an Opportunity Firer has.
  bool rof_allowed() const { return !g_->pinned && !(fire_.phase == Phase::kAdvancing && !g_->opportunity); }

  Link attack(int k, const Unit& u) {
    const int column = ift_column(attack_fp(k, u.concealed, u.status == Status::kBroken, nullptr));
    const int drm = attack_drm(u, nullptr);
    std::vector<Link> faces(36);
    for (int c = 1; c <= 6; ++c) {
      for (int w = 1; w <= 6; ++w) {
        const int original = c + w;
        const bool cowered = cowers() && c == w;
        const int col = cowered ? column_left(column, cower_shift()) : column;
        const Outcome r = col > 0 ? ift_personnel(col, original + drm) : kOutcomeNoEffect;
        const bool malfunction = g_->mg && original >= mg_breakdown();
        const bool rof_kept = g_->mg && rof_allowed() && c <= g_->mg->rof && !cowered && !malfunction;
        faces[static_cast<std::size_t>(pair_face(c, w))] = effect(k, u, r, cowered, malfunction, rof_kept);
      }
    }
    return b_.node(DieKind::kPair, faces);
  }

  // ---- The target (A7.301-.305, A10.3-.31, A19.13, A15.1) ----

  int morale() const { return *t_.morale - (t_.encircled ? 1 : 0); }  // A7.7
  int broken_morale() const { return t_.broken_morale.value_or(*t_.morale) - (t_.encircled ? 1 : 0); }

  // A7.302, A10.3: a squad becomes a HS of the same status; a HS or crew is eliminated.
  void reduce(Unit& u, FlagMask& flags) const {
    flags |= bit(kCasualtyReduction);
    if (u.size == Personnel::kSquad)
      u.size = Personnel::kHalfSquad;
    else
      eliminate(u, flags);
  }
  void eliminate(Unit& u, FlagMask& flags) const {
    u.eliminated = true;
    flags |= bit(kEliminated);
  }

  // A Morale Check with `n` added (NMC: 0), Original DR `d`.
  void morale_check(Unit& u, int n, int d, FlagMask& flags) const {
    const int final_dr = d + n + t_.leader.value_or(0);                     // A10.21
    if (d == 2 && u.size != Personnel::kCrew) flags |= bit(kHeatOfBattle);  // A15.1
    if (u.status == Status::kBroken) {
      if (d == 12)  // A10.31: a broken unit's Original 12 eliminates it
        eliminate(u, flags);
      else if (final_dr > broken_morale())  // A10.3: an already broken unit that fails is Reduced
        reduce(u, flags);
      return;
    }
    if (t_.elr && u.size != Personnel::kCrew && final_dr > morale() + *t_.elr)  // A19.11, A19.13
      flags |= bit(kReplaced);
    if (d == 12) {  // A10.31 Casualty MC: Casualty Reduction and broken
      reduce(u, flags);
      if (!u.eliminated) {
        u.status = Status::kBroken;
        flags |= bit(kBroken);
      }
    } else if (final_dr > morale()) {  // A10.3
      u.status = Status::kBroken;
      flags |= bit(kBroken);
    } else if (final_dr == morale()) {  // A7.8: passed with the highest DR that passes
      u.status = Status::kPinned;
      flags |= bit(kPinned);
    }
  }

  // Does result `r` on unit `u` call for a DR (MC or Pin TC)?
  static bool needs_dr(const Unit& u, Outcome r) {
    if (r == kOutcomePtc) return u.status == Status::kGood;  // A7.305: broken or pinned units take none
    if (is_mc(r)) return true;
    if (is_k(r)) return u.size == Personnel::kSquad;  // the HS it leaves takes the MC
    return false;
  }

  // The unit after result `r` and its DR `d` (0: none needed).
  void apply(Unit& u, Outcome r, int d, FlagMask& flags) const {
    if (is_kia(r)) {
      eliminate(u, flags);  // A7.301: one target unit
    } else if (is_k(r)) {
      reduce(u, flags);  // A7.302: Casualty Reduction, then the survivors' #MC
      if (!u.eliminated) morale_check(u, r - kOutcomeK1 + 1, d, flags);
    } else if (is_mc(r)) {
      morale_check(u, r - kOutcomeNmc, d, flags);  // A7.303, A7.304
    } else if (r == kOutcomePtc && u.status == Status::kGood) {
      if (d + t_.leader.value_or(0) > morale()) {  // A7.305: a failed Pin TC pins
        u.status = Status::kPinned;
        flags |= bit(kPinned);
      }
    }
  }

  Link effect(int k, const Unit& u, Outcome r, bool cowered, bool malfunction, bool rof_kept) {
    FlagMask flags = 0;
    if (r >= kOutcomePtc) flags |= bit(kPtcOrWorse);
    if (r >= kOutcomeNmc) flags |= bit(kMcOrWorse);
    if (r >= kOutcomeK1) flags |= bit(kCasualty);
    if (is_kia(r)) flags |= bit(kKia);
    if (cowered) flags |= bit(kCowered);
    if (malfunction) flags |= bit(kMalfunction);
    Unit after = u;
    if (r >= kOutcomePtc) after.concealed = false;  // A12.14: a PTC or worse reveals it
    if (!needs_dr(u, r)) {
      apply(after, r, 0, flags);
      return leaf(k, after, flags, malfunction, cowered, rof_kept);
    }
    std::vector<Link> dr(36);
    for (int f = 0; f < 36; ++f) {
      Unit v = after;
      FlagMask fl = flags;
      apply(v, r, pair_colored(f) + pair_white(f), fl);
      dr[static_cast<std::size_t>(f)] = leaf(k, v, fl, malfunction, cowered, rof_kept);
    }
    return b_.node(DieKind::kPair, dr);
  }

  bool reduced(const Unit& u) const { return t_.personnel == Personnel::kSquad && u.size == Personnel::kHalfSquad; }

  Link leaf(int k, const Unit& u, FlagMask flags, bool malfunction, bool cowered, bool rof_kept) {
    Leaf l;
    l.flags = flags;
    if (u.eliminated || u.status == Status::kBroken) l.flags |= bit(kBrokenOrWorse);
    l.counts[0] = 1;
    l.closes_window = true;  // the first window: the first attack
    l.outcome = static_cast<std::uint8_t>(u.eliminated ? 6 : static_cast<int>(u.status) + (reduced(u) ? 3 : 0));
    auto end = [&](End e) {
      l.end_reason = static_cast<std::uint8_t>(start_ != nullptr ? exit_of(u, malfunction) : e);
      l.next_state = -1;
      return b_.leaf(l);
    };
    if (u.eliminated) return end(kEndEliminated);
    if (fire_.stop_on == StopOn::kEffect && (u.status == Status::kBroken || reduced(u))) return end(kEndEffect);
    // The group's fire is over: the next attack of the phase (A7.31), or the end.
    auto over = [&](End e) {
      if (gi_ + 1 == groups_.size()) return end(e);
      l.next_state = state(gi_ + 1, 0, u);
      return b_.leaf(l);
    };
    if (malfunction) return over(kEndMalfunction);
    if (cowered) return over(kEndCowered);
    if (!rof_kept) return over(kEndRof);
    if (g_->max_shots && k + 1 >= *g_->max_shots) return over(kEndShotCap);
    l.next_state = state(gi_, g_->max_shots ? k + 1 : 1, u);
    return b_.leaf(l);
  }

  // A fight's phase: the exit with the target left as `u` (phase::Exit), its index.
  int exit_of(const Unit& u, bool malfunction) {
    phase::Exit e;
    e.firer = start_->firer;
    e.firer.fired_before = true;
    if (malfunction) e.firer.gun = phase::Gun::kMalfunctioned;  // A9.7
    if (u.eliminated) {
      e.target.destroyed = true;
    } else {
      e.target.revealed = start_->target.revealed || (t_.concealed && !u.concealed);
      e.target.morale = static_cast<phase::Morale>(u.status);
      e.target.reduced = reduced(u);
    }
    const auto it = std::find(exits_.begin(), exits_.end(), e);
    if (it != exits_.end()) return static_cast<int>(it - exits_.begin());
    exits_.push_back(e);
    return static_cast<int>(exits_.size() - 1);
  }
  std::vector<phase::Exit> take_exits() { return std::move(exits_); }
  // What a fight records of a step as it happens: broken, Casualty Reduction (phase::Marks).
  phase::Marks marks() const { return {-1, bit_[kBroken], bit_[kCasualtyReduction]}; }

  std::int32_t state(std::size_t gi, int k, const Unit& u) {
    const auto key = std::tuple(gi, k, u.tie());
    if (const auto it = states_.find(key); it != states_.end()) return it->second;
    const Group& g = groups_[gi];
    const std::string attack_no = k == 0 ? "1" : std::to_string(k + 1) + (g.max_shots ? "" : "+");
    const std::int32_t index = b_.reserve_state(
        (groups_.size() > 1 ? "firer " + std::to_string(gi + 1) + " " : std::string()) + "attack " + attack_no +
        ", target " + size_text(u.size) + " " + status_text(u) + (u.concealed ? ", concealed" : ""));
    states_.emplace(key, index);
    todo_.push_back({gi, k, u, index});
    return index;
  }

  FlagMask bit(int flag) const {
    const int b = bit_[static_cast<std::size_t>(flag)];
    return b < 0 ? 0 : FlagMask{1} << b;
  }

  // ---- explain ----

  ShotExplain explain_attack(int k) const {
    ShotExplain e;
    e.direct_ift = true;
    e.label = k == 0 ? (g_->fp > 0 && g_->mg ? "attack 1 (Fire Group: inherent FP and the MG)"
                        : g_->mg             ? "attack 1 (the MG)"
                                             : "attack 1 (inherent FP)")
                     : "attacks 2+ (the MG alone, while it keeps its Multiple ROF)";
    std::string steps;
    const double fp = attack_fp(k, false, t_.broken, &steps);
    e.effects.push_back(steps + " = " + fp_text(fp) + " FP: " +
                        (ift_column(fp) > 0 ? std::to_string(ift_column(fp)) + " FP column (A7.3)"
                                            : std::string("below the 1 FP column, no effect (A7.3)")));
    if (t_.concealed) {
      const double c = attack_fp(k, true, false, nullptr);
      e.effects.push_back("while the target is concealed: " + fp_text(c) + " FP (Area Fire, A12.13), " +
                          (ift_column(c) > 0 ? std::to_string(ift_column(c)) + " FP column" : "no effect") +
                          "; a PTC or worse reveals it (A12.14)");
    }
    std::vector<Modifier> mods;
    const int drm = attack_drm(Unit{}, &mods);
    e.effects.push_back("IFT DRM " + signed_text(drm) + ": " + modifiers_text(mods));
    e.total_drm = drm;
    e.drm = std::move(mods);  // what `salvo sensitivity` varies
    if (t_.ffmo || t_.ffnam) e.effects.push_back("FFMO/FFNAM no longer apply once the target is pinned (A7.83)");
    if (cowers())
      e.effects.push_back(std::string("Cowering: Original doubles shift the attack ") +
                          (g_->inexperienced ? "two columns left (A7.9, A19.33)" : "one column left (A7.9)") +
                          ", left of the 1 FP column no effect" + (g_->mg ? ", and end the MG's ROF" : ""));
    else
      e.effects.push_back(g_->leader ? "no Cowering: a leader directs the attack (A7.9)"
                                     : "no Cowering: the firer is exempt (A7.9)");
    e.rof = g_->mg && rof_allowed() ? g_->mg->rof : 0;
    e.breakdown = g_->mg ? mg_breakdown() : 12;
    if (g_->mg)
      e.effects.push_back("the MG malfunctions on an Original IFT DR >= " + std::to_string(mg_breakdown()) +
                          "; the attack is still resolved (A9.7" + (g_->inexperienced ? ", A19.32" : "") + ")");
    return e;
  }

  Explanation explain() {
    Explanation e;
    e.th_color = "not used: infantry fire has no To Hit DR (A7.3)";
    auto& n = e.notes;
    n = s_.units.notes;
    std::vector<std::string> mg_notes;  // listed after the target's notes
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
      use_group(gi);
      const std::string who = groups_.size() > 1 ? "firer " + std::to_string(gi + 1) + ", " : "";
      e.shots.push_back(explain_attack(0));
      e.shots.back().label = who + e.shots.back().label;
      if (g_->mg && rof_allowed() && g_->mg->rof > 0 && !(g_->max_shots && *g_->max_shots == 1)) {
        e.shots.push_back(explain_attack(1));
        e.shots.back().label = who + e.shots.back().label;
      }
      if (g_->mg)
        mg_notes.push_back(who + (rof_allowed() ? "the MG fires again alone while the colored dr <= its ROF " +
                                                      std::to_string(g_->mg->rof) +
                                                      " and it neither cowered nor malfunctioned (A9.2, A7.9)"
                                                : std::string("no Multiple ROF: ") +
                                                      (g_->pinned ? "a pinned firer (A7.81)"
                                                                  : "AFPh fire that is not Opportunity Fire (A7.25)")));
    }
    if (groups_.size() > 1)
      n.push_back(
          "the firers attack one after another, each with its whole fire (its MG while it keeps its ROF), "
          "the target's state carried from attack to attack (A7.31); the phase ends once the target is "
          "eliminated (or, with stop_on = \"effect\", broken or Reduced)");
    const int lead = t_.leader.value_or(0);
    n.push_back("the target: one " + std::string(size_text(t_.personnel)) + (t_.broken ? ", broken," : "") +
                " of morale " + std::to_string(morale()) + " (broken side " + std::to_string(broken_morale()) + ")" +
                (t_.encircled ? ", one lower for Encirclement (A7.7)" : "") +
                (t_.leader ? ", with its leader's " + signed_text(lead) + " on its MC and Pin TC DR (A10.21)" : ""));
    n.push_back("Morale Check: Final DR > " + std::to_string(morale()) +
                " breaks it (A10.3), = " + std::to_string(morale()) +
                " pins it (A7.8); an Original 12 is a Casualty MC: Reduced and broken "
                "(A10.31); a broken unit that fails is Reduced, and its Original 12 eliminates it (A10.3, A10.31)");
    n.push_back(
        "K/#: Casualty Reduction (a squad to a HS of the same status, a HS or crew eliminated), then the HS takes "
        "the #MC (A7.302); #KIA eliminates the one target unit (A7.301); PTC: a good order unit pinned on a failed "
        "TC, none for a pinned or broken one (A7.305)");
    if (t_.elr)
      n.push_back("ELR " + std::to_string(*t_.elr) +
                  ": an MC failed by more than it Replaces a squad or HS (replaced) (A19.13); crews never (A19.11); "
                  "reading: later MCs of the phase use the same morale");
    if (t_.personnel != Personnel::kCrew)
      n.push_back(
          "heat_of_battle: an Original MC DR of 2 (A15.1); reading: the Heat of Battle DR is not rolled, the MC is "
          "resolved as usual");
    n.push_back(
        "reading: the target is alone in its Location, and its leader (target.leader) is only his DRM: his own MC "
        "and any LLMC are not rolled (A10.2)");
    n.insert(n.end(), mg_notes.begin(), mg_notes.end());
    return e;
  }

 private:
  struct Todo {
    std::size_t gi;
    int k;
    Unit u;
    std::int32_t index;
  };
  const Situation& s_;
  const Firer& f_;
  const Target& t_;
  const Fire& fire_;
  const phase::Start* start_;
  std::vector<phase::Exit> exits_;
  ProgramBuilder b_;
  std::array<int, kNumFlags> bit_ = [] {
    std::array<int, kNumFlags> a{};
    a.fill(-1);
    return a;
  }();
  std::vector<Group> groups_;
  const Group* g_;  // the group whose attack is being built (use_group)
  std::size_t gi_ = 0;
  std::map<std::tuple<std::size_t, int, std::tuple<Personnel, Status, bool, bool>>, std::int32_t> states_;
  std::deque<Todo> todo_;
};

}  // namespace

std::optional<RulesError> check_infantry(const Situation& s) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  constexpr auto err = refusal;
  const Situation plain;  // the keys infantry fire does not read must keep their defaults
  const Firer& d = plain.firer;
  const KeyUse unused[] = {
      {f.gun != d.gun, "firer.gun"},
      {f.ammo != d.ammo, "firer.ammo"},
      {f.rof != d.rof, "firer.rof"},
      {f.breakdown != d.breakdown, "firer.breakdown"},
      {f.x_number != d.x_number, "firer.x_number"},
      {f.depletion != d.depletion, "firer.depletion"},
      {f.armor_leader != d.armor_leader, "firer.armor_leader"},
      {f.inexperienced_crew != d.inexperienced_crew, "firer.inexperienced_crew"},
      {f.mortar, "firer.mortar"},
      {f.captured, "firer.captured"},
      {t.armor != plain.target.armor || t.unarmored, "target.armor"},
      {t.gun, "target.gun"},
      {t.hull_down, "target.hull_down"},
      {t.moving, "target.moving"},
      {t.size != 0, "target.size"},
      {t.terrain != Terrain::kOpen, "target.terrain"},
      {fire.intensive_fire, "fire.intensive_fire"},
      {fire.acquisition != 0, "fire.acquisition"},
      {fire.ca_change != 0, "fire.ca_change"},
      {fire.turns != 1, "fire.turns"},
      {fire.same_hex, "fire.same_hex"},
      {s.override_.modified_th || s.override_.basic_tk, "override"},
  };
  if (auto e = refuse_first_set(unused, "not used by infantry fire (firer.weapon = \"infantry\"): remove it")) return e;
  if (auto e = check_latw_keys_unused(s)) return e;
  if (t.type != TargetType::kInfantry)
    return err("target.type",
               "infantry fire attacks Personnel: target.type = \"infantry\" (Small Arms have no effect on armored "
               "targets, A7.307)");
  if (!t.morale) return err("target.morale", "missing: the target's Morale Level, for its Morale Check (A10.1)");
  if (t.broken_morale && !t.morale) return err("target.broken_morale", "needs target.morale");
  // Each firer: the situation's [firer] and [fire], then each [[then]] attack (blamed on `then`).
  const std::vector<Group> groups = groups_of(s);
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const Group& g = groups[gi];
    const auto key = [&](const char* first) { return gi == 0 ? first : "then"; };
    const std::string who =
        gi == 0 ? "" : "attack " + std::to_string(gi + 1) + " ([[then]] " + std::to_string(gi) + "): ";
    auto no = [&](const char* first, const std::string& msg) { return err(key(first), who + msg); };
    if (g.range < 1)
      return no("fire.range", "infantry fire at its own Location (TPBF, A7.21) is not modelled: range >= 1");
    if (g.opportunity && fire.phase != Phase::kAdvancing)
      return no("fire.opportunity", "Opportunity Fire is in the Advancing Fire Phase (A7.25)");
    if (g.fp == 0 && !g.mg)
      return no("firer.fp", "nothing fires: give the inherent FP (firer.fp) or a SW MG (firer.mg)");
    if (g.fp > 0 && !g.normal_range)
      return no("firer.normal_range", "missing: the Normal Range of the inherent FP (A7.22)");
    if (g.fp == 0 && g.normal_range) return no("firer.normal_range", "no inherent FP fires (firer.fp = 0): remove it");
    if (g.fp > 0 && g.range > 2 * *g.normal_range)
      return no("fire.range", "beyond twice the inherent FP's Normal Range " + std::to_string(*g.normal_range) +
                                  ": it cannot fire (A7.22)");
    if (g.mg) {
      if (g.mg->fp < 1 || g.mg->normal_range < 1) return no("firer.mg", "needs its fp and normal_range");
      if (g.range > 2 * g.mg->normal_range)
        return no("fire.range", "beyond twice the MG's Normal Range " + std::to_string(g.mg->normal_range) +
                                    ": it cannot fire (A7.22)");
      if (g.range > 16 && !g.leader)
        return no("fire.range", "a MG fires beyond 16 hexes only with a leader directing it (A9.4): set firer.leader");
    }
  }
  if (fire.phase == Phase::kBounding)
    return err(
        "fire.phase",
        "Bounding Fire is vehicle fire (D3.3): infantry fire \"prep\", \"defensive\", \"final\" or \"advancing\"");
  if ((t.ffmo || t.ffnam) && fire.phase != Phase::kDefensive)
    return err(t.ffmo ? "target.ffmo" : "target.ffnam", "FFMO and FFNAM apply only to Defensive First Fire (A8.13)");
  if (t.ffmo && t.tem > 0)
    return err("target.ffmo", "FFMO is for a target moving in Open Ground: it has no positive TEM (A4.6)");
  if (t.ffmo && t.hindrance > 0) return err("target.ffmo", "a LOS Hindrance negates FFMO (A6.7): remove one of them");
  if (t.broken && t.concealed) return err("target.concealed", "a broken unit cannot be concealed (A12.12, A12.14)");
  if (fire.stop_on == StopOn::kNever)
    return err("fire.stop_on", "infantry fire ends when the target is eliminated: \"destroyed\" or \"effect\"");
  if (fire.motion || fire.los_mp || fire.follow_up || fire.deliberate_immobilization || f.bypass || t.bypass)
    return err("fire.phase", "vehicle movement keys are not used by infantry fire: remove them");
  Compiler c(s);
  std::string steps;
  if (ift_column(c.attack_fp(0, t.concealed, t.broken, &steps)) == 0)
    return err(f.fp > 0 ? "firer.fp" : "firer.mg",
               steps + " is below 1 FP: no IFT column, the attack has no effect (A7.3)");
  for (std::size_t gi = 1; gi < c.num_groups(); ++gi) {  // at their best: the target revealed by then
    c.use_group(gi);
    steps.clear();
    if (ift_column(c.attack_fp(0, false, t.broken, &steps)) == 0)
      return err("then", "attack " + std::to_string(gi + 1) + " ([[then]] " + std::to_string(gi) + "): " + steps +
                             " is below 1 FP: no IFT column, the attack has no effect (A7.3)");
  }
  return std::nullopt;
}

std::optional<RulesError> check_infantry_keys_unused(const Situation& s) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const KeyUse keys[] = {
      {f.leader.has_value() && !is_latw(f), "firer.leader"},
      {f.inexperienced && !is_latw(f), "firer.inexperienced"},
      {f.cowers.has_value(), "firer.cowers"},
      {f.mg.has_value(), "firer.mg"},
      {t.personnel != Personnel::kSquad, "target.personnel"},
      {t.morale.has_value(), "target.morale"},
      {t.broken_morale.has_value(), "target.broken_morale"},
      {t.broken, "target.broken"},
      {t.leader.has_value(), "target.leader"},
      {t.elr.has_value(), "target.elr"},
      {t.encircled, "target.encircled"},
      {!s.then.empty(), "then"},
  };
  return refuse_first_set(keys,
                          "is for infantry fire (firer.weapon = \"infantry\", A7-A10): this situation does not "
                          "read it; remove it");
}

phase::Program compile_infantry_phase(const Situation& s, const phase::Start& start, bool checked) {
  if (!checked)
    if (auto e = check_infantry(s)) throw *e;
  if (!s.then.empty()) throw RulesError("then", "a fight's unit fires one attack: no [[then]]");
  Compiler c(s, &start);
  phase::Program p{c.run(), c.take_exits(), c.marks()};
  for (std::size_t i = 0; i < p.exits.size(); ++i) p.program.end_reason_names.push_back("exit_" + std::to_string(i));
  return p;
}

Compiled compile_infantry(const Situation& s, bool explain) {
  if (auto e = check_infantry(s)) throw *e;
  Compiler c(s);
  Compiled out;
  out.program = c.run();
  if (explain) out.explain = c.explain();
  return out;
}

}  // namespace salvo::asl
