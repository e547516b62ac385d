// Light Anti-Tank Weapons (C13): what sets a LATW shot apart from a Gun's (asl_latw.h).
#include "salvo/rules/asl_latw.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "checks.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {
namespace {

template <class E>
constexpr std::size_t at(E e) {
  return static_cast<std::size_t>(e);
}

int pf_check_value(PfCheck c) { return table_data().pf_check[at(c)]; }

// Is (year, month) before the date d of table_data().latw_dates?
bool before(const Firer& f, LatwDate d) {
  const auto& [year, month] = table_data().latw_dates[at(d)];
  return f.year < year || (f.year == year && f.month < month);
}

std::string date_text(LatwDate d) {
  const auto& [year, month] = table_data().latw_dates[at(d)];
  return std::to_string(month) + "/" + std::to_string(year);
}

bool own_table(const Firer& f) {  // C13.42, C13.48, C13.6: the To Hit table on the counter
  return f.weapon == Weapon::kBazooka || f.weapon == Weapon::kPanzerschreck || f.weapon == Weapon::kPiat;
}

bool finnish(const Firer& f) { return f.nationality == Nationality::kFinnish; }

// C13.8: ground-level rubble or a building's ground floor (the only restrictive terrain a
// situation names).
bool backblast_terrain(Terrain t) { return t == Terrain::kBuilding || t == Terrain::kRubble; }

}  // namespace

const char* latw_name(Weapon w) {
  // The LATWs in their order in Weapon, kBazooka to kAtr (is_latw).
  static constexpr const char* kNames[] = {"Bazooka", "Panzerschreck", "PIAT", "Panzerfaust", "PFk", "ATR"};
  static_assert(std::size(kNames) == at(Weapon::kAtr) - at(Weapon::kBazooka) + 1);
  return w >= Weapon::kBazooka && w <= Weapon::kAtr ? kNames[at(w) - at(Weapon::kBazooka)] : "?";
}

bool can_malfunction(const Firer& f) {
  if (f.weapon == Weapon::kBazooka || f.weapon == Weapon::kPanzerschreck || is_panzerfaust(f)) return false;
  return !(f.weapon == Weapon::kAtr && f.x_number);
}

bool has_backblast(const Firer& f) {  // C13.8; the PIAT has none (C13.6), nor the ATR
  return f.weapon == Weapon::kBazooka || f.weapon == Weapon::kPanzerschreck || is_panzerfaust(f);
}

bool backblast_drm(const Situation& s) {
  return has_backblast(s.firer) && backblast_terrain(s.fire.firer_terrain) && !s.fire.opportunity;
}

int latw_max_range(const Firer& f) {
  const auto& r = table_data().latw_max_range;
  if (f.weapon == Weapon::kAtr) return r[0];  // C13.22
  if (own_table(f)) return static_cast<int>(f.to_hit.size()) - 1;
  // C13.32: a PFk always 1 hex; a Finnish PF 1 hex (A25.76); a German PF by date.
  if (f.weapon == Weapon::kPfk || finnish(f)) return r[1];
  if (f.year >= 1945) return r[3];
  return f.year == 1944 && f.month >= 6 ? r[2] : r[1];
}

int latw_basic_th(const Firer& f, int range) {
  if (f.weapon == Weapon::kAtr) return basic_th_vehicle(f.captured, range);  // C13.2: black unless captured
  if (own_table(f)) return f.to_hit.at(static_cast<std::size_t>(range));     // C13.42
  return table_data().pf_th[0] + table_data().pf_th[1] * range;              // C13.33
}

Ammo latw_ammo(const Firer& f) { return f.weapon == Weapon::kAtr ? Ammo::kAP : Ammo::kHEAT; }

int latw_basic_tk(const Firer& f) {
  const auto& heat = table_data().latw_heat_tk;
  switch (f.weapon) {
    case Weapon::kBazooka:  // C13.43: the BAZ 43 or BAZ 44+ column by the time frame
      return heat[at(before(f, LatwDate::kBaz44) ? LatwHeat::kBaz43 : LatwHeat::kBaz44)];
    case Weapon::kPiat:
      return heat[at(LatwHeat::kPiat)];
    case Weapon::kPanzerschreck:
      return heat[at(LatwHeat::kPsk)];
    case Weapon::kPfk:
      return heat[at(LatwHeat::kPfk)];
    case Weapon::kPanzerfaust:
      return heat[at(LatwHeat::kPf)];
    case Weapon::kAtr: {
      // C7.31: the red ATR listing (6) for the Russian ATR and the Finnish, Japanese and Italian
      // 20L ATR (reading: every ATR of these nationalities, firer.nationality being the ATR's);
      // 5 for the others.
      const Nationality n = f.nationality;
      const bool red = n == Nationality::kRussian || n == Nationality::kFinnish || n == Nationality::kJapanese ||
                       n == Nationality::kItalian;
      return table_data().atr_tk[red ? 1 : 0];
    }
    default:
      throw std::logic_error("latw_basic_tk: not a LATW");
  }
}

