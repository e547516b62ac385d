#pragma once
// schema.h — the strict-TOML schema kit the loaders are written with (private to salvo::load,
// like toml_nodes.h: it speaks toml++ types).
//
// What is shared: where messages point and how they read, typed readers, the schema of allowed
// keys (a Field per setting: dotted path + a function that validates a TOML value and stores
// it), the walk of a situation file with its unknown-key errors, the [sweep] axes, their
// expansion into points, and the line a rules conflict is blamed on. What a loader keeps: its
// Schema (which keys exist, which values they take) and its mapping into rules structs.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/core/names.h"
#include "salvo/load/asl_loader.h"  // InputError
#include "salvo/load/toml_util.h"
#include "toml_nodes.h"

namespace salvo::load::detail {

// ---- Where messages point ----

/// A document's name as given and its text (for values as written).
struct Ctx {
  const std::string& file;
  std::string_view text;
};

/// Where each setting was made, or each table's header: dotted path -> line.
using Lines = std::map<std::string, int, std::less<>>;

/// "FILE:LINE: KEY: WHAT", the key as printable_key shows it (one line, no terminal control).
std::string message(const Ctx& c, int line, std::string_view key, std::string_view what);
/// Throws InputError(message(c, line, key, what)).
[[noreturn]] void fail(const Ctx& c, int line, std::string_view key, std::string_view what);
/// Fails at the value's line: "expected WHAT, got <the value as describe() shows it>".
[[noreturn]] void expected(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what);

// ---- Readers: one TOML value into one C++ value, or an error naming the path ----

/// An integer in lo..hi.
int read_int(const Ctx& c, std::string_view path, const toml::node& n, int lo, int hi);
bool read_bool(const Ctx& c, std::string_view path, const toml::node& n);
/// An integer or a float, finite, >= lo and a whole multiple of `step` (0: any); else "expected WHAT".
double read_float(const Ctx& c, std::string_view path, const toml::node& n, double lo, double step,
                  std::string_view what);
const std::string& read_string(const Ctx& c, std::string_view path, const toml::node& n,
                               std::string_view what = "a string");
const toml::table& read_table(const Ctx& c, std::string_view path, const toml::node& n);
/// An array, of exactly `size` values if given: "expected WHAT, got 3" or "expected WHAT, got an
/// array of 2 values".
const toml::array& read_array(const Ctx& c, std::string_view path, const toml::node& n, std::string_view what,
                              std::optional<std::size_t> size = std::nullopt);

/// The strings a setting takes, each with its value.
template <class E>
using Choices = std::vector<Named<E>>;

/// The choices of a ruleset's name table (salvo/core/names.h), all of them or only those `only`
/// lists, in the table's order.
template <class Table, class E = decltype(std::declval<Table>()[0].value)>
Choices<E> choices_of(const Table& names, std::initializer_list<E> only = {}) {
  Choices<E> out;
  for (const auto& n : names)
    if (only.size() == 0 || std::find(only.begin(), only.end(), n.value) != only.end()) out.push_back(n);
  return out;
}

/// The choices of an enum whose values are 0, 1, ... `kLast`, spelt by `words` in the enum's
/// order: a word for every value, or it does not compile.
template <auto kLast, std::size_t N>
Choices<decltype(kLast)> in_enum_order(const std::string_view (&words)[N]) {
  static_assert(N == static_cast<std::size_t>(kLast) + 1, "one word for every value of the enum, in its order");
  Choices<decltype(kLast)> out;
  for (std::size_t i = 0; i < N; ++i) out.push_back({words[i], static_cast<decltype(kLast)>(i)});
  return out;
}

/// "one of a, b, c".
template <class E>
std::string one_of(const Choices<E>& choices) {
  std::string list;
  for (const auto& [name, value] : choices) list += (list.empty() ? "" : ", ") + std::string(name);
  return "one of " + list;
}

/// The value `n` names, if it is a string among `choices`.
template <class E>
std::optional<E> choice_of(const toml::node& n, const Choices<E>& choices) {
  if (const auto* s = n.as_string())
    for (const auto& [name, value] : choices)
      if (s->get() == name) return value;
  return std::nullopt;
}

/// A string among `choices`: "expected one of a, b, c".
template <class E>
E read_choice(const Ctx& c, std::string_view path, const toml::node& n, const Choices<E>& choices) {
  if (const auto value = choice_of(n, choices)) return *value;
  expected(c, path, n, one_of(choices));
}

// ---- Unknown and required keys ----

/// "unknown key" (or `noun`), with " (did you mean X?)" when a name of `known` is close
/// (closest_name).
[[noreturn]] void unknown(const Ctx& c, int line, const std::string& path, const std::vector<std::string>& known,
                          std::string_view noun = "unknown key");

/// The entries of table `t` at dotted `prefix`, in file order, each one of `known` (names
/// relative to the prefix, else "unknown key"), passed to `on` with its dotted path.
void walk_table(const Ctx& c, const std::string& prefix, const toml::table& t, const std::vector<std::string>& known,
                const std::function<void(const Entry&, const std::string& path)>& on);

/// Each of `keys` present in `t`, else "PATH.KEY: missing (required)" at the table's line.
void require(const Ctx& c, const toml::table& t, std::string_view path, std::initializer_list<std::string_view> keys);

// ---- The schema of a situation file ----

/// Validate `value` (the setting at `path`) and store it in `s`; record sub-settings' lines in
/// `lines` when given (a table-valued setting such as ASL's target.armor).
template <class S>
using ApplyFn = std::function<void(const Ctx& c, const std::string& path, const toml::node& value, S& s, Lines* lines)>;

template <class S>
struct Field {
  std::string path;
  ApplyFn<S> apply;
};

/// A member of type T holds a V: T is V, or an optional V (a setting whose absence means "not
/// written").
template <class T, class V>
concept Stores = std::same_as<T, V> || std::same_as<T, std::optional<V>>;

/// The settings of one table of a situation file ([firer], ...), each a member of the part of
/// the situation that `part` returns. `t(key, member, ...)` is the Field of "TABLE.KEY", read as
/// the member's type says: a bool; an int in lo..hi; a double >= lo in steps of `step` (else
/// "expected WHAT"); a string (else "expected WHAT"); an enum among its `choices`, which must
/// outlive the schema (a constant). A key with rules of its own gives its apply function.
template <class S, class Part>
struct Settings {
  std::string table;  ///< "firer"; empty for the file's top-level keys
  std::function<Part&(S&)> part;

