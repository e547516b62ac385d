#pragma once
/// salvo/rules/asl_ift.h — the Infantry Fire Table (A7.3) and what feeds it: the HE caliber
/// columns (C.6), HE equivalency (C8.31), Heavy Payload (C.7), the IFT Vehicle line (A7.308-.309),
/// the Infantry and Area Target Types (C3.32-.331, C3.7-.71) and vehicular MG / IFE fire
/// (D3.5-.54, C2.29). Pure functions; the shot builder and both resolvers call them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "salvo/rules/asl.h"

namespace salvo::asl {

struct ShotSpec;
struct ShotContext;
struct Hit;

// Text of the IFT explanations, shared by the shot builder and infantry fire (asl_infantry.cpp).
/// FP with its fraction kept: "4", "1.5", "0.75".
std::string fp_text(double fp);
/// "+1", "0", "-2".
std::string signed_text(int v);
/// Append a non-zero modifier and add it to `total`.
void add_modifier(std::vector<Modifier>& mods, int& total, std::string what, int value, std::string rule);
/// "+1 TEM (A7.3), -1 FFMO (A4.6)", or "none".
std::string modifiers_text(const std::vector<Modifier>& mods);

/// The IFT columns (A7.3): 1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36. The lookups read them, and the
/// rest of the IFT, from table_data() (asl_tables.h), which holds a copy.
inline constexpr int kIftColumns[] = {1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36};

/// A7.3: the rightmost column whose FP does not exceed `fp` (fractions kept); 0 if fp < 1.
/// C8.4: the IFT FP of Canister fired by a Gun of this size, or 0 if it has none.
int canister_fp(int caliber_mm);
int ift_column(double fp);

/// IFT Personnel result (A7.3) for a column (1..36) and a Final DR (any integer: <= 0 reads the
/// top row, >= 15 the bottom). kOutcomeNoEffect for "—".
Outcome ift_personnel(int column, int final_dr);

/// A7.308 IFT Vehicle line: the Kill Number of a column.
int vehicle_line_kill_number(int column);
/// A7.308: Final DR <= half the Kill Number burns, < eliminates, = immobilizes.
Outcome vehicle_line(int column, int final_dr);
/// A7.309 Unlikely Kill: the subsequent dr after an Original 2 on the Vehicle line.
Outcome unlikely_kill(int dr, bool hull_down);

/// C.6: HE FP of a Gun, the highest column whose caliber listing is <= the caliber
/// (20mm 1, 30mm 2, 37mm 4, 50mm 6, 60mm 8, 70mm 12, 80mm 16, 100mm 20, 120mm 24, 150mm 30,
/// 200mm 36); 0 below 20mm.
int he_fp(int caliber_mm);
/// C8.31 HE equivalency of AP-type ammunition vs Personnel: AP/APCR/APDS < 37mm 1, >= 37mm 2.
/// 0 for HE/HEAT (HEAT vs Personnel is not modelled).
int he_equivalent_fp(const Gun& gun, Ammo ammo);
/// C.7 Heavy Payload: above 36 FP, -1 per whole 8 FP in excess (48 FP: -1).
int heavy_payload_drm(int fp);

/// C3 To Hit Table, by Target Type (C3.3): Vehicle and Infantry rows red/black, Area red only.
int basic_th(TargetType type, bool red, int range);
/// C3.3 Infantry (Other) row.
int basic_th_infantry(bool red, int range);
/// C3.3 Area row (mortars, SMOKE; all nationalities).
int basic_th_area(int range);

/// How the effects of a hit (or of MG/IFE fire) are resolved.
enum class Effects : std::uint8_t {
  kToKill,       ///< C7 To Kill tables (vehicles)
  kPersonnel,    ///< IFT Personnel results (A7.3)
  kVehicleLine,  ///< IFT Vehicle line (A7.308; MG/IFE vs an unarmored vehicle, C7.311)
};

/// One IFT attack: the column and the DRM of its Effects DR.
struct IftAttack {
  int column = 0;  ///< IFT column used (1..36)
  int drm = 0;     ///< Effects DRM (TEM, reversed TEM on a CH, Heavy Payload, Case A, ...)
};

/// IFT part of a shot.
struct IftSpec {
  Effects effects = Effects::kToKill;
  TargetType target = TargetType::kVehicle;
  bool direct = false;              ///< MG/IFE: no To Hit DR; the IFT DR itself is the attack
  bool hull_down = false;           ///< A7.309: Unlikely Kill dr 3 does not immobilize a HD vehicle
  bool gun = false;                 ///< the target is a Gun: the Gun Destruction Table first (C11.4, C11.6)
  bool ap = false;                  ///< AP-type ammunition: a K eliminates the Gun too (C11.52)
  int gunshield = 0;                ///< the gunshield DRM on a Near Miss's crew result (C11.5)
  Weapon placement = Weapon::kGun;  ///< kSmoke: a hit places SMOKE; kWp: WP, an NMC for the hex (A24.31)
  IftAttack normal;                 ///< a normal hit (or the MG/IFE attack)
  IftAttack critical;               ///< a Critical Hit (C3.71: full FP doubled, positive TEM reversed)
};

/// Effects of an IFT attack with this Original Effects DR (the outcome of one hit).
Outcome ift_effect(const IftSpec& ift, bool critical, int original_dr);

/// Flags an IFT Personnel outcome sets (ptc_or_worse, mc_or_worse, casualty, kia); 0 otherwise.
std::uint32_t ift_outcome_flags(Outcome o);

/// Does this outcome end the phase as "target destroyed"? Burn, eliminated, or a #KIA result
/// (A7.301: at least # units eliminated, all others broken).
bool destroys_target(Outcome o);

/// Does this outcome leave target `t`, a Gun, without its crew? A K result: the Gun malfunctions
/// and its crew suffers Casualty Reduction (C11.6), which eliminates a crew (A7.302). Where the
/// target carries on from phase to phase (a duel, a fight) such a Gun is out for good, as if
/// destroyed; a single fire phase goes on firing at it.
bool unmans_gun(const Target& t, Outcome o);

/// Fill the IFT part of a shot for a Personnel target or MG/IFE fire; marks spec.kill[i].critical.
/// Returns false (and leaves the spec alone) for a Gun firing at a vehicle (C7 To Kill).
/// Throws RulesError.
bool build_ift_effects(const Situation& s, const ShotContext& ctx, ShotSpec& spec, ShotExplain& e);

/// ROF of the shot after the Target Type and weapon: the Area Target Type loses it (C3.33),
/// IFE lowers it by one (C2.29).
int ift_rof(const Situation& s, int rof);

/// C3.7 on the Infantry Target Type: does this Original DR need a subsequent dr?
bool infantry_needs_subsequent_dr(const ShotSpec& spec, int colored, int white);
/// C3.3, C3.6, C3.7, C3.8 on the Infantry Target Type.
Hit to_hit_infantry(const ShotSpec& spec, int colored, int white, int subsequent_dr);

/// MG/IFE on the Vehicle line: an Original 2 calls for the A7.309 subsequent dr.
bool direct_needs_subsequent_dr(const ShotSpec& spec, int colored, int white);
/// Outcome of an MG/IFE IFT DR (and the Unlikely Kill dr, when asked for).
Outcome direct_ift(const ShotSpec& spec, int colored, int white, int subsequent_dr);

/// Rules conflicts of the Target Types, MG/IFE fire and movement rolls; nothing if none.
std::optional<RulesError> check_ift(const Situation& s);

/// Give the program the flag, counter and outcome names its kind of effects can produce
/// (vehicle, Personnel, MG/IFE), renumbering the leaves. Throws std::logic_error if a dropped
/// name is used by a leaf.
void name_program(RollProgram& p, const Situation& s);

/// Notes for `explain`: the readings the IFT situations rely on.
void ift_notes(const Situation& s, std::vector<std::string>& notes);

}  // namespace salvo::asl
