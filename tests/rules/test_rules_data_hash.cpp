// The rules data hash recorded in provenance covers every ASL chart entry: changing any single
// entry of any table (or dropping a row of a list) changes it, and the lookups read those entries.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "salvo/rules/asl.h"
#include "salvo/rules/asl_tables.h"

namespace {

using namespace salvo::asl;

// Number of members of an aggregate, counted without for_each_table(): the largest N for which
// T{x1, ..., xN} compiles, each x converting to any member type (so no brace elision).
struct AnyMember {
  template <class T>
  operator T() const;  // declared only: used in unevaluated braced initializers
};
template <class T, class... A>
constexpr std::size_t member_count() {
  if constexpr (requires { T{A{}..., AnyMember{}}; })
    return member_count<T, A..., AnyMember>();
  else
    return sizeof...(A);
}

std::size_t count_fields(const auto& v) {
  std::size_t n = 0;
  for_each_field(v, [&n](const auto&) { ++n; });
  return n;
}

// Change field k (in for_each_field order) of `v`: a number +1, a bool negated, an enum to the
// next value, a string with "x" appended (kept alive in `storage`).
template <class T>
void change_field(T& v, std::size_t k, std::string& storage) {
  std::size_t i = 0;
  for_each_field(v, [&](auto& field) {
    if (i++ != k) return;
    using V = std::remove_cvref_t<decltype(field)>;
    if constexpr (std::is_same_v<V, std::string_view>) {
      storage = std::string(field) + "x";
      field = storage;
    } else if constexpr (std::is_same_v<V, bool>) {
      field = !field;
    } else if constexpr (std::is_enum_v<V>) {
      using U = std::underlying_type_t<V>;
      field = static_cast<V>(static_cast<U>(static_cast<U>(field) + 1));
    } else {
      field += 1;
    }
  });
}

}  // namespace

TEST_CASE("ASL rules data hash: provenance records the hash of the chart data") {
  CHECK(rules_data_hash() == tables_hash());
  CHECK(tables_hash() == tables_hash(table_data()));
  const TableData copy = table_data();
  CHECK(tables_hash(copy) == tables_hash());
}

TEST_CASE("ASL rules data hash: changing any single table entry changes the hash") {
  const std::uint64_t h0 = tables_hash(table_data());
  TableData data = table_data();
  std::string storage;
  std::set<std::string_view> names;
  std::size_t tables = 0;
  std::size_t changes = 0;
  for_each_table(data, [&](std::string_view name, auto& table) {
    ++tables;
    names.insert(name);
    INFO(name);
    using T = std::remove_cvref_t<decltype(table)>;
    if constexpr (kIsSpan<T>) {
      // A list: its rows live in read-only storage, so change a copy and point the table at it.
      using Row = std::remove_const_t<typename T::element_type>;
      const T original = table;
      REQUIRE_FALSE(original.empty());
      std::vector<Row> rows(original.begin(), original.end());
      for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t k = 0, n = count_fields(rows[r]); k < n; ++k) {
          INFO("row " << r << ", field " << k);
          const Row saved = rows[r];
          change_field(rows[r], k, storage);
          table = rows;
          CHECK(tables_hash(data) != h0);
          rows[r] = saved;
          ++changes;
        }
      }
      table = original.first(original.size() - 1);  // the last row dropped
      CHECK(tables_hash(data) != h0);
      table = original;
    } else {
      for (std::size_t k = 0, n = count_fields(table); k < n; ++k) {
        INFO("field " << k);
        const T saved = table;
        change_field(table, k, storage);
        CHECK(tables_hash(data) != h0);
        table = saved;
        ++changes;
      }
    }
  });
  CHECK(tables_hash(data) == h0);  // every change undone
  // Every member of TableData was visited (and so hashed), once, under its own name.
  CHECK(tables == member_count<TableData>());
  CHECK(names.size() == tables);
  // ... and every field of it was changed.
  std::size_t fields = 0;
  for_each_table(table_data(), [&fields](std::string_view, const auto& table) { fields += count_fields(table); });
  CHECK(changes == fields);
}

TEST_CASE("ASL rules data hash: the lookups read every entry of the keyed tables") {
  const TableData& t = table_data();
  // C7.31, C7.32 black entries: a nationality without colored entries reads them.
  for (const TkEntry& e : t.ap_tk) {
    INFO(e.gun);
    const std::optional<Gun> g = parse_gun(e.gun);
    REQUIRE(g);
    CHECK(basic_tk(*g, Ammo::kAP, Nationality::kBritish) == e.tk);
  }
  for (const TkEntry& e : t.apcr_tk) {
    INFO(e.gun);
    const bool apds = e.gun.front() == 'D';
    const std::optional<Gun> g = parse_gun(apds ? e.gun.substr(1) : e.gun);
    REQUIRE(g);
    CHECK(basic_tk(*g, apds ? Ammo::kAPDS : Ammo::kAPCR, Nationality::kBritish) == e.tk);
  }
  for (const ColoredTkEntry& e : t.colored_tk) {
    INFO(e.gun);
    const std::optional<Gun> g = parse_gun(e.gun);
    REQUIRE(g);
    CHECK(basic_tk(*g, e.ammo, e.nationality) == e.tk);
  }
  // C8.12: each entry in its year (from its first month).
  for (const DepletionEntry& e : t.depletion) {
    INFO(e.gun << " " << e.year);
    const std::optional<Gun> g = parse_gun(e.gun);
    REQUIRE(g);
    CHECK(default_depletion(e.nationality, *g, e.ammo, e.year, e.from_month == 0 ? 1 : e.from_month) == e.depletion);
  }
  // A25: each row on a date it covers (the month before it ends, or after every change).
  for (const ThColorEntry& e : t.th_color) {
    INFO(e.reason);
    std::string reason;
    const int year = e.ends_year != 0 ? e.ends_year - (e.ends_month <= 1 ? 1 : 0) : 1953;
    const int month = e.ends_year != 0 && e.ends_month > 1 ? e.ends_month - 1 : 12;
    CHECK(uses_red_th(e.nationality, year, month, e.vehicle_only, &reason) == e.red);
    CHECK(reason == e.reason);
  }
}