int latw_unarmored_tk(const Firer& f) {
  return f.weapon == Weapon::kAtr ? table_data().atr_tk[2] : table_data().heat_unarmored_tk;  // C7.311, C7.331
}

PfCheckSpec pf_check(const Situation& s) {
  const Firer& f = s.firer;
  PfCheckSpec p;
  p.shot_max = pf_check_value(finnish(f) ? PfCheck::kShotFinnish : PfCheck::kShot);
  const auto add = [&](bool applies, PfCheck c, const char* what) {
    if (!applies) return;
    const int v = pf_check_value(c);
    p.drm += v;
    p.mods.push_back({what, v, finnish(f) ? "C13.31, A25.76" : "C13.31"});
  };
  // A25.76: the Finns' "non-date-dependent PF Check drm apply normally": no date drm for them.
  add(!finnish(f) && f.year == 1943 && (f.month == 8 || f.month == 9), PfCheck::kAugSep1943, "August-September 1943");
  add(!finnish(f) && f.year >= 1945, PfCheck::k1945, "1945");
  add(s.target.unarmored, PfCheck::kNotAfv, "target not an AFV");
  add(f.cx, PfCheck::kCx, "CX firer");
  add(f.personnel == Personnel::kHalfSquad || f.personnel == Personnel::kCrew, PfCheck::kHalfSquadOrCrew,
      "a half-squad or crew");
  add(f.personnel == Personnel::kSmc, PfCheck::kSmc, "a SMC");
  return p;
}

int pf_casualty_dr(const Firer& f) {  // C13.36, A19.32
  return pf_check_value(f.inexperienced ? PfCheck::kCasualtyInexperienced : PfCheck::kCasualty);
}

