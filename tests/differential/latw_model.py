#!/usr/bin/env python3
"""Differential test: ASL Light Anti-Tank Weapon (LATW) fire at a vehicle - Bazooka,
Panzerschreck, PIAT, Panzerfaust (PF, PFk) and Anti-Tank Rifle (ATR).

An independent exact model of one fire phase (fire.turns = 1) of a LATW against ONE vehicle,
written from the ASL rule texts (C13.1-.9, C3.3-C3.9, C5.34, C5.4, C5.7-.72, C5.8, C6.1-.3,
C6.7-.9, C7.1-C7.7, A.11, A4.51, A7.531, A9.7, A19.32, A21.11-.12, D3.2, D4.2) and from the
situation format and the readings salvo states for it (docs/latw.md, docs/asl.md, docs/cli.md),
not from salvo's source code.  fractions.Fraction throughout; every PF Check dr, ordered
(colored, white) To Hit DR, subsequent dr and To Kill DR is enumerated.

What it models:

* The Panzerfaust's PF Check (C13.31) before a PF/PFk shot: a Final dr <= 3 (Finns <= 2, A25.76)
  gives the shot; an Original 6 pins the firer (p_firer_pinned); drm +1 Aug-Sep 1943, -1 1945
  (not for Finns), +1 vs a non-AFV, +1 CX, +1 half-squad/crew, +2 SMC; no leadership.
* The To Hit DR (C13.1, C3.3): Basic TH# by range - the counter's table (firer.to_hit) for the
  Bazooka, Panzerschreck and PIAT (C13.42, C13.48, C13.6), 10 - 2/hex for the PF/PFk (C13.33),
  the C3 Vehicle row for the ATR, black (red if captured; C13.2, C5.8) - and the "L" DRM: Case C3
  +2 in the AFPh without Opportunity Fire and +2 for a backblast weapon from ground-level
  rubble/building (C5.34, C13.8), Case D pinned +2, Case G +5 (C5.7), Case H captured +2 (C5.8),
  CX +1 (A4.51), the directing leader (A7.531), Case J/J1/J2 (C6.1-.12, one MP more per further
  shot, C6.17), Case K +2 until a hit (C6.2), Case L for the ATR only (C6.3), Cases P, Q, R and
  extra_drm.
* Hits: Critical Hit on an Original 2 with the C3.7 "only the lowest Final DR hits" exception,
  Improbable Hits (C3.6), hit location by the colored dr (C3.9), hull down (D4.2), Target Facing
  from the colored dr in the same hex (D3.2); no Multiple Hits (C3.8), no Acquisition (C6.5).
* To Kill (C7.1, C7.2, C7.33, C7.31): HEAT Basic TK# by weapon and date, no Case D; ATR AP 5/6
  with Case D's "<= 25mm" row (C13.22); rear +1 (C7.21); CH doubles (C7.23); unarmored HEAT 11/22,
  ATR 7/14 (C7.331, C7.311); superior/inferior turret armor (D1.62-.63); Dud on an Original 12
  (C7.35); burn/eliminated/immobilized/shock/possible Shock (C7.4-.7); red CS# -1 on the burn
  check (C7.7 note A).  Deliberate Immobilization (C5.72): no To Kill DR, a hull hit immobilizes.
* Breakdown on the Original TH DR (A9.7, the shot still resolved): Bazooka/Panzerschreck removed
  at X# (C13.47), PIAT B10 (C13.63), ATR B# (C13.26) or printed X#; Inexperienced -1 (A19.32),
  captured -2 (A21.11), the original B# then an X# (A.11).  The PF's Original 12 (11-12
  Inexperienced) is a miss and Casualty Reduction for the firer (C13.36).
* The ATR's Multiple ROF (C2.24: colored dr <= ROF; captured -1, A21.12; lost when pinned, C5.4,
  and in the AFPh without Opportunity Fire, C5.2), fire.max_shots, fire.stop_on: an absorbing
  chain over (shots fired, concealment, events so far, wreck).

The quantities: for the first shot and the phase, p_hit, p_critical, p_kill, p_burn,
p_eliminated, p_immobilized, p_shock, p_possible_shock, p_dud, p_malfunction, p_disabled,
p_firer_pinned, p_firer_broken (the PF Check's Original 6 by a pinned firer), p_firer_casualty,
e_shots, e_hits, outcome_*, and (phase) end_*.  Points of
interpretation are marked READING in comments: "READING (doc)" where docs/latw.md or docs/asl.md
states the reading, "READING (model)" where the docs are silent and the model decides from the
rules (the model's report lists these).

Usage:
    python3 latw_model.py SALVO [--count N] [--seed S] [--keep DIR] [--show K] [-v]
                                [--show-refusals]
    python3 latw_model.py --self-test     (no salvo needed: the hand-derived cases, the To
                                           Kill table checks and a brute force of capped ATR
                                           phases)

Writes N random situations (default 400, seed 1) as TOML files, runs `SALVO odds FILE --format
json` on each and compares every modelled quantity (first_shot and phase) to 1e-9; a quantity
only one side reports must be 0 on the other.  The model predicts the refusals the situation
format implies; about 8% of the situations are written to be refused on purpose and count as
"refused as predicted" when salvo refuses them.  A predicted refusal salvo accepts, and a
refusal the model does not predict, are disagreements.  The hand-derived self-test values
also run before every comparison run.  `--count 400` takes about 10 s on 2 cores.  Exit 0 when all agree, 1 on any disagreement (or a failed
self-test), 2 on usage errors.

The glue - command line, running salvo, comparing to 1e-9, the report - is harness.py's,
shared by the models; this file holds only its reading of the rules and its generator.
"""
import random
import sys
from fractions import Fraction as F

import harness

DICE = [(c, w) for c in range(1, 7) for w in range(1, 7)]   # (colored, white), 1/36 each
P36 = F(1, 36)
P6 = F(1, 6)
SUM2 = {}                                                    # a To Kill DR: 2d6 by its sum
for _c, _w in DICE:
    SUM2[_c + _w] = SUM2.get(_c + _w, 0) + P36

# ---------------------------------------------------------------- the weapons
OWN_TABLE = ("bazooka", "panzerschreck", "piat")             # the counter's To Hit table
PF_KIND = ("panzerfaust", "pfk")
BACKBLAST = ("bazooka", "panzerschreck", "panzerfaust", "pfk")   # C13.8 (not the PIAT, C13.6)
HEAT_TK = {"panzerschreck": 26, "piat": 15, "panzerfaust": 31, "pfk": 22}   # C7.33, C13.34
ATR_TK6 = ("russian", "finnish", "japanese", "italian")      # READING (doc): docs/latw.md's list
ATR_MAX_RANGE = 12                                           # C13.22

# First month each weapon exists: READING (doc) "Bazookas exist from November 1942, the PIAT
# from April 1943, the Panzerschreck from September 1943, the PF from October 1943 (Germans),
# the PFk from August 1943 ..., Finnish PF from July 1944."
AVAILABLE = {"bazooka": (1942, 11), "piat": (1943, 4), "panzerschreck": (1943, 9),
             "pfk": (1943, 8)}
PF_AVAILABLE = {"german": (1943, 10), "finnish": (1944, 7)}

SIZE = {"very_large": -2, "large": -1, "average": 0, "small": 1, "very_small": 2}
AF_SCALE = [0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26]
ASPECTS = ("hull_front", "hull_side", "turret_front", "turret_side")

FLAGS = ["hit", "critical", "kill", "burn", "eliminated", "immobilized", "shock",
         "possible_shock", "dud", "malfunction", "disabled", "firer_pinned", "firer_broken",
         "firer_casualty"]
FB = {f: 1 << i for i, f in enumerate(FLAGS)}
OUTCOMES = ["no_shot", "miss", "dud", "no_effect", "possible_shock", "immobilized", "shock",
            "eliminated", "burn"]
ENDS = ["rof_exhausted", "malfunction", "target_destroyed", "target_effect", "shot_cap",
        "pf_check_failed"]
EFFECT = ("burn", "eliminated", "immobilized", "shock", "possible_shock")
OUTCOME_BITS = (FB["kill"] | FB["burn"] | FB["eliminated"] | FB["immobilized"] | FB["shock"]
                | FB["possible_shock"] | FB["dud"])


def outcome_flags(o):
    if o in ("burn", "eliminated"):
        return FB["kill"] | FB[o]
    if o in ("immobilized", "shock", "possible_shock", "dud"):
        return FB[o]
    return 0


def date_of(f):
    return (f.get("year", 1944), f.get("month", 6))          # docs/asl.md defaults 1944, 6


def pf_max_range(f):
    """C13.32: PF one hex before June 1944, two June-December 1944, three from 1945; a PFk
    always one; Finnish PF always one (A25.76)."""
    if f["weapon"] == "pfk" or f.get("nationality", "german") == "finnish":
        return 1
    y, m = date_of(f)
    if y >= 1945:
        return 3
    if (y, m) >= (1944, 6):
        return 2
    return 1


def max_range(f):
    w = f["weapon"]
    if w in OWN_TABLE:
        return len(f["to_hit"]) - 1                          # docs/latw.md: its length
    if w in PF_KIND:
        return pf_max_range(f)
    return ATR_MAX_RANGE


def basic_tk(f):
    w = f["weapon"]
    if w == "bazooka":
        # READING (doc): the latest model of its date (C13.4): BAZ 43 13, BAZ 44+ 16 (C13.43)
        return 13 if date_of(f)[0] < 1944 else 16
    if w == "atr":
        return 6 if f.get("nationality", "german") in ATR_TK6 else 5   # C7.31
    return HEAT_TK[w]


def atr_case_d(r):
    """C7.24 Case D, the "<= 25mm" row (C13.22): 0-1 +2, 2 +1, 3-6 +1, 7-12 0."""
    if r <= 1:
        return 2
    if r <= 6:
        return 1
    return 0


def all_unarmored(t):
    a = t.get("armor", {})
    if a == "unarmored":
        return True
    return all(a.get(k, 8) == "unarmored" for k in ASPECTS)


def armor_of(t):
    a = t.get("armor", {})
    if a == "unarmored":
        return {k: "unarmored" for k in ASPECTS}
    return {k: a.get(k, 8) for k in ASPECTS}                 # docs/asl.md: all 8 by default


def turret_af(af, kind):
    """D1.62-.63: superior turret armor one step up the AF scale, inferior one step down."""
    if af == "unarmored" or kind == "normal":
        return af
    i = AF_SCALE.index(af)
    if kind == "superior":
        return AF_SCALE[min(i + 1, len(AF_SCALE) - 1)]
    return AF_SCALE[max(i - 1, 0)]


# ---------------------------------------------------------------- refusals
UNUSED_KEYS = {("firer", "gun"): "75", ("firer", "ammo"): "HEAT", ("fire", "acquisition"): 1,
               ("fire", "intensive_fire"): True, ("fire", "ca_change"): 1,
               ("fire", "buttoned_up"): True, ("fire", "motion"): True}


