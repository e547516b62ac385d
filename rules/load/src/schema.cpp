// schema.cpp — the strict-TOML schema kit: messages, readers, unknown keys, the walk of a
// situation file and its [sweep] axes.

#include "schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace salvo::load::detail {

std::string message(const Ctx& c, int line, std::string_view key, std::string_view what) {
  return fmt::format("{}:{}: {}: {}", c.file, line, printable_key(key), what);
}

void fail(const Ctx& c, int line, std::string_view key, std::string_view what) {
  throw InputError(message(c, line, key, what));
}

void expected(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what) {
  fail(c, line_of(n), path, fmt::format("expected {}, got {}", what, describe(n, c.text)));
}

// ---- Readers ----

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

double read_float(const Ctx& c, std::string_view path, const toml::node& n, double lo, double step,
                  std::string_view what) {
  std::optional<double> x;
  if (const auto* i = n.as_integer()) x = static_cast<double>(i->get());
  if (const auto* f = n.as_floating_point()) x = f->get();
  if (!x || !std::isfinite(*x) || *x < lo || (step > 0 && std::floor(*x / step) != *x / step)) {
    expected(c, path, n, what);
  }
  return *x;
}

const std::string& read_string(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what) {
  const auto* v = n.as_string();
  if (v == nullptr) expected(c, path, n, what);
  return v->get();
}

const toml::table& read_table(const Ctx& c, std::string_view path, const toml::node& n) {
  const auto* t = n.as_table();
  if (t == nullptr) expected(c, path, n, "a table");
  return *t;
}

const toml::array& read_array(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what,
                              std::optional<std::size_t> size) {
  const auto* a = n.as_array();
  if (a == nullptr) expected(c, path, n, what);
  if (size && a->size() != *size) {
    fail(c, line_of(n), path,
         fmt::format("expected {}, got an array of {} value{}", what, a->size(), a->size() == 1 ? "" : "s"));
  }
  return *a;
}

// ---- Unknown and required keys ----

void unknown(const Ctx& c, int line, const std::string& path, const std::vector<std::string>& known,
             std::string_view noun) {
  std::string what(noun);
  if (const auto guess = closest_name(path, known)) what += " (did you mean " + *guess + "?)";
  fail(c, line, path, what);
}

void unknown(const Ctx& c, int line, const std::string& path, const toml::node& value, const Keys& keys) {
  // `[foo]` and `[[foo]]` are tables; anything else is a key.
  const auto* array = value.as_array();
  const bool table = value.is_table() || (array != nullptr && !array->empty() && array->is_array_of_tables());
  unknown(c, line, path, keys.known(), table && keys.names_tables ? "unknown table" : "unknown key");
}

void walk_table(const Ctx& c, const std::string& prefix, const toml::table& t, const std::vector<std::string>& known,
                const std::function<void(const Entry&, const std::string& path)>& on) {
  std::vector<std::string> full;
  for (const auto& k : known) full.push_back(prefix.empty() ? k : prefix + "." + k);
  for (const Entry& e : entries_in_file_order(t)) {
    const std::string path = prefix.empty() ? e.key : prefix + "." + e.key;
    if (std::find(known.begin(), known.end(), e.key) == known.end()) unknown(c, line_of(e.pos), path, full);
    on(e, path);
  }
}

void require(const Ctx& c, const toml::table& t, std::string_view path, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys)
    if (!t.contains(k))
      fail(c, line_of(t), path.empty() ? std::string(k) : fmt::format("{}.{}", path, k), "missing (required)");
}

// ---- The schema ----

std::optional<std::size_t> Keys::field(std::string_view path) const {
  const auto it = std::find(paths.begin(), paths.end(), path);
  if (it == paths.end()) return std::nullopt;
  return static_cast<std::size_t>(it - paths.begin());
}

bool Keys::is_table(std::string_view key) const { return std::find(tables.begin(), tables.end(), key) != tables.end(); }