  template <class T>
  requires Stores<T, bool> Field<S>
  operator()(std::string_view key, T Part::*m) const {
    return field(key, m, [](const Ctx& c, const std::string& p, const toml::node& n) { return read_bool(c, p, n); });
  }
  template <class T>
  requires Stores<T, int> Field<S>
  operator()(std::string_view key, T Part::*m, int lo, int hi) const {
    return field(key, m, [lo, hi](const Ctx& c, const std::string& p, const toml::node& n) {
      return read_int(c, p, n, lo, hi);
    });
  }
  template <class T>
  requires Stores<T, double> Field<S>
  operator()(std::string_view key, T Part::*m, double lo, double step, std::string_view what) const {
    return field(key, m, [lo, step, what = std::string(what)](const Ctx& c, const std::string& p, const toml::node& n) {
      return read_float(c, p, n, lo, step, what);
    });
  }
  template <class T>
  requires Stores<T, std::string> Field<S>
  operator()(std::string_view key, T Part::*m, std::string_view what = "a string") const {
    return field(key, m, [what = std::string(what)](const Ctx& c, const std::string& p, const toml::node& n) {
      return read_string(c, p, n, what);
    });
  }
  template <class T, class E>
  requires Stores<T, E> Field<S>
  operator()(std::string_view key, T Part::*m, const Choices<E>& choices) const {
    return field(key, m, [&choices](const Ctx& c, const std::string& p, const toml::node& n) {
      return read_choice(c, p, n, choices);
    });
  }
  Field<S> operator()(std::string_view key, ApplyFn<S> apply) const { return {path(key), std::move(apply)}; }

  std::string path(std::string_view key) const {
    return table.empty() ? std::string(key) : table + "." + std::string(key);
  }

