#pragma once
/// salvo/rules/asl_situation.h — an ASL firing situation as plain data.
///
/// Every field has the default a player would assume when the situation file leaves it out.
/// The loader (salvo::load) fills this from TOML; tests build it directly.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "salvo/core/names.h"
#include "salvo/core/rules.h"

namespace salvo::asl {

enum class Nationality : std::uint8_t {
  kGerman,
  kRussian,
  kAmerican,
  kBritish,
  kFrench,
  kItalian,
  kFinnish,
  kSwedish,
  kAxisMinor,
  kAlliedMinor,
  kJapanese,
  kChineseGmd,
  kChineseCommunist,
  kPartisan,
  kThai,
  kBurmese,
  kIndonesian,
  kKoreanUs,
  kRok,
  kBcfk,
  kKpa,
  kCpva,
};

enum class ThColor : std::uint8_t { kAuto, kRed, kBlack };  ///< A25 / C3.3
enum class Ammo : std::uint8_t { kAP, kAPCR, kAPDS, kHEAT, kHE, kNone };
/// Special ammunition: it has a Depletion Number and may run out (C8.1, C8.9).
constexpr bool is_special(Ammo a) { return a == Ammo::kAPCR || a == Ammo::kAPDS || a == Ammo::kHEAT; }
enum class GunType : std::uint8_t { kT, kST, kNT };                       ///< C5.1 Case A columns
enum class Terrain : std::uint8_t { kOpen, kWoods, kBuilding, kRubble };  ///< C5.11 doubling
enum class Phase : std::uint8_t {
  kPrep,       ///< Prep Fire Phase
  kDefensive,  ///< Defensive First Fire (during the enemy MPh): Cases J1/J2 possible
  kFinal,      ///< Defensive Final Fire (DFPh): plain Case J vs a moving target (C6.16)
  kAdvancing,  ///< Advancing Fire Phase: Case B (C5.2) unless Opportunity Fire
  kBounding,   ///< Bounding (First) Fire by a vehicle: Case C/C1/C2 (C5.3)
};
/// C3.31 Vehicle, C3.32 Infantry (ITT), C3.33 Area. MG/IFE fire (firer.weapon) uses `kInfantry`
/// for Personnel and `kVehicle` for an unarmored vehicle (IFT Vehicle line, A7.308).
enum class TargetType : std::uint8_t { kVehicle, kInfantry, kArea };
/// What the firer shoots: an ordnance Gun (To Hit, then To Kill or the IFT), or fire resolved
/// directly on the IFT: a vehicular MG (D3.5) or a Gun's Infantry Fire Equivalent (C2.29).
/// kCanister: the Gun fires Canister (C8.4); kSmoke, kWp: it fires SMOKE or WP (C8.5, C8.6).
/// kInfantry: squads and crews with their inherent FP and a SW MG, on the IFT through the target's
/// Morale Check (A7-A10; asl_infantry.h).
/// The Light Anti-Tank Weapons (C13; asl_latw.h): a SW that hits a vehicle on its own To Hit
/// table (the ATR: on C3), then rolls To Kill: Bazooka, Panzerschreck, PIAT, Panzerfaust, PFk, ATR.
enum class Weapon : std::uint8_t {
  kGun,
  kMg,
  kIfe,
  kCanister,
  kSmoke,
  kWp,
  kInfantry,
  kBazooka,
  kPanzerschreck,
  kPiat,
  kPanzerfaust,
  kPfk,
  kAtr
};
enum class Facing : std::uint8_t { kFront, kSide, kRear };
enum class TurretArmor : std::uint8_t { kNormal, kSuperior, kInferior };  ///< D1.62-.63
enum class StopOn : std::uint8_t { kDestroyed, kEffect, kNever };

/// The words situation files spell these with: the loader reads them, explanations and messages
/// write them back.
inline constexpr std::array<Named<Ammo>, 6> kAmmoNames = {{{"AP", Ammo::kAP},
                                                           {"APCR", Ammo::kAPCR},
                                                           {"APDS", Ammo::kAPDS},
                                                           {"HEAT", Ammo::kHEAT},
                                                           {"HE", Ammo::kHE},
                                                           {"none", Ammo::kNone}}};
inline constexpr std::array<Named<GunType>, 3> kGunTypeNames = {
    {{"T", GunType::kT}, {"ST", GunType::kST}, {"NT", GunType::kNT}}};
inline constexpr std::array<Named<Facing>, 3> kFacingNames = {
    {{"front", Facing::kFront}, {"side", Facing::kSide}, {"rear", Facing::kRear}}};

/// Armor factor of one aspect; nullopt = unarmored aspect.
using ArmorFactor = std::optional<int>;

struct Gun {
  int caliber_mm = 75;  ///< e.g. 75; 12.7 is stored as 12 with mg_127 = true (not yet used)
  enum class Barrel : std::uint8_t { kNormal, kShort, kLong, kVeryLong } barrel = Barrel::kNormal;
  std::string designation;  ///< as written: "75L", "37*", "88LL"
  friend bool operator==(const Gun&, const Gun&) = default;
};

/// A SW MG fired by Infantry (A9): with their inherent FP as a Fire Group (A7.5), then alone while
/// it keeps its Multiple ROF (A9.2).
struct SwMg {
  int fp = 0;            ///< printed FP
  int normal_range = 0;  ///< printed Normal Range
  int rof = 0;           ///< Multiple ROF (A9.2); 0 = none
  int breakdown = 12;    ///< B# (A9.7): inherent B12 unless printed
  friend bool operator==(const SwMg&, const SwMg&) = default;
};

/// The size of a Personnel unit (A7.302: Casualty Reduction reduces a squad to a HS and
/// eliminates a HS or crew). A SMC fires a Panzerfaust (C13.31), but is never a target here.
enum class Personnel : std::uint8_t { kSquad, kHalfSquad, kCrew, kSmc };

struct Firer {
  Nationality nationality = Nationality::kGerman;
  int year = 1944;  ///< scenario year (A25 colors, C8.12 depletion defaults)
  int month = 6;    ///< scenario month 1..12
  ThColor th_color = ThColor::kAuto;
  Gun gun;
  Ammo ammo = Ammo::kAP;
  int rof = 0;                     ///< Multiple ROF (C2.24); 0 = none
  int breakdown = 12;              ///< B# (A9.7, C2.28, D3.7)
  std::optional<int> x_number;     ///< printed X# (A9.7), if any
  bool low_ammo = false;           ///< the B# is circled (D3.71)
  bool low_ammo_marked = false;    ///< a Low Ammo counter is already on the vehicle (D3.71)
  std::optional<int> depletion;    ///< Depletion # of the special ammo (C8.9); nullopt = C8.12 default or unlimited
  bool elite = false;              ///< C8.2: +1 to the Depletion #
  Ammo fallback_ammo = Ammo::kAP;  ///< fired once the special ammo is gone (C8.9); kNone = stop
  GunType gun_type = GunType::kT;
  bool vehicle = true;              ///< vehicular Gun (D3.7) or a non-vehicular Gun (C2.5)
  bool stabilized = false;          ///< gyrostabilized (C5.3: Case C +1 instead of +2/+3)
  int armor_leader = 0;             ///< Armor Leader modifier (D3.44), e.g. -1
  bool inexperienced_crew = false;  ///< D3.45: an inherent 6+1 quasi-Armor Leader whose +1 must be used
  bool captured = false;            ///< C5.8 Case H: +2, red TH#, B# -2
  bool non_qualified = false;       ///< C5.8 Case H: +2 (manned by non-qualified Infantry)
  bool no_intensive_fire = false;   ///< "No IF" on the counter (C5.63)
  bool bow_mounted = false;         ///< the weapon fires in the VCA (bow/hull mount, D3.11), not the TCA
  bool bypass = false;              ///< the firing vehicle is in Bypass (D2.32)
  std::optional<int> cafp;          ///< its Covered Arc Focal Point, as a direction 0..5 (D2.32)
  Weapon weapon = Weapon::kGun;     ///< Gun (To Hit), or MG / IFE fire on the IFT (D3.5, C2.29)
  int fp = 0;                       ///< MG/IFE Firepower as printed (or the FP of all MG fired together, D3.5)
  std::optional<int> normal_range;  ///< MG Normal Range (A7.22 Long Range Fire); IFE: 16 (C2.29)
  std::optional<int> repair;        ///< R# of a non-vehicular Gun (A9.72); vehicles repair on a dr 1 (D3.7)
  bool mortar = false;              ///< the Gun is a mortar (C9): Area Target Type only, keeps its Multiple ROF (C3.33)
  std::optional<int> min_range;     ///< a mortar's minimum range in hexes, as printed (C9.1); required for a mortar
  std::optional<int> max_range;     ///< a mortar's maximum range in hexes, as printed (C9.1); optional
  // Infantry fire (weapon = kInfantry; fp and normal_range are the inherent FP and its range).
  std::optional<int> leader;   ///< a leader directing the attack: its DRM on every IFT DR, no Cowering (A7.53, A7.9)
  bool inexperienced = false;  ///< Inexperienced Personnel: Cowering two columns (A19.33), SW B# -1 (A19.32)
  std::optional<bool> cowers;  ///< subject to Cowering (A7.9); unset: all but Finns
  std::optional<SwMg> mg;      ///< the SW MG fired with them, if any
  // A Light Anti-Tank Weapon (weapon = kBazooka ... kAtr; asl_latw.h). `leader`, `inexperienced`
  // and `captured` serve it too; x_number, breakdown, repair and rof are its counter's.
  std::vector<int> to_hit;                  ///< Bazooka, PSK, PIAT: Basic TH# at range 0, 1, ... (C13.42)
  Personnel personnel = Personnel::kSquad;  ///< who makes a PF Check (C13.31)
  bool cx = false;                          ///< the firer is CX: +1 To Hit (A4.51), +1 PF Check (C13.31)
  friend bool operator==(const Firer&, const Firer&) = default;
};

/// A Light Anti-Tank Weapon (C13.1): a SW, fired by Infantry at a vehicle.
constexpr bool is_latw(const Firer& f) { return f.weapon >= Weapon::kBazooka && f.weapon <= Weapon::kAtr; }
/// The Panzerfaust or PFk: a PF Check before the shot, a one-shot weapon (C13.3-.36).
constexpr bool is_panzerfaust(const Firer& f) { return f.weapon == Weapon::kPanzerfaust || f.weapon == Weapon::kPfk; }

/// C9.2: a light mortar (<= 60mm here, a reading) has no Covered Arc and is a SW (no Intensive Fire, C5.6).
/// The leadership DRM on the firer's To Hit (or IFE) DR: an Armor Leader's (D3.44), or an
/// Inexperienced Crew's quasi-Armor Leader's +1 (D3.45), never both (check refuses them together).
constexpr int leader_drm(const Firer& f) { return f.inexperienced_crew ? 1 : f.armor_leader; }
constexpr const char* leader_name(const Firer& f) {
  return f.inexperienced_crew ? "Inexperienced Crew: quasi-Armor Leader" : "Armor Leader";
}
constexpr const char* leader_rule(const Firer& f) { return f.inexperienced_crew ? "D3.45" : "D3.44"; }

/// Fire that rolls no To Hit DR: its IFT DR is the attack (MG, IFE, Canister).
constexpr bool direct_ift(const Firer& f) {
  return f.weapon == Weapon::kMg || f.weapon == Weapon::kIfe || f.weapon == Weapon::kCanister;
}
/// The Gun fires SMOKE or WP on the Area Target Type (C8.5, C8.6).
constexpr bool places_smoke(const Firer& f) { return f.weapon == Weapon::kSmoke || f.weapon == Weapon::kWp; }

constexpr bool light_mortar(const Firer& f) { return f.mortar && f.gun.caliber_mm <= 60; }

struct Armor {
  ArmorFactor hull_front = 8, hull_side = 8, turret_front = 8, turret_side = 8;
  friend bool operator==(const Armor&, const Armor&) = default;
};

struct Target {
  TargetType type = TargetType::kVehicle;
  bool unarmored = false;  ///< the whole vehicle is unarmored (C7.311, C7.331, C7.34)
  Armor armor;
  TurretArmor turret_armor = TurretArmor::kNormal;
  Facing facing = Facing::kFront;    ///< Target Facing toward the firer (D3.2)
  int size = 0;                      ///< Case P DRM (C6.7): -2 very large .. +2 very small
  bool hull_down = false;            ///< D4.2: only turret hits (and CH) count
  bool moving = false;               ///< Case J (C6.1)
  std::optional<double> mp_in_los;   ///< Defensive First Fire: MP spent in the firer's LOS (C6.11-.12)
  bool concealed = false;            ///< Case K (C6.2)
  int tem = 0;                       ///< Case Q (C6.8)
  int hindrance = 0;                 ///< Case R (C6.9)
  bool red_cs = false;               ///< AFV Destruction Table note A: -1 for the burn check
  bool bypass = false;               ///< the target vehicle is in Bypass (D2.32, D3.2)
  bool ffnam = false;                ///< Infantry using Non-Assault Movement: Case J3 -1 (C6.13); IFT -1
  bool ffmo = false;                 ///< moving Infantry in Open Ground: Case J4 -1 (C6.14); IFT -1
  Terrain terrain = Terrain::kOpen;  ///< the target's terrain; only woods matters (B13.3 Air Bursts)
  bool entrenched = false;           ///< in an entrenchment or pillbox: no Air Burst (B13.3)
  // A Gun as the target (C11), on the Infantry or Area Target Type: the Gun and its manning crew.
  bool gun = false;        ///< C11.4, C11.6 Gun Destruction Table
  bool emplaced = false;   ///< C11.2: +2 TEM, not cumulative with another positive TEM
  bool gunshield = false;  ///< C11.5: the crew is behind a gunshield vs this fire (from within the Gun's CA)
  // A Personnel unit taking the Morale Check of infantry fire (A10; asl_infantry.h).
  Personnel personnel = Personnel::kSquad;
  std::optional<int> morale;         ///< Morale Level (A10.1)
  std::optional<int> broken_morale;  ///< on its broken side (A10.4); unset: the same as morale
  bool broken = false;               ///< broken before the phase (A10.4)
  std::optional<int> leader;         ///< an unbroken leader in its Location: DRM on its MC and PTC (A10.21)
  std::optional<int> elr;            ///< its Experience Level Rating (A19.1)
  bool encircled = false;            ///< A7.7: one Morale Level lower
  friend bool operator==(const Target&, const Target&) = default;
};

/// The target's TEM: an Emplaced Gun's +2 or the terrain's, whichever is higher (C11.2).
constexpr int target_tem(const Target& t) { return t.emplaced && t.tem < 2 ? 2 : t.tem; }

struct Fire {
  int range = 6;  ///< hexes
  Phase phase = Phase::kPrep;
  bool opportunity = false;  ///< Opportunity Fire in the AFPh (A7.25): no Case B
  int ca_change = 0;         ///< hexspines of Covered Arc change for the first shot (C5.1)
  Terrain firer_terrain = Terrain::kOpen;
  bool buttoned_up = false;      ///< Case I (C5.9)
  bool same_hex = false;         ///< Case E (C5.5), Target Facing from the colored dr (D3.2)
  int acquisition = 0;           ///< existing Acquisition level: 0, 1 (-1) or 2 (-2) (C6.5)
  int extra_drm = 0;             ///< any other To Hit DRM (CX, Encircled, Stun, ...)
  std::optional<double> los_mp;  ///< Bounding First Fire: MP in the target's LOS (C5.31-.32)
  bool pinned = false;           ///< Case D (C5.4)
  std::optional<int> max_shots;  ///< cap on shots in the phase
  bool intensive_fire = false;   ///< take the one Intensive Fire shot after ROF (C5.6)
  // Covered Arc geometry (C3.2, C5.1, D3.51, D2.321): directions are the hexspines 0..5.
  std::optional<int> vca;               ///< the vehicle's VCA (D3.11)
  std::optional<int> tca;               ///< the turret's TCA, or a Gun's CA (D3.12, C3.2)
  std::optional<int> target_direction;  ///< the arc that holds the target
  bool pivot = false;                   ///< turn the whole vehicle (VCA) to the target (D3.51: NT)
  std::optional<int> maintained_ca;     ///< Case A another weapon paid in this CA this phase (D3.51)
  bool motion = false;                  ///< the firer is in Motion or Non-Stopped: Case C4 (C5.35)
  bool follow_up = false;  ///< D3.32: Multiple ROF kept after max_shots Bounding First Fire shots: one more in the AFPh
  bool deliberate_immobilization = false;  ///< C5.7: Case G +5, a hull hit immobilizes, no To Kill DR
  StopOn stop_on = StopOn::kDestroyed;
  // A duel over several Player Turns: the same fire phase each turn, with Rally Phases between.
  int turns = 1;         ///< fire phases (turns) resolved in a row, 1..kMaxTurns
  int rally_phases = 1;  ///< Rally Phases between two of the firer's fire phases: 1 or 2
  friend bool operator==(const Fire&, const Fire&) = default;
};

using salvo::kMaxTurns;  // most turns a duel (fire.turns) may span: salvo/core/rules.h

struct Override {
  std::optional<int> modified_th;  ///< replaces the Modified TH# (C3.3)
  std::optional<int> basic_tk;     ///< replaces the Basic TK# (C7.2)
  friend bool operator==(const Override&, const Override&) = default;
};

/// A roll beyond firing (D2): an Excessive Speed Breakdown DR, a mechanical reliability DR on a
/// start, or a Motion attempt dr. A situation with a movement roll compiles to that roll alone.
enum class MovementRoll : std::uint8_t { kNone, kEsb, kStart, kMotion };
/// Nationality of a vehicle's manufacturer, for the D2.5 ESB DRM table.
enum class Manufacturer : std::uint8_t { kAmerican, kCzech, kRussian, kBritish, kGerman, kFrench, kItalian, kOther };

struct Movement {
  MovementRoll roll = MovementRoll::kNone;
  int mp_allotment = 12;                              ///< printed MP allotment (D2.5: the 1/4 cap, FRD)
  bool red_mp = false;                                ///< MP allotment printed red (D2.5 FRU DRM; D2.51 reliability DR)
  double mp_sought = 1;                               ///< ESB: extra MP declared (D2.5)
  Manufacturer manufacturer = Manufacturer::kGerman;  ///< ESB nationality DRM (D2.5)
  double mp_in_los = 1;                               ///< Motion attempt: MF/MP the enemy unit spent in LOS (D2.401)
  int drm = 0;  ///< any other DRM on the ESB DR or reliability DR (e.g. a Vehicle Note)
  friend bool operator==(const Movement&, const Movement&) = default;
};

/// The library units a situation names (salvo/load/units.h), and where its values came from.
struct UnitRefs {
  std::string firer, target, movement;  ///< unit names as written; "" = none
  std::vector<std::string> notes;       ///< for explain: which values came from which unit
  friend bool operator==(const UnitRefs&, const UnitRefs&) = default;
};

/// A later attack of infantry fire on the same target in the same phase (A7.31): another firing
/// unit or Fire Group, resolved after the ones before it ([[then]] in a situation file).
struct InfantryAttack {
  int fp = 0;                       ///< inherent FP
  std::optional<int> normal_range;  ///< of the inherent FP
  std::optional<SwMg> mg;
  std::optional<int> leader;  ///< a leader directing this attack (A7.53)
  bool inexperienced = false;
  std::optional<bool> cowers;
  std::optional<int> range;  ///< unset: fire.range
  bool pinned = false;       ///< this firer is pinned (A7.8)
  bool opportunity = false;  ///< this firer uses Opportunity Fire in the AFPh (A7.25)
  int extra_drm = 0;         ///< any other DRM on this attack's IFT DR
  std::optional<int> max_shots;
  friend bool operator==(const InfantryAttack&, const InfantryAttack&) = default;
};

struct Situation {
  std::string name;  ///< label for tables (file stem, sweep values)
  UnitRefs units;    ///< firer.unit, target.unit, movement.unit (docs/units.md)
  Firer firer;
  Target target;
  Fire fire;
  Override override_;
  std::optional<Movement> movement;  ///< set: the situation is this movement roll, not a shot (D2)
  std::vector<InfantryAttack> then;  ///< infantry fire: the attacks after the first, in order (A7.31)
  friend bool operator==(const Situation&, const Situation&) = default;
};

}  // namespace salvo::asl
