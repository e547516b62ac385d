// The ASL charts: C3 To Hit Table, C4 Gun/Ammo modifications, C7 To Kill Tables, D1.6 armor
// factors, C8.12 Ammunition Supply Chart, A25 TH# colors, C5.1 Case A, and the A7.3 Infantry Fire
// Table with what is read with it (C.6, A7.308, A7.309). All of it is kTables (asl::table_data());
// the lookups here and in asl_ift.cpp read nothing else.
#include "salvo/rules/asl_tables.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace salvo::asl {
namespace {

using B = Gun::Barrel;
using N = Nationality;

// ---- A25 National Capabilities Chart, "Ordnance TH#" column (C3.3) ----
constexpr ThColorEntry kThColor[] = {
    {N::kGerman, false, 0, 0, false, "German: black (A25)"},
    {N::kRussian, false, 0, 0, true, "Russian: red (A25)"},
    {N::kAmerican, false, 1944, 0, true, "American before 1/1944: red (A25)"},
    {N::kAmerican, false, 0, 0, false, "American from 1/1944: black (A25)"},
    {N::kBritish, false, 0, 0, false, "British: black (A25)"},
    {N::kFrench, true, 0, 0, true, "French AFV: red (A25)"},
    {N::kFrench, false, 0, 0, false, "French: black (A25)"},
    {N::kItalian, false, 0, 0, true, "Italian: red (A25)"},
    {N::kFinnish, false, 0, 0, true, "Finnish: red (A25)"},
    {N::kSwedish, false, 0, 0, true, "Swedish: red (A25)"},
    {N::kAxisMinor, false, 0, 0, true, "Axis Minor: red (A25)"},
    {N::kAlliedMinor, false, 0, 0, true, "Allied Minor: red (A25)"},
    {N::kJapanese, false, 0, 0, false, "Japanese: black (A25)"},
    {N::kChineseGmd, false, 0, 0, true, "Chinese (GMD): red (A25)"},
    {N::kChineseCommunist, false, 0, 0, true, "Chinese (Communist): red (A25)"},
    {N::kPartisan, false, 0, 0, true, "Partisan: red (A25)"},
    {N::kThai, false, 0, 0, false, "Thai: black (A25)"},
    {N::kBurmese, false, 0, 0, true, "Burmese: red (A25)"},
    {N::kIndonesian, false, 0, 0, true, "Indonesian: red (A25)"},
    {N::kKoreanUs, false, 1950, 9, true, "U.S. (Korea) to 8/1950: red (A25)"},
    {N::kKoreanUs, false, 0, 0, false, "U.S. (Korea) from 9/1950: black (A25)"},
    {N::kRok, false, 1951, 5, true, "ROK to 4/1951: red (A25)"},
    {N::kRok, false, 0, 0, false, "ROK from 5/1951: black (A25)"},
    {N::kBcfk, false, 0, 0, false, "BCFK/OUNC: black (A25)"},
    {N::kKpa, false, 0, 0, true, "KPA: red (A25)"},
    {N::kCpva, false, 0, 0, true, "CPVA: red (A25)"},
};

// ---- C4 Gun and Ammo modifications, by C3 range column (C4.1: none within 12 hexes) ----
// -1 per 12 hexes (or fraction) beyond 12, to -4 (C4.2, C4.3).
constexpr std::array<int, kThRangeColumns> kPer12 = {0, 0, -1, -1, -2, -2, -3, -3, -4, -4};
constexpr C4Row<Gun::Barrel> kC4Barrel[] = {
    {B::kShort, "short barrel (*)", "C4.11", {0, 0, -1, -1, -1, -1, -1, -1, -1, -1}},
    {B::kLong, "long barrel (L)", "C4.12", {0, 0, +1, +1, +1, +1, +1, +1, +1, +1}},
    {B::kVeryLong, "very long barrel (LL)", "C4.13", {0, 0, +1, +1, +2, +2, +2, +2, +2, +2}},
};
constexpr C4Row<Ammo> kC4Ammo[] = {
    {Ammo::kAPCR, "APCR", "C4.3", kPer12},
    {Ammo::kAPDS, "APDS", "C4.3", kPer12},
};
constexpr C4Row<int> kC4Caliber[] = {
    {57, "caliber <= 57mm", "C4.2", kPer12},
    {40, "caliber <= 40mm", "C4.2", {0, 0, -1, -1, -1, -1, -1, -1, -1, -1}},
};
// C4.3, C7.32: the German 28LL and 40LL always use the APCR modification and table.
constexpr NationalGun kAlwaysApcr[] = {{N::kGerman, "28LL"}, {N::kGerman, "40LL"}};

// ---- C7.31 AP To Kill Table, black (all-nationality) entries, one line per TK# ----
// MG, fighter and ATR entries are not ordnance Guns and are not listed here.
constexpr TkEntry kApTk[] = {
    {"15", 5},
    {"20L", 6},
    {"20LL", 7},
    {"25LL", 7},
    {"37*", 7},
    {"37", 8},
    {"47*", 8},
    {"57*", 8},
    {"70*", 8},
    {"37L", 9},
    {"40", 9},
    {"57", 9},
    {"65*", 9},
    {"76*", 9},
    {"40L", 10},
    {"45L", 10},
    {"47", 10},
    {"75*", 10},
    {"37LL", 11},
    {"45LL", 11},
    {"47L", 11},
    {"50", 11},
    {"88*", 11},  // 88*: Australian
                  // "baby 25pdr"
    {"76", 12},
    {"84*", 12},
    {"50L", 13},
    {"88", 13},
    {"120*", 13},  // 88: British 25pdr
    {"75", 14},
    {"105", 14},
    {"57L", 15},
    {"57LL", 15},
    {"75L", 17},
    {"76L", 17},
    {"80L", 17},
    {"83L", 17},
    {"85L", 17},
    {"150*", 17},
    {"152*", 17},
    {"77L", 19},
    {"200L", 19},
    {"88L", 20},
    {"90L", 21},
    {"105L", 21},
    {"150", 21},
    {"152", 21},
    {"155", 21},
    {"75LL", 23},
    {"76LL", 23},
    {"122L", 25},
    {"88LL", 27},
    {"100L", 27},
    {"120L", 27},
    {"150L", 28},
    {"155L", 28},
    {"140L", 32},
    {"128L", 33},
    {"170L", 33},
};

// ---- C7.32 APCR/APDS To Kill Table, black entries; "D" prefix = APDS ----
constexpr TkEntry kApcrTk[] = {
    {"37L", 10},  {"28LL", 12}, {"45L", 12}, {"45LL", 13}, {"47L", 13}, {"40LL", 14}, {"50", 14},    {"50L", 17},
    {"57LL", 18}, {"D57L", 18}, {"85L", 19}, {"75L", 20},  {"76L", 20}, {"88L", 23},  {"D76LL", 25}, {"90L", 27},
};

// ---- C7.31, C7.32 colored entries: they replace the black entry for that nationality ----
constexpr ColoredTkEntry kColoredTk[] = {
    {Ammo::kAP, N::kJapanese, "75*", 12},  // Year-38 Type
    {Ammo::kAP, N::kRussian, "76L", 13},   // "Russian 76L AFV armament ... 13"
    {Ammo::kAP, N::kJapanese, "76L", 13},   {Ammo::kAP, N::kRussian, "76LL", 16},
    {Ammo::kAP, N::kJapanese, "76LL", 16},  {Ammo::kAP, N::kItalian, "90L", 20},
    {Ammo::kAPCR, N::kRussian, "76L", 14},  {Ammo::kAPCR, N::kAmerican, "76L", 22},
    {Ammo::kAPCR, N::kKoreanUs, "76L", 22}, {Ammo::kAPCR, N::kRussian, "76LL", 18},
};

// ---- C7.33 HEAT To Kill Table by caliber (barrel length ignored) ----
constexpr CaliberValue kHeatTk[] = {
    {37, 26},  {40, 26},  {47, 26},  // German stick grenade (C8.31 note)
    {57, 11},  {65, 11},  {94, 11},  {70, 12}, {75, 13},  {76, 13},
    {100, 14}, {105, 15}, {114, 15}, {95, 16}, {122, 17}, {150, 21},
};

// ---- C7.34 HE To Kill Table bands: the highest caliber listing <= the gun's caliber ----
constexpr HeTkBand kHeTk[] = {
    {20, 3, 6},  {30, 4, 8},    {40, 5, 9},    {50, 6, 10},   {70, 7, 12},
    {80, 8, 14}, {100, 10, 16}, {120, 12, 18}, {150, 16, 20},
};

// ---- C7.311 (C7.321 for APCR/APDS): AP Final TK# vs unarmored by caliber band, from ----
// Up to 15mm (IFE/MG) the IFT Vehicle line is used instead.
constexpr CaliberValue kApUnarmoredTk[] = {{16, 7}, {29, 8}, {58, 9}, {85, 10}, {96, 11}};

// ---- C7.24 Case D ----
constexpr int kNa = kCaseDNa;
// AP columns: 0-1, 2, 3-6, 7-12, 13-18, 19-24, 25-30, 31-36, 37-42, 43-48, 49-54, 55-60, 61-66,
// 67-72, 73-78, 79+; APCR/APDS the first ten, then 49+.
constexpr CaseDRow<kCaseDApColumns> kCaseDAp[] = {
    {0, {2, 1, 1, 0, 0, -1, -2, -3, -4, -5, kNa, kNa, kNa, kNa, kNa, kNa}},  // <= 25mm
    {37, {1, 1, 0, 0, 0, -1, -2, -2, -3, -4, -4, -5, kNa, kNa, kNa, kNa}},   // 37-57mm
    {65, {1, 0, 0, 0, 0, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5, kNa}},      // >= 65mm
};
constexpr CaseDRow<kCaseDApcrColumns> kCaseDApcr[] = {
    {0, {3, 2, 1, 0, -2, -4, -6, kNa, kNa, kNa, kNa}},  // APCR <= 57mm
    {58, {3, 2, 1, 0, -1, -3, -4, -5, -6, -7, kNa}},    // APCR >= 75mm
};
// No row printed: AP 26-36mm reads the <= 25mm row, 58-64mm the 37-57mm row; APCR 58-74mm the
// >= 75mm row.
constexpr CaliberGap kCaseDUnprinted[] = {{Ammo::kAP, 26, 36}, {Ammo::kAP, 58, 64}, {Ammo::kAPCR, 58, 74}};

// ---- C8.12 Ammunition Supply Chart (a number printed on the counter overrides it) ----
constexpr DepletionEntry kDepletion[] = {
    // German APCR
    {N::kGerman, Ammo::kAPCR, "50L", 1941, 0, 5},
    {N::kGerman, Ammo::kAPCR, "50L", 1942, 0, 6},
    {N::kGerman, Ammo::kAPCR, "50L", 1943, 0, 5},
    {N::kGerman, Ammo::kAPCR, "50L", 1944, 0, 4},
    {N::kGerman, Ammo::kAPCR, "37L", 1941, 0, 4},
    {N::kGerman, Ammo::kAPCR, "37L", 1942, 0, 5},
    {N::kGerman, Ammo::kAPCR, "37L", 1943, 0, 4},
    {N::kGerman, Ammo::kAPCR, "37L", 1944, 0, 3},
    {N::kGerman, Ammo::kAPCR, "47L", 1941, 0, 4},
    {N::kGerman, Ammo::kAPCR, "47L", 1942, 0, 5},
    {N::kGerman, Ammo::kAPCR, "47L", 1943, 0, 4},
    {N::kGerman, Ammo::kAPCR, "47L", 1944, 0, 3},
    {N::kGerman, Ammo::kAPCR, "50", 1941, 0, 4},
    {N::kGerman, Ammo::kAPCR, "50", 1942, 0, 5},
    {N::kGerman, Ammo::kAPCR, "50", 1943, 0, 4},
    {N::kGerman, Ammo::kAPCR, "50", 1944, 0, 3},
    {N::kGerman, Ammo::kAPCR, "88L", 1941, 0, 4},
    {N::kGerman, Ammo::kAPCR, "88L", 1942, 0, 5},
    {N::kGerman, Ammo::kAPCR, "88L", 1943, 0, 4},
    {N::kGerman, Ammo::kAPCR, "88L", 1944, 0, 3},
    {N::kGerman, Ammo::kAPCR, "75L", 1942, 0, 5},
    {N::kGerman, Ammo::kAPCR, "75L", 1943, 0, 4},
    {N::kGerman, Ammo::kAPCR, "75L", 1944, 0, 3},
    {N::kGerman, Ammo::kAPCR, "76L", 1942, 0, 5},
    {N::kGerman, Ammo::kAPCR, "76L", 1943, 0, 4},
    {N::kGerman, Ammo::kAPCR, "76L", 1944, 0, 3},
    // American APCR
    {N::kAmerican, Ammo::kAPCR, "76L", 1944, 8, 4},
    {N::kAmerican, Ammo::kAPCR, "76L", 1945, 0, 5},
    {N::kAmerican, Ammo::kAPCR, "90L", 1945, 0, 5},
    // Russian APCR
    {N::kRussian, Ammo::kAPCR, "45L", 1942, 0, 4},
    {N::kRussian, Ammo::kAPCR, "45L", 1943, 0, 5},
    {N::kRussian, Ammo::kAPCR, "45L", 1944, 0, 6},
    {N::kRussian, Ammo::kAPCR, "45L", 1945, 0, 7},
    {N::kRussian, Ammo::kAPCR, "45LL", 1942, 0, 4},
    {N::kRussian, Ammo::kAPCR, "45LL", 1943, 0, 5},
    {N::kRussian, Ammo::kAPCR, "45LL", 1944, 0, 6},
    {N::kRussian, Ammo::kAPCR, "45LL", 1945, 0, 7},
    {N::kRussian, Ammo::kAPCR, "76L", 1942, 0, 4},
    {N::kRussian, Ammo::kAPCR, "76L", 1943, 0, 5},
    {N::kRussian, Ammo::kAPCR, "76L", 1944, 0, 6},
    {N::kRussian, Ammo::kAPCR, "76L", 1945, 0, 7},
    {N::kRussian, Ammo::kAPCR, "76LL", 1942, 0, 4},
    {N::kRussian, Ammo::kAPCR, "76LL", 1943, 0, 5},
    {N::kRussian, Ammo::kAPCR, "76LL", 1944, 0, 6},
    {N::kRussian, Ammo::kAPCR, "76LL", 1945, 0, 7},
    {N::kRussian, Ammo::kAPCR, "57LL", 1943, 0, 4},
    {N::kRussian, Ammo::kAPCR, "57LL", 1944, 0, 5},
    {N::kRussian, Ammo::kAPCR, "57LL", 1945, 0, 6},
    {N::kRussian, Ammo::kAPCR, "85L", 1943, 0, 4},
    {N::kRussian, Ammo::kAPCR, "85L", 1944, 0, 5},
    {N::kRussian, Ammo::kAPCR, "85L", 1945, 0, 6},
    // British APDS
    {N::kBritish, Ammo::kAPDS, "57L", 1944, 6, 6},
    {N::kBritish, Ammo::kAPDS, "57L", 1945, 0, 7},
    {N::kBritish, Ammo::kAPDS, "76LL", 1944, 9, 5},
    {N::kBritish, Ammo::kAPDS, "76LL", 1945, 0, 6},
};

// ---- A7.3 Infantry Fire Table, Personnel results: rows Final DR <= 0 .. >= 15, columns ----
// 1 2 4 6 8 12 16 20 24 30 36+ FP (eASLRB p. 692; A7.306 EX, A7.308 EX).
constexpr Outcome O = kOutcomeNoEffect, P = kOutcomePtc, NM = kOutcomeNmc, M1 = kOutcome1Mc, M2 = kOutcome2Mc,
                  M3 = kOutcome3Mc, M4 = kOutcome4Mc, K1 = kOutcomeK1, K2 = kOutcomeK2, K3 = kOutcomeK3,
                  K4 = kOutcomeK4, X1 = kOutcome1Kia, X2 = kOutcome2Kia, X3 = kOutcome3Kia, X4 = kOutcome4Kia,
                  X5 = kOutcome5Kia, X6 = kOutcome6Kia, X7 = kOutcome7Kia;

constexpr TableData kTables{
    // C3 To Hit Table (eASLRB p. 700; C3.6 EX, C3.7 EX).
    .th_range_max = {6, 12, 18, 24, 30, 36, 42, 48, 54},
    .th_vehicle_black = {10, 9, 8, 7, 6, 6, 5, 4, 3, 2},
    .th_vehicle_red = {10, 8, 7, 6, 5, 4, 3, 2, 1, 0},
    .th_infantry_black = {8, 7, 6, 5, 4, 3, 2, 1, 0, -1},
    .th_infantry_red = {8, 6, 5, 4, 3, 2, 1, 0, -1, -2},
    .th_area = {7, 7, 8, 8, 7, 7, 6, 6, 5, 5},
    .th_color = kThColor,
    .c4_barrel = kC4Barrel,
    .c4_ammo = kC4Ammo,
    .c4_caliber = kC4Caliber,
    .always_apcr = kAlwaysApcr,
    .ap_tk = kApTk,
    .apcr_tk = kApcrTk,
    .colored_tk = kColoredTk,
    .heat_tk = kHeatTk,
    .he_tk = kHeTk,
    .ap_unarmored_tk = kApUnarmoredTk,
    .heat_unarmored_tk = 11,  // C7.331
    .case_d_range_max = {1, 2, 6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 66, 72, 78},
    .case_d_ap = kCaseDAp,
    .case_d_apcr = kCaseDApcr,
    .case_d_apds = {1, 0, 0, 0, 0, 0, -1, -2, -3, -4, kNa},
    .case_d_unprinted = kCaseDUnprinted,
    .depletion = kDepletion,
    .armor_factors = {0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26},
    // C5.1: first hexspine T +1 / ST +2 / NT +3, each further hexspine +1.
    .case_a_first = {1, 2, 3},
    .case_a_further = 1,
    .ift_columns = std::to_array(kIftColumns),
    .ift = {{
        //  1   2   4   6   8  12  16  20  24  30  36
        {X1, X2, X2, X3, X3, X3, X4, X4, X5, X6, X7},  // <= 0
        {K1, X1, X1, X2, X2, X2, X3, X3, X4, X5, X6},  // 1
        {M1, K1, K2, X1, X1, X1, X2, X2, X3, X4, X5},  // 2
        {M1, M1, M2, K2, K2, K3, X1, X1, X2, X3, X4},  // 3
        {NM, M1, M1, M2, M2, M3, K3, K4, X1, X2, X3},  // 4
        {P, NM, M1, M1, M2, M2, M3, M4, K4, X1, X2},   // 5
        {O, P, NM, M1, M1, M2, M2, M3, M4, K4, X1},    // 6
        {O, O, P, NM, M1, M1, M2, M2, M3, M4, K4},     // 7
        {O, O, O, P, NM, M1, M1, M2, M2, M3, M4},      // 8
        {O, O, O, O, P, NM, M1, M1, M2, M2, M3},       // 9
        {O, O, O, O, O, P, NM, M1, M1, M2, M2},        // 10
        {O, O, O, O, O, O, P, NM, M1, M1, M2},         // 11
        {O, O, O, O, O, O, O, P, NM, M1, M1},          // 12
        {O, O, O, O, O, O, O, O, P, NM, M1},           // 13
        {O, O, O, O, O, O, O, O, O, P, NM},            // 14
        {O, O, O, O, O, O, O, O, O, O, P},             // >= 15
    }},
    // C.6: the caliber listed under each IFT column (minimum caliber for HE use).
    .ift_column_caliber = {20, 30, 37, 50, 60, 70, 80, 100, 120, 150, 200},
    // A7.308: Kill Number by column.
    .vehicle_kill_number = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13},
    // A7.309: Burn, Eliminated, Immobilized (not hull down), then no effect.
    .unlikely_kill = {kOutcomeBurn, kOutcomeEliminated, kOutcomeImmobilized, kOutcomeNoEffect, kOutcomeNoEffect,
                      kOutcomeNoEffect},
    // C5/C6 chart, in ThCase order: B +2 (+3 from woods/building/rubble); C +2 and the gun type
    // (gyrostabilized +1, T/ST +2, NT +3); C1 +1, C2 +2; C4 gyrostabilized +1; D +2; E +2; F +2;
    // G +5; H +2; I +1; J +2, J1 +3, J2 +4, J3 -1, J4 -1; K +2; L -2 at 1 hex, -1 at 2; N -1 a level;
    // C3 +2 for a LATW in the AFPh and +2 for backblast (C5.34); CX +1 (A4.51).
    .th_case_drm = {2, 3, 2, 1, 2, 3, 1, 2, 1, 2, 2, 2, 5, 2, 1, 2, 3, 4, -1, -1, 2, -2, -1, -1, 2, 2, 1},
    .tk_case_a_rear = 1,  // C7.21: rear Target Facing
    // D2.5 ESB DRM Table, in Manufacturer order: U.S. 0, Czech 0, Russian +1, British +2,
    // German +2, French +3, Italian +3, other +3.
    .esb_manufacturer_drm = {0, 0, 1, 2, 2, 3, 3, 3},
    .c4_smoke = {2, 12},  // C4.4: SMOKE at <= 12 hexes adds two to the Basic TH#
    // C8.4 Canister FP IFT Equivalency: 37mm 12, 75mm 20, 105mm 24 in the rule's table; the
    // chapter's chart also has 57mm 16 (salvo's reading: both hold).
    .canister_fp = {{{37, 12}, {57, 16}, {75, 20}, {105, 24}}},
    // C7.33 HEAT To Kill Table, the LATW listings: BAZ43 13, BAZ44+ 16, PIAT 15, PSK 26, PFk 22, PF 31.
    .latw_heat_tk = {13, 16, 15, 26, 22, 31},
    // C7.31: ATR 5, the red ATR listing 6; C7.311 unarmored target "ATR-28mm" Final TK# 7.
    .atr_tk = {5, 6, 7},
    .pf_th = {10, -2},  // C13.33: Basic TH# 10, -2 for each hex of range
    // C13.22: an ATR to 12 hexes; C13.32: a PF to 1 hex before June 1944, 2 to December 1944,
    // 3 from 1945 (a PFk and a Finnish PF: 1, A25.76).
    .latw_max_range = {12, 1, 2, 3},
    // C13.31: a shot on a Final dr <= 3 (Finns <= 2, A25.76); drm +1 in August-September 1943,
    // -1 in 1945, +1 vs other than an AFV, +1 CX, +1 a HS or crew, +2 a SMC; C13.36: an Original TH
    // DR of 12 (11 for Inexperienced Personnel, A19.32) harms the firer.
    .pf_check = {3, 2, 1, -1, 1, 1, 1, 2, 12, 11},
    .piat_breakdown = {10, 2},  // C13.63: B10, repaired on a dr of 1-2
    // From: BAZ 11/1942 (C13.4 EXC), the BAZ 44+ To Kill column 1944 (C13.43), PIAT 4/1943 (C13.6),
    // PSK 9/1943 (C13.48), PF 10/1943 (C13.3), PFk 8/1943 (C13.3), Finnish PF 7/1944 (A25.76).
    .latw_dates = {{{1942, 11}, {1944, 1}, {1943, 4}, {1943, 9}, {1943, 10}, {1943, 8}, {1944, 7}}},
};

