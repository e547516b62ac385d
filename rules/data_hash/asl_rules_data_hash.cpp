// asl::rules_data_hash(): the hash of the ASL chart data that provenance records.
#include "salvo/rules/asl.h"

namespace salvo::asl {

std::uint64_t rules_data_hash() {
  // tables_hash() reads every chart entry once (some 30 microseconds): computed when first
  // asked for, then kept.
  static const std::uint64_t hash = tables_hash();
  return hash;
}

}  // namespace salvo::asl
