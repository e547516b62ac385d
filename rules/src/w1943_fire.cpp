// 1943 fire as pure functions: the modifiers of a shot (3.5, 3.6), one shot from its dice
// (3.2, 3.7) and its effect on the target unit (3.3).
#include <algorithm>

#include "salvo/rules/w1943.h"

namespace salvo::w1943 {
namespace {

const RangeBand* band_of(const std::vector<RangeBand>& bands, int range) {
  for (const RangeBand& b : bands)
    if (range >= b.from && range <= b.to) return &b;
  return nullptr;
}

std::string yards(const RangeBand& b) { return std::to_string(b.from) + ".." + std::to_string(b.to) + " yards"; }

}  // namespace

const char* flag_name(int flag) {
  static const char* const names[kNumFixedFlags] = {"hit",
                                                    "result_K",
                                                    "result_D",
                                                    "result_I",
                                                    "base_killed",
                                                    "base_damaged",
                                                    "immobilized",
                                                    "rapid_fire",
                                                    "mg_jam",
                                                    "mg_repaired",
                                                    "secondary_ammo_out",
                                                    "out_of_fuel",
                                                    "target_destroyed",
                                                    "target_remnant"};
  return flag >= 0 && flag < kNumFixedFlags ? names[flag] : "?";
}
const char* counter_name(int counter) {
  static const char* const names[kNumCounters] = {"shots", "hits", "bases_killed", "turns_fired"};
  return counter >= 0 && counter < kNumCounters ? names[counter] : "?";
}
const char* shot_outcome_name(int outcome) {
  static const char* const names[kNumShotOutcomes] = {"miss", "no_effect", "I", "D", "K", "smoke"};
  return outcome >= 0 && outcome < kNumShotOutcomes ? names[outcome] : "?";
}
const char* end_reason_name(int reason) {
  static const char* const names[kNumEndReasons] = {"fire_over", "target_destroyed", "mg_jammed", "out_of_ammo",
                                                    "out_of_fuel"};
  return reason >= 0 && reason < kNumEndReasons ? names[reason] : "?";
}

MachineGun mg_of(const Firer& f) {
  if (f.mg) return *f.mg;
  const auto c = weapon_class(f.weapon);
  return c ? c->mg : MachineGun::kNone;
}

bool is_mortar(const Firer& f) {
  if (f.mortar) return *f.mortar;
  const auto c = weapon_class(f.weapon);
  return c && c->mortar;
}

std::optional<int> shell_size_of(const Firer& f) {
  if (f.shell_size) return f.shell_size;
  if (f.weapon == "atr") return shell_size_of(std::string("atr_15mm"));  // 3.6 Weapon Size Index "ATR,15mm+"
  return shell_size_of(f.weapon);
}

Ammo ammo_of(const Firer& f) {
  if (f.ammo) return *f.ammo;
  return mg_of(f) != MachineGun::kNone ? Ammo::kNone : Ammo::kHE;  // 3.6 Firing H.E., 3.7 Machine Guns
}

ShotSpec build_spec(const Chart& chart, const Situation& s, Ammo ammo, int alive) {
  const Firer& f = s.firer;
  const Target& t = s.target;
  const int range = s.fire.range;
  // 3.5 At packed target, 3.6 At packed Infantry: "any bases which are within 10 yards of each
  // other at the time the die is rolled" - one base left is no pair.
  const bool packed = t.packed && alive >= 2;
  ShotSpec spec;
  spec.kind = s.fire.kind;
  spec.ammo = ammo;
  spec.anti_tank = t.type == TargetType::kVehicle;
  const bool fired_ammo = ammo == ammo_of(f);
  const MachineGun mg = mg_of(f);
  spec.secondary =
      fired_ammo && (f.secondary.value_or(false) || ammo == Ammo::kAPCP || ammo == Ammo::kSmoke);  // 3.6, 3.7
  auto add = [](std::vector<Modifier>& to, int& sum, std::string what, int value, std::string rule) {
    sum += value;
    to.push_back(Modifier{std::move(what), value, std::move(rule)});
  };

  switch (s.fire.kind) {
    case FireKind::kSmallArms: {
      spec.dice = chart.small_arms_dice;
      spec.table = &chart.small_arms_results;
      spec.jam_on_fire_die = mg != MachineGun::kNone;  // 3.7
      auto& m = spec.hit_mods;
      int& sum = spec.hit_mod;
      const auto& cm = chart.small_arms_mods;
      auto chart_mod = [&](const char* key, std::string what) { add(m, sum, std::move(what), cm.at(key), "3.5"); };
      const int firing = f.bases_firing > 0 ? f.bases_firing : f.bases;
      if (3 * firing <= f.bases)
        add(m, sum, "Remnant unit firing (" + std::to_string(firing) + " of " + std::to_string(f.bases) + " bases)",
            kRemnantFire, "3.5");
      else if (3 * firing <= 2 * f.bases)
        add(m, sum, "Weak unit firing (" + std::to_string(firing) + " of " + std::to_string(f.bases) + " bases)",
            kWeakFire, "3.5");
      if (mg == MachineGun::kHeavy) chart_mod("hmg", "Hmg: belt-fed heavy machine gun");
      if (mg == MachineGun::kLight) chart_mod("lmg", "Lmg: clip-fed light machine gun");
      if (t.prone) chart_mod("at_prone", "at prone");
      if (packed) chart_mod("at_packed", "at packed target");
      if (t.rushing) chart_mod("at_rushing", "at rushing");
      if (t.soft_cover) chart_mod("soft_cover", "at soft cover");
      if (t.solid_cover) chart_mod("solid_cover", "at solid cover");
      if (t.hard_cover) chart_mod("hard_cover", "at hard cover");
      if (t.type == TargetType::kVehicle)
        add(m, sum,
            "weapon differential (" + std::to_string(f.weapon_value) + " vs defense " + std::to_string(t.defense) + ")",
            f.weapon_value - t.defense, "3.5");
      if (f.moved || f.mounted_cavalry)
        chart_mod("moving_firing", f.mounted_cavalry ? "mounted cavalry fire: Moved modifier (3.1)" : "moving-firing");
      if (f.demoralized) chart_mod("demoralized", "demoralized");
      const RangeBand* b = band_of(chart.small_arms_bands, range);
      if (!b)
        throw RulesError("fire.range",
                         "no Small Arms range band of the chart holds " + std::to_string(range) + " yards");
      if (b->value != 0) add(m, sum, "range band " + yards(*b), b->value, "3.5");
      break;
    }
    case FireKind::kArtillery: {
      const ArtillerySection& sec = spec.anti_tank ? chart.anti_tank : chart.anti_personnel;
      spec.table = &sec.kill;
      spec.rapid_fire = true;                                            // 3.7
      spec.jam_on_kill_die = spec.anti_tank && mg != MachineGun::kNone;  // 3.7
      const RangeBand* b = band_of(chart.artillery_bands, range);
      if (!b)
        throw RulesError("fire.range",
                         "no Direct Artillery range band of the chart holds " + std::to_string(range) + " yards");
      spec.to_hit = b->value;
      auto cond = [&](const char* key, bool applies, std::string what) {
        if (!applies) return;
        if (auto it = sec.to_hit.find(key); it != sec.to_hit.end())
          add(spec.hit_mods, spec.hit_mod, what, it->second, "3.6");
        if (auto it = sec.to_kill.find(key); it != sec.to_kill.end())
          add(spec.kill_mods, spec.kill_mod, what, it->second, "3.6");
      };
      if (spec.anti_tank) {
        cond("large_target", t.size == TargetSize::kLarge, "large target");
        cond("small_target", t.size == TargetSize::kSmall, "small target");
      }
      if (f.training == Training::kOutstanding)
        add(spec.hit_mods, spec.hit_mod, "Outstanding unit", kOutstandingHit, "3.6");
      if (f.training == Training::kAbysmal) add(spec.hit_mods, spec.hit_mod, "Abysmal unit", kAbysmalHit, "3.6");
      cond("stationary_in_open", t.stationary_in_open, "at stationary in open");
      if (!spec.anti_tank) cond("packed_infantry", packed, "at packed infantry");
      cond("solid_cover", t.solid_cover, "at solid cover");
      cond("hard_cover", t.hard_cover, "at hard cover");
      cond("range_1000_2000", range >= 1000 && range <= 2000, "1000 to 2000 yard range");
      cond("moving_target", t.moving, "moving target");
      cond("moved", f.moved, "firer moved");
      cond("damaged", f.damaged, "firer damaged");
      cond("range_under_200", range < 200, "range under 200 yards");
      cond("range_under_400", range >= 200 && range < 400, "range under 400 yards");
      if (spec.anti_tank) {
        cond("apcp_under_600", ammo == Ammo::kAPCP && range < 600, "APCP under 600 yards");
        cond("flank_rear", s.fire.flank_rear, "at flank/rear");
      }
      cond("over_1000", range > 1000, "over 1000 yard range");
      if (spec.anti_tank) {
        cond("firing_he", ammo == Ammo::kHE, "firing H.E.");
        if (mg == MachineGun::kMedium) add(spec.kill_mods, spec.kill_mod, "Medium MG", kMediumMgKill, "3.6");
        if (mg == MachineGun::kHeavy) add(spec.kill_mods, spec.kill_mod, "Heavy MG", kHeavyMgKill, "3.6");
        add(spec.kill_mods, spec.kill_mod,
            "weapons differential (" + std::to_string(f.weapon_value) + " vs defense " + std::to_string(t.defense) +
                ")",
            f.weapon_value - t.defense, "3.6");
      } else {
        const std::optional<int> size = shell_size_of(f);
        if (!size)
          throw RulesError("firer.shell_size",
                           "missing (required for direct artillery fire at personnel): a category "
                           "0..11 or a name of the 3.6 Weapon Size Index");
        const int cat = *size;
        add(spec.kill_mods, spec.kill_mod, "shell size " + std::to_string(cat),
            chart.shell_size_kill[static_cast<std::size_t>(cat)], "3.6");
      }
      break;
    }
    case FireKind::kFlamethrower:
      break;
    case FireKind::kSmoke:
      spec.ammo = Ammo::kSmoke;
      spec.secondary = true;  // 3.7 Light Smoke: subject to the secondary ammunition rule
      break;
  }
  return spec;
}

Shot resolve_shot(const ShotSpec& spec, int roll, int kill_die) {
  Shot shot;
  switch (spec.kind) {
    case FireKind::kSmallArms: {
      // 3.5: one roll on the Small Arms Fire chart; 3.7: any 1 showing checks an MG for a jam.
      int natural = 0;
      bool any_one = false;
      if (spec.dice == 2) {
        natural = pair_colored(roll) + pair_white(roll);
        any_one = pair_colored(roll) == 1 || pair_white(roll) == 1;
      } else {
        natural = roll + 1;
        any_one = natural == 1;
      }
      shot.result = spec.table->at(natural + spec.hit_mod);
      shot.hit = shot.result != Result::kNone;
      shot.jam_check = spec.jam_on_fire_die && any_one;
      break;
    }
    case FireKind::kArtillery: {
      // 3.2: two hit dice and one kill die, rolled together.
      const int natural = pair_colored(roll) + pair_white(roll);
      shot.hit = natural + spec.hit_mod >= spec.to_hit;
      shot.result = shot.hit ? spec.table->at(kill_die + spec.kill_mod) : Result::kNone;
      shot.ammo_out = spec.secondary && kill_die <= 2;         // 3.7 Secondary Ammunition: unmodified 1 or 2
      shot.jam_check = spec.jam_on_kill_die && kill_die == 1;  // 3.7 Machine Guns, anti-tank role
      shot.rapid_fire = spec.rapid_fire && natural == 12;      // 3.7 Rapid Fire Reward
      break;
    }
    case FireKind::kFlamethrower:
      // 3.7: destroys one base regardless of protection; out of fuel on 1-2.
      shot.hit = true;
      shot.result = Result::kKilled;
      shot.ammo_out = kill_die <= 2;
      break;
    case FireKind::kSmoke:
      // 3.7 Light Smoke: subject to the secondary ammunition rule.
      shot.ammo_out = kill_die <= 2;
      break;
  }
  return shot;
}

int apply_shot(TargetType type, const Shot& shot, TargetState& t) {
  if (!shot.hit || t.alive == 0) return 0;
  auto kill_one = [&t] {
    // A K removes an undamaged base while there is one; the damaged base goes last.
    --t.alive;
    if (t.alive == 0) t.damaged = false;
    return 1;
  };
  const bool vehicle_like = type == TargetType::kVehicle || type == TargetType::kTowedGun;
  // 3.3: "Machine gun and mortar bases are killed when hit" - by any hit result, the I of a
  // small arms box included (I, which "only happen[s] to vehicles", names no other effect).
  if (type == TargetType::kMachineGun || type == TargetType::kMortar) return kill_one();
  switch (shot.result) {
    case Result::kKilled:
      return kill_one();
    case Result::kDamaged:
      if (type == TargetType::kInfantry && t.damaged) {
        t.damaged = false;  // 3.3: two damage hits combine into one Kill
        --t.alive;
        return 1;
      }
      t.damaged = true;
      return 0;
    case Result::kImmobilized:
      if (vehicle_like) t.immobilized = true;  // 3.3: vehicles (and towed artillery) only
      return 0;
    case Result::kNone:
      return 0;
  }
  return 0;
}

}  // namespace salvo::w1943
