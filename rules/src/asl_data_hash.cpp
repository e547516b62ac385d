// asl_data_hash.cpp — the hash of every ASL table, through the lookups the rules use.
//
// It visits every caliber, barrel, ammunition, nationality, date, range, IFT column and DR the
// tables distinguish (about 4 million lookups, a few hundred ms), so it runs once, when salvo is
// built (rules/data_hash/), and the result is compiled in: asl::rules_data_hash().

#include "salvo/core/hash.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {

std::uint64_t tables_hash() {
  // Hash every table through its lookups over every caliber, barrel, ammo, nationality, date,
  // range, IFT column and DR that matters: any change of a chart value changes the hash.
  Fnv1a f;
  auto mix = [&f](std::int64_t v) { f.i64(v); };
  const int calibers[] = {15, 20, 25, 28, 37, 40, 45, 47, 50, 57, 65, 70, 75, 76, 77, 80, 83, 84, 85, 88,
                          90, 94, 95, 100, 105, 114, 120, 122, 128, 140, 150, 152, 155, 170, 200};
  constexpr int kNationalities = static_cast<int>(Nationality::kCpva) + 1;
  const Ammo ammos[] = {Ammo::kAP, Ammo::kAPCR, Ammo::kAPDS, Ammo::kHEAT, Ammo::kHE};
  // C4 Gun/Ammo modifications, C7 To Kill (Basic TK#, Case D, unarmored), C8.12 Depletion
  // Numbers, C7.32 APCR guns, C.6 HE FP.
  for (int cal : calibers) {
    mix(he_fp(cal));
    for (int barrel = 0; barrel < 4; ++barrel) {
      Gun g;
      g.caliber_mm = cal;
      g.barrel = static_cast<Gun::Barrel>(barrel);
      for (int n = 0; n < kNationalities; ++n) mix(always_apcr(g, static_cast<Nationality>(n)));
      for (Ammo a : ammos) {
        mix(he_equivalent_fp(g, a));
        for (int n = 0; n < kNationalities; ++n) {
          const auto nat = static_cast<Nationality>(n);
          mix(basic_tk(g, a, nat).value_or(-1));
          for (int y = 1939; y <= 1953; ++y)
            for (int m = 1; m <= 12; ++m) mix(default_depletion(nat, g, a, y, m).value_or(-1));
          for (int r = 0; r <= 80; ++r)
            for (const Modifier& mod : gun_ammo_modifications(g, a, nat, r)) mix(mod.value);
        }
        mix(unarmored_final_tk(g, a).value_or(-1));
        for (int r = 0; r <= 80; ++r) mix(case_d(g, a, r, nullptr).value_or(-99));
      }
    }
  }
  // C3 To Hit Table: Vehicle, Infantry and Area Target Type rows.
  for (int r = 0; r <= 80; ++r) {
    for (bool red : {true, false}) {
      mix(basic_th_vehicle(red, r));
      mix(basic_th_infantry(red, r));
    }
    mix(basic_th_area(r));
  }
  // A25: red or black To Hit numbers by nationality and date, vehicle or Gun.
  for (int n = 0; n < kNationalities; ++n)
    for (int y = 1939; y <= 1953; ++y)
      for (int m = 1; m <= 12; ++m)
        for (bool vehicle : {true, false}) mix(uses_red_th(static_cast<Nationality>(n), y, m, vehicle, nullptr));
  // A7.3 Infantry Fire Table (Personnel and Vehicle lines), A7.309, C.7.
  for (int column : kIftColumns) {
    mix(vehicle_line_kill_number(column));
    for (int dr = -1; dr <= 16; ++dr) {
      mix(ift_personnel(column, dr));
      mix(vehicle_line(column, dr));
    }
  }
  for (int dr = 1; dr <= 6; ++dr) {
    mix(unlikely_kill(dr, false));
    mix(unlikely_kill(dr, true));
  }
  for (int fp = 0; fp <= 120; ++fp) mix(heavy_payload_drm(fp));
  // C5.1 Case A, D1.6 armor factors.
  for (int t = 0; t < 3; ++t)
    for (int n = 0; n <= 3; ++n) mix(case_a(static_cast<GunType>(t), n));
  for (int af = 0; af <= 26; ++af) mix(is_armor_factor(af) ? armor_factor_step(af, 1) * 100 + armor_factor_step(af, -1) : -1);
  return f.h;
}

}  // namespace salvo::asl
