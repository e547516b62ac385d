#!/usr/bin/env python3
"""Differential test: ASL Covered Arc geometry and To Hit Case A, against salvo.

What it models
--------------
An independent model of the Advanced Squad Leader Covered Arc (CA) rules and the
To Hit Case A DRM for changing it, written from the rule texts (C3.2, C5.1-C5.13,
C5.5/C5.51, D3.11-D3.12, D3.51, D2.3-D2.33/D2.321, C2.5, C3.6/C3.7) and from the
readings salvo states in its user documentation -- not from salvo's code.

  * Directions are the six hexspines 0..5 (clockwise).  ``fire.vca``/``fire.tca``
    are where hull and turret (or a Gun's CA) point, ``fire.target_direction``
    the arc holding the target; the change is the shorter way round (0..3).
  * C5.1: first hexspine T +1, ST +2, NT +3; +1 per further hexspine.
    C5.11: doubled for a firer in woods, building or rubble (also in Bypass).
    C5.12: only on the shot that changes the CA (later shots carry no Case A).
    C5.13: never for Bounding First Fire.
  * D3.11-.12: a bow-mounted weapon (always NT) and an NT vehicle weapon fire in
    the VCA; NT Case A for changing the VCA.  A Gun (not a vehicle) uses fire.tca.
  * D3.51: a pivot turns the VCA to the target (NT), the TCA turning with it; the
    turret then pays its own Case A for the further TCA change (= the turret's
    offset from the hull).  ``maintained_ca``: a second turret weapon pays the
    first's penalty as is.
  * D2.32/D2.321 Bypass: VCA = CAFP; Target Facings front (CAFP), rear (opposite),
    two sides (CAFP+1/+2 right, CAFP-1/-2 left).  Case A counts Target Facings,
    +1 for a change to or through a side facing (added before any doubling);
    firing inside a side TCA pays the first-facing Case A unless with existing
    Acquisition.  Bow/NT weapons in Bypass cannot fire outside the front facing
    (D2.33, D2.35); no Bypass in rubble (D2.31); Bypass needs a CAFP; a hexspine
    count (``ca_change``) has no meaning in Bypass and is refused (D2.321).
  * C5.51: same-hex fire changes the CA (and pays Case A) only in Defensive
    First/Final Fire or with the firer or target in Bypass; salvo refuses CA
    geometry for same-hex fire otherwise (its documented reading).
  * C2.5: a non-vehicular NT Gun's CA-changing shot has its ROF lowered by 1; with
    ROF 0 it is marked Intensive Fire (no Intensive Fire shot that phase).
  * Other DRM in the p_hit check: Case C (C5.3) for Bounding First Fire, T/ST +4,
    NT +5 -- a bow-mounted Gun counts as NT (D3.11); Acquisition ignored for a
    non-stabilized Bounding firer (C6.55); Case E +2, doubled in woods/building/
    rubble unless the firer or the target is in Bypass (salvo's reading); Case I.
  * salvo's documented readings followed: Bounding First Fire takes any arc
    geometry (the CA is changed by MP first, C5.13) but refuses ``ca_change`` > 0;
    ``maintained_ca``/``target_direction``/``ca_change`` > 0 refused for same-hex
    fire outside DFF/Final/Bypass; Intensive Fire refused after a C2.5 shot at ROF 0.
  * ``--salvo-reading bow-case-c``: accept a Case C for a bow-mounted Gun by its
    ``gun_type`` (T/ST +4) instead of NT (+5), an earlier reading of salvo's.
  * p_hit of the first shot follows from the Modified TH# (``[override]``) and
    the total DRM by counting the 36 ordered dice; when even the lowest Final DR
    misses, only an Original 2 with a subsequent dr 1-3 hits (C3.6): 1/72.

Compared per situation: the Case A lines of ``salvo explain`` (shot 1 total; no
Case A on a second shot), the first-shot ``p_hit`` and, where the situation
fixes it, the phase ``e_shots`` of ``salvo odds --format json``; refusals (exit
code 2) against the model's notion of an illegal situation.  The D3.51 and
D2.321 worked examples run every time as fixed cases.

Usage
-----
    arc_model.py SALVO [--count N] [--seed S] [--keep DIR] [--show K]
                 [--salvo-reading NAME ...]

Default: 800 random situations (about 20 s) plus the worked examples.
Exit status: 0 all agree, 1 any disagreement, 2 usage error.

The glue - command line, running salvo, comparing to 1e-9, the report - is harness.py's,
shared by the models; this file holds only its reading of the rules and its generator.
"""

import random
import re
import sys
from fractions import Fraction

import harness

