// asl_fight_loader.cpp — ASL fight files (docs/fights.md) into asl::Fight, strictly.
//
//   ruleset = "asl"
//   [fight]                     turns, sequence (optional)
//   [[unit]]                    name, side ("A" or "B"), target (a unit's name or "auto"), unit,
//                               range, rally_drm (an infantry unit's rally attempts, A10.6)
//   [unit.firer] [unit.fire] [unit.as_target] [unit.override]
//
// A unit's tables take the keys of a situation's [firer], [fire], [target] and [override]
// (asl_schema()), checked by the same fields; fire.turns and fire.rally_phases belong to the
// fight. A rules conflict is blamed on the line of the key it names.

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "asl_schema.h"
#include "salvo/rules/asl_fight.h"
#include "salvo/rules/asl_latw.h"

namespace salvo::load::detail {
namespace {

using asl::Fight;
using asl::FightStep;
using asl::FightUnit;

// A unit's tables: the name in the fight file, the situation table its keys belong to.
struct UnitTable {
  std::string_view name, situation;
};
constexpr UnitTable kUnitTables[] = {
    {"firer", "firer"}, {"fire", "fire"}, {"as_target", "target"}, {"override", "override"}};
// Situation keys a unit may not set: the fight decides them (its turns and sequence).
constexpr std::string_view kFightOwned[] = {"fire.turns", "fire.rally_phases"};

// fire.range's bounds in the situation schema (asl_loader.cpp)
constexpr int kMaxRange = 200;

const Choices<FightStep> kSteps = {{"rally", FightStep::kRally}, {"A", FightStep::kFireA}, {"B", FightStep::kFireB}};
const Choices<int> kSides = {{"A", 0}, {"B", 1}};

bool valid_name(const std::string& n) {
  return !n.empty() && n.size() <= 24 && std::all_of(n.begin(), n.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
  });
}

// The keys of one situation table a unit's table may hold ("rof", "gun", ...); with `nested`,
// the keys inside a table-valued one too ("armor.hull_front"), as a sweep may name them.
std::vector<std::string> keys_of(std::string_view situation_table, bool nested = false) {
  std::vector<std::string> out;
  const std::string prefix = std::string(situation_table) + ".";
  for (const std::string& p : asl_schema().keys.paths) {
    if (p.rfind(prefix, 0) != 0) continue;
    const std::string key = p.substr(prefix.size());
    if (!nested && key.find('.') != std::string::npos) continue;  // target.armor.hull_front: inside target.armor
    if (std::find(std::begin(kFightOwned), std::end(kFightOwned), p) != std::end(kFightOwned)) continue;
    out.push_back(key);
  }
  return out;
}

// A unit's settings as a situation's, and back.
asl::Situation as_situation(const FightUnit& u) {
  asl::Situation s;
  s.firer = u.firer;
  s.fire = u.fire;
  s.target = u.as_target;
  s.override_ = u.override_;
  return s;
}
void take_settings(FightUnit& u, const asl::Situation& s) {
  u.firer = s.firer;
  u.fire = s.fire;
  u.as_target = s.target;
  u.override_ = s.override_;
}

// A unit's range to an enemy (range.NAME), set or replaced.
void set_range(FightUnit& u, const std::string& enemy, int range) {
  for (auto& [name, r] : u.ranges)
    if (name == enemy) {
      r = range;
      return;
    }
  u.ranges.emplace_back(enemy, range);
}

// What a fight's [sweep] may vary: [fight] turns, and each unit's settings as its tables hold
// them ("unit.Sherman.fire.range", "unit.Panther.as_target.armor.hull_front"), its target and its
// range to each enemy ("unit.Sherman.range.Panther"). Each setting is the situation schema's own
// field, applied to the unit's settings.
std::shared_ptr<const Schema<Fight>> sweep_schema(const Fight& f) {
  auto schema = std::make_shared<Schema<Fight>>();
  schema->keys.ruleset = "asl";
  schema->keys.tables = {"sweep"};
  const Settings<Fight, Fight> fight{"fight", [](Fight& x) -> Fight& { return x; }};
  schema->add({fight("turns", &Fight::turns, 1, asl::kMaxTurns)});
  for (std::size_t i = 0; i < f.units.size(); ++i) {
    const std::string prefix = "unit." + f.units[i].name + ".";
    for (const UnitTable& t : kUnitTables)
      for (const std::string& key : keys_of(t.situation, true)) {
        const std::size_t field = *asl_schema().keys.field(std::string(t.situation) + "." + key);
        schema->add(prefix + std::string(t.name) + "." + key,
                    [i, field](const Ctx& c, const std::string& p, const toml::node& n, Fight& x, Lines* lines) {
                      asl::Situation s = as_situation(x.units[i]);
                      asl_schema().fields[field].apply(c, p, n, s, lines);
                      take_settings(x.units[i], s);
                    });
      }
    schema->add(prefix + "target", [i](const Ctx& c, const std::string& p, const toml::node& n, Fight& x, Lines*) {
      const std::string& target = read_string(c, p, n, "a unit's name or \"auto\"");
      x.units[i].target = target == "auto" ? std::nullopt : std::optional<std::string>(target);
    });
    for (const FightUnit& enemy : f.units) {
      if (enemy.side == f.units[i].side) continue;
      schema->add(prefix + "range." + enemy.name,
                  [i, name = enemy.name](const Ctx& c, const std::string& p, const toml::node& n, Fight& x, Lines*) {
                    set_range(x.units[i], name, read_int(c, p, n, 0, kMaxRange));
                  });
    }
  }
  return schema;
}

class FightReader {
 public:
  FightReader(const std::shared_ptr<const Document>& doc, const LoadOptions& options)
      : doc_(*doc),
        docp_(doc),
        c_{doc->file, doc->text},
        max_situations_(options.max_situations),
        max_file_bytes_(options.max_file_bytes) {}