def refusal(sit):
    """Why the situation format says salvo must refuse this situation (exit 2), or None.
    Only what docs/latw.md and docs/asl.md say or imply."""
    f, t, x = sit["firer"], sit["target"], sit["fire"]
    w = f["weapon"]
    for (sec, key) in UNUSED_KEYS:
        if key in sit[sec]:
            return "%s.%s: a key a LATW does not use" % (sec, key)
    if x.get("phase", "prep") not in ("prep", "defensive", "final", "advancing"):
        return "fire.phase %s: not a LATW phase" % x["phase"]
    if w in OWN_TABLE and "to_hit" not in f:
        return "firer.to_hit required for the %s" % w
    if w in ("bazooka", "panzerschreck") and "x_number" not in f:
        return "firer.x_number required for the %s" % w
    if w not in OWN_TABLE and "to_hit" in f:
        return "firer.to_hit is for the Bazooka, Panzerschreck and PIAT"
    if w in ("piat", "panzerfaust", "pfk") and "x_number" in f:
        return "firer.x_number is not for the %s" % w
    if w != "atr" and ("breakdown" in f or "rof" in f):
        return "firer.breakdown / firer.rof are the ATR's"
    if w not in PF_KIND and "personnel" in f:
        return "firer.personnel is the Panzerfaust's"
    if w in PF_KIND and x.get("turns", 1) > 1:
        return "a Panzerfaust fires one shot: fire.turns refused"
    # The refusals docs/latw.md lists ("So are: ...").
    repeats = w == "atr" and f.get("rof", 0) > 0         # only an ATR with ROF fires again
    if "max_shots" in x and not repeats:
        return "one shot a phase: fire.max_shots refused"
    if x.get("stop_on") == "never" and not repeats:
        return "one shot a phase: stop_on = never changes nothing"
    if w in PF_KIND and f.get("personnel") == "smc" and "leader" in f:
        return "a SMC firing the PF himself directs no fire (A9.12, C13.35)"
    if f.get("inexperienced") and f.get("personnel") in ("smc", "crew"):
        return "SMC and crews are never Green or Conscript (A19.2)"
    if f.get("cx") and x.get("opportunity"):
        return "an Opportunity Firer loses its CX counter (A4.51)"
    if w in PF_KIND and f.get("nationality") == "finnish" and f.get("personnel") == "smc":
        return "Finnish PF only by Elite/1st-Line MMC (A25.76)"
    if w == "panzerschreck" and f.get("nationality") == "finnish" and date_of(f) < (1944, 7):
        return "Finnish PSK only from 7/44 (A25.77)"
    terrain = x.get("firer_terrain", "open")
    if w in BACKBLAST and terrain not in ("open", "building", "rubble"):
        return "only rubble or a building adds a backblast"
    if (w in BACKBLAST and terrain in ("building", "rubble") and x.get("pinned")
            and not x.get("opportunity")):
        return "a pinned backblast firer in rubble/building: Desperation only (C13.8, C13.81)"
    nat = f.get("nationality", "german")
    if w == "panzerfaust":
        if nat not in PF_AVAILABLE:
            return "no Panzerfaust for %s" % nat
        if date_of(f) < PF_AVAILABLE[nat]:
            return "Panzerfaust before %s/%s" % PF_AVAILABLE[nat][::-1]
    elif w in AVAILABLE and date_of(f) < AVAILABLE[w]:
        return "%s before %s/%s" % ((w,) + AVAILABLE[w][::-1])
    r = x.get("range", 6)
    if r == 0 and not x.get("same_hex", False):
        return "range 0 only with same_hex (docs/asl.md)"
    if r > max_range(f):
        return "range %d beyond the %s's %d" % (r, w, max_range(f))
    if t.get("hull_down") and t.get("tem", 0) != 0:
        return "a hull-down target cannot also claim TEM (D4.2)"
    if x.get("deliberate_immobilization"):
        if r > 6:
            return "Deliberate Immobilization beyond 6 hexes (C5.7)"
        if t.get("hull_down"):
            return "Deliberate Immobilization vs a hull-down target (C5.71)"
        arm = armor_of(t)
        hull = [arm["hull_front"], arm["hull_side"]]
        if "unarmored" not in hull and basic_tk(f) <= min(hull):
            return "Deliberate Immobilization: Basic TK# not > the lowest hull AF (C5.7)"
    return None


