// placeholder: the real compiler is being written.
#include "salvo/rules/asl.h"
namespace salvo::asl {
std::optional<RulesError> check(const Situation&) { return std::nullopt; }
Compiled compile(const Situation&) { throw RulesError("", "ASL compiler not yet available"); }
}  // namespace salvo::asl