  LoadedFight read() {
    Fight f;
    f.name = std::filesystem::path(doc_.file).stem().string();
    const toml::node* units = nullptr;
    const toml::node* sweep = nullptr;
    walk_table(c_, "", doc_.root, {"ruleset", "name", "units", "fight", "unit", "sweep"},
               [&](const Entry& e, const std::string& path) {
                 const int line = line_of(e.pos);
                 lines_[path] = line;
                 if (e.key == "sweep") {
                   sweep = e.node;
                 } else if (e.key == "units") {
                   libraries_ = read_unit_libraries(c_, path, *e.node, max_file_bytes_);
                 } else if (e.key == "ruleset") {
                   if (read_string(c_, path, *e.node) != "asl") expected(c_, path, *e.node, "\"asl\" (a fight file)");
                 } else if (e.key == "name") {
                   f.name = read_string(c_, path, *e.node);
                 } else if (e.key == "fight") {
                   read_fight(read_table(c_, path, *e.node), f);
                 } else {
                   units = e.node;
                 }
               });
    if (!doc_.root.contains("ruleset")) fail(c_, 1, "ruleset", "missing (required): ruleset = \"asl\"");
    if (units == nullptr) fail(c_, 1, "unit", "a fight needs [[unit]] tables, one per unit");
    const toml::array& list = read_array(c_, "unit", *units, "[[unit]] tables");
    for (std::size_t i = 0; i < list.size(); ++i) f.units.push_back(read_unit(list[i], i));
    if (libraries_ && !names_unit_)
      fail(c_, lines_["units"], "units", "has no effect here: no unit names a library unit (unit = ...): remove it");
    LoadedFight out;
    out.path = doc_.file;
    if (sweep == nullptr) {
      if (const auto e = asl::check(f)) blame(*e);
      out.fights = SweepPoints<FightPoint>(1, [f](std::size_t) { return FightPoint{f, {}}; });
      return out;
    }
    // A sweep: its points are checked one by one (the file's own values may hold only once swept).
    const auto schema = sweep_schema(f);
    Walked<Fight> w;
    w.keys = &schema->keys;
    w.set = lines_;
    w.base = f;
    walk_sweep(c_, read_table(c_, "sweep", *sweep), schema->keys, max_situations_, w,
               [&](const Item& item, const toml::array& values) {
                 w.axes.push_back(make_axis(c_, item, values, schema->fields[*item.field], f));
               });
    out.sweep_keys = w.sweep_keys;
    out.fights =
        expand<FightPoint>(docp_, w, max_situations_, std::function<void(const FightPoint&)>([&](const FightPoint& p) {
                             if (const auto e = asl::check(p.situation))
                               rules_conflict(c_, w, e->key(), e->what(), p.sweep_values);
                           }));
    out.sweep_schema = schema;
    return out;
  }