DEFAULT_COUNT = 800
BASE = {"T": 1, "ST": 2, "NT": 3}
ROUGH = ("woods", "building", "rubble")
SALVO_READINGS = {
    "bow-case-c": "Case C (C5.3) for a bow-mounted weapon by its gun_type (T/ST +2) rather than NT (+3)",
}
READINGS = set()


class Illegal(Exception):
    pass


def dist6(a, b):
    d = (a - b) % 6
    return min(d, 6 - d)


def spine_cost(k, base):
    return 0 if k == 0 else base + k - 1


def bypass_facing(cafp, d):
    """Target Facing position on the 4-cycle F=0, right side=1, R=2, left side=3."""
    r = (d - cafp) % 6
    return {0: 0, 1: 1, 2: 1, 3: 2, 4: 3, 5: 3}[r]


def case_a(s):
    """Return the total Case A DRM of the first shot, or raise Illegal."""
    fr, fi, tg = s["firer"], s["fire"], s["target"]
    vehicle = fr.get("vehicle", True)
    gt = fr.get("gun_type", "T")
    bow = fr.get("bow_mounted", False)
    byp = fr.get("bypass", False)
    cafp = fr.get("cafp")
    terrain = fi.get("firer_terrain", "open")
    phase = fi.get("phase", "prep")
    same = fi.get("same_hex", False)
    vca, tca, t = fi.get("vca"), fi.get("tca"), fi.get("target_direction")
    pivot = fi.get("pivot", False)
    mca = fi.get("maintained_ca")
    cac = fi.get("ca_change")
    acq = fi.get("acquisition", 0)
    geo = any(x is not None for x in (vca, tca, t, mca)) or pivot

    if byp and not vehicle:
        raise Illegal("Bypass is for vehicles (D2.3)")
    if byp and cafp is None:
        raise Illegal("Bypass needs a CAFP (D2.32)")
    if cafp is not None and not byp:
        raise Illegal("CAFP without Bypass")
    if byp and terrain == "rubble":
        raise Illegal("no Bypass in rubble (D2.31)")
    if phase == "bounding" and not vehicle:
        raise Illegal("Bounding First Fire is a vehicle's")
    if cac is not None and geo:
        raise Illegal("ca_change and geometry together")
    if byp and cac:
        raise Illegal("Bypass counts Case A in Target Facings, not hexspines (D2.321)")
    if mca is not None and not vehicle:
        raise Illegal("maintained CA is for vehicles (D3.51)")
    if mca is not None and t is not None:
        raise Illegal("maintained_ca and target_direction together")
    hull_weapon = vehicle and (bow or gt == "NT")
    base = 3 if hull_weapon else BASE[gt]
    same_ok = (not same) or phase in ("defensive", "final") or byp or tg.get("bypass", False)
    if not same_ok and (t is not None or mca is not None or (cac or 0) > 0):
        raise Illegal("same-hex fire changes no CA outside DFF/Final/Bypass (C5.51)")
    bff = phase == "bounding"
    if bff and (cac or 0) > 0:
        raise Illegal("a CA change for a Bounding First Fire shot (C5.13)")
    if byp and vca is not None and vca != cafp:
        raise Illegal("Bypass VCA is the CAFP (D2.32)")
    if pivot and (not vehicle or hull_weapon or byp):
        raise Illegal("only a turreted vehicle not in Bypass pivots (D3.51, D2.33)")
    if vehicle and gt == "NT" and not bow and vca is not None and tca is not None and vca != tca:
        raise Illegal("an NT vehicle fires in its VCA: tca must equal vca (D3.12)")
    if bff:
        # C5.13: the CA was changed by MP expenditure before the shot; no Case A,
        # and the arc need not already hold the target.
        return 0
    if pivot:
        if vca is None or tca is None or t is None:
            raise Illegal("pivot needs vca, tca and target_direction")
    mult = 2 if terrain in ROUGH else 1

    if mca is not None:
        return mca
    if cac is not None:
        a = spine_cost(cac, base)
    elif t is None:
        a = 0
    elif byp:
        if hull_weapon:
            if t != cafp:
                raise Illegal("bow/NT weapon in Bypass fires only in the front facing (D2.33, D2.35)")
            a = 0
        else:
            if tca is None:
                raise Illegal("tca needed")
            f0, f1 = bypass_facing(cafp, tca), bypass_facing(cafp, t)
            n = min((f0 - f1) % 4, (f1 - f0) % 4)
            if n == 0:
                a = base if (f0 in (1, 3) and acq == 0) else 0
            else:
                side_pen = 1 if (f1 in (1, 3) or {f0, f1} == {0, 2}) else 0
                a = base + n - 1 + side_pen
    elif pivot:
        a = spine_cost(dist6(vca, t), 3) + spine_cost(dist6(tca, vca), base)
    elif hull_weapon:
        arc = vca if vca is not None else tca
        if arc is None:
            raise Illegal("vca needed")
        a = spine_cost(dist6(arc, t), 3)
    else:
        if tca is None:
            raise Illegal("tca needed")
        a = spine_cost(dist6(tca, t), base)
    a *= mult
    if (a > 0 and not vehicle and gt == "NT" and fr.get("rof", 0) == 0
            and fi.get("intensive_fire", False)):
        # C2.5: no ROF ability -> marked Intensive Fire after the shot: no IF shot
        raise Illegal("Intensive Fire after a Conditional-ROF shot at ROF 0 (C2.5)")
    return a


