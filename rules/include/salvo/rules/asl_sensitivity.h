#pragma once
/// salvo/rules/asl_sensitivity.h — what each To Hit modifier of a situation is worth: the
/// situation changes that remove it, or make it one DRM worse for the firer.

#include <string>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_situation.h"

namespace salvo::asl {

/// One changed situation.
struct Variant {
  std::string modifier;  ///< the modifier as explain prints it: "Case I: buttoned up"
  std::string rule;      ///< "C5.9"
  int value = 0;         ///< its DRM in the situation as given
  bool worse = false;    ///< false: the modifier removed; true: one DRM worse for the firer
  std::string change;    ///< the setting changed: "fire.buttoned_up = false"
  Situation situation;   ///< the situation with that change
};

/// Variants for every To Hit DRM that applies to some shot of the phase (`explain`, from
/// compile(s)), in the order explain lists them: the modifier removed and, where the rules
/// allow a worse value, one DRM worse (a binary modifier that applies to every shot gets its
/// "one worse" as one more DRM through fire.extra_drm). Modifiers no setting controls (Point
/// Blank range, same hex) are left out. Variants may still fail check(): the caller compiles
/// each and reports the ones that do not compile.
std::vector<Variant> sensitivity_variants(const Situation& s, const Explanation& explain);

}  // namespace salvo::asl
