// units_import.cpp — `salvo units import` (app/units.h): counter listings into a unit library.

#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "salvo/app/commands.h"
#include "salvo/app/units.h"
#include "salvo/import/vasl_csv.h"
#include "salvo/load/units.h"

namespace salvo::app {

int run_units_import(const std::vector<std::string>& csv_files, const std::string& output, std::size_t max_file_bytes) {
  if (output.empty()) throw UsageError("units import: write the library to a file with -o PATH");
  check_output_path(output, file_ids(csv_files));  // before any work
  std::vector<import::CsvFile> files;
  for (const std::string& path : csv_files) files.push_back({path, load::read_text_file(path, max_file_bytes)});
  import::ImportResult result;
  try {
    result = import::import_vasl_csv(files);
  } catch (const std::runtime_error& e) {
    throw load::InputError(e.what());
  }
  // What it wrote must read back as a library: checked before the file is replaced.
  load::UnitLibraries::parse(result.toml, output);
  for (const import::Remark& r : result.not_read) std::fprintf(stderr, "%s\n", r.str().c_str());
  write_output(output, result.toml);
  std::fprintf(stderr,
               "salvo: imported %d unit%s into %s; %zu cell%s not read (listed above), %zu note%s in the units\n",
               result.units, result.units == 1 ? "" : "s", output.c_str(), result.not_read.size(),
               result.not_read.size() == 1 ? "" : "s", result.notes.size(), result.notes.size() == 1 ? "" : "s");
  return kExitOk;
}

}  // namespace salvo::app