std::string designation(const Gun& g) {
  std::string s = std::to_string(g.caliber_mm);
  switch (g.barrel) {
    case Gun::Barrel::kNormal:
      break;
    case Gun::Barrel::kShort:
      s += '*';
      break;
    case Gun::Barrel::kLong:
      s += 'L';
      break;
    case Gun::Barrel::kVeryLong:
      s += "LL";
      break;
  }
  return s;
}

std::optional<int> find_tk(std::span<const TkEntry> table, std::string_view gun) {
  for (const TkEntry& e : table)
    if (e.gun == gun) return e.tk;
  return std::nullopt;
}

// C7.34: the highest band whose caliber listing is <= the caliber; -1 below the first.
int he_band(int caliber) {
  int band = -1;
  for (std::size_t i = 0; i < kTables.he_tk.size(); ++i)
    if (caliber >= kTables.he_tk[i].caliber) band = static_cast<int>(i);
  return band;
}

// C7.24: the range column of a Case D row with `columns` columns.
int case_d_column(int range, std::size_t columns) {
  for (std::size_t i = 0; i + 1 < columns; ++i)
    if (range <= kTables.case_d_range_max[i]) return static_cast<int>(i);
  return static_cast<int>(columns) - 1;
}

// C7.24: the row read for a caliber, the last one whose caliber is <= it (the first below all).
template <std::size_t N>
const CaseDRow<N>& case_d_row(std::span<const CaseDRow<N>> rows, int caliber) {
  std::size_t row = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (caliber >= rows[i].caliber) row = i;
  return rows[row];
}

}  // namespace

