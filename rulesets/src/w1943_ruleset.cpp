// The 1943 ruleset: situation files that name a chart file (the user's), the compiler and
// explain of rules/w1943*. Its rules data is the built-in values plus the chart.
#include <filesystem>
#include <memory>

#include "load_options.h"
#include "points_file.h"
#include "salvo/load/w1943_loader.h"
#include "salvo/rules/w1943.h"
#include "salvo/rulesets/builtin.h"

namespace salvo {
namespace {

using Key = DisplayHints::Key;

class W1943SituationFile final : public PointsFile<load::W1943File, &load::W1943File::situations> {
 public:
  explicit W1943SituationFile(load::W1943File file)
      : PointsFile(std::move(file)), hash_(w1943::rules_data_hash(*file_.chart)) {}
  CompiledSituation compile(std::size_t i, bool explain) const override {
    w1943::Compiled c = w1943::compile(*file_.chart, points().at(i).situation);
    CompiledSituation out{std::move(c.program), {}, {}};
    if (explain) out.explain = "chart file: " + file_.chart_path + "\n" + w1943::format_explanation(c.explain);
    return out;
  }
  std::vector<std::string> other_inputs() const override { return {file_.chart_path}; }
  std::uint64_t data_hash() const override { return hash_; }

 private:
  std::uint64_t hash_;
};

DisplayHints w1943_hints() {
  DisplayHints h;
  h.key = {Key::first("p_hit"), Key::phase("p_hit"), Key::column("p_immobilized", "p_immob"), Key::column("e_shots"),
           Key::column("e_hits")};
  h.lower_is_better = {"p_mg_jam", "p_secondary_ammo_out", "p_out_of_fuel"};
  h.neutral = {"e_shots", "e_turns_fired"};
  h.headline = "";
  h.outcome_apart_flag = "";
  return h;
}

class W1943Ruleset final : public Ruleset {
 public:
  std::string_view name() const override { return "1943"; }
  std::string_view data_version() const override { return w1943::kRulesDataVersion; }
  /// The built-in values are hashed with each chart (SituationFile::data_hash).
  std::uint64_t data_hash() const override { return 0; }
  const DisplayHints& hints() const override { return hints_; }

  std::unique_ptr<SituationFile> load(std::string_view text, const std::string& path,
                                      const ReadLimits& limits) const override {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return std::make_unique<W1943SituationFile>(load::load_w1943_string(text, path, dir, load_options(limits)));
  }

 private:
  DisplayHints hints_ = w1943_hints();
};

}  // namespace

std::unique_ptr<Ruleset> make_w1943_ruleset() { return std::make_unique<W1943Ruleset>(); }

}  // namespace salvo
