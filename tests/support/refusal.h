#pragma once
// What a rules check refuses a situation with, as the command line shows it: "key: message".

#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "salvo/core/rules.h"

namespace salvo::test {

/// "key: message" of the error a rules check returned; fails the test if the check accepted
/// the situation.
inline std::string refusal(const std::optional<RulesError>& e) {
  REQUIRE(e.has_value());
  return e->key() + ": " + e->what();
}

}  // namespace salvo::test
