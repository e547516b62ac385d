#!/usr/bin/env python3
"""Differential test: ASL ordnance and vehicular MG/IFE fire resolved on the Infantry Fire Table.

What it models (exactly, with fractions.Fraction, over every ordered colored/white dice outcome):

* Ordnance HE (or AP with its C8.31 HE equivalency) on the Infantry Target Type (C3.32):
  Basic TH# from the C3 Infantry row (red or black, A25), C4 Gun/Ammo modifications (*, L, LL,
  <=57mm, <=40mm), To Hit DRM of Cases A (first shot, doubled in woods/building/rubble), B
  (AFPh, +3 from woods/building/rubble), D (pinned), E (same hex), F (Intensive Fire), H
  (captured: also red TH#, B# -2 with the original B# an X#, Multiple ROF -1), I (buttoned
  up), J3 FFNAM, J4 FFMO,
  L (Point Blank), N (Acquisition, -1 then -2), Q (TEM), R (hindrance) and any extra DRM;
  the German 28LL/40LL always take the APCR range modification (C4.3).
  ITT Critical Hit (C3.7): Final DR < half the Modified TH#, or an Original 2 followed by a
  subsequent dr of 1 or <= half the Modified TH#.  Improbable Hits (C3.6): dr 1 CH, 2-3 hit.
  Multiple Hits (C3.8) for 15-40mm Guns on non-CH Original doubles: two Effects DR, the lower
  kept.  A hit goes on the C.6 caliber column with no TEM (C.3); a CH doubles the FP, reverses
  positive TEM and keeps FFMO/FFNAM (C3.71), Heavy Payload above 36 FP (C.7).
* The Area Target Type (C3.33): red Basic TH# for all, no TEM / Case E / Case L on the To Hit
  DR (C3.331), all ROF lost (non-mortar), half FP on the IFT with the TEM as Effects DRM
  (20-29mm HE: 1/2 FP, below the 1 FP column: no effect); CH on an Original 2 (only on a
  subsequent dr 1 when only the lowest Final DR hits, C3.7), full FP doubled with TEM reversed.
* Malfunction on an Original DR >= B# (A9.7, still resolved), Intensive Fire (+2, B# -2, the
  original B# an X#, C5.6, A.11), Rate of Fire on the colored dr (C2.24), Acquisition (C6.5).
* Vehicular MG / IFE fire on the IFT (D3.5-D3.54, C2.29): its own ROF (IFE -1), malfunction on
  an Original 12 (D3.7), Case A as an IFT DRM (D3.52), FP halved for Long Range (A7.22; IFE
  Normal Range 16), AFPh (D3.53), Bounding First Fire (D3.31), Motion (D2.42), concealed
  target (A12.14), pinned firer (A7.8), doubled at Point Blank range (A7.21), tripled in the
  same hex (A7.212); FFMO / FFNAM as IFT DRM (A4.6); TEM and hindrance as IFT DRM.
* The IFT Vehicle line against an unarmored vehicle (A7.308) with the Unlikely Kill dr on an
  Original 2 (A7.309).
* The phase: shots until ROF is lost, a malfunction, the shot cap, or the target destroyed (a
  #KIA; a burn / elimination) or affected (stop_on), as salvo reports it: per-shot and
  whole-phase "at least once" probabilities, expected shots and hits, the result of the last
  shot (outcome_*) and why the phase ended (end_*).

This is an independent implementation written from the ASL rule texts and the tool's user
documentation (its README), not from the tool's source code.  Readings followed (stated in that
documentation): FP fractions are kept and halvings/doublings are cumulative, the column is the
rightmost not above the FP; the multiple-hit firer keeps the lower Effects DR; no Morale Checks
are rolled, the IFT result itself is reported; a #KIA result ends the phase as destroyed; on a
CH FFMO/FFNAM apply to the IFT DR; Intensive Fire by vehicles is allowed; p_malfunction includes
a permanent disablement; outcome_* is the result of the last shot of the phase; when several
end reasons apply the target's fate comes first, then a malfunction, then the shot cap, then the
Rate of Fire / the Intensive Fire shot; same-hex fire pays no Case A outside Defensive First and
Final Fire (C5.51); the ITT Critical Hit has no "lowest Final DR" exception (that clause of C3.7
is read as belonging to the Vehicle and Area Target Types).

* Mortars (C9; drawn after the other situations, from their own stream, see --mortar-count):
  always the Area Target Type (C3.33, C9.1), which takes no ROF from a mortar: it fires again on
  a colored dr <= ROF (C2.24); never below its printed minimum range (C9.1); HE on the C.6 caliber
  column (halved, C3.33); a light mortar (<= 60mm, salvo's reading of C9.2) has no Covered Arc and
  is not vehicular; a non-vehicular NT Gun's CA-changing shot has ROF -1 (C2.5) except a 76-82mm
  mortar (C2.5 EXC).
* Air Bursts (B13.3): ordnance HE hitting a unit in woods (target.terrain = "woods", TEM +1), not
  entrenched, has -1 instead of the woods TEM on the Effects DR: on the Area Target Type, on the
  Infantry Target Type (where the +1 stays on the To Hit DR, C6.8) and on a CH (C3.71 "Air Burst
  ... still apply"); not AP's HE equivalency, not MG/IFE (which keep the +1 on the IFT DR);
  entrenched in woods: its TEM as usual.  These readings are salvo's documented ones (docs/asl.md).

Not modelled (not generated): a concealed target for ordnance (Case K with the C6.57
acquisition reading), Motion / Bounding First Fire by ordnance, HEAT, Opportunity Fire,
non-vehicular Guns other than mortars, MG vs armored targets, mortar hits vs vehicles (C1.55).

Usage:
    python3 ift_model.py SALVO [--count N] [--seed S] [--mortar-count M] [--keep DIR] [--show K]
                               [--salvo-reading NAME]...

SALVO is the salvo binary.  Writes N random situations (then M mortar and woods situations,
default 120, drawn from a stream of their own so that the first N are those of earlier versions)
as TOML files, runs
`SALVO odds FILE --format json` on each and compares every modelled quantity (first shot and phase) to 1e-9.  Default: 400 situations,
seed 1 (about 20 s).  --keep DIR keeps the TOML files; --show K prints the TOML and the differing
quantities of the first K disagreements.
Exit 0 when all agree, 1 on any disagreement, 2 on usage errors.  Situations salvo refuses are
counted apart.  --salvo-reading NAME makes the model follow a known deviation of salvo so that
the rest can be checked (see READINGS below; --salvo-reading list prints them).

The glue - command line, running salvo, comparing to 1e-9, the report - is harness.py's,
shared by the models; this file holds only its reading of the rules and its generator.
"""