const TableData& table_data() { return kTables; }

int th_range_column(int range) {
  for (std::size_t i = 0; i < kTables.th_range_max.size(); ++i)
    if (range <= kTables.th_range_max[i]) return static_cast<int>(i);
  return static_cast<int>(kTables.th_range_max.size());
}

int basic_th_vehicle(bool red, int range) {
  // C3 To Hit Table, Vehicle Target Type.
  const auto c = static_cast<std::size_t>(th_range_column(range));
  return red ? kTables.th_vehicle_red[c] : kTables.th_vehicle_black[c];
}

bool uses_red_th(Nationality n, int year, int month, bool vehicle, std::string* reason) {
  // A25 National Capabilities Chart, "Ordnance TH#" column (C3.3).
  for (const ThColorEntry& e : kTables.th_color) {
    if (e.nationality != n || (e.vehicle_only && !vehicle)) continue;
    if (e.ends_year != 0 &&
        (year > e.ends_year || (year == e.ends_year && (e.ends_month == 0 || month >= e.ends_month))))
      continue;
    if (reason) *reason = e.reason;
    return e.red;
  }
  return false;
}

bool always_apcr(const Gun& gun, Nationality n) {
  // C4.3, C7.32.
  const std::string d = designation(gun);
  for (const NationalGun& e : kTables.always_apcr)
    if (e.nationality == n && e.gun == d) return true;
  return false;
}