def total_drm(s, a):
    fr, fi = s["firer"], s["fire"]
    d = a + fi.get("extra_drm", 0)
    if fi.get("phase", "prep") != "bounding" or fr.get("stabilized", False):
        d -= fi.get("acquisition", 0)  # C6.55: a moving firer without gyro has no Acquisition
    if fi.get("buttoned_up", False):
        d += 1
    if fi.get("same_hex", False):
        # Case E +2, doubled in woods/building/rubble unless in Bypass (salvo: firer or target)
        in_byp = fr.get("bypass", False) or s["target"].get("bypass", False)
        d += 4 if (fi.get("firer_terrain", "open") in ROUGH and not in_byp) else 2
    if fi.get("phase", "prep") == "bounding":
        # C5.3 Case C: Case B +2 plus T/ST +2, NT +3; a bow-mounted Gun is NT (D3.11)
        hull = fr.get("bow_mounted", False) or fr.get("gun_type", "T") == "NT"
        if fr.get("bow_mounted", False) and "bow-case-c" in READINGS:
            hull = fr.get("gun_type", "T") == "NT"
        d += 5 if hull else 4
    return d


def p_hit(th, drm):
    if 2 + drm > th:
        return Fraction(1, 72)  # C3.6: Original 2 and a subsequent dr 1-3
    n = sum(1 for c in range(1, 7) for w in range(1, 7) if c + w + drm <= th)
    return Fraction(n, 36)


def e_shots(s, a):
    """Expected shots with stop_on = never, B# 12; None if not modelled."""
    fr, fi = s["firer"], s["fire"]
    if fi.get("phase", "prep") not in ("prep", "defensive"):
        return None
    R = fr.get("rof", 0)
    cond = (not fr.get("vehicle", True)) and fr.get("gun_type", "T") == "NT" and a > 0
    r1 = R - 1 if cond else R
    malf = Fraction(1, 36)
    q = Fraction(max(r1, 0), 6)           # keep ROF after shot 1
    p = Fraction(R, 6)
    reach_later = q / (1 - p)             # expected number of later shots
    e = 1 + reach_later
    if fi.get("intensive_fire", False) and not (cond and R == 0):
        end1 = Fraction(6 - max(r1, 0), 6) - malf
        endk = Fraction(6 - R, 6) - malf
        e += end1 + reach_later * endk
    return e


