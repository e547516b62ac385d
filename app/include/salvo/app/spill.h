#pragma once
/// app/src/spill.h — situation reports kept on disk while a sweep runs, so that `salvo odds`
/// holds a bounded batch of situations in memory however large the sweep.
///
/// Every table format says at its top whether the run was interrupted (CSV and Markdown with a
/// column), and the text table aligns its columns over every row, so no format can be written
/// before the last situation is finished. Each finished situation is appended here instead, as
/// binary data (doubles bit for bit); the formatter then reads the reports back one at a time
/// (sim::write_odds), and the table is exactly the one the reports would give in memory.

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "salvo/report/report.h"

namespace salvo::app {

class ReportSpill final : public report::ReportSource {
 public:
  /// A spill in an anonymous file (created and unlinked at once, so nothing is left behind
  /// whatever happens to the process) in $TMPDIR or /tmp. (The output path itself is checked
  /// before any work by check_output_path, io.h.) Throws IoError "salvo: cannot write DIR: <reason>".
  ReportSpill();
  ~ReportSpill() override;
  ReportSpill(const ReportSpill&) = delete;
  ReportSpill& operator=(const ReportSpill&) = delete;

  /// Append one report. Throws IoError if the disk refuses.
  void append(const report::SituationReport& report);
  std::size_t size() const { return count_; }

  /// Every report appended so far, in order.
  void for_each(const std::function<void(const report::SituationReport&)>& visit) const override;

 private:
  [[noreturn]] void fail(int err) const;

  std::string label_;
  std::FILE* file_ = nullptr;
  std::size_t count_ = 0;
  // Kept once in memory: the files named and the distinct name sets (a sweep has a few).
  std::vector<std::string> files_;
  std::vector<report::ResultNames> names_;
};

/// Append one report to `bytes`, every field (doubles bit for bit): how the ranks of a team hand
/// their situations to rank 0.
void append_report_bytes(std::string& bytes, const report::SituationReport& report);
/// The reports appended to `bytes`, in order. Throws std::runtime_error if they are cut short.
std::vector<report::SituationReport> reports_from_bytes(std::string_view bytes);

}  // namespace salvo::app
