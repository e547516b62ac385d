// w1943_loader.cpp — "1943" situation files and chart files (TOML) into w1943 rules data.
//
// Situation files: a schema of settings (dotted path + a function that validates a TOML value
// and stores it) serves both the tables and the [sweep] axes, as for ASL. Chart files: every
// table is walked strictly, then the chart's structure is checked with the line of each part.

#include "salvo/load/w1943_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "salvo/load/toml_util.h"
#include "toml_nodes.h"

namespace salvo::load {
namespace {

using detail::describe;
using detail::line_of;
namespace w = salvo::w1943;

struct Ctx {
  const std::string& file;
  std::string_view text;
};

[[noreturn]] void fail(const Ctx& c, int line, std::string_view key, std::string_view what) {
  throw InputError(fmt::format("{}:{}: {}: {}", c.file, line, key, what));
}

[[noreturn]] void expected(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what) {
  fail(c, line_of(n), path, fmt::format("expected {}, got {}", what, describe(n, c.text)));
}

int read_int(const Ctx& c, std::string_view path, const toml::node& n, int lo, int hi) {
  const auto* v = n.as_integer();
  if (v == nullptr || v->get() < lo || v->get() > hi) expected(c, path, n, fmt::format("an integer in {}..{}", lo, hi));
  return static_cast<int>(v->get());
}

bool read_bool(const Ctx& c, std::string_view path, const toml::node& n) {
  const auto* v = n.as_boolean();
  if (v == nullptr) expected(c, path, n, "true or false");
  return v->get();
}

template <class E>
using Names = std::vector<std::pair<std::string_view, E>>;

template <class E>
E read_enum(const Ctx& c, std::string_view path, const toml::node& n, const Names<E>& names) {
  if (const auto* s = n.as_string())
    for (const auto& [name, value] : names)
      if (s->get() == name) return value;
  std::string list;
  for (const auto& [name, value] : names) list += (list.empty() ? "" : ", ") + std::string(name);
  expected(c, path, n, "one of " + list);
}

const toml::table& read_table(const Ctx& c, std::string_view path, const toml::node& n) {
  const auto* t = n.as_table();
  if (t == nullptr) expected(c, path, n, "a table");
  return *t;
}

[[noreturn]] void unknown_key(const Ctx& c, int line, const std::string& path, const std::vector<std::string>& known) {
  std::string what = "unknown key";
  if (const auto guess = closest_name(path, known)) what += " (did you mean " + *guess + "?)";
  fail(c, line, path, what);
}

// =============================================================================================
// Chart files

const Names<w::Result> kResults = {
    {"none", w::Result::kNone}, {"I", w::Result::kImmobilized}, {"D", w::Result::kDamaged}, {"K", w::Result::kKilled}};

/// Walk a table whose keys must be among `known` (relative names); calls `on` per entry.
void walk(const Ctx& c, const std::string& prefix, const toml::table& t, const std::vector<std::string>& known,
          const std::function<void(const detail::Entry&, const std::string&)>& on) {
  std::vector<std::string> full;
  for (const auto& k : known) full.push_back(prefix.empty() ? k : prefix + "." + k);
  for (const detail::Entry& e : detail::entries_in_file_order(t)) {
    const std::string path = prefix.empty() ? e.key : prefix + "." + e.key;
    if (std::find(known.begin(), known.end(), e.key) == known.end()) unknown_key(c, line_of(e.pos), path, full);
    on(e, path);
  }
}

/// A table of modifiers: name -> integer in -20..20; names must be among `allowed`.
std::map<std::string, int> read_mods(const Ctx& c, const std::string& path, const toml::node& n,
                                     const std::vector<std::string>& allowed) {
  std::map<std::string, int> m;
  walk(c, path, read_table(c, path, n), allowed,
       [&](const detail::Entry& e, const std::string& p) { m[e.key] = read_int(c, p, *e.node, -20, 20); });
  return m;
}

/// Result boxes keyed by modified total; every total from `lo` to `hi` must be present, and
/// the keys must run without a gap.
w::ResultTable read_results(const Ctx& c, const std::string& path, const toml::node& n, int lo, int hi,
                            const char* unit) {
  const toml::table& t = read_table(c, path, n);
  std::map<int, w::Result> boxes;
  for (const detail::Entry& e : detail::entries_in_file_order(t)) {
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
    boxes[total] = read_enum(c, p, *e.node, kResults);
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
  if (a == nullptr || !a->is_array_of_tables() || a->empty()) expected(c, path, n, "an array of tables ([[" + path + "]])");
  std::vector<w::RangeBand> bands;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& bn = *a->get(i);
    const std::string p = fmt::format("{}[{}]", path, i);
    const toml::table& t = *bn.as_table();
    w::RangeBand b;
    std::set<std::string> seen;
    walk(c, p, t, {"from", "to", value_key}, [&](const detail::Entry& e, const std::string& ep) {
      seen.insert(e.key);
      if (e.key == "from") b.from = read_int(c, ep, *e.node, 0, 100000);
      else if (e.key == "to") b.to = read_int(c, ep, *e.node, 0, 100000);
      else b.value = read_int(c, ep, *e.node, lo, hi);
    });
    for (const std::string& k : std::vector<std::string>{"from", "to", value_key})
      if (!seen.count(k)) fail(c, line_of(bn), p, "missing " + k);
    if (b.to < b.from) fail(c, line_of(bn), p, fmt::format("ends before it starts ({}..{} yards)", b.from, b.to));
    if (i == 0 && b.from != 0) fail(c, line_of(bn), p, fmt::format("the first band must start at 0 yards, got {}", b.from));
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

void require(const Ctx& c, const toml::table& t, std::string_view path, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys)
    if (!t.contains(k))
      fail(c, line_of(t), path.empty() ? std::string(k) : fmt::format("{}.{}", path, k), "missing (required)");
}

w::Chart load_chart(std::string_view text, const std::string& file) {
  const Ctx c{file, text};
  const toml::table root = detail::parse_toml(text, file);
  w::Chart chart;
  chart.name = std::filesystem::path(file).stem().string();
  require(c, root, "", {"small_arms", "artillery", "ranges"});
  walk(c, "", root, {"name", "ranges", "small_arms", "artillery"}, [&](const detail::Entry& e, const std::string& p) {
    if (e.key == "name") {
      const auto* s = e.node->as_string();
      if (s == nullptr) expected(c, p, *e.node, "a string");
      chart.name = s->get();
    } else if (e.key == "ranges") {
      for (const detail::Entry& r : detail::entries_in_file_order(read_table(c, p, *e.node)))
        chart.ranges[r.key] = read_int(c, p + "." + toml_key(r.key), *r.node, 1, 100000);
    } else if (e.key == "small_arms") {
      const toml::table& t = read_table(c, p, *e.node);
      require(c, t, p, {"dice", "modifiers", "range_bands", "results"});
      // dice first: the results need it.
      chart.small_arms_dice = read_enum(c, p + ".dice", *t.get("dice"), Names<int>{{"1d6", 1}, {"2d6", 2}});
      walk(c, p, t, {"dice", "modifiers", "range_bands", "results"}, [&](const detail::Entry& s, const std::string& sp) {
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
      walk(c, p, t, {"range_bands", "anti_tank", "anti_personnel", "kill", "shell_size_kill"},
           [&](const detail::Entry& s, const std::string& sp) {
             if (s.key == "range_bands") {
               chart.artillery_bands = read_bands(c, sp, *s.node, "to_hit", 2, 13);
             } else if (s.key == "anti_tank" || s.key == "anti_personnel") {
               const bool at = s.key == "anti_tank";
               w::ArtillerySection& sec = at ? chart.anti_tank : chart.anti_personnel;
               const auto& names = at ? w::kAntiTankModifiers : w::kAntiPersonnelModifiers;
               walk(c, sp, read_table(c, sp, *s.node), {"to_hit", "to_kill"},
                    [&](const detail::Entry& m, const std::string& mp) {
                      (m.key == "to_hit" ? sec.to_hit : sec.to_kill) = read_mods(c, mp, *m.node, names);
                    });
               for (const std::string& m : names)
                 if (!sec.to_hit.count(m) && !sec.to_kill.count(m))
                   fail(c, line_of(*s.node), sp, "missing modifier " + m + " (give it in to_hit or to_kill)");
             } else if (s.key == "kill") {
               const toml::table& k = read_table(c, sp, *s.node);
               require(c, k, sp, {"anti_tank", "anti_personnel"});
               walk(c, sp, k, {"anti_tank", "anti_personnel"}, [&](const detail::Entry& m, const std::string& mp) {
                 (m.key == "anti_tank" ? chart.anti_tank : chart.anti_personnel).kill =
                     read_results(c, mp, *m.node, 1, 6, "die face");
               });
             } else if (s.key == "shell_size_kill") {
               const auto* a = s.node->as_array();
               if (a == nullptr || a->size() != static_cast<std::size_t>(w::kNumShellSizes)) {
                 const std::string what = "an array of 12 integers (shell size categories 0..11)";
                 if (a == nullptr) expected(c, sp, *s.node, what);
                 fail(c, line_of(*s.node), sp,
                      fmt::format("expected {}, got an array of {} value{}", what, a->size(), a->size() == 1 ? "" : "s"));
               }
               for (std::size_t i = 0; i < a->size(); ++i)
                 chart.shell_size_kill[i] = read_int(c, fmt::format("{}[{}]", sp, i), *a->get(i), -20, 20);
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
using Lines = std::map<std::string, int, std::less<>>;
using ApplyFn = std::function<void(const Ctx&, const std::string&, const toml::node&, Situation&)>;

struct Field {
  std::string path;
  ApplyFn apply;
};

template <class Get>
Field int_field(std::string path, int lo, int hi, Get get) {
  return {std::move(path), [lo, hi, get](const Ctx& c, const std::string& p, const toml::node& n, Situation& s) {
            get(s) = read_int(c, p, n, lo, hi);
          }};
}
template <class Get>
Field bool_field(std::string path, Get get) {
  return {std::move(path),
          [get](const Ctx& c, const std::string& p, const toml::node& n, Situation& s) { get(s) = read_bool(c, p, n); }};
}
template <class E, class Get>
Field enum_field(std::string path, const Names<E>& names, Get get) {
  return {std::move(path), [&names, get](const Ctx& c, const std::string& p, const toml::node& n, Situation& s) {
            get(s) = read_enum(c, p, n, names);
          }};
}
#define W1943_F(part, member) [](Situation& s) -> auto& { return s.part.member; }

const Names<w::MachineGun> kMg = {{"none", w::MachineGun::kNone},
                                  {"light", w::MachineGun::kLight},
                                  {"medium", w::MachineGun::kMedium},
                                  {"heavy", w::MachineGun::kHeavy}};
const Names<w::Training> kTraining = {
    {"average", w::Training::kAverage}, {"outstanding", w::Training::kOutstanding}, {"abysmal", w::Training::kAbysmal}};
const Names<w::Ammo> kAmmo = {{"HE", w::Ammo::kHE}, {"AP", w::Ammo::kAP}, {"APCP", w::Ammo::kAPCP}};
const Names<w::Ammo> kFallback = {{"none", w::Ammo::kNone}, {"HE", w::Ammo::kHE}, {"AP", w::Ammo::kAP}};
const Names<w::TargetType> kTargetTypes = {{"infantry", w::TargetType::kInfantry},
                                           {"machine_gun", w::TargetType::kMachineGun},
                                           {"mortar", w::TargetType::kMortar},
                                           {"towed_gun", w::TargetType::kTowedGun},
                                           {"vehicle", w::TargetType::kVehicle}};
const Names<w::TargetSize> kSizes = {
    {"normal", w::TargetSize::kNormal}, {"large", w::TargetSize::kLarge}, {"small", w::TargetSize::kSmall}};
const Names<w::FireKind> kKinds = {{"small_arms", w::FireKind::kSmallArms},
                                   {"direct_artillery", w::FireKind::kArtillery},
                                   {"flamethrower", w::FireKind::kFlamethrower},
                                   {"smoke", w::FireKind::kSmoke}};

void apply_name(const Ctx& c, const std::string& p, const toml::node& n, Situation& s) {
  const auto* v = n.as_string();
  if (v == nullptr) expected(c, p, n, "a string");
  s.name = v->get();
}
void apply_weapon(const Ctx& c, const std::string& p, const toml::node& n, Situation& s) {
  const auto* v = n.as_string();
  if (v == nullptr) expected(c, p, n, "a weapon of the chart's Base and Range chart (a string)");
  s.firer.weapon = v->get();
}
void apply_shell(const Ctx& c, const std::string& p, const toml::node& n, Situation& s) {
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

const std::vector<Field>& schema() {
  static const std::vector<Field> fields = [] {
    std::vector<Field> f;
    f.push_back({"name", apply_name});
    f.push_back(int_field("firer.bases", 1, w::kMaxBases, W1943_F(firer, bases)));
    f.push_back(int_field("firer.bases_firing", 1, w::kMaxBases, W1943_F(firer, bases_firing)));
    f.push_back(enum_field("firer.mg", kMg, W1943_F(firer, mg)));
    f.push_back(bool_field("firer.mortar", W1943_F(firer, mortar)));
    f.push_back(bool_field("firer.mounted_cavalry", W1943_F(firer, mounted_cavalry)));
    f.push_back(enum_field("firer.training", kTraining, W1943_F(firer, training)));
    f.push_back(bool_field("firer.demoralized", W1943_F(firer, demoralized)));
    f.push_back(bool_field("firer.moved", W1943_F(firer, moved)));
    f.push_back(bool_field("firer.damaged", W1943_F(firer, damaged)));
    f.push_back({"firer.weapon", apply_weapon});
    f.push_back(enum_field("firer.ammo", kAmmo, W1943_F(firer, ammo)));
    f.push_back(bool_field("firer.secondary", W1943_F(firer, secondary)));
    f.push_back(enum_field("firer.fallback_ammo", kFallback, W1943_F(firer, fallback_ammo)));
    f.push_back({"firer.shell_size", apply_shell});
    f.push_back(int_field("firer.weapon_value", -20, 20, W1943_F(firer, weapon_value)));
    f.push_back(bool_field("firer.jammed", W1943_F(firer, jammed)));
    f.push_back(enum_field("target.type", kTargetTypes, W1943_F(target, type)));
    f.push_back(int_field("target.bases", 1, w::kMaxBases, W1943_F(target, bases)));
    f.push_back(bool_field("target.damaged", W1943_F(target, damaged)));
    f.push_back(bool_field("target.immobilized", W1943_F(target, immobilized)));
    f.push_back(bool_field("target.prone", W1943_F(target, prone)));
    f.push_back(bool_field("target.packed", W1943_F(target, packed)));
    f.push_back(bool_field("target.rushing", W1943_F(target, rushing)));
    f.push_back(bool_field("target.soft_cover", W1943_F(target, soft_cover)));
    f.push_back(bool_field("target.solid_cover", W1943_F(target, solid_cover)));
    f.push_back(bool_field("target.hard_cover", W1943_F(target, hard_cover)));
    f.push_back(enum_field("target.size", kSizes, W1943_F(target, size)));
    f.push_back(bool_field("target.stationary_in_open", W1943_F(target, stationary_in_open)));
    f.push_back(bool_field("target.moving", W1943_F(target, moving)));
    f.push_back(int_field("target.defense", -20, 20, W1943_F(target, defense)));
    f.push_back(enum_field("fire.kind", kKinds, W1943_F(fire, kind)));
    f.push_back(int_field("fire.range", 0, 10000, W1943_F(fire, range)));
    f.push_back(bool_field("fire.flank_rear", W1943_F(fire, flank_rear)));
    f.push_back(int_field("fire.turns", 1, w::kMaxTurns, W1943_F(fire, turns)));
    return f;
  }();
  return fields;
}
#undef W1943_F

const Field* find_field(std::string_view path) {
  for (const Field& f : schema())
    if (f.path == path) return &f;
  return nullptr;
}

const std::vector<std::string>& known_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"ruleset", "chart", "firer", "target", "fire", "sweep"};
    for (const Field& f : schema()) n.push_back(f.path);
    return n;
  }();
  return names;
}

struct Axis {
  const Field* field;
  std::string path;
  int line;
  std::vector<const toml::node*> values;
  std::vector<std::string> labels;
};

void collect_sweep(const Ctx& c, const toml::table& t, const std::string& prefix, std::vector<Axis>& axes, Lines& swept) {
  for (const detail::Entry& e : detail::entries_in_file_order(t)) {
    const std::string path = prefix.empty() ? e.key : prefix + "." + e.key;
    if (const auto* sub = e.node->as_table()) {
      collect_sweep(c, *sub, path, axes, swept);
      continue;
    }
    const int line = line_of(e.pos);
    const std::string key = "sweep." + toml_key(path);
    if (path == "ruleset" || path == "chart") fail(c, line, path, "cannot be swept");
    const Field* field = find_field(path);
    if (field == nullptr) unknown_key(c, line, path, known_names());
    const auto* array = e.node->as_array();
    if (array == nullptr) expected(c, key, *e.node, "an array of values");
    if (array->empty()) fail(c, line, key, "empty array (give at least one value)");
    if (swept.count(path)) fail(c, line, key, fmt::format("swept twice (also on line {})", swept[path]));
    Axis axis{field, path, line, {}, {}};
    detail::SourceText source(c.text);
    for (const toml::node& v : *array) {
      Situation scratch;
      field->apply(c, path, v, scratch);
      axis.values.push_back(&v);
      axis.labels.push_back(detail::as_written(v, source));
    }
    swept[path] = line;
    axes.push_back(std::move(axis));
  }
}

int conflict_line(const std::string& key, const Lines& swept, const Lines& set, const Lines& headers) {
  for (const Lines* lines : {&swept, &set})
    for (std::string k = key; !k.empty();) {
      if (const auto it = lines->find(k); it != lines->end()) return it->second;
      const auto dot = k.rfind('.');
      k = dot == std::string::npos ? std::string() : k.substr(0, dot);
    }
  // A setting that is missing: the line of the setting that requires it (the shell size is
  // needed by direct artillery fire at personnel).
  if (key == "firer.shell_size")
    for (const Lines* lines : {&swept, &set})
      if (const auto it = lines->find("fire.kind"); it != lines->end()) return it->second;
  const auto table = headers.find(std::string_view(key).substr(0, key.find('.')));
  return table != headers.end() ? table->second : 1;
}

W1943File load_situation(std::string_view source_text, const std::string& source_file, const std::string& base_dir,
                         const LoadOptions& options) {
  const auto doc = detail::parse_document(source_text, source_file);
  const std::string& file = doc->file;
  const Ctx c{file, doc->text};
  const toml::table& root = doc->root;
  W1943File out;
  out.path = file;
  Situation base;
  base.name = std::filesystem::path(file).stem().string();
  Lines set, swept, headers;
  std::vector<Axis> axes;
  std::optional<int> sweep_line;
  std::string chart_path;
  int chart_line = 1;
  bool have_ruleset = false;
  for (const detail::Entry& e : detail::entries_in_file_order(root)) {
    const int line = line_of(e.pos);
    if (e.key == "ruleset") {
      const auto* v = e.node->as_string();
      if (v == nullptr || v->get() != "1943") expected(c, "ruleset", *e.node, "\"1943\"");
      have_ruleset = true;
    } else if (e.key == "chart") {
      const auto* v = e.node->as_string();
      if (v == nullptr || v->get().empty()) expected(c, "chart", *e.node, "the path of a chart file (a string)");
      chart_path = v->get();
      chart_line = line;
    } else if (e.key == "sweep") {
      const toml::table& t = read_table(c, "sweep", *e.node);
      sweep_line = line_of(t);
      // The size from the arrays' lengths, refused before any value is read.
      const SweepSize size = sweep_size(detail::sweep_array_lengths(t), options.max_situations);
      if (size.too_big) fail(c, *sweep_line, "sweep", size.message);
      collect_sweep(c, t, "", axes, swept);
    } else if (e.key == "firer" || e.key == "target" || e.key == "fire") {
      const toml::table& t = read_table(c, e.key, *e.node);
      headers[e.key] = line_of(t);
      for (const detail::Entry& sub : detail::entries_in_file_order(t)) {
        const std::string path = e.key + "." + sub.key;
        const Field* f = find_field(path);
        if (f == nullptr) unknown_key(c, line_of(sub.pos), path, known_names());
        f->apply(c, path, *sub.node, base);
        set[path] = line_of(sub.pos);
      }
    } else if (const Field* f = find_field(e.key)) {
      f->apply(c, e.key, *e.node, base);
      set[e.key] = line;
    } else {
      unknown_key(c, line, e.key, known_names());
    }
  }
  if (!have_ruleset) fail(c, 1, "ruleset", "required (ruleset = \"1943\")");
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
  if (!set.count("fire.range") && !swept.count("fire.range")) {
    const auto fire = headers.find("fire");
    fail(c, fire != headers.end() ? fire->second : 1, "fire.range",
         "missing (required): the range in yards, closest point of the firer to closest point of the target (3.5, 3.6)");
  }

  std::vector<std::size_t> sizes;
  for (const Axis& a : axes) sizes.push_back(a.values.size());
  const SweepSize size = sweep_size(sizes, options.max_situations);
  if (!axes.empty() && size.too_big) fail(c, sweep_line.value_or(1), "sweep", size.message);
  for (const Axis& a : axes) out.sweep_keys.push_back(a.path);
  // The points, made on demand from their index (first axis slowest); each is made once here
  // to check it against the rules, then dropped: memory does not grow with the sweep.
  auto make = [doc, base, axes = std::move(axes), sizes](std::size_t n) {
    const Ctx cx{doc->file, doc->text};
    const std::vector<std::size_t> index = sweep_index(sizes, n);
    W1943Point point{base, {}};
    for (std::size_t i = 0; i < axes.size(); ++i) {
      axes[i].field->apply(cx, axes[i].path, *axes[i].values[index[i]], point.situation);
      point.sweep_values.emplace_back(axes[i].path, axes[i].labels[index[i]]);
    }
    return point;
  };
  for (std::size_t n = 0; n < size.total; ++n) {
    const W1943Point point = make(n);
    if (const auto error = w::check(*out.chart, point.situation)) {
      const std::string& key = error->key();
      const std::string message = key == "chart" ? fmt::format("{}: {}", out.chart_path, error->what())
                                                 : fmt::format("{}:{}: {}: {}", file, conflict_line(key, swept, set, headers),
                                                               key, error->what());
      throw InputError(message + sweep_point_suffix(point.sweep_values));
    }
  }
  out.situations = SweepPoints<W1943Point>(size.total, std::move(make));
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
