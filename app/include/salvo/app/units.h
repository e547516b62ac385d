#pragma once
/// app/include/salvo/app/units.h — `salvo units`: list a unit library, show one unit, import
/// the community's counter listings into a library (docs/units.md).

#include <cstddef>
#include <string>
#include <vector>

namespace salvo::app {

/// `salvo units list --units FILE...`: every unit of the libraries, one line each.
int run_units_list(const std::vector<std::string>& libraries, std::size_t max_file_bytes);

/// `salvo units show NAME --units FILE...`: one unit's values in the counter's notation.
int run_units_show(const std::string& name, const std::vector<std::string>& libraries, std::size_t max_file_bytes);

/// `salvo units import FILE.csv... -o units.toml`: a library from counter listings; every cell
/// not read is listed on stderr by file, row and column. Not in the browser build.
int run_units_import(const std::vector<std::string>& csv_files, const std::string& output, std::size_t max_file_bytes);

}  // namespace salvo::app
