#!/usr/bin/env python3
"""Exact model of one ASL fire phase - one Gun against an armored (or unarmored) vehicle, with
the emphasis on ammunition, Rate of Fire and malfunction - checked against the `salvo` odds
calculator.

This is an independent implementation written from the rule texts (ASL Chapters A, C and D) and
from the readings that salvo's user documentation
(README, "Situation files" and "What the rules engine does") states for points the rules leave
open.  It does not use or mirror salvo's code.  Standard library only.

What it models: Rate of Fire (C2.24) and Intensive Fire (C5.6), malfunction, X# and the A.11
reductions (A9.7, C2.28, C5.62, D3.7), Low Ammo from a circled B# (D3.71), special ammunition
(APCR/APDS/HEAT) depletion with the C8.12 chart, elite +1 and fallback ammunition (C8.9, C8.2),
To Hit (C3 red/black, C4 modifications, Cases D, E, F, H, I, K, L, N, P and extra DRM), Improbable
and Critical Hits (C3.6-.7), Multiple Hits of 15-40mm guns (C3.8), hit location and hull down
(C3.9, D4.2), same-hex Target Facing (D3.2), To Kill (C7.31-.34, Case D, rear, superior/inferior
turret, unarmored aspects, Dud, red CS#), Acquisition and concealment (C6.5, C6.57), the shot
cap, stop_on, and the override keys.

Readings followed:
  * A21.11-.13: `firer.captured` and `firer.non_qualified` each give one level of penalty - red
    To Hit numbers, Case H +2, B# -2 (the original B# becoming an X#, A.11), Multiple ROF -1 (not
    below 0); both together give two levels (+4, B# -4, ROF -2).  non_qualified is generated only
    for a Gun (vehicle = false), as salvo refuses it on a vehicle.
  * C3.8 + D4.2: a Multiple Hit whose second hit lands on the hull of a hull-down target scores
    one hit in e_hits (it is still a Multiple Hit); the first hit's result stands, a Dud included.
  * C4.3/C7.32: the German 28LL and 40LL use the APCR To Hit modification always (HE included),
    the APCR To Kill table and APCR Case D for AP as well, and never deplete.
  * C8.9: special ammunition above the Depletion # is not there and the Gun fires again with the
    fallback ammunition, unless a malfunction or Low Ammo makes the attempt count as fired; with
    no fallback the phase ends (out_of_ammo, outcome no_shot).
  * The better of a Multiple Hit's two results is kept in the order burn > eliminated > shock >
    immobilized > possible shock > no effect > dud; a hit removes concealment (Case K) and only
    then builds Acquisition; the end reason is the target's fate first, then the malfunction,
    then the shot cap, then the Rate of Fire.

Method: every To Hit DR (36 ordered colored/white pairs), subsequent dr and To Kill DR is
enumerated with fractions.Fraction; the Rate of Fire loop is solved as an absorbing chain.

Run:
  python3 ammo_model.py SALVO [--count N] [--seed S] [--stress] [--keep DIR] [--show K] [-v]

It generates N random situations from seed S (--stress weights the gun-state edge cases: low
B#, circled B#, X#, low Depletion #, Intensive Fire, captured use, hull down, 15-40mm guns),
writes each as a TOML file in a temporary directory (removed at the end; --keep DIR writes them
there and keeps them), runs `SALVO odds FILE --format json` and compares every quantity salvo
reports (first shot and phase) with the model to 1e-9.  A situation salvo refuses, or a quantity
only one side reports, counts as a disagreement.  The TOML of the first K (default 3)
disagreements is printed; the last line is a one-line summary.
Exit status: 0 all agree, 1 any disagreement, 2 usage error.
For a test suite: `ammo_model.py SALVO --count 200 --seed 1` (about 20 s on 2 cores; with
--stress about 10 s).

The glue - command line, running salvo, comparing to 1e-9, the report - is harness.py's,
shared by the models; this file holds only its reading of the rules and its generator.
"""
import random
import sys
from fractions import Fraction as F

import harness

DICE = [(c, w) for c in range(1, 7) for w in range(1, 7)]   # (colored, white)
P36 = F(1, 36)
P6 = F(1, 6)

# ---------------------------------------------------------------- tables
# C3 To Hit Table, Vehicle Target Type, columns 0-6, 7-12, ..., 49-54, >54
TH_BLACK = [10, 9, 8, 7, 6, 6, 5, 4, 3, 2]
TH_RED = [10, 8, 7, 6, 5, 4, 3, 2, 1, 0]


