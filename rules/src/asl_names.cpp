#include <charconv>

#include "salvo/rules/asl.h"

namespace salvo::asl {

const char* flag_name(int flag) {
  static constexpr const char* kNames[kNumFlags] = {
      "hit",          "critical",     "multiple_hit",   "kill",        "burn",        "eliminated",
      "immobilized",  "shock",        "possible_shock", "dud",         "malfunction", "disabled",
      "low_ammo",     "depleted",     "ptc_or_worse",   "mc_or_worse", "casualty",    "kia",
      "firer_pinned", "firer_broken", "firer_casualty"};
  return flag >= 0 && flag < kNumFlags ? kNames[flag] : "?";
}

const char* counter_name(int counter) {
  static constexpr const char* kNames[kNumCounters] = {"shots", "hits"};
  return counter >= 0 && counter < kNumCounters ? kNames[counter] : "?";
}

const char* outcome_name(int outcome) {
  static constexpr const char* kNames[kNumOutcomes] = {
      "no_shot",     "miss",  "dud",        "no_effect", "possible_shock",
      "immobilized", "shock", "eliminated", "burn",      "ptc",
      "nmc",         "1mc",   "2mc",        "3mc",       "4mc",
      "k_1",         "k_2",   "k_3",        "k_4",       "1kia",
      "2kia",        "3kia",  "4kia",       "5kia",      "6kia",
      "7kia"};
  return outcome >= 0 && outcome < kNumOutcomes ? kNames[outcome] : "?";
}

const char* end_reason_name(int reason) {
  static constexpr const char* kNames[kNumEndReasons] = {"rof_exhausted",    "intensive_fire_done", "malfunction",
                                                         "target_destroyed", "target_effect",       "shot_cap",
                                                         "out_of_ammo",      "follow_up_done",      "pf_check_failed"};
  return reason >= 0 && reason < kNumEndReasons ? kNames[reason] : "?";
}

namespace duel {
const char* status_name(int status) {
  static constexpr const char* kNames[kNumStatus] = {"intact", "immobilized", "shocked", "unconfirmed_kill",
                                                     "destroyed"};
  return status >= 0 && status < kNumStatus ? kNames[status] : "?";
}

void add_names(RollProgram& p, int turns) {
  using Kind = RollProgram::TurnSeries::Kind;
  for (int i = 0; i < kNumFlags; ++i) p.flag_names.emplace_back(flag_name(i));
  for (const char* what : {"destroyed_by", "gun_out", "gun_out_by"}) p.add_turn_series(Kind::kFlag, what, turns);
  for (int i = 0; i < kNumStatus; ++i) p.outcome_names.emplace_back(status_name(i));
  p.add_turn_series(Kind::kEndReason, "destroyed", turns);
  for (const char* why : {"turns_over", "gun_disabled", "out_of_ammo"}) p.end_reason_names.emplace_back(why);
}

std::vector<std::string> flag_names(int turns) {
  RollProgram p;
  add_names(p, turns);
  return p.flag_names;
}

std::vector<std::string> end_reason_names(int turns) {
  RollProgram p;
  add_names(p, turns);
  return p.end_reason_names;
}
}  // namespace duel

std::optional<Gun> parse_gun(std::string_view written) {
  // Read without regard to case ("75ll" = "75LL"); kept in the counters' upper case.
  std::string upper(written);
  for (char& ch : upper) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
  const std::string_view d = upper;
  Gun g;
  g.designation = upper;
  std::size_t i = 0;
  while (i < d.size() && d[i] >= '0' && d[i] <= '9') ++i;
  if (i == 0 || i > 3) return std::nullopt;
  int cal = 0;
  std::from_chars(d.data(), d.data() + i, cal);
  if (cal < 1) return std::nullopt;
  g.caliber_mm = cal;
  const std::string_view rest = d.substr(i);
  if (rest.empty())
    g.barrel = Gun::Barrel::kNormal;
  else if (rest == "*")
    g.barrel = Gun::Barrel::kShort;
  else if (rest == "L")
    g.barrel = Gun::Barrel::kLong;
  else if (rest == "LL")
    g.barrel = Gun::Barrel::kVeryLong;
  else
    return std::nullopt;
  return g;
}

}  // namespace salvo::asl
