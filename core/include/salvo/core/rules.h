#pragma once
/// salvo/core/rules.h — what every ruleset shares: the error a rules conflict raises, a modifier
/// with its rule citation, a source of dice for the scalar reference interpreters, and the
/// longest run of turns a situation may ask for.

#include <stdexcept>
#include <string>
#include <utility>

namespace salvo {

/// A situation the rules cannot resolve. `key` is the dotted path of the offending setting
/// ("fire.intensive_fire"), so a loader can point at the file line that set it.
class RulesError : public std::runtime_error {
 public:
  RulesError(std::string key, const std::string& message) : std::runtime_error(message), key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

/// One modifier applied, with its rule.
struct Modifier {
  std::string what;  ///< "Case I: buttoned up"
  int value = 0;
  std::string rule;  ///< "C5.9", "3.5"
};

/// A source of dice for a scalar reference interpreter.
class Dice {
 public:
  virtual ~Dice() = default;
  virtual int pair() = 0;  ///< ordered (colored, white) pair of d6, face 0..35 (see pair_face())
  virtual int d6() = 0;    ///< one d6, 0..5 (the die's face - 1)
};

/// Turns (fire phases in a row, with Rally Phases between) a situation may ask for.
inline constexpr int kMaxTurns = 12;

}  // namespace salvo