bool Keys::is_root(std::string_view key) const { return std::find(roots.begin(), roots.end(), key) != roots.end(); }

std::vector<std::string> Keys::known() const {
  std::vector<std::string> names = {"ruleset"};
  for (const auto* list : {&roots, &tables, &paths}) names.insert(names.end(), list->begin(), list->end());
  return names;
}

// ---- Walking a situation file ----

namespace {

/// [sweep] and its dotted sub-tables: `"fire.range" = [...]` and `fire.range = [...]` alike.
void collect_sweep(const toml::table& table, const std::string& prefix, const Keys& keys, std::vector<Item>& items) {
  for (const Entry& e : entries_in_file_order(table)) {
    const std::string path = prefix.empty() ? e.key : prefix + "." + e.key;
    if (const auto* sub = e.node->as_table()) {
      collect_sweep(*sub, path, keys, items);
    } else {
      items.push_back({ItemKind::kSweepAxis, path, e.node, e.pos, keys.field(path)});
    }
  }
}

[[noreturn]] void sweep_too_big(const Ctx& c, const toml::table& sweep, std::size_t max_situations) {
  fail(c, line_of(sweep), "sweep", sweep_size(sweep_array_lengths(sweep), max_situations).message);
}

/// Every key of the file with where it is written, in the order they are to be checked.
void collect(const Ctx& c, const toml::table& root, const Keys& keys, std::size_t max_situations, Walk& w) {
  for (const Entry& e : entries_in_file_order(root)) {
    if (e.key == "ruleset") {
      w.items.push_back({ItemKind::kRuleset, e.key, e.node, e.pos, {}});
    } else if (keys.is_root(e.key)) {
      w.items.push_back({ItemKind::kRoot, e.key, e.node, e.pos, {}});
    } else if (keys.is_table(e.key)) {
      const auto* table = e.node->as_table();
      if (table == nullptr) {
        w.items.push_back({ItemKind::kNotATable, e.key, e.node, e.pos, {}});
        continue;
      }
      w.headers[e.key] = line_of(*table);
      if (e.key == "sweep") {
        w.sweep_line = line_of(*table);
        // The size from the arrays' lengths, refused before any value is read.
        if (sweep_size(sweep_array_lengths(*table), max_situations).too_big) {
          if (keys.in_file_order) sweep_too_big(c, *table, max_situations);
          w.items.push_back({ItemKind::kSweepSize, e.key, e.node, e.pos, {}});
        }
        collect_sweep(*table, "", keys, w.items);
        continue;
      }
      for (const Entry& sub : entries_in_file_order(*table)) {
        const std::string path = e.key + "." + sub.key;
        const auto field = keys.field(path);
        w.items.push_back({field ? ItemKind::kField : ItemKind::kUnknown, path, sub.node, sub.pos, field});
      }
    } else {
      const auto field = keys.field(e.key);
      w.items.push_back({field ? ItemKind::kField : ItemKind::kUnknown, e.key, e.node, e.pos, field});
    }
  }
  if (keys.in_file_order) {
    std::stable_sort(w.items.begin(), w.items.end(), [](const Item& a, const Item& b) {
      return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
    });
  }
}

/// A [sweep] key, checked before its values: a setting, swept once, to a non-empty array.
const toml::array& sweep_array(const Ctx& c, const Item& item, const Keys& keys, const Lines& swept) {
  const int line = line_of(item.pos);
  if (item.path == "ruleset" || keys.is_root(item.path)) fail(c, line, item.path, "cannot be swept");
  if (keys.names_tables && keys.is_table(item.path)) {
    fail(c, line, item.path, "is a table, not a setting (sweep its keys one by one)");
  }
  if (!item.field) unknown(c, line, item.path, *item.node, keys);
  const std::string key = "sweep." + toml_key(item.path);
  const auto* array = item.node->as_array();
  if (array == nullptr) expected(c, key, *item.node, "an array of values");
  if (array->empty()) fail(c, line, key, "empty array (give at least one value)");
  if (const auto it = swept.find(item.path); it != swept.end()) {
    fail(c, line, key, fmt::format("swept twice (also on line {})", it->second));
  }
  return *array;
}

}  // namespace

