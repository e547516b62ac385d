#pragma once
// A program's quantities by name: a program names only what its kind of run can produce, so
// tests look its flags, counters, outcomes and end reasons up by name, never by position.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "salvo/rules/program.h"
#include "salvo/sim/result.h"

namespace salvo::test {

/// Where `name` stands in `names`, if it does.
inline std::optional<std::size_t> find_name(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names.begin());
}

/// Where `name` stands in `names`; fails the test if the program does not name it.
inline std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto i = find_name(names, name);
  INFO("name " << name);
  REQUIRE(i.has_value());
  return *i;
}

/// The value of the quantity `name` in a window's flags, counters or outcomes (or the run's end
/// reasons), `values` indexed as `names`.
inline double named(const std::vector<sim::Estimate>& values, const std::vector<std::string>& names,
                    const std::string& name) {
  REQUIRE(values.size() == names.size());
  return values[index_of(names, name)].value;
}

inline double flag(const RollProgram& p, const sim::WindowStats& w, const std::string& name) {
  return named(w.flags, p.flag_names, name);
}
inline double counter(const RollProgram& p, const sim::WindowStats& w, const std::string& name) {
  return named(w.counters, p.counter_names, name);
}
inline double outcome(const RollProgram& p, const sim::WindowStats& w, const std::string& name) {
  return named(w.outcomes, p.outcome_names, name);
}
inline double end_reason(const RollProgram& p, const sim::RunResult& r, const std::string& name) {
  return named(r.run.end_reasons, p.end_reason_names, name);
}

}  // namespace salvo::test
