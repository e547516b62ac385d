// HTML pages: the odds page (tables, charts given as SVG, explain trail, provenance) and the
// pages of preformatted sections. Formatting only: no engine runs, no charts drawn here.
#include "salvo/report/html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "salvo/sim/stats.h"

namespace salvo::report {

namespace {

constexpr const char* kCss = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px auto;max-width:1100px;color:#222;background:#fff}
h1{font-size:22px;border-bottom:3px solid #7f2704;padding-bottom:6px}
h2{font-size:17px;margin-top:28px;color:#7f2704}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}
th{background:#f3e9df}
td.l,th.l{text-align:left}
pre{background:#f7f7f7;border:1px solid #ddd;padding:10px;font-size:12px;overflow-x:auto}
.chart svg{max-width:100%;height:auto}
.prov{font-size:12px;color:#555}
.note{font-size:12px;color:#7a4a00}
)";

int index_of(const std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

std::string odds_table_html(const std::vector<SituationReport>& reports, const DisplayHints& hints) {
  std::vector<std::pair<std::string, bool>> cols;  // the key quantities of the display hints
  for (const auto& k : hints.key) cols.emplace_back(k.quantity, k.run);
  std::vector<std::string> keys;
  for (const auto& r : reports)
    for (const auto& [k, v] : r.sweep)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::string h = "<table>\n<tr><th class=\"l\">situation</th>";
  // Names and sweep labels as the text table shows them (control characters escaped), then HTML-escaped
  for (const auto& k : keys) h += "<th>" + html_escape(printable(k)) + "</th>";
  h += "<th>method</th>";
  for (const auto& [q, phase] : cols)
    h += "<th>" + html_escape(quantity_label(q)) + "<br>" + html_escape(phase ? hints.run_window : hints.first_window) +
         "</th>";
  h += "</tr>\n";
  for (const auto& r : reports)
    for (const RunResult* res : {r.exact ? &*r.exact : nullptr, r.mc ? &*r.mc : nullptr}) {
      if (!res) continue;
      const bool mc = res->method == Method::kMonteCarlo;
      h += "<tr><td class=\"l\">" + html_escape(printable(r.name)) + "</td>";
      for (const auto& k : keys) {
        std::string v;
        for (const auto& [sk, sv] : r.sweep)
          if (sk == k) v = sv;
        h += "<td>" + html_escape(printable(v)) + "</td>";
      }
      h += std::string("<td>") + (mc ? "mc" : "exact") + "</td>";
      for (const auto& [q, phase] : cols) {
        const WindowStats& w = phase ? res->run : res->first;
        const bool p = q.rfind("p_", 0) == 0;
        const int i = index_of(p ? r.names.flags : r.names.counters, q.substr(2));
        std::string cell = "-";
        if (i >= 0) {
          const Estimate& e = p ? w.flags[static_cast<std::size_t>(i)] : w.counters[static_cast<std::size_t>(i)];
          cell = p ? format_percent(e.value) : fmt::format("{:.3f}", e.value);
          // As the Markdown table: a mean without an interval (fewer than 2 trials) "±?", one
          // clamped at 0 as [lo, hi]
          if (mc && p)
            cell += fmt::format(" <small>±{:.1f}</small>", 50.0 * (e.hi - e.lo));
          else if (mc && !sim::has_interval(e))
            cell += " <small>±?</small>";
          else if (mc && e.value - e.lo < e.hi - e.value)
            cell += fmt::format(" <small>[{:.3f}, {:.3f}]</small>", e.lo, e.hi);
          else if (mc)
            cell += fmt::format(" <small>±{:.3f}</small>", (e.hi - e.lo) / 2);
        }
        h += "<td>" + cell + "</td>";
      }
      h += "</tr>\n";
    }
  return h + "</table>\n";
}

}  // namespace

std::string html_escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

std::string html_page(const std::string& title, const std::string& body, const std::string& provenance) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n"
      "<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n{2}\n<h2>Provenance</h2>\n<p class=\"prov\">{3}</p>\n"
      "</body>\n</html>\n",
      html_escape(title), kCss, body, html_escape(provenance));
}

std::string quantity_label(const std::string& name) {
  if (name.rfind("p_", 0) == 0) {
    std::string n = name.substr(2);
    std::replace(n.begin(), n.end(), '_', ' ');
    return "P(" + n + ")";
  }
  if (name.rfind("e_", 0) == 0) return "E[" + name.substr(2) + "]";
  return name;
}

std::string html_charts(const HtmlCharts& charts) {
  std::string h;
  for (const std::string& svg : charts.svgs) h += "<div class=\"chart\">" + svg + "</div>\n";
  if (charts.unavailable) h += "<p class=\"note\">Charts unavailable: " + html_escape(*charts.unavailable) + "</p>\n";
  return h;
}

std::string format_html_odds(const std::vector<SituationReport>& reports, const Provenance& prov,
                             const HtmlCharts& charts, const std::vector<std::string>& explains,
                             const std::string& provenance) {
  std::string body;
  // An interrupted run is marked as the text table marks it: the trials run, the situations
  // reported (the provenance line states the trials asked for)
  std::uint64_t trials_run = 0;
  bool interrupted = prov.interrupted;
  for (const auto& r : reports)
    if (r.mc) {
      trials_run += r.mc->trials;
      interrupted = interrupted || r.mc->interrupted;
    }
  std::string stopped;
  if (interrupted) {
    stopped = interrupted_line(trials_run, reports.size(), prov);
    stopped.pop_back();  // its newline
    body += "<p class=\"note\"><strong>" + html_escape(stopped) +
            "</strong>: the run was stopped before it finished; the table holds the situations reported, "
            "with the intervals of the trials run.</p>\n";
  }
  body += "<h2>Odds</h2>\n";
  body +=
      "<p>Every probability with its method; Monte Carlo values carry their 95% half-width in points "
      "(a mean: ±? with fewer than 2 trials, [lo, hi] when its interval stops at 0).</p>\n";
  body += odds_table_html(reports, prov.hints);
  if (!charts.empty()) body += "<h2>Charts</h2>\n" + html_charts(charts);

  // The explain trail: every modifier with its rule
  body += "<h2>Modifiers and rules (explain)</h2>\n";
  for (const std::string& e : explains)
    if (!e.empty()) body += "<pre>" + html_escape(e) + "</pre>\n";
  std::string title = "salvo odds";
  if (!reports.empty())
    title += ": " + printable(reports.front().name) +
             (reports.size() > 1 ? fmt::format(" ({} situations)", reports.size()) : "");
  return html_page(title, body, provenance + (interrupted ? " | " + stopped : ""));
}

std::string format_html_sections(const std::string& title, const std::vector<HtmlSection>& sections,
                                 const HtmlCharts& charts, const std::string& provenance) {
  std::string body;
  for (const HtmlSection& s : sections)
    body += "<h2>" + html_escape(s.heading) + "</h2>\n<pre>" + html_escape(s.text) + "</pre>\n";
  if (!charts.empty()) body += "<h2>Charts</h2>\n" + html_charts(charts);
  return html_page(title, body, provenance);
}

}  // namespace salvo::report