void walk_items(const Ctx& c, const toml::table& root, const Keys& keys, std::size_t max_situations, Walk& w,
                const std::function<void(const Item&)>& on_field,
                const std::function<void(const Item&, const toml::array&)>& on_axis,
                const std::function<void(const Item&)>& on_root) {
  w.keys = &keys;
  collect(c, root, keys, max_situations, w);

  // Validate and apply; the first error wins.
  bool have_ruleset = false;
  for (const Item& item : w.items) {
    const int line = line_of(item.pos);
    switch (item.kind) {
      case ItemKind::kRuleset: {
        const auto* v = item.node->as_string();
        if (v == nullptr || v->get() != keys.ruleset) expected(c, "ruleset", *item.node, keys.ruleset_expected);
        have_ruleset = true;
        w.set[item.path] = line;
        break;
      }
      case ItemKind::kRoot:
        on_root(item);
        break;
      case ItemKind::kField:
        on_field(item);
        w.set[item.path] = line;
        break;
      case ItemKind::kSweepAxis:
        on_axis(item, sweep_array(c, item, keys, w.swept));
        w.swept[item.path] = line;
        w.sweep_keys.push_back(item.path);
        break;
      case ItemKind::kSweepSize:
        sweep_too_big(c, *item.node->as_table(), max_situations);
      case ItemKind::kUnknown:
        unknown(c, line, item.path, *item.node, keys);
      case ItemKind::kNotATable:
        expected(c, item.path, *item.node, "a table");
    }
  }
  if (!have_ruleset) fail(c, 1, "ruleset", fmt::format("required (ruleset = \"{}\")", keys.ruleset));
}

void walk_sweep(const Ctx& c, const toml::table& sweep, const Keys& keys, std::size_t max_situations, Walk& w,
                const std::function<void(const Item&, const toml::array&)>& on_axis) {
  w.sweep_line = line_of(sweep);
  if (sweep_size(sweep_array_lengths(sweep), max_situations).too_big) sweep_too_big(c, sweep, max_situations);
  std::vector<Item> items;
  collect_sweep(sweep, "", keys, items);
  for (const Item& item : items) {
    on_axis(item, sweep_array(c, item, keys, w.swept));
    w.swept[item.path] = line_of(item.pos);
    w.sweep_keys.push_back(item.path);
  }
}

int Walk::conflict_line(const std::string& key) const {
  for (const Lines* lines : {&swept, &set}) {
    for (std::string k = key; !k.empty();) {
      if (const auto it = lines->find(k); it != lines->end()) return it->second;
      const auto dot = k.rfind('.');
      k = dot == std::string::npos ? std::string() : k.substr(0, dot);
    }
  }
  // A setting that is not written: the line of the setting that needs it.
  if (keys != nullptr) {
    for (const auto& [setting, by] : keys->needed_by) {
      if (key != setting) continue;
      for (const Lines* lines : {&swept, &set})
        if (const auto it = lines->find(by); it != lines->end()) return it->second;
    }
  }
  const auto table = headers.find(std::string_view(key).substr(0, key.find('.')));
  return table != headers.end() ? table->second : 1;
}

// ---- The sweep's points ----

void rules_conflict(const Ctx& c, const Walk& w, const std::string& key, std::string_view what,
                    const SweepValues& point) {
  throw InputError(message(c, w.conflict_line(key), key, what) + sweep_point_suffix(point));
}

std::size_t sweep_total(const Ctx& c, const Walk& w, const std::vector<std::size_t>& sizes,
                        std::size_t max_situations) {
  const SweepSize size = sweep_size(sizes, max_situations);
  if (!sizes.empty() && size.too_big) fail(c, w.sweep_line.value_or(1), "sweep", size.message);
  return size.total;
}

}  // namespace salvo::load::detail
