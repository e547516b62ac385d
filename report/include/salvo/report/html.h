#pragma once
/// salvo/report/html.h — results as self-contained HTML pages: the `odds --format html` page
/// (tables, charts, explain trail, provenance) and the pages of preformatted sections that
/// `compare` and `sensitivity` write. Pure formatting over plain data: the caller runs the
/// engines, draws the charts (SVG elements, given as strings) and writes the explain texts.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "salvo/report/report.h"

namespace salvo::report {

/// `s` with & < > " as HTML entities.
std::string html_escape(std::string_view s);

/// A self-contained page: title (as heading too), body (HTML), provenance footer (text).
std::string html_page(const std::string& title, const std::string& body, const std::string& provenance);

/// "P(kill)" for p_kill, "E[shots]" for e_shots; other names as they are.
std::string quantity_label(const std::string& name);

/// Charts drawn by the caller: the SVG element of each, in order, and, when drawing stopped
/// short, why (shown as a note after the charts drawn).
struct HtmlCharts {
  std::vector<std::string> svgs;
  std::optional<std::string> unavailable;
  bool empty() const { return svgs.empty() && !unavailable; }
};

/// The charts as page elements: one <div class="chart"> each, then the note if any.
std::string html_charts(const HtmlCharts& charts);

/// The page of `salvo odds --format html`: the odds table of the display hints' key
/// quantities (every method's row, Monte Carlo values with their intervals), the charts if any,
/// the explain trails (one per situation shown, empty ones left out) and the provenance line
/// `provenance` (the run's; an interrupted run adds the interrupted line).
std::string format_html_odds(const std::vector<SituationReport>& reports, const Provenance& prov,
                             const HtmlCharts& charts, const std::vector<std::string>& explains,
                             const std::string& provenance);

/// A section of a text page: a heading and preformatted text.
struct HtmlSection {
  std::string heading;
  std::string text;
};

/// A page of preformatted sections, then the charts under "Charts" if any.
std::string format_html_sections(const std::string& title, const std::vector<HtmlSection>& sections,
                                 const HtmlCharts& charts, const std::string& provenance);

}  // namespace salvo::report
