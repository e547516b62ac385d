#pragma once
// The loaders' options from the limits the app layer passes to every ruleset.
#include "salvo/load/asl_loader.h"
#include "salvo/rulesets/ruleset.h"

namespace salvo {

inline load::LoadOptions load_options(const ReadLimits& limits) {
  load::LoadOptions o;
  o.max_situations = limits.max_situations;
  o.max_file_bytes = limits.max_file_bytes;
  return o;
}

}  // namespace salvo