import random
import sys
from fractions import Fraction as F

import harness

# --------------------------------------------------------------------------- tables

RANGE_BANDS = [6, 12, 18, 24, 30, 36, 42, 48, 54]  # upper bounds; beyond: last band


def band(rng):
    for i, hi in enumerate(RANGE_BANDS):
        if rng <= hi:
            return i
    return 9


TH_INF = {"black": [8, 7, 6, 5, 4, 3, 2, 1, 0, -1], "red": [8, 6, 5, 4, 3, 2, 1, 0, -1, -2]}
TH_AREA = [7, 7, 8, 8, 7, 7, 6, 6, 5, 5]

# IFT columns (FP, minimum caliber mm), C.6
COLUMNS = [1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36]
CALIBER_MIN = [20, 30, 37, 50, 60, 70, 80, 100, 120, 150, 200]

# IFT Personnel results: rows Final DR <=0 .. >=15, per column
_IFT_TEXT = """
1KIA 2KIA 2KIA 3KIA 3KIA 3KIA 4KIA 4KIA 5KIA 6KIA 7KIA
K/1 1KIA 1KIA 2KIA 2KIA 2KIA 3KIA 3KIA 4KIA 5KIA 6KIA
1MC K/1 K/2 1KIA 1KIA 1KIA 2KIA 2KIA 3KIA 4KIA 5KIA
1MC 1MC 2MC K/2 K/2 K/3 1KIA 1KIA 2KIA 3KIA 4KIA
NMC 1MC 1MC 2MC 2MC 3MC K/3 K/4 1KIA 2KIA 3KIA
PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC K/4 1KIA 2KIA
- PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC K/4 1KIA
- - PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC K/4
- - - PTC NMC 1MC 1MC 2MC 2MC 3MC 4MC
- - - - PTC NMC 1MC 1MC 2MC 2MC 3MC
- - - - - PTC NMC 1MC 1MC 2MC 2MC
- - - - - - PTC NMC 1MC 1MC 2MC
- - - - - - - PTC NMC 1MC 1MC
- - - - - - - - PTC NMC 1MC
- - - - - - - - - PTC NMC
- - - - - - - - - - PTC
"""
IFT = [row.split() for row in _IFT_TEXT.strip().splitlines()]
KILL_NUMBER = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]  # A7.308 Vehicle line


def ift_key(res):
    """salvo's outcome key for an IFT result."""
    if res == "-":
        return "no_effect"
    if res == "PTC":
        return "ptc"
    if res == "NMC":
        return "nmc"
    if res.endswith("MC"):
        return res[0] + "mc"
    if res.startswith("K/"):
        return "k_" + res[2]
    return res[0] + "kia"


def ift_flags(res):
    f = set()
    if res != "-":
        f.add("p_ptc_or_worse")
        if res != "PTC":
            f.add("p_mc_or_worse")
    if res.startswith("K/") or res.endswith("KIA"):
        f.add("p_casualty")
    if res.endswith("KIA"):
        f.add("p_kia")
    return f


# 2d6 sum distribution
SUM2 = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        SUM2[_a + _b] = SUM2.get(_a + _b, 0) + F(1, 36)


