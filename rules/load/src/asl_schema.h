#pragma once
// asl_schema.h — the schema of an ASL situation's settings, shared by the fight loader, whose
// units hold [firer], [fire], [target] and [override] tables (private to salvo::load).

#include <memory>

#include "salvo/load/asl_loader.h"
#include "salvo/load/units.h"
#include "salvo/rules/asl_situation.h"
#include "schema.h"

namespace salvo::load::detail {

/// Every setting of an ASL situation file (asl_loader.cpp).
const Schema<asl::Situation>& asl_schema();

/// A fight file ([fight] and [[unit]] tables, a [sweep]), read strictly (asl_fight_loader.cpp).
LoadedFight load_fight(const std::shared_ptr<const Document>& doc, const LoadOptions& options);

/// The unit libraries named by a file's `units` key (a path or an array of paths, each relative
/// to the file; docs/units.md). Fails at the key's line if one cannot be read.
std::shared_ptr<const UnitLibraries> read_unit_libraries(const Ctx& c, const std::string& path, const toml::node& units,
                                                         std::size_t max_file_bytes);

/// The unit `name` written at `key` (line): fails there when `libraries` is null or has no such
/// unit, naming the closest names.
UnitLibraries::Found find_unit(const Ctx& c, int line, const std::string& key, const std::string& name,
                               const UnitLibraries* libraries);

/// A library unit's Depletion Number for `firer`'s special ammunition in its year (C8.1, C8.91):
/// fails at `key` (line) when the unit lists none for that ammunition or year.
int unit_depletion(const Ctx& c, int line, const std::string& key, const UnitLibraries::Found& found,
                   const asl::Firer& firer);

/// Whether a parsed ASL file is a fight: it has a [fight] table or [[unit]] tables.
bool is_fight(const toml::table& root);

}  // namespace salvo::load::detail