 private:
  template <class T, class Read>
  Field<S> field(std::string_view key, T Part::*m, Read read) const {
    return {path(key), [part = part, m, read](const Ctx& c, const std::string& p, const toml::node& n, S& s, Lines*) {
              part(s).*m = read(c, p, n);
            }};
  }
};

/// The settings of a file's top level (`name`).
template <class S>
Settings<S, S> top_level() {
  return {"", [](S& s) -> S& { return s; }};
}

/// The settings of table `table`, the part `s.*part` of a situation.
template <class S, class Part>
Settings<S, Part> settings(std::string table, Part S::*part) {
  return {std::move(table), [part](S& s) -> Part& { return s.*part; }};
}

/// What a situation file may hold, without the situation type: its keys and how a few of their
/// messages read.
struct Keys {
  std::string ruleset;              ///< the value `ruleset` must have ("asl")
  std::string ruleset_expected;     ///< what a wrong one is told to be ("\"asl\" or \"1943\"")
  std::vector<std::string> roots;   ///< top-level keys besides ruleset that are not settings ("chart")
  std::vector<std::string> tables;  ///< the tables, "sweep" included
  std::vector<std::string> paths;   ///< every setting's dotted path, in schema order
  /// (setting, the setting that needs it): a rules conflict on the first when it is not written
  /// is blamed on the line of the second.
  std::vector<std::pair<std::string, std::string>> needed_by;
  /// An unknown [table] is an "unknown table", and a swept table "is a table, not a setting";
  /// otherwise both are unknown keys (1943 files have always said so).
  bool names_tables = true;
  /// Keys are checked in file order, a sweep too large before any; otherwise root entry by root
  /// entry, each table's keys at its place, the sweep's size at the sweep (1943 files' order).
  bool in_file_order = true;

  /// The index of the setting at `path`.
  std::optional<std::size_t> field(std::string_view path) const;
  bool is_table(std::string_view key) const;
  bool is_root(std::string_view key) const;
  /// Every name a key could have been meant to be: ruleset, roots, tables, paths.
  std::vector<std::string> known() const;
};

/// A ruleset's settings: Keys plus a Field per setting.
template <class S>
struct Schema {
  Keys keys;
  std::vector<Field<S>> fields;

  void add(std::string path, ApplyFn<S> apply) {
    keys.paths.push_back(path);
    fields.push_back({std::move(path), std::move(apply)});
  }
  void add(std::initializer_list<Field<S>> settings) {
    for (const Field<S>& f : settings) add(f.path, f.apply);
  }
};

/// An unknown key or table of a schema (Keys::names_tables), with a suggestion.
[[noreturn]] void unknown(const Ctx& c, int line, const std::string& path, const toml::node& value, const Keys& keys);

// ---- Walking a situation file ----

enum class ItemKind { kRuleset, kRoot, kField, kSweepAxis, kSweepSize, kUnknown, kNotATable };

/// One key of the file, found while walking it.
struct Item {
  ItemKind kind;
  std::string path;
  const toml::node* node;
  toml::source_position pos;
  std::optional<std::size_t> field;  ///< kField, kSweepAxis: the setting's index, if known
};

/// What walking a file found, besides the settings' values.
struct Walk {
  const Keys* keys = nullptr;
  std::vector<Item> items;              ///< every key, in the order they were checked
  Lines set, swept;                     ///< where each setting was written in a table, or swept
  Lines headers;                        ///< where each table's header is
  std::optional<int> sweep_line;        ///< the [sweep] header
  std::vector<std::string> sweep_keys;  ///< the sweep's axes, in file order