 private:
  void read_fight(const toml::table& t, Fight& f) {
    walk_table(c_, "fight", t, {"turns", "sequence"}, [&](const Entry& e, const std::string& path) {
      lines_[path] = line_of(e.pos);
      if (e.key == "turns") {
        f.turns = read_int(c_, path, *e.node, 1, asl::kMaxTurns);
        return;
      }
      const toml::array& a = read_array(c_, path, *e.node, "an array of \"rally\", \"A\" and \"B\"");
      if (a.empty() || a.size() > 24) fail(c_, line_of(*e.node), path, "expected 1 to 24 steps in a game turn");
      f.sequence.clear();
      for (std::size_t k = 0; k < a.size(); ++k)
        f.sequence.push_back(read_choice(c_, path + "[" + std::to_string(k) + "]", a[k], kSteps));
      if (std::none_of(f.sequence.begin(), f.sequence.end(), [](FightStep s) { return s != FightStep::kRally; }))
        fail(c_, line_of(*e.node), path, "no side fires in this game turn: add \"A\" or \"B\"");
    });
  }

  FightUnit read_unit(const toml::node& n, std::size_t index) {
    const std::string at = "unit[" + std::to_string(index + 1) + "]";
    const toml::table& t = read_table(c_, at, n);
    FightUnit u;
    std::optional<UnitLibraries::Found> library_unit;
    // The name first: it names the unit's keys in every message after it.
    const toml::node* name = t.get("name");
    if (name == nullptr) fail(c_, line_of(n), at + ".name", "missing (required): every unit needs a name");
    u.name = read_string(c_, at + ".name", *name);
    if (!valid_name(u.name))
      expected(c_, at + ".name", *name, "a name of 1 to 24 letters, digits, '_' or '-' (it names the unit's results)");
    const std::string prefix = "unit." + u.name;
    lines_[prefix] = line_of(n);
    if (t.get("side") == nullptr) fail(c_, line_of(n), prefix + ".side", "missing (required): \"A\" or \"B\"");
    asl::Situation s;  // the unit's settings, on the defaults of a situation file
    // A library unit's values first, under the file's (docs/units.md).
    if (const toml::node* unit = t.get("unit")) {
      const std::string key = prefix + ".unit";
      lines_[key] = line_of(*unit);
      const std::string& unit_name = read_string(c_, key, *unit, "a unit's name from the unit libraries (units = ...)");
      const UnitLibraries::Found found = find_unit(c_, line_of(*unit), key, unit_name, libraries_.get());
      if (found.unit->kind == "vehicle" && !found.unit->has("target.armor"))
        fail(c_, line_of(*unit), key,
             fmt::format("the unit {} has no armor factors in {}: add target.armor to it or as_target.armor here",
                         toml_quote(found.unit->name), found.library));
      libraries_->apply(found, "firer", s);
      libraries_->apply(found, "target", s);
      s.target.gun = found.unit->kind == "gun";  // C11: a Gun is fired on as a Gun and its crew
      for (const UnitSetting& setting : found.unit->settings) {
        std::string mapped = setting.path;
        if (mapped.rfind("target.", 0) == 0) mapped = "as_target." + mapped.substr(7);
        if (!lines_.count(prefix + "." + mapped)) lines_[prefix + "." + mapped] = line_of(*unit);
      }
      u.unit_notes.push_back(fmt::format("unit = {} ({}:{}): its firer and target values, under this file's",
                                         toml_quote(found.unit->name), found.library, found.unit->line));
      library_unit = found;
      names_unit_ = true;
    }
    std::vector<std::string> known = {"name", "side", "target", "unit", "range", "rally_drm"};
    for (const UnitTable& ut : kUnitTables) known.emplace_back(ut.name);
    walk_table(c_, prefix, t, known, [&](const Entry& e, const std::string& path) {
      lines_[path] = line_of(e.pos);
      if (e.key == "name" || e.key == "unit") return;
      if (e.key == "side") {
        u.side = read_choice(c_, path, *e.node, kSides);
      } else if (e.key == "target") {
        const std::string& target = read_string(c_, path, *e.node, "a unit's name or \"auto\"");
        if (target != "auto") u.target = target;
      } else if (e.key == "rally_drm") {  // an infantry unit's rally attempts (A10.6)
        u.rally_drm = read_int(c_, path, *e.node, -6, 12);
      } else if (e.key == "range") {  // its range to each enemy listed: { Panther = 8 }
        for (const Entry& r : entries_in_file_order(read_table(c_, path, *e.node))) {
          const std::string key = path + "." + r.key;
          lines_[key] = line_of(r.pos);
          set_range(u, r.key, read_int(c_, key, *r.node, 0, kMaxRange));
        }
      } else {
        const auto* ut = std::find_if(std::begin(kUnitTables), std::end(kUnitTables),
                                      [&](const UnitTable& x) { return x.name == e.key; });
        read_settings(read_table(c_, path, *e.node), path, ut->situation, s);
      }
    });
    // A fight's units are vehicles, Guns and infantry units: a LATW's firer (its PF Check, its
    // own state) is not carried from phase to phase.
    if (asl::is_latw(s.firer)) {
      const std::string key = prefix + ".firer.weapon";
      fail(c_, lines_.count(key) ? lines_[key] : line_of(n), key,
           fmt::format("{}: a fight's units are vehicles, Guns and infantry units; LATW fire is run as a situation "
                       "(docs/latw.md)",
                       asl::latw_name(s.firer.weapon)));
    }
    if (library_unit && asl::is_special(s.firer.ammo) && !lines_.count(prefix + ".firer.depletion"))
      s.firer.depletion = unit_depletion(c_, lines_[prefix + ".unit"], prefix + ".unit", *library_unit, s.firer);
    if (!library_unit && s.firer.vehicle && s.firer.weapon != asl::Weapon::kInfantry &&
        !lines_.count(prefix + ".as_target.armor"))
      fail(c_, lines_.count(prefix + ".as_target") ? lines_[prefix + ".as_target"] : line_of(n),
           prefix + ".as_target.armor", "missing (required): the unit's armor when fired on (or \"unarmored\")");
    u.firer = s.firer;
    u.fire = s.fire;
    u.as_target = s.target;
    u.override_ = s.override_;
    return u;
  }

