// The ASL charts: C3 To Hit Table, C4 Gun/Ammo modifications, C7 To Kill Tables, D1.6 armor
// factors, C8.12 Ammunition Supply Chart, A25 TH# colors, C5.1 Case A.
#include "salvo/rules/asl_tables.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace salvo::asl {
namespace {

// Nationality groups used by colored chart entries (C7.31 notes).
bool russian_or_japanese(Nationality n) { return n == Nationality::kRussian || n == Nationality::kJapanese; }

std::string designation(const Gun& g) {
  std::string s = std::to_string(g.caliber_mm);
  switch (g.barrel) {
    case Gun::Barrel::kNormal: break;
    case Gun::Barrel::kShort: s += '*'; break;
    case Gun::Barrel::kLong: s += 'L'; break;
    case Gun::Barrel::kVeryLong: s += "LL"; break;
  }
  return s;
}

struct TkEntry {
  int tk;
  std::vector<std::string_view> guns;
};

std::optional<int> find_tk(const std::vector<TkEntry>& table, std::string_view gun) {
  for (const TkEntry& e : table)
    for (std::string_view g : e.guns)
      if (g == gun) return e.tk;
  return std::nullopt;
}

// C7.31 AP To Kill Table, black (all-nationality) entries. Colored entries are handled in
// basic_tk(). MG, fighter and ATR entries are not ordnance Guns and are not listed here.
const std::vector<TkEntry> kApTable = {
    {5, {"15"}},
    {6, {"20L"}},
    {7, {"20LL", "25LL", "37*"}},
    {8, {"37", "47*", "57*", "70*"}},
    {9, {"37L", "40", "57", "65*", "76*"}},
    {10, {"40L", "45L", "47", "75*"}},
    {11, {"37LL", "45LL", "47L", "50", "88*"}},  // 88*: Australian "baby 25pdr"
    {12, {"76", "84*"}},
    {13, {"50L", "88", "120*"}},  // 88: British 25pdr
    {14, {"75", "105"}},
    {15, {"57L", "57LL"}},
    {17, {"75L", "76L", "80L", "83L", "85L", "150*", "152*"}},
    {19, {"77L", "200L"}},
    {20, {"88L"}},
    {21, {"90L", "105L", "150", "152", "155"}},
    {23, {"75LL", "76LL"}},
    {25, {"122L"}},
    {27, {"88LL", "100L", "120L"}},
    {28, {"150L", "155L"}},
    {32, {"140L"}},
    {33, {"128L", "170L"}},
};

// C7.32 APCR/APDS To Kill Table, black entries; "D" prefix = APDS.
const std::vector<TkEntry> kApcrTable = {
    {10, {"37L"}},
    {12, {"28LL", "45L"}},
    {13, {"45LL", "47L"}},
    {14, {"40LL", "50"}},
    {17, {"50L"}},
    {18, {"57LL", "D57L"}},
    {19, {"85L"}},
    {20, {"75L", "76L"}},
    {23, {"88L"}},
    {25, {"D76LL"}},
    {27, {"90L"}},
};

// C7.33 HEAT To Kill Table by caliber (barrel length ignored).
constexpr std::array<std::pair<int, int>, 16> kHeatTable = {{
    {37, 26}, {40, 26}, {47, 26},  // German stick grenade (C8.31 note)
    {57, 11}, {65, 11}, {94, 11}, {70, 12}, {75, 13}, {76, 13}, {100, 14}, {105, 15}, {114, 15},
    {95, 16}, {122, 17}, {150, 21}, {0, 0},
}};

// C7.34 HE To Kill Table bands: highest caliber listing <= the gun's caliber.
constexpr std::array<int, 9> kHeBands = {20, 30, 40, 50, 70, 80, 100, 120, 150};
constexpr std::array<int, 9> kHeArmoredBasic = {3, 4, 5, 6, 7, 8, 10, 12, 16};
constexpr std::array<int, 9> kHeUnarmoredFinal = {6, 8, 9, 10, 12, 14, 16, 18, 20};

int he_band(int caliber) {
  int band = -1;
  for (std::size_t i = 0; i < kHeBands.size(); ++i)
    if (caliber >= kHeBands[i]) band = static_cast<int>(i);
  return band;
}

// C7.24 Case D. kNa marks "NA" (no kill possible).
constexpr int kNa = -99;
// AP columns: 0-1, 2, 3-6, 7-12, 13-18, 19-24, 25-30, 31-36, 37-42, 43-48, 49-54, 55-60, 61-66,
// 67-72, 73-78, 79+.
constexpr std::array<std::array<int, 16>, 3> kCaseDAp = {{
    {2, 1, 1, 0, 0, -1, -2, -3, -4, -5, kNa, kNa, kNa, kNa, kNa, kNa},  // <= 25mm
    {1, 1, 0, 0, 0, -1, -2, -2, -3, -4, -4, -5, kNa, kNa, kNa, kNa},    // 37-57mm
    {1, 0, 0, 0, 0, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5, kNa},       // >= 65mm
}};
// APCR/APDS columns: 0-1, 2, 3-6, 7-12, 13-18, 19-24, 25-30, 31-36, 37-42, 43-48, 49+.
constexpr std::array<std::array<int, 11>, 3> kCaseDApcr = {{
    {3, 2, 1, 0, -2, -4, -6, kNa, kNa, kNa, kNa},  // APCR <= 57mm
    {3, 2, 1, 0, -1, -3, -4, -5, -6, -7, kNa},     // APCR >= 75mm
    {1, 0, 0, 0, 0, 0, -1, -2, -3, -4, kNa},       // APDS
}};

int case_d_column(int range, int columns) {
  if (range <= 1) return 0;
  if (range == 2) return 1;
  if (range <= 6) return 2;
  return std::min(columns - 1, 3 + (range - 7) / 6);
}

constexpr std::array<int, 11> kArmorScale = {0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26};

}  // namespace