# ---------------------------------------------------------------- the model
class Model:
    def __init__(self, sit):
        f, t, x = sit["firer"], sit["target"], sit["fire"]
        self.f, self.t, self.x = f, t, x
        self.w = f["weapon"]
        self.nat = f.get("nationality", "german")
        self.inexp = bool(f.get("inexperienced", False))
        self.captured = bool(f.get("captured", False))
        self.cx = bool(f.get("cx", False))
        self.leader = f.get("leader", 0)
        self.range = x.get("range", 6)
        self.same_hex = bool(x.get("same_hex", False))
        self.phase = x.get("phase", "prep")
        self.opp = bool(x.get("opportunity", False))
        self.pinned = bool(x.get("pinned", False))
        self.di = bool(x.get("deliberate_immobilization", False))
        self.cap = x.get("max_shots")
        self.stop_on = x.get("stop_on", "destroyed")
        self.armor = armor_of(t)
        self.turret_kind = t.get("turret_armor", "normal")
        self.facing = t.get("facing", "front")
        self.hd = bool(t.get("hull_down", False))
        self.moving = bool(t.get("moving", False))
        self.mp = t.get("mp_in_los")
        self.conc0 = bool(t.get("concealed", False))
        self.red_cs = bool(t.get("red_cs", False))
        self.basic_tk = basic_tk(f)
        self.M = self.modified_th()
        self.B, self.X = self.breakdown()
        self.rof = self.rate_of_fire()
        # the shot index beyond which nothing changes (Case J1/J2 spent, C6.17)
        self.kmax = 0
        if self.moving and self.phase == "defensive" and self.mp is not None:
            while self.mp + self.kmax <= 3:
                self.kmax += 1
        self._shot = {}
        self._solve = {}

    # -- To Hit
    def modified_th(self):
        r = self.range
        if self.w in OWN_TABLE:
            return self.f["to_hit"][r]                       # C13.42: the counter's table
        if self.w in PF_KIND:
            return 10 - 2 * r                                # C13.33
        # ATR: C3 Vehicle Target Type, black whatever the nationality, red if captured
        # (C13.2, C5.8); no C4 modification within 12 hexes (C4.1-.3)
        if self.captured:
            return 10 if r <= 6 else 8
        return 10 if r <= 6 else 9

    def drm(self, k, conc):
        """The To Hit DRM of shot k (0-based) with the target concealed or not."""
        d = 0
        if self.phase == "advancing" and not self.opp:
            d += 2                                           # C5.34 Case C3: AFPh
        if (self.w in BACKBLAST and self.x.get("firer_terrain") in ("building", "rubble")
                and not self.opp):
            # C5.34 / C13.8: a backblast weapon from ground-level rubble or a building's ground
            # floor, unless Opportunity Fire.  READING (model): Opportunity Fire waives this
            # half of C3 too (C5.34 "unless ... or is using Opportunity Fire"; docs/latw.md's
            # "fire.opportunity: no Case C3").
            d += 2
        if self.pinned:
            d += 2                                           # C5.4 Case D
        if self.di:
            d += 5                                           # C5.7 Case G
        if self.captured:
            d += 2                                           # C5.8 Case H
        if self.cx:
            d += 1                                           # A4.51
        d += self.leader                                     # A7.531, C13.35, C13.44
        if self.moving:
            if self.phase == "defensive" and self.mp is not None:
                m = self.mp + k                              # C6.17 EX: J2, J1, J1, J, J
                d += 4 if m <= 1 else 3 if m <= 3 else 2     # C6.11-.12
            else:
                d += 2                                       # C6.1 Case J (C6.16 in the DFPh)
        if conc:
            d += 2                                           # C6.2 Case K
        if self.w == "atr" and not self.same_hex and not self.moving:
            # C6.3 Case L: ordnance "[EXC: non-ATR LATW using its own TH table]"; not in the
            # firer's hex, not vs a Motion/Non-Stopped vehicle (READING (doc): target.moving).
            # READING (doc): the PF uses its own C13.33 numbers, so no Case L for it.
            d += {1: -2, 2: -1}.get(self.range, 0)
        size = self.t.get("size", "average")
        d += SIZE.get(size, size)                            # C6.7 Case P
        d += self.t.get("tem", 0)                            # C6.8 Case Q
        d += self.t.get("hindrance", 0)                      # C6.9 Case R
        d += self.x.get("extra_drm", 0)
        return d

    def breakdown(self):
        """(B#, X#): malfunction on an Original TH DR >= B#, removed/disabled >= X# (None:
        never).  A19.32 Inexperienced -1, A21.11 captured -2, cumulative (A.11); A.11: with a
        reduction the original B# becomes an X#."""
        red = (1 if self.inexp else 0) + (2 if self.captured else 0)
        w, f = self.w, self.f
        if w in PF_KIND:
            return None, None                                # C13.36: no Breakdown
        if w in ("bazooka", "panzerschreck"):
            x = f["x_number"] - red                          # C13.47 (A19.32: "even ... X#")
            return x, x
        if w == "piat":
            return 10 - red, (10 if red else None)           # C13.63 B10
        if "x_number" in f and "breakdown" not in f:
            x = f["x_number"] - red                          # a printed X#: malfunction = removal
            return x, x
        b = f.get("breakdown", 12)                           # A9.7 inherent B12
        x = f.get("x_number")
        if red:
            x = b if x is None else min(x - red, b)
        return b - red, x

    def rate_of_fire(self):
        if self.w != "atr":
            return 0                                         # docs/latw.md: once a phase
        r = self.f.get("rof", 0)
        if self.captured:
            r -= 1                                           # A21.12
        if self.pinned or (self.phase == "advancing" and not self.opp):
            r = 0                                            # C5.4; C5.2 (no AFPh ROF)
        return max(r, 0)

    # -- To Kill
    def tk(self, aspect, ch, facing):
        """{outcome: p} for a hit on aspect ("hull"/"turret")."""
        if self.di:
            # C5.72: no To Kill DR; a hull hit immobilizes; HH: a turret hit does nothing
            return {"immobilized": F(1)} if aspect == "hull" else {"no_effect": F(1)}
        side = "front" if facing == "front" else "side"      # the rear uses the side AF
        af = self.armor[aspect + "_" + side]
        if aspect == "turret":
            af = turret_af(af, self.turret_kind)
        if af == "unarmored":
            # C7.331 HEAT: Final TK# 11 (22 CH); C7.311 ATR: 7, "Double if Critical Hit";
            # no Case A/D vs an unarmored target (C7.21, C7.24)
            t = (7 if self.w == "atr" else 11) * (2 if ch else 1)
            armored = False
        else:
            b = self.basic_tk * (2 if ch else 1)             # C7.23 Case C, first
            if facing == "rear":
                b += 1                                       # C7.21 Case A
            if self.w == "atr":
                b += atr_case_d(self.range)                  # C13.22 (HEAT: none, C7.332)
            t = b - af
            armored = True
        out = {}
        for o, p in SUM2.items():
            if o == 12:
                r = "dud"                                    # C7.35 (precedence, C7.7)
            elif o < t:
                # C7.6 burning wreck <= half the Final TK#; C7.7 note A: red CS# -1 on that
                # check.  READING (model): the note is the AFV Destruction Table's, so an
                # unarmored aspect (Unarmored Vehicle Destruction Table) does not take it.
                ob = o - 1 if (self.red_cs and armored) else o
                r = "burn" if 2 * ob <= t else "eliminated"
            elif o == t:
                r = ("immobilized" if aspect == "hull" else "shock") if armored else "immobilized"
            elif o == t + 1 and armored:
                r = "possible_shock"                         # C7.41, HEAT/AP = non-HE (C7.7)
            else:
                r = "no_effect"
            out[r] = out.get(r, 0) + p
        return out

    # -- one shot
    def shot(self, k, conc):
        """One To Hit DR and what follows -> [(p, flags, outcome, hits, keeps ROF, malfunction)]."""
        key = (k, conc)
        if key in self._shot:
            return self._shot[key]
        M, D = self.M, self.drm(k, conc)
        acc = {}

        def add(p, flags, outcome, hits, keep, malf):
            kk = (flags, outcome, hits, keep, malf)
            acc[kk] = acc.get(kk, 0) + p

        for c, w in DICE:
            o = c + w
            facing = ({1: "rear", 2: "rear", 3: "side", 4: "side", 5: "front", 6: "front"}[c]
                      if self.same_hex else self.facing)     # D3.2 (READING (doc): no Case E)
            flags = 0
            malf = self.B is not None and o >= self.B        # A9.7
            if malf:
                flags |= FB["malfunction"]
                if self.X is not None and o >= self.X:
                    flags |= FB["disabled"]
            keep = c <= self.rof and not malf                # C2.24
            forced_miss = False
            if self.w in PF_KIND and o >= (11 if self.inexp else 12):
                flags |= FB["firer_casualty"]                # C13.36: a miss and Casualty
                forced_miss = True                           # Reduction of the firer
            # hit determination: [(p, kind, improbable)], kind "ch"/"turret"/"hull"/"normal"
            if forced_miss:
                hits = []
            elif 2 + D > M:                                  # C3.6 Improbable Hit
                if o == 2:
                    # READING (model): under Deliberate Immobilization (no CH, C3.7 EXC) the
                    # subsequent dr 1 is a hull hit.
                    hits = [(P6, "hull" if self.di else "ch", True), (P6, "turret", True),
                            (P6, "hull", True)]
                else:
                    hits = []
            elif 2 + D == M:                                 # C3.7 EXC: only the lowest hits
                if o == 2 and self.di:
                    hits = [(F(1), "normal", False)]         # no CH on DI (C3.7, C5.72)
                elif o == 2:
                    # dr 1 CH; 2-6 a normal hull hit (a normal turret hit vs a HD vehicle)
                    hits = [(P6, "ch", False), (5 * P6, "turret" if self.hd else "hull", False)]
                else:
                    hits = []
            elif o + D <= M:                                 # C3.3
                hits = [(F(1), "ch" if (o == 2 and not self.di) else "normal", False)]
            else:
                hits = []
            p_hit_total = sum((h[0] for h in hits), F(0))
            if p_hit_total < 1:
                add(P36 * (1 - p_hit_total), flags, "miss", 0, keep, malf)
            for ph, kind, improbable in hits:
                ch = kind == "ch"
                if ch:
                    aspect = "turret" if self.hd else "hull"     # C3.9 EXC: CH vs HD: turret
                elif kind in ("turret", "hull"):
                    aspect = kind
                else:
                    aspect = "turret" if c < w else "hull"       # C3.9
                if self.hd and aspect == "hull":
                    add(P36 * ph, flags, "miss", 0, keep, malf)  # D4.2: no hit
                    continue
                fl = flags | FB["hit"] | (FB["critical"] if ch else 0)
                for r, pr in self.tk(aspect, ch, facing).items():
                    add(P36 * ph * pr, fl | outcome_flags(r), r, 1, keep, malf)
        res = [(p,) + kk for kk, p in acc.items()]
        self._shot[key] = res
        return res

    # -- the phase
    def end_of(self, outcome, malf, keep, n_fired):
        """Why the phase ends after a shot, or None.  READING (doc): the target's fate first,
        then the malfunction, then the shot cap, then the Rate of Fire."""
        if self.stop_on in ("destroyed", "effect") and outcome in ("burn", "eliminated"):
            return "target_destroyed"
        if self.stop_on == "effect" and outcome in EFFECT:
            return "target_effect"
        if self.di and outcome == "immobilized":
            # READING (doc): "the phase ends at immobilization"; READING (model): as
            # target_effect, whatever stop_on says
            return "target_effect"
        if malf:
            return "malfunction"
        if self.cap is not None and n_fired >= self.cap:
            return "shot_cap"
        if not keep:
            return "rof_exhausted"
        return None

    def solve(self, n, conc, flags, wreck):
        """From the state before a shot (n shots fired, capped at kmax without max_shots):
        -> ({(flags, outcome, end): p}, E[shots], E[hits])."""
        key = (n, conc, flags, wreck)
        if key in self._solve:
            return self._solve[key]
        dist = {}
        es = eh = self_p = F(0)
        for p, f, outc, hits, keep, malf in self.shot(n, conc):
            if wreck:
                # READING (doc): after a kill (stop_on = "never") a shot cannot change the
                # target's fate: its outcome is no_effect or miss, no TK events counted
                f &= ~OUTCOME_BITS
                outc = "no_effect" if hits else "miss"
            nf = flags | f
            es += p
            eh += p * hits
            end = self.end_of(outc, malf, keep, n + 1)
            if end is not None:
                kk = (nf, outc, end)
                dist[kk] = dist.get(kk, 0) + p
                continue
            # READING (doc, docs/asl.md): a hit removes the concealment (Case K)
            conc2 = conc and not hits
            n2 = n + 1 if self.cap is not None else min(n + 1, self.kmax)
            nxt = (n2, conc2, nf, wreck or outc in ("burn", "eliminated"))
            if nxt == key:
                self_p += p
                continue
            d2, s2, h2 = self.solve(*nxt)
            for kk, v in d2.items():
                dist[kk] = dist.get(kk, 0) + p * v
            es += p * s2
            eh += p * h2
        if self_p:
            norm = 1 / (1 - self_p)
            dist = {kk: v * norm for kk, v in dist.items()}
            es *= norm
            eh *= norm
        r = (dist, es, eh)
        self._solve[key] = r
        return r

    def pf_check(self):
        """C13.31 -> (P(shot), P(Original 6: pinned)).  READING (doc): Finns need a Final dr
        <= 2 and take no date drm (A25.76)."""
        if self.w not in PF_KIND:
            return F(1), F(0)
        finn = self.nat == "finnish"
        drm = 0
        y, m = date_of(self.f)
        if not finn:
            if y == 1943 and m in (8, 9):
                drm += 1
            elif y >= 1945:
                drm -= 1
        if all_unarmored(self.t):
            drm += 1                                         # "other than an AFV"
        if self.cx:
            drm += 1
        drm += {"squad": 0, "half_squad": 1, "crew": 1, "smc": 2}[self.f.get("personnel", "squad")]
        need = 2 if finn else 3
        shots = sum(1 for d in range(1, 6) if d + drm <= need)   # an Original 6 never fires
        return F(shots, 6), P6

    def run(self):
        """-> {"first_shot": {...}, "phase": {...}}."""
        p_shot, p_pin = self.pf_check()
        no_shot = 1 - p_shot
        # first shot: the PF Check and the one shot it allows (READING (model): the first-shot
        # window of a PF holds its PF Check, unconditioned, like the phase)
        first = {}
        es1 = eh1 = F(0)
        for p, f, outc, hits, keep, malf in self.shot(0, self.conc0):
            kk = (f, outc)
            first[kk] = first.get(kk, 0) + p_shot * p
            es1 += p_shot * p
            eh1 += p_shot * p * hits
        dist, es, eh = self.solve(0, self.conc0, 0, False)
        phase = {(f, o, e): p_shot * v for (f, o, e), v in dist.items()}
        es *= p_shot
        eh *= p_shot
        if no_shot:
            # the PF Check: an Original 6 (1/6) pins the firer, or breaks it if it is pinned
            # (C13.31); the rest of the failures find no shot.  READING (model): reported as
            # p_firer_broken (salvo's JSON name; docs/latw.md lists only p_firer_pinned, "or
            # broke it if it was pinned") for a pinned firer, p_firer_pinned otherwise.
            pin = FB["firer_broken"] if self.pinned else FB["firer_pinned"]
            for fl, p in ((pin, p_pin), (0, no_shot - p_pin)):
                if p:
                    first[(fl, "no_shot")] = first.get((fl, "no_shot"), 0) + p
                    kk = (fl, "no_shot", "pf_check_failed")
                    phase[kk] = phase.get(kk, 0) + p
        return {"first_shot": self._block(first, es1, eh1, False),
                "phase": self._block(phase, es, eh, True)}

    def _block(self, dist, es, eh, with_end):
        out = {}
        for fl in FLAGS:
            out["p_" + fl] = sum((v for k, v in dist.items() if k[0] & FB[fl]), F(0))
        out["e_shots"] = es
        out["e_hits"] = eh
        for o in OUTCOMES:
            out["outcome_" + o] = sum((v for k, v in dist.items() if k[1] == o), F(0))
        if with_end:
            for e in ENDS:
                out["end_" + e] = sum((v for k, v in dist.items() if k[2] == e), F(0))
        return out


# ---------------------------------------------------------------- generator
NATS_ATR = ["german", "german", "russian", "russian", "british", "american", "finnish",
            "japanese", "italian", "french"]
NATS_TK5 = ["german", "british", "american", "french"]
TABLES = {"baz": [11, 9, 8, 7, 4], "baz45": [11, 10, 9, 8, 6, 4], "psk": [11, 9, 8, 7, 4],
          "piat": [11, 9, 7, 5]}


def random_table(r):
    """A Basic TH# table for a what-if counter: non-increasing, 2 to 6 ranges."""
    n = r.randint(2, 6)
    v = r.randint(8, 12)
    out = []
    for _ in range(n):
        out.append(v)
        v = max(2, v - r.choice([0, 1, 1, 2, 3]))
    return out


def pick_date(r, lo, hi=(1945, 5)):
    """A (year, month) between lo and hi inclusive, weighted to the first months."""
    months = []
    y, m = lo
    while (y, m) <= hi:
        months.append((y, m))
        m += 1
        if m > 12:
            y, m = y + 1, 1
    if r.random() < 0.3:
        return months[min(len(months) - 1, r.randint(0, 2))]
    return r.choice(months)