std::vector<Modifier> gun_ammo_modifications(const Gun& gun, Ammo ammo, Nationality n, int range) {
  std::vector<Modifier> mods;
  const auto col = static_cast<std::size_t>(th_range_column(range));
  // C4.1: all C4 modifications apply only beyond 12 hexes (their columns hold 0 up to 12).
  auto add = [&](const auto& row) {
    if (const int v = row.by_column[col]; v != 0) mods.push_back({std::string(row.what), v, std::string(row.rule)});
  };
  for (const auto& row : kTables.c4_barrel)
    if (row.key == gun.barrel) add(row);
  // C4.3: APDS, or APCR (also for the guns that always use it).
  Ammo special = Ammo::kNone;
  if (ammo == Ammo::kAPDS)
    special = Ammo::kAPDS;
  else if (ammo == Ammo::kAPCR || always_apcr(gun, n))
    special = Ammo::kAPCR;
  if (special != Ammo::kNone)
    for (const auto& row : kTables.c4_ammo)
      if (row.key == special) add(row);
  for (const auto& row : kTables.c4_caliber)
    if (gun.caliber_mm <= row.key) add(row);
  return mods;
}

std::optional<int> basic_tk(const Gun& gun, Ammo ammo, Nationality n) {
  const std::string d = designation(gun);
  switch (ammo) {
    case Ammo::kAP:
    case Ammo::kAPCR:
      // C7.31, C7.32 colored entries first.
      for (const ColoredTkEntry& e : kTables.colored_tk)
        if (e.ammo == ammo && e.nationality == n && e.gun == d) return e.tk;
      return find_tk(ammo == Ammo::kAP ? kTables.ap_tk : kTables.apcr_tk, d);
    case Ammo::kAPDS:
      return find_tk(kTables.apcr_tk, "D" + d);
    case Ammo::kHEAT:
      for (const CaliberValue& e : kTables.heat_tk)
        if (e.caliber == gun.caliber_mm) return e.value;
      return std::nullopt;
    case Ammo::kHE: {
      const int band = he_band(gun.caliber_mm);
      if (band < 0) return std::nullopt;
      return kTables.he_tk[static_cast<std::size_t>(band)].armored;
    }
    case Ammo::kNone:
      return std::nullopt;
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
    case Ammo::kAP:
      v = case_d_row(kTables.case_d_ap, cal).change[static_cast<std::size_t>(case_d_column(range, kCaseDApColumns))];
      break;
    case Ammo::kAPCR:
      v = case_d_row(kTables.case_d_apcr, cal)
              .change[static_cast<std::size_t>(case_d_column(range, kCaseDApcrColumns))];
      break;
    case Ammo::kAPDS:
      v = kTables.case_d_apds[static_cast<std::size_t>(case_d_column(range, kCaseDApcrColumns))];
      break;
  }
  if (uncertain)
    for (const CaliberGap& g : kTables.case_d_unprinted)
      if (g.ammo == ammo && cal >= g.first && cal <= g.last) *uncertain = true;
  if (v == kNa) return std::nullopt;
  return v;
}

