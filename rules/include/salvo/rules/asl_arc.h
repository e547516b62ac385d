#pragma once
/// salvo/rules/asl_arc.h — Covered Arc geometry and Case A (C3.2, C5.1, C5.11-.13, D2.32,
/// D2.321, D3.51): from where the guns point and where the target is, the Case A To Hit DRM.
///
/// Directions are the six hexspines of the firer's hex, 0..5 clockwise. A Covered Arc is named
/// by the hexspine it points at; a target's direction is the hexspine whose arc holds it.

#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_situation.h"

namespace salvo::asl {

/// Hexspines a Covered Arc turns to go from direction `from` to `to` (0..3) (C5.1).
int hexspines_between(int from, int to);

/// Case A DRM for changing a CA by `hexspines` with a gun of `type` (C5.1), doubled when the
/// firer is in woods, a building or rubble (C5.11).
int case_a_drm(GunType type, int hexspines, Terrain firer_terrain);

/// The four Target Facings of a vehicle in Bypass, which are also its possible TCAs (D2.32,
/// D2.321): front (the CAFP), right side, rear, left side.
enum class BypassFacing : std::uint8_t { kFront = 0, kRight = 1, kRear = 2, kLeft = 3 };

/// The Bypass Target Facing holding direction `dir` for a CAFP at direction `cafp` (D2.32):
/// the CAFP's arc is the front, the opposite arc the rear, the rest the two sides.
BypassFacing bypass_facing(int cafp, int dir);

/// Case A for a TCA of a vehicle in Bypass going from facing `from` to facing `to` (D2.321):
/// counted in Target Facings, +1 for a change to or through a side facing; a side TCA pays Case A
/// even inside its current arc unless firing with an already earned Acquisition.
int bypass_case_a(GunType type, BypassFacing from, BypassFacing to, bool acquired, Terrain firer_terrain);

enum class Mount : std::uint8_t {
  kTurret,  ///< turret-mounted: fires in the TCA (D3.12)
  kBow,     ///< bow/hull-mounted: fires in the VCA (D3.11), always NT
};

/// Case A for one shot of a vehicle, tracking its VCA and TCA through a phase (D3.51):
/// - a VCA change turns the TCA with it and costs every weapon's first shot the NT Case A of
///   the VCA change; a TCA change adds the turret's own Case A;
/// - a weapon firing within the CA that another weapon of the same mount changed this phase
///   pays the penalty that first weapon paid; a weapon's later shots in an unchanged CA pay
///   nothing (C5.12);
/// - Bounding First Fire never pays Case A (C5.13): do not call fire() for it.
class CaTracker {
 public:
  CaTracker(int vca, int tca, Terrain firer_terrain);

  /// Case A DRM for weapon `weapon` (any id, e.g. 0 = MA, 1 = CMG) of `mount` and turret
  /// `type`, firing with the VCA at `new_vca` and (turret weapons) the TCA at `new_tca`.
  int fire(int weapon, Mount mount, GunType type, int new_vca, int new_tca);

  int vca() const { return vca_; }
  int tca() const { return tca_; }

 private:
  int vca_, tca_;
  Terrain terrain_;
  int vca_penalty_ = 0;        ///< NT Case A of this phase's VCA change (0: none)
  unsigned paid_vca_ = 0;      ///< weapons that have paid vca_penalty_
  int turret_penalty_ = 0;     ///< what the first turret weapon paid in the current TCA
  unsigned turret_fired_ = 0;  ///< turret weapons that have fired in the current TCA
  int bow_penalty_ = 0;        ///< what the first bow weapon paid in the current VCA
  unsigned bow_fired_ = 0;     ///< bow weapons that have fired in the current VCA
};

/// Case A of a situation's CA-changing (first) shot, one line per component with its rule
/// (C5.1, C5.11, D2.321, D3.51): from `fire.ca_change`, `fire.maintained_ca`, or the geometry
/// (`fire.vca`, `fire.tca`, `fire.target_direction`, `fire.pivot`, `firer.bypass`/`cafp`).
/// Empty when the shot changes no CA. Throws RulesError naming the key of impossible geometry.
std::vector<Modifier> case_a_modifiers(const Situation& s);

/// Hexspines the weapon's own CA turns for the first shot (for C2.5 Conditional ROF).
int ca_hexspines(const Situation& s);

}  // namespace salvo::asl
