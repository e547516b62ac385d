#pragma once
// asl_schema.h — the schema of an ASL situation's settings, shared by the fight loader, whose
// units hold [firer], [fire], [target] and [override] tables (private to salvo::load).

#include <memory>

#include "salvo/load/asl_loader.h"
#include "salvo/rules/asl_situation.h"
#include "schema.h"

namespace salvo::load::detail {

/// Every setting of an ASL situation file (asl_loader.cpp).
const Schema<asl::Situation>& asl_schema();

/// A fight file ([fight] and [[unit]] tables), read strictly (asl_fight_loader.cpp).
LoadedFight load_fight(const std::shared_ptr<const Document>& doc);

/// Whether a parsed ASL file is a fight: it has a [fight] table or [[unit]] tables.
bool is_fight(const toml::table& root);

}  // namespace salvo::load::detail
