#pragma once
// A test's list of rows kept as data: the [[case]] tables of a TOML file under tests/, read
// strictly, so that each row is written once (its comments beside it) and none goes missing
// unseen. A case's values are strings, or arrays of strings; the test says which keys it reads.

#include <catch2/catch.hpp>

#include <cstddef>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "salvo/load/toml_util.h"

namespace salvo::test {

/// One [[case]] of a fixture: each key's strings (a string value is one).
struct FixtureCase {
  std::map<std::string, std::vector<std::string>> values;

  /// Whether the case sets `key`.
  bool has(const std::string& key) const { return values.count(key) == 1; }
  /// The strings of `key` (a string value is one); none if the case does not set it.
  std::vector<std::string> strings(const std::string& key) const {
    return has(key) ? values.at(key) : std::vector<std::string>{};
  }
  /// The one string of `key`, which the case must set.
  std::string string(const std::string& key) const {
    if (strings(key).size() != 1) FAIL("expected one string for " << key);
    return values.at(key)[0];
  }
  /// The strings of `key` as lines of a file, each ended by "\n".
  std::string lines(const std::string& key) const {
    std::string out;
    for (const std::string& line : strings(key)) out += line + "\n";
    return out;
  }
};

/// The [[case]] tables of tests/`file`, in file order. Fails the test on a key outside `keys`, a
/// value neither a string nor an array of strings, any top-level key but `case`, or a count of
/// cases read that differs from the count of "[[case]]" lines in the file. (It checks with FAIL
/// only where one is wrong, so that a test's assertion count is that of its own checks.)
inline std::vector<FixtureCase> fixture_cases(const std::string& file, const std::set<std::string>& keys) {
  const std::string path = std::string(SALVO_SOURCE_DIR) + "/tests/" + file;
  const std::string text = load::read_text_file(path);
  const toml::table doc = toml::parse(text, path);
  const toml::array* list = doc["case"].as_array();
  if (doc.size() != 1 || list == nullptr) FAIL(path << ": expected [[case]] tables and nothing else");
  std::vector<FixtureCase> out;
  for (const toml::node& node : *list) {
    const std::string where = path + ": case " + std::to_string(out.size() + 1);
    const toml::table* t = node.as_table();
    if (t == nullptr) FAIL(where << ": expected a table");
    FixtureCase c;
    for (const auto& [key, value] : *t) {
      const std::string name(key.str());
      if (keys.count(name) == 0) FAIL(where << ": unknown key " << name);
      std::vector<std::string>& strings = c.values[name];
      const auto add = [&](const toml::node& s) {
        if (!s.is_string()) FAIL(where << ": " << name << ": expected a string or an array of strings");
        strings.push_back(s.value<std::string>().value());
      };
      if (const toml::array* a = value.as_array())
        for (const toml::node& s : *a) add(s);
      else
        add(value);
    }
    out.push_back(std::move(c));
  }
  // Each "[[case]]" header of the file is a case read.
  std::istringstream in(text);
  std::size_t headers = 0;
  for (std::string line; std::getline(in, line);) headers += line.rfind("[[case]]", 0) == 0 ? 1 : 0;
  if (out.size() != headers) FAIL(path << ": " << out.size() << " cases read, " << headers << " [[case]] lines");
  return out;
}

}  // namespace salvo::test