int th_range_column(int range) { return range <= 6 ? 0 : std::min(9, (range - 1) / 6); }

int basic_th_vehicle(bool red, int range) {
  // C3 To Hit Table, Vehicle Target Type.
  static constexpr std::array<int, 10> kBlack = {10, 9, 8, 7, 6, 6, 5, 4, 3, 2};
  static constexpr std::array<int, 10> kRed = {10, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  const auto c = static_cast<std::size_t>(th_range_column(range));
  return red ? kRed[c] : kBlack[c];
}

bool uses_red_th(Nationality n, int year, int month, bool vehicle, std::string* reason) {
  // A25 National Capabilities Chart, "Ordnance TH#" column (C3.3).
  auto say = [&](const char* text) {
    if (reason) *reason = text;
  };
  switch (n) {
    case Nationality::kGerman: say("German: black (A25)"); return false;
    case Nationality::kRussian: say("Russian: red (A25)"); return true;
    case Nationality::kAmerican:
      if (year < 1944) { say("American before 1/1944: red (A25)"); return true; }
      say("American from 1/1944: black (A25)"); return false;
    case Nationality::kBritish: say("British: black (A25)"); return false;
    case Nationality::kFrench:
      if (vehicle) { say("French AFV: red (A25)"); return true; }
      say("French: black (A25)"); return false;
    case Nationality::kItalian: say("Italian: red (A25)"); return true;
    case Nationality::kFinnish: say("Finnish: red (A25)"); return true;
    case Nationality::kSwedish: say("Swedish: red (A25)"); return true;
    case Nationality::kAxisMinor: say("Axis Minor: red (A25)"); return true;
    case Nationality::kAlliedMinor: say("Allied Minor: red (A25)"); return true;
    case Nationality::kJapanese: say("Japanese: black (A25)"); return false;
    case Nationality::kChineseGmd: say("Chinese (GMD): red (A25)"); return true;
    case Nationality::kChineseCommunist: say("Chinese (Communist): red (A25)"); return true;
    case Nationality::kPartisan: say("Partisan: red (A25)"); return true;
    case Nationality::kThai: say("Thai: black (A25)"); return false;
    case Nationality::kBurmese: say("Burmese: red (A25)"); return true;
    case Nationality::kIndonesian: say("Indonesian: red (A25)"); return true;
    case Nationality::kKoreanUs:
      if (year < 1950 || (year == 1950 && month <= 8)) { say("U.S. (Korea) to 8/1950: red (A25)"); return true; }
      say("U.S. (Korea) from 9/1950: black (A25)"); return false;
    case Nationality::kRok:
      if (year < 1951 || (year == 1951 && month <= 4)) { say("ROK to 4/1951: red (A25)"); return true; }
      say("ROK from 5/1951: black (A25)"); return false;
    case Nationality::kBcfk: say("BCFK/OUNC: black (A25)"); return false;
    case Nationality::kKpa: say("KPA: red (A25)"); return true;
    case Nationality::kCpva: say("CPVA: red (A25)"); return true;
  }
  return false;
}

bool always_apcr(const Gun& gun, Nationality n) {
  // C4.3, C7.32: the German 28LL and 40LL always use the APCR modification and table.
  return n == Nationality::kGerman && gun.barrel == Gun::Barrel::kVeryLong &&
         (gun.caliber_mm == 28 || gun.caliber_mm == 40);
}

std::vector<Modifier> gun_ammo_modifications(const Gun& gun, Ammo ammo, Nationality n, int range) {
  std::vector<Modifier> mods;
  const int col = th_range_column(range);  // 0: 0-6, 1: 7-12, 2: 13-18, 3: 19-24, 4: 25-30 ...
  if (col < 2) return mods;  // C4.1: all C4 modifications apply only beyond 12 hexes
  const int per12 = (col - 2) / 2 + 1;  // -1 per 12 hexes (or fraction) beyond 12, chart to -4
  switch (gun.barrel) {
    case Gun::Barrel::kShort: mods.push_back({"short barrel (*)", -1, "C4.11"}); break;
    case Gun::Barrel::kLong: mods.push_back({"long barrel (L)", +1, "C4.12"}); break;
    case Gun::Barrel::kVeryLong:
      mods.push_back({"very long barrel (LL)", col >= 4 ? +2 : +1, "C4.13"});
      break;
    case Gun::Barrel::kNormal: break;
  }
  if (ammo == Ammo::kAPCR || ammo == Ammo::kAPDS || always_apcr(gun, n))
    mods.push_back({ammo == Ammo::kAPDS ? "APDS" : "APCR", -per12, "C4.3"});
  if (gun.caliber_mm <= 57) mods.push_back({"caliber <= 57mm", -per12, "C4.2"});
  if (gun.caliber_mm <= 40) mods.push_back({"caliber <= 40mm", -1, "C4.2"});
  return mods;
}

std::optional<int> basic_tk(const Gun& gun, Ammo ammo, Nationality n) {
  const std::string d = designation(gun);
  switch (ammo) {
    case Ammo::kAP:
      // C7.31 colored entries first.
      if (d == "75*" && n == Nationality::kJapanese) return 12;  // Year-38 Type
      if (d == "76L" && russian_or_japanese(n)) return 13;       // "Russian 76L AFV armament ... 13"
      if (d == "76LL" && russian_or_japanese(n)) return 16;
      if (d == "90L" && n == Nationality::kItalian) return 20;
      return find_tk(kApTable, d);
    case Ammo::kAPCR:
      if (d == "76L" && n == Nationality::kRussian) return 14;
      if (d == "76L" && (n == Nationality::kAmerican || n == Nationality::kKoreanUs)) return 22;
      if (d == "76LL" && n == Nationality::kRussian) return 18;
      return find_tk(kApcrTable, d);
    case Ammo::kAPDS:
      return find_tk(kApcrTable, "D" + d);
    case Ammo::kHEAT:
      for (const auto& [cal, tk] : kHeatTable)
        if (cal == gun.caliber_mm && tk > 0) return tk;
      return std::nullopt;
    case Ammo::kHE: {
      const int band = he_band(gun.caliber_mm);
      if (band < 0) return std::nullopt;
      return kHeArmoredBasic[static_cast<std::size_t>(band)];
    }
    case Ammo::kNone: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<int> case_d(const Gun& gun, Ammo ammo, int range, bool* uncertain) {
  if (uncertain) *uncertain = false;
  const int cal = gun.caliber_mm;
  int v = 0;
  switch (ammo) {
    case Ammo::kHEAT:
    case Ammo::kHE:
    case Ammo::kNone:
      return 0;  // C7.24: no Case D for HEAT (C7.332) or HE (C7.34)
    case Ammo::kAP: {
      std::size_t row = cal <= 25 ? 0 : cal < 37 ? 0 : cal <= 57 ? 1 : cal < 65 ? 1 : 2;
      if (uncertain && ((cal > 25 && cal < 37) || (cal > 57 && cal < 65))) *uncertain = true;
      v = kCaseDAp[row][static_cast<std::size_t>(case_d_column(range, 16))];
      break;
    }
    case Ammo::kAPCR:
    case Ammo::kAPDS: {
      std::size_t row = ammo == Ammo::kAPDS ? 2 : cal <= 57 ? 0 : 1;
      if (uncertain && ammo == Ammo::kAPCR && cal > 57 && cal < 75) *uncertain = true;
      v = kCaseDApcr[row][static_cast<std::size_t>(case_d_column(range, 11))];
      break;
    }
  }
  if (v == kNa) return std::nullopt;
  return v;
}

std::optional<int> unarmored_final_tk(const Gun& gun, Ammo ammo) {
  const int cal = gun.caliber_mm;
  switch (ammo) {
    case Ammo::kAP:
    case Ammo::kAPCR:  // C7.321: APCR/APDS vs unarmored use the AP table values
    case Ammo::kAPDS:
      // C7.311 (IFE/MG up to 15mm use the IFT vehicle line instead).
      if (cal <= 15) return std::nullopt;
      if (cal <= 28) return 7;
      if (cal <= 57) return 8;
      if (cal <= 84) return 9;
      if (cal <= 95) return 10;
      return 11;
    case Ammo::kHEAT: return 11;  // C7.331
    case Ammo::kHE: {
      const int band = he_band(cal);
      if (band < 0) return std::nullopt;
      return kHeUnarmoredFinal[static_cast<std::size_t>(band)];  // C7.34
    }
    case Ammo::kNone: return std::nullopt;
  }
  return std::nullopt;
}

bool is_armor_factor(int af) {
  return std::find(kArmorScale.begin(), kArmorScale.end(), af) != kArmorScale.end();
}

int armor_factor_step(int af, int steps) {
  auto it = std::find(kArmorScale.begin(), kArmorScale.end(), af);
  if (it == kArmorScale.end()) return af;
  const auto i = std::clamp<std::ptrdiff_t>((it - kArmorScale.begin()) + steps, 0,
                                            static_cast<std::ptrdiff_t>(kArmorScale.size()) - 1);
  return kArmorScale[static_cast<std::size_t>(i)];
}

std::optional<int> default_depletion(Nationality n, const Gun& gun, Ammo ammo, int year, int month) {
  // C8.12 Ammunition Supply Chart (a number printed on the counter overrides it).
  const std::string d = designation(gun);
  auto by_year = [&](std::initializer_list<std::pair<int, int>> ys) -> std::optional<int> {
    for (const auto& [y, dep] : ys)
      if (y == year) return dep;
    return std::nullopt;
  };
  if (ammo == Ammo::kAPCR) {
    if (n == Nationality::kGerman) {
      if (d == "50L") return by_year({{1941, 5}, {1942, 6}, {1943, 5}, {1944, 4}});
      if (d == "37L" || d == "47L" || d == "50" || d == "88L")
        return by_year({{1941, 4}, {1942, 5}, {1943, 4}, {1944, 3}});
      if (d == "75L" || d == "76L") return by_year({{1942, 5}, {1943, 4}, {1944, 3}});
    }
    if (n == Nationality::kAmerican) {
      if (d == "76L") {
        if (year == 1944 && month >= 8) return 4;
        if (year == 1945) return 5;
      }
      if (d == "90L" && year == 1945) return 5;
    }
    if (n == Nationality::kRussian) {
      if (d == "45L" || d == "45LL" || d == "76L" || d == "76LL")
        return by_year({{1942, 4}, {1943, 5}, {1944, 6}, {1945, 7}});
      if (d == "57LL" || d == "85L") return by_year({{1943, 4}, {1944, 5}, {1945, 6}});
    }
  }
  if (ammo == Ammo::kAPDS && n == Nationality::kBritish) {
    if (d == "57L") {
      if (year == 1944 && month >= 6) return 6;
      if (year == 1945) return 7;
    }
    if (d == "76LL") {
      if (year == 1944 && month >= 9) return 5;
      if (year == 1945) return 6;
    }
  }
  return std::nullopt;
}

int case_a(GunType type, int hexspines) {
  // C5.1: first hexspine T +1 / ST +2 / NT +3, each further hexspine +1.
  if (hexspines <= 0) return 0;
  const int first = type == GunType::kT ? 1 : type == GunType::kST ? 2 : 3;
  return first + (hexspines - 1);
}

}  // namespace salvo::asl