def th_col(r):
    return 0 if r <= 6 else min((r - 1) // 6, 9)


# C4 modifications per column
C4_STAR = [0, 0] + [-1] * 8
C4_L = [0, 0] + [1] * 8
C4_LL = [0, 0, 1, 1] + [2] * 6
C4_APCR = [0, 0, -1, -1, -2, -2, -3, -3, -4, -4]
C4_LE57 = [0, 0, -1, -1, -2, -2, -3, -3, -4, -4]
C4_LE40 = [0, 0] + [-1] * 8

# guns: caliber, suffix -> Basic TK# per ammo (C7.31, C7.32, C7.33)
GUNS = {
    "20L": dict(cal=20, AP=6),
    "28LL": dict(cal=28, AP=12, APCR=12),         # German only: APCR table for AP too (C7.32)
    "40LL": dict(cal=40, AP=14, APCR=14),
    "37": dict(cal=37, AP=8),
    "37L": dict(cal=37, AP=9, APCR=10),
    "40L": dict(cal=40, AP=10),
    "47L": dict(cal=47, AP=11, APCR=13),
    "50": dict(cal=50, AP=11, APCR=14),
    "50L": dict(cal=50, AP=13, APCR=17),
    "57L": dict(cal=57, AP=15, APDS=18),          # British 57L: APDS "D57L" 18
    "75": dict(cal=75, AP=14, HEAT=13),
    "75*": dict(cal=75, AP=10, HEAT=13),
    "75L": dict(cal=75, AP=17, APCR=20, HEAT=13),
    "76L": dict(cal=76, AP=17, APCR=20, HEAT=13),
    "85L": dict(cal=85, AP=17, APCR=19),
    "88L": dict(cal=88, AP=20, APCR=23),
    "90L": dict(cal=90, AP=21, APCR=27),
    "105": dict(cal=105, AP=14, HEAT=15),
    "88LL": dict(cal=88, AP=27),
}


def apcr_always(s):
    """C4.3/C7.32: the German 28LL and 40LL always use the APCR To Hit modification and the
    APCR To Kill table (and APCR Case D) unless firing HE, and never deplete."""
    return s["nat"] == "german" and s["gun"] in ("28LL", "40LL")


def barrel(gun):
    if gun.endswith("LL"):
        return "LL"
    if gun.endswith("L"):
        return "L"
    if gun.endswith("*"):
        return "*"
    return ""


# C7.34 HE Basic TK# (armored) and unarmored Final TK#, by caliber threshold
HE_ROWS = [(150, 16, 20), (120, 12, 18), (100, 10, 16), (80, 8, 14), (70, 7, 12),
           (50, 6, 10), (40, 5, 9), (30, 4, 8), (20, 3, 6)]


def he_tk(cal, armored):
    for lo, a, u in HE_ROWS:
        if cal >= lo:
            return a if armored else u
    raise ValueError(cal)


def ap_unarmored(cal):       # C7.311
    if cal <= 28:
        return 7
    if cal <= 57:
        return 8
    if cal <= 84:
        return 9
    if cal <= 95:
        return 10
    return 11


NA = None
# Case D (C7.24) AP rows, buckets 0-1,2,3-6,7-12,13-18,...,73-78,79+
CD_AP = {
    "le25": [2, 1, 1, 0, 0, -1, -2, -3, -4, -5] + [NA] * 6,
    "37_57": [1, 1, 0, 0, 0, -1, -2, -2, -3, -4, -4, -5] + [NA] * 4,
    "ge65": [1, 0, 0, 0, 0, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5, NA],
}
# APCR/APDS rows, buckets 0-1,2,3-6,7-12,...,43-48,49+
CD_APCR_LE57 = [3, 2, 1, 0, -2, -4, -6, NA, NA, NA, NA]
CD_APCR_GE75 = [3, 2, 1, 0, -1, -3, -4, -5, -6, -7, NA]
CD_APDS = [1, 0, 0, 0, 0, 0, -1, -2, -3, -4, NA]


def cd_bucket(r, n):
    if r <= 1:
        i = 0
    elif r == 2:
        i = 1
    elif r <= 6:
        i = 2
    else:
        i = 3 + (r - 7) // 6
    return min(i, n - 1)


def case_d(gun, ammo, r, apcr_always=False):
    cal = GUNS[gun]["cal"]
    if ammo == "AP" and apcr_always:
        ammo = "APCR"
    if ammo == "AP":
        row = CD_AP["le25"] if cal <= 25 else CD_AP["37_57"] if cal <= 57 else CD_AP["ge65"]
    elif ammo == "APCR":
        row = CD_APCR_LE57 if cal <= 57 else CD_APCR_GE75
    elif ammo == "APDS":
        row = CD_APDS
    else:
        return 0
    return row[cd_bucket(r, len(row))]


AF_SCALE = [0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26]


def turret_af(af, kind):
    if af == "unarmored" or kind == "normal":
        return af
    i = AF_SCALE.index(af)
    if kind == "superior":
        return AF_SCALE[min(i + 1, len(AF_SCALE) - 1)]
    return AF_SCALE[max(i - 1, 0)]


# C8.12 Ammunition Supply Chart (the part used here); (nation, gun) -> {year: (dep, from_month)}
C812 = {
    ("german", "50L"): {1941: 5, 1942: 6, 1943: 5, 1944: 4},
    ("german", "37L"): {1941: 4, 1942: 5, 1943: 4, 1944: 3},
    ("german", "47L"): {1941: 4, 1942: 5, 1943: 4, 1944: 3},
    ("german", "50"): {1941: 4, 1942: 5, 1943: 4, 1944: 3},
    ("german", "88L"): {1941: 4, 1942: 5, 1943: 4, 1944: 3},
    ("german", "75L"): {1942: 5, 1943: 4, 1944: 3},
    ("german", "76L"): {1942: 5, 1943: 4, 1944: 3},
    ("american", "90L"): {1945: 5},
    ("russian", "85L"): {1943: 4, 1944: 5, 1945: 6},
}


def chart_depletion(nat, gun, year, month):
    if nat == "american" and gun == "76L":
        if year == 1944 and month >= 8:
            return 4
        if year == 1945:
            return 5
        return None
    if nat == "british" and gun == "57L":
        if year == 1944 and month >= 6:
            return 6
        if year == 1945:
            return 7
        return None
    return C812.get((nat, gun), {}).get(year)



RED_NATIONS = {"russian", "italian", "finnish", "axis_minor", "allied_minor"}

FLAGS = ["hit", "critical", "multiple_hit", "kill", "burn", "eliminated", "immobilized", "shock",
         "possible_shock", "dud", "malfunction", "disabled", "low_ammo", "depleted"]
FB = {f: 1 << i for i, f in enumerate(FLAGS)}
OUTCOMES = ["no_shot", "miss", "dud", "no_effect", "possible_shock", "immobilized", "shock",
            "eliminated", "burn"]
ENDS = ["rof_exhausted", "intensive_fire_done", "malfunction", "target_destroyed",
        "target_effect", "shot_cap", "out_of_ammo"]
# the better result of a Multiple Hit (the documented reading of C3.8)
RANK = {"dud": 0, "no_effect": 1, "possible_shock": 2, "immobilized": 3, "shock": 4,
        "eliminated": 5, "burn": 6}


def outcome_flags(o):
    f = 0
    if o in ("burn", "eliminated"):
        f |= FB["kill"] | FB[o]
    elif o in ("immobilized", "shock", "possible_shock", "dud"):
        f |= FB[o]
    return f


# ---------------------------------------------------------------- situation
def normalize(sit):
    fi = dict(sit.get("firer", {}))
    ta = dict(sit.get("target", {}))
    fr = dict(sit.get("fire", {}))
    ov = dict(sit.get("override", {}))
    s = {}
    s["nat"] = fi.get("nationality", "german")
    s["year"] = fi.get("year", 1944)
    s["month"] = fi.get("month", 6)
    s["th_color"] = fi.get("th_color", "auto")
    s["gun"] = fi.get("gun", "75")
    s["ammo"] = fi.get("ammo", "AP")
    s["rof"] = fi.get("rof", 0)
    s["B"] = fi.get("breakdown", 12)
    s["X"] = fi.get("x_number")
    s["circled"] = fi.get("low_ammo", False)
    s["la_marked"] = fi.get("low_ammo_marked", False)
    s["dep"] = fi.get("depletion")
    s["elite"] = fi.get("elite", False)
    s["fallback"] = fi.get("fallback_ammo", "AP")
    s["captured"] = fi.get("captured", False)
    s["nonq"] = fi.get("non_qualified", False)
    s["no_if"] = fi.get("no_intensive_fire", False)
    s["armor_leader"] = fi.get("armor_leader", 0)
    armor = ta.get("armor", {})
    if armor == "unarmored":
        armor = {k: "unarmored" for k in ("hull_front", "hull_side", "turret_front", "turret_side")}
    s["armor"] = {k: armor.get(k, 8) for k in ("hull_front", "hull_side", "turret_front", "turret_side")}
    s["turret_armor"] = ta.get("turret_armor", "normal")
    s["facing"] = ta.get("facing", "front")
    size = ta.get("size", "average")
    s["size"] = {"very_large": -2, "large": -1, "average": 0, "small": 1, "very_small": 2}.get(size, size)
    s["hd"] = ta.get("hull_down", False)
    s["concealed"] = ta.get("concealed", False)
    s["red_cs"] = ta.get("red_cs", False)
    s["same_hex"] = fr.get("same_hex", False)
    s["pinned"] = fr.get("pinned", False)
    s["range"] = fr.get("range", 6)
    s["phase"] = fr.get("phase", "prep")
    s["bu"] = fr.get("buttoned_up", False)
    s["acq0"] = fr.get("acquisition", 0)
    s["extra"] = fr.get("extra_drm", 0)
    s["max_shots"] = fr.get("max_shots")
    s["if"] = fr.get("intensive_fire", False)
    s["stop_on"] = fr.get("stop_on", "destroyed")
    s["mod_th"] = ov.get("modified_th")
    s["basic_tk"] = ov.get("basic_tk")
    return s


def special(ammo):
    return ammo in ("APCR", "APDS", "HEAT")


def depletion_number(s):
    if not special(s["ammo"]) or apcr_always(s):
        return None
    d = s["dep"]
    if d is None:
        d = chart_depletion(s["nat"], s["gun"], s["year"], s["month"])
    if d is None:
        raise ValueError("no depletion number")
    return d + (1 if s["elite"] else 0)          # C8.2


def penalty_level(s):
    """A21.11-.13: one level of penalty for captured use, one for non-qualified use (both:
    a non-qualified enemy MMC, the penalties doubled)."""
    return int(bool(s["captured"])) + int(bool(s["nonq"]))


def th_color(s):
    if penalty_level(s):
        return "red"                              # A21.12, C5.8
    if s["th_color"] != "auto":
        return s["th_color"]
    n = s["nat"]
    if n == "american":
        return "black" if s["year"] >= 1944 else "red"
    return "red" if n in RED_NATIONS else "black"


def modified_th(s, ammo):
    if s["mod_th"] is not None:
        return s["mod_th"]
    col = th_col(s["range"])
    m = (TH_BLACK if th_color(s) == "black" else TH_RED)[col]
    b = barrel(s["gun"])
    m += {"*": C4_STAR, "L": C4_L, "LL": C4_LL}.get(b, [0] * 10)[col]
    if ammo in ("APCR", "APDS") or apcr_always(s):
        m += C4_APCR[col]
    cal = GUNS[s["gun"]]["cal"]
    if cal <= 57:
        m += C4_LE57[col]
    if cal <= 40:
        m += C4_LE40[col]
    return m


def th_drm(s, acq, is_if, concealed=False):
    d = 0
    if s["pinned"]:
        d += 2                                    # Case D (C5.4)
    if s["same_hex"]:
        d += 2                                    # Case E (C5.5)
    if concealed:
        d += 2                                    # Case K (C6.2)
    if s["phase"] == "advancing":
        d += 2                                    # Case B
    if is_if:
        d += 2                                    # Case F
    if s["captured"]:
        d += 2                                    # Case H
    if s["nonq"]:
        d += 2                                    # Case H
    if s["bu"]:
        d += 1                                    # Case I
    r = s["range"]
    if s["same_hex"]:
        pass                                      # Case L NA in the firer's own hex
    elif r == 1:
        d -= 2                                    # Case L
    elif r == 2:
        d -= 1
    d -= acq                                      # Case N
    d += s["size"]                                # Case P
    d += s["extra"] + s["armor_leader"]
    return d


def final_tk(s, ammo, aspect, ch, facing=None):
    """Final TK# for a hit on aspect ('hull'/'turret'); None = no kill possible (Case D NA)."""
    facing = facing or s["facing"]
    side = "side" if facing in ("side", "rear") else "front"
    af = s["armor"][aspect + "_" + side]
    if aspect == "turret":
        af = turret_af(af, s["turret_armor"])
    g = GUNS[s["gun"]]
    if af == "unarmored":
        if ammo == "HEAT":
            t = 11
        elif ammo == "HE":
            t = he_tk(g["cal"], False)
        else:
            t = ap_unarmored(g["cal"])
        return (2 * t if ch else t), False
    if s["basic_tk"] is not None:
        basic = s["basic_tk"]
    elif ammo == "HE":
        basic = he_tk(g["cal"], True)
    elif s["nat"] == "american" and s["gun"] == "76L" and ammo == "APCR":
        basic = 22                                 # C7.32: 76L (U.S.)
    elif s["nat"] == "russian" and s["gun"] == "76L" and ammo in ("AP", "APCR"):
        basic = {"AP": 13, "APCR": 14}[ammo]       # C7.31 Russian 76L AFV 13; C7.32 76L (Russian) 14
    else:
        basic = g[ammo]
    t = basic * 2 if ch else basic                 # Case C
    if facing == "rear":
        t += 1                                     # Case A (C7.21)
    cd = case_d(s["gun"], ammo, s["range"], apcr_always(s))
    if cd is NA:
        return None, True
    t += cd
    return t - af, True


def tk_result(t, armored, he, aspect, a, b, red_cs=False):
    o = a + b
    if t is None:
        return "no_effect"                         # Case D NA: no kill possible (no TK DR)
    if o == 12:
        return "dud"                               # C7.35
    if o < t:
        ob = o - 1 if (red_cs and armored) else o  # C7.7 note A: red CS# -1 for the burn check
        return "burn" if 2 * ob <= t else "eliminated"
    if o == t:
        if not armored:
            return "immobilized"
        return "immobilized" if aspect == "hull" else "shock"
    if o == t + 1 and armored:
        if he:
            return "immobilized" if aspect == "hull" else "shock"
        return "possible_shock"
    return "no_effect"


class Model:
    def __init__(self, sit):
        self.s = normalize(sit)
        s = self.s
        self.dep = depletion_number(s)
        self.small = 15 <= GUNS[s["gun"]]["cal"] <= 40          # C3.8
        self.rof = s["rof"]
        self.rof = max(self.rof - penalty_level(s), 0)          # A21.12-.13: ROF -1 per level
        if s["phase"] == "advancing" or s["pinned"]:
            self.rof = 0                                        # C5.2, C5.4
        self.if_ok = s["if"] and not s["no_if"]
        self._tk = {}
        self._shot = {}
        self._solve = {}

    # -- To Kill distribution for a single hit: outcome -> prob
    def tk_single(self, ammo, aspect, ch, facing=None):
        key = (ammo, aspect, ch, facing)
        if key not in self._tk:
            t, armored = final_tk(self.s, ammo, aspect, ch, facing)
            d = {}
            for a, b in DICE:
                o = tk_result(t, armored, ammo == "HE", aspect, a, b, self.s["red_cs"])
                d[o] = d.get(o, 0) + P36
            self._tk[key] = d
        return self._tk[key]

    def tk_multiple(self, ammo, aspect1, facing=None):
        """C3.8: two TK DR; the first also locates the second hit (C3.9); keep the better."""
        key = ("mult", ammo, aspect1, facing)
        if key not in self._tk:
            s = self.s
            t1, arm1 = final_tk(s, ammo, aspect1, False, facing)
            d = {}
            for a, b in DICE:
                r1 = tk_result(t1, arm1, ammo == "HE", aspect1, a, b, s["red_cs"])
                if a + b == 12:
                    # under Case D NA a single hit rolls no TK DR (no Dud), but a Multiple Hit's
                    # first TK DR is rolled to locate the second hit, and its 12 is a Dud (C7.35):
                    # visible only when the second hit strikes nothing (HD, D4.2).
                    r1 = "dud"
                aspect2 = "turret" if a < b else "hull"
                if s["hd"] and aspect2 == "hull":
                    # strikes nothing (D4.2, C3.8): one hit scored, not two
                    k = (r1, 1)
                    d[k] = d.get(k, 0) + P36
                    continue
                for r2, p2 in self.tk_single(ammo, aspect2, False, facing).items():
                    r = r1 if RANK[r1] >= RANK[r2] else r2
                    d[(r, 2)] = d.get((r, 2), 0) + P36 * p2
            self._tk[key] = d
        return self._tk[key]

    def breakdown(self, is_if, la_marked):
        """Effective (B#, X#, low-ammo-possible)."""
        s = self.s
        b0 = s["B"]
        red = 0
        if is_if:
            red += 2                                   # C5.62
        red += 2 * penalty_level(s)                    # A21.11, A21.13, C5.8
        circled = s["circled"]
        if circled and la_marked:
            red += 1                                   # D3.71: new B# one less
        x = s["X"]
        if red:
            x = b0 if x is None else min(x, b0)        # A.11 / D3.71: original B# -> X#
        return b0 - red, x, circled and not la_marked

    def shot(self, acq, ammo, la_marked, is_if, conc=False):
        """One TH DR (and what follows). Returns dict: key -> prob, with key =
        (kind, hits, flags, outcome, rof_kept, ammo_gone, la_new)
        kind: 'fired' | 'absent' (special ammo not there, not fired: re-roll with fallback)."""
        key = (acq, ammo, la_marked, is_if, conc)
        if key in self._shot:
            return self._shot[key]
        s = self.s
        M = modified_th(s, ammo)
        D = th_drm(s, acq, is_if, conc)
        B, X, la_possible = self.breakdown(is_if, la_marked)
        dep = self.dep if (special(ammo) and ammo == s["ammo"]) else None
        rof = 0 if is_if else self.rof
        res = {}

        def add(k, p):
            res[k] = res.get(k, 0) + p

        for c, w in DICE:
            o = c + w
            facing = {1: "rear", 2: "rear", 3: "side", 4: "side", 5: "front", 6: "front"}[c] \
                if s["same_hex"] else None                   # D3.2 / C5.5
            flags = 0
            malf = False
            la_new = False
            if X is not None and o >= X:
                malf = True
                flags |= FB["malfunction"] | FB["disabled"]
            elif la_possible and B <= o < 12:
                la_new = True
                flags |= FB["low_ammo"]
            elif o >= B:
                malf = True
                flags |= FB["malfunction"]
            rof_kept = (c <= rof) and not malf
            gone = False
            if dep is not None:
                if o > dep:
                    flags |= FB["depleted"]
                    if malf or la_new:
                        # C8.9: counts as fired (no such ammo): a shot that cannot hit
                        add(("fired", 0, flags, "miss", rof_kept, True, la_new), P36)
                    else:
                        add(("absent", 0, flags, "no_shot", False, True, False), P36)
                    continue
                if o == dep:
                    flags |= FB["depleted"]
                    gone = True
            # hit determination (C3.3, C3.6, C3.7)
            hits = []      # list of (prob, kind) kind: ('ch'|'turret'|'hull'|'miss', improbable)
            if 2 + D > M:
                if o == 2:
                    hits = [(P6, ("ch", True)), (P6, ("turret", True)), (P6, ("hull", True)),
                            (3 * P6, ("miss", True))]
                else:
                    hits = [(F(1), ("miss", False))]
            elif 2 + D == M:
                if o == 2:
                    hits = [(P6, ("ch", False)), (5 * P6, ("normal", False))]
                else:
                    hits = [(F(1), ("miss", False))]
            else:
                if o + D <= M:
                    hits = [(F(1), ("ch" if o == 2 else "normal", False))]
                else:
                    hits = [(F(1), ("miss", False))]
            for ph, (kind, improbable) in hits:
                if kind == "miss":
                    add(("fired", 0, flags, "miss", rof_kept, gone, la_new), P36 * ph)
                    continue
                ch = kind == "ch"
                if ch:
                    aspect = "turret" if s["hd"] else "hull"
                elif kind in ("turret", "hull"):
                    aspect = kind
                else:
                    aspect = "turret" if c < w else "hull"
                    if s["hd"] and not improbable and o == 2 and 2 + D == M:
                        aspect = "turret"          # C3.7: a normal turret hit vs a HD vehicle
                if s["hd"] and aspect == "hull":
                    add(("fired", 0, flags, "miss", rof_kept, gone, la_new), P36 * ph)
                    continue
                f = flags | FB["hit"]
                if ch:
                    f |= FB["critical"]
                multiple = (not ch) and (not improbable) and self.small and c == w
                if multiple:
                    f |= FB["multiple_hit"]
                    dist = self.tk_multiple(ammo, aspect, facing)
                else:
                    dist = {(r, 1): p for r, p in self.tk_single(ammo, aspect, ch, facing).items()}
                for (r, nh), pr in dist.items():
                    add(("fired", nh, f | outcome_flags(r), r, rof_kept, gone, la_new), P36 * ph * pr)
        self._shot[key] = res
        return res

    # -- the phase: state -> (dist over (flags, outcome, end), E[shots], E[hits])
    def next_ammo(self, ammo, gone):
        if not gone:
            return ammo
        fb = self.s["fallback"]
        return None if fb == "none" else fb

    def solve(self, n, acq, ammo, la, is_if, flags, conc=False):
        key = (n, acq, ammo, la, is_if, flags, conc)
        if key in self._solve:
            return self._solve[key]
        s = self.s
        dist = {}
        es = F(0)
        eh = F(0)
        self_p = F(0)
        wreck = bool(flags & FB["kill"])  # stop_on = never: destroyed by an earlier shot
        for (kind, hits, f, outc, rof_kept, gone, la_new), p in self.shot(acq, ammo, la, is_if, conc).items():
            if wreck and kind == "fired":
                # A destroyed target's fate is settled: a later shot only hits or misses.
                f &= ~outcome_flags(outc)
                outc = "no_effect" if f & FB["hit"] else "miss"
            nf = flags | f
            nla = la or la_new
            nammo = self.next_ammo(ammo, gone)
            if kind == "absent":
                if nammo is None:
                    dist[(nf, "no_shot", "out_of_ammo")] = dist.get((nf, "no_shot", "out_of_ammo"), 0) + p
                    continue
                sub = (n, acq, nammo, nla, is_if, nf, conc)
                d2, s2, h2 = self.solve(*sub)
                for k, v in d2.items():
                    dist[k] = dist.get(k, 0) + p * v
                es += p * s2
                eh += p * h2
                continue
            es += p
            eh += p * hits
            n2 = n + 1
            conc2 = conc and not (f & FB["hit"])          # C6.57 (reading: a hit reveals)
            acq2 = acq if conc2 else min(acq + 1, 2)
            end = None
            destroyed = outc in ("burn", "eliminated")
            effect = outc in ("burn", "eliminated", "immobilized", "shock", "possible_shock")
            if s["stop_on"] in ("destroyed", "effect") and destroyed:
                end = "target_destroyed"
            elif s["stop_on"] == "effect" and effect:
                end = "target_effect"
            elif f & FB["malfunction"]:
                end = "malfunction"
            elif s["max_shots"] is not None and n2 >= s["max_shots"]:
                end = "shot_cap"
            elif is_if:
                end = "intensive_fire_done"
            elif not rof_kept:
                if self.if_ok:
                    if nammo is None:
                        end = "out_of_ammo"
                    else:
                        nxt = (n2, acq2, nammo, nla, True, nf, conc2)
                else:
                    end = "rof_exhausted"
            else:
                if nammo is None:
                    end = "out_of_ammo"
                else:
                    nxt = (n2, acq2, nammo, nla, False, nf, conc2)
            if end is not None:
                k = (nf, outc, end)
                dist[k] = dist.get(k, 0) + p
                continue
            if s["max_shots"] is None:
                nxt = (0,) + nxt[1:]
            if nxt == key:
                self_p += p
                continue
            d2, s2, h2 = self.solve(*nxt)
            for k, v in d2.items():
                dist[k] = dist.get(k, 0) + p * v
            es += p * s2
            eh += p * h2
        if self_p:
            norm = 1 / (1 - self_p)
            dist = {k: v * norm for k, v in dist.items()}
            es *= norm
            eh *= norm
        r = (dist, es, eh)
        self._solve[key] = r
        return r

    def first(self, acq, ammo, la):
        """The first shot actually fired (re-rolls for absent special ammo included)."""
        dist = {}
        es = F(0)
        eh = F(0)
        conc = self.s["concealed"]
        for (kind, hits, f, outc, rof_kept, gone, la_new), p in self.shot(acq, ammo, la, False, conc).items():
            if kind == "absent":
                nammo = self.next_ammo(ammo, gone)
                if nammo is None:
                    dist[(f, "no_shot")] = dist.get((f, "no_shot"), 0) + p
                    continue
                d2, s2, h2 = self.first(acq, nammo, la or la_new)
                for (f2, o2), v in d2.items():
                    dist[(f | f2, o2)] = dist.get((f | f2, o2), 0) + p * v
                es += p * s2
                eh += p * h2
                continue
            dist[(f, outc)] = dist.get((f, outc), 0) + p
            es += p
            eh += p * hits
        return dist, es, eh

    def results(self):
        s = self.s
        la0 = s["la_marked"]
        start_ammo = s["ammo"]
        acq0 = s["acq0"]
        out = {}
        d1, s1, h1 = self.first(acq0, start_ammo, la0)
        fs = {}
        for fl in FLAGS:
            fs["p_" + fl] = sum((v for (f, o), v in d1.items() if f & FB[fl]), F(0))
        fs["e_shots"] = s1
        fs["e_hits"] = h1
        for o in OUTCOMES:
            fs["outcome_" + o] = sum((v for (f, oo), v in d1.items() if oo == o), F(0))
        out["first_shot"] = fs
        d, es, eh = self.solve(0, acq0, start_ammo, la0, False, 0, s["concealed"])
        ph = {}
        for fl in FLAGS:
            ph["p_" + fl] = sum((v for (f, o, e), v in d.items() if f & FB[fl]), F(0))
        ph["e_shots"] = es
        ph["e_hits"] = eh
        for o in OUTCOMES:
            ph["outcome_" + o] = sum((v for (f, oo, e), v in d.items() if oo == o), F(0))
        for e in ENDS:
            ph["end_" + e] = sum((v for (f, oo, ee), v in d.items() if ee == e), F(0))
        out["phase"] = ph
        return out


def model(sit):
    return Model(sit).results()


# ---------------------------------------------------------------- generator
SECTIONS = ("firer", "target", "fire", "override")


def gen(rng, stress=False):
    """A random situation over the keys the model supports. stress: weight the gun-state
    edge cases (low B#, circled B#, X#, low Depletion #, Intensive Fire, captured, HD, 15-40mm)."""
    fi, ta, fr, ov = {}, {}, {}, {}
    nat = rng.choice(["german", "german", "russian", "american", "british"])
    fi["nationality"] = nat
    fi["year"] = rng.choice([1942, 1943, 1944, 1944, 1945])
    fi["month"] = rng.randint(1, 12)
    guns = list(GUNS)
    if stress:
        guns += ["20L", "28LL", "37", "37L", "40L", "40LL"] * 2
    gun = rng.choice(guns)
    if gun in ("28LL", "40LL"):
        nat = fi["nationality"] = "german"        # the APCR-always guns are German (C4.3)
    fi["gun"] = gun
    ammos = [a for a in ("AP", "APCR", "APDS", "HEAT") if a in GUNS[gun]] + ["HE"]
    ammo = rng.choice(ammos + [a for a in ammos if a not in ("AP", "HE")] * 2)
    if ammo == "HEAT":
        start = {"german": (1942, 5)}.get(nat, (1943, 1))
        if (fi["year"], fi["month"]) < start:
            fi["year"], fi["month"] = start
    fi["ammo"] = ammo
    fi["rof"] = rng.choice([0, 1, 1, 2, 3] + ([3, 3] if stress else []))
    if rng.random() < (0.8 if stress else 0.5):
        fi["breakdown"] = rng.choice([2, 4, 5, 6, 7, 8, 9, 10, 11, 12] if stress else [6, 7, 8, 9, 10, 11, 12])
    if rng.random() < (0.3 if stress else 0.15):
        fi["x_number"] = rng.randint(fi.get("breakdown", 12), 12)
    vehicle = rng.random() < 0.85
    if not vehicle:
        fi["vehicle"] = False
    elif rng.random() < (0.6 if stress else 0.3):
        fi["low_ammo"] = True
        if rng.random() < 0.3:
            fi["low_ammo_marked"] = True
    if special(ammo):
        if rng.random() < 0.75 or ammo == "HEAT" or chart_depletion(nat, gun, fi["year"], fi["month"]) is None:
            fi["depletion"] = rng.randint(2, 12) if not stress else rng.choice([2, 3, 4, 5, 6, 7, 8, 10, 11, 12])
        if rng.random() < 0.25:
            fi["elite"] = True
        fi["fallback_ammo"] = rng.choice(["AP", "HE", "none"])
    if rng.random() < (0.3 if stress else 0.15):
        fi["captured"] = True
    if not vehicle and rng.random() < 0.4:
        fi["non_qualified"] = True                 # salvo refuses non_qualified on a vehicle
    afs = [0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26]
    if rng.random() < 0.07:
        ta["armor"] = "unarmored"
    else:
        arm = {}
        for k in ("hull_front", "hull_side", "turret_front", "turret_side"):
            arm[k] = rng.choice(afs[1:10] if stress else afs[2:10]) if rng.random() > 0.05 else "unarmored"
        ta["armor"] = arm
        if rng.random() < 0.3:
            ta["turret_armor"] = rng.choice(["superior", "inferior"])
    ta["facing"] = rng.choice(["front", "side", "rear"])
    if rng.random() < 0.3:
        ta["size"] = rng.choice(["very_large", "large", "small", "very_small", -2, -1, 1, 2])
    if rng.random() < (0.4 if stress else 0.25):
        ta["hull_down"] = True
    fr["range"] = rng.choice([1, 2, 3, 5, 6, 8, 12, 13, 18, 20, 24, 26, 30, 33, 38, 45, 50, 56]
                             + ([60, 61, 66, 72, 80, 120] if stress else []))
    fr["phase"] = rng.choice(["prep", "prep", "defensive", "final", "advancing"])
    if vehicle and rng.random() < 0.5:
        fr["buttoned_up"] = True
    fr["acquisition"] = rng.choice([0, 0, 1, 2])
    if rng.random() < 0.4:
        fr["extra_drm"] = rng.randint(-10, 10) if stress else rng.randint(-4, 6)
    if rng.random() < 0.25:
        fr["max_shots"] = rng.randint(1, 4)
    if fr["phase"] != "advancing" and rng.random() < (0.7 if stress else 0.45):
        fr["intensive_fire"] = True
    elif rng.random() < 0.1:
        fi["no_intensive_fire"] = True
    fr["stop_on"] = rng.choice(["destroyed", "effect", "never"])
    if rng.random() < 0.12:
        fr["same_hex"] = True
        fr["range"] = 0
    if rng.random() < 0.12:
        ta["concealed"] = True
        fr["acquisition"] = 0
    if rng.random() < 0.08 and not fr.get("intensive_fire"):
        fr["pinned"] = True
    if rng.random() < 0.15:
        ta["red_cs"] = True
    if rng.random() < 0.1:
        fi["th_color"] = rng.choice(["red", "black"])
    if rng.random() < 0.05:
        ov["modified_th"] = rng.randint(2, 12)
    if rng.random() < 0.05 and ammo != "HE":
        ov["basic_tk"] = rng.randint(5, 30)
    return {"firer": fi, "target": ta, "fire": fr, "override": ov}


# ---------------------------------------------------------------- differential test
def main(argv=None):
    ap = harness.arguments(__doc__, count=200)
    ap.add_argument("--stress", action="store_true", help="weight the gun-state edge cases")
    ap.add_argument("--captured-rof-lowered", action="store_true",
                    help="no-op, kept for compatibility (the A21.12 ROF reduction always applies)")
    a = harness.parse(ap, argv)
    h = harness.Run(a, notes=["stress" if a.stress else ""], counts=())
    rng = random.Random(a.seed)

    def cases():
        for i in range(a.count):
            sit = gen(rng, a.stress)
            name = "ammo %d-%d" % (a.seed, i)
            text = harness.toml_text(sit, SECTIONS, head=[("ruleset", "asl"), ("name", name)],
                                     skip_empty=True)
            yield "ammo_%d_%04d.toml" % (a.seed, i), text, sit

    def check(path, sit):
        values, stop = h.values(path, refusals=False)   # a refusal is a disagreement here
        return stop or h.compare(model(sit), values)

    return h.run(cases(), check)


if __name__ == "__main__":
    sys.exit(main())
