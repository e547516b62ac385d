#pragma once
/// salvo/core/display_hints.h — how the reports show a ruleset's results: which quantities are
/// the key columns, which are better when lower, how the windows are named. Each ruleset gives
/// its own (rulesets/ruleset.h); the reports read them and know no ruleset's names.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace salvo {

/// How the reports show a ruleset's results. Quantities are named as the reports name them:
/// p_<flag>, e_<counter>.
struct DisplayHints {
  /// A quantity of the compact tables (a sweep, several situations, compare, HTML), in order.
  struct Key {
    std::string quantity;  ///< "p_kill"
    bool run = true;       ///< the whole run; false: the first window
    std::string title;     ///< the compact text table's header: "first p_kill", "p_immob"

    /// The whole run, headed by the quantity's name or a shorter `title` ("p_immob").
    static Key column(const std::string& q, const std::string& title = {}) {
      return {q, true, title.empty() ? q : title};
    }
    /// The first window and the whole run side by side: "first p_hit", "phase p_hit".
    static Key first(const std::string& q, const std::string& title = {}) {
      return {q, false, "first " + (title.empty() ? q : title)};
    }
    static Key phase(const std::string& q, const std::string& title = {}) {
      return {q, true, "phase " + (title.empty() ? q : title)};
    }
  };
  std::vector<Key> key;
  /// Less is better for the side the situation is asked for ("p_malfunction"); compare's
  /// "P(A better)" turns around for these.
  std::vector<std::string> lower_is_better;
  /// Neither better nor worse ("e_shots"): compare shows no "P(A better)".
  std::vector<std::string> neutral;
  /// Whose view "better" takes, where it is not the firer's (compare's note): "side A" in a fight.
  std::string better_for;
  /// Whole-run quantities compare's text shows after the key ones (a fight's units' fates,
  /// too many for the compact tables' columns).
  std::vector<std::string> compare_also;
  /// The windows' names: the first window and the whole run, and the same for a run over
  /// several turns (a program with turn series).
  std::string first_window = "first shot";
  std::string run_window = "phase";
  std::string first_window_turns = "turn 1";
  std::string run_window_turns = "all turns";
  /// The headline probability (compare's "on the same dice" line, the chart default).
  std::string headline = "p_kill";
  /// Charts of outcomes and hits: the counter counted per run, and a flag whose runs are shown
  /// apart in the outcome distribution; empty: none.
  std::string hits_counter = "hits";
  std::string outcome_apart_flag = "malfunction";

  /// +1 if more is better, -1 if less is better, 0 if neither.
  int direction(std::string_view quantity) const {
    const auto in = [quantity](const std::vector<std::string>& v) {
      return std::find(v.begin(), v.end(), quantity) != v.end();
    };
    if (in(neutral)) return 0;
    return in(lower_is_better) ? -1 : 1;
  }

  /// The hints of several rulesets in one table: this one's, then what the others add.
  void merge(const DisplayHints& other) {
    for (const Key& k : other.key) {
      const bool seen = std::any_of(key.begin(), key.end(),
                                    [&k](const Key& m) { return m.quantity == k.quantity && m.run == k.run; });
      if (!seen) key.push_back(k);
    }
    const auto add = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
      for (const std::string& q : from)
        if (std::find(to.begin(), to.end(), q) == to.end()) to.push_back(q);
    };
    add(lower_is_better, other.lower_is_better);
    add(neutral, other.neutral);
    add(compare_also, other.compare_also);
  }
};

}  // namespace salvo
