// The ASL ruleset: the loader of rules/load, the compiler and explain of rules/, the tables'
// hash compiled in at build time (rules/data_hash).
#include <memory>
#include <variant>

#include "load_options.h"
#include "points_file.h"
#include "salvo/core/text.h"
#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_infantry.h"
#include "salvo/rules/asl_sensitivity.h"
#include "salvo/rulesets/builtin.h"

namespace salvo {
namespace {

using Key = DisplayHints::Key;

// Infantry fire through the Morale Check (asl_infantry.h): what happened to the target unit.
DisplayHints infantry_hints() {
  DisplayHints h;
  h.key = {Key::first("p_broken_or_worse", "p_broken+"),
           Key::phase("p_broken_or_worse", "p_broken+"),
           Key::column("p_pinned"),
           Key::column("p_casualty_reduction", "p_cr"),
           Key::column("p_eliminated", "p_elim"),
           Key::column("p_cowered"),
           Key::column("p_malfunction", "p_malf"),
           Key::column("e_shots")};
  // Cowering and a malfunction are the firer's loss; Heat of Battle can go either way (A15.1).
  h.lower_is_better = {"p_cowered", "p_malfunction"};
  h.neutral = {"e_shots", "p_heat_of_battle"};
  h.first_window = "first attack";
  h.headline = "p_broken_or_worse";
  h.hits_counter.clear();
  return h;
}

class AslFile final : public PointsFile<load::LoadedFile, &load::LoadedFile::situations> {
 public:
  explicit AslFile(load::LoadedFile file) : PointsFile(std::move(file)) {
    // A sweep's points share the weapon unless it is swept (then the first point decides).
    infantry_ = points().size() > 0 && asl::infantry_fire(points().at(0).situation);
  }
  const DisplayHints* hints() const override { return infantry_ ? &infantry_hints_ : nullptr; }
  CompiledSituation compile(std::size_t i, bool explain) const override {
    asl::Compiled c = asl::compile(points().at(i).situation);
    CompiledSituation out{std::move(c.program), {}, {}};
    if (explain) out.explain = asl::format_explanation(c.explain);
    return out;
  }
  const load::LoadedFile& loaded() const { return file_; }

 private:
  bool infantry_ = false;  // every situation is infantry fire: its own key columns
  DisplayHints infantry_hints_ = infantry_hints();
};

// A fight file (asl_fight.h): one fight, shown by who wins.
class FightFile final : public PointsFile<load::LoadedFight, &load::LoadedFight::fights> {
 public:
  explicit FightFile(load::LoadedFight f) : PointsFile(std::move(f)), hints_(fight_hints(points().at(0).situation)) {}
  CompiledSituation compile(std::size_t i, bool explain) const override {
    const asl::Fight fight = points().at(i).situation;
    CompiledSituation out{asl::compile(fight), {}, "fight.turns"};
    if (explain)
      out.explain = asl::explain(fight) + "\nthe fight's program: " + with_commas(out.program.num_states()) +
                    (out.program.num_states() == 1 ? " state" : " states") + " (solved exactly up to " +
                    with_commas(kMaxExactStates) +
                    ", by Monte Carlo above with --method auto or mc; salvo builds at most " +
                    with_commas(asl::kMaxFightStates) + ")\n";
    return out;
  }
  const DisplayHints* hints() const override { return &hints_; }

 private:
  // Better or worse from side A's view: its units destroyed, immobilized or out of action (its
  // infantry eliminated, broken or Reduced) and B's win are worse for it.
  static DisplayHints fight_hints(const asl::Fight& f) {
    DisplayHints h;
    h.key = {Key::column("p_a_wins", "p A wins"), Key::column("p_b_wins", "p B wins"),
             Key::column("p_neither", "p neither"), Key::column("e_game_turns", "e turns"), Key::column("e_shots")};
    h.lower_is_better = {"p_b_wins"};
    for (const asl::FightUnit& u : f.units)
      for (const char* what : asl::fight::unit_flag_suffixes(u)) {
        h.compare_also.push_back("p_" + u.name + what);  // each unit's fate
        if (u.side == 0) h.lower_is_better.push_back("p_" + u.name + what);
      }
    h.neutral = {"p_neither", "e_game_turns", "e_shots"};
    h.better_for = "side A";  // (its units' losses and side B's win count against it)
    h.first_window = h.first_window_turns = "turn 1";
    h.run_window = h.run_window_turns = "fight";
    h.headline = "p_a_wins";
    h.hits_counter.clear();  // no hits chart: a fight's shots hit several targets
    h.outcome_apart_flag.clear();
    return h;
  }

  DisplayHints hints_;
};

DisplayHints asl_hints() {
  DisplayHints h;
  h.key = {Key::first("p_hit"), Key::first("p_kill"), Key::phase("p_hit"), Key::phase("p_kill"), Key::column("p_burn"),
           Key::column("p_immobilized", "p_immob"), Key::column("p_shock"), Key::column("p_malfunction", "p_malf"),
           // Infantry and Area Target Types, vehicular MG/IFE: the IFT results (A7.3)
           Key::column("p_ptc_or_worse", "p_ptc+"), Key::column("p_mc_or_worse", "p_mc+"),
           Key::column("p_casualty", "p_cas"), Key::column("p_kia"), Key::column("e_shots"), Key::column("e_hits")};
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
    auto loaded = load::load_any_string(text, path, load_options(limits));
    if (auto* fight = std::get_if<load::LoadedFight>(&loaded)) return std::make_unique<FightFile>(std::move(*fight));
    return std::make_unique<AslFile>(std::move(std::get<load::LoadedFile>(loaded)));
  }

  std::optional<std::vector<Variant>> sensitivity(const SituationFile& file, std::size_t i) const override {
    const auto* situations = dynamic_cast<const AslFile*>(&file);
    if (situations == nullptr) return std::nullopt;  // a fight: its units' situations are files of their own
    const asl::Situation s = situations->loaded().situations.at(i).situation;
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