std::optional<int> unarmored_final_tk(const Gun& gun, Ammo ammo) {
  const int cal = gun.caliber_mm;
  switch (ammo) {
    case Ammo::kAP:
    case Ammo::kAPCR:  // C7.321: APCR/APDS vs unarmored use the AP table values
    case Ammo::kAPDS: {
      // C7.311 (IFE/MG up to 15mm use the IFT vehicle line instead: no band).
      std::optional<int> tk;
      for (const CaliberValue& e : kTables.ap_unarmored_tk)
        if (cal >= e.caliber) tk = e.value;
      return tk;
    }
    case Ammo::kHEAT:
      return kTables.heat_unarmored_tk;  // C7.331
    case Ammo::kHE: {
      const int band = he_band(cal);
      if (band < 0) return std::nullopt;
      return kTables.he_tk[static_cast<std::size_t>(band)].unarmored;  // C7.34
    }
    case Ammo::kNone:
      return std::nullopt;
  }
  return std::nullopt;
}

bool is_armor_factor(int af) {
  const auto& scale = kTables.armor_factors;
  return std::find(scale.begin(), scale.end(), af) != scale.end();
}

int armor_factor_step(int af, int steps) {
  const auto& scale = kTables.armor_factors;
  auto it = std::find(scale.begin(), scale.end(), af);
  if (it == scale.end()) return af;
  const auto i =
      std::clamp<std::ptrdiff_t>((it - scale.begin()) + steps, 0, static_cast<std::ptrdiff_t>(scale.size()) - 1);
  return scale[static_cast<std::size_t>(i)];
}

std::optional<int> default_depletion(Nationality n, const Gun& gun, Ammo ammo, int year, int month) {
  // C8.12 Ammunition Supply Chart (a number printed on the counter overrides it).
  if (ammo != Ammo::kAPCR && ammo != Ammo::kAPDS) return std::nullopt;
  const std::string d = designation(gun);
  for (const DepletionEntry& e : kTables.depletion)
    if (e.nationality == n && e.ammo == ammo && e.gun == d && e.year == year &&
        (e.from_month == 0 || month >= e.from_month))
      return e.depletion;
  return std::nullopt;
}

int case_drm(ThCase c) { return kTables.th_case_drm[static_cast<std::size_t>(c)]; }

int case_a(GunType type, int hexspines) {
  // C5.1: the first hexspine by Gun type, each further one alike.
  if (hexspines <= 0) return 0;
  const std::size_t t = type == GunType::kT ? 0 : type == GunType::kST ? 1 : 2;
  return kTables.case_a_first[t] + (hexspines - 1) * kTables.case_a_further;
}

}  // namespace salvo::asl
