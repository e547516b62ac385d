// The registry of rulesets, and the display hints' arithmetic.
#include <algorithm>
#include <stdexcept>

#include "salvo/rulesets/builtin.h"
#include "salvo/rulesets/ruleset.h"

namespace salvo {

Registry& Registry::global() {
  static Registry* registry = [] {
    auto* r = new Registry;  // never destroyed: rulesets outlive every static that uses them
    // The built-in rulesets, one line each; the first is the default.
    r->add(make_asl_ruleset());
    r->add(make_w1943_ruleset());
    return r;
  }();
  return *registry;
}

void Registry::add(std::unique_ptr<Ruleset> ruleset) {
  if (!ruleset) throw std::logic_error("Registry::add: no ruleset");
  if (find(ruleset->name()))
    throw std::logic_error("Registry::add: a ruleset named " + std::string(ruleset->name()) + " exists");
  rulesets_.push_back(std::move(ruleset));
}

const Ruleset* Registry::find(std::string_view name) const {
  for (const auto& r : rulesets_)
    if (r->name() == name) return r.get();
  return nullptr;
}

const Ruleset& Registry::for_file(std::string_view name) const {
  if (const Ruleset* r = find(name)) return *r;
  return *rulesets_.front();
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& r : rulesets_) out.emplace_back(r->name());
  return out;
}

}  // namespace salvo
