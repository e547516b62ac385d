#pragma once
// A test's list of situations kept as data, in tests/rules/cases/: each [[case]] table is one of
// the test's base situations or a named case before it (its `base`, by default "base":
// asl_test_util.h base()) with the
// settings written in the case laid over it as a situation file would lay them
// (load::edit_situation, as strictly), and what the case expects: `refused`, the "key: message"
// the rules check refuses it with, or nothing. Its other integer keys are the test's own (a
// duel's turns).

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "asl_test_util.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl_situation.h"
#include "support/refusal.h"

namespace salvo::asl::testing {

/// One [[case]] of a list.
struct Case {
  Situation situation;                       ///< named by the case's `name`, else its base's name
  std::optional<std::string> refused;        ///< "key: message", for a case the rules check refuses
  std::map<std::string, std::int64_t> ints;  ///< the case's other integer keys
};

/// The cases of tests/rules/cases/`file`, in file order, each laid over bases.at(its `base`) or the
/// named case before it.
inline std::vector<Case> cases(const std::string& file, std::map<std::string, Situation> bases) {
  const std::string path = std::string(SALVO_SOURCE_DIR) + "/tests/rules/cases/" + file;
  const toml::table doc = toml::parse_file(path);
  const toml::array* list = doc["case"].as_array();
  REQUIRE(list != nullptr);
  std::vector<Case> out;
  for (const toml::node& node : *list) {
    const toml::table* t = node.as_table();
    REQUIRE(t != nullptr);
    Case c;
    std::optional<std::string> name;
    std::string base = "base";
    toml::table settings{{"ruleset", "asl"}};
    for (const auto& [key, value] : *t) {
      if (key == "name")
        name = value.value<std::string>();
      else if (key == "base")
        base = value.value<std::string>().value();
      else if (key == "refused")
        c.refused = value.value<std::string>();
      else if (value.is_integer())
        c.ints[std::string(key.str())] = value.value<std::int64_t>().value();
      else
        settings.insert(key, value);
    }
    INFO(path << ": case " << out.size() + 1 << " (" << name.value_or(c.refused.value_or("")) << ")");
    REQUIRE(bases.count(base) == 1);
    std::ostringstream text;
    text << settings;
    c.situation = load::edit_situation(bases.at(base), text.str(), path);
    if (name) {
      c.situation.name = *name;
      REQUIRE(bases.emplace(*name, c.situation).second);
    }
    out.push_back(std::move(c));
  }
  return out;
}

/// The situations of the cases.
inline std::vector<Situation> situations_of(const std::vector<Case>& cs) {
  std::vector<Situation> out;
  for (const Case& c : cs) out.push_back(c.situation);
  return out;
}

/// The refused cases, as check_refused takes them.
inline std::vector<test::Refused<Situation>> refused_of(const std::vector<Case>& cs) {
  std::vector<test::Refused<Situation>> out;
  for (const Case& c : cs)
    if (c.refused) out.push_back({c.situation, *c.refused});
  return out;
}

/// Each refused case is refused with exactly its refusal, each other one accepted; `refused` of
/// them refused (a count, so that no case goes missing unseen).
inline void check_cases(const std::vector<Case>& cs, std::size_t refused) {
  check_refused(refused_of(cs));
  for (const Case& c : cs) {
    if (c.refused) continue;
    INFO("accepted: " << c.situation.name);
    CHECK_FALSE(check(c.situation).has_value());
  }
  CHECK(refused_of(cs).size() == refused);
}

}  // namespace salvo::asl::testing
