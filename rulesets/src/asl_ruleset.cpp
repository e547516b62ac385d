// The ASL ruleset: the loader of rules/load, the compiler and explain of rules/, the tables'
// hash compiled in at build time (rules/data_hash).
#include <memory>

#include "load_options.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_sensitivity.h"
#include "salvo/rulesets/builtin.h"

namespace salvo {
namespace {

class AslFile final : public SituationFile {
 public:
  explicit AslFile(load::LoadedFile file) : file_(std::move(file)) {}
  std::size_t size() const override { return file_.situations.size(); }
  std::string name(std::size_t i) const override { return file_.situations.at(i).situation.name; }
  SweepLabel sweep(std::size_t i) const override { return file_.situations.at(i).sweep_values; }
  CompiledSituation compile(std::size_t i, bool explain) const override {
    asl::Compiled c = asl::compile(file_.situations.at(i).situation);
    CompiledSituation out{std::move(c.program), {}};
    if (explain) out.explain = asl::format_explanation(c.explain);
    return out;
  }
  const load::LoadedFile& loaded() const { return file_; }

 private:
  load::LoadedFile file_;
};

DisplayHints asl_hints() {
  DisplayHints h;
  h.key = {{"p_hit", false, "first p_hit"},
           {"p_kill", false, "first p_kill"},
           {"p_hit", true, "phase p_hit"},
           {"p_kill", true, "phase p_kill"},
           {"p_burn", true, "p_burn"},
           {"p_immobilized", true, "p_immob"},
           {"p_shock", true, "p_shock"},
           {"p_malfunction", true, "p_malf"},
           // Infantry and Area Target Types, vehicular MG/IFE: the IFT results (A7.3)
           {"p_ptc_or_worse", true, "p_ptc+"},
           {"p_mc_or_worse", true, "p_mc+"},
           {"p_casualty", true, "p_cas"},
           {"p_kia", true, "p_kia"},
           {"e_shots", true, "e_shots"},
           {"e_hits", true, "e_hits"}};
  // A gun out of action, short of ammunition or a dud is the firer's loss (C8.1, C8.9, C7.35).
  h.lower_is_better = {"p_malfunction", "p_disabled", "p_low_ammo", "p_depleted", "p_dud"};
  h.neutral = {"e_shots"};
  return h;
}

class AslRuleset final : public Ruleset {
 public:
  std::string_view name() const override { return "asl"; }
  std::string_view data_version() const override { return asl::kRulesDataVersion; }
  std::uint64_t data_hash() const override { return asl::rules_data_hash(); }
  const DisplayHints& hints() const override { return hints_; }

  std::unique_ptr<SituationFile> load(std::string_view text, const std::string& path,
                                      const ReadLimits& limits) const override {
    return std::make_unique<AslFile>(load::load_string(text, path, load_options(limits)));
  }

  std::optional<std::vector<Variant>> sensitivity(const SituationFile& file, std::size_t i) const override {
    const asl::Situation s = static_cast<const AslFile&>(file).loaded().situations.at(i).situation;
    const asl::Compiled base = asl::compile(s);
    std::vector<Variant> out;
    for (asl::Variant& v : asl::sensitivity_variants(s, base.explain)) {
      Variant r{v.modifier, v.rule, v.change, v.value, v.worse, std::nullopt, {}};
      try {
        r.program = asl::compile(v.situation).program;
      } catch (const RulesError& e) {
        r.error = e.key() + ": " + e.what();
      }
      out.push_back(std::move(r));
    }
    return out;
  }

 private:
  DisplayHints hints_ = asl_hints();
};

}  // namespace

std::unique_ptr<Ruleset> make_asl_ruleset() { return std::make_unique<AslRuleset>(); }

}  // namespace salvo
