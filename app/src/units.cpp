// units.cpp — `salvo units list` and `salvo units show` (app/units.h).

#include "salvo/app/units.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>

#include "salvo/app/commands.h"
#include "salvo/load/units.h"

namespace salvo::app {
namespace {

load::UnitLibraries read_libraries(const std::vector<std::string>& libraries, std::size_t max_file_bytes) {
  if (libraries.empty()) throw UsageError("units: name a unit library with --units FILE (docs/units.md)");
  return load::UnitLibraries::read(libraries, "", max_file_bytes);
}

std::string value_of(const load::Unit& u, std::string_view path) {
  for (const load::UnitSetting& s : u.settings)
    if (s.path == path) return s.value;
  return "";
}

}  // namespace

int run_units_list(const std::vector<std::string>& libraries, std::size_t max_file_bytes) {
  const load::UnitLibraries libs = read_libraries(libraries, max_file_bytes);
  const auto all = libs.all();
  std::size_t width = 4;
  for (const auto& f : all) width = std::max(width, f.unit->name.size());
  std::string out =
      fmt::format("{:<{}}  {:<7}  {:<6}  {:<5}  {:<24}  {}\n", "name", width, "kind", "class", "gun", "armor", "dates");
  for (const auto& f : all) {
    const load::Unit& u = *f.unit;
    out += fmt::format("{:<{}}  {:<7}  {:<6}  {:<5}  {:<24}  {}\n", u.name, width, u.kind, u.unit_class,
                       value_of(u, "firer.gun"), value_of(u, "target.armor"), u.dates);
  }
  out += fmt::format("{} unit{} in {}\n", all.size(), all.size() == 1 ? "" : "s", fmt::join(libraries, ", "));
  write_output("", out);
  return kExitOk;
}

int run_units_show(const std::string& name, const std::vector<std::string>& libraries, std::size_t max_file_bytes) {
  const load::UnitLibraries libs = read_libraries(libraries, max_file_bytes);
  const auto found = libs.find(name);
  if (!found) {
    const auto close = libs.closest(name);
    throw load::InputError(
        fmt::format("salvo: units show: no unit named \"{}\" in {}{}", name, fmt::join(libraries, ", "),
                    close.empty() ? "" : fmt::format(" (did you mean {}?)", fmt::join(close, ", "))));
  }
  std::string out;
  for (const std::string& line : load::describe_unit(*found->unit)) out += line + "\n";
  out += fmt::format("  library: {}:{}\n", found->library, found->unit->line);
  write_output("", out);
  return kExitOk;
}

#ifndef SALVO_WITH_IMPORT
int run_units_import(const std::vector<std::string>&, const std::string&, std::size_t) {
  throw UsageError("units import: not in this build (it needs libcsv: scripts/setup.sh installs it)");
}
#endif

}  // namespace salvo::app
