#pragma once
/// salvo/rules/asl_tables.h — the ASL charts salvo uses, as data plus lookups.
/// Every table cites its rule; values from the C3/C7 chart pages (see README, "Sources").

#include <optional>
#include <string>
#include <vector>

#include "salvo/rules/asl.h"

namespace salvo::asl {

/// C3 To Hit Table column for a range in hexes: 0 (0-6), 1 (7-12), ... 9 (>54).
int th_range_column(int range);

/// C3.3 Basic TH# for the Vehicle Target Type.
int basic_th_vehicle(bool red, int range);

/// A25 National Capabilities Chart: does this nationality use red TH#? (C3.3)
/// `reason` receives a short explanation ("American before 1/1944: red (A25)").
bool uses_red_th(Nationality n, int year, int month, bool vehicle, std::string* reason);

/// C4 Gun and Ammo modifications to the Basic TH# at this range (C4.1-C4.3), in chart order.
std::vector<Modifier> gun_ammo_modifications(const Gun& gun, Ammo ammo, Nationality n, int range);

/// German 28LL and 40LL always use APCR (C4.3, C7.32) and are never subject to depletion.
bool always_apcr(const Gun& gun, Nationality n);

/// Basic TK# vs an armored target from C7.31 (AP), C7.32 (APCR/APDS), C7.33 (HEAT),
/// C7.34 (HE); nullopt when the chart has no entry for this gun.
std::optional<int> basic_tk(const Gun& gun, Ammo ammo, Nationality n);

/// C7.24 Case D range change; nullopt = "NA" (no kill possible at this range). 0 for HEAT/HE.
/// `uncertain` is set when the chart prints no row for the caliber (28-36mm, 58-64mm).
std::optional<int> case_d(const Gun& gun, Ammo ammo, int range, bool* uncertain);

/// Final TK# vs an unarmored target before CH doubling (C7.311, C7.321, C7.331, C7.34);
/// nullopt if the chart gives none (e.g. MG, which uses the IFT vehicle line).
std::optional<int> unarmored_final_tk(const Gun& gun, Ammo ammo);

/// Armor factor scale (D1.6): 0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26.
bool is_armor_factor(int af);
/// Move `steps` places along the AF scale (+1 superior turret, -1 inferior), clamped (D1.62-.63).
int armor_factor_step(int af, int steps);

/// C8.12 Ammunition Supply Chart default Depletion # for APCR/APDS; nullopt if none printed.
std::optional<int> default_depletion(Nationality n, const Gun& gun, Ammo ammo, int year, int month);

/// Case A (C5.1): To Hit DRM for changing CA by `hexspines` (before doubling).
int case_a(GunType type, int hexspines);

}  // namespace salvo::asl
