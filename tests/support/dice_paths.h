#pragma once
// Every dice sequence a scalar interpreter can ask for, each with its probability: an odometer
// over the draws of each path (36 faces for an ordered pair, 6 for a dr). The exhaustive
// enumerations of the ASL and 1943 tests are built on it.

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <vector>

#include "salvo/core/rules.h"

namespace salvo::test {

/// Run `play` (which draws from the dice it is given) once per dice sequence, and call
/// `visit(p)` after each complete play with the sequence's probability. A play that asks for
/// more than `max_draws` draws is cut: its probability goes to the return value (the truncated
/// mass) and `visit` is not called. Throws std::runtime_error past `max_paths` sequences, and
/// std::logic_error if a sequence changes shape (the same draws asking for a different die).
inline double for_each_dice_path(const std::function<void(Dice&)>& play, const std::function<void(double)>& visit,
                                 std::size_t max_draws = 64, std::size_t max_paths = 5'000'000) {
  struct Cut {};
  struct Odometer : Dice {
    std::vector<int> choice, arity;
    std::size_t pos = 0, max = 0;
    int draw(int n) {
      if (pos == max) throw Cut{};
      if (pos == choice.size()) {
        choice.push_back(0);
        arity.push_back(n);
      }
      if (arity[pos] != n) throw std::logic_error("enumeration: the draw sequence changed shape");
      return choice[pos++];
    }
    int pair() override { return draw(36); }
    int d6() override { return draw(6); }
  } od;
  od.max = max_draws;
  double truncated = 0.0;
  for (std::size_t paths = 1;; ++paths) {
    if (paths > max_paths) throw std::runtime_error("enumeration: too many paths");
    od.pos = 0;
    bool cut = false;
    try {
      play(od);
    } catch (const Cut&) {
      cut = true;
    }
    od.choice.resize(od.pos);
    od.arity.resize(od.pos);
    double p = 1.0;
    for (int a : od.arity) p /= a;
    if (cut) truncated += p;
    else visit(p);
    // Next sequence: advance the odometer from the last draw.
    while (!od.choice.empty() && od.choice.back() + 1 == od.arity.back()) {
      od.choice.pop_back();
      od.arity.pop_back();
    }
    if (od.choice.empty()) return truncated;
    ++od.choice.back();
  }
}

}  // namespace salvo::test
