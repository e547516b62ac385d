#pragma once
/// salvo/import/vasl_csv.h — the community's counter listings (the comma-separated files kept
/// per nationality as data/<nationality>_vehicles.csv and data/<nationality>_ordnance.csv) into
/// a salvo unit library (salvo/load/units.h, docs/units.md).
///
/// It reads the files' own notation (HTML markup, daggers, "T75L", "2 (4)", italic B#,
/// "A5<sup>2</sup>"), imports what it can read, and lists every cell it could not, by file,
/// row and column. It never guesses: a value it cannot read stays unset and is reported.

#include <string>
#include <vector>

namespace salvo::import {

/// One input file: its name as given (the nationality and the kind come from it:
/// "german_vehicles.csv", "russian_ordnance.csv") and its text.
struct CsvFile {
  std::string name;
  std::string text;
};

/// A cell not read, or read with a remark. `row` is the line of the file's record (the header
/// is row 1), `column` the header's name ("ma", "breakdown").
struct Remark {
  std::string file;
  int row = 0;
  std::string column;
  std::string cell;  ///< as written (markup included), shortened to 60 characters
  std::string why;
  /// "FILE:ROW: COLUMN: could not read "CELL": WHY" (not read) or "FILE:ROW: COLUMN: WHY" (note).
  std::string str() const;
};

struct ImportResult {
  std::string toml;              ///< the unit library
  int units = 0;                 ///< units written
  std::vector<Remark> not_read;  ///< cells not read (their values stay unset)
  std::vector<Remark> notes;     ///< read, with a remark (a dagger, a reading)
};

/// Import `files` in order. A file whose header is not a vehicle or ordnance listing, or that is
/// not valid CSV, throws std::runtime_error naming it.
ImportResult import_vasl_csv(const std::vector<CsvFile>& files);

}  // namespace salvo::import
