// Map each applied To Hit DRM back to the situation setting that produces it.
#include "salvo/rules/asl_sensitivity.h"

#include <algorithm>
#include <functional>
#include <set>
#include <utility>

namespace salvo::asl {
namespace {

using Edit = std::function<void(Situation&)>;

/// How to remove (and worsen) the modifiers of one rule.
struct Lever {
  std::string remove_change;
  Edit remove;
  std::string worse_change;  ///< empty: no natural "one worse"
  Edit worse;
};

std::string num(int v) { return std::to_string(v); }

/// Infantry fire's later attacks ([[then]], A7.31) own their DRM and leaders: a lever acts on
/// every attack of the phase, and says so.
std::string every_attack(const Situation& s, const std::string& first, const std::string& then) {
  return s.then.empty() ? first : first + " and each [[then]] " + then;
}

/// One more DRM on every shot (every attack of infantry fire), for on/off modifiers that apply to
/// every shot.
Lever with_extra_worse(const Situation& s, std::string change, Edit remove) {
  const int extra = s.fire.extra_drm + 1;
  return Lever{std::move(change), std::move(remove),
               s.then.empty() ? "fire.extra_drm = " + num(extra) : "one more DRM on every attack (extra_drm + 1)",
               [](Situation& v) {
                 ++v.fire.extra_drm;
                 for (InfantryAttack& a : v.then) ++a.extra_drm;
               }};
}

/// The lever for a modifier, or nothing if no setting controls it.
std::optional<Lever> lever_for(const Situation& s, const Modifier& m) {
  const Fire& f = s.fire;
  const Target& t = s.target;
  const std::string& r = m.rule;
  if (r == "C5.1" && f.ca_change > 0) {
    Lever l{"fire.ca_change = 0", [](Situation& v) { v.fire.ca_change = 0; }, "", {}};
    if (f.ca_change < 3) {
      const int n = f.ca_change + 1;
      l.worse_change = "fire.ca_change = " + num(n);
      l.worse = [n](Situation& v) { v.fire.ca_change = n; };
    }
    return l;
  }
  if (r == "C5.11")
    return Lever{"fire.firer_terrain = \"open\"", [](Situation& v) { v.fire.firer_terrain = Terrain::kOpen; }, "", {}};
  if (r == "C5.2")
    return with_extra_worse(s, "fire.opportunity = true (Opportunity Fire)",
                            [](Situation& v) { v.fire.opportunity = true; });
  if (r == "C5.31" || r == "C5.32")
    return Lever{"fire.los_mp unset", [](Situation& v) { v.fire.los_mp.reset(); }, "", {}};
  if (r == "C5.3")
    return Lever{"fire.phase = \"prep\" (no Bounding First Fire)",
                 [](Situation& v) {
                   v.fire.phase = Phase::kPrep;
                   v.fire.los_mp.reset();
                 },
                 "",
                 {}};
  if (r == "C5.4") return with_extra_worse(s, "fire.pinned = false", [](Situation& v) { v.fire.pinned = false; });
  if (r == "C5.61")
    return Lever{"fire.intensive_fire = false", [](Situation& v) { v.fire.intensive_fire = false; }, "", {}};
  if (r == "C5.8" && m.what.find("captured") != std::string::npos)
    return with_extra_worse(s, "firer.captured = false", [](Situation& v) { v.firer.captured = false; });
  if (r == "C5.8")
    return with_extra_worse(s, "firer.non_qualified = false", [](Situation& v) { v.firer.non_qualified = false; });
  if (r == "C5.9")
    return with_extra_worse(s, "fire.buttoned_up = false", [](Situation& v) { v.fire.buttoned_up = false; });
  if (r == "C6.1" || r == "C6.11" || r == "C6.12")
    return with_extra_worse(s, "target.moving = false", [](Situation& v) {
      v.target.moving = false;
      v.target.mp_in_los.reset();
    });
  if (r == "C6.2")
    return with_extra_worse(s, "target.concealed = false", [](Situation& v) { v.target.concealed = false; });
  if (r == "C6.5" && f.acquisition > 0) {
    Lever l{"fire.acquisition = 0", [](Situation& v) { v.fire.acquisition = 0; }, "", {}};
    if (f.acquisition == 2) {
      l.worse_change = "fire.acquisition = 1";
      l.worse = [](Situation& v) { v.fire.acquisition = 1; };
    }
    return l;
  }
  if (r == "C6.7" && t.size != 0) {
    Lever l{"target.size = \"average\"", [](Situation& v) { v.target.size = 0; }, "", {}};
    if (t.size < 2 && t.size + 1 != 0) {
      const int n = t.size + 1;
      l.worse_change = "target.size one smaller (Case P " + std::string(n > 0 ? "+" : "") + num(n) + ")";
      l.worse = [n](Situation& v) { v.target.size = n; };
    }
    return l;
  }
  if ((r == "C6.8" || r == "A7.6") && t.tem != 0) {  // A7.6: the TEM of infantry fire
    const int n = t.tem + 1;
    return Lever{"target.tem = 0", [](Situation& v) { v.target.tem = 0; }, "target.tem = " + num(n),
                 [n](Situation& v) { v.target.tem = n; }};
  }
  if ((r == "C6.9" || r == "A6.7") && t.hindrance != 0) {
    const int n = t.hindrance + 1;
    return Lever{"target.hindrance = 0", [](Situation& v) { v.target.hindrance = 0; }, "target.hindrance = " + num(n),
                 [n](Situation& v) { v.target.hindrance = n; }};
  }
  // Infantry fire: the leader directing it (no Cowering); a LATW: the leader directing its To Hit DR.
  // Every attack's leader ([[then]] too): removed, or each one worse.
  const bool led = s.firer.leader || std::any_of(s.then.begin(), s.then.end(), [](const auto& a) { return a.leader; });
  if ((r == "A7.53" || r == "A7.531") && led) {
    const auto worse = [](std::optional<int>& l) {
      if (l && *l < 2) ++*l;
    };
    Lever l{every_attack(s, "firer.leader unset", "leader unset") + " (no leader directs it)",
            [](Situation& v) {
              v.firer.leader.reset();
              for (InfantryAttack& a : v.then) a.leader.reset();
            },
            "",
            {}};
    if (s.then.empty() && *s.firer.leader < 2) {
      l.worse_change = "firer.leader = " + num(*s.firer.leader + 1);
    } else if (!s.then.empty()) {
      l.worse_change = "each leader's DRM one worse";
    }
    if (!l.worse_change.empty())
      l.worse = [worse](Situation& v) {
        worse(v.firer.leader);
        for (InfantryAttack& a : v.then) worse(a.leader);
      };
    return l;
  }
  // A LATW (C13): Case C3 in the AFPh or for a backblast, the CX firer.
  if (r == "C5.34")  // the AFPh part alone (Opportunity Fire would waive a backblast's too)
    return with_extra_worse(s, "fire.phase = \"prep\" (not the AFPh)",
                            [](Situation& v) { v.fire.phase = Phase::kPrep; });
  if (r == "C5.34, C13.8")
    return with_extra_worse(s, "fire.firer_terrain = \"open\"",
                            [](Situation& v) { v.fire.firer_terrain = Terrain::kOpen; });
  if (r == "A4.51") return with_extra_worse(s, "firer.cx = false", [](Situation& v) { v.firer.cx = false; });
  if (r == "A4.6, A8.13")  // infantry fire: FFNAM / FFMO
    return m.what == "FFMO" ? with_extra_worse(s, "target.ffmo = false", [](Situation& v) { v.target.ffmo = false; })
                            : with_extra_worse(s, "target.ffnam = false", [](Situation& v) { v.target.ffnam = false; });
  if (r == "D3.44" && s.firer.armor_leader != 0) {
    Lever l{"firer.armor_leader = 0", [](Situation& v) { v.firer.armor_leader = 0; }, "", {}};
    if (s.firer.armor_leader < -1) {
      const int n = s.firer.armor_leader + 1;
      l.worse_change = "firer.armor_leader = " + num(n);
      l.worse = [n](Situation& v) { v.firer.armor_leader = n; };
    }
    return l;
  }
  if (r == "D3.45" && s.firer.inexperienced_crew)
    return Lever{"firer.inexperienced_crew = false", [](Situation& v) { v.firer.inexperienced_crew = false; }, "", {}};
  if (r == "[extra_drm]") {
    return Lever{
        every_attack(s, "fire.extra_drm = 0", "extra_drm = 0"),
        [](Situation& v) {
          v.fire.extra_drm = 0;
          for (InfantryAttack& a : v.then) a.extra_drm = 0;
        },
        s.then.empty() ? "fire.extra_drm = " + num(f.extra_drm + 1) : "one more DRM on every attack (extra_drm + 1)",
        [](Situation& v) {
          ++v.fire.extra_drm;
          for (InfantryAttack& a : v.then) ++a.extra_drm;
        }};
  }
  return std::nullopt;
}

}  // namespace

std::vector<Variant> sensitivity_variants(const Situation& s, const Explanation& explain) {
  std::vector<Variant> out;
  std::set<std::pair<std::string, std::string>> seen;  // (rule, what)
  for (const ShotExplain& shot : explain.shots)
    for (const Modifier& m : shot.drm) {
      if (m.value == 0 || !seen.insert({m.rule, m.what}).second) continue;
      const std::optional<Lever> lever = lever_for(s, m);
      if (!lever) continue;
      Variant removed{m.what, m.rule, m.value, false, lever->remove_change, s};
      lever->remove(removed.situation);
      out.push_back(std::move(removed));
      if (lever->worse) {
        Variant worse{m.what, m.rule, m.value, true, lever->worse_change, s};
        lever->worse(worse.situation);
        out.push_back(std::move(worse));
      }
    }
  return out;
}

}  // namespace salvo::asl
