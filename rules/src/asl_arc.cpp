// Covered Arc geometry and Case A (C3.2, C5.1, C5.11-.13, D2.32, D2.321, D3.51).
#include "salvo/rules/asl_arc.h"

#include <cstdlib>
#include <string>

#include "salvo/rules/asl_tables.h"

namespace salvo::asl {
namespace {
int mod6(int x) { return ((x % 6) + 6) % 6; }
int doubled(int drm, Terrain t) { return t == Terrain::kOpen ? drm : 2 * drm; }  // C5.11
}  // namespace

int hexspines_between(int from, int to) {
  const int d = mod6(to - from);
  return d <= 3 ? d : 6 - d;
}

int case_a_drm(GunType type, int hexspines, Terrain firer_terrain) {
  return doubled(case_a(type, hexspines), firer_terrain);
}

BypassFacing bypass_facing(int cafp, int dir) {
  const int d = mod6(dir - cafp);
  if (d == 0) return BypassFacing::kFront;
  if (d == 3) return BypassFacing::kRear;
  return d < 3 ? BypassFacing::kRight : BypassFacing::kLeft;
}

int bypass_case_a(GunType type, BypassFacing from, BypassFacing to, bool acquired, Terrain firer_terrain) {
  const int f = static_cast<int>(from), t = static_cast<int>(to);
  int facings = std::abs(t - f);
  if (facings == 3) facings = 1;  // four facings in a ring
  const bool side = [&] {
    if (to == BypassFacing::kLeft || to == BypassFacing::kRight) return true;  // to a side
    return facings == 2;                                                       // front <-> rear passes through a side
  }();
  if (facings == 0) {
    // D2.321: a side TCA covers a much larger field of fire and pays Case A even within it,
    // unless the weapon fires with an already earned Acquisition.
    if ((to == BypassFacing::kLeft || to == BypassFacing::kRight) && !acquired)
      return doubled(case_a(type, 1), firer_terrain);
    return 0;
  }
  return doubled(case_a(type, facings) + (side ? 1 : 0), firer_terrain);  // +1 before doubling
}

CaTracker::CaTracker(int vca, int tca, Terrain firer_terrain)
    : vca_(mod6(vca)), tca_(mod6(tca)), terrain_(firer_terrain) {}

int CaTracker::fire(int weapon, Mount mount, GunType type, int new_vca, int new_tca) {
  const unsigned bit = 1u << (weapon & 31);
  new_vca = mod6(new_vca);
  new_tca = mod6(new_tca);
  int drm = 0;
  // A VCA change: the TCA turns with the hull (D3.51); NT Case A for every weapon's first shot.
  const int vca_turn = hexspines_between(vca_, new_vca);
  if (vca_turn > 0) {
    tca_ = mod6(tca_ + (new_vca - vca_));
    vca_ = new_vca;
    vca_penalty_ = case_a_drm(GunType::kNT, vca_turn, terrain_);
    paid_vca_ = 0;
    turret_fired_ = bow_fired_ = 0;
    turret_penalty_ = bow_penalty_ = 0;
  }
  if (mount == Mount::kBow) {
    if (!(bow_fired_ & bit)) {
      drm = bow_fired_ ? bow_penalty_ : (paid_vca_ & bit ? 0 : vca_penalty_);
      if (!bow_fired_) bow_penalty_ = drm;
      bow_fired_ |= bit;
    }
    paid_vca_ |= bit;
    return drm;
  }
  const int tca_turn = hexspines_between(tca_, new_tca);
  if (tca_turn > 0) {
    // C5.12: Case A from the current TCA to the new one, plus the VCA change not yet paid.
    drm = case_a_drm(type, tca_turn, terrain_) + (paid_vca_ & bit ? 0 : vca_penalty_);
    tca_ = new_tca;
    turret_penalty_ = drm;
    turret_fired_ = bit;
  } else if (!(turret_fired_ & bit)) {
    // D3.51: the first shot of another turret weapon in this CA pays what the first one paid.
    drm = turret_fired_ ? turret_penalty_ : (paid_vca_ & bit ? 0 : vca_penalty_);
    if (!turret_fired_) turret_penalty_ = drm;
    turret_fired_ |= bit;
  }
  paid_vca_ |= bit;
  return drm;
}

}  // namespace salvo::asl