def gen_situation(r):
    """A random legal situation over the documented keys (refusal() is None for most)."""
    f, t, x = {}, {}, {}
    w = r.choice(["bazooka", "panzerschreck", "piat", "panzerfaust", "panzerfaust", "pfk",
                  "atr", "atr"])
    f["weapon"] = w
    cap = r.random() < 0.13 and w not in PF_KIND                 # a captured weapon
    if w == "bazooka":
        f["nationality"] = "german" if cap else r.choice(["american", "american", "british",
                                                          "french"])
        y, m = pick_date(r, (1942, 11))
        tab = TABLES["baz45"] if y >= 1945 else TABLES["baz"]
        f["to_hit"] = list(tab) if r.random() < 0.8 else random_table(r)
        f["x_number"] = (10 if y < 1944 else 11) if r.random() < 0.8 else r.randint(8, 12)
    elif w == "panzerschreck":
        f["nationality"] = r.choice(["american", "russian", "british"]) if cap else "german"
        y, m = pick_date(r, (1943, 9))
        f["to_hit"] = list(TABLES["psk"]) if r.random() < 0.8 else random_table(r)
        f["x_number"] = 10 if r.random() < 0.8 else r.randint(8, 12)
    elif w == "piat":
        f["nationality"] = "german" if cap else "british"
        y, m = pick_date(r, (1943, 4))
        f["to_hit"] = list(TABLES["piat"]) if r.random() < 0.8 else random_table(r)
    elif w == "panzerfaust":
        if r.random() < 0.2:
            f["nationality"] = "finnish"
            y, m = pick_date(r, (1944, 7))
        else:
            f["nationality"] = "german"
            y, m = pick_date(r, (1943, 10))
    elif w == "pfk":
        f["nationality"] = "german"
        y, m = pick_date(r, (1943, 8), (1945, 5) if r.random() < 0.4 else (1943, 9))
    else:
        # READING (model): a captured ATR takes its TK# from firer.nationality, so captured
        # ATR are generated only where the firer's and (presumably) the weapon's TK# agree (5)
        f["nationality"] = r.choice(NATS_TK5 if cap else NATS_ATR)
        y, m = r.choice(range(1939, 1946)), r.randint(1, 12)
        if r.random() < 0.8:
            f["rof"] = r.choice([0, 1, 1, 1, 2, 3])
        u = r.random()
        if u < 0.3:
            f["breakdown"] = r.choice([9, 10, 11, 11, 12])
        elif u < 0.4:
            f["x_number"] = r.choice([10, 11, 12])
    f["year"], f["month"] = y, m
    if cap:
        f["captured"] = True
    if w in PF_KIND and r.random() < 0.5:
        f["personnel"] = r.choice(["squad", "half_squad", "crew", "smc"])
    if r.random() < 0.2:
        f["inexperienced"] = True
    if r.random() < 0.15:
        f["cx"] = True
    if r.random() < 0.25 and not (w in PF_KIND and f.get("personnel") == "smc"):
        f["leader"] = r.choice([-3, -2, -1, -1, -1, 0, 1])
    # the target
    if r.random() < 0.08:
        t["armor"] = "unarmored"
    else:
        afs = [0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26]
        arm = {}
        for k in ASPECTS:
            arm[k] = r.choice(afs) if r.random() > 0.05 else "unarmored"
        t["armor"] = arm
        if r.random() < 0.2:
            t["turret_armor"] = r.choice(["superior", "inferior"])
    if r.random() < 0.3:
        t["size"] = r.choice(list(SIZE) + [-2, -1, 1, 2])
    phase = r.choice(["prep", "prep", "defensive", "defensive", "final", "advancing"])
    x["phase"] = phase
    if phase == "advancing" and r.random() < 0.4:
        x["opportunity"] = True
    if r.random() < 0.3:
        t["moving"] = True
        if phase == "defensive" and r.random() < 0.75:
            t["mp_in_los"] = r.choice([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 6])
    if r.random() < 0.2:
        t["hull_down"] = True
    elif r.random() < 0.4:
        t["tem"] = r.choice([-1, 1, 1, 2, 3])
    if r.random() < 0.25:
        t["hindrance"] = r.randint(1, 3)
    if r.random() < 0.1:
        t["concealed"] = True
    if r.random() < 0.15:
        t["red_cs"] = True
    # the range
    mr = max_range(f)
    if r.random() < 0.1:
        x["range"] = 0
        x["same_hex"] = True
    else:
        x["range"] = r.choice([1, 1, 2, r.randint(1, mr), mr]) if mr >= 1 else 0
        if x["range"] == 0:
            x["same_hex"] = True
        else:
            t["facing"] = r.choice(["front", "side", "rear"])
    if r.random() < 0.1:
        x["pinned"] = True
    elif w in BACKBLAST and r.random() < 0.25:
        # READING (model): a pinned unit may not fire a backblast weapon from a building
        # without Desperation (C13.8), which salvo does not model: not generated together
        x["firer_terrain"] = r.choice(["building", "rubble"])
    if r.random() < 0.3:
        x["extra_drm"] = r.randint(-3, 5)
    if r.random() < 0.15 and w not in PF_KIND:
        x["max_shots"] = r.randint(1, 4)
    x["stop_on"] = r.choice(["destroyed", "destroyed", "effect"] + (["never"] if w == "atr" else []))
    if (r.random() < 0.08 and x["range"] <= 6 and not t.get("hull_down")
            and t["armor"] != "unarmored"):
        arm = t["armor"]
        if all(arm[k] != "unarmored" for k in ("hull_front", "hull_side")):
            lo = basic_tk(f) - 1
            arm["hull_front"] = min(arm["hull_front"], max(a for a in AF_SCALE if a <= lo))
            x["deliberate_immobilization"] = True
    return {"firer": f, "target": t, "fire": x}


def break_it(sit, r):
    """Make a legal situation one the situation format says salvo refuses."""
    f, t, x = sit["firer"], sit["target"], sit["fire"]
    w = f["weapon"]
    how = r.choice(["far", "far", "early", "early", "unused", "unused", "rof", "personnel",
                    "pf_turns", "no_to_hit", "no_x", "range0", "di", "bounding", "x_piat",
                    "to_hit_atr", "pf_nat", "hd_tem", "never", "pf_cap", "smc_leader"])
    if how == "far":
        x.pop("same_hex", None)
        x["range"] = max_range(f) + r.choice([1, 1, 2])
        t.setdefault("facing", "front")
    elif how == "early":
        if w == "panzerfaust":
            lo = PF_AVAILABLE[f.get("nationality", "german")]
        elif w == "atr":
            sit["firer"] = f = {"weapon": "bazooka", "nationality": "american",
                                "to_hit": [11, 9, 8, 7, 4], "x_number": 10}
            lo = AVAILABLE["bazooka"]
        else:
            lo = AVAILABLE[w]
        y, m = lo
        f["year"], f["month"] = (y, m - 1) if m > 1 else (y - 1, 12)
        x["range"] = min(x.get("range", 1), 1)
    elif how == "unused":
        sec, key = r.choice(list(UNUSED_KEYS))
        sit[sec][key] = UNUSED_KEYS[(sec, key)]
    elif how == "rof":
        if w == "atr":
            f["weapon"] = "piat"
            for k in ("breakdown", "x_number", "personnel"):
                f.pop(k, None)
            f["to_hit"] = [11, 9, 7, 5]
            f["nationality"], f["year"], f["month"] = "british", 1944, 6
            x["range"] = min(x.get("range", 1), 3)
        f["rof"] = 1
    elif how == "personnel":
        if w in PF_KIND:
            f["weapon"] = "atr"
            f.pop("personnel", None)
        f["personnel"] = "half_squad"
    elif how == "pf_turns":
        sit["firer"] = {"weapon": "panzerfaust", "nationality": "german", "year": 1944,
                        "month": 8}
        x["range"] = min(x.get("range", 1), 2)
        x["turns"] = 2
    elif how == "no_to_hit":
        sit["firer"] = {"weapon": r.choice(OWN_TABLE), "nationality": "german", "year": 1944,
                        "month": 6, "x_number": 10, "captured": True}
        if sit["firer"]["weapon"] == "piat":
            del sit["firer"]["x_number"]
    elif how == "no_x":
        f["weapon"] = r.choice(["bazooka", "panzerschreck"])
        f["to_hit"] = [11, 9, 8, 7, 4]
        f["nationality"], f["year"], f["month"] = "german", 1944, 6
        f["captured"] = f["weapon"] == "bazooka"
        for k in ("x_number", "rof", "breakdown", "personnel"):
            f.pop(k, None)
        x["range"] = min(x.get("range", 1), 4)
    elif how == "range0":
        x["range"] = 0
        x.pop("same_hex", None)
    elif how == "di":
        x["deliberate_immobilization"] = True
        if w == "atr" and r.random() < 0.5:
            x["range"] = r.randint(7, 12)
            x.pop("same_hex", None)
            t.setdefault("facing", "front")
            t["hull_down"] = False
        else:
            t.pop("tem", None)
            t["hull_down"] = True
    elif how == "bounding":
        x["phase"] = "bounding"
        x.pop("opportunity", None)
        t.pop("mp_in_los", None)
    elif how == "x_piat":
        f["weapon"] = "piat"
        f["to_hit"] = [11, 9, 7, 5]
        f["nationality"], f["year"], f["month"] = "british", 1944, 6
        for k in ("rof", "breakdown", "personnel", "captured"):
            f.pop(k, None)
        f["x_number"] = 10
        x["range"] = min(x.get("range", 1), 3)
    elif how == "to_hit_atr":
        sit["firer"] = {"weapon": "atr", "nationality": "russian", "year": 1942, "month": 6,
                        "to_hit": [10, 10, 10]}
        x["range"] = min(x.get("range", 1), 2)
    elif how == "pf_nat":
        sit["firer"] = {"weapon": "panzerfaust", "nationality": "american", "year": 1944,
                        "month": 8}
        x["range"] = min(x.get("range", 1), 2)
    elif how == "never":
        if w == "atr":
            sit["firer"] = {"weapon": "pfk", "nationality": "german", "year": 1944, "month": 2}
            x["range"] = min(x.get("range", 1), 1)
            x.pop("max_shots", None)
        x["stop_on"] = "never"
    elif how == "pf_cap":
        sit["firer"] = {"weapon": r.choice(PF_KIND), "nationality": "german", "year": 1944,
                        "month": 2}
        x["range"] = min(x.get("range", 1), 1)
        x["max_shots"] = r.randint(1, 3)
        if x.get("stop_on") == "never":
            x["stop_on"] = "destroyed"
    elif how == "smc_leader":
        sit["firer"] = {"weapon": "panzerfaust", "nationality": "german", "year": 1944,
                        "month": 2, "personnel": "smc", "leader": r.choice([-2, -1, 0])}
        x["range"] = min(x.get("range", 1), 1)
        x.pop("max_shots", None)
        if x.get("stop_on") == "never":
            x["stop_on"] = "destroyed"
    else:
        t["hull_down"] = True
        t["tem"] = r.choice([1, 2])
    return sit


