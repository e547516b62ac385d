#pragma once
// A plain interpreter of one infantry unit's fire phase in a fight, for the fight interpreter
// (fight_interpreter.h): written from the rules (A7.2-.9, A9.2, A9.4, A9.7, A10.3-.31, A12.14,
// A19.32-.33) as straight-line code over one attack at a time. It shares the IFT chart lookups
// (asl_ift.h) with the compiler and nothing of asl_infantry.cpp's states and exits.

#include <cstddef>
#include <optional>

#include "salvo/core/rules.h"
#include "salvo/rules/asl_ift.h"
#include "salvo/rules/asl_situation.h"
#include "salvo/rules/asl_tables.h"
#include "salvo/rules/program.h"

namespace salvo::asl::testing {

/// A Personnel unit as a fight carries it.
struct Personnel_ {
  int size = 0;    // 0 squad, 1 HS (a Reduced squad), 2 crew or HS from the start
  int status = 0;  // 0 good order, 1 pinned, 2 broken
  bool eliminated = false;
  bool revealed = false;  // its concealment lost (A12.14)
};

/// What a fire phase did to its target (the fight records these as they happen), and to the MG.
struct InfantryPhase {
  int attacks = 0;
  bool broke = false, reduced = false;  // broken from unbroken; a Casualty Reduction
  bool mg_malfunctioned = false;
};

class InfantryAttacks {
 public:
  // `s`: the firer at the target (fight_situation); the firer's own state: pinned, Reduced, its
  // MG usable.
  InfantryAttacks(const Situation& s, bool firer_pinned, bool firer_reduced, bool mg_ok)
      : s_(s), pinned_(s.fire.pinned || firer_pinned), reduced_(firer_reduced), mg_ok_(mg_ok && s.firer.mg) {}

  InfantryPhase fire(Personnel_& t, Dice& dice) const {
    InfantryPhase out;
    const Firer& f = s_.firer;
    const bool afph_halved = s_.fire.phase == Phase::kAdvancing && !s_.fire.opportunity;
    const bool rof_allowed = !pinned_ && !afph_halved;  // A7.81, A7.25
    const bool leader = f.leader.has_value();
    const bool cowers = !leader && f.cowers.value_or(f.nationality != Nationality::kFinnish);  // A7.9
    const int breakdown = mg_ok_ ? f.mg->breakdown - (f.inexperienced ? 1 : 0) : 99;           // A9.7, A19.32
    for (int k = 0;; ++k) {
      const bool concealed = s_.target.concealed && !t.revealed;
      // A7.2: the elements' FP (a HS firing its MG loses its inherent FP, A7.352; without one it
      // has half the squad's: the fight's reading), then the halvings of the whole attack.
      double fp = 0;
      const int range = s_.fire.range;
      if (k == 0 && f.fp > 0 && !(reduced_ && mg_ok_)) {
        double v = f.fp * (reduced_ ? 0.5 : 1.0);
        if (range > *f.normal_range) v /= 2;  // A7.22
        if (range == 1) v *= 2;               // A7.21
        fp += v;
      }
      if (mg_ok_) {
        double v = f.mg->fp;
        if (range > f.mg->normal_range) v /= 2;
        if (range == 1) v *= 2;
        if (range >= 17 && !concealed && t.status != 2) v /= 2;  // A9.4
        fp += v;
      }
      if (concealed) fp /= 2;    // A7.23, A12.13
      if (afph_halved) fp /= 2;  // A7.24
      if (pinned_) fp /= 2;      // A7.8
      int drm = f.leader.value_or(0) + s_.target.tem + s_.target.hindrance + s_.fire.extra_drm;
      if (t.status != 1) drm -= (s_.target.ffnam ? 1 : 0) + (s_.target.ffmo ? 1 : 0);  // A7.83
      const int face = dice.pair();
      const int c = pair_colored(face), w = pair_white(face);
      const bool cowered = cowers && c == w;
      int column = ift_column(fp);
      if (cowered) column = shifted(column, f.inexperienced ? 2 : 1);  // A7.9, A19.33
      const Outcome r = column > 0 ? ift_personnel(column, c + w + drm) : kOutcomeNoEffect;
      ++out.attacks;
      const bool malfunction = mg_ok_ && c + w >= breakdown;
      apply(t, r, dice, out);
      if (t.eliminated) break;
      if (s_.fire.stop_on == StopOn::kEffect && (t.status == 2 || t.size == 1)) break;
      if (malfunction) {
        out.mg_malfunctioned = true;
        break;
      }
      if (!mg_ok_ || !rof_allowed || cowered || c > f.mg->rof) break;  // A9.2
      if (s_.fire.max_shots && k + 1 >= *s_.fire.max_shots) break;
    }
    return out;
  }

 private:
  static int shifted(int column, int left) {
    const auto& cols = table_data().ift_columns;
    for (std::size_t i = 0; i < cols.size(); ++i)
      if (cols[i] == column) return static_cast<int>(i) >= left ? cols[i - static_cast<std::size_t>(left)] : 0;
    return 0;
  }

  int morale() const { return *s_.target.morale - (s_.target.encircled ? 1 : 0); }  // A7.7
  int broken_morale() const {
    return s_.target.broken_morale.value_or(*s_.target.morale) - (s_.target.encircled ? 1 : 0);
  }

  void reduce(Personnel_& t, InfantryPhase& out) const {  // A7.302
    out.reduced = true;
    if (t.size == 0)
      t.size = 1;
    else
      t.eliminated = true;
  }
  void breaks(Personnel_& t, InfantryPhase& out) const {
    if (t.status != 2) out.broke = true;
    t.status = 2;
  }

  // A10.3, A10.31, A7.8: a Morale Check with `n` added.
  void mc(Personnel_& t, int n, Dice& dice, InfantryPhase& out) const {
    const int face = dice.pair();
    const int d = pair_colored(face) + pair_white(face);
    const int final_dr = d + n + s_.target.leader.value_or(0);
    if (t.status == 2) {
      if (d == 12)
        t.eliminated = true;
      else if (final_dr > broken_morale())
        reduce(t, out);
    } else if (d == 12) {
      reduce(t, out);
      if (!t.eliminated) breaks(t, out);
    } else if (final_dr > morale()) {
      breaks(t, out);
    } else if (final_dr == morale()) {
      t.status = 1;
    }
  }

  void apply(Personnel_& t, Outcome r, Dice& dice, InfantryPhase& out) const {
    if (r >= kOutcomePtc) t.revealed = true;  // A12.14
    if (r >= kOutcome1Kia) {
      t.eliminated = true;  // A7.301
    } else if (r >= kOutcomeK1) {
      reduce(t, out);  // A7.302, then the HS's #MC
      if (!t.eliminated) mc(t, r - kOutcomeK1 + 1, dice, out);
    } else if (r >= kOutcomeNmc) {
      mc(t, r - kOutcomeNmc, dice, out);
    } else if (r == kOutcomePtc && t.status == 0) {  // A7.305
      const int face = dice.pair();
      if (pair_colored(face) + pair_white(face) + s_.target.leader.value_or(0) > morale()) t.status = 1;
    }
  }

  const Situation& s_;
  bool pinned_, reduced_, mg_ok_;
};

}  // namespace salvo::asl::testing
