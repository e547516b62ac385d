// asl_data_hash.cpp — the hash of the ASL chart data, entry by entry.
//
// Every entry the lookups read is in asl::table_data() (asl_tables.cpp), so hashing that value
// covers the charts; for_each_table() lists its members, and the same visitor drives the test
// that changes each entry in turn (tests/rules/test_rules_data_hash.cpp). About 1,200 fields:
// some 30 microseconds, so it is computed when first asked for (rules/data_hash/), not at build
// time.

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "salvo/core/hash.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_tables.h"

namespace salvo::asl {

std::uint64_t tables_hash(const TableData& data) {
  Fnv1a f;
  auto mix = [&f](const auto& v) {
    using V = std::remove_cvref_t<decltype(v)>;
    if constexpr (std::is_same_v<V, std::string_view>)
      f.str(v);
    else
      f.i64(static_cast<std::int64_t>(v));  // numbers, bools, enums
  };
  for_each_table(data, [&](std::string_view name, const auto& table) {
    // The name, a list's length (so that moving an entry between tables, or adding or dropping
    // one, changes the hash), then every field in order.
    f.str(name);
    if constexpr (kIsSpan<std::remove_cvref_t<decltype(table)>>) f.i64(static_cast<std::int64_t>(table.size()));
    for_each_field(table, mix);
  });
  return f.h;
}

std::uint64_t tables_hash() { return tables_hash(table_data()); }

}  // namespace salvo::asl