def situation(r):
    """-> (situation, predicted refusal or None): about 8% are meant to be refused."""
    return harness.draw(r, gen_situation, refusal, break_it, 0.08)


# ---------------------------------------------------------------- self-test
def _sit(firer, target=None, fire=None):
    t = {"armor": {"hull_front": 8, "hull_side": 8, "turret_front": 8, "turret_side": 8},
         "facing": "front"}
    t.update(target or {})
    x = {"range": 1, "phase": "prep"}
    x.update(fire or {})
    return {"firer": dict(firer), "target": t, "fire": x}


BAZ44 = {"weapon": "bazooka", "nationality": "american", "year": 1944, "month": 8,
         "to_hit": [11, 9, 8, 7, 4], "x_number": 11}
PF44 = {"weapon": "panzerfaust", "nationality": "german", "year": 1944, "month": 3}
PSK = {"weapon": "panzerschreck", "nationality": "german", "year": 1944, "month": 8,
       "to_hit": [11, 9, 8, 7, 4], "x_number": 10}
PIAT = {"weapon": "piat", "nationality": "british", "year": 1944, "month": 8,
        "to_hit": [11, 9, 7, 5]}
ATR_DE = {"weapon": "atr", "nationality": "german", "year": 1941, "month": 7}
AF26 = {"armor": {k: 26 for k in ASPECTS}}
AF18 = {"armor": {k: 18 for k in ASPECTS}}


