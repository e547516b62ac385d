#pragma once
// What a rules check refuses a situation with, as the command line shows it: "key: message".

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "salvo/core/rules.h"

namespace salvo::test {

/// "key: message" of the error a rules check returned; fails the test if the check accepted
/// the situation.
inline std::string refusal(const std::optional<RulesError>& e) {
  REQUIRE(e.has_value());
  return e->key() + ": " + e->what();
}

/// `s` changed by `edit`: one case of a table of situations.
template <class Situation, class Edit>
Situation with(Situation s, Edit&& edit) {
  edit(s);
  return s;
}

/// A situation a rules check refuses, and what it refuses it with ("key: message").
template <class Situation>
struct Refused {
  Situation situation;
  std::string refusal;
};

/// Each case's situation is refused with exactly its refusal; `refusal_of(situation)` is what
/// the rules check refuses it with.
template <class Situation, class RefusalOf>
void check_refused(RefusalOf&& refusal_of, const std::vector<Refused<Situation>>& cases) {
  for (const Refused<Situation>& c : cases) {
    INFO("expected: " << c.refusal);
    CHECK(refusal_of(c.situation) == c.refusal);
  }
}

}  // namespace salvo::test
