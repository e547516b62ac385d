// The ASL `explain` listing: every To Hit and To Kill modifier with its rule, shot by shot.

#include <fmt/format.h>

#include <optional>
#include <string>

#include "salvo/core/text_table.h"
#include "salvo/rules/asl.h"
#include "salvo/rules/asl_shot.h"

namespace salvo::asl {
namespace {

std::string signed_value(int v) { return fmt::format("{:+d}", v); }

std::string modifier_line(const Modifier& m) {
  std::string s = fmt::format("{:>3}  {}", signed_value(m.value), m.what);
  if (!m.rule.empty()) s += fmt::format(" ({})", m.rule);
  return s;
}

std::string opt_number(const std::optional<int>& v) { return v ? std::to_string(*v) : "-"; }

std::string explain_shot(const ShotExplain& s) {
  std::string out = s.label + '\n';
  if (s.direct_ift) {  // MG/IFE: no To Hit DR; the IFT DR is the attack
    out += "    Infantry Fire Table (no To Hit DR)\n";
    for (const auto& line : s.effects) out += "      " + line + '\n';
    out += fmt::format("    ROF {}   B# {}   X# {}", s.rof, s.breakdown, opt_number(s.x_number));
    if (s.depletion) out += fmt::format("   Depletion# {}", *s.depletion);  // Canister (C8.4)
    return out + '\n';
  }
  out += fmt::format("    Basic TH#      {}\n", s.basic_th);
  for (const auto& m : s.th_mods) out += "      " + modifier_line(m) + '\n';
  out += fmt::format("    Modified TH#   {}\n", s.modified_th);
  out += "    To Hit DRM\n";
  if (s.drm.empty()) out += "      none\n";
  for (const auto& m : s.drm) out += "      " + modifier_line(m) + '\n';
  out += fmt::format("    total DRM      {}\n", signed_value(s.total_drm));
  if (s.double_lower_die)
    out += fmt::format("    hits on Final DR <= {}, i.e. colored + white + the lower die again <= {}\n", s.modified_th,
                       s.modified_th - s.total_drm);
  else
    out +=
        fmt::format("    hits on Final DR <= {}, i.e. Original DR <= {}\n", s.modified_th, s.modified_th - s.total_drm);
  out += fmt::format("    ammo {}   ROF {}   B# {}   X# {}   Depletion# {}\n",
                     s.ammo_name ? s.ammo_name : ammo_text(s.ammo), s.rof,
                     s.breakdown != kNoBreakdownNumber ? std::to_string(s.breakdown) : std::string("-"),
                     opt_number(s.x_number), opt_number(s.depletion));
  if (!s.effects.empty()) {
    out += "    Infantry Fire Table\n";
    for (const auto& line : s.effects) out += "      " + line + '\n';
  }
  if (s.kills.empty()) return out;

  out += "    To Kill\n";
  TextTable t;
  t.indent = "      ";
  t.align = {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kLeft};
  t.rows.push_back({"aspect", "Basic TK#", "AF", "Final TK#", "TK modifiers"});
  for (const auto& k : s.kills) {
    std::string mods;
    for (const auto& m : k.mods) {
      if (!mods.empty()) mods += "; ";
      mods += signed_value(m.value) + ' ' + m.what + (m.rule.empty() ? "" : " (" + m.rule + ")");
    }
    if (mods.empty()) mods = "-";
    t.rows.push_back({k.aspect + (k.critical ? " (CH)" : ""), std::to_string(k.basic_tk),
                      k.af ? std::to_string(*k.af) : "unarmored", std::to_string(k.final_tk), mods});
  }
  out += t.render();
  return out;
}

}  // namespace

std::string format_explanation(const Explanation& e) {
  std::string out = fmt::format("To Hit table: {}\n", e.th_color);
  for (const auto& s : e.shots) out += '\n' + explain_shot(s);
  if (!e.notes.empty()) {
    out += "\nnotes\n";
    for (const auto& n : e.notes) out += "  - " + n + '\n';
  }
  return out;
}

}  // namespace salvo::asl
