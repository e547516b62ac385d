// w1943_loader.cpp — "1943" situation files and chart files (TOML) into w1943 rules data.
//
// Situation files: a schema of settings (schema.h: dotted path + a function that validates a
// TOML value and stores it) serves both the tables and the [sweep] axes, as for ASL. Chart
// files: every table is walked strictly, then the chart's structure is checked with the line of
// each part.

#include "salvo/load/w1943_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "salvo/load/toml_util.h"
#include "schema.h"

namespace salvo::load {
namespace {

using namespace detail;
namespace w = salvo::w1943;

// =============================================================================================
// Chart files

const Choices<w::Result> kResults = {
    {"none", w::Result::kNone}, {"I", w::Result::kImmobilized}, {"D", w::Result::kDamaged}, {"K", w::Result::kKilled}};

/// A table of modifiers: name -> integer in -20..20; names must be among `allowed`.
std::map<std::string, int> read_mods(const Ctx& c, const std::string& path, const toml::node& n,
                                     const std::vector<std::string>& allowed) {
  std::map<std::string, int> m;
  walk_table(c, path, read_table(c, path, n), allowed,
             [&](const Entry& e, const std::string& p) { m[e.key] = read_int(c, p, *e.node, -20, 20); });
  return m;
}

/// Result boxes keyed by modified total; every total from `lo` to `hi` must be present, and
/// the keys must run without a gap.
w::ResultTable read_results(const Ctx& c, const std::string& path, const toml::node& n, int lo, int hi,
                            const char* unit) {
  const toml::table& t = read_table(c, path, n);
  std::map<int, w::Result> boxes;
  for (const Entry& e : entries_in_file_order(t)) {
    const std::string p = path + "." + toml_key(e.key);
    int total = 0;
    try {
      std::size_t used = 0;
      total = std::stoi(e.key, &used);
      if (used != e.key.size() || total < -30 || total > 40) throw std::invalid_argument("range");
    } catch (const std::exception&) {
      fail(c, line_of(e.pos), p, fmt::format("expected a {} in -30..40 as the key", unit));
    }
    if (boxes.count(total)) fail(c, line_of(e.pos), p, "given twice");
    boxes[total] = read_choice(c, p, *e.node, kResults);
  }
  const int first = boxes.empty() ? lo : std::min(lo, boxes.begin()->first);
  const int last = boxes.empty() ? hi : std::max(hi, boxes.rbegin()->first);
  for (int v = first; v <= last; ++v)
    if (!boxes.count(v)) fail(c, line_of(n), path, fmt::format("missing result for {} {}", unit, v));
  w::ResultTable out;
  out.lowest = first;
  for (const auto& [k, r] : boxes) out.results.push_back(r);
  return out;
}

/// An array of range bands {from, to, <value_key>}, yards inclusive, from 0 without gaps.
std::vector<w::RangeBand> read_bands(const Ctx& c, const std::string& path, const toml::node& n,
                                     const std::string& value_key, int lo, int hi) {
  const auto* a = n.as_array();
  if (a == nullptr || !a->is_array_of_tables() || a->empty())
    expected(c, path, n, "an array of tables ([[" + path + "]])");
  std::vector<w::RangeBand> bands;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& bn = *a->get(i);
    const std::string p = fmt::format("{}[{}]", path, i);
    const toml::table& t = *bn.as_table();
    w::RangeBand b;
    std::set<std::string> seen;
    walk_table(c, p, t, {"from", "to", value_key}, [&](const Entry& e, const std::string& ep) {
      seen.insert(e.key);
      if (e.key == "from")
        b.from = read_int(c, ep, *e.node, 0, 100000);
      else if (e.key == "to")
        b.to = read_int(c, ep, *e.node, 0, 100000);
      else
        b.value = read_int(c, ep, *e.node, lo, hi);
    });
    for (const std::string& k : std::vector<std::string>{"from", "to", value_key})
      if (!seen.count(k)) fail(c, line_of(bn), p, "missing " + k);
    if (b.to < b.from) fail(c, line_of(bn), p, fmt::format("ends before it starts ({}..{} yards)", b.from, b.to));
    if (i == 0 && b.from != 0)
      fail(c, line_of(bn), p, fmt::format("the first band must start at 0 yards, got {}", b.from));
    if (i > 0) {
      const w::RangeBand& prev = bands.back();
      if (b.from <= prev.to)
        fail(c, line_of(bn), p,
             fmt::format("overlaps band {} ({}..{} yards vs {}..{})", i - 1, b.from, b.to, prev.from, prev.to));
      if (b.from > prev.to + 1)
        fail(c, line_of(bn), p,
             fmt::format("gap after band {} (yards {}..{} are in no band)", i - 1, prev.to + 1, b.from - 1));
    }
    bands.push_back(b);
  }
  return bands;
}

w::Chart load_chart(std::string_view text, const std::string& file) {
  const Ctx c{file, text};
  const toml::table root = parse_toml(text, file);
  w::Chart chart;
  chart.name = std::filesystem::path(file).stem().string();
  require(c, root, "", {"small_arms", "artillery", "ranges"});
  walk_table(c, "", root, {"name", "ranges", "small_arms", "artillery"}, [&](const Entry& e, const std::string& p) {
    if (e.key == "name") {
      chart.name = read_string(c, p, *e.node);
    } else if (e.key == "ranges") {
      for (const Entry& r : entries_in_file_order(read_table(c, p, *e.node)))
        chart.ranges[r.key] = read_int(c, p + "." + toml_key(r.key), *r.node, 1, 100000);
    } else if (e.key == "small_arms") {
      const toml::table& t = read_table(c, p, *e.node);
      require(c, t, p, {"dice", "modifiers", "range_bands", "results"});
      // dice first: the results need it.
      chart.small_arms_dice = read_choice(c, p + ".dice", *t.get("dice"), Choices<int>{{"1d6", 1}, {"2d6", 2}});
      walk_table(c, p, t, {"dice", "modifiers", "range_bands", "results"}, [&](const Entry& s, const std::string& sp) {
        if (s.key == "modifiers") {
          chart.small_arms_mods = read_mods(c, sp, *s.node, w::kSmallArmsModifiers);
          for (const std::string& m : w::kSmallArmsModifiers)
            if (!chart.small_arms_mods.count(m)) fail(c, line_of(*s.node), sp, "missing modifier " + m);
        } else if (s.key == "range_bands") {
          chart.small_arms_bands = read_bands(c, sp, *s.node, "modifier", -20, 20);
        } else if (s.key == "results") {
          chart.small_arms_results =
              read_results(c, sp, *s.node, chart.small_arms_dice, 6 * chart.small_arms_dice, "total");
        }
      });
    } else if (e.key == "artillery") {
      const toml::table& t = read_table(c, p, *e.node);
      require(c, t, p, {"range_bands", "anti_tank", "anti_personnel", "kill", "shell_size_kill"});
      walk_table(c, p, t, {"range_bands", "anti_tank", "anti_personnel", "kill", "shell_size_kill"},
                 [&](const Entry& s, const std::string& sp) {
                   if (s.key == "range_bands") {
                     chart.artillery_bands = read_bands(c, sp, *s.node, "to_hit", 2, 13);
                   } else if (s.key == "anti_tank" || s.key == "anti_personnel") {
                     const bool at = s.key == "anti_tank";
                     w::ArtillerySection& sec = at ? chart.anti_tank : chart.anti_personnel;
                     const auto& names = at ? w::kAntiTankModifiers : w::kAntiPersonnelModifiers;
                     walk_table(c, sp, read_table(c, sp, *s.node), {"to_hit", "to_kill"},
                                [&](const Entry& m, const std::string& mp) {
                                  (m.key == "to_hit" ? sec.to_hit : sec.to_kill) = read_mods(c, mp, *m.node, names);
                                });
                     for (const std::string& m : names)
                       if (!sec.to_hit.count(m) && !sec.to_kill.count(m))
                         fail(c, line_of(*s.node), sp, "missing modifier " + m + " (give it in to_hit or to_kill)");
                   } else if (s.key == "kill") {
                     const toml::table& k = read_table(c, sp, *s.node);
                     require(c, k, sp, {"anti_tank", "anti_personnel"});
                     walk_table(c, sp, k, {"anti_tank", "anti_personnel"}, [&](const Entry& m, const std::string& mp) {
                       (m.key == "anti_tank" ? chart.anti_tank : chart.anti_personnel).kill =
                           read_results(c, mp, *m.node, 1, 6, "die face");
                     });
                   } else if (s.key == "shell_size_kill") {
                     const toml::array& a =
                         read_array(c, sp, *s.node, "an array of 12 integers (shell size categories 0..11)",
                                    static_cast<std::size_t>(w::kNumShellSizes));
                     for (std::size_t i = 0; i < a.size(); ++i)
                       chart.shell_size_kill[i] = read_int(c, fmt::format("{}[{}]", sp, i), *a.get(i), -20, 20);
                   }
                 });
    }
  });
  // Anything the walk could not see (e.g. the Chart's own checks) is reported without a line.
  if (const auto problems = w::chart_problems(chart); !problems.empty()) fail(c, 1, "chart", problems.front());
  return chart;
}

// =============================================================================================
// Situation files

using w::Situation;

const Choices<w::MachineGun> kMg = choices_of(w::kMachineGunNames);
const Choices<w::Training> kTraining = {
    {"average", w::Training::kAverage}, {"outstanding", w::Training::kOutstanding}, {"abysmal", w::Training::kAbysmal}};
const Choices<w::Ammo> kAmmo = choices_of(w::kAmmoNames, {w::Ammo::kHE, w::Ammo::kAP, w::Ammo::kAPCP});
const Choices<w::Ammo> kFallback = choices_of(w::kAmmoNames, {w::Ammo::kNone, w::Ammo::kHE, w::Ammo::kAP});
const Choices<w::TargetType> kTargetTypes = choices_of(w::kTargetTypeNames);
const Choices<w::TargetSize> kSizes = {
    {"normal", w::TargetSize::kNormal}, {"large", w::TargetSize::kLarge}, {"small", w::TargetSize::kSmall}};
const Choices<w::FireKind> kKinds = {{"small_arms", w::FireKind::kSmallArms},
                                     {"direct_artillery", w::FireKind::kArtillery},
                                     {"flamethrower", w::FireKind::kFlamethrower},
                                     {"smoke", w::FireKind::kSmoke}};

void apply_shell(const Ctx& c, const std::string& p, const toml::node& n, Situation& s, Lines*) {
  if (const auto* i = n.as_integer(); i != nullptr && i->get() >= 0 && i->get() < w::kNumShellSizes) {
    s.firer.shell_size = static_cast<int>(i->get());
    return;
  }
  if (const auto* v = n.as_string())
    if (const auto size = w::shell_size_of(v->get())) {
      s.firer.shell_size = *size;
      return;
    }
  std::string list;
  for (const auto& name : w::shell_size_names()) list += (list.empty() ? "" : ", ") + name;
  expected(c, p, n, "a category 0..11 or one of " + list + " (3.6 Weapon Size Index)");
}

const Schema<Situation>& schema() {
  static const Schema<Situation> fields = [] {
    Schema<Situation> s;
    s.keys.ruleset = "1943";
    s.keys.ruleset_expected = "\"1943\"";
    s.keys.roots = {"chart"};
    s.keys.tables = {"firer", "target", "fire", "sweep"};
    // Direct artillery fire at personnel needs the shell size.
    s.keys.needed_by = {{"firer.shell_size", "fire.kind"}};
    s.keys.names_tables = false;
    s.keys.in_file_order = false;
    const auto firer = settings("firer", &Situation::firer);
    const auto target = settings("target", &Situation::target);
    const auto fire = settings("fire", &Situation::fire);
    using w::Fire, w::Firer, w::Target;
    s.add({top_level<Situation>()("name", &Situation::name),
           // [firer]
           firer("bases", &Firer::bases, 1, w::kMaxBases), firer("bases_firing", &Firer::bases_firing, 1, w::kMaxBases),
           firer("mg", &Firer::mg, kMg), firer("mortar", &Firer::mortar),
           firer("mounted_cavalry", &Firer::mounted_cavalry), firer("training", &Firer::training, kTraining),
           firer("demoralized", &Firer::demoralized), firer("moved", &Firer::moved), firer("damaged", &Firer::damaged),
           firer("weapon", &Firer::weapon, "a weapon of the chart's Base and Range chart (a string)"),
           firer("ammo", &Firer::ammo, kAmmo), firer("secondary", &Firer::secondary),
           firer("fallback_ammo", &Firer::fallback_ammo, kFallback), firer("shell_size", apply_shell),
           firer("weapon_value", &Firer::weapon_value, -20, 20), firer("jammed", &Firer::jammed),
           // [target]
           target("type", &Target::type, kTargetTypes), target("bases", &Target::bases, 1, w::kMaxBases),
           target("damaged", &Target::damaged), target("immobilized", &Target::immobilized),
           target("prone", &Target::prone), target("packed", &Target::packed), target("rushing", &Target::rushing),
           target("soft_cover", &Target::soft_cover), target("solid_cover", &Target::solid_cover),
           target("hard_cover", &Target::hard_cover), target("size", &Target::size, kSizes),
           target("stationary_in_open", &Target::stationary_in_open), target("moving", &Target::moving),
           target("defense", &Target::defense, -20, 20),
           // [fire]
           fire("kind", &Fire::kind, kKinds), fire("range", &Fire::range, 0, 10000),
           fire("flank_rear", &Fire::flank_rear), fire("turns", &Fire::turns, 1, w::kMaxTurns)});
    return s;
  }();
  return fields;
}

W1943File load_situation(std::string_view source_text, const std::string& source_file, const std::string& base_dir,
                         const LoadOptions& options) {
  const auto doc = parse_document(source_text, source_file);
  const std::string& file = doc->file;
  const Ctx c{file, doc->text};
  W1943File out;
  out.path = file;
  Situation defaults;
  defaults.name = std::filesystem::path(file).stem().string();
  std::string chart_path;
  int chart_line = 1;
  Walked<Situation> walked =
      walk(c, doc->root, schema(), options.max_situations, std::move(defaults), [&](const Item& chart) {
        const std::string_view what = "the path of a chart file (a string)";
        chart_path = read_string(c, "chart", *chart.node, what);
        if (chart_path.empty()) expected(c, "chart", *chart.node, what);
        chart_line = line_of(chart.pos);
      });
  if (chart_path.empty()) fail(c, 1, "chart", "required: the chart file (chart = \"path/to/chart.toml\")");
  // The chart, relative to the situation file.
  std::filesystem::path cp(chart_path);
  if (cp.is_relative()) cp = std::filesystem::path(base_dir) / cp;
  out.chart_path = cp.lexically_normal().string();
  if (std::error_code ec; std::filesystem::is_directory(cp, ec))
    fail(c, chart_line, "chart", fmt::format("expected a chart file, got a directory ({})", out.chart_path));
  try {
    out.chart = std::make_shared<const w::Chart>(load_chart_file(out.chart_path, options.max_file_bytes));
  } catch (const InputError& e) {
    // A chart that cannot be read is the situation file's problem; a bad chart is the chart's.
    if (!std::filesystem::exists(cp)) fail(c, chart_line, "chart", fmt::format("cannot read {}", out.chart_path));
    throw;
  }

  // The range has no default a player would assume: every modifier by range hangs on it.
  if (!walked.set.count("fire.range") && !walked.swept.count("fire.range")) {
    const auto fire = walked.headers.find("fire");
    fail(
        c, fire != walked.headers.end() ? fire->second : 1, "fire.range",
        "missing (required): the range in yards, closest point of the firer to closest point of the target (3.5, 3.6)");
  }

  out.sweep_keys = walked.sweep_keys;
  out.situations = expand<W1943Point>(doc, walked, options.max_situations, [&](const W1943Point& point) {
    if (const auto error = w::check(*out.chart, point.situation)) {
      if (error->key() == "chart")
        throw InputError(fmt::format("{}: {}", out.chart_path, error->what()) + sweep_point_suffix(point.sweep_values));
      rules_conflict(c, walked, error->key(), error->what(), point.sweep_values);
    }
  });
  return out;
}

}  // namespace

w1943::Chart load_chart_file(const std::string& path, std::size_t max_bytes) {
  return load_chart(read_text_file(path, max_bytes), path);
}

w1943::Chart load_chart_string(std::string_view toml, const std::string& source_name) {
  return load_chart(toml, source_name);
}

W1943File load_w1943_file(const std::string& path, const LoadOptions& options) {
  const std::string text = read_text_file(path, options.max_file_bytes);
  return load_situation(text, path, std::filesystem::path(path).parent_path().string(), options);
}

W1943File load_w1943_string(std::string_view toml, const std::string& source_name, const std::string& base_dir,
                            const LoadOptions& options) {
  return load_situation(toml, source_name, base_dir, options);
}

}  // namespace salvo::load
