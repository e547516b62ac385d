#pragma once
// What every loaded file of sweep points answers the same way: how many points, and each one's
// name and sweep label. A ruleset's file class adds compile (and its own hints or data).
#include <string>
#include <utility>

#include "salvo/rulesets/ruleset.h"

namespace salvo {

/// `Loaded` is a loader's result; `Points` the member holding its SweepPoints (each point has
/// `situation.name` and `sweep_values`).
template <class Loaded, auto Points>
class PointsFile : public SituationFile {
 public:
  explicit PointsFile(Loaded file) : file_(std::move(file)) {}
  std::size_t size() const override { return points().size(); }
  std::string name(std::size_t i) const override { return points().at(i).situation.name; }
  SweepLabel sweep(std::size_t i) const override { return points().at(i).sweep_values; }

 protected:
  const auto& points() const { return file_.*Points; }
  Loaded file_;
};

}  // namespace salvo