namespace salvo::asl {
namespace {

const char* type_name(GunType t) { return name_in(kGunTypeNames, t).data(); }

std::string hexspines_text(int n) { return std::to_string(n) + (n == 1 ? " hexspine" : " hexspines"); }

constexpr std::array<Named<BypassFacing>, 4> kBypassNames = {{{"front", BypassFacing::kFront},
                                                              {"right side", BypassFacing::kRight},
                                                              {"rear", BypassFacing::kRear},
                                                              {"left side", BypassFacing::kLeft}}};
const char* bypass_name(BypassFacing f) { return name_in(kBypassNames, f).data(); }

// The undoubled components; the caller doubles them for woods/building/rubble (C5.11).
std::vector<Modifier> geometry_components(const Situation& s) {
  const Firer& f = s.firer;
  const Fire& fire = s.fire;
  std::vector<Modifier> out;
  if (!fire.target_direction) return out;
  const int target = *fire.target_direction;
  if (f.bypass) {
    // D2.32, D2.321: a vehicle in Bypass counts Case A in Target Facings from its CAFP.
    if (!f.cafp)
      throw RulesError("firer.cafp", "a vehicle in Bypass needs its CAFP, the direction its VCA points to (D2.32)");
    const BypassFacing to = bypass_facing(*f.cafp, target);
    if (f.bow_mounted || f.gun_type == GunType::kNT) {
      if (to != BypassFacing::kFront)
        throw RulesError(
            "fire.target_direction",
            std::string(f.bow_mounted ? "a bow-mounted weapon" : "a non-turreted (NT) weapon") +
                " in Bypass cannot fire outside its VCA, the front Target Facing: a vehicle in stationary Bypass "
                "cannot change its VCA to take a shot (D2.33, D2.35)");
      return out;
    }
    if (!fire.tca)
      throw RulesError("fire.tca", "needed with fire.target_direction: the direction the turret points to (D2.321)");
    const BypassFacing from = bypass_facing(*f.cafp, *fire.tca);
    int facings = std::abs(static_cast<int>(to) - static_cast<int>(from));
    if (facings == 3) facings = 1;
    const bool to_side = to == BypassFacing::kLeft || to == BypassFacing::kRight;
    if (facings == 0) {
      if (to_side && fire.acquisition == 0)
        out.push_back(
            {std::string("Case A: side TCA in Bypass, firing within its enlarged arc, ") + type_name(f.gun_type),
             case_a(f.gun_type, 1), "D2.321"});
      return out;
    }
    out.push_back({std::string("Case A: TCA change of ") + std::to_string(facings) + " Bypass Target Facing" +
                       (facings == 1 ? "" : "s") + " (" + bypass_name(from) + " to " + bypass_name(to) + "), " +
                       type_name(f.gun_type),
                   case_a(f.gun_type, facings), "D2.321"});
    if (to_side || facings == 2)
      out.push_back({"Case A: TCA change to or through a Bypass side Target Facing", 1, "D2.321"});
    return out;
  }
  if (!f.vehicle) {
    if (!fire.tca)
      throw RulesError("fire.tca", "needed with fire.target_direction: the direction the Gun's CA points to (C3.2)");
    const int h = hexspines_between(*fire.tca, target);
    if (h > 0)
      out.push_back({"Case A: CA change of " + hexspines_text(h) + ", " + type_name(f.gun_type) + " Gun",
                     case_a(f.gun_type, h), "C5.1"});
    return out;
  }
  if (f.bow_mounted || f.gun_type == GunType::kNT) {
    // D3.11, D3.12: a bow-mounted or non-turreted weapon fires in the VCA; a VCA change is NT.
    const char* what = f.bow_mounted ? "bow mount" : "non-turreted";
    const auto vca = fire.vca ? fire.vca : fire.tca;  // an NT vehicle's TCA is its VCA
    if (!vca)
      throw RulesError("fire.vca", std::string("needed with fire.target_direction for a ") + what +
                                       " weapon: the direction the hull points to (D3.11, D3.12)");
    const int h = hexspines_between(*vca, target);
    if (h > 0)
      out.push_back(
          {"Case A: VCA change of " + hexspines_text(h) + ", NT (" + what + ")", case_a(GunType::kNT, h), "C5.1"});
    return out;
  }
  if (!fire.tca)
    throw RulesError("fire.tca", "needed with fire.target_direction: the direction the turret points to (D3.12)");
  if (fire.pivot) {
    // D3.51: the vehicle turns its VCA to the target; the TCA turns with it, and any further
    // TCA change adds the turret's own Case A to the NT Case A of the VCA change.
    if (!fire.vca) throw RulesError("fire.vca", "needed with fire.pivot: the direction the hull points to (D3.51)");
    const int turn = hexspines_between(*fire.vca, target);
    const int tca_after = ((*fire.tca + (target - *fire.vca)) % 6 + 6) % 6;
    const int h = hexspines_between(tca_after, target);
    if (turn > 0)
      out.push_back({"Case A: VCA change of " + hexspines_text(turn) + ", NT (the TCA turns with it)",
                     case_a(GunType::kNT, turn), "D3.51"});
    if (h > 0)
      out.push_back({"Case A: further TCA change of " + hexspines_text(h) + ", " + type_name(f.gun_type),
                     case_a(f.gun_type, h), "D3.51"});
    return out;
  }
  const int h = hexspines_between(*fire.tca, target);
  if (h > 0)
    out.push_back(
        {"Case A: TCA change of " + hexspines_text(h) + ", " + type_name(f.gun_type), case_a(f.gun_type, h), "C5.1"});
  return out;
}

}  // namespace

std::vector<Modifier> case_a_modifiers(const Situation& s) {
  const Fire& fire = s.fire;
  std::vector<Modifier> out;
  if (fire.maintained_ca) {
    if (*fire.maintained_ca > 0)
      out.push_back(
          {"Case A: the penalty another turret weapon paid in this CA this phase", *fire.maintained_ca, "D3.51"});
    return out;  // already doubled when the first weapon paid it
  }
  if (fire.ca_change > 0) {
    if (s.firer.vehicle && s.firer.bow_mounted)  // D3.11: a bow weapon fires in the VCA; its change is NT
      out.push_back({"Case A: VCA change of " + hexspines_text(fire.ca_change) + ", NT (bow mount)",
                     case_a(GunType::kNT, fire.ca_change), "C5.1"});
    else
      out.push_back(
          {"Case A: CA change of " + hexspines_text(fire.ca_change) + ", " + type_name(s.firer.gun_type) + " gun",
           case_a(s.firer.gun_type, fire.ca_change), "C5.1"});
  } else {
    out = geometry_components(s);
  }
  if (!out.empty() && fire.firer_terrain != Terrain::kOpen) {
    int total = 0;
    for (const Modifier& m : out) total += m.value;
    out.push_back({"Case A doubled: firer in woods/building/rubble", total, "C5.11"});
  }
  return out;
}

int ca_hexspines(const Situation& s) {
  const Fire& fire = s.fire;
  if (fire.ca_change > 0) return fire.ca_change;
  if (!fire.target_direction || s.firer.bypass) return 0;
  if (!s.firer.vehicle || (!s.firer.bow_mounted && s.firer.gun_type != GunType::kNT))
    return fire.tca ? hexspines_between(*fire.tca, *fire.target_direction) : 0;
  const auto vca = fire.vca ? fire.vca : fire.tca;
  return vca ? hexspines_between(*vca, *fire.target_direction) : 0;
}

}  // namespace salvo::asl
