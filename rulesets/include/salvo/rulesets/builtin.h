#pragma once
/// salvo/rulesets/builtin.h — the rulesets that come with salvo (Registry::global adds them).

#include <memory>

#include "salvo/rulesets/ruleset.h"

namespace salvo {

/// Advanced Squad Leader: ordnance and AFV fire, vehicular MG/IFE on the IFT (rules/asl*).
std::unique_ptr<Ruleset> make_asl_ruleset();
/// The WWII miniatures rules "1943", with a chart file the user supplies (rules/w1943*).
std::unique_ptr<Ruleset> make_w1943_ruleset();

}  // namespace salvo