def hand_cases():
    """(name, situation, {block: {quantity: expected}}), each worked out by hand below.
    Counts over the 36 ordered (colored, white) DR: P(DR <= n)*36 = 1 3 6 10 15 21 26 30 33
    35 36 for n = 2..12; turret hits (colored < white) among the Original sums 3..8: 1 1 2 2 3 2
    (15 in all, never on doubles)."""
    cases = []

    # T1 (digest 4.2), the PF Check (C13.31).  German squad, 1944, vs an AFV: drm 0, a shot on
    # dr 1-3 (1/2), no shot on 4-5 (1/3), pinned on an Original 6 (1/6).  e_shots is P(shot);
    # the phase ends pf_check_failed with outcome no_shot when there is no shot.
    cases.append(("T1 PF Check squad 1944", _sit(PF44), {"phase": {
        "e_shots": F(1, 2), "end_pf_check_failed": F(1, 2), "outcome_no_shot": F(1, 2),
        "p_firer_pinned": F(1, 6)}, "first_shot": {"p_firer_pinned": F(1, 6),
                                                  "outcome_no_shot": F(1, 2)}}))
    # A pinned squad: the Original 6 breaks it instead (C13.31): p_firer_broken 1/6; the shot
    # (dr 1-3) then has Case D +2.
    cases.append(("T1 PF Check pinned", _sit(PF44, None, {"pinned": True}), {"phase": {
        "e_shots": F(1, 2), "p_firer_pinned": 0, "p_firer_broken": F(1, 6)}}))
    # HS in 1944: +1, shot on dr <= 2: 2/6.
    cases.append(("T1 PF Check HS", _sit(dict(PF44, personnel="half_squad")),
                  {"phase": {"e_shots": F(1, 3), "p_firer_pinned": F(1, 6)}}))
    # SMC in 1945: +2 -1 = +1: a shot on dr <= 2: 2/6.
    cases.append(("T1 PF Check SMC 1945", _sit(dict(PF44, personnel="smc", year=1945, month=2)),
                  {"phase": {"e_shots": F(1, 3)}}))
    # CX squad in 1945: +1 -1 = 0: dr <= 3: 3/6.
    cases.append(("T1 PF Check CX 1945", _sit(dict(PF44, cx=True, year=1945, month=2)),
                  {"phase": {"e_shots": F(1, 2)}}))
    # PFk, August 1943: +1 (Aug-Sep 1943), a squad: dr <= 2: 2/6.
    cases.append(("PFk Aug 1943", _sit({"weapon": "pfk", "nationality": "german", "year": 1943,
                                        "month": 8}), {"phase": {"e_shots": F(1, 3)}}))
    # Finnish PF 1945: Final dr <= 2 and no date drm (A25.76): 2/6, not 3/6.
    cases.append(("Finnish PF 1945", _sit({"weapon": "panzerfaust", "nationality": "finnish",
                                           "year": 1945, "month": 2}),
                  {"phase": {"e_shots": F(1, 3)}}))

    # The brief's PF: at 1 hex, 1944, a squad in the PFPh, at a tank's front (example AF: hull
    # front 8, turret front 11).  PF Check 1/2 (T1).  TH# 10 - 2 = 8, DRM 0: hit on an Original
    # <= 8 (26/36); the lowest Final (2) is below 8, so an Original 2 is a CH (1/36), hull
    # (1,1 is not colored < white; not HD).  Turret hits: colored < white with sum 3..8: 11;
    # normal hull hits 26 - 1 - 11 = 14.  An Original 12 misses and the firer suffers Casualty
    # Reduction (1/36, C13.36).
    # To Kill, HEAT 31 (C13.34), no Case D: hull 31 - 8 = 23 (T3): every DR 2-11 is <= 11.5,
    # a burning wreck (35/36), 12 a Dud; turret 31 - 11 = 20: DR <= 10 burn (33/36), 11
    # eliminated (2/36), 12 Dud; CH hull 62 - 8 = 54: burn 35/36, Dud 1/36.
    # Per shot: burn (14*35 + 1*35 + 11*33)/1296 = 888/1296, eliminated 11*2/1296 = 22/1296,
    # Dud 26/1296.  Phase = 1/2 of it: p_hit 13/36, CH 1/72, burn 444/1296, eliminated
    # 11/1296, kill 455/1296, Dud 13/1296, firer casualty 1/72; outcome_miss 1/2*10/36 = 5/36;
    # end_target_destroyed 455/1296, end_rof_exhausted 1/2 - 455/1296 = 193/1296.
    pf_tank = _sit(PF44, {"armor": {"hull_front": 8, "hull_side": 4, "turret_front": 11,
                                    "turret_side": 6}})
    exp = {"p_hit": F(13, 36), "p_critical": F(1, 72), "p_burn": F(444, 1296),
           "p_eliminated": F(11, 1296), "p_kill": F(455, 1296), "p_dud": F(13, 1296),
           "p_firer_casualty": F(1, 72), "p_firer_pinned": F(1, 6), "p_malfunction": 0,
           "p_disabled": 0, "p_immobilized": 0, "p_shock": 0, "p_possible_shock": 0,
           "e_shots": F(1, 2), "e_hits": F(13, 36), "outcome_miss": F(5, 36),
           "outcome_no_shot": F(1, 2), "outcome_dud": F(13, 1296), "outcome_burn": F(444, 1296),
           "outcome_eliminated": F(11, 1296), "outcome_no_effect": 0}
    cases.append(("PF 1 hex 1944 vs tank front", pf_tank, {
        "first_shot": exp, "phase": dict(exp, end_target_destroyed=F(455, 1296),
                                         end_rof_exhausted=F(193, 1296),
                                         end_pf_check_failed=F(1, 2), end_malfunction=0)}))

    # T2: PF in 1945 at 3 hexes, Defensive First Fire, a tank that spent 4 MP in LOS (plain
    # Case J +2, 4 > 3), Open Ground, size 0.  TH# 4, DRM +2: the lowest Final (4) is the only
    # one that hits, so the C3.7 EXC: an Original 2 (1/36) then a subsequent dr 1 is a CH,
    # 2-6 a normal hull hit.  PF Check 1945, squad: -1, a shot on dr 1-4: 2/3.
    # Hull front AF 18: normal 31 - 18 = 13: DR <= 6 burn (15/36); CH 62 - 18 = 44: burn
    # 35/36.  p_hit = 2/3 * 1/36 = 1/54; p_critical = 2/3 * 1/216 = 1/324;
    # p_burn = 2/3 * (5*15 + 1*35)/7776 = 220/23328 = 55/5832.
    t2 = _sit(dict(PF44, year=1945, month=3), dict(AF18, moving=True, mp_in_los=4),
              {"range": 3, "phase": "defensive"})
    cases.append(("T2 PF lowest Final only", t2, {"phase": {
        "p_hit": F(1, 54), "p_critical": F(1, 324), "p_burn": F(55, 5832)}}))
    # The same with mp_in_los 1: Case J2 +4: lowest Final 6 > 4: an Improbable Hit (C3.6):
    # Original 2, dr 1 CH, 2 turret, 3 hull: P(hit) = 2/3 * 1/36 * 1/2 = 1/108, P(CH) = 2/3 *
    # 1/216 = 1/324.
    t2b = _sit(dict(PF44, year=1945, month=3), dict(AF18, moving=True, mp_in_los=1),
               {"range": 3, "phase": "defensive"})
    cases.append(("T2 J2 improbable", t2b, {"phase": {"p_hit": F(1, 108),
                                                      "p_critical": F(1, 324)}}))

    # T4: BAZ 44 at 3 hexes, PFPh, stationary AFV in Open Ground, no DRM: TH# 7, hit on an
    # Original <= 7 (21/36): turret 9, hull 11, CH 1.  X11: Original 11-12 removes it (3/36,
    # misses).  Vs AF 26 everywhere, a normal hit is 16 - 26 = -10: nothing but a Dud (1/36);
    # the CH (hull) is 32 - 26 = 6: burn DR <= 3 (3), eliminated 4-5 (7), 6 immobilized (5),
    # 7 possible Shock (6), 8-11 nothing (14), Dud 1.  So p_kill 10/1296, immobilized 5/1296,
    # possible Shock 6/1296, Dud 21/1296; outcome_no_effect (20*35 + 14)/1296 = 714/1296,
    # outcome_miss 15/36; the phase ends malfunction 3/36, target_destroyed 10/1296, else
    # rof_exhausted (1188 - 10)/1296 = 1178/1296.  Hull down: turret hits and the CH: 10/36.
    t4 = _sit(BAZ44, AF26, {"range": 3})
    exp4 = {"p_hit": F(21, 36), "p_critical": F(1, 36), "p_malfunction": F(3, 36),
            "p_disabled": F(3, 36), "p_dud": F(21, 1296), "p_kill": F(10, 1296),
            "p_burn": F(3, 1296), "p_eliminated": F(7, 1296), "p_immobilized": F(5, 1296),
            "p_possible_shock": F(6, 1296), "p_shock": 0, "e_shots": 1,
            "e_hits": F(21, 36), "outcome_no_effect": F(714, 1296), "outcome_dud": F(21, 1296),
            "outcome_miss": F(15, 36), "p_firer_pinned": 0, "p_firer_casualty": 0,
            "outcome_no_shot": 0}
    cases.append(("T4 BAZ 44 3 hexes", t4, {"first_shot": exp4, "phase": dict(
        exp4, end_malfunction=F(3, 36), end_target_destroyed=F(10, 1296),
        end_rof_exhausted=F(1178, 1296), end_pf_check_failed=0)}))
    t4hd = _sit(BAZ44, dict(AF26, hull_down=True), {"range": 3})
    cases.append(("T4 BAZ 44 hull down", t4hd, {"phase": {"p_hit": F(10, 36),
                                                          "p_critical": F(1, 36)}}))
    # T5: the same in the AFPh (no Opportunity Fire) from a building's ground floor: +2 +2:
    # hit on an Original <= 3 (3/36); the lowest Final 6 < 7: CH on an Original 2 (1/36).
    t5 = _sit(BAZ44, AF26, {"range": 3, "phase": "advancing", "firer_terrain": "building"})
    cases.append(("T5 BAZ AFPh building", t5, {"phase": {"p_hit": F(3, 36),
                                                         "p_critical": F(1, 36)}}))
    # ... with Opportunity Fire: neither half of Case C3 (C5.34): back to 21/36.
    t5o = _sit(BAZ44, AF26, {"range": 3, "phase": "advancing", "opportunity": True,
                             "firer_terrain": "building"})
    cases.append(("T5 BAZ Opportunity Fire", t5o, {"phase": {"p_hit": F(21, 36)}}))
    # ... in the PFPh from rubble: backblast +2 only: Original <= 5 (10/36).
    t5p = _sit(BAZ44, AF26, {"range": 3, "firer_terrain": "rubble"})
    cases.append(("T5 BAZ PFPh rubble", t5p, {"phase": {"p_hit": F(10, 36)}}))
    # T6: BAZ 44 at 3 hexes with +6 (extra_drm): lowest Final 8 > 7: Improbable Hit, an
    # Original 2 and a dr 1 CH, 2 turret, 3 hull: 1/72; hull down 1/36 * 2/6 = 1/108.
    t6 = _sit(BAZ44, AF26, {"range": 3, "extra_drm": 6})
    cases.append(("T6 improbable", t6, {"phase": {"p_hit": F(1, 72), "p_critical": F(1, 216)}}))
    t6hd = _sit(BAZ44, dict(AF26, hull_down=True), {"range": 3, "extra_drm": 6})
    cases.append(("T6 improbable HD", t6hd, {"phase": {"p_hit": F(1, 108)}}))
    # The C3.7 EXC vs a hull-down target: BAZ 44 at 3 hexes with +5: the lowest Final 7 is
    # the only hit: an Original 2 (1/36), dr 1 CH (turret), 2-6 a normal turret hit: p_hit
    # 1/36 even hull down; CH 1/216.
    t37 = _sit(BAZ44, dict(AF26, hull_down=True), {"range": 3, "extra_drm": 5})
    cases.append(("C3.7 EXC hull down", t37, {"phase": {"p_hit": F(1, 36),
                                                        "p_critical": F(1, 216)}}))

    # The brief's Bazooka 44 at a Panther's side at 3 hexes (example AF: hull front 18, hull
    # side 4, turret front 14, turret side 8).  TH as T4: turret 9, hull 11, CH 1 (/36).
    # Hull side 16 - 4 = 12: burn DR <= 6 (15), eliminated 7-11 (20), Dud 1.  Turret side
    # 16 - 8 = 8: burn 2-4 (6), eliminated 5-7 (15), 8 Shock (5), 9 possible Shock (4), 10-11
    # nothing (5), Dud 1.  CH hull 32 - 4 = 28: burn 35, Dud 1.
    # burn (11*15 + 9*6 + 35)/1296 = 254/1296; eliminated (11*20 + 9*15)/1296 = 355/1296;
    # Shock 45/1296; possible Shock 36/1296; Dud 21/1296; kill 609/1296.  X11: 3/36 removed
    # (misses): end_malfunction 108/1296, end_target_destroyed 609/1296, rof_exhausted 579/1296.
    panther = {"armor": {"hull_front": 18, "hull_side": 4, "turret_front": 14,
                         "turret_side": 8}, "facing": "side"}
    exp_p = {"p_hit": F(21, 36), "p_critical": F(1, 36), "p_burn": F(254, 1296),
             "p_eliminated": F(355, 1296), "p_kill": F(609, 1296), "p_shock": F(45, 1296),
             "p_possible_shock": F(36, 1296), "p_immobilized": 0, "p_dud": F(21, 1296),
             "p_malfunction": F(3, 36), "p_disabled": F(3, 36),
             "outcome_no_effect": F(9 * 5, 1296), "outcome_miss": F(15, 36)}
    cases.append(("BAZ 44 Panther side", _sit(BAZ44, panther, {"range": 3}), {
        "first_shot": exp_p, "phase": dict(exp_p, end_malfunction=F(108, 1296),
                                           end_target_destroyed=F(609, 1296),
                                           end_rof_exhausted=F(579, 1296))}))
    # ... a BAZ in 1943 is a BAZ 43: TK 13: hull side 9: burn <= 4 (6), eliminated 5-8 (20)...
    # just the kills: hull 11*(6+20) + turret (13 - 8 = 5: burn 2 (1), eliminated 3-4 (5))
    # 9*6 + CH (26 - 4 = 22: burn DR <= 11: 35) = (286 + 54 + 35)/1296 = 375/1296.
    baz43 = dict(BAZ44, year=1943, x_number=10)
    cases.append(("BAZ 43 Panther side", _sit(baz43, panther, {"range": 3}),
                  {"phase": {"p_kill": F(375, 1296), "p_malfunction": F(6, 36)}}))

    # T9: German ATR (TK 5) at 1 hex, Stopped AFV, rear, every side AF 1, PFPh.  TH# 10 black,
    # Case L -2: every DR hits (2 + -2 = 0 < 10: a CH on an Original 2, 1/36).  Turret 15,
    # hull 20 (non-CH).  TK 5 + 2 (Case D 0-1) + 1 (rear) - 1 = 7: burn <= 3 (3), eliminated
    # 4-6 (12), 7 immobilized/Shock (6), 8 possible Shock (5), 9-11 nothing (9), Dud 1.  CH:
    # 10 + 2 + 1 - 1 = 12: burn <= 6 (15), eliminated 7-11 (20), Dud 1.
    # burn (15 + 35*3)/1296 = 120/1296; eliminated (20 + 35*12)/1296 = 440/1296; immobilized
    # 20*6/1296; Shock 15*6/1296; possible Shock 35*5/1296; Dud 36/1296.  B12: an Original 12
    # malfunctions (a hull hit): end_malfunction 1/36 * (1 - 15/36) = 21/1296 (its kills end
    # as target_destroyed); end_target_destroyed 560/1296; rof_exhausted 715/1296.
    atr_rear = {"armor": {"hull_front": 3, "hull_side": 1, "turret_front": 3, "turret_side": 1},
                "facing": "rear"}
    t9 = _sit(ATR_DE, atr_rear)
    cases.append(("T9 ATR 1 hex rear", t9, {"phase": {
        "p_hit": 1, "p_critical": F(1, 36), "p_burn": F(120, 1296), "p_eliminated": F(440, 1296),
        "p_immobilized": F(120, 1296), "p_shock": F(90, 1296), "p_possible_shock": F(175, 1296),
        "p_dud": F(36, 1296), "p_malfunction": F(1, 36), "p_disabled": 0,
        "end_malfunction": F(21, 1296), "end_target_destroyed": F(560, 1296),
        "end_rof_exhausted": F(715, 1296)}}))
    # ... vs a moving (Non-Stopped) target: no Case L, Case J +2: Original <= 8 (26/36).
    cases.append(("T9 ATR moving", _sit(ATR_DE, dict(atr_rear, moving=True)),
                  {"phase": {"p_hit": F(26, 36)}}))
    # The ATR's TH# is black whatever the nationality (C13.2): a Russian ATR at 8 hexes: 9,
    # Original <= 9 (30/36); captured (a German firing a British ATR): red 8 and Case H +2:
    # Original <= 6 (15/36); captured B# 12 - 2 = 10 with X12 (A.11): malfunction 6/36,
    # disabled 1/36.
    cases.append(("ATR Russian black 8 hexes", _sit(dict(ATR_DE, nationality="russian"), AF26,
                                                   {"range": 8}), {"phase": {"p_hit": F(30, 36)}}))
    cases.append(("ATR captured red", _sit(dict(ATR_DE, captured=True), AF26, {"range": 8}),
                  {"phase": {"p_hit": F(15, 36), "p_malfunction": F(6, 36),
                             "p_disabled": F(1, 36)}}))

    # The ATR with ROF 1 over a phase: German ATR at 8 hexes (TH# 9, no Case L, Case D 0) vs
    # AF 26 everywhere: 5 - 26: nothing but Duds.  It fires again on a colored dr 1 (6/36; those
    # are all hits, Original <= 7), so e_shots = 1/(1 - 1/6) = 6/5, e_hits = 6/5 * 30/36 = 1.
    # A miss never fires again: p_hit = 30/36.  Malfunction ((6,6), stops): 1/36 per shot:
    # p = 1/36 / (30/36) = 1/30 = end_malfunction; rof_exhausted 29/30.  Dud: a stop without
    # a Dud 24/36*35/36 + 6/36 = 1056/1296, a repeat without one 6/36*35/36 = 210/1296:
    # P(no Dud) = 1056/1086 = 176/181, p_dud 5/181.  The last shot: miss 6/30 = 1/5, Dud
    # (24/36 * 1/36)/(30/36) = 1/45, no_effect 7/9.
    t_rof = _sit(dict(ATR_DE, rof=1), AF26, {"range": 8})
    cases.append(("ATR ROF 1 phase", t_rof, {
        "first_shot": {"p_hit": F(30, 36), "e_shots": 1, "p_malfunction": F(1, 36)},
        "phase": {"p_hit": F(5, 6), "e_shots": F(6, 5), "e_hits": 1, "p_malfunction": F(1, 30),
                  "end_malfunction": F(1, 30), "end_rof_exhausted": F(29, 30),
                  "p_dud": F(5, 181), "outcome_miss": F(1, 5), "outcome_dud": F(1, 45),
                  "outcome_no_effect": F(7, 9)}}))
    # ... with max_shots 2: e_shots 1 + 1/6 = 7/6; shot_cap when the second shot is fired and
    # does not malfunction: 1/6 * 35/36 = 35/216; malfunction 1/36 + 1/6 * 1/36 = 7/216;
    # rof_exhausted: the first shot stops (colored >= 2) without (6,6): 29/36.
    t_rof2 = _sit(dict(ATR_DE, rof=1), AF26, {"range": 8, "max_shots": 2})
    cases.append(("ATR ROF 1 max_shots 2", t_rof2, {"phase": {
        "e_shots": F(7, 6), "end_shot_cap": F(35, 216), "end_malfunction": F(7, 216),
        "end_rof_exhausted": F(29, 36)}}))
    # ... pinned: no Multiple ROF (C5.4): e_shots 1.  Captured: ROF 1 - 1 = 0 (A21.12).
    cases.append(("ATR ROF pinned", _sit(dict(ATR_DE, rof=1), AF26, {"range": 8, "pinned": True}),
                  {"phase": {"e_shots": 1}}))
    cases.append(("ATR ROF captured", _sit(dict(ATR_DE, rof=1, captured=True), AF26,
                                           {"range": 8}), {"phase": {"e_shots": 1}}))
    # ... Defensive First Fire at a target with mp_in_los 1 (ROF 3, range 8, AF 26): shot 1
    # J2 +4 (Original <= 5: 10/36), shots 2 and 3 (2, 3 MP) J1 +3 (<= 6: 15/36), later J +2
    # (<= 7: 21/36) (C6.17 EX: J2, J1, J1, J, J); a shot follows on a colored dr <= 3 (1/2;
    # (6,6) never).  e_hits = 10/36 + 1/2 * 15/36 + 1/4 * 15/36 + (1/8)/(1 - 1/2) * 21/36 =
    # (40 + 30 + 15 + 21)/144 = 53/72; e_shots = 2.
    t_j = _sit(dict(ATR_DE, rof=3), dict(AF26, moving=True, mp_in_los=1),
               {"range": 8, "phase": "defensive"})
    cases.append(("ATR J2 J1 J", t_j, {"phase": {"e_shots": 2, "e_hits": F(53, 72)}}))

    # T7 / the captured PSK: an American firing a captured PSK in 1944 at 2 hexes (TH# 8),
    # Case H +2: Original <= 6 (15/36); lowest Final 4 < 8: CH on an Original 2.  X10 - 2 = X8:
    # removed on an Original >= 8 (15/36, misses: end_malfunction 15/36).  Vs AF 18 everywhere:
    # non-CH 26 - 18 = 8 (T7): burn 2-4 (6), eliminated 5-7 (15), 8 immobilized (hull) or
    # Shock (turret) (5), 9 possible Shock (4), 10-11 nothing (5), Dud 1; CH 52 - 18 = 34: burn
    # 35, Dud 1.  Non-CH hits: Original 3-6: 14, turret 6, hull 8.
    # burn (35 + 14*6)/1296 = 119/1296; eliminated 14*15/1296 = 210/1296; immobilized 8*5/1296;
    # Shock 6*5/1296; possible Shock 14*4/1296; Dud 15/1296.
    t7 = _sit(dict(PSK, nationality="american", captured=True), AF18, {"range": 2})
    cases.append(("captured PSK (T7)", t7, {"phase": {
        "p_hit": F(15, 36), "p_critical": F(1, 36), "p_burn": F(119, 1296),
        "p_eliminated": F(210, 1296), "p_immobilized": F(40, 1296), "p_shock": F(30, 1296),
        "p_possible_shock": F(56, 1296), "p_dud": F(15, 1296), "p_malfunction": F(15, 36),
        "p_disabled": F(15, 36), "end_malfunction": F(15, 36)}}))

    # T10: PIAT at 1 hex, AFPh (no Opportunity Fire): TH# 9 +2 (no backblast, C13.6): Original
    # <= 7 (21/36).  B10: Original 10-12 malfunctions (6/36), not removed.
    t10 = _sit(PIAT, AF26, {"phase": "advancing"})
    cases.append(("T10 PIAT AFPh", t10, {"phase": {
        "p_hit": F(21, 36), "p_malfunction": F(6, 36), "p_disabled": 0,
        "end_malfunction": F(6, 36)}}))
    # The PIAT's B10 at 2 hexes (TH# 7): B10 6/36, X none; Inexperienced B9/X10 (A19.32, A.11):
    # 10/36, removed 6/36; captured B8/X10: 15/36 and 6/36; both B7/X10: 21/36 and 6/36.
    for extra, pm, pd in (({}, 6, 0), ({"inexperienced": True}, 10, 6),
                          ({"captured": True, "nationality": "german"}, 15, 6),
                          ({"captured": True, "inexperienced": True, "nationality": "german"},
                           21, 6)):
        cases.append(("PIAT B10 %s" % sorted(extra), _sit(dict(PIAT, **extra), AF26,
                                                         {"range": 2}),
                      {"phase": {"p_malfunction": F(pm, 36), "p_disabled": F(pd, 36)}}))

    # T11: an Inexperienced PF firer: an Original 11 or 12 misses and Casualty Reduction
    # (3/36).  PF in the same hex (TH# 10, range 0), a -2 leader: every Original <= 12 would
    # hit, so P(hit | shot) = 33/36 (11, 12 forced misses).  PF Check 1/2.
    t11 = _sit(dict(PF44, inexperienced=True, leader=-2), AF26, {"range": 0, "same_hex": True})
    cases.append(("T11 Inexperienced PF", t11, {"phase": {
        "p_hit": F(11, 24), "p_firer_casualty": F(1, 24), "p_critical": F(1, 72)}}))
    cases.append(("T11 PF regular", _sit(dict(PF44, leader=-2), AF26,
                                         {"range": 0, "same_hex": True}),
                  {"phase": {"p_hit": F(35, 72), "p_firer_casualty": F(1, 72)}}))
    # Same-hex Target Facing by the colored dr (D3.2): PF range 0 vs hull AF front 26, side 26,
    # rear... (rear uses side AF) - use a PSK at range 0 (TH# 11) vs an AFV whose front
    # aspects are 26 and side 0: colored 1-4 (rear/side) -> side AF 0, colored 5-6 front 26.
    # Hits: Original <= 11 (35/36).  Colored 1-4 hits: 24 minus none (max 10): 24; among them
    # the CH (1,1): 52 + 1 (rear) - 0 = 53.  Non-CH side/rear hits: TK 26 (+1 rear) - 0: all
    # burn but the Dud.  Colored 5-6 (front, 26 - 26 = 0): no kill.
    # kill = (23 * 35 + 1 * 35)/1296 = 840/1296.
    t_sh = _sit(PSK, {"armor": {"hull_front": 26, "hull_side": 0, "turret_front": 26,
                                "turret_side": 0}}, {"range": 0, "same_hex": True})
    cases.append(("PSK same hex facing", t_sh, {"phase": {"p_kill": F(840, 1296),
                                                          "p_hit": F(35, 36)}}))

    # T12: PF at an unarmored truck: PF Check +1 (not an AFV): squad 1944: dr <= 2: 1/3.  At
    # 1 hex TH# 8: hit 26/36, CH 1/36 (22: burn all but the Dud).  TK 11: burn <= 5 (10),
    # eliminated 6-10 (23), 11 immobilized (2), 12 Dud.
    # burn 1/3 * (25*10 + 35)/1296 = 95/1296; immobilized 1/3 * 25*2/1296 = 50/3888.
    t12 = _sit(PF44, {"armor": "unarmored"})
    cases.append(("T12 PF truck", t12, {"phase": {
        "e_shots": F(1, 3), "p_burn": F(95, 1296), "p_immobilized": F(50, 3888),
        "p_eliminated": F(25 * 23, 3888)}}))

    # Deliberate Immobilization: PSK at 1 hex (TH# 9), Case G +5: Original <= 4 (6/36); no CH
    # (C3.7 EXC).  Hull hits (colored >= white): (1,1), (2,1), (2,2), (3,1) = 4: immobilized;
    # turret (1,2), (1,3): no effect.  X10 6/36.
    t_di = _sit(PSK, AF18, {"deliberate_immobilization": True})
    cases.append(("PSK Deliberate Immobilization", t_di, {"phase": {
        "p_hit": F(6, 36), "p_critical": 0, "p_immobilized": F(4, 36), "p_kill": 0, "p_dud": 0,
        "outcome_no_effect": F(2, 36), "end_target_effect": F(4, 36)}}))

    # A concealed target and the ATR's ROF 3 at 8 hexes (AF 26): Case K +2 until a hit.  Shot
    # 1: Original <= 7 (21/36).  A continuing shot (colored <= 3): after a hit (colored <= 3 and
    # sum <= 7: 3*... c=1: 6, c=2: 5, c=3: 4 = 15) Case K is gone (Original <= 9); after a miss
    # (colored <= 3, sum >= 8: c=2: (2,6), c=3: (3,5),(3,6) = 3) still +2.
    # P(a hit in the phase) = 21/36 + (3/36) * P(a hit from a concealed start) = 21/36 *
    # 1/(1 - 3/36) = 21/33 = 7/11.
    t_k = _sit(dict(ATR_DE, rof=3), dict(AF26, concealed=True), {"range": 8})
    cases.append(("ATR concealed ROF 3", t_k, {"phase": {"p_hit": F(7, 11)},
                                               "first_shot": {"p_hit": F(21, 36)}}))
    return cases


