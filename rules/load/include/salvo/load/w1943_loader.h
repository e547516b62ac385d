#pragma once
/// salvo/load/w1943_loader.h — "1943" situation files and chart files (TOML), strictly.
///
/// A situation file says `ruleset = "1943"` and names its chart: `chart = "path.toml"`,
/// resolved relative to the situation file. Unknown keys, wrong types, out-of-range values,
/// chart defects (a missing result box, overlapping range bands, a missing modifier) and rule
/// conflicts are errors naming file, line and key, e.g.
///   chart.toml:23: small_arms.range_bands[2]: overlaps band 1 (400..800 yards vs 300..500)

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "salvo/load/asl_loader.h"  // InputError, LoadOptions
#include "salvo/rules/w1943.h"

namespace salvo::load {

/// Load a chart file. Throws InputError.
w1943::Chart load_chart_file(const std::string& path, std::size_t max_bytes = kDefaultMaxFileBytes);
/// Load a chart from a string; `source_name` stands in for the file name in messages.
w1943::Chart load_chart_string(std::string_view toml, const std::string& source_name);

struct W1943Point {
  w1943::Situation situation;
  std::vector<std::pair<std::string, std::string>> sweep_values;  ///< ("fire.range", "300")
};

struct W1943File {
  std::string path;
  std::string chart_path;  ///< as resolved
  std::shared_ptr<const w1943::Chart> chart;
  std::vector<std::string> sweep_keys;
  SweepPoints<W1943Point> situations;  ///< cartesian product of the sweep (1 if no sweep), made on demand
};

/// Load a "1943" situation file and its chart. Throws InputError.
W1943File load_w1943_file(const std::string& path, const LoadOptions& options = {});
/// Load from a string; a relative chart path is resolved against `base_dir`.
W1943File load_w1943_string(std::string_view toml, const std::string& source_name, const std::string& base_dir,
                            const LoadOptions& options = {});

}  // namespace salvo::load