def situation(rng, i):
    vehicle = rng.random() < 0.8
    fr = {"nationality": "german", "ammo": "AP", "gun": "75",
          "gun_type": rng.choice(["T", "ST", "NT"]), "rof": rng.randint(0, 3)}
    fi = {}
    tg = {"armor": {"hull_front": 26, "hull_side": 26, "turret_front": 26, "turret_side": 26}}
    if not vehicle:
        fr["vehicle"] = False
    byp = vehicle and rng.random() < 0.3
    if vehicle and rng.random() < 0.15:
        fr["bow_mounted"] = True
    if byp:
        fr["bypass"] = True
        if rng.random() < 0.95:
            fr["cafp"] = rng.randint(0, 5)
    elif rng.random() < 0.02:
        fr["cafp"] = rng.randint(0, 5)
    if rng.random() < 0.03:  # occasionally illegal combinations
        fr["bypass"] = True
        fr.setdefault("cafp", rng.randint(0, 5))
    fi["firer_terrain"] = rng.choice(["open", "open", "woods", "building", "rubble"])
    ph = ["prep", "prep", "defensive", "final"] + (["bounding"] if vehicle else [])
    fi["phase"] = rng.choice(ph)
    if rng.random() < 0.12:
        fi["same_hex"] = True
        fi["range"] = 0
        if rng.random() < 0.3:
            tg["bypass"] = True
    else:
        fi["range"] = rng.randint(3, 16)
    mode = rng.choice(["geo", "geo", "geo", "geo", "ca_change", "maintained", "none"])
    if mode == "geo":
        t = rng.randint(0, 5)
        fi["target_direction"] = t
        r = rng.random()
        if fr.get("bypass"):
            if rng.random() < 0.8:
                fi["tca"] = rng.randint(0, 5)
            if rng.random() < 0.15:
                fi["vca"] = rng.choice([fr.get("cafp", 0), rng.randint(0, 5)])
        elif vehicle and fr["gun_type"] == "NT" and not fr.get("bow_mounted"):
            v = rng.randint(0, 5)
            if r < 0.5:
                fi["vca"] = v
            elif r < 0.8:
                fi["tca"] = v
            else:
                fi["vca"], fi["tca"] = v, rng.choice([v, rng.randint(0, 5)])
        elif vehicle:
            fi["vca"] = rng.randint(0, 5)
            if rng.random() < 0.9:
                fi["tca"] = rng.randint(0, 5)
            if rng.random() < 0.35:
                fi["pivot"] = True
            if fr.get("bow_mounted") and rng.random() < 0.3:
                del fi["vca"]
        else:
            fi["tca"] = rng.randint(0, 5)
    elif mode == "ca_change":
        fi["ca_change"] = rng.randint(0, 3)
    elif mode == "maintained" and (vehicle or rng.random() < 0.1):
        fi["maintained_ca"] = rng.randint(0, 6)
        if rng.random() < 0.5:
            fi["tca"] = rng.randint(0, 5)
    if rng.random() < 0.3:
        fi["acquisition"] = rng.randint(1, 2)
    if vehicle and rng.random() < 0.3:
        fi["buttoned_up"] = True
    if rng.random() < 0.3:
        fi["extra_drm"] = rng.randint(-3, 3)
    if fi["phase"] in ("prep", "defensive") and rng.random() < 0.25:
        fi["intensive_fire"] = True
    fi["stop_on"] = "never"
    return {"name": "arc-%d" % i, "firer": fr, "target": tg, "fire": fi,
            "override": {"modified_th": rng.randint(4, 12)}}


def fixed_cases():
    """The D3.51 and D2.321 worked examples: (name, situation, expected Case A)."""
    def mk(name, fr, fi, expect):
        f = {"nationality": "german", "ammo": "AP", "gun": "75", "rof": 1}
        f.update(fr)
        x = {"range": 6, "phase": "prep", "stop_on": "never"}
        x.update(fi)
        return (name, {"name": name, "firer": f, "target": {}, "fire": x,
                       "override": {"modified_th": 10}}, expect)
    T = {"gun_type": "T"}
    BOW = {"gun_type": "T", "bow_mounted": True}
    # D3.51 directions: 0 Y5-Y6, 1 X6-Y6, 2 W6-X6, 3 W5-W6, 4 W5-X4, 5 X4-Y5
    c = [
        mk("D3.51 CMG TCA W6-X6 to Y6-Y5: +2", T, {"vca": 1, "tca": 2, "target_direction": 0}, 2),
        mk("D3.51 MA same CA, maintained: +2", T, {"tca": 0, "maintained_ca": 2}, 2),
        mk("D3.51 MA TCA on to X4-Y5: +1", T, {"vca": 1, "tca": 0, "target_direction": 5}, 1),
        mk("D3.51 MA TCA two more to W5-W6: +2", T, {"vca": 1, "tca": 5, "target_direction": 3}, 2),
        mk("D3.51 BMG VCA X6-Y6 to X4-Y5: +4", BOW, {"vca": 1, "tca": 2, "target_direction": 5}, 4),
        mk("D3.51 pivot 2, TCA on to X4-Y5: +5", T, {"vca": 1, "tca": 2, "target_direction": 5, "pivot": True}, 5),
        mk("D3.51 BMG VCA to Y5-Y6: +3", BOW, {"vca": 1, "tca": 2, "target_direction": 0}, 3),
        mk("D3.51 pivot 1, TCA 2 further: +5 (same arithmetic)", T, {"vca": 1, "tca": 3, "target_direction": 0, "pivot": True}, 5),
        mk("D3.51 pivot 1, TCA 1 further: +4 (same arithmetic)", T, {"vca": 1, "tca": 2, "target_direction": 0, "pivot": True}, 4),
        # D2.321: PSW 234/2 (ST) in Bypass, CAFP 2
        mk("D2.321 front to side: +3", {"gun_type": "ST", "bypass": True, "cafp": 2}, {"tca": 2, "target_direction": 1}, 3),
        mk("D2.321 within side, new target: +2", {"gun_type": "ST", "bypass": True, "cafp": 2}, {"tca": 1, "target_direction": 0}, 2),
        mk("D2.321 within side, Acquisition: 0", {"gun_type": "ST", "bypass": True, "cafp": 2}, {"tca": 1, "target_direction": 0, "acquisition": 1}, 0),
        mk("D2.321 front to rear: +4", {"gun_type": "ST", "bypass": True, "cafp": 2}, {"tca": 2, "target_direction": 5}, 4),
    ]
    return c