def tk_table():
    """(name, situation, aspect, CH, facing, {outcome: count of 36}) for Model.tk."""
    psk = _sit(PSK, AF18)
    rows = [
        # T7: PSK vs AF 18: Final 8: burn 2-4, eliminated 5-7, 8 immobilized (hull), 9 possible
        # Shock, 10-11 nothing, 12 Dud.  Rear: 27 - 18 = 9.  CH: 34.
        ("T7 PSK hull", psk, "hull", False, "front",
         {"burn": 6, "eliminated": 15, "immobilized": 5, "possible_shock": 4, "no_effect": 5,
          "dud": 1}),
        ("T7 PSK turret", psk, "turret", False, "front",
         {"burn": 6, "eliminated": 15, "shock": 5, "possible_shock": 4, "no_effect": 5,
          "dud": 1}),
        ("T7 PSK rear", psk, "hull", False, "rear",       # 9: burn <= 4, elim 5-8, 9 immob,
         {"burn": 6, "eliminated": 20, "immobilized": 4, "possible_shock": 3, "no_effect": 2,
          "dud": 1}),                                      # 10 possible Shock, 11 nothing
        ("T7 PSK CH", psk, "hull", True, "front", {"burn": 35, "dud": 1}),
        # T8: BAZ 43 vs AF 11: Final 2: DR 2 immobilized/Shock, 3 possible Shock.  CH 26 - 11
        # = 15: burn <= 7 (21), eliminated 8-11 (14), Dud.
        ("T8 BAZ 43", _sit(dict(BAZ44, year=1943), {"armor": {k: 11 for k in ASPECTS}}),
         "turret", False, "front", {"shock": 1, "possible_shock": 2, "no_effect": 32, "dud": 1}),
        ("T8 BAZ 43 CH", _sit(dict(BAZ44, year=1943), {"armor": {k: 11 for k in ASPECTS}}),
         "hull", True, "front", {"burn": 21, "eliminated": 14, "dud": 1}),
        # T3: PF vs AF 8: 23: burn 35, Dud 1.
        ("T3 PF AF 8", _sit(PF44), "hull", False, "front", {"burn": 35, "dud": 1}),
        # T12: HEAT vs unarmored: 11: burn <= 5 (10), eliminated 6-10 (23), 11 immobilized (2).
        ("T12 HEAT unarmored", _sit(PF44, {"armor": "unarmored"}), "hull", False, "rear",
         {"burn": 10, "eliminated": 23, "immobilized": 2, "dud": 1}),
        ("T12 HEAT unarmored CH", _sit(PF44, {"armor": "unarmored"}), "turret", True, "front",
         {"burn": 35, "dud": 1}),
        # ATR unarmored: 7 at any range (no Case D): burn <= 3 (3), eliminated 4-6 (12), 7
        # immobilized (6), Dud; CH 14: burn <= 7 (21), eliminated 8-11 (14), Dud.
        ("ATR unarmored", _sit(ATR_DE, {"armor": "unarmored"}, {"range": 1}), "hull", False,
         "rear", {"burn": 3, "eliminated": 12, "immobilized": 6, "no_effect": 14, "dud": 1}),
        ("ATR unarmored CH", _sit(ATR_DE, {"armor": "unarmored"}, {"range": 9}), "hull", True,
         "front", {"burn": 21, "eliminated": 14, "dud": 1}),
        # ATR Case D "<= 25mm": German 5 at 2 hexes +1 vs AF 2: 4: burn 2 (1), eliminated 3
        # (2), 4 immobilized (3), 5 possible Shock (4).  At 7 hexes +0: 3: eliminated none
        # (2 < 3 but 2*2 > 3: eliminated 1), 3 immobilized (2), 4 possible Shock (3).
        ("ATR Case D 2 hexes", _sit(ATR_DE, {"armor": {k: 2 for k in ASPECTS}}, {"range": 2}),
         "hull", False, "front",
         {"burn": 1, "eliminated": 2, "immobilized": 3, "possible_shock": 4, "no_effect": 25,
          "dud": 1}),
        ("ATR Case D 7 hexes", _sit(ATR_DE, {"armor": {k: 2 for k in ASPECTS}}, {"range": 7}),
         "hull", False, "front",
         {"eliminated": 1, "immobilized": 2, "possible_shock": 3, "no_effect": 29, "dud": 1}),
        # Russian ATR 6 at 5 hexes (+1) vs AF 4: 3 (as above), and a red CS#: the burn check
        # at DR - 1: 5 at 1 hex +2 rear +1 vs AF 1: 7, red CS#: burn only DR - 1 <= 3.5: DR
        # <= 4 (6 instead of 3); eliminated 5-6 (9).
        ("ATR Russian", _sit(dict(ATR_DE, nationality="russian"),
                             {"armor": {k: 4 for k in ASPECTS}}, {"range": 5}),
         "hull", False, "front",
         {"eliminated": 1, "immobilized": 2, "possible_shock": 3, "no_effect": 29, "dud": 1}),
        ("ATR red CS#", _sit(ATR_DE, dict(atr_rear_armor(), red_cs=True), {"range": 1}),
         "hull", False, "rear",
         {"burn": 6, "eliminated": 9, "immobilized": 6, "possible_shock": 5, "no_effect": 9,
          "dud": 1}),
        # superior turret armor: AF 8 in a square counts 11: PSK 26 - 11 = 15; inferior 6.
        ("PSK superior turret", _sit(PSK, {"armor": {k: 8 for k in ASPECTS},
                                           "turret_armor": "superior"}), "turret", False,
         "front", {"burn": 21, "eliminated": 14, "dud": 1}),
    ]
    return rows