  /// The line to blame for a rules conflict on `key`: where it (or a table holding it) was swept
  /// or set; for a setting not written, where the one that needs it was (Keys::needed_by); else
  /// its table's header, else 1.
  int conflict_line(const std::string& key) const;
};

/// Check every key of `root` against `keys`, in Keys' order: the ruleset, settings (`on_field`
/// stores one), sweep axes (their arrays checked, then `on_axis` validates the values) and the
/// loader's own roots (`on_root`). Fails on the first error, or at the end if the ruleset is
/// missing.
void walk_items(const Ctx& c, const toml::table& root, const Keys& keys, std::size_t max_situations, Walk& w,
                const std::function<void(const Item&)>& on_field,
                const std::function<void(const Item&, const toml::array&)>& on_axis,
                const std::function<void(const Item&)>& on_root);

/// Check a [sweep] table on its own (a file walked otherwise, as an ASL fight): its size, then
/// each axis (its dotted sub-tables read as dotted keys) a setting of `keys`, swept once, to a
/// non-empty array, which `on_axis` validates. Records the sweep in w (sweep_line, swept,
/// sweep_keys).
void walk_sweep(const Ctx& c, const toml::table& sweep, const Keys& keys, std::size_t max_situations, Walk& w,
                const std::function<void(const Item&, const toml::array&)>& on_axis);

/// One [sweep] axis, validated.
template <class S>
struct Axis {
  const Field<S>* field;
  std::string path;
  std::vector<const toml::node*> values;
  std::vector<std::string> labels;  ///< values as written
};

/// The axis of sweep item `item` over `values`, each value checked now (so errors come in file
/// order) by applying it to a copy of `scratch`.
template <class S>
Axis<S> make_axis(const Ctx& c, const Item& item, const toml::array& values, const Field<S>& field, const S& scratch) {
  Axis<S> axis{&field, item.path, {}, {}};
  SourceText source(c.text);
  for (const toml::node& value : values) {
    S s = scratch;
    axis.field->apply(c, item.path, value, s, nullptr);
    axis.values.push_back(&value);
    axis.labels.push_back(as_written(value, source));
  }
  return axis;
}

/// A walked file: the settings written in its tables applied to `base`, and its sweep axes.
template <class S>
struct Walked : Walk {
  S base;
  std::vector<Axis<S>> axes;
};

/// Walk a situation file with a ruleset's schema (walk_items); `base` holds the defaults.
template <class S>
Walked<S> walk(const Ctx& c, const toml::table& root, const Schema<S>& schema, std::size_t max_situations, S base,
               const std::function<void(const Item&)>& on_root = nullptr) {
  Walked<S> w;
  w.base = std::move(base);
  walk_items(
      c, root, schema.keys, max_situations, w,
      [&](const Item& item) { schema.fields[*item.field].apply(c, item.path, *item.node, w.base, &w.set); },
      [&](const Item& item, const toml::array& values) {
        w.axes.push_back(make_axis(c, item, values, schema.fields[*item.field], S{}));
      },
      on_root);
  return w;
}

// ---- The sweep's points ----

/// The sweep values of a point: ("fire.range", "6").
using SweepValues = std::vector<std::pair<std::string, std::string>>;

/// Throws InputError "FILE:LINE: KEY: WHAT (sweep point: ...)" for a rules conflict on `key`, at
/// the line Walk::conflict_line blames.
[[noreturn]] void rules_conflict(const Ctx& c, const Walk& w, const std::string& key, std::string_view what,
                                 const SweepValues& point);

/// The number of points of a sweep with axes of these sizes; fails at the [sweep] header if it is
/// more than max_situations.
std::size_t sweep_total(const Ctx& c, const Walk& w, const std::vector<std::size_t>& sizes, std::size_t max_situations);

/// The points of a walked file's sweep (one if it has none), made on demand from their index,
/// first axis slowest: `Point` is {situation, sweep values}. Each is made once here and passed
/// to `check` (which throws on a rules conflict), then dropped: memory does not grow with the
/// sweep. The points take w.base and w.axes (moved from).
///
/// `under`, if given, is a layer of values under the file's (a unit library's, docs/units.md): it
/// is called on each point after the sweep values are applied, puts its values in and the file's
/// written values back; the sweep values are then applied again.
template <class Point, class S>
SweepPoints<Point> expand(const std::shared_ptr<const Document>& doc, Walked<S>& w, std::size_t max_situations,
                          const std::function<void(const Point&)>& check, std::function<void(S&)> under = nullptr) {
  std::vector<std::size_t> sizes;
  for (const Axis<S>& a : w.axes) sizes.push_back(a.values.size());
  const std::size_t total = sweep_total(Ctx{doc->file, doc->text}, w, sizes, max_situations);
  auto make = [doc, base = std::move(w.base), axes = std::move(w.axes), sizes,
               under = std::move(under)](std::size_t n) {
    const Ctx cx{doc->file, doc->text};
    const std::vector<std::size_t> index = sweep_index(sizes, n);
    Point point{base, {}};
    auto apply_axes = [&] {
      for (std::size_t i = 0; i < axes.size(); ++i)
        axes[i].field->apply(cx, axes[i].path, *axes[i].values[index[i]], point.situation, nullptr);
    };
    apply_axes();
    if (under) {
      under(point.situation);
      apply_axes();
    }
    for (std::size_t i = 0; i < axes.size(); ++i)
      point.sweep_values.emplace_back(axes[i].path, axes[i].labels[index[i]]);
    return point;
  };
  for (std::size_t n = 0; n < total; ++n) check(make(n));
  return SweepPoints<Point>(total, std::move(make));
}

}  // namespace salvo::load::detail