NUM = re.compile(r"^\s*([+-]\d+)\s+(Case [A-Z][^:]*):")


def parse_explain(text):
    """Case A totals per shot block (first block of each 'shot N' header)."""
    shots, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^shot (\d+)(.*)$", line)
        if m:
            cur = int(m.group(1)) if not m.group(2).strip() else None
            if cur is not None and cur in shots:
                cur = None
            if cur is not None:
                shots[cur] = 0
            continue
        if line.startswith("    To Kill"):
            cur = None
        if cur is None:
            continue
        m = NUM.match(line)
        if m and (m.group(2) == "Case A" or m.group(2).startswith("Case A ")):
            shots[cur] += int(m.group(1))
    return shots


def compare(h, s, path, expect_a=None):
    """Return a list of difference strings (empty = agreement), or a harness.Refused."""
    try:
        a = case_a(s)
        illegal = None
    except Illegal as e:
        a, illegal = None, str(e)
    rc, out, err = h.salvo("explain", path)
    odds = None
    if rc == 0:
        odds = h.odds(path, "--threads", "1")
        rc, err = odds.code, odds.error
    if illegal is not None:
        if rc == 2:
            return harness.Refused(illegal, "both refuse")
        if rc == 0:
            return ["model: illegal (%s); salvo accepted it" % illegal]
        return ["model: illegal (%s); salvo exit %s: %s"
                % (illegal, rc, (err.strip() or out.strip())[:200])]
    if odds is None or odds.error:
        return ["model: legal, Case A %+d; salvo exit %s: %s"
                % (a, rc, (err.strip() or out.strip())[:300])]
    ph, es = odds.values["first_shot"]["p_hit"], odds.values["phase"]["e_shots"]
    h.compared += 3                                 # Case A shots 1 and 2, p_hit
    diffs = []
    if expect_a is not None and a != expect_a:
        diffs.append("MODEL vs worked example: model %+d, example %+d" % (a, expect_a))
    shots = parse_explain(out)
    sa = shots.get(1, 0)
    want = expect_a if expect_a is not None else a
    if sa != want:
        diffs.append("Case A shot 1: salvo %+d, %s %+d" % (sa, "example" if expect_a is not None else "model", want))
    if shots.get(2, 0) != 0:
        diffs.append("Case A on shot 2: salvo %+d, model 0 (C5.12)" % shots[2])
    drm = total_drm(s, a)
    mp = p_hit(s["override"]["modified_th"], drm)
    if abs(ph - float(mp)) > 1e-9:
        diffs.append("first p_hit: salvo %.6f, model %s = %.6f (total DRM %+d)" % (ph, mp, float(mp), drm))
    me = e_shots(s, a)
    if me is not None and not s["firer"].get("vehicle", True) and s["firer"].get("gun_type") == "NT" and a > 0:
        h.counts["C2.5 e_shots"] += 1
    if me is not None:
        h.compared += 1
        if abs(es - float(me)) > 1e-9:
            diffs.append("phase e_shots: salvo %.6f, model %.6f" % (es, float(me)))
    return diffs


SECTIONS = ("firer", "target", "fire", "override")


def main(argv=None):
    ap = harness.arguments(__doc__, count=DEFAULT_COUNT, readings=SALVO_READINGS, min_count=0)
    args = harness.parse(ap, argv)
    READINGS.update(args.salvo_reading)
    rng = random.Random(args.seed)
    cases = fixed_cases()
    n_fixed = len(cases)
    cases += [(None, situation(rng, i), None) for i in range(args.count)]
    h = harness.Run(args, notes=["%d worked examples + %d random" % (n_fixed, args.count)],
                    counts=("both refuse", "C2.5 e_shots"))

    def files():
        for k, (name, s, exp) in enumerate(cases):
            head = [("ruleset", "asl"), ("name", s.get("name", "arc"))]
            yield "s%04d.toml" % k, harness.toml_text(s, SECTIONS, head=head), (s, exp)

    return h.run(files(), lambda path, c: compare(h, c[0], path, c[1]))


if __name__ == "__main__":
    sys.exit(main())