def atr_rear_armor():
    return {"armor": {"hull_front": 3, "hull_side": 1, "turret_front": 3, "turret_side": 1}}


def brute_force(sit):
    """A naive enumeration of a capped phase (fire.max_shots <= 3): every shot's outcomes
    followed shot by shot, no chain, no memo -> phase quantities."""
    m = Model(sit)
    assert m.cap is not None and m.cap <= 3
    acc = {}
    p_shot, p_pin = m.pf_check()

    def bump(k, v):
        acc[k] = acc.get(k, 0) + v

    def go(p, n, conc, flags, wreck):
        for q, f, outc, hits, keep, malf in m.shot(n, conc):
            pp = p * q
            if wreck:
                f &= ~OUTCOME_BITS
                outc = "no_effect" if hits else "miss"
            bump("e_shots", pp)
            bump("e_hits", pp * hits)
            nf = flags | f
            dead = outc in ("burn", "eliminated")
            end = None
            if m.stop_on != "never" and dead:
                end = "target_destroyed"
            elif m.stop_on == "effect" and outc in EFFECT:
                end = "target_effect"
            elif m.di and outc == "immobilized":
                end = "target_effect"
            elif malf:
                end = "malfunction"
            elif n + 1 >= m.cap:
                end = "shot_cap"
            elif not keep:
                end = "rof_exhausted"
            if end is None:
                go(pp, n + 1, conc and not hits, nf, wreck or dead)
                continue
            for fl in FLAGS:
                if nf & FB[fl]:
                    bump("p_" + fl, pp)
            bump("outcome_" + outc, pp)
            bump("end_" + end, pp)

    go(p_shot, 0, m.conc0, 0, False)
    if p_shot < 1:
        bump("outcome_no_shot", 1 - p_shot)
        bump("end_pf_check_failed", 1 - p_shot)
        bump("p_firer_broken" if m.pinned else "p_firer_pinned", p_pin)
    return acc


def self_test(quiet=False):
    """-> number of failures; prints one line per failure and (unless quiet) a summary."""
    fails = 0
    n = 0
    for name, sit, aspect, ch, facing, want in tk_table():
        got = Model(sit).tk(aspect, ch, facing)
        wantf = {k: F(v, 36) for k, v in want.items()}
        if sum(wantf.values()) != 1:
            fails += 1
            print("FAIL TK %s: the expected counts do not sum to 36" % name)
        if {k: v for k, v in got.items() if v} != wantf:
            fails += 1
            print("FAIL TK %s: %s, expected %s" % (name, {k: v * 36 for k, v in got.items()},
                                                    want))
    for name, sit, exp in hand_cases():
        why = refusal(sit)
        if why is not None:
            fails += 1
            print("FAIL %s: the model refuses it: %s" % (name, why))
            continue
        got = Model(sit).run()
        for blk, qs in exp.items():
            for k, v in qs.items():
                n += 1
                if k not in got[blk]:
                    fails += 1
                    print("FAIL %s: %s %s not modelled" % (name, blk, k))
                elif got[blk][k] != F(v):
                    fails += 1
                    print("FAIL %s: %s %s = %s, expected %s" % (name, blk, k, got[blk][k], F(v)))
        for blk in ("first_shot", "phase"):                  # every window sums to 1
            tot = sum(v for k, v in got[blk].items() if k.startswith("outcome_"))
            te = sum(v for k, v in got[blk].items() if k.startswith("end_"))
            if tot != 1 or (blk == "phase" and te != 1):
                fails += 1
                print("FAIL %s: %s outcomes sum to %s, ends to %s" % (name, blk, tot, te))
    if quiet:
        return fails
    # the chain against the naive enumeration on random capped phases, and the uncapped chain
    # (self loops summed) against a long cap
    r = random.Random(20260301)
    checked = 0
    for i in range(120):
        sit, why = situation(r)
        if why is not None:
            continue
        sit["fire"]["max_shots"] = r.choice([1, 2, 3, 3])
        mine = Model(sit).run()["phase"]
        brute = brute_force(sit)
        checked += 1
        for k in set(mine) | set(brute):
            if mine.get(k, F(0)) != brute.get(k, F(0)):
                fails += 1
                print("FAIL brute force %d: %s model %s brute %s\n%s" % (
                    i, k, mine.get(k), brute.get(k), toml_file(sit)))
                break
    # (a shot follows with P <= 1/2, so a cap of 30 shots changes a value by < 30 * 2^-30)
    n_cap = 0
    while n_cap < 8:
        sit, why = situation(r)
        if why is not None or sit["firer"]["weapon"] != "atr" or not sit["firer"].get("rof"):
            continue
        n_cap += 1
        sit["fire"].pop("max_shots", None)
        inf = Model(sit).run()["phase"]
        sit["fire"]["max_shots"] = 30
        capped = Model(sit).run()["phase"]
        checked += 1
        for k in inf:
            if k in ("end_rof_exhausted", "end_shot_cap"):
                continue
            if abs(float(inf[k]) - float(capped[k])) > 1e-7:
                fails += 1
                print("FAIL cap 30 vs no cap %d: %s %s %s" % (n_cap, k, float(inf[k]),
                                                              float(capped[k])))
    # every generated situation to refuse is refused by the model, the others not
    refs = 0
    for i in range(400):
        sit, why = situation(r)
        if why is None and refusal(sit) is not None:
            fails += 1
        refs += why is not None
    print("latw_model self-test: %d hand cases (%d values), %d To Kill rows, %d phases "
          "cross-checked, %d of 400 generated to be refused: %s"
          % (len(hand_cases()), n, len(tk_table()), checked, refs,
             "%d FAILED" % fails if fails else "all pass"))
    return fails


# ---------------------------------------------------------------- driver
SECTIONS = ("firer", "target", "fire")


def toml_file(sit):
    """The situation file: harness.toml_text, with firer.to_hit (a list, which the harness
    does not write) added as an array."""
    f = sit["firer"]
    rest = dict(sit, firer={k: v for k, v in f.items() if k != "to_hit"})
    text = harness.toml_text(rest, SECTIONS, head=[("ruleset", "asl")], blank_lines=True)
    if "to_hit" in f:
        text = text.replace("[firer]\n", "[firer]\nto_hit = [%s]\n"
                            % ", ".join(str(v) for v in f["to_hit"]), 1)
    return text


def first_shot_only(blk, k):
    """end_* are the phase's only."""
    return blk == "first_shot" and k.startswith("end_")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--self-test" in argv:
        return 1 if self_test() else 0
    ap = harness.arguments(__doc__, count=400)
    a = harness.parse(ap, argv)
    h = harness.Run(a, counts=("refused as predicted",))
    fails = self_test(quiet=True)
    if fails:
        print("latw_model: %d hand-derived self-test values fail: the model is wrong" % fails)
        return 1
    r = random.Random(a.seed)

    def cases():
        for i in range(a.count):
            sit, why = situation(r)
            text = toml_file(sit)
            yield "latw_%d_%04d.toml" % (a.seed, i), text, (sit, why)

    def check(path, payload):
        sit, why = payload
        if why is not None:
            odds = h.odds(path)
            if odds.refused:
                return harness.Refused(odds.error, kind="refused as predicted")
            return ["the situation format says salvo refuses this (%s), but salvo: %s"
                    % (why, odds.error or "exit 0")]
        values, stop = h.values(path, refusals=False)    # a refusal is a disagreement here
        if stop:
            return stop
        return h.compare(Model(sit).run(), values, absent="zero", extra="zero",
                         skip=first_shot_only)

    return h.run(cases(), check)


if __name__ == "__main__":
    sys.exit(main())