std::optional<RulesError> check_latw(const Situation& s) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const Fire& fire = s.fire;
  const std::string name = latw_name(f.weapon);
  constexpr auto err = refusal;
  // The keys a LATW does not read keep their defaults.
  const Situation plain;
  const Firer& d = plain.firer;
  const Fire& df = plain.fire;
  const bool atr = f.weapon == Weapon::kAtr;
  const KeyUse unused[] = {
      {f.gun != d.gun, "firer.gun"},
      {f.ammo != d.ammo, "firer.ammo"},
      {f.th_color != d.th_color, "firer.th_color"},
      {f.low_ammo, "firer.low_ammo"},
      {f.low_ammo_marked, "firer.low_ammo_marked"},
      {f.depletion.has_value(), "firer.depletion"},
      {f.elite, "firer.elite"},
      {f.fallback_ammo != d.fallback_ammo, "firer.fallback_ammo"},
      {f.gun_type != d.gun_type, "firer.gun_type"},
      {f.stabilized, "firer.stabilized"},
      {f.armor_leader != 0, "firer.armor_leader"},
      {f.inexperienced_crew, "firer.inexperienced_crew"},
      {f.no_intensive_fire, "firer.no_intensive_fire"},
      {f.bow_mounted, "firer.bow_mounted"},
      {f.bypass, "firer.bypass"},
      {f.cafp.has_value(), "firer.cafp"},
      {f.mortar, "firer.mortar"},
      {f.min_range.has_value(), "firer.min_range"},
      {f.max_range.has_value(), "firer.max_range"},
      {f.fp != 0, "firer.fp"},
      {f.normal_range.has_value(), "firer.normal_range"},
      {f.cowers.has_value(), "firer.cowers"},
      {f.mg.has_value(), "firer.mg"},
      {fire.ca_change != 0, "fire.ca_change"},
      {fire.buttoned_up, "fire.buttoned_up"},
      {fire.acquisition != 0, "fire.acquisition"},
      {fire.los_mp.has_value(), "fire.los_mp"},
      {fire.intensive_fire, "fire.intensive_fire"},
      {fire.vca.has_value(), "fire.vca"},
      {fire.tca.has_value(), "fire.tca"},
      {fire.target_direction.has_value(), "fire.target_direction"},
      {fire.maintained_ca.has_value(), "fire.maintained_ca"},
      {fire.pivot, "fire.pivot"},
      {fire.motion, "fire.motion"},
      {fire.follow_up, "fire.follow_up"},
      {fire.firer_terrain != df.firer_terrain && !has_backblast(f), "fire.firer_terrain"},
      {f.rof != 0 && !atr, "firer.rof"},
      {f.repair.has_value() && !atr, "firer.repair"},  // the PIAT's R2 is the rule's (C13.63)
      {f.x_number.has_value() && (is_panzerfaust(f) || f.weapon == Weapon::kPiat), "firer.x_number"},
      {f.breakdown != d.breakdown && !atr, "firer.breakdown"},                // the PIAT's B10 is the rule's (C13.63)
      {fire.max_shots.has_value() && !(atr && f.rof > 0), "fire.max_shots"},  // one shot a phase
      {!f.to_hit.empty() && !own_table(f), "firer.to_hit"},
      {f.personnel != d.personnel && !is_panzerfaust(f), "firer.personnel"},
  };
  if (f.weapon == Weapon::kPiat && (f.breakdown != d.breakdown || f.repair))
    return err(f.repair ? "firer.repair" : "firer.breakdown",
               "the PIAT's B" + std::to_string(table_data().piat_breakdown[0]) + " and R" +
                   std::to_string(table_data().piat_breakdown[1]) + " are the rule's (C13.63): remove it");
  if (auto e = refuse_first_set(unused, "not used by the " + name + " (firer.weapon, C13): remove it")) return e;
  if (f.vehicle)
    return err("firer.vehicle",
               "the " + name + " is a SW fired by Infantry (C13.1): set firer.vehicle = false, or leave it out");
  if (f.non_qualified)
    return err("firer.non_qualified",
               "the " + name + " is not a crew-served weapon: any Infantry fires it without the A21.13 penalty");
  if (own_table(f) && f.to_hit.empty())
    return err("firer.to_hit", "missing: the " + name +
                                   "'s To Hit table from the back of its counter, its Basic TH# at range 0, 1, 2, ... "
                                   "(C13.42), e.g. [11, 9, 8, 7, 4]");
  if ((f.weapon == Weapon::kBazooka || f.weapon == Weapon::kPanzerschreck) && !f.x_number)
    return err("firer.x_number", "missing: the " + name + "'s X# from its counter (C13.47)");
  if (is_panzerfaust(f) && f.captured)
    return err("firer.captured", "a Panzerfaust is an inherent German SW, never captured (C13.3)");
  if (has_backblast(f) && fire.firer_terrain != df.firer_terrain && !backblast_terrain(fire.firer_terrain))
    return err("fire.firer_terrain",
               "only ground-level rubble or a building adds the " + name + "'s backblast +2 (C5.34, C13.8): remove it");
  if (backblast_drm(s) && fire.pinned)
    return err("fire.pinned", "a pinned " + name +
                                  " firer may fire from rubble or a building only as Desperation fire (C13.8, C13.81), "
                                  "which salvo does not model");
  if (f.inexperienced && (f.personnel == Personnel::kSmc || f.personnel == Personnel::kCrew))
    return err("firer.inexperienced", "SMC and crews are never Green or Conscript (A19.2): remove it");
  if (f.cx && fire.opportunity) return err("firer.cx", "an Opportunity Firer loses its CX counter (A4.51): remove it");
  if (atr && f.x_number && f.breakdown != d.breakdown)
    return err("firer.x_number", "a SW's counter prints a B# or an X# (A9.7): give the ATR's one, not both");
  if (f.leader && f.personnel == Personnel::kSmc)
    return err("firer.leader",
               "a SMC firing the Panzerfaust himself directs no fire (A9.12, C13.35): remove firer.leader, or let "
               "another unit fire it");

  // Who, and when (C13.3, C13.4, C13.48, C13.6; A25.76).
  const auto unavailable = [&](LatwDate from, const std::string& who) {
    return err("firer.year", "the " + who + " is available from " + date_text(from) + ", got " +
                                 std::to_string(f.month) + "/" + std::to_string(f.year));
  };
  switch (f.weapon) {
    case Weapon::kBazooka:
      if (before(f, LatwDate::kBazooka)) return unavailable(LatwDate::kBazooka, "Bazooka (C13.4)");
      break;
    case Weapon::kPiat:
      if (before(f, LatwDate::kPiat)) return unavailable(LatwDate::kPiat, "PIAT (C13.6)");
      break;
    case Weapon::kPanzerschreck:
      if (before(f, LatwDate::kPsk)) return unavailable(LatwDate::kPsk, "Panzerschreck (C13.48)");
      if (finnish(f) && before(f, LatwDate::kFinnishPf))  // the same date (A25.77)
        return unavailable(LatwDate::kFinnishPf, "Finnish Panzerschreck (A25.77)");
      break;
    case Weapon::kPanzerfaust:
    case Weapon::kPfk:
      if (f.nationality != Nationality::kGerman && !finnish(f))
        return err("firer.nationality",
                   "the Panzerfaust is German (C13.3), and Finnish from 7/1944 (A25.76); Romanian and Hungarian "
                   "use (A25.85) is not modelled");
      if (finnish(f) && f.weapon == Weapon::kPfk) return err("firer.weapon", "the PFk is German only (C13.3)");
      if (finnish(f) && before(f, LatwDate::kFinnishPf))
        return unavailable(LatwDate::kFinnishPf, "Finnish Panzerfaust (A25.76)");
      if (finnish(f) && f.personnel == Personnel::kSmc)
        return err("firer.personnel", "the Finns' Panzerfausts are fired by their Elite and 1st-Line MMC (A25.76)");
      if (f.weapon == Weapon::kPfk && before(f, LatwDate::kPfk)) return unavailable(LatwDate::kPfk, "PFk (C13.3)");
      if (f.weapon == Weapon::kPanzerfaust && before(f, LatwDate::kPf))
        return unavailable(LatwDate::kPf, "Panzerfaust (C13.3; before, the PFk by SSR: firer.weapon = \"pfk\")");
      break;
    default:
      break;
  }

  // What it fires at, and from where.
  if (t.type != TargetType::kVehicle)
    return err("target.type", "the " + name +
                                  " fires at a vehicle here (target.type = \"vehicle\"): LATW fire at Personnel or "
                                  "Guns (HEAT's HE equivalency, C8.31) is not modelled");
  if (t.gun) return err("target.gun", "LATW fire at a Gun (C13.23, C8.31) is not modelled");
  if (t.ffmo || t.ffnam)
    return err(t.ffmo ? "target.ffmo" : "target.ffnam", "FFMO and FFNAM apply to Infantry targets (C6.13-.14)");
  const int max = latw_max_range(f);
  if (fire.range > max) {
    std::string why = f.weapon == Weapon::kAtr   ? "an ATR's maximum range (C13.22)"
                      : own_table(f)             ? "the last range of its To Hit table (firer.to_hit, C13.42)"
                      : f.weapon == Weapon::kPfk ? "a PFk's range (C13.32)"
                      : finnish(f)               ? "a Finnish Panzerfaust's range (A25.76)"
                                                 : "a Panzerfaust's range in " + std::to_string(f.month) + "/" +
                                         std::to_string(f.year) + " (C13.32)";
    return err("fire.range", "beyond " + why + ": at most " + std::to_string(max) + (max == 1 ? " hex" : " hexes") +
                                 ", got " + std::to_string(fire.range));
  }
  if (is_panzerfaust(f) && fire.turns > 1)
    return err("fire.turns",
               "a Panzerfaust is one shot, secured by a PF Check each fire phase (C13.31, C13.36): make each attempt "
               "its own situation");
  if (is_panzerfaust(f) && fire.max_shots)
    return err("fire.max_shots", "a Panzerfaust fires one shot (C13.36): remove fire.max_shots");
  if (fire.stop_on == StopOn::kNever && !(atr && f.rof > 0))
    return err("fire.stop_on", "the " + name + " fires once a phase: stop_on = \"never\" changes nothing; remove it");
  return std::nullopt;
}

