// Vehicle rolls beyond firing (D2.5 ESB, D2.51 mechanical reliability, D2.401 Motion attempts)
// compiled to one-step roll programs.
#include "salvo/rules/asl_movement.h"

#include "checks.h"
#include "salvo/rules/asl_ift.h"  // signed_text
#include "salvo/rules/asl_tables.h"

#include <cmath>
#include <string>

namespace salvo::asl {
namespace {

const char* kMoveFlagNames[kNumMoveFlags] = {"success", "immobilized"};

std::string mp_text(double mp) {
  if (mp == std::floor(mp)) return std::to_string(static_cast<int>(mp));
  return std::to_string(static_cast<int>(mp)) + ".5";
}

constexpr std::array<Named<Manufacturer>, 8> kManufacturerTexts = {{{"U.S. (a)", Manufacturer::kAmerican},
                                                                    {"Czech (t)", Manufacturer::kCzech},
                                                                    {"Russian (r)", Manufacturer::kRussian},
                                                                    {"British (b)", Manufacturer::kBritish},
                                                                    {"German (g)", Manufacturer::kGerman},
                                                                    {"French (f)", Manufacturer::kFrench},
                                                                    {"Italian (i)", Manufacturer::kItalian},
                                                                    {"other", Manufacturer::kOther}}};
const char* manufacturer_text(Manufacturer m) { return name_in(kManufacturerTexts, m).data(); }

// Outcome of the first die of the roll; nullopt when a further die decides (Motion + D2.51).
bool esb_success(const Movement& m, int original_dr) { return original_dr + esb_drm(m) <= 11; }  // D2.5
bool reliability_breaks(int original_dr) { return original_dr == 12; }                           // D2.51
bool motion_success(const Movement& m, int dr) { return dr <= m.mp_in_los; }                     // D2.401

}  // namespace

int esb_nationality_drm(Manufacturer m) {  // D2.5 ESB DRM Table
  return table_data().esb_manufacturer_drm[static_cast<std::size_t>(m)];
}

int esb_cap(int mp_allotment) { return mp_allotment / 4; }  // D2.5: 1/4, FRD

int esb_mp_drm(double mp_sought, bool red_mp) {
  return static_cast<int>(red_mp ? std::ceil(mp_sought) : std::floor(mp_sought));  // D2.5: FRD, red: FRU
}

int esb_drm(const Movement& m) {
  return esb_mp_drm(m.mp_sought, m.red_mp) + esb_nationality_drm(m.manufacturer) + m.drm;
}

std::optional<RulesError> check_movement(const Movement& m) {
  constexpr auto err = refusal;
  switch (m.roll) {
    case MovementRoll::kNone:
      return err("movement.roll", "required: \"esb\", \"start\" or \"motion\"");
    case MovementRoll::kEsb:
      if (m.mp_sought <= 0) return err("movement.mp_sought", "ESB seeks at least 1/2 MP (D2.5), got 0");
      if (m.mp_sought > esb_cap(m.mp_allotment))
        return err("movement.mp_sought",
                   "at most 1/4 of the MP allotment (FRD): " + std::to_string(esb_cap(m.mp_allotment)) + " for " +
                       std::to_string(m.mp_allotment) + " MP, got " + mp_text(m.mp_sought));
      return std::nullopt;
    case MovementRoll::kStart:
      if (!m.red_mp)
        return err("movement.red_mp",
                   "only an AFV with a red MP allotment makes a mechanical reliability DR on a start (D2.51)");
      if (m.drm != 0)
        return err("movement.drm", "the mechanical reliability DR is unmodified: an Original 12 immobilizes (D2.51)");
      return std::nullopt;
    case MovementRoll::kMotion:
      if (m.drm != 0) return err("movement.drm", "the Motion attempt dr is unmodified (D2.401)");
      return std::nullopt;
  }
  return std::nullopt;
}

Compiled compile_movement(const Movement& m) {
  if (auto e = check_movement(m)) throw *e;
  ProgramBuilder b;
  RollProgram& p = b.program();
  for (const char* n : kMoveFlagNames) p.flag_names.emplace_back(n);
  p.end_reason_names = {"done"};
  auto leaf = [&](MovementOutcome o) {
    Leaf l;
    l.outcome = static_cast<std::uint8_t>(o);
    if (o == kMoveSuccess) l.flags |= 1u << kMoveFlagSuccess;
    if (o == kMoveImmobilized) l.flags |= 1u << kMoveFlagImmobilized;
    l.closes_window = true;
    l.next_state = -1;
    return b.leaf(l);
  };
  Compiled c;
  auto& notes = c.explain.notes;
  c.explain.th_color = "not used: a movement roll (D2)";
  std::vector<Link> pair(36);
  std::string label;
  switch (m.roll) {
    case MovementRoll::kEsb: {
      p.outcome_names = {"success", "failed", "immobilized"};
      label = "ESB DR";
      for (int f = 0; f < 36; ++f)
        pair[static_cast<std::size_t>(f)] =
            leaf(esb_success(m, pair_colored(f) + pair_white(f)) ? kMoveSuccess : kMoveImmobilized);
      notes.push_back("ESB: " + mp_text(m.mp_sought) + " extra MP sought of at most " +
                      std::to_string(esb_cap(m.mp_allotment)) + " (1/4 of " + std::to_string(m.mp_allotment) +
                      " MP, FRD) (D2.5)");
      notes.push_back("ESB DRM " + signed_text(esb_mp_drm(m.mp_sought, m.red_mp)) + " for the MP sought (" +
                      (m.red_mp ? "red MP allotment: FRU" : "FRD") + "), " +
                      signed_text(esb_nationality_drm(m.manufacturer)) + " manufacturer " +
                      manufacturer_text(m.manufacturer) + (m.drm != 0 ? ", " + signed_text(m.drm) + " other" : "") +
                      " = " + signed_text(esb_drm(m)) + " (D2.5)");
      notes.push_back("Final ESB DR <= 11 gains the MP; >= 12 immobilizes the vehicle (D2.5)");
      break;
    }
    case MovementRoll::kStart:
      p.outcome_names = {"success", "failed", "immobilized"};
      label = "mechanical reliability DR";
      for (int f = 0; f < 36; ++f)
        pair[static_cast<std::size_t>(f)] =
            leaf(reliability_breaks(pair_colored(f) + pair_white(f)) ? kMoveImmobilized : kMoveSuccess);
      notes.push_back(
          "mechanical reliability: a DR of 12 on a start immobilizes an AFV with a red MP allotment (D2.51)");
      break;
    case MovementRoll::kMotion: {
      p.outcome_names = {"success", "failed", "immobilized"};
      label = "Motion attempt dr";
      // D2.401: dr <= MF/MP spent in LOS; D2.51: a red-MP AFV then makes its reliability DR.
      const Link reliability = m.red_mp ? [&] {
        std::vector<Link> dr(36);
        for (int f = 0; f < 36; ++f)
          dr[static_cast<std::size_t>(f)] = leaf(reliability_breaks(pair_colored(f) + pair_white(f)) ? kMoveImmobilized : kMoveSuccess);
        return b.node(DieKind::kPair, dr);
      }() : leaf(kMoveSuccess);
      std::vector<Link> d6(6);
      for (int r = 1; r <= 6; ++r)
        d6[static_cast<std::size_t>(r - 1)] = motion_success(m, r) ? reliability : leaf(kMoveFailed);
      b.add_state(b.node(DieKind::kD6, d6), label);
      notes.push_back("Motion attempt: dr <= " + mp_text(m.mp_in_los) + " MF/MP spent in LOS (D2.401)");
      if (m.red_mp)
        notes.push_back(
            "red MP allotment: a successful attempt is followed by the reliability DR; 12 immobilizes, no Motion "
            "(D2.51, D2.401)");
      c.program = b.take();
      return c;
    }
    case MovementRoll::kNone:
      break;
  }
  b.add_state(b.node(DieKind::kPair, pair), label);
  c.program = b.take();
  return c;
}

MovementOutcome resolve_movement(const Movement& m, Dice& dice) {
  if (auto e = check_movement(m)) throw *e;
  auto dr = [&] {
    const int f = dice.pair();
    return pair_colored(f) + pair_white(f);
  };
  switch (m.roll) {
    case MovementRoll::kEsb:
      return dr() + esb_drm(m) >= 12 ? kMoveImmobilized : kMoveSuccess;
    case MovementRoll::kStart:
      return dr() == 12 ? kMoveImmobilized : kMoveSuccess;
    case MovementRoll::kMotion: {
      const int r = dice.d6() + 1;
      if (r > m.mp_in_los) return kMoveFailed;
      if (m.red_mp && dr() == 12) return kMoveImmobilized;
      return kMoveSuccess;
    }
    case MovementRoll::kNone:
      break;
  }
  return kMoveFailed;
}

}  // namespace salvo::asl