  // One of a unit's tables, its keys those of the situation table `situation`.
  void read_settings(const toml::table& t, const std::string& path, std::string_view situation, asl::Situation& s) {
    const Schema<asl::Situation>& schema = asl_schema();
    for (const Entry& e : entries_in_file_order(t)) {
      const std::string key = path + "." + e.key;
      const std::string field = std::string(situation) + "." + e.key;
      const int line = line_of(e.pos);
      if (std::find(std::begin(kFightOwned), std::end(kFightOwned), field) != std::end(kFightOwned))
        fail(c_, line, key, "the fight sets it: [fight] turns and sequence");
      const auto index = schema.keys.field(field);
      if (!index || field.find('.', situation.size() + 1) != std::string::npos) {
        std::vector<std::string> known;
        for (const std::string& k : keys_of(situation)) known.push_back(path + "." + k);
        unknown(c_, line, key, known);
      }
      lines_[key] = line;
      Lines sub;
      schema.fields[*index].apply(c_, key, *e.node, s, &sub);
      for (const auto& [k, l] : sub) lines_[k] = l;
    }
  }

  // A rules conflict: on the line of the key it names, or of the closest table holding it.
  [[noreturn]] void blame(const RulesError& e) {
    std::string key = e.key();
    int line = 1;
    for (std::string k = key; !k.empty(); k = k.substr(0, std::max<std::size_t>(k.rfind('.'), 0))) {
      if (const auto it = lines_.find(k); it != lines_.end()) {
        line = it->second;
        break;
      }
      if (k.find('.') == std::string::npos) break;
    }
    fail(c_, line, key.empty() ? "unit" : key, e.what());
  }

  const Document& doc_;
  std::shared_ptr<const Document> docp_;
  Ctx c_;
  Lines lines_;  // where each key, unit and table was written
  std::shared_ptr<const UnitLibraries> libraries_;
  bool names_unit_ = false;
  std::size_t max_situations_;
  std::size_t max_file_bytes_;
};

}  // namespace

bool is_fight(const toml::table& root) { return root.contains("fight") || root.contains("unit"); }

LoadedFight load_fight(const std::shared_ptr<const Document>& doc, const LoadOptions& options) {
  return FightReader(doc, options).read();
}

}  // namespace salvo::load::detail