std::optional<RulesError> check_latw_keys_unused(const Situation& s) {
  const Firer& f = s.firer;
  const KeyUse keys[] = {
      {!f.to_hit.empty(), "firer.to_hit"},
      {f.personnel != Personnel::kSquad, "firer.personnel"},
      {f.cx, "firer.cx"},
  };
  return refuse_first_set(keys,
                          "is for a Light Anti-Tank Weapon (firer.weapon = \"bazooka\", \"panzerschreck\", "
                          "\"piat\", \"panzerfaust\", \"pfk\" or \"atr\", C13): this situation does not read it; "
                          "remove it");
}

std::optional<int> repair_number(const Firer& f) {
  if (f.weapon == Weapon::kPiat) return table_data().piat_breakdown[1];
  return f.repair;
}

void latw_notes(const Situation& s, std::vector<std::string>& notes) {
  const Firer& f = s.firer;
  const std::string name = latw_name(f.weapon);
  if (is_panzerfaust(f)) {
    const PfCheckSpec p = pf_check(s);
    std::string drm;
    for (const Modifier& m : p.mods)
      drm += (drm.empty() ? "" : ", ") + std::string(m.value > 0 ? "+" : "") + std::to_string(m.value) + " " + m.what;
    const int shots = std::clamp(p.shot_max - p.drm, 0, 5);  // Original dr 1..shots; a 6 never
    notes.push_back("PF Check (C13.31" + std::string(finnish(f) ? ", A25.76" : "") + "): a shot on a Final dr <= " +
                    std::to_string(p.shot_max) + (drm.empty() ? "" : " (drm " + drm + ")") + ", so on an Original dr " +
                    (shots == 0   ? "of none"
                     : shots == 1 ? "of 1"
                                  : "of 1-" + std::to_string(shots)) +
                    "; an Original 6 " + (s.fire.pinned ? "breaks the pinned firer" : "pins the firer") +
                    "; no leadership drm; failing it ends the phase (pf_check_failed)");
    notes.push_back("an Original TH DR of " + std::string(f.inexperienced ? "11 or 12 (Inexperienced)" : "12") +
                    " misses and the firer suffers Casualty Reduction (C13.36): p_firer_casualty");
    notes.push_back(
        "reading: the Panzerfaust uses its own C13.33 numbers, so Case L does not apply (C6.3: \"non-ATR LATW using "
        "its own TH table\")");
    if (f.weapon == Weapon::kPfk) notes.push_back("the PFk is available only by SSR (C13.3): salvo does not check it");
  } else if (f.weapon == Weapon::kAtr) {
    notes.push_back(
        "ATR: the black C3 Vehicle row unless captured (C13.2), Case L at 1-2 hexes (C6.3), AP To Kill "
        "with Case D on the <= 25mm row (C13.22)");
    notes.push_back(
        "reading: the red ATR listing (Basic TK# 6) for every Russian, Finnish, Japanese and Italian ATR, 5 for the "
        "others (C7.31), firer.nationality being the ATR's; give override.basic_tk for another counter, and "
        "firer.captured for a captured one");
  } else {
    notes.push_back(name + ": its own To Hit table (firer.to_hit, from the counter, C13.42); no Case L (C6.3)");
    if (f.captured)
      notes.push_back(
          "reading: a captured " + name +
          " has no red To Hit table: captured use adds Case H and lowers the X#/B# only (A21.11-.12, C5.8)");
  }
  if (f.weapon == Weapon::kBazooka)
    notes.push_back(std::string("reading: a Bazooka fires the latest model of its date (C13.4): ") +
                    (before(f, LatwDate::kBaz44) ? "the BAZ 43 column, Basic TK# " : "the BAZ 44+ column, Basic TK# ") +
                    std::to_string(latw_basic_tk(f)) + " (C13.43)");
  if (f.weapon == Weapon::kBazooka || f.weapon == Weapon::kPanzerschreck)
    notes.push_back("an Original TH DR >= the X# removes the " + name +
                    " (p_disabled); the shot is still resolved (C13.47, A9.7)");
  if (f.weapon == Weapon::kPiat)
    notes.push_back("PIAT: B" + std::to_string(table_data().piat_breakdown[0]) +
                    (f.captured ? " (lowered when captured, A21.11), never repaired while captured (A9.72)"
                                : ", repaired on a dr <= " + std::to_string(table_data().piat_breakdown[1]) +
                                      ", eliminated on a 6") +
                    " (C13.63, A9.72)");
  notes.push_back(
      "LATW: only the To Hit DRM marked L apply (C13.1): Case C3 for the AFPh and backblast, no Case A, B, E, F or I, "
      "no Acquisition (C6.5), no Multiple Hits (C3.8), no Intensive Fire (C5.6), no Cowering (A7.9)");
  if (has_backblast(f) && backblast_terrain(s.fire.firer_terrain))
    notes.push_back(
        "backblast (C13.8): fired from ground-level rubble or a building's ground floor, +2 unless Opportunity Fire "
        "(C5.34); Desperation fire (C13.81) and upper levels are not modelled");
  if (s.fire.same_hex)
    notes.push_back(
        "reading: at range 0 the Target Facing comes from the colored dr (D3.2), without Case E (NA to SW, C5.5)");
}

}  // namespace salvo::asl