def column_of(fp):
    """Index of the rightmost column not above fp, or None (no effect)."""
    idx = None
    for i, c in enumerate(COLUMNS):
        if c <= fp:
            idx = i
    return idx


def heavy_payload_drm(fp):
    if fp > 36:
        return -int((fp - 36) // 8)
    return 0


def ift_result(col, final):
    row = max(0, min(15, final))
    return IFT[row][col]


def ift_dist(fp, drm, two=False):
    """Distribution {result: prob} of one (or the better of two) IFT DR."""
    col = column_of(fp)
    if col is None:
        return {"-": F(1)}
    drm += heavy_payload_drm(fp)
    out = {}
    if not two:
        for s, p in SUM2.items():
            r = ift_result(col, s + drm)
            out[r] = out.get(r, 0) + p
    else:
        for s1, p1 in SUM2.items():
            for s2, p2 in SUM2.items():
                r = ift_result(col, min(s1, s2) + drm)
                out[r] = out.get(r, 0) + p1 * p2
    return out


def he_fp(caliber):
    fp = None
    for c, m in zip(COLUMNS, CALIBER_MIN):
        if m <= caliber:
            fp = c
    return fp or 0


# --------------------------------------------------------------------------- situation

def parse_gun(g):
    s = g
    mod = ""
    for suf in ("LL", "L", "*"):
        if s.endswith(suf):
            mod = suf
            s = s[: -len(suf)]
            break
    return float(s), mod


def th_color(sit):
    c = sit["firer"].get("th_color", "auto")
    if c != "auto":
        return c
    nat = sit["firer"].get("nationality", "german")
    return {"german": "black", "russian": "red", "british": "black", "italian": "red"}[nat]


READINGS = {}


class Model:
    def __init__(self, sit, readings=()):
        self.s = sit
        self.r = set(readings)
        f, t, fi = sit["firer"], sit["target"], sit["fire"]
        self.weapon = f.get("weapon", "gun")
        self.ttype = t.get("type", "vehicle")
        self.rng = fi.get("range", 6)
        self.phase = fi.get("phase", "prep")
        self.terrain = fi.get("firer_terrain", "open")
        self.tem = t.get("tem", 0)
        self.hind = t.get("hindrance", 0)
        self.ffmo = t.get("ffmo", False)
        self.ffnam = t.get("ffnam", False)
        self.extra = fi.get("extra_drm", 0)
        self.pinned = fi.get("pinned", False)
        self.same_hex = fi.get("same_hex", False)
        self.max_shots = fi.get("max_shots")
        self.stop_on = fi.get("stop_on", "destroyed")
        self.rof = f.get("rof", 0)
        self.bnum = f.get("breakdown", 12)
        self.vehicle_target = self.ttype == "vehicle"
        self.mortar = f.get("mortar", False)
        self.woods = t.get("terrain", "open") == "woods" and not t.get("entrenched", False)

    # ---------------------------------------------------------------- Case A
    def case_a(self):
        n = self.s["fire"].get("ca_change", 0)
        if n == 0 or self.phase == "bounding":
            return 0
        if self.same_hex and self.phase not in ("defensive", "final"):
            return 0
        gt = self.s["firer"].get("gun_type", "T")
        if self.s["firer"].get("bow_mounted", False):
            gt = "NT"
        a = {"T": 1, "ST": 2, "NT": 3}[gt] + (n - 1)
        if self.terrain in ("woods", "building", "rubble"):
            a *= 2
        return a

    # ---------------------------------------------------------------- gun shots
    def gun_setup(self):
        f = self.s["firer"]
        cal, mod = parse_gun(f.get("gun", "75"))
        self.cal = cal
        self.ammo = f.get("ammo", "AP")
        b = band(self.rng)
        self.captured = f.get("captured", False)
        if self.ttype == "area":
            basic = TH_AREA[b]
        else:
            basic = TH_INF["red" if self.captured else th_color(self.s)][b]
        m = basic
        if self.rng > 12:
            if mod == "*":
                m -= 1
            elif mod == "L":
                m += 1
            elif mod == "LL":
                m += 1 if self.rng <= 24 else 2
            if cal <= 57:
                m -= min(4, (self.rng - 1) // 12)
            if cal <= 40:
                m -= 1
            if (mod == "LL" and cal in (28, 40)
                    and self.s["firer"].get("nationality", "german") == "german"):  # C4.3: German 28LL/40LL always APCR mod
                m -= min(4, (self.rng - 1) // 12)
        self.mth = m
        if self.ammo == "HE":
            self.fp = F(he_fp(cal))
        else:
            self.fp = F(1 if cal < 37 else 2)
        self.multi_ok = 15 <= cal <= 40 and self.ttype == "infantry"
        # B13.3 Air Burst: HE only
        self.air_burst = self.woods and self.ammo == "HE"
        # C2.5 Conditional ROF: a non-vehicular NT Gun's CA-changing shot, ROF -1 [EXC: 76-82mm mortar]
        self.conditional = (self.s["fire"].get("ca_change", 0) > 0 and not f.get("vehicle", True)
                            and f.get("gun_type", "T") == "NT"
                            and not (self.mortar and 76 <= cal <= 82))

    def gun_drm(self, k, acq, intensive):
        fi = self.s["fire"]
        d = 0
        if k == 0:
            d += self.case_a()
        if self.phase == "advancing" and not fi.get("opportunity", False):
            d += 3 if self.terrain in ("woods", "building", "rubble") else 2
        if self.pinned:
            d += 2
        if self.same_hex and self.ttype != "area":
            d += 4 if self.terrain in ("woods", "building", "rubble") else 2
        if intensive:
            d += 2
        if self.captured:
            d += 2
        if fi.get("buttoned_up", False):
            d += 1
        if self.ffnam:
            d -= 1
        if self.ffmo:
            d -= 1
        if self.ttype != "area" and not self.same_hex:
            if self.rng == 1:
                d -= 2
            elif self.rng == 2:
                d -= 1
        d -= acq
        if self.ttype != "area":
            d += self.tem
        d += self.hind
        d += self.extra
        return d

    def gun_effects(self, kind):
        """IFT result distribution for a hit kind: 'hit', 'multi', 'ch'."""
        if kind == "ch":
            fp = self.fp * 2
            if self.air_burst:
                drm = -1  # B13.3 Air Burst, not a TEM to reverse (C3.71)
            else:
                drm = -self.tem if self.tem > 0 else self.tem
            drm -= int(self.ffmo) + int(self.ffnam)
            return ift_dist(fp, drm)
        if self.ttype == "area":
            return ift_dist(self.fp / 2, -1 if self.air_burst else self.tem)
        return ift_dist(self.fp, -1 if self.air_burst else 0, two=(kind == "multi"))

    def gun_shot(self, k, acq, intensive):
        """List of (prob, flags, outcome, kind, hits) where kind in
        ('next', 'rof', 'malf', 'destroyed', 'effect') before the cap is applied."""
        drm = self.gun_drm(k, acq, intensive)
        M = self.mth
        bnum = self.bnum - (2 if intensive else 0) - (2 if self.captured else 0)
        xnum = self.bnum if bnum < self.bnum else None
        rof = self.rof - (1 if self.captured else 0)
        if k == 0 and self.conditional:
            rof -= 1
        if (self.pinned or self.phase == "advancing" or (self.ttype == "area" and not self.mortar)
                or intensive):
            rof = -1
        low = 2 + drm  # lowest Final DR
        out = []
        for c in range(1, 7):
            for w in range(1, 7):
                orig = c + w
                final = orig + drm
                p = F(1, 36)
                base = set()
                malf = orig >= bnum
                if malf:
                    base.add("p_malfunction")
                    if xnum is not None and orig >= xnum:
                        base.add("p_disabled")
                # list of (p, kind) hit kinds
                kinds = []
                if low > M:
                    if orig == 2:
                        kinds = [(F(1, 6), "ch"), (F(2, 6), "hit"), (F(3, 6), None)]
                    else:
                        kinds = [(F(1), None)]
                elif final <= M:
                    if self.ttype == "infantry":
                        if 2 * final < M:
                            kinds = [(F(1), "ch")]
                        elif orig == 2:
                            nch = sum(1 for d in range(1, 7) if d == 1 or 2 * d <= M)
                            kinds = [(F(nch, 6), "ch"), (F(6 - nch, 6), "hit")]
                        else:
                            kinds = [(F(1), "hit")]
                    else:  # area
                        if orig == 2:
                            if low == M:
                                kinds = [(F(1, 6), "ch"), (F(5, 6), "hit")]
                            else:
                                kinds = [(F(1), "ch")]
                        else:
                            kinds = [(F(1), "hit")]
                    # multiple hits
                    if self.multi_ok and c == w:
                        kinds = [(q, "multi" if kd == "hit" else kd) for q, kd in kinds]
                else:
                    kinds = [(F(1), None)]
                for q, kd in kinds:
                    flags = set(base)
                    if kd is None:
                        res_d = {None: F(1)}
                        hits = 0
                    else:
                        flags.add("p_hit")
                        if kd == "ch":
                            flags.add("p_critical")
                        if kd == "multi":
                            flags.add("p_multiple_hit")
                        hits = 2 if kd == "multi" else 1
                        res_d = self.gun_effects(kd)
                    for res, pr in res_d.items():
                        fl = set(flags)
                        if res is None:
                            outc = "miss"
                        else:
                            fl |= ift_flags(res)
                            outc = ift_key(res)
                        end = self.end_kind(res, malf, c, rof)
                        out.append((p * q * pr, frozenset(fl), outc, end, hits))
        return out

    def end_kind(self, res, malf, c, rof):
        if res is not None:
            if self.vehicle_target:
                destroyed = res in ("burn", "eliminated")
                effect = res != "-"
            else:
                destroyed = res.endswith("KIA")
                effect = res != "-"
            if self.stop_on != "never" and destroyed:
                return "destroyed"
            if self.stop_on == "effect" and effect:
                return "effect"
        if malf:
            return "malf"
        if c <= rof:
            return "next"
        return "rof"

    # ---------------------------------------------------------------- MG / IFE
    def mg_setup(self):
        f = self.s["firer"]
        fp = F(f["fp"])
        ife = self.weapon == "ife"
        nr = 16 if ife else f["normal_range"]
        if self.rng == 1:
            fp *= 2
        if self.rng == 0:
            fp *= 3
        if self.pinned:
            fp /= 2
        if self.phase == "bounding":
            fp /= 2
        if self.rng > nr:
            fp /= 2
        if self.s["target"].get("concealed", False):
            fp /= 2
        if self.phase == "advancing":
            fp /= 2
        if self.s["fire"].get("motion", False):
            fp /= 2
        self.fp = fp
        rof = self.rof - (1 if ife else 0)
        if self.phase == "advancing" or self.pinned:
            rof = -1
        self.mg_rof = rof

    def mg_shot(self, k):
        drm = self.tem + self.hind + self.extra
        if k == 0:
            drm += self.case_a()
        drm -= int(self.ffmo) + int(self.ffnam)
        col = column_of(self.fp)
        out = []
        for c in range(1, 7):
            for w in range(1, 7):
                orig = c + w
                final = orig + drm
                malf = orig >= 12
                base = {"p_malfunction"} if malf else set()
                if self.vehicle_target:
                    kn = KILL_NUMBER[col]
                    res = self.veh_line(final, kn)
                    opts = [(F(1), res)]
                    if orig == 2:
                        opts = []
                        for d, r2 in ((1, "burn"), (2, "eliminated"), (3, "immobilized")):
                            opts.append((F(1, 6), better(res, r2)))
                        opts.append((F(3, 6), res))
                    for q, r in opts:
                        fl = set(base)
                        if r in ("burn", "eliminated"):
                            fl.add("p_kill")
                            fl.add("p_" + r)
                        if r == "immobilized":
                            fl.add("p_immobilized")
                        outc = "no_effect" if r == "-" else r
                        end = self.end_kind(r, malf, c, self.mg_rof)
                        out.append((F(1, 36) * q, frozenset(fl), outc, end, 0))
                else:
                    res = ift_result(col, final)
                    fl = set(base) | ift_flags(res)
                    end = self.end_kind(res, malf, c, self.mg_rof)
                    out.append((F(1, 36), frozenset(fl), ift_key(res), end, 0))
        return out

    def veh_line(self, final, kn):
        if 2 * final <= kn:
            return "burn"
        if final < kn:
            return "eliminated"
        if final == kn:
            return "immobilized"
        return "-"

    # ---------------------------------------------------------------- phase
    def run(self):
        if self.weapon == "gun":
            self.gun_setup()
            acq0 = self.s["fire"].get("acquisition", 0)
            intensive_ok = self.s["fire"].get("intensive_fire", False)

            def shot(k, intensive=False):
                return self.gun_shot(k, min(2, acq0 + k), intensive)
            stationary = 2
        else:
            self.mg_setup()
            intensive_ok = False

            def shot(k, intensive=False):
                return self.mg_shot(k)
            stationary = 1
        return phase(shot, stationary, intensive_ok, self.max_shots, self.vehicle_target)


RANK = {"-": 0, "immobilized": 1, "eliminated": 2, "burn": 3}


def better(a, b):
    return a if RANK[a] >= RANK[b] else b


def summarize(dist, prefix):
    """first-shot summary from a shot distribution."""
    res = {}
    for p, fl, outc, end, hits in dist:
        for f in fl:
            res[f] = res.get(f, 0) + p
        res["e_hits"] = res.get("e_hits", 0) + p * hits
    return res


def phase(shot, stationary, intensive_ok, cap, vehicle_target):
    """Exact phase distribution.  Shot k>=stationary has the same distribution.
    Returns (first, phase) dicts of quantities."""
    first_d = shot(0)
    first = summarize(first_d, "")
    first["e_shots"] = F(1)
    flags_all = set()
    for d in (first_d, shot(stationary)):
        for p, fl, *_ in d:
            flags_all |= fl
    names = sorted(flags_all | {"p_hit", "p_critical", "p_multiple_hit", "p_malfunction",
                                "p_disabled", "p_ptc_or_worse", "p_mc_or_worse", "p_casualty",
                                "p_kia", "p_kill", "p_burn", "p_eliminated", "p_immobilized"})
    ph = {"e_shots": F(0), "e_hits": F(0)}
    outcome = {}
    endr = {}
    never = {n: F(0) for n in names}  # P(flag never seen and phase over)

    def end_shot(d, reach, notseen, k, is_if):
        """Account for a shot that may end the phase.  Returns (cont_prob, cont_notseen, if_prob, if_notseen)."""
        ph["e_shots"] += reach
        cont = F(0)
        cont_ns = {n: F(0) for n in names}
        ifp = F(0)
        if_ns = {n: F(0) for n in names}
        last_by_cap = cap is not None and k + 1 >= cap
        for p, fl, outc, end, hits in d:
            ph["e_hits"] += reach * p * hits
            if end in ("next", "rof") and last_by_cap:
                end = "cap"
            if is_if and end in ("next", "rof"):
                end = "if_done"
            if end == "rof" and intensive_ok and not is_if:
                ifp += reach * p
                for n in names:
                    if n not in fl:
                        if_ns[n] += notseen[n] * p
                continue
            if end == "next":
                cont += reach * p
                for n in names:
                    if n not in fl:
                        cont_ns[n] += notseen[n] * p
                continue
            outcome[outc] = outcome.get(outc, 0) + reach * p
            endr[end] = endr.get(end, 0) + reach * p
            for n in names:
                if n not in fl:
                    never[n] += notseen[n] * p
        return cont, cont_ns, ifp, if_ns

    def if_shot(k, reach, notseen):
        if reach == 0:
            return
        d = shot(k, True)
        end_shot(d, reach, notseen, k, True)

    reach = F(1)
    notseen = {n: F(1) for n in names}
    k = 0
    while True:
        if reach == 0:
            break
        if k >= stationary and cap is None:
            # geometric tail: every later shot has the distribution of shot k
            d = shot(k)
            s = sum(p for p, fl, o, e, h in d if e == "next")
            scale = 1 / (1 - s)
            # expected shots and hits, outcomes and ends: scale by 1/(1-s)
            q = {n: sum(p for p, fl, o, e, h in d if e == "next" and n not in fl) for n in names}
            # outcomes / ends / e_* are linear in reach: use reach*scale
            tmp_never = dict(never)
            c, cns, ifp, if_ns = end_shot(d, reach * scale, {n: F(0) for n in names}, k, False)
            # flags: P(never) contributions, notseen_n summed geometrically with ratio q[n]
            for n in names:
                sc = notseen[n] / (1 - q[n])
                never[n] = tmp_never[n] + sum(p for p, fl, o, e, h in d
                                             if n not in fl and e not in ("next",)
                                             and not (e == "rof" and intensive_ok)) * sc
                if_ns[n] = sum(p for p, fl, o, e, h in d
                               if n not in fl and e == "rof" and intensive_ok) * sc
            if intensive_ok:
                if_shot(k + 1, ifp, if_ns)
            break
        d = shot(k)
        c, cns, ifp, if_ns = end_shot(d, reach, notseen, k, False)
        if intensive_ok:
            if_shot(k + 1, ifp, if_ns)
        reach, notseen = c, cns
        k += 1
        if cap is not None and k >= cap:
            break
    for n in names:
        ph[n] = 1 - never[n]
    for o, p in outcome.items():
        ph["outcome_" + o] = p
    for e, p in endr.items():
        ph["end_" + {"rof": "rof_exhausted", "malf": "malfunction", "destroyed": "target_destroyed",
                     "effect": "target_effect", "cap": "shot_cap",
                     "if_done": "intensive_fire_done"}[e]] = p
    return first, ph


# --------------------------------------------------------------------------- generator

GUNS = ["20L", "20LL", "25LL", "37", "37L", "37*", "40", "45L", "47", "50L", "57", "57L",
        "75", "75L", "75*", "76L", "81", "88L", "105", "122L", "150", "150*", "37LL", "28LL"]


def gen_situation(r):
    kind = r.choice(["itt", "itt", "area", "mg", "mg_veh"])
    firer, target, fire = {}, {}, {}
    if kind in ("itt", "area"):
        firer["nationality"] = r.choice(["german", "russian"])
        if r.random() < 0.2:
            firer["th_color"] = r.choice(["red", "black"])
        firer["gun"] = r.choice(GUNS)
        firer["ammo"] = "HE" if kind == "area" or r.random() < 0.8 else "AP"
        firer["rof"] = r.choice([0, 0, 1, 2, 3])
        if r.random() < 0.3:
            firer["breakdown"] = r.choice([10, 11, 12])
        if r.random() < 0.3:
            firer["gun_type"] = r.choice(["T", "ST", "NT"])
        target["type"] = "infantry" if kind == "itt" else "area"
        phase = r.choice(["prep", "defensive", "final", "advancing"])
        fire["phase"] = phase
        rng = r.choice([0, 1, 2, 3, 5, 8, 12, 13, 18, 20, 25, 30, 37, 45, 50, 58])
        if kind == "area" and rng == 0:
            rng = 4
        fire["range"] = rng
        if rng == 0:
            fire["same_hex"] = True
        if phase == "defensive" and rng > 0:
            if r.random() < 0.4:
                target["ffnam"] = True
            if r.random() < 0.4:
                target["ffmo"] = True
        if not target.get("ffmo") and r.random() < 0.7:
            target["tem"] = r.choice([-1, 0, 1, 2, 3, 4])
        if target.get("ffmo") and r.random() < 0.3:
            target["tem"] = r.choice([-1, 0])
        if r.random() < 0.3:
            target["hindrance"] = r.choice([1, 2, 3])
        if r.random() < 0.3:
            fire["ca_change"] = r.choice([1, 2, 3])
        if r.random() < 0.3:
            fire["firer_terrain"] = r.choice(["open", "woods", "building", "rubble"])
        if r.random() < 0.3:
            fire["buttoned_up"] = True
        if r.random() < 0.3:
            fire["acquisition"] = r.choice([1, 2])
        if r.random() < 0.3:
            fire["extra_drm"] = r.choice([-2, -1, 1, 2])
        if r.random() < 0.15 and phase != "advancing":
            fire["pinned"] = True
        if r.random() < 0.12:
            firer["captured"] = True
        if (r.random() < 0.25 and phase != "advancing" and not fire.get("pinned")
                and kind == "itt"):
            fire["intensive_fire"] = True
        if r.random() < 0.25:
            fire["max_shots"] = r.choice([1, 2, 3, 5])
        if r.random() < 0.3:
            stop = r.choice(["destroyed", "effect", "never"])
            # "never" goes on firing at a destroyed target, whose fate is settled: this model's phase
            # solver has no wreck state, so ammo_model.py checks that reading; here it is "destroyed".
            fire["stop_on"] = "destroyed" if stop == "never" else stop
    else:
        ife = r.random() < 0.35
        firer["weapon"] = "ife" if ife else "mg"
        if ife:
            firer["gun"] = r.choice(["20L", "20LL", "37L", "25LL", "15"])
            firer["fp"] = r.choice([2, 4, 6, 8, 12])
        else:
            firer["fp"] = r.choice([1, 2, 3, 4, 6, 8, 12])
            firer["normal_range"] = r.choice([4, 6, 8, 10, 12])
        firer["rof"] = r.choice([0, 1, 2, 3])
        if r.random() < 0.3:
            firer["gun_type"] = r.choice(["T", "ST", "NT"])
        if r.random() < 0.2:
            firer["bow_mounted"] = True
        phase = r.choice(["prep", "defensive", "final", "advancing", "bounding"])
        fire["phase"] = phase
        nr = 16 if ife else firer["normal_range"]
        rng = r.choice([0, 1, 2, 3, nr, nr + 1, 2 * nr, r.randint(1, 2 * nr)])
        fire["range"] = rng
        if rng == 0:
            fire["same_hex"] = True
        if phase != "bounding" and r.random() < 0.1:
            fire["pinned"] = True
        if kind == "mg_veh":
            target["type"] = "vehicle"
            target["armor"] = "unarmored"
        else:
            target["type"] = "infantry"
            if phase == "defensive":
                if r.random() < 0.4:
                    target["ffnam"] = True
                if r.random() < 0.4:
                    target["ffmo"] = True
            if r.random() < 0.2:
                target["concealed"] = True
        if not target.get("ffmo") and r.random() < 0.6:
            target["tem"] = r.choice([-1, 0, 1, 2, 3])
        if r.random() < 0.3:
            target["hindrance"] = r.choice([1, 2])
        if r.random() < 0.3 and phase != "bounding":
            fire["ca_change"] = r.choice([1, 2])
        if rng == 0:
            for k in ("ffmo", "ffnam"):
                target.pop(k, None)
        if r.random() < 0.2:
            fire["firer_terrain"] = r.choice(["open", "woods"])
        if phase not in ("prep", "bounding") and r.random() < 0.2:
            fire["motion"] = True
        if r.random() < 0.3:
            fire["extra_drm"] = r.choice([-1, 1, 2])
        if r.random() < 0.25:
            fire["max_shots"] = r.choice([1, 2, 3])
        if r.random() < 0.3:
            stop = r.choice(["destroyed", "effect", "never"])
            # "never" goes on firing at a destroyed target, whose fate is settled: this model's phase
            # solver has no wreck state, so ammo_model.py checks that reading; here it is "destroyed".
            fire["stop_on"] = "destroyed" if stop == "never" else stop
        # keep the FP at >= 1 after halvings
        fp = F(firer["fp"]) * (2 if rng == 1 else 1) * (3 if rng == 0 else 1)
        if fire.get("pinned") or phase == "bounding":
            fp /= 2
        if rng > nr:
            fp /= 2
        if target.get("concealed"):
            fp /= 2
        if phase == "advancing":
            fp /= 2
        if fire.get("motion"):
            fp /= 2
        if fp < 1:
            firer["fp"] = firer["fp"] * 4 if firer["fp"] * 4 <= 36 else 36
    return {"firer": firer, "target": target, "fire": fire}


MORTARS = ["50", "60", "81", "82", "107", "120"]


def gen_mortar_or_woods(r):
    """A mortar on the Area Target Type, or ordnance HE / AP / MG fire at a unit in woods."""
    kind = r.choice(["mortar", "mortar", "gun_woods", "mg_woods"])
    firer, target, fire = {}, {}, {}
    if kind == "mg_woods":
        sit = gen_situation(r)
        while sit["firer"].get("weapon") not in ("mg", "ife") or sit["target"].get("type") != "infantry":
            sit = gen_situation(r)
        t = sit["target"]
        t.pop("ffmo", None)
        t["terrain"] = "woods"
        t["tem"] = 1
        return sit
    if kind == "gun_woods":
        sit = gen_situation(r)
        while sit["firer"].get("weapon", "gun") != "gun":
            sit = gen_situation(r)
        t = sit["target"]
        t.pop("ffmo", None)
        t["terrain"] = "woods"
        if r.random() < 0.25:
            t["entrenched"] = True
            t["tem"] = r.choice([1, 2, 3, 4])
        else:
            t["tem"] = 1
        return sit
    cal = r.choice(MORTARS)
    light = int(cal) <= 60
    firer["nationality"] = r.choice(["german", "russian"])
    firer["gun"] = cal
    firer["mortar"] = True
    firer["ammo"] = "HE"
    firer["rof"] = r.choice([0, 1, 2, 3, 3])
    firer["min_range"] = r.choice([1, 2, 3])
    if r.random() < 0.3:
        firer["max_range"] = r.choice([17, 31, 60, 150])
    if r.random() < 0.3:
        firer["breakdown"] = r.choice([10, 11, 12])
    firer["vehicle"] = False if light else r.random() < 0.3
    if not light:
        firer["gun_type"] = r.choice(["T", "ST", "NT", "NT"])
    target["type"] = "area"
    phase = r.choice(["prep", "defensive", "final", "advancing"])
    fire["phase"] = phase
    hi = firer.get("max_range", 80)
    fire["range"] = r.choice([firer["min_range"], r.randint(firer["min_range"], min(hi, 12)),
                              r.randint(firer["min_range"], hi)])
    if phase == "defensive" and r.random() < 0.4:
        target["ffnam"] = True
    if r.random() < 0.5:
        target["terrain"] = "woods"
        if r.random() < 0.25:
            target["entrenched"] = True
            target["tem"] = r.choice([1, 2, 3])
        else:
            target["tem"] = 1
    elif r.random() < 0.6:
        target["tem"] = r.choice([-1, 0, 1, 2, 3])
    if r.random() < 0.3:
        target["hindrance"] = r.choice([1, 2])
    if not light and r.random() < 0.3:
        fire["ca_change"] = r.choice([1, 2])
    if r.random() < 0.3:
        fire["acquisition"] = r.choice([1, 2])
    if r.random() < 0.3:
        fire["extra_drm"] = r.choice([-1, 1, 2])
    if r.random() < 0.15 and phase != "advancing":
        fire["pinned"] = True
    if (not light and r.random() < 0.2 and phase != "advancing" and not fire.get("pinned")
            and not (fire.get("ca_change") and not firer["vehicle"])):
        fire["intensive_fire"] = True
    if r.random() < 0.25:
        fire["max_shots"] = r.choice([1, 2, 3, 5])
    if r.random() < 0.3:
        fire["stop_on"] = r.choice(["destroyed", "effect"])
    return {"firer": firer, "target": target, "fire": fire}


# --------------------------------------------------------------------------- driver
SECTIONS = ("firer", "target", "fire")


def first_shot_only(part, k):
    """outcome_* and end_* are the phase's, not the first shot's"""
    return part == "first_shot" and (k.startswith("outcome_") or k.startswith("end_"))


def main(argv=None):
    ap = harness.arguments(__doc__, count=400, readings=READINGS)
    ap.add_argument("--mortar-count", type=int, default=120,
                    help="mortar and woods (Air Burst) situations after the others (default 120)")
    a = harness.parse(ap, argv)
    h = harness.Run(a)
    r = random.Random(a.seed)
    r_mortar = random.Random("mortar-air-burst-%d" % a.seed)  # its own stream: the others are unchanged

    def cases():
        for i in range(a.count):
            sit = gen_situation(r)
            text = harness.toml_text(sit, SECTIONS, head=[("ruleset", "asl")], blank_lines=True)
            yield "s%05d.toml" % i, text, sit
        for i in range(max(0, a.mortar_count)):
            sit = gen_mortar_or_woods(r_mortar)
            text = harness.toml_text(sit, SECTIONS, head=[("ruleset", "asl")], blank_lines=True)
            yield "m%05d.toml" % i, text, sit

    def check(path, sit):
        values, stop = h.values(path)
        if stop:
            return stop
        first, ph = Model(sit, a.salvo_reading).run()
        # a quantity salvo leaves out is 0 there; one the model leaves out is 0 here
        return h.compare({"first_shot": first, "phase": ph}, values,
                         absent="zero", extra="zero", skip=first_shot_only)

    return h.run(cases(), check)


if __name__ == "__main__":
    sys.exit(main())
