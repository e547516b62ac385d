// Prints the header that compiles asl::tables_hash() into salvo (asl_rules_data_hash.h), run by
// the build whenever salvo::rules changes.
#include <cinttypes>
#include <cstdio>

#include "salvo/rules/asl.h"

int main() {
  std::printf("// Generated when salvo was built: asl::tables_hash(). Do not edit.\n"
              "#pragma once\n#include <cstdint>\n"
              "inline constexpr std::uint64_t kAslTablesHash = 0x%016" PRIx64 "ull;\n",
              salvo::asl::tables_hash());
  return 0;
}
