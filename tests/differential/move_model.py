#!/usr/bin/env python3
"""Independent exact model of salvo's ASL movement rolls and moving fire.

Rules modelled (from the rule texts, not from salvo's sources):
  D2.5 ESB, D2.51 mechanical reliability, D2.401 Motion attempt;
  C3 To Hit (Vehicle Target Type), C3.6/C3.7 Improbable/Critical Hits, C3.9 location,
  C4 barrel-length mods, C5.2 Case B, C5.3-.33 Case C/C1/C2 (+1 MP per further shot),
  C5.35 Case C4, D3.32 AFPh follow-up, C5.5 Case E + D3.2 colored-dr facing, C5.9 Case I,
  C6.1-.12/C6.17 Case J/J1/J2, C6.3 Case L, C6.5/C6.55 Acquisition, C6.7-.9 Cases P/Q/R,
  D4.2 hull down, C7.31 AP TK (>=65mm), C7.24 Case D, C7.7 outcomes, C2.24 ROF, A9.7 B#.

It writes random situation files (fixed seed), runs `salvo odds FILE --format json` on each and
compares every quantity it models to 1e-9 with its own exact enumeration (fractions.Fraction).
A situation salvo refuses is counted apart (a refused valid movement roll is a failure).

Usage: move_model.py SALVO [--count N] [--seed S] [--keep DIR] [--show K] [--only KIND]
Exit 0 if every compared quantity agrees, 1 otherwise, 2 on a usage error.

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

# ---------------------------------------------------------------- readings
# Readings of the rule text where an easier reading was possible (salvo follows them too).
READINGS = {
    # C6.17 + EX: each further Defensive First Fire shot at the same target in the same
    # Location needs another MP of the target, so shot k sees mp_in_los + k (J2 -> J1 -> J).
    "j_progression": True,
    # C5.3: Case C already contains Case B (+2); a Motion firer in the AFPh adds no separate B.
    "no_double_case_b": True,
    # C5.31/C5.32: "Case C1/C2 does not apply in the AFPh".
    "no_c1c2_in_afph": True,
}

# ---------------------------------------------------------------- movement
MANUF = {"american": 0, "czech": 0, "russian": 1, "british": 2, "german": 2,
         "french": 3, "italian": 3, "other": 3}


def frd(x):
    import math
    return math.floor(x)


def fru(x):
    import math
    return math.ceil(x)


def movement_model(mv):
    roll = mv["roll"]
    out = {}
    if roll == "esb":
        sought = mv["mp_sought"]
        red = mv.get("red_mp", False)
        drm = (fru(sought) if red else frd(sought)) + MANUF[mv.get("manufacturer", "german")] + mv.get("drm", 0)
        imm = sum(P36 for c, w in DICE if c + w + drm >= 12)          # D2.5: Final DR >= 12
        out = {"p_success": 1 - imm, "p_immobilized": imm, "outcome_success": 1 - imm,
               "outcome_failed": F(0), "outcome_immobilized": imm}
    elif roll == "start":
        imm = P36                                                     # D2.51: a 12
        out = {"p_success": 1 - imm, "p_immobilized": imm, "outcome_success": 1 - imm,
               "outcome_failed": F(0), "outcome_immobilized": imm}
    elif roll == "motion":
        m = mv["mp_in_los"]
        ok = sum(P6 for d in range(1, 7) if d <= m)                   # D2.401: dr <= MP in LOS
        imm = ok * P36 if mv.get("red_mp", False) else F(0)           # D2.51 after success
        out = {"p_success": ok - imm, "p_immobilized": imm, "outcome_success": ok - imm,
               "outcome_failed": 1 - ok, "outcome_immobilized": imm}
    return {"first_shot": out, "phase": out}


def movement_valid(mv):
    if mv["roll"] == "esb":
        return mv["mp_sought"] <= mv["mp_allotment"] // 4 and mv["mp_sought"] >= 0.5
    return True

# ---------------------------------------------------------------- fire
VEH_BLACK = [10, 9, 8, 7, 6, 6, 5, 4, 3, 2]
VEH_RED = [10, 8, 7, 6, 5, 4, 3, 2, 1, 0]
AP_TK = {"75": 14, "75L": 17, "75LL": 23, "88LL": 27, "105": 14, "75*": 10, "88L": 20}
SIZE = {"very_large": -2, "large": -1, "average": 0, "small": 1, "very_small": 2}
AFS = [0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26]


def band(r):
    return 0 if r <= 6 else min(9, (r - 1) // 6)


def color(fr):
    nat = fr.get("nationality", "german")
    if nat in ("german", "british"):
        return "black"
    if nat == "american":
        return "black" if fr.get("year", 1944) >= 1944 else "red"
    return "red"


def modified_th(fr, rng):
    t = (VEH_BLACK if color(fr) == "black" else VEH_RED)[band(rng)]
    g = fr.get("gun", "75")
    if g.endswith("*") and rng > 12:
        t -= 1
    elif g.endswith("LL"):
        t += (2 if rng > 24 else 1) if rng > 12 else 0
    elif g.endswith("L") and rng > 12:
        t += 1
    return t


def case_d_ap65(r):   # C7.24, >= 65mm row
    if r <= 1:
        return 1
    if r <= 18:
        return 0
    if r <= 30:
        return -1
    if r <= 42:
        return -2
    return -3


def shot_drm(s, k, follow):
    """Total To Hit DRM and whether the lower die doubles, for shot index k (0-based)."""
    fr, tg, fi = s["firer"], s["target"], s["fire"]
    phase = fi.get("phase", "prep")
    motion = fi.get("motion", False)
    stab = fr.get("stabilized", False)
    gt = fr.get("gun_type", "T")
    terr = fi.get("firer_terrain", "open")
    moving_firer = phase == "bounding" or motion or follow
    d = 0
    dbl = False
    case_c = moving_firer or follow
    if phase == "advancing" and not follow:
        if not (case_c and READINGS["no_double_case_b"]):
            d += 3 if terr != "open" else 2                                   # C5.2
    if case_c:
        d += 2 + (1 if stab else {"T": 2, "ST": 2, "NT": 3}[gt])               # C5.3
        lm = fi.get("los_mp")
        afph = phase == "advancing" and READINGS["no_c1c2_in_afph"]
        if lm is not None and not follow and not afph:
            m = lm + (k if phase == "bounding" else 0)                        # C5.3: +1 MP/shot
            if m <= 2:
                d += 2                                                        # C5.32
            elif m <= 3:
                d += 1                                                        # C5.31
        if motion:
            if stab:
                d += 1                                                        # C5.35
            else:
                dbl = True
    if fi.get("same_hex", False):
        d += 4 if terr != "open" else 2                                       # C5.5
    if fi.get("buttoned_up", False):
        d += 1                                                                # C5.9
    if tg.get("moving", False):
        mt = tg.get("mp_in_los")
        if phase == "defensive" and mt is not None:
            m = mt + (k if READINGS["j_progression"] else 0)
            d += 4 if m <= 1 else 3 if m <= 3 else 2                         # C6.11-.12
        else:
            d += 2                                                            # C6.1
    rng = fi.get("range", 6)
    if not fi.get("same_hex", False) and not motion and not tg.get("moving", False):
        d += {1: -2, 2: -1}.get(rng, 0)                                      # C6.3 (NA vs a moving vehicle)
    acq0 = fi.get("acquisition", 0)
    if moving_firer and not stab:
        acq = 0                                                               # C6.55
    else:
        acq = min(2, acq0 + k)                                                # C6.5, C6.53
    d -= acq
    d += SIZE[tg.get("size", "average")]                                      # C6.7
    d += tg.get("tem", 0) + tg.get("hindrance", 0)                            # C6.8, C6.9
    d += fi.get("extra_drm", 0)
    return d, dbl


def tk_dist(fr, tg, fi, crit, turret, facing):
    """Distribution of TK results for one hit."""
    basic = AP_TK[fr.get("gun", "75")]
    if crit:
        basic *= 2                                                            # C3.72
    if facing == "rear":
        basic += 1                                                            # C7.21
    basic += case_d_ap65(fi.get("range", 6))                                 # C7.24
    arm = tg.get("armor", {})
    side = "front" if facing == "front" else "side"
    af = arm.get(("turret_" if turret else "hull_") + side, 8)
    fin = basic - af
    res = {}
    for c, w in DICE:
        dr = c + w
        if dr == 12:
            r = "dud"
        elif 2 * dr <= fin:
            r = "burn"
        elif dr < fin:
            r = "elim"
        elif dr == fin:
            r = "shock" if turret else "immob"
        elif dr == fin + 1:
            r = "pshock"
        else:
            r = "none"
        res[r] = res.get(r, 0) + P36
    return res


FLAG_OF = {"dud": {"dud"}, "burn": {"kill", "burn"}, "elim": {"kill", "eliminated"},
           "shock": {"shock"}, "immob": {"immobilized"}, "pshock": {"possible_shock"},
           "none": set()}


def shot_outcomes(s, k, follow):
    """List of (prob, flags, hits, continue) for one shot."""
    fr, tg, fi = s["firer"], s["target"], s["fire"]
    th = modified_th(fr, fi.get("range", 6))
    d, dbl = shot_drm(s, k, follow)
    hd = tg.get("hull_down", False)
    bnum = fr.get("breakdown", 12)
    rof = fr.get("rof", 0)
    if fi.get("phase") == "advancing" or follow:
        rof = 0                                                               # C5.2, D3.32
    lowest = (3 if dbl else 2) + d
    outs = []
    for c, w in DICE:
        orig = c + w
        final = orig + (min(c, w) if dbl else 0) + d
        facing = fi.get("same_hex") and (("rear", "rear", "side", "side", "front", "front")[c - 1]) \
            or tg.get("facing", "front")                                     # D3.2
        malf = orig >= bnum
        cont = (c <= rof) and not malf
        # list of (prob, hit?, crit, turret)
        cases = []
        if lowest > th:                                                       # C3.6
            if orig == 2:
                cases = [(P6, True, True, hd), (P6, True, False, True),
                         (P6, not hd, False, False), (F(3, 6), False, False, False)]
            else:
                cases = [(F(1), False, False, False)]
        elif lowest == th:                                                    # C3.7 EXC
            if final <= th:
                cases = [(P6, True, True, hd), (F(5, 6), True, False, hd)]
            else:
                cases = [(F(1), False, False, False)]
        else:
            if final <= th:
                turret = c < w                                                # C3.9
                if orig == 2:
                    cases = [(F(1), True, True, hd or turret)]
                elif hd and not turret:
                    cases = [(F(1), False, False, False)]                     # D4.2
                else:
                    cases = [(F(1), True, False, turret)]
            else:
                cases = [(F(1), False, False, False)]
        for p, hit, crit, turret in cases:
            base = {"malfunction"} if malf else set()
            if not hit:
                outs.append((P36 * p, frozenset(base), 0, cont))
                continue
            base |= {"hit"}
            if crit:
                base |= {"critical"}
            for r, q in tk_dist(fr, tg, fi, crit, turret, facing).items():
                fl = base | FLAG_OF[r]
                outs.append((P36 * p * q, frozenset(fl), 1, cont and "kill" not in fl))
    return outs


FLAGS = ["hit", "critical", "kill", "burn", "eliminated", "immobilized", "shock",
         "possible_shock", "dud", "malfunction"]


def fire_model(s):
    fi = s["fire"]
    maxs = fi.get("max_shots")
    follow = fi.get("phase") == "bounding" and fi.get("follow_up", False)
    K = 8   # shot parameters are stationary from here on (acq <= 2, MP progressions > 3)
    cache = {}

    def outs(k, fol):
        key = (min(k, K), fol)
        if key not in cache:
            cache[key] = shot_outcomes(s, min(k, K), fol)
        return cache[key]

    # chain over shot index; value(k) = (P(no flag X) for each X, E[shots], E[hits]) from shot k on
    memo = {}

    def value(k, fol):
        if (k, fol) in memo:
            return memo[(k, fol)]
        if fol:
            o = outs(k, True)
            noflag = {x: sum(p for p, fl, h, c in o if x not in fl) for x in FLAGS}
            r = (noflag, F(1), sum(p * h for p, fl, h, c in o))
            memo[(k, fol)] = r
            return r
        o = outs(k, False)
        last = maxs is not None and k + 1 >= maxs
        if last or (maxs is None and k >= K):
            pass
        if maxs is None and k >= K:
            # stationary: solve x = a + b x  for each quantity
            pc = sum(p for p, fl, h, c in o if c)
            noflag = {}
            for x in FLAGS:
                a = sum(p for p, fl, h, c in o if x not in fl and not c)
                b = sum(p for p, fl, h, c in o if x not in fl and c)
                noflag[x] = a / (1 - b)
            es = F(1) / (1 - pc)
            eh = sum(p * h for p, fl, h, c in o) / (1 - pc)
            r = (noflag, es, eh)
            memo[(k, fol)] = r
            return r
        if last:
            nxt_nf, nxt_es, nxt_eh = (None, None, None)
            if follow:
                nxt_nf, nxt_es, nxt_eh = value(k + 1, True)
        else:
            nxt_nf, nxt_es, nxt_eh = value(k + 1, False)
        noflag = {}
        for x in FLAGS:
            tot = F(0)
            for p, fl, h, c in o:
                if x in fl:
                    continue
                tot += p * (nxt_nf[x] if (c and nxt_nf is not None) else 1)
            noflag[x] = tot
        es = F(1) + sum(p for p, fl, h, c in o if c and nxt_nf is not None) * (nxt_es or 0)
        eh = sum(p * h for p, fl, h, c in o) + \
            sum(p for p, fl, h, c in o if c and nxt_nf is not None) * (nxt_eh or 0)
        r = (noflag, es, eh)
        memo[(k, fol)] = r
        return r

    o0 = outs(0, False)
    first = {"p_" + x: sum(p for p, fl, h, c in o0 if x in fl) for x in FLAGS}
    first["e_shots"] = F(1)
    first["e_hits"] = sum(p * h for p, fl, h, c in o0)
    nf, es, eh = value(0, False)
    phase = {"p_" + x: 1 - nf[x] for x in FLAGS}
    phase["e_shots"] = es
    phase["e_hits"] = eh
    return {"first_shot": first, "phase": phase}

# ---------------------------------------------------------------- Infantry Target Type (p_hit only)
INF_BLACK = [8, 7, 6, 5, 4, 3, 2, 1, 0, -1]
INF_RED = [8, 6, 5, 4, 3, 2, 1, 0, -1, -2]
READINGS["no_j3j4_with_case_e"] = True   # C5.5: J3, J4, L, M not applicable with Case E


def itt_model(s):
    fr, tg, fi = s["firer"], s["target"], s["fire"]
    rng = fi.get("range", 6)
    th = (INF_BLACK if color(fr) == "black" else INF_RED)[band(rng)] + modified_th(fr, rng) - \
        (VEH_BLACK if color(fr) == "black" else VEH_RED)[band(rng)]
    d = 0
    same = fi.get("same_hex", False)
    if same:
        d += 4 if fi.get("firer_terrain", "open") != "open" else 2             # C5.5
    if fi.get("buttoned_up", False):
        d += 1
    if tg.get("moving", False):
        d += 2                                                                # C6.1 (Dash)
    if fi.get("phase") == "defensive" and not (same and READINGS["no_j3j4_with_case_e"]):
        d -= 1 if tg.get("ffnam", False) else 0                               # C6.13
        d -= 1 if tg.get("ffmo", False) else 0                                # C6.14
    if not same:
        d += {1: -2, 2: -1}.get(rng, 0)                                       # C6.3
    d += tg.get("tem", 0) + tg.get("hindrance", 0) + fi.get("extra_drm", 0)
    lowest = 2 + d
    ph = F(0)
    for c, w in DICE:
        if lowest > th:
            ph += P36 * F(3, 6) if c + w == 2 else 0                          # C3.6
        elif c + w + d <= th:
            ph += P36
    return {"first_shot": {"p_hit": ph}, "phase": {"p_hit": ph}}


def gen_itt(rnd):
    fr = {"nationality": rnd.choice(["german", "russian", "american"]), "year": rnd.choice([1943, 1944]),
          "gun": rnd.choice(list(AP_TK)), "ammo": "HE", "rof": 0}
    tg = {"type": "infantry"}
    fi = {"phase": rnd.choice(["defensive", "defensive", "final", "prep"])}
    if rnd.random() < 0.3:
        fi["same_hex"] = True
        fi["range"] = 0
    else:
        fi["range"] = rnd.choice([1, 2, 3, 6, 7, 13, 25])
    if fi["phase"] == "defensive":
        if rnd.random() < 0.5:
            tg["ffmo"] = True
        if rnd.random() < 0.5:
            tg["ffnam"] = True
    if rnd.random() < 0.3:
        tg["moving"] = True
    if "ffmo" not in tg and rnd.random() < 0.4:
        tg["tem"] = rnd.randint(-1, 3)
    if rnd.random() < 0.3:
        tg["hindrance"] = rnd.randint(1, 3)
    if rnd.random() < 0.3:
        fi["firer_terrain"] = rnd.choice(["woods", "building"])
    fi["buttoned_up"] = rnd.random() < 0.5
    if rnd.random() < 0.4:
        fi["extra_drm"] = rnd.randint(-3, 6)
    return {"firer": fr, "target": tg, "fire": fi}


# ---------------------------------------------------------------- generator
def gen_movement(rnd):
    roll = rnd.choice(["esb", "esb", "start", "motion"])
    mv = {"roll": roll}
    if roll == "esb":
        mv["mp_allotment"] = rnd.randint(2, 40)
        cap = mv["mp_allotment"] // 4
        mv["red_mp"] = rnd.random() < 0.4
        if cap < 1:
            mv["mp_allotment"] = rnd.randint(4, 40)
            cap = mv["mp_allotment"] // 4
        mv["mp_sought"] = rnd.choice([x / 2 for x in range(1, 2 * cap + 1)])
        if mv["mp_sought"] == int(mv["mp_sought"]):
            mv["mp_sought"] = int(mv["mp_sought"])
        mv["manufacturer"] = rnd.choice(list(MANUF))
        if rnd.random() < 0.3:
            mv["drm"] = rnd.randint(-3, 3)
    elif roll == "start":
        mv["red_mp"] = True
    else:
        mv["mp_in_los"] = rnd.choice([0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7])
        mv["red_mp"] = rnd.random() < 0.5
    return {"movement": mv}


def gen_fire(rnd):
    fr, tg, fi = {}, {}, {}
    fr["nationality"] = rnd.choice(["german", "russian", "american", "british", "italian"])
    fr["year"] = rnd.choice([1942, 1943, 1944, 1945])
    fr["gun"] = rnd.choice(list(AP_TK))
    fr["rof"] = rnd.choice([0, 1, 1, 2, 2, 3])
    fr["gun_type"] = rnd.choice(["T", "T", "ST", "NT"])
    fr["stabilized"] = rnd.random() < 0.4
    if rnd.random() < 0.2:
        fr["breakdown"] = rnd.choice([9, 10, 11])
    tg["armor"] = {a: rnd.choice(AFS) for a in ("hull_front", "hull_side", "turret_front", "turret_side")}
    tg["facing"] = rnd.choice(["front", "side", "rear"])
    tg["size"] = rnd.choice(list(SIZE))
    phase = rnd.choice(["prep", "defensive", "defensive", "final", "bounding", "bounding", "advancing"])
    fi["phase"] = phase
    tg["moving"] = rnd.random() < 0.6
    if tg["moving"] and phase == "defensive" and rnd.random() < 0.8:
        tg["mp_in_los"] = rnd.choice([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 6])
    if rnd.random() < 0.3:
        tg["hull_down"] = True
    elif rnd.random() < 0.4:
        tg["tem"] = rnd.randint(-1, 3)
    if rnd.random() < 0.3:
        tg["hindrance"] = rnd.randint(1, 3)
    if rnd.random() < 0.2:
        fi["same_hex"] = True
        fi["range"] = 0
    else:
        fi["range"] = rnd.choice([1, 2, 3, 5, 6, 7, 12, 13, 18, 19, 24, 25, 30])
    fi["buttoned_up"] = rnd.random() < 0.5
    if rnd.random() < 0.3:
        fi["firer_terrain"] = rnd.choice(["woods", "building", "rubble"])
    if phase != "prep" and rnd.random() < 0.35:
        fi["motion"] = True
    if phase == "bounding" or fi.get("motion"):
        if rnd.random() < 0.8:
            fi["los_mp"] = rnd.choice([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4])
    if rnd.random() < 0.4:
        fi["acquisition"] = rnd.randint(1, 2)
    if rnd.random() < 0.3:
        fi["extra_drm"] = rnd.randint(-2, 2)
    if rnd.random() < 0.4 or phase == "bounding" and rnd.random() < 0.5:
        fi["max_shots"] = rnd.randint(1, 4)
    if phase == "bounding" and "max_shots" in fi and rnd.random() < 0.6:
        fi["follow_up"] = True
    return {"firer": fr, "target": tg, "fire": fi}


# ---------------------------------------------------------------- driver
SECTIONS = ("movement", "firer", "target", "fire")
KINDS = {"movement": (gen_movement, movement_model), "fire": (gen_fire, fire_model),
         "itt": (gen_itt, itt_model)}


def main(argv=None):
    ap = harness.arguments(__doc__, count=300)
    ap.add_argument("--only", choices=list(KINDS), default=None)
    a = harness.parse(ap, argv)
    h = harness.Run(a)
    rnd = random.Random(a.seed)

    def cases():
        for i in range(a.count):
            if a.only:
                kind = a.only
            else:
                u = rnd.random()
                kind = "movement" if u < 0.2 else "itt" if u < 0.35 else "fire"
            s = KINDS[kind][0](rnd)
            name = "s%05d" % i
            text = harness.toml_text(s, SECTIONS, head=[("ruleset", "asl"), ("name", name)])
            yield name + ".toml", text, (kind, s)

    def check(path, case):
        kind, s = case
        odds = h.odds(path)
        if odds.code != 0:
            if kind == "movement" and movement_valid(s["movement"]):
                return ["salvo refused a valid movement roll: " + odds.error]
            return harness.Refused(odds.error)
        if odds.error:
            return [odds.error]
        model = KINDS[kind][1](s["movement"] if kind == "movement" else s)
        return h.compare(model, odds.values, extra="ignore")

    return h.run(cases(), check)


if __name__ == "__main__":
    sys.exit(main())
