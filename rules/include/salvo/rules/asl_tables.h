#pragma once
/// salvo/rules/asl_tables.h — the ASL charts salvo uses, as data plus lookups.
/// Every table cites its rule; values from the C3/C7 chart pages (see README, "Sources").
/// The chart entries are one value, table_data(); the lookups read nothing else, and the rules
/// data hash of provenance (tables_hash) covers every entry of it.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_ift.h"

namespace salvo::asl {

// ---- Chart data ---------------------------------------------------------------------------

/// C3 To Hit Table range columns: 0-6, 7-12, ... 49-54, >54 hexes.
inline constexpr std::size_t kThRangeColumns = 10;
/// IFT columns (A7.3), as in kIftColumns.
inline constexpr std::size_t kNumIftColumns = std::size(kIftColumns);
/// C7.24 Case D range columns: 0-1, 2, 3-6, 7-12, ... 73-78, 79+ hexes (APCR/APDS: to 49+).
inline constexpr std::size_t kCaseDApColumns = 16;
inline constexpr std::size_t kCaseDApcrColumns = 11;
/// C7.24 "NA": no kill possible at this range.
inline constexpr int kCaseDNa = -99;

/// A To Kill entry (C7.31, C7.32): a gun designation as printed ("75L", "37*"; in C7.32 "D57L"
/// is the APDS entry of the 57L) and its Basic TK#.
struct TkEntry {
  std::string_view gun;
  int tk = 0;
};
/// A colored To Kill entry (C7.31, C7.32): for guns of this nationality it replaces the black one.
struct ColoredTkEntry {
  Ammo ammo = Ammo::kAP;
  Nationality nationality = Nationality::kGerman;
  std::string_view gun;
  int tk = 0;
};
/// A gun designation of one nationality (C4.3, C7.32: guns that always use APCR).
struct NationalGun {
  Nationality nationality = Nationality::kGerman;
  std::string_view gun;
};
/// A value by caliber: exact caliber (C7.33) or the first caliber of a band (C7.311).
struct CaliberValue {
  int caliber = 0;
  int value = 0;
};
/// C7.34 HE To Kill band, from `caliber` (mm) up: Basic TK# vs armored, Final TK# vs unarmored.
struct HeTkBand {
  int caliber = 0;
  int armored = 0;
  int unarmored = 0;
};
/// C7.24 Case D row, read for guns from `caliber` (mm) up to the next row's: the TK# change by
/// range column, kCaseDNa for "NA".
template <std::size_t N>
struct CaseDRow {
  int caliber = 0;
  std::array<int, N> change{};
};
/// Calibers (mm, inclusive) for which C7.24 prints no row of this ammunition: the row that
/// covers them is read and the reading is flagged as uncertain.
struct CaliberGap {
  Ammo ammo = Ammo::kAP;
  int first = 0;
  int last = 0;
};
/// A25 "Ordnance TH#" color. The first row of the nationality that applies wins; a row stops
/// applying at month `ends_month` of `ends_year` (month 0: at the start of that year; year 0:
/// never).
struct ThColorEntry {
  Nationality nationality = Nationality::kGerman;
  bool vehicle_only = false;  ///< applies to AFV only (French)
  int ends_year = 0;
  int ends_month = 0;
  bool red = false;
  std::string_view reason;  ///< "American before 1/1944: red (A25)"
};
/// C4 Gun/Ammo modification row for guns with this barrel, ammunition or caliber limit (mm):
/// the modification by C3 range column (0: none).
template <class Key>
struct C4Row {
  Key key{};
  std::string_view what;
  std::string_view rule;
  std::array<int, kThRangeColumns> by_column{};
};
/// C8.12 Ammunition Supply Chart default Depletion # of a gun in a year, from month `from_month`
/// on (0: the whole year).
struct DepletionEntry {
  Nationality nationality = Nationality::kGerman;
  Ammo ammo = Ammo::kAPCR;
  std::string_view gun;
  int year = 0;
  int from_month = 0;
  int depletion = 0;
};

/// The To Hit DRM of the C5/C6 chart's Cases that are fixed values (th_case_drm).
enum class ThCase : std::uint8_t {
  kB,             ///< C5.2 Advancing Fire
  kBObstacle,     ///< C5.2 Advancing Fire from woods/building/rubble
  kC,             ///< C5.3 Bounding (First) Fire: Case B's part, before the gun type's
  kCStabilized,   ///< C5.3 the gun type's part: gyrostabilized
  kCTurreted,     ///< C5.3: T or ST
  kCNonTurreted,  ///< C5.3: NT, or a bow mount (D3.11)
  kC1,            ///< C5.31 LOS 2.5-3 MP
  kC2,            ///< C5.32 LOS <= 2 MP
  kC4Stabilized,  ///< C5.35 Motion Fire, gyrostabilized
  kD,             ///< C5.4 pinned
  kE,             ///< C5.5 same hex (twice in woods/building/rubble)
  kF,             ///< C5.61 Intensive Fire
  kG,             ///< C5.7 Deliberate Immobilization
  kH,             ///< C5.8 captured or non-qualified (each)
  kI,             ///< C5.9 buttoned up
  kJ,             ///< C6.1 moving target
  kJ1,            ///< C6.11 Defensive First Fire, <= 3 MP in LOS
  kJ2,            ///< C6.12 Defensive First Fire, <= 1 MP in LOS
  kJ3,            ///< C6.13 FFNAM
  kJ4,            ///< C6.14 FFMO
  kK,             ///< C6.2 concealed
  kL1,            ///< C6.3 Point Blank, 1 hex
  kL2,            ///< C6.3 Point Blank, 2 hexes
  kN,             ///< C6.5 Acquisition, per level
  kC3,            ///< C5.34 Case C3: a LATW firing in the AFPh (not Opportunity Fire)
  kC3Backblast,   ///< C5.34 Case C3: a backblast weapon from ground-level rubble or a building (C13.8)
  kCx,            ///< A4.51: a CX firer
  kCount
};
inline constexpr std::size_t kNumThCases = static_cast<std::size_t>(ThCase::kCount);

/// Every chart entry the ASL lookups read, in one value (table_data()). Fixed-shape charts are
/// arrays, lists (To Kill entries, A25 rows, ...) spans over static storage. A member added here
/// must be added to for_each_table() too (it does not compile until it is), and so is hashed.
struct TableData {
  // C3 To Hit Table: upper range (hexes) of each column but the last; Basic TH# by Target Type.
  std::array<int, kThRangeColumns - 1> th_range_max{};
  std::array<int, kThRangeColumns> th_vehicle_black{};  // C3.3 Vehicle
  std::array<int, kThRangeColumns> th_vehicle_red{};
  std::array<int, kThRangeColumns> th_infantry_black{};  // C3.3 Infantry (Other)
  std::array<int, kThRangeColumns> th_infantry_red{};
  std::array<int, kThRangeColumns> th_area{};  // C3.3 Area (red, all nationalities)
  std::span<const ThColorEntry> th_color;      // A25 Ordnance TH# color
  // C4 Gun/Ammo modifications, in chart order: barrel (C4.1), special ammo (C4.3), caliber (C4.2).
  std::span<const C4Row<Gun::Barrel>> c4_barrel;
  std::span<const C4Row<Ammo>> c4_ammo;
  std::span<const C4Row<int>> c4_caliber;    // key: the caliber limit (mm), "<= key"
  std::span<const NationalGun> always_apcr;  // C4.3, C7.32
  // C7 To Kill Tables.
  std::span<const TkEntry> ap_tk;                 // C7.31 black entries
  std::span<const TkEntry> apcr_tk;               // C7.32 black entries ("D": APDS)
  std::span<const ColoredTkEntry> colored_tk;     // C7.31, C7.32 colored entries
  std::span<const CaliberValue> heat_tk;          // C7.33, by exact caliber
  std::span<const HeTkBand> he_tk;                // C7.34
  std::span<const CaliberValue> ap_unarmored_tk;  // C7.311, C7.321: Final TK# by caliber band (from)
  int heat_unarmored_tk = 0;                      // C7.331
  // C7.24 Case D.
  std::array<int, kCaseDApColumns - 1> case_d_range_max{};  // upper range of each column but the last
  std::span<const CaseDRow<kCaseDApColumns>> case_d_ap;
  std::span<const CaseDRow<kCaseDApcrColumns>> case_d_apcr;
  std::array<int, kCaseDApcrColumns> case_d_apds{};
  std::span<const CaliberGap> case_d_unprinted;
  std::span<const DepletionEntry> depletion;  // C8.12
  std::array<int, 11> armor_factors{};        // D1.6 scale
  // C5.1 Case A: first hexspine by GunType (T, ST, NT), each further hexspine.
  std::array<int, 3> case_a_first{};
  int case_a_further = 0;
  // A7.3 Infantry Fire Table and the tables read with it.
  std::array<int, kNumIftColumns> ift_columns{};              // FP of each column
  std::array<std::array<Outcome, kNumIftColumns>, 16> ift{};  // Personnel: Final DR <= 0 .. >= 15
  std::array<int, kNumIftColumns> ift_column_caliber{};       // C.6 HE: smallest caliber of each column
  std::array<int, kNumIftColumns> vehicle_kill_number{};      // A7.308 Vehicle line
  std::array<Outcome, 6> unlikely_kill{};                     // A7.309, by dr (3: none if hull down)
  // C5/C6 To Hit DRM by Case (ThCase); C7.21 TK Case A; D2.5 ESB DRM by manufacturer.
  std::array<int, kNumThCases> th_case_drm{};
  int tk_case_a_rear = 0;
  std::array<int, 8> esb_manufacturer_drm{};        // by Manufacturer
  std::array<int, 2> c4_smoke{};                    // C4.4: SMOKE adds [0] to the Basic TH# at <= [1] hexes
  std::array<std::array<int, 2>, 4> canister_fp{};  // C8.4: {Gun size (mm), IFT FP}
  // C13 Light Anti-Tank Weapons: the rules' numbers (the counters' To Hit tables and X# are the
  // player's). Indexes: LatwHeat, LatwDate, PfCheck (asl_latw.h).
  std::array<int, 6> latw_heat_tk{};               // C7.33 Basic TK#: BAZ 43, BAZ 44+, PIAT, PSK, PFk, PF
  std::array<int, 3> atr_tk{};                     // C7.31: ATR, the red ATR listing; C7.311 unarmored Final TK#
  std::array<int, 2> pf_th{};                      // C13.33: Basic TH# at range 0, change per hex
  std::array<int, 4> latw_max_range{};             // C13.22 ATR; C13.32 PF before 6/44, 6-12/44, from 1945
  std::array<int, 10> pf_check{};                  // C13.31, A25.76, C13.36: the PF Check (PfCheck)
  std::array<int, 2> piat_breakdown{};             // C13.63: B#, R#
  std::array<std::array<int, 2>, 7> latw_dates{};  // {year, month} from which (LatwDate)
};

/// The ASL chart data the lookups below read.
const TableData& table_data();

/// Call f(name, table) for every member of `data` (TableData, const or not), in a fixed order.
/// tables_hash and its test both go through here.
template <class Data, class F>
requires std::same_as<std::remove_const_t<Data>, TableData>
void for_each_table(Data& data, F&& f) {
  // One name per member: adding a member to TableData breaks this line until it is listed.
  auto& [th_range_max, th_vehicle_black, th_vehicle_red, th_infantry_black, th_infantry_red, th_area, th_color,
         c4_barrel, c4_ammo, c4_caliber, always_apcr, ap_tk, apcr_tk, colored_tk, heat_tk, he_tk, ap_unarmored_tk,
         heat_unarmored_tk, case_d_range_max, case_d_ap, case_d_apcr, case_d_apds, case_d_unprinted, depletion,
         armor_factors, case_a_first, case_a_further, ift_columns, ift, ift_column_caliber, vehicle_kill_number,
         unlikely_kill, th_case_drm, tk_case_a_rear, esb_manufacturer_drm, c4_smoke, canister_fp, latw_heat_tk, atr_tk,
         pf_th, latw_max_range, pf_check, piat_breakdown, latw_dates] = data;
  f("C3 range columns", th_range_max);
  f("C3 Vehicle black", th_vehicle_black);
  f("C3 Vehicle red", th_vehicle_red);
  f("C3 Infantry black", th_infantry_black);
  f("C3 Infantry red", th_infantry_red);
  f("C3 Area", th_area);
  f("A25 TH# color", th_color);
  f("C4 barrel", c4_barrel);
  f("C4 ammunition", c4_ammo);
  f("C4 caliber", c4_caliber);
  f("C4.3 always APCR", always_apcr);
  f("C7.31 AP", ap_tk);
  f("C7.32 APCR/APDS", apcr_tk);
  f("C7.31-.32 colored", colored_tk);
  f("C7.33 HEAT", heat_tk);
  f("C7.34 HE", he_tk);
  f("C7.311 AP unarmored", ap_unarmored_tk);
  f("C7.331 HEAT unarmored", heat_unarmored_tk);
  f("C7.24 range columns", case_d_range_max);
  f("C7.24 AP", case_d_ap);
  f("C7.24 APCR", case_d_apcr);
  f("C7.24 APDS", case_d_apds);
  f("C7.24 unprinted calibers", case_d_unprinted);
  f("C8.12 Depletion", depletion);
  f("D1.6 armor factors", armor_factors);
  f("C5.1 Case A first", case_a_first);
  f("C5.1 Case A further", case_a_further);
  f("A7.3 IFT columns", ift_columns);
  f("A7.3 IFT Personnel", ift);
  f("C.6 HE calibers", ift_column_caliber);
  f("A7.308 Vehicle line", vehicle_kill_number);
  f("A7.309 Unlikely Kill", unlikely_kill);
  f("C5/C6 To Hit DRM", th_case_drm);
  f("C7.21 TK Case A", tk_case_a_rear);
  f("D2.5 ESB DRM", esb_manufacturer_drm);
  f("C4.4 SMOKE", c4_smoke);
  f("C8.4 Canister FP", canister_fp);
  f("C7.33 HEAT LATW", latw_heat_tk);
  f("C7.31 ATR", atr_tk);
  f("C13.33 PF To Hit", pf_th);
  f("C13.22, C13.32 LATW range", latw_max_range);
  f("C13.31 PF Check", pf_check);
  f("C13.63 PIAT B# R#", piat_breakdown);
  f("C13 LATW dates", latw_dates);
}

/// The To Hit DRM of a C5/C6 Case (table_data().th_case_drm).
int case_drm(ThCase c);

/// The fields of a row of a TableData list, as a tuple of references. Each structured binding
/// names every member, so a member added to a row type does not compile until it is listed.
template <class R, class Row>
concept RowOf = std::same_as<std::remove_const_t<R>, Row>;
inline auto fields(RowOf<TkEntry> auto& r) {
  auto& [gun, tk] = r;
  return std::tie(gun, tk);
}
inline auto fields(RowOf<ColoredTkEntry> auto& r) {
  auto& [ammo, nationality, gun, tk] = r;
  return std::tie(ammo, nationality, gun, tk);
}
inline auto fields(RowOf<NationalGun> auto& r) {
  auto& [nationality, gun] = r;
  return std::tie(nationality, gun);
}
inline auto fields(RowOf<CaliberValue> auto& r) {
  auto& [caliber, value] = r;
  return std::tie(caliber, value);
}
inline auto fields(RowOf<HeTkBand> auto& r) {
  auto& [caliber, armored, unarmored] = r;
  return std::tie(caliber, armored, unarmored);
}
inline auto fields(RowOf<CaliberGap> auto& r) {
  auto& [ammo, first, last] = r;
  return std::tie(ammo, first, last);
}
inline auto fields(RowOf<ThColorEntry> auto& r) {
  auto& [nationality, vehicle_only, ends_year, ends_month, red, reason] = r;
  return std::tie(nationality, vehicle_only, ends_year, ends_month, red, reason);
}
inline auto fields(RowOf<DepletionEntry> auto& r) {
  auto& [nationality, ammo, gun, year, from_month, depletion] = r;
  return std::tie(nationality, ammo, gun, year, from_month, depletion);
}
template <std::size_t N>
auto fields(CaseDRow<N>& r) {
  auto& [caliber, change] = r;
  return std::tie(caliber, change);
}
template <std::size_t N>
auto fields(const CaseDRow<N>& r) {
  auto& [caliber, change] = r;
  return std::tie(caliber, change);
}
template <class Key>
auto fields(C4Row<Key>& r) {
  auto& [key, what, rule, by_column] = r;
  return std::tie(key, what, rule, by_column);
}
template <class Key>
auto fields(const C4Row<Key>& r) {
  auto& [key, what, rule, by_column] = r;
  return std::tie(key, what, rule, by_column);
}

namespace detail {
template <class T>
struct IsSpan : std::false_type {};
template <class T, std::size_t E>
struct IsSpan<std::span<T, E>> : std::true_type {};
template <class T>
struct IsArray : std::false_type {};
template <class T, std::size_t N>
struct IsArray<std::array<T, N>> : std::true_type {};
}  // namespace detail

/// Is T a std::span (a list table) or a std::array (a fixed-shape one)?
template <class T>
inline constexpr bool kIsSpan = detail::IsSpan<std::remove_cv_t<T>>::value;
template <class T>
inline constexpr bool kIsArray = detail::IsArray<std::remove_cv_t<T>>::value;

/// Call f(field) for every scalar of a table, row or value, in order: numbers, bools, enums
/// and strings (std::string_view). Rows of a span are const; everything else keeps `T`'s constness.
template <class T, class F>
void for_each_field(T& v, F&& f) {
  using U = std::remove_const_t<T>;
  if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> || std::same_as<U, std::string_view>) {
    f(v);
  } else if constexpr (kIsSpan<U> || kIsArray<U>) {
    for (auto& e : v) for_each_field(e, f);
  } else {
    std::apply([&f](auto&... m) { (for_each_field(m, f), ...); }, fields(v));
  }
}

/// Hash of every entry of `data`: each table's name, a list's length, then every field in order
/// (64-bit FNV-1a, salvo/core/hash.h). Changing, adding or removing any entry changes it. Some
/// 30 microseconds; tables_hash() (asl.h) is tables_hash(table_data()).
std::uint64_t tables_hash(const TableData& data);

// ---- Lookups ------------------------------------------------------------------------------

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
