#!/usr/bin/env python3
"""Differential test: ASL Infantry IFT fire (squads/crews with one SW MG) through the Morale Check.

An independent exact model of one fire phase of Infantry against ONE Personnel target, written
from the ASL rule texts (A7.2-A7.9, A9.2, A9.4, A9.7, A10.1-A10.31, A12.13-.14, A15.1,
A19.1-A19.13, A19.32-.33) and from the situation format and readings salvo states for this kind
(firer.weapon = "infantry"), not from salvo's source code.  fractions.Fraction throughout,
every ordered (colored, white) IFT DR and every MC/TC DR enumerated.

What it models:

* The IFT attacks of one attack (a Markov chain, state = target status good/pinned/broken, size
  squad/half_squad/crew or eliminated, concealment, the "at least once" events seen so far and,
  with its max_shots, the IFT attacks made): the first is the Fire Group of the inherent FP
  and the SW MG (A7.5, A7.55), then the MG alone as long as it keeps its Multiple ROF (A9.2:
  Original colored dr <= ROF; not after Cowering (A7.9), a malfunction (A9.7), by a pinned firer
  (A7.81) or in the AFPh without Opportunity Fire (A7.25)).  Without max_shots the chain has no
  bound on the attacks: every state change is monotone (status only worsens, the unit only
  shrinks, concealment and the events are only lost/gained), so the only cycles are self loops,
  summed geometrically.
* Several attacks at the one target in the phase (A7.31: "A target may be attacked any number of
  times during a fire phase ..., but when a result is called for by the IFT it is resolved prior
  to making any other attack on that target"): [firer]/[fire] is the first attack, each
  [[then]] table one more, in file order (docs/infantry.md, "Several attacks on one target in
  one phase").  Each is made whole (its Fire Group, then its MG alone while it keeps its ROF)
  before the next, with its own FP, Normal Range, MG, leader, Inexperience, Cowering, range,
  pinned status and max_shots; the target's state (status, size, concealment) carries; the
  phase ends when the target is eliminated (or, stop_on = "effect", broken or Reduced) or
  after the last attack, and its end_* is why its last IFT attack ended.  The "at least once"
  events of the attacks are joined by union, so the phase is a forward pass over the attacks
  of the distribution of (state, events), each attack's own chain memoized by its start state.
  READING: fire.opportunity and fire.extra_drm are the first attack's only (Model.__init__).
* FP (A7.2: fractions kept, modifiers cumulative): Long Range x1/2 (A7.22), Point Blank x2 at
  range 1 (A7.21), then x1/2 each for a concealed target (A7.23, A12.13), the AFPh without
  Opportunity Fire (A7.24) and a pinned firer (A7.8 inherent FP, A7.81 MG Area Fire); the
  rightmost IFT column not above the total (A7.3), none below 1 FP.
* IFT DRM: the directing leader (A7.53), TEM (A7.6), Hindrance (A6.7), FFMO/FFNAM (A4.6, A8.13;
  not vs a pinned target, again vs a broken one: A7.83, A8.14), any other DRM.
* Cowering (A7.9): Original doubles with no leader directing, one column left, two for
  Inexperienced Personnel (A19.33), no effect left of the 1 column; not for Finns or
  firer.cowers = false.  Malfunction (A9.7): Original DR >= B# (-1 Inexperienced, A19.32).
* The result on the target: PTC (A7.305), NMC/#MC (A7.303-.304), K/# (A7.302: Casualty
  Reduction, then the MC of the surviving HS), #KIA (A7.301); the MC (A10.1, A10.3): pin on the
  highest passing DR (A7.8), Casualty MC on an Original 12 (A10.31), a broken unit's failure is
  Casualty Reduction (A10.3); leader DRM of an unbroken leader in the Location (A10.21);
  Encirclement (A7.7); ELR Replacement (A19.1, A19.11, A19.13); Heat of Battle (A15.1);
  concealment lost on a PTC or worse (A12.14).
* The quantities salvo reports for the first attack and the phase: p_* (at least once), e_shots,
  outcome_* (the target's state after the window's last attack) and end_* (phase only).

Where the rule text and the situation format's stated readings differ, the model follows the
stated readings and says so in a comment marked SPEC-vs-RULE; the points of interpretation are
marked READING.  --salvo-reading NAME switches to an alternative reading (list: --salvo-reading
list), to tell an interpretation difference from an error.

Usage:
    python3 infantry_model.py SALVO [--count N] [--seed S] [--keep DIR] [--show K] [-v]
                                    [--show-refusals] [--salvo-reading NAME]...
    python3 infantry_model.py --self-test      (no salvo needed: the hand-derived cases and
                                                an independent brute force of capped phases)

Writes N random situations (default 400, seed 1) as TOML files, runs `SALVO odds FILE --format
json` on each and compares every modelled quantity (first_shot and phase) to 1e-9.  The model
predicts the refusals the situation format lists; a few such situations are written on purpose
and must be refused (exit 2): counted as "refused as predicted", and a predicted refusal that
salvo accepts is a disagreement.  Other refusals by salvo are counted apart.  The hand-derived
self-test cases also run before every comparison run.  Exit 0 when all agree, 1 on any
disagreement (or a failed self-test), 2 on usage errors.

The glue - command line, running salvo, comparing to 1e-9, the report - is harness.py's,
shared by the models; this file holds only its reading of the rules and its generator.
"""

import random
import sys
from fractions import Fraction as F

import harness

# --------------------------------------------------------------------------- the IFT
# A7 Infantry Fire Table, Personnel results, transcribed column by column from the chart
# (eASLRB p. 692 as given in the project's reference, asl-ordnance.md section 7.1).  Entry i of
# a column is the result of Final DR i (i = 0: Final DR <= 0); past the end of a column: "-".
COLUMNS = [1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36]
_BY_COLUMN = {
    1: "1KIA K/1 1MC 1MC NMC PTC",
    2: "2KIA 1KIA K/1 1MC 1MC NMC PTC",
    4: "2KIA 1KIA K/2 2MC 1MC 1MC NMC PTC",
    6: "3KIA 2KIA 1KIA K/2 2MC 1MC 1MC NMC PTC",
    8: "3KIA 2KIA 1KIA K/2 2MC 2MC 1MC 1MC NMC PTC",
    12: "3KIA 2KIA 1KIA K/3 3MC 2MC 2MC 1MC 1MC NMC PTC",
    16: "4KIA 3KIA 2KIA 1KIA K/3 3MC 2MC 2MC 1MC 1MC NMC PTC",
    20: "4KIA 3KIA 2KIA 1KIA K/4 4MC 3MC 2MC 2MC 1MC 1MC NMC PTC",
    24: "5KIA 4KIA 3KIA 2KIA 1KIA K/4 4MC 3MC 2MC 2MC 1MC 1MC NMC PTC",
    30: "6KIA 5KIA 4KIA 3KIA 2KIA 1KIA K/4 4MC 3MC 2MC 2MC 1MC 1MC NMC PTC",
    36: "7KIA 6KIA 5KIA 4KIA 3KIA 2KIA 1KIA K/4 4MC 3MC 2MC 2MC 1MC 1MC NMC PTC",
}
IFT = {c: _BY_COLUMN[c].split() for c in COLUMNS}


def ift(col_index, final):
    """The IFT result of Final DR final on column COLUMNS[col_index] ("-": no effect).  Rows
    <= 0 read the top row, >= 15 the bottom one (every column is "-" or PTC there)."""
    row = max(0, min(15, final))
    entries = IFT[COLUMNS[col_index]]
    return entries[row] if row < len(entries) else "-"


def column_index(fp):
    """A7.3: the rightmost column whose FP does not exceed fp; None below 1 FP (no effect)."""
    best = None
    for i, c in enumerate(COLUMNS):
        if c <= fp:
            best = i
    return best


def result_flags(res):
    """The IFT-result events of the spec: PTC or worse, NMC or worse, K/# or #KIA, #KIA."""
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


DICE = [(c, w) for c in range(1, 7) for w in range(1, 7)]   # (colored, white), 1/36 each
P36 = F(1, 36)
SUM2 = {}                                                    # a MC/TC DR: 2d6 by its sum
for _c, _w in DICE:
    SUM2[_c + _w] = SUM2.get(_c + _w, 0) + P36

GOOD, PINNED, BROKEN = "good", "pinned", "broken"
SQUAD, HS, CREW, DEAD = "squad", "half_squad", "crew", "eliminated"

P_NAMES = ["p_ptc_or_worse", "p_mc_or_worse", "p_casualty", "p_kia", "p_cowered",
           "p_pinned", "p_broken", "p_broken_or_worse", "p_casualty_reduction", "p_eliminated",
           "p_heat_of_battle"]
OUTCOMES = ["unharmed", "pinned", "broken", "reduced", "reduced_pinned", "reduced_broken",
            "eliminated"]
ENDS = ["target_eliminated", "target_effect", "malfunction", "cowered", "rof_exhausted",
        "shot_cap"]

# --------------------------------------------------------------------------- readings
# The model follows the situation format's text by default.  Where that text can be read in
# more than one way, the default is marked READING below and the alternative is one of these
# (--salvo-reading NAME): they exist to tell an interpretation difference from an error.
READINGS = {
    "casualty-mc-elimination-breaks":
        "p_broken also counts a good/pinned HS or crew eliminated by a Casualty MC (Original 12; "
        "the default counts only a unit that survives broken)",
    "effect-needs-change":
        "stop_on = \"effect\" stops only once the target became broken or reduced during the "
        "phase (the default also stops after the first attack on a target that started broken)",
    "no-mg-ends-rof":
        "a phase without an MG ends \"rof_exhausted\" even when its only attack cowered (the "
        "default takes the order of end_* literally: cowered comes first)",
    "then-shares-extra-drm":
        "fire.extra_drm applies to every [[then]] attack too (the default: the first "
        "attack's only, as \"[fire] is the first attack\")",
    "then-shares-opportunity":
        "fire.opportunity makes every [[then]] attack Opportunity Fire too (the default: the "
        "first attack's only; Opportunity Fire is declared unit by unit, A7.25)",
}

# SPEC-vs-RULE: where the situation format (followed by default) departs from the rule text.
#  1. A9.4 (and the A12.14 EX "6 x 1/2 x 1/2 = 1 1/2"): an MG at >= 17 hexes treats
#     unconcealed, unbroken Infantry as concealed (its FP halved).  The first draft of the
#     format halved only for target.concealed; salvo now follows the rule text, and so does
#     this model.
#  2. A6.7: "The presence of such a Hindrance always negates ... FFMO": salvo refuses
#     target.ffmo with a hindrance, and this model predicts that refusal.
#  3. target.leader: A7.4 makes every unit in the Location a target, A10.2 has the leader
#     check first, A10.21 lets only an unbroken leader modify, A7.831 not a pinned one, and his
#     breaking/elimination causes LLTC/LLMC; the format keeps his DRM on every MC/TC of the
#     phase and never attacks him.
#  4. A19.13: a Replaced unit becomes one of lesser quality (usually lower morale; an
#     underscored-morale squad two broken HS), A19.12 Disrupts one that cannot be; the format
#     keeps the same morale (its stated reading) and has no Disruption.
#  5. A19.3: a Green MMC stacked with an unbroken leader is exempt from the Inexperienced
#     rules (B# -1, A19.32); the format applies B# -1 whenever inexperienced = true, with a
#     leader too (only Conscripts keep it with a leader).
#  6. A15.1: the Heat of Battle DR can make a hero, a berserk or Battle Hardened unit or a
#     surrender, changing later MCs; the format flags it and resolves the MC as usual (stated).
#  7. A12.12/A12.14: a broken unit cannot gain a "?" and a concealed unit that breaks loses it,
#     so target.broken with target.concealed cannot happen; the format accepts it (the
#     generator writes it rarely; the model halves the FP as for any concealed target).


# --------------------------------------------------------------------------- the situation
THEN_KEYS = ("fp", "normal_range", "mg", "leader", "inexperienced", "cowers", "range", "pinned",
             "max_shots")


def attack_refusal(f, rng, has_leader):
    """Why one attack's own keys make salvo refuse the situation, or None: the firer's fp,
    normal_range and mg at range rng (the first attack's [firer], or a [[then]])."""
    fp = f.get("fp", 0)
    mg = f.get("mg")
    if rng is None or rng < 1:
        return "range below 1"
    if fp > 0 and f.get("normal_range") is None:
        return "fp > 0 without normal_range"
    if fp > 0 and rng > 2 * f["normal_range"]:
        return "range beyond twice the inherent Normal Range (A7.22)"
    if mg is not None and rng > 2 * mg["normal_range"]:
        return "range beyond twice the MG's Normal Range (A7.22)"
    if mg is not None and rng > 16 and not has_leader:
        return "MG beyond 16 hexes without a leader (A9.4)"
    if fp == 0 and mg is None:
        return "no FP and no MG"
    return None


def refusal(sit):
    """Why the situation format says salvo must refuse this situation (exit 2), or None.
    Only the refusals it lists, plus the key ranges it states."""
    f, t, fi = sit["firer"], sit["target"], sit["fire"]
    phase = fi.get("phase", "prep")
    why = attack_refusal(f, fi.get("range"), "leader" in f)
    if why is not None:
        return why
    if (t.get("ffmo") or t.get("ffnam")) and phase != "defensive":
        return "FFMO/FFNAM outside Defensive First Fire"
    if t.get("ffmo") and t.get("tem", 0) > 0:
        return "FFMO with a positive TEM"
    if t.get("ffmo") and t.get("hindrance", 0) > 0:
        return "FFMO with a LOS Hindrance (A6.7)"
    if t.get("broken") and t.get("concealed"):
        return "a broken unit cannot be concealed (A12.12, A12.14)"
    if fi.get("stop_on", "destroyed") not in ("destroyed", "effect"):
        return "stop_on other than destroyed/effect"
    if fi.get("opportunity") and phase != "advancing":
        return "Opportunity Fire outside the AFPh"
    # [[then]] (docs/infantry.md "Several attacks on one target in one phase"): each takes the
    # keys THEN_KEYS only (the nationality, the phase and the target are the first attack's),
    # range defaulting to fire.range; each is an attack of its own and must be one.
    for i, th in enumerate(sit.get("then", [])):
        bad = sorted(set(th) - set(THEN_KEYS))
        if bad:
            return "[[then]] %d: key %s is not a [[then]] key" % (i + 1, bad[0])
        why = attack_refusal(th, th.get("range", fi.get("range")), "leader" in th)
        if why is not None:
            return "[[then]] %d: %s" % (i + 1, why)
        if th.get("max_shots") is not None and not 1 <= th["max_shots"] <= 100:
            return "[[then]] %d: max_shots outside 1..100" % (i + 1)
    m = Model(sit)
    if m.total_fp(0, True, m.conc0, m.broken0) < 1:
        return "first attack below 1 FP"
    for a in range(1, len(m.attacks)):
        # READING (a refusal docs/infantry.md does not list; the first attack's, extended): a
        # later attack whose own FP is below 1 against the target as it starts the phase - its
        # concealment left out, as it may be lost before - is refused like the first attack.
        if m.total_fp(a, True, False, m.broken0) < 1:
            return "[[then]] %d below 1 FP" % a
    return None


class Attack:
    """One firer's attack (A7.31: "a target may be attacked any number of times during a fire
    phase"): the first is [firer] with fire.range/pinned/max_shots, each later one a [[then]].
    It is made whole - its Fire Group, then its MG alone while it keeps its Multiple ROF -
    before the next begins."""

    def __init__(self, f, rng, pinned, cap, opp, extra, nationality):
        self.fp = f.get("fp", 0)
        self.nr = f.get("normal_range")
        self.leader = f.get("leader")                     # None: no leader directs
        self.inexp = f.get("inexperienced", False)
        # A7.9: Finns do not cower unless cowers = true; the nationality is the first
        # attack's for every attack (docs/infantry.md)
        self.cowers = f.get("cowers", nationality != "finnish")
        mg = f.get("mg")
        self.mg = None
        if mg is not None:
            self.mg = dict(fp=mg["fp"], nr=mg["normal_range"], rof=mg.get("rof", 0),
                           b=mg.get("breakdown", 12) - (1 if self.inexp else 0))   # A19.32
        self.rng = rng
        self.pinned = pinned
        self.cap = cap
        self.opp = opp
        self.extra = extra


class Model:
    def __init__(self, sit, readings=()):
        self.r = set(readings)
        f, t, fi = sit["firer"], sit["target"], sit["fire"]
        nat = f.get("nationality")
        self.attacks = [Attack(f, fi["range"], fi.get("pinned", False), fi.get("max_shots"),
                               fi.get("opportunity", False), fi.get("extra_drm", 0), nat)]
        for th in sit.get("then", []):
            # docs/infantry.md: a [[then]]'s range defaults to fire.range, its pinned and
            # max_shots to none.  READING (the page lists the nationality, the phase and the
            # target as the first attack's, and says "[fire] is the first attack"; it does not
            # say whether fire.opportunity and fire.extra_drm also belong to the later
            # attacks, which cannot set them): both are the first attack's only.  Opportunity
            # Fire is declared unit by unit (A7.25), so a later firer in the AFPh is halved
            # (A7.24) and has no Multiple ROF; fire.extra_drm, "any other DRM", is read as the
            # first attack's.  Alternatives: then-shares-opportunity, then-shares-extra-drm.
            opp = fi.get("opportunity", False) if "then-shares-opportunity" in self.r else False
            extra = fi.get("extra_drm", 0) if "then-shares-extra-drm" in self.r else 0
            self.attacks.append(Attack(th, th.get("range", fi["range"]), th.get("pinned", False),
                                       th.get("max_shots"), opp, extra, nat))
        self.size0 = t.get("personnel", SQUAD)
        enc = 1 if t.get("encircled", False) else 0      # A7.7: one level lower morale
        self.morale = t["morale"] - enc
        self.bmorale = t.get("broken_morale", t["morale"]) - enc
        self.broken0 = t.get("broken", False)
        self.tl = t.get("leader", 0)                      # the target's leader's MC/TC DRM
        self.elr = t.get("elr")
        self.tem = t.get("tem", 0)
        self.hind = t.get("hindrance", 0)
        self.conc0 = t.get("concealed", False)
        self.ffmo = t.get("ffmo", False)
        self.ffnam = t.get("ffnam", False)
        self.phase = fi.get("phase", "prep")
        self.stop_on = fi.get("stop_on", "destroyed")
        self._attack_memo = {}
        self._chain_memo = {}
        self._firer_memo = {}

    # ---------------------------------------------------------------- one attack
    def elements(self, a, first):
        """(FP, Normal Range, is the MG) of each firing element of an IFT attack of attack a."""
        at = self.attacks[a]
        els = []
        if first and at.fp > 0:
            els.append((at.fp, at.nr, False))
        if at.mg is not None:
            els.append((at.mg["fp"], at.mg["nr"], True))
        return els

    def total_fp(self, a, first, concealed, broken):
        at = self.attacks[a]
        total = F(0)
        for fp, nr, is_mg in self.elements(a, first):
            x = F(fp)
            if at.rng > nr:
                x /= 2                                    # A7.22 Long Range
            if at.rng == 1:
                x *= 2                                    # A7.21 Point Blank
            if concealed:
                x /= 2                                    # A7.23, A12.13 Area Fire
            elif is_mg and at.rng >= 17 and not broken:
                # A9.4, A12.14 EX "6 x 1/2 [Long Range] x 1/2 [treated as Concealed target
                # (Mandatory Fire Direction; 9.4)]": an MG at >= 17 hexes treats unconcealed,
                # unbroken Infantry as concealed (salvo follows the rule text here).
                x /= 2
            if self.phase == "advancing" and not at.opp:
                x /= 2                                    # A7.24 AFPh
            if at.pinned:
                x /= 2                                    # A7.8 inherent, A7.81 MG Area Fire
            total += x
        return total

    def drm(self, a, status):
        at = self.attacks[a]
        d = (at.leader or 0) + self.tem + self.hind + at.extra
        if status != PINNED:                              # A7.83, A8.14
            # A6.7 "a Hindrance always negates ... FFMO": salvo refuses FFMO with a hindrance
            # (refusal()), so the two never meet here.
            d -= int(self.ffmo) + int(self.ffnam)
        return d

    def attack(self, a, state, first):
        """One IFT attack of attack a on the target in state (status, size, concealed): a list
        of (p, new state, events, malfunctioned, cowered, MG keeps its Multiple ROF)."""
        key = (a, state, first)
        if key in self._attack_memo:
            return self._attack_memo[key]
        at = self.attacks[a]
        status, size, conc = state
        col = column_index(self.total_fp(a, first, conc, status == BROKEN))
        drm = self.drm(a, status)
        mg_fires = at.mg is not None                       # the MG is in every IFT attack
        dr = {}                                           # (result, flags): IFT DRs of 36
        for c, w in DICE:
            orig = c + w
            cowered = c == w and at.leader is None and at.cowers             # A7.9
            shift = (2 if at.inexp else 1) if cowered else 0                  # A19.33
            if col is None or col - shift < 0:
                res = "-"                                 # no column / cowered off the IFT
            else:
                res = ift(col - shift, orig + drm)
            malf = mg_fires and orig >= at.mg["b"]                            # A9.7
            keeps = (mg_fires and c <= at.mg["rof"] and not cowered and not malf
                     and not at.pinned                                        # A7.81
                     and not (self.phase == "advancing" and not at.opp))      # A7.25
            dr[res, malf, cowered, keeps] = dr.get((res, malf, cowered, keeps), 0) + 1
        acc = {}
        for (res, malf, cowered, keeps), n in dr.items():
            ev0 = set(result_flags(res))
            if cowered:
                ev0.add("p_cowered")
            if malf:
                ev0.add("p_malfunction")
            # A12.14: a PTC or worse removes the "?" (the MC failures, breaking and
            # Reduction that also remove it only follow such results)
            conc2 = conc and res == "-"
            for p, st, ev in self.apply(res, status, size):
                if st[0] == BROKEN or st[1] == DEAD:
                    ev = ev | {"p_broken_or_worse"}   # broken (however) or eliminated after it
                k = ((st[0], st[1], conc2), frozenset(ev0 | ev), malf, cowered, keeps)
                acc[k] = acc.get(k, 0) + F(n, 36) * p
        out = [(p,) + k for k, p in acc.items()]
        self._attack_memo[key] = out
        return out

    # ---------------------------------------------------------------- the result on the unit
    def cr(self, status, size):
        """Casualty Reduction (A7.302): a squad becomes a HS of the same status, a HS or crew
        is eliminated."""
        if size == SQUAD:
            return status, HS
        return status, DEAD

    def apply(self, res, status, size):
        """[(p, (status, size), events)] for an IFT result on the unit."""
        if res == "-":
            return [(F(1), (status, size), set())]
        if res == "PTC":
            # A7.305: only an unbroken unit takes the NTC (and an already pinned one does not,
            # A7.8); its leader's DRM applies (A10.21).  No Casualty MC and no Heat of Battle
            # on a TC (A10.31 and A15.1 speak of a MC).
            if status != GOOD:
                return [(F(1), (status, size), set())]
            fail = sum(p for d, p in SUM2.items() if d + self.tl > self.morale)
            out = [(1 - fail, (status, size), set())]
            if fail:
                out.append((fail, (PINNED, size), {"p_pinned"}))
            return out
        if res.endswith("KIA"):
            # A7.301: one target unit: eliminated (a broken one too)
            return [(F(1), (status, DEAD), {"p_eliminated"})]
        if res.startswith("K/"):
            n = int(res[2:])
            st, sz = self.cr(status, size)              # A7.302, Random Selection moot
            ev = {"p_casualty_reduction"}
            if sz == DEAD:
                return [(F(1), (st, DEAD), ev | {"p_eliminated"})]
            # "all other target units (including any just-Reduced HS) must take a MC"
            return [(p, s2, ev | e2) for p, s2, e2 in self.mc(n, st, sz)]
        n = 0 if res == "NMC" else int(res[0])
        return self.mc(n, status, size)

    def mc(self, n, status, size):
        """A MC with n added (A7.303-.304) by a unit in status/size."""
        out = []
        for d, p in SUM2.items():
            final = d + n + self.tl                     # A10.21 leader DRM
            ev = set()
            if d == 2 and size in (SQUAD, HS):
                # A15.1: Heat of Battle follows any Original MC DR of 2 (not crews).  READING
                # (stated by the situation format): the HoB DR is not rolled, the MC goes on.
                ev.add("p_heat_of_battle")
            if status == BROKEN:
                if d == 12:
                    # A10.31: a broken unit rolling an Original 12 is eliminated (not counted
                    # as Casualty Reduction: the situation format lists it apart)
                    out.append((p, (BROKEN, DEAD), ev | {"p_eliminated"}))
                elif final > self.bmorale:
                    # A10.3: a broken unit failing a MC suffers Casualty Reduction
                    st, sz = self.cr(BROKEN, size)
                    ev |= {"p_casualty_reduction"}
                    if sz == DEAD:
                        ev.add("p_eliminated")
                    out.append((p, (st, sz), ev))
                else:
                    out.append((p, (status, size), ev))   # A7.305: broken units never pinned
                continue
            # good or pinned
            if self.elr is not None and size != CREW and final > self.morale + self.elr:
                # A19.1, A19.13 (A19.11: never a crew, never a broken unit); also on a Casualty
                # MC that exceeds it (A19.13 EXC).  READING (stated): the replacement keeps
                # the same morale for later MCs of the phase.  SPEC-vs-RULE, minor: A19.13
                # replaces it by a unit of lesser quality (usually a lower morale), a squad
                # with an underscored morale by two broken HS, and A19.12 Disrupts one that
                # cannot be replaced; none of that is in the situation format.
                ev.add("p_replaced")
            if d == 12:
                # A10.31 Casualty MC: Casualty Reduction and broken (whatever the Final DR)
                st, sz = self.cr(BROKEN, size)
                ev.add("p_casualty_reduction")
                if sz == DEAD:
                    ev.add("p_eliminated")
                    # READING: a HS/crew eliminated by it did not "break" for p_broken
                    # (alternative: casualty-mc-elimination-breaks)
                    if "casualty-mc-elimination-breaks" in self.r:
                        ev.add("p_broken")
                else:
                    ev.add("p_broken")                    # a squad now a broken HS
                out.append((p, (st, sz), ev))
            elif final > self.morale:
                out.append((p, (BROKEN, size), ev | {"p_broken"}))   # A10.3 (no longer pinned)
            elif final == self.morale:
                # A7.8: passed with the highest passing DR: pinned
                if status == GOOD:
                    ev.add("p_pinned")
                out.append((p, (PINNED, size), ev))
            else:
                out.append((p, (status, size), ev))
        return out

    # ---------------------------------------------------------------- the phase
    def reduced(self, size):
        return self.size0 == SQUAD and size == HS

    def end(self, a, state, malf, cowered, keeps, shots):
        """Why attack a ends after an IFT attack (the first that applies), or None.  shots: the
        IFT attacks attack a has made."""
        at = self.attacks[a]
        status, size, _ = state
        if size == DEAD:
            return "target_eliminated"
        if self.stop_on == "effect":
            if "effect-needs-change" in self.r:
                hit = (status == BROKEN and not self.broken0) or self.reduced(size)
            else:
                # READING: "the target broken or reduced" read as its state after the attack,
                # so a target that started broken ends the phase after the first attack
                hit = status == BROKEN or self.reduced(size)
            if hit:
                return "target_effect"
        if malf:
            return "malfunction"
        if cowered and not (at.mg is None and "no-mg-ends-rof" in self.r):
            # READING: the first that applies, so an attack without an MG that cowers ends
            # "cowered", not "rof_exhausted" (alternative: no-mg-ends-rof)
            return "cowered"
        if not keeps:
            return "rof_exhausted"
        if at.cap is not None and shots >= at.cap:
            # a [[then]]'s max_shots caps its own IFT attacks, fire.max_shots the first
            # attack's (docs/infantry.md: "[fire] is the first attack"; a [[then]]'s max_shots
            # defaults to none)
            return "shot_cap"
        return None

    def initial(self):
        return (BROKEN if self.broken0 else GOOD, self.size0, self.conc0)

    def chain(self, a, state, events, shots):
        """The rest of attack a (its MG alone) on a target in state after `shots` IFT attacks,
        events seen so far in it: ({(final state, events, end): p}, expected further IFT
        attacks)."""
        key = (a, state, events, shots if self.attacks[a].cap is not None else None)
        if key in self._chain_memo:
            return self._chain_memo[key]
        dist = {}
        e = F(1)                                        # this IFT attack
        loop = F(0)
        for p, st, ev, malf, cow, keeps in self.attack(a, state, False):
            ev2 = events | ev
            why = self.end(a, st, malf, cow, keeps, shots + 1)
            if why is not None:
                k = (st, ev2, why)
                dist[k] = dist.get(k, 0) + p
            elif self.attacks[a].cap is None and st == state and ev2 == events:
                loop += p                               # the only kind of cycle: a self loop
            else:
                d2, e2 = self.chain(a, st, ev2, shots + 1)
                for k, q in d2.items():
                    dist[k] = dist.get(k, 0) + p * q
                e += p * e2
        if loop:
            # geometric sum over the repeats of this same state: everything / (1 - loop)
            scale = 1 / (1 - loop)
            dist = {k: q * scale for k, q in dist.items()}
            e *= scale
        self._chain_memo[key] = (dist, e)
        return dist, e

    def whole_attack(self, a, state):
        """Attack a made whole on a target in state: ({(final state, its events, end): p},
        expected IFT attacks).  The events are attack a's own: the phase's are their union
        with those before it (each event is "at least once", so the union is exact)."""
        key = (a, state)
        if key in self._firer_memo:
            return self._firer_memo[key]
        dist = {}
        e = F(1)
        for p, st, ev, malf, cow, keeps in self.attack(a, state, True):
            why = self.end(a, st, malf, cow, keeps, 1)
            if why is not None:
                k = (st, ev, why)
                dist[k] = dist.get(k, 0) + p
            else:
                d2, e2 = self.chain(a, st, ev, 1)
                for k, q in d2.items():
                    dist[k] = dist.get(k, 0) + p * q
                e += p * e2
        self._firer_memo[key] = (dist, e)
        return dist, e

    def window_first(self):
        dist = {}
        for p, st, ev, malf, cow, keeps in self.attack(0, self.initial(), True):
            k = (st, ev, None)
            dist[k] = dist.get(k, 0) + p
        return dist, F(1)

    def window_phase(self):
        """A7.31: the attacks in file order, each resolved whole before the next, the target's
        state carried.  The phase ends when the target is eliminated (or, stop_on = "effect",
        broken or Reduced) or after the last attack; its end_* is why its last IFT attack
        ended (docs/infantry.md)."""
        last = len(self.attacks) - 1
        pending = {(self.initial(), frozenset()): F(1)}   # (state, events) before attack a
        dist = {}
        e = F(0)
        for a in range(last + 1):
            nxt = {}
            for (state, events), p in pending.items():
                d, ea = self.whole_attack(a, state)
                e += p * ea
                for (st, ev, why), q in d.items():
                    if a == last or why in ("target_eliminated", "target_effect"):
                        k = (st, events | ev, why)
                        dist[k] = dist.get(k, 0) + p * q
                    else:
                        k = (st, events | ev)
                        nxt[k] = nxt.get(k, 0) + p * q
            pending = nxt
        return dist, e

    def outcome(self, state):
        status, size, _ = state
        if size == DEAD:
            return "eliminated"
        if self.reduced(size):
            return {GOOD: "reduced", PINNED: "reduced_pinned", BROKEN: "reduced_broken"}[status]
        return {GOOD: "unharmed", PINNED: "pinned", BROKEN: "broken"}[status]

    def quantities(self, dist, e, with_end):
        names = list(P_NAMES)
        if any(at.mg is not None for at in self.attacks):
            names.append("p_malfunction")
        if self.elr is not None:
            names.append("p_replaced")
        q = {n: F(0) for n in names}
        q["e_shots"] = e
        for o in OUTCOMES:
            q["outcome_" + o] = F(0)
        if with_end:
            for x in ENDS:
                q["end_" + x] = F(0)
        for (st, ev, why), p in dist.items():
            for n in ev:
                if n not in q:
                    raise AssertionError("event %s outside the reported names" % n)
                q[n] += p
            q["outcome_" + self.outcome(st)] += p
            if with_end:
                q["end_" + why] += p
        total = sum(dist.values())
        if total != 1:
            raise AssertionError("probabilities sum to %s" % total)
        return q

    def run(self):
        d1, e1 = self.window_first()
        dp, ep = self.window_phase()
        return {"first_shot": self.quantities(d1, e1, False),
                "phase": self.quantities(dp, ep, True)}


# --------------------------------------------------------------------------- the generator
def gen_firer_keys(r, d):
    """A firer's own keys (the first attack's [firer] or a [[then]]) into d: inexperienced,
    cowers, leader, fp and normal_range, mg.  -> whether it has an MG."""
    if r.random() < 0.25:
        d["inexperienced"] = r.random() < 0.8
    if r.random() < 0.15:
        d["cowers"] = r.random() < 0.5
    if r.random() < 0.35:
        d["leader"] = r.choice([-3, -2, -2, -1, -1, -1, 0, 0, 1, 2])
    has_mg = r.random() < 0.65
    if has_mg and r.random() < 0.2:
        d["fp"] = 0
    else:
        d["fp"] = r.choice([1, 2, 2, 3, 4, 4, 4, 5, 6, 6, 7, 8, 8, 10, 12, 14, 16, 20, 24,
                            30, 36, 45, 60, 200])
        d["normal_range"] = r.choice([1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 12])
    if has_mg:
        mg = {"fp": r.choice([1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 12, 50]),
              "normal_range": r.choice([2, 4, 6, 6, 8, 10, 12, 16, 50])}
        if r.random() < 0.85:
            mg["rof"] = r.choice([0, 1, 2, 2, 3, 3, 3])
        if r.random() < 0.4:
            mg["breakdown"] = r.choice([2, 9, 10, 10, 11, 11, 12])
        d["mg"] = mg
    return has_mg


def pick_range(r, d):
    """A range mostly legal for every element of firer keys d."""
    nrs = [x for x in (d.get("normal_range"), d.get("mg", {}).get("normal_range")) if x]
    lo = min(nrs)
    return r.choice([1, 1, 2, 3, lo, lo, lo + 1, 2 * lo, r.randint(1, 2 * lo),
                     r.randint(1, 2 * max(nrs))])


def gen_then(r, fire):
    """One [[then]] attack: its own firer keys, range (often left to fire.range), pinned and
    max_shots (docs/infantry.md)."""
    th = {}
    has_mg = gen_firer_keys(r, th)
    if r.random() < 0.55:
        th["range"] = pick_range(r, th)
    rng = th.get("range", fire["range"])
    if rng > 16 and has_mg and "leader" not in th and r.random() < 0.8:
        th["leader"] = r.choice([-1, 0])
    if r.random() < 0.12:
        th["pinned"] = True
    if r.random() < 0.25:
        th["max_shots"] = r.choice([1, 1, 2, 2, 3, 4, 6])
    return th


def gen_situation(r):
    """A random situation over the whole key space, weighted toward the cases that matter."""
    firer = {"weapon": "infantry"}
    target = {"type": "infantry"}
    fire = {}
    u = r.random()
    if u < 0.55:
        firer["nationality"] = r.choice(["german", "russian", "british", "american"])
    elif u < 0.7:
        firer["nationality"] = "finnish"
    has_mg = gen_firer_keys(r, firer)
    rng = pick_range(r, firer)
    fire["range"] = rng
    if rng > 16 and has_mg and "leader" not in firer and r.random() < 0.8:
        firer["leader"] = r.choice([-1, 0])
    # the target
    u = r.random()
    if u < 0.2:
        target["personnel"] = "half_squad"
    elif u < 0.32:
        target["personnel"] = "crew"
    elif u < 0.5:
        target["personnel"] = "squad"
    target["morale"] = r.choice([2, 4, 5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 10])
    if r.random() < 0.3:
        target["broken_morale"] = max(2, min(10, target["morale"] + r.choice([-1, 0, 1, 2])))
    if r.random() < 0.22:
        target["broken"] = True
    if r.random() < 0.25:
        target["leader"] = r.choice([-3, -2, -1, -1, 0, 1, 2])
    if r.random() < 0.3:
        target["elr"] = r.randint(0, 5)
    if r.random() < 0.12:
        target["encircled"] = True
    if r.random() < 0.75:
        target["tem"] = r.choice([-3, -1, 0, 0, 1, 1, 2, 3, 4, 6])
    if r.random() < 0.2:
        target["hindrance"] = r.choice([1, 1, 2, 3, 10])
    if r.random() < 0.28 and (not target.get("broken") or r.random() < 0.2):
        # a broken unit cannot keep or gain a "?" (A12.12, A12.14): rarely both
        target["concealed"] = True
    phase = r.choice(["prep", "prep", "defensive", "defensive", "final", "advancing",
                      "advancing"])
    fire["phase"] = phase
    if phase == "defensive":
        if target.get("tem", 0) <= 0 and r.random() < 0.45:
            target["ffmo"] = True
            if target.get("hindrance") and r.random() < 0.7:
                del target["hindrance"]    # A6.7 says a Hindrance negates FFMO: rarely both
        if r.random() < 0.45:
            target["ffnam"] = True
    if phase == "advancing" and r.random() < 0.45:
        fire["opportunity"] = True
    if r.random() < 0.15:
        fire["pinned"] = True
    if r.random() < 0.25:
        fire["extra_drm"] = r.choice([-10, -3, -2, -1, 1, 2, 3, 10])
    if r.random() < 0.3:
        fire["max_shots"] = r.choice([1, 1, 2, 2, 3, 4, 6])
    u = r.random()
    if u < 0.35:
        fire["stop_on"] = "effect"
    elif u < 0.45:
        fire["stop_on"] = "destroyed"
    sit = {"firer": firer, "target": target, "fire": fire}
    if r.random() < 0.4 and refusal(sit) is None:
        # A7.31: 1-3 more attacks on the same target in the same phase ([[then]]); a
        # [[then]] the situation format refuses is drawn again (or left out)
        sit["then"] = []
        for _ in range(r.choice([1, 1, 1, 2, 2, 3])):
            for _try in range(10):
                th = gen_then(r, fire)
                if refusal(dict(sit, then=sit["then"] + [th])) is None:
                    sit["then"].append(th)
                    break
        if not sit["then"]:
            del sit["then"]
    return sit


def break_it(sit, r):
    """Make a legal situation one the situation format says salvo refuses."""
    f, t, fi = sit["firer"], sit["target"], sit["fire"]
    hows = ["range0", "far", "mg17", "ffmo_phase", "ffmo_tem", "never", "no_fp", "opp", "tiny"]
    if sit.get("then"):
        hows += ["then_range0", "then_far", "then_mg17", "then_no_fp", "then_tiny",
                 "then_pinned_tiny", "then_key", "then_cap0"] * 2
    how = r.choice(hows)
    if how.startswith("then_"):
        th = r.choice(sit["then"])
        if how == "then_range0":
            th["range"] = 0
        elif how == "then_far":
            nrs = [x for x in (th.get("normal_range"), th.get("mg", {}).get("normal_range"))
                   if x]
            th["range"] = 2 * min(nrs) + 1
        elif how == "then_mg17":
            th["mg"] = dict(th.get("mg", {"fp": 4}), normal_range=12)
            th.pop("leader", None)
            if th.get("fp", 0) > 0:
                th["normal_range"] = 12
            th["range"] = 17
        elif how == "then_no_fp":
            th["fp"] = 0
            th.pop("normal_range", None)
            th.pop("mg", None)
        elif how == "then_tiny":
            th.clear()
            th.update({"mg": {"fp": 1, "normal_range": 4}, "range": 5})  # 1/2 FP (Long Range)
        elif how == "then_pinned_tiny":
            th.clear()
            th.update({"fp": 1, "normal_range": 6, "pinned": True,       # 1/2 FP (pinned)
                       "range": r.randint(2, 6)})
        elif how == "then_key":
            # the nationality, the phase and the target are the first attack's: a [[then]]
            # takes only its firer's own keys (THEN_KEYS)
            key = r.choice(["extra_drm", "opportunity", "nationality", "phase", "tem",
                            "stop_on"])
            th[key] = {"extra_drm": 1, "opportunity": True, "nationality": "german",
                       "phase": "prep", "tem": 1, "stop_on": "effect"}[key]
        else:
            th["max_shots"] = 0
        return sit
    if how == "range0":
        fi["range"] = 0
    elif how == "far":
        nrs = [x for x in (f.get("normal_range"), f.get("mg", {}).get("normal_range")) if x]
        fi["range"] = 2 * min(nrs) + 1
    elif how == "mg17":
        f["mg"] = dict(f.get("mg", {"fp": 4}), normal_range=12)
        f.pop("leader", None)
        if f.get("fp", 0) > 0:
            f["normal_range"] = 12
        fi["range"] = 17
    elif how == "ffmo_phase":
        fi["phase"] = r.choice(["prep", "final", "advancing"])
        fi.pop("opportunity", None)
        t["ffnam" if r.random() < 0.5 else "ffmo"] = True
        t["tem"] = min(0, t.get("tem", 0))
    elif how == "ffmo_tem":
        fi["phase"] = "defensive"
        fi.pop("opportunity", None)
        t["ffmo"] = True
        t["tem"] = r.choice([1, 2, 3])
    elif how == "never":
        fi["stop_on"] = "never"
    elif how == "no_fp":
        f["fp"] = 0
        f.pop("normal_range", None)
        f.pop("mg", None)
    elif how == "opp":
        fi["phase"] = r.choice(["prep", "defensive", "final"])
        fi["opportunity"] = True
        t.pop("ffmo", None)
        t.pop("ffnam", None)
    else:
        f["fp"] = 0
        f.pop("normal_range", None)
        f["mg"] = {"fp": 1, "normal_range": 4}
        fi["range"] = 5                      # 1 / 2 (Long Range) < 1 FP
        t.pop("concealed", None)
    return sit


def situation(r):
    """-> (situation, predicted refusal or None): about 7% are meant to be refused."""
    return harness.draw(r, gen_situation, refusal, break_it, 0.07)


# --------------------------------------------------------------------------- self-test
def _sit(firer=None, target=None, fire=None, then=None):
    f = {"weapon": "infantry"}
    f.update(firer or {})
    t = {"type": "infantry", "morale": 7}
    t.update(target or {})
    fi = {"range": 3, "phase": "prep"}
    fi.update(fire or {})
    sit = {"firer": f, "target": t, "fire": fi}
    if then:
        sit["then"] = then
    return sit

def hand_cases():
    """(name, situation, {block: {quantity: expected}}), each worked out by hand below."""
    cases = []

    # 1. 6 FP (a 6-x-6 squad at 3 hexes), German (cowers), no leader, +1 TEM, vs a good squad
    #    of morale 7, no MG: one attack.  Original d = c + w, Final f = d + 1; non-doubles on
    #    the 6 column, doubles Cower to the 4 column (A7.9):
    #      d=2 (1,1) doubles: 4 col f3 = 2MC        d=3 (2 non-d): 6 col f4 = 2MC
    #      d=4: 2 non-d 6 col f5 = 1MC, (2,2) 4 col f5 = 1MC;   d=5 (4): 6 col f6 = 1MC
    #      d=6: 4 non-d 6 col f7 = NMC, (3,3) 4 col f7 = PTC;   d=7 (6): 6 col f8 = PTC
    #      d=8: 6 col f9 "-", (4,4) 4 col f9 "-";  d >= 9: "-"
    #    P(2MC) = 3/36, P(1MC) = 7/36, P(NMC) = 4/36, P(PTC) = 7/36, cowered = 6/36.
    #    MC DR e (2d6): breaks on e + n > 7 or e = 12: NMC 15/36, 1MC 21/36, 2MC 26/36.
    #    P(broken) = (3*26 + 7*21 + 4*15)/1296 = 285/1296 (the Original 12s, 14/1296 in all,
    #    make a broken HS: outcome_reduced_broken 14/1296, outcome_broken 271/1296).
    #    Pinned: PTC's NTC fails on e > 7 (15/36); a MC with e + n = 7 pins (NMC 6/36, 1MC
    #    5/36, 2MC 4/36): (7*15 + 4*6 + 7*5 + 3*4)/1296 = 176/1296.
    #    Heat of Battle: a MC with e = 2: 14/1296.  e_shots 1.  The phase ends "cowered" on the
    #    doubles (1/6: it comes before rof_exhausted in the order of end_*), else
    #    rof_exhausted (no MG): 5/6.
    s1 = _sit({"nationality": "german", "fp": 6, "normal_range": 6}, {"tem": 1})
    exp1 = {"p_ptc_or_worse": F(21, 36), "p_mc_or_worse": F(14, 36), "p_casualty": 0,
            "p_kia": 0, "p_cowered": F(1, 6), "p_broken": F(285, 1296),
            "p_pinned": F(176, 1296), "p_casualty_reduction": F(14, 1296), "p_eliminated": 0,
            "p_heat_of_battle": F(14, 1296), "e_shots": 1,
            "outcome_reduced_broken": F(14, 1296), "outcome_broken": F(271, 1296),
            "outcome_pinned": F(176, 1296),
            "outcome_unharmed": 1 - F(14 + 271 + 176, 1296)}
    ph1 = dict(exp1, end_rof_exhausted=F(5, 6), end_cowered=F(1, 6))
    cases.append(("6 FP +1 vs morale 7", s1, {"first_shot": exp1, "phase": ph1}))

    # 1b. The same target broken (broken side 7): PTC nothing; a MC: Original 12 eliminates
    #     (14/1296); else e + n > 7 Casualty Reduction to a broken HS: (3*25 + 7*20 + 4*14)/1296
    #     = 271/1296.  p_broken 0; HoB still 14/1296 (a broken squad).
    s1b = _sit({"nationality": "german", "fp": 6, "normal_range": 6},
               {"tem": 1, "broken": True})
    exp1b = {"p_broken": 0, "p_pinned": 0, "p_casualty_reduction": F(271, 1296),
             "p_eliminated": F(14, 1296), "p_heat_of_battle": F(14, 1296),
             "outcome_eliminated": F(14, 1296), "outcome_reduced_broken": F(271, 1296),
             "outcome_broken": F(1011, 1296), "outcome_unharmed": 0}
    cases.append(("6 FP +1 vs broken squad", s1b, {"first_shot": exp1b, "phase": exp1b}))

    # 1c. Case 1 with ELR 1: Replaced when the MC's Final DR > 8: NMC e > 8 (10/36), 1MC
    #     e > 7 (15/36), 2MC e > 6 (21/36): (3*21 + 7*15 + 4*10)/1296 = 208/1296.  ELR 0:
    #     Final DR > 7, i.e. every breaking MC here: 285/1296.
    s1c = _sit({"nationality": "german", "fp": 6, "normal_range": 6}, {"tem": 1, "elr": 1})
    cases.append(("ELR 1", s1c, {"first_shot": {"p_replaced": F(208, 1296),
                                                "p_broken": F(285, 1296)}}))
    s1d = _sit({"nationality": "german", "fp": 6, "normal_range": 6}, {"tem": 1, "elr": 0})
    cases.append(("ELR 0", s1d, {"first_shot": {"p_replaced": F(285, 1296)}}))
    # A19.11: never a crew.  The crew breaks like the squad (285 - 14 = 271/1296: its
    # Casualty MCs eliminate it, 14/1296, and are not counted as breaking, READING)
    s1e = _sit({"nationality": "german", "fp": 6, "normal_range": 6},
               {"tem": 1, "elr": 0, "personnel": "crew"})
    cases.append(("ELR crew", s1e, {"first_shot": {
        "p_replaced": 0, "p_broken": F(271, 1296), "outcome_eliminated": F(14, 1296),
        "p_heat_of_battle": 0}}))

    # 1d. Case 1 with a -1 leader in the target's Location (A10.21): breaks on e + n - 1 > 7:
    #     NMC e > 8 (10/36), 1MC e > 7 (15/36), 2MC e > 6 (21/36): 208/1296; the PTC's NTC
    #     fails on e > 8 (10/36); a MC pins on e + n - 1 = 7: NMC 5/36, 1MC 6/36, 2MC 5/36:
    #     pinned (7*10 + 4*5 + 7*6 + 3*5)/1296 = 147/1296.
    s1f = _sit({"nationality": "german", "fp": 6, "normal_range": 6},
               {"tem": 1, "leader": -1})
    cases.append(("target leader -1", s1f, {"first_shot": {"p_broken": F(208, 1296),
                                                           "p_pinned": F(147, 1296)}}))
    # 1e. Encircled (A7.7): morale 8 checks as 7: the values of case 1.
    s1g = _sit({"nationality": "german", "fp": 6, "normal_range": 6},
               {"tem": 1, "morale": 8, "encircled": True})
    cases.append(("encircled", s1g, {"first_shot": {"p_broken": F(285, 1296),
                                                    "p_pinned": F(176, 1296)}}))

    # 1f. FP modifiers (A7.2, fractions kept): each of these makes 2 FP (the 2 column, MC or
    #     worse 10/36 with Cowering, see 3b) or 1.5 / 1 FP (the 1 column: 4/36, see 3):
    #     4 FP at 3 hexes with Normal Range 2 (Long Range) -> 2; 1 FP at 1 hex (PBF) -> 2;
    #     4 FP concealed -> 2; 4 FP in the AFPh -> 2, with Opportunity Fire 4 (not this);
    #     4 FP pinned -> 2; 16 FP long range, concealed, AFPh, pinned -> 1; a FG of 1 FP and a
    #     1 FP MG in range -> 2, the MG at Long Range -> 1.5; 3 FP + 3 FP MG both at Long
    #     Range vs a concealed target: 3/4 + 3/4 = 1.5 (kept fractions, 1 column).
    mods = [({"fp": 4, "normal_range": 2}, {}, {}, 10),
            ({"fp": 1, "normal_range": 2}, {}, {"range": 1}, 10),
            ({"fp": 4, "normal_range": 6}, {"concealed": True}, {}, 10),
            ({"fp": 4, "normal_range": 6}, {}, {"phase": "advancing"}, 10),
            ({"fp": 4, "normal_range": 6}, {}, {"pinned": True}, 10),
            ({"fp": 16, "normal_range": 2}, {"concealed": True},
             {"phase": "advancing", "pinned": True}, 4),
            ({"fp": 1, "normal_range": 6, "mg": {"fp": 1, "normal_range": 6}}, {}, {}, 10),
            ({"fp": 1, "normal_range": 6, "mg": {"fp": 1, "normal_range": 2}}, {}, {}, 4),
            ({"fp": 3, "normal_range": 2, "mg": {"fp": 3, "normal_range": 2}},
             {"concealed": True}, {}, 4)]
    for i, (fr, tg, fi, want) in enumerate(mods):
        cases.append(("FP modifiers %d" % i, _sit(fr, tg, fi),
                      {"first_shot": {"p_mc_or_worse": F(want, 36)}}))

    # 2. A K/1 on a squad.  1 FP, no Cowering (cowers = false), extra DRM -10 vs morale 7:
    #    Final = d - 10 on the 1 column: d <= 10 (33/36) row <= 0: 1KIA; d = 11 (2/36) row 1:
    #    K/1; d = 12 (1/36) row 2: 1MC.
    #    K/1: the squad is Reduced to a good HS which takes a 1MC: e = 12 (1/36) Casualty MC
    #    eliminates it; e + 1 > 7 otherwise (20/36) broken HS; e = 6 (5/36) pinned HS; else
    #    (10/36) a good HS.  1MC on the squad: 12 -> broken HS (1/36), 20/36 broken squad,
    #    5/36 pinned, 10/36 unharmed.
    #    eliminated = 33/36 + 2/36 * 1/36 = 1190/1296; reduced 2*10 = 20/1296;
    #    reduced_pinned 10/1296; reduced_broken 2*20 + 1 = 41/1296; broken 20/1296;
    #    pinned 5/1296; unharmed 10/1296 (sum 1296).
    #    p_casualty_reduction = 2/36 + 1/1296 = 73/1296; p_kia 33/36, p_casualty 35/36.
    #    p_broken: the HS breaks 2*20, the squad 20 + 1 (Casualty MC): 61/1296.
    #    p_pinned: 2*5 + 5 = 15/1296.  HoB: both MCs, e = 2: 3/1296.
    s2 = _sit({"fp": 1, "normal_range": 6, "cowers": False}, {}, {"extra_drm": -10})
    exp2 = {"outcome_eliminated": F(1190, 1296), "outcome_reduced": F(20, 1296),
            "outcome_reduced_pinned": F(10, 1296), "outcome_reduced_broken": F(41, 1296),
            "outcome_broken": F(20, 1296), "outcome_pinned": F(5, 1296),
            "outcome_unharmed": F(10, 1296), "p_casualty_reduction": F(73, 1296),
            "p_kia": F(33, 36), "p_casualty": F(35, 36), "p_eliminated": F(1190, 1296),
            "p_broken": F(61, 1296), "p_pinned": F(15, 1296), "p_heat_of_battle": F(3, 1296),
            "p_cowered": 0}
    cases.append(("K/1 on a squad", s2, {"first_shot": exp2, "phase": exp2}))

    # 2b. The same on a crew: K/1 eliminates it (2/36), 1KIA (33/36); the 1MC (1/36): e = 12
    #     eliminates it, no HoB for a crew.  eliminated = 35/36 + 1/1296 = 1261/1296.
    s2b = _sit({"fp": 1, "normal_range": 6, "cowers": False}, {"personnel": "crew"},
               {"extra_drm": -10})
    cases.append(("K/1 on a crew", s2b, {"phase": {
        "outcome_eliminated": F(1261, 1296), "p_heat_of_battle": 0,
        "p_casualty_reduction": F(2 * 36 + 1, 1296), "outcome_broken": F(20, 1296)}}))

    # 3. Cowering on the 1 column: 1 FP, no DRM, vs morale 7.  Final = d: 1MC on 2-3, NMC on
    #    4, PTC on 5; doubles cower off the IFT: d = 2 (1,1) and (2,2) of d = 4 have no effect.
    #    1MC 2/36 (d = 3), NMC 2/36, PTC 4/36; cowered 6/36.
    #    broken = (2*21 + 2*15)/1296 = 72/1296; Inexperienced: the same (two columns).
    for inexp in (False, True):
        s3 = _sit({"fp": 1, "normal_range": 6, "inexperienced": inexp})
        cases.append(("Cowering on the 1 column%s" % (" (inexperienced)" if inexp else ""), s3,
                      {"first_shot": {"p_ptc_or_worse": F(8, 36), "p_mc_or_worse": F(4, 36),
                                      "p_cowered": F(1, 6), "p_broken": F(72, 1296)}}))
    # 3b. 2 FP: doubles go to the 1 column, or off the IFT if Inexperienced.  Final = d.
    #     Regular: non-doubles 2 col: d3 1MC (2), d4 1MC (2), d5 NMC (4), d6 PTC (4);
    #     doubles 1 col: (1,1) f2 1MC, (2,2) f4 NMC, (3,3) f6 "-".  MC or worse: 2+2+4+1+1 =
    #     10/36, PTC or worse 14/36.  Inexperienced: the doubles do nothing: 8/36, 12/36.
    s3b = _sit({"fp": 2, "normal_range": 6})
    cases.append(("Cowering 2 FP", s3b, {"first_shot": {"p_mc_or_worse": F(10, 36),
                                                         "p_ptc_or_worse": F(14, 36)}}))
    s3c = _sit({"fp": 2, "normal_range": 6, "inexperienced": True})
    cases.append(("Cowering 2 FP inexperienced", s3c, {
        "first_shot": {"p_mc_or_worse": F(8, 36), "p_ptc_or_worse": F(12, 36)}}))

    # 4. MG Multiple ROF, never an effect: MG 2 FP ROF 1 alone, a 0 leader directing (no
    #    Cowering), TEM +6 and hindrance +10: Final >= 18, "-".  Each attack: (6,6) malfunctions
    #    (1/36); colored 1 keeps the ROF (6/36, never a 12); else the ROF is lost (29/36).
    #    e_shots = 1/(1 - 1/6) = 6/5; end_malfunction = (1/36)/(5/6) = 1/30;
    #    end_rof_exhausted = 29/30.  With max_shots 2: e_shots 7/6, shot_cap 1/36,
    #    malfunction 1/36 + 1/6 * 1/36 = 7/216, rof_exhausted 29/36 * 7/6 = 203/216.
    #    Inexperienced: B# 11, 11-12 (3/36) malfunction: end_malfunction (3/36)/(5/6) = 1/10.
    mg2 = {"fp": 0, "leader": 0, "mg": {"fp": 2, "normal_range": 6, "rof": 1}}
    s4 = _sit(mg2, {"tem": 6, "hindrance": 10})
    cases.append(("MG ROF 1 no effect", s4, {
        "first_shot": {"e_shots": 1, "p_malfunction": F(1, 36), "p_ptc_or_worse": 0},
        "phase": {"e_shots": F(6, 5), "p_malfunction": F(1, 30), "end_malfunction": F(1, 30),
                  "end_rof_exhausted": F(29, 30), "outcome_unharmed": 1, "end_shot_cap": 0}}))
    s4b = _sit(mg2, {"tem": 6, "hindrance": 10}, {"max_shots": 2})
    cases.append(("MG ROF 1 capped", s4b, {
        "phase": {"e_shots": F(7, 6), "end_shot_cap": F(1, 36), "end_malfunction": F(7, 216),
                  "end_rof_exhausted": F(203, 216)}}))
    s4c = _sit(dict(mg2, inexperienced=True), {"tem": 6, "hindrance": 10})
    cases.append(("MG ROF 1 inexperienced", s4c, {"phase": {"end_malfunction": F(1, 10)}}))
    # 4b. The same MG in the AFPh without Opportunity Fire or by a pinned firer: one attack.
    for fire in ({"phase": "advancing"}, {"pinned": True}):
        s = _sit(dict(mg2, mg={"fp": 8, "normal_range": 6, "rof": 3}), {"tem": 6,
                                                                        "hindrance": 10}, fire)
        cases.append(("no ROF %s" % fire, s, {"phase": {"e_shots": 1, "end_malfunction": P36,
                                                        "end_rof_exhausted": F(35, 36)}}))
    # 4c. ROF 3, a leader directing, Opportunity Fire in the AFPh (not halved): colored <= 3
    #     keeps it (18/36, never a 12), (6,6) malfunctions: e_shots = 1/(1 - 1/2) = 2.
    s4d = _sit(dict(mg2, mg={"fp": 2, "normal_range": 6, "rof": 3}), {"tem": 6, "hindrance": 10},
               {"phase": "advancing", "opportunity": True})
    cases.append(("Opportunity ROF 3", s4d, {"phase": {"e_shots": 2, "end_malfunction": F(1, 18)}}))
    # 4d. Without a leader the MG cowers on doubles: keep = colored 1, not doubles: 5/36,
    #     cowered ends it: (1,1)..(5,5) 5/36 ((6,6) is a malfunction first): e_shots 36/31,
    #     end_cowered (5/36)*(36/31) = 5/31, end_malfunction 1/31, rof_exhausted 25/31.
    s4e = _sit({"fp": 0, "mg": {"fp": 2, "normal_range": 6, "rof": 1}}, {"tem": 6, "hindrance": 10})
    cases.append(("MG ROF 1 cowers", s4e, {"phase": {
        "e_shots": F(36, 31), "end_cowered": F(5, 31), "end_malfunction": F(1, 31),
        "end_rof_exhausted": F(25, 31), "p_cowered": F(6, 31)}}))

    # 5. A concealed target: MG 4 FP alone, a -1 leader (no Cowering), ROF 3, max_shots 2,
    #    vs a good squad of morale 10 in TEM +1 (total DRM 0).  First attack: 4/2 = 2 FP,
    #    2 column: Final = d: 1KIA d <= 1 (none), K/1 d=2, 1MC 3-4, NMC 5, PTC 6.
    #    P(PTC or worse, first) = (1 + 2 + 3 + 4 + 5)/36 = 15/36: then the "?" is lost and the
    #    second attack is on the 4 column: PTC or worse on d <= 7: 21/36.  If not (21/36) the
    #    second attack is again on the 2 column: 15/36.  The second attack happens when the
    #    first keeps the ROF: colored <= 3 (no malfunction possible there), independent of d?
    #    No: d and the colored die are not independent, so count pairs: first attack PTC-or-worse
    #    (d <= 6) with colored <= 3: pairs (c, w) c <= 3, c + w <= 6: c=1: 5, c=2: 4, c=3: 3 =
    #    12/36; not PTC (d >= 7) with c <= 3: 18 - 12 = 6/36.
    #    P(PTC or worse in the phase) = 15/36 + (6/36)(15/36) = (540 + 90)/1296 = 630/1296.
    #    e_shots = 1 + 18/36, less the first attacks that eliminate the squad: only a K/1
    #    (d = 2: (1,1), colored 1 <= 3) whose HS rolls an Original 12 on its 1MC (1/36):
    #    e_shots = 3/2 - 1/1296.
    s5 = _sit({"fp": 0, "leader": -1, "mg": {"fp": 4, "normal_range": 6, "rof": 3}},
              {"concealed": True, "tem": 1, "morale": 10}, {"max_shots": 2})
    cases.append(("concealed loses ?", s5, {
        "first_shot": {"p_ptc_or_worse": F(15, 36)},
        "phase": {"p_ptc_or_worse": F(630, 1296), "e_shots": F(3, 2) - F(1, 1296)}}))

    # 6. FFNAM vs a broken target (A8.14, A9.2 EX: a broken unit is again subject to it):
    #    1 FP, cowers = false, Defensive First Fire, ffnam: Final = d - 1 on the 1 column:
    #    d=2 K/1, d=3-4 1MC, d=5 NMC, d=6 PTC: PTC or worse 15/36, K/# 1/36 (without the -1:
    #    10/36 and 0).  The DRM by status is checked directly in self_test (A7.83).
    s6 = _sit({"fp": 1, "normal_range": 6, "cowers": False}, {"broken": True, "ffnam": True},
              {"phase": "defensive"})
    cases.append(("FFNAM vs broken", s6, {"first_shot": {"p_ptc_or_worse": F(15, 36),
                                                         "p_casualty": F(1, 36)}}))

    # 7. stop_on = "effect" vs a target that started broken: the first attack ends the phase
    #    (READING), end_target_effect = 1 - P(eliminated by the first attack).
    s7 = _sit({"fp": 0, "leader": 0, "mg": {"fp": 2, "normal_range": 6, "rof": 3}},
              {"tem": 6, "hindrance": 10, "broken": True}, {"stop_on": "effect"})
    cases.append(("effect on a broken target", s7, {"phase": {"end_target_effect": 1,
                                                              "e_shots": 1}}))

    # 9. [[then]]: several attacks on one target in one phase (A7.31), each resolved before the
    #    next, the target's state carried (docs/infantry.md).  Below, "/1296" is one attack's
    #    IFT DR and MC/TC DR, "/1296^2" two attacks'.  A MC's DR e (2d6) counts 1 2 3 4 5 6 5 4
    #    3 2 1 /36 for e = 2..12.
    # 9a. Two 8 FP attacks, no Cowering (cowers = false on both), at a good crew of morale 7,
    #     range 3, no DRM.  8 column, Final = Original d: d=2 1KIA (1/36), d=3 K/2 (2/36) - a
    #     crew is eliminated by either (A7.301, A7.302) -, d=4-5 2MC (7/36), d=6-7 1MC (11/36),
    #     d=8 NMC (5/36), d=9 PTC (4/36), d >= 10 "-" (6/36).
    #     A good or pinned crew's MC: e = 12 Casualty MC eliminates it (A10.31; 1/36); else
    #     e + n > 7 breaks it, = 7 pins it: 2MC elim 1, broken 25 (e 6-11), pinned 4 (e 5),
    #     passed 6; 1MC 1, 20 (e 7-11), 5 (e 6), 10; NMC 1, 14 (e 8-11), 6 (e 7), 15.  Its PTC:
    #     pinned on e > 7 (15/36), a pinned crew takes none (A7.8).  No Heat of Battle (crew).
    #     Attack 1 on the good crew, /1296: eliminated 3*36 + 7 + 11 + 5 = 131; broken 7*25 +
    #     11*20 + 5*14 = 465; pinned 7*4 + 11*5 + 5*6 + 4*15 = 173; good 527.
    #     Attack 2 on a pinned crew: eliminated 131, broken 465, still pinned 700.  On a broken
    #     crew (broken side 7): K/# and KIA 108; a MC fails on e + n > 7 or e = 12 (2MC 26,
    #     1MC 21, NMC 15) and Reduces it, i.e. eliminates it (A10.3): 7*26 + 11*21 + 5*15 =
    #     488; eliminated 596, still broken 700.  The phase ends at once if attack 1
    #     eliminates it (A7.31 moot), so e_shots = 1 + (1296 - 131)/1296 = 2461/1296.
    #     /1296^2: eliminated 131*1296 + (527 + 173)*131 + 465*596 = 538616;
    #     broken at the end (527 + 173)*465 + 465*700 = 651000; pinned 527*173 + 173*700 =
    #     212271; unharmed 527^2 = 277729 (sum 1296^2 = 1679616).  p_broken (broke in an
    #     attack: the crew's failures on its broken side eliminate it, not "break" it) 465*1296
    #     + 700*465 = 928140; p_broken_or_worse 538616 + 651000 = 1189616; p_pinned (newly
    #     pinned) 173*1296 + 527*173 = 315379.  end: target_eliminated 538616, else (no MG, no
    #     Cowering) rof_exhausted 1141000.
    D2 = 1296 * 1296
    s9a = _sit({"fp": 8, "normal_range": 6, "cowers": False}, {"personnel": "crew"},
               then=[{"fp": 8, "normal_range": 6, "cowers": False}])
    cases.append(("then: two 8 FP attacks at a crew", s9a, {
        "first_shot": {"outcome_eliminated": F(131, 1296), "outcome_broken": F(465, 1296),
                       "outcome_pinned": F(173, 1296), "e_shots": 1},
        "phase": {"outcome_eliminated": F(538616, D2), "outcome_broken": F(651000, D2),
                  "outcome_pinned": F(212271, D2), "outcome_unharmed": F(277729, D2),
                  "p_eliminated": F(538616, D2), "p_broken": F(928140, D2),
                  "p_broken_or_worse": F(1189616, D2), "p_pinned": F(315379, D2),
                  "e_shots": F(2461, 1296), "end_target_eliminated": F(538616, D2),
                  "end_rof_exhausted": F(1141000, D2), "p_cowered": 0,
                  "p_heat_of_battle": 0}}))

    # 9b. A second attack at a target the first pinned, FFMO and FFNAM (A4.6, A8.13): Defensive
    #     First Fire at a good squad of morale 7, TEM 0.  Attack 1: 1 FP, a +2 leader directing
    #     (no Cowering): DRM +2 - 1 - 1 = 0, the 1 column, Final = d: d=2-3 1MC (3/36), d=4
    #     NMC (3/36), d=5 PTC (4/36), else "-" (26/36); no K/# or KIA (p_mc_or_worse 6/36).
    #     It pins the squad (/1296): 1MC e = 6 3*5, NMC e = 7 3*6, PTC e > 7 4*15: 93; breaks
    #     it 3*20 + 3*14 = 102, a broken HS (Casualty MC) 3 + 3 = 6; good 1095.
    #     Attack 2: 1 FP, cowers = false, no leader: DRM -2 at a good or broken target (FFNAM
    #     again vs a broken one, A8.14), 0 at a pinned one (A7.83): with -2 Final d - 2: d=2
    #     1KIA, d=3 K/1; with 0, d=2-3 are 1MC, no casualty.  p_kia = (1095 + 102 + 6)/1296 *
    #     1/36 = 1203/46656; p_casualty (K/# or KIA) 1203/1296 * 3/36 = 3609/46656 (both only
    #     from attack 2).  e_shots 2 (attack 1 eliminates nothing).
    s9b = _sit({"fp": 1, "normal_range": 6, "leader": 2}, {"ffmo": True, "ffnam": True},
               {"phase": "defensive"}, then=[{"fp": 1, "normal_range": 6, "cowers": False}])
    cases.append(("then: FFMO/FFNAM not at the pinned target", s9b, {
        "first_shot": {"p_mc_or_worse": F(6, 36), "p_pinned": F(93, 1296), "p_kia": 0},
        "phase": {"p_kia": F(1203, 46656), "p_casualty": F(3609, 46656), "e_shots": 2}}))

    # 9c. A broken target's second MC: a good squad, morale 7, broken side 6, TEM +1; two
    #     attacks of 1 FP, cowers = false: the 1 column, Final = d + 1: d=2 1MC (1/36), d=3 NMC
    #     (2/36), d=4 PTC (3/36), else "-" (30/36).
    #     After attack 1 (/1296): broken squad 1*20 + 2*14 = 48; broken HS (Casualty MC) 1 + 2
    #     = 3; pinned 1*5 + 2*6 + 3*15 = 62; good 1183.
    #     Attack 2 at the broken squad, its broken side 6 (A10.3): e = 12 eliminates it
    #     (A10.31); 1MC fails on e + 1 > 6 (e 6-11: 25) and NMC on e > 6 (20): Reduced to a
    #     broken HS; it stays a broken squad otherwise (1MC 10, NMC 15; no PTC for it).  At the
    #     broken HS: eliminated on 1MC 26, NMC 21.  "Stays" over the whole attack: 1*10 +
    #     2*15 + 3*36 + 30*36 = 1228.
    #     /1296^2: eliminated 48*(1 + 2) + 3*(26 + 2*21) = 348;
    #     reduced_broken 3*1228 + 48*(25 + 2*20) + (1183 + 62)*(1 + 2) = 10539;
    #     broken (a squad) 48*1228 + (1183 + 62)*(20 + 2*14) = 118704.  (With its good side 7
    #     the broken squad's 1MC would fail on e >= 7: 20, not 25.)
    s9c = _sit({"fp": 1, "normal_range": 6, "cowers": False},
               {"tem": 1, "broken_morale": 6},
               then=[{"fp": 1, "normal_range": 6, "cowers": False}])
    cases.append(("then: a broken target's second MC", s9c, {"phase": {
        "outcome_eliminated": F(348, D2), "outcome_reduced_broken": F(10539, D2),
        "outcome_broken": F(118704, D2), "e_shots": 2}}))

    # 9d. A second firer with its own MG ROF, at a target nothing can harm (TEM +6, hindrance
    #     +10: Final >= 18).  Attack 1: 4 FP and an MG of 2 FP, ROF 0, B# 12, a 0 leader: one
    #     IFT attack, malfunction 1/36.  Attack 2: an MG alone, 2 FP, ROF 2, B# 11, a 0 leader:
    #     malfunction on 11-12 (3/36); keeps its ROF on colored 1-2 (12/36, none of them >= 11);
    #     e = 1/(1 - 1/3) = 3/2 IFT attacks; ends malfunction (1/12)/(2/3) = 1/8, rof_exhausted
    #     (21/36)/(2/3) = 7/8.  Phase: e_shots 1 + 3/2 = 5/2; p_malfunction 1 - (35/36)(7/8) =
    #     43/288; end_* attack 2's.
    s9d = _sit({"fp": 4, "normal_range": 6, "leader": 0,
                "mg": {"fp": 2, "normal_range": 6, "rof": 0}}, {"tem": 6, "hindrance": 10},
               then=[{"fp": 0, "leader": 0,
                      "mg": {"fp": 2, "normal_range": 6, "rof": 2, "breakdown": 11}}])
    cases.append(("then: a second firer's MG ROF", s9d, {
        "first_shot": {"e_shots": 1, "p_malfunction": F(1, 36)},
        "phase": {"e_shots": F(5, 2), "p_malfunction": F(43, 288), "end_malfunction": F(1, 8),
                  "end_rof_exhausted": F(7, 8), "outcome_unharmed": 1}}))

    # 9e. A leader on the second attack only: a good squad, morale 7, TEM +3.  Attack 1: 1 FP,
    #     German, no leader: Final = d + 3 >= 6 ("-") on every non-doubles DR, and doubles cower
    #     off the 1 column: no effect, p_cowered 1/6.  Attack 2: 1 FP, a -2 leader (DRM +1, no
    #     Cowering, A7.53, A7.9): d=2 1MC (1/36), d=3 NMC (2/36), d=4 PTC (3/36).  p_broken =
    #     (1*21 + 2*15)/1296 = 51/1296 (1MC: e >= 7 or 12; NMC: e >= 8 or 12); e_shots 2;
    #     end rof_exhausted 1 (attack 2 neither cowers nor has an MG).
    s9e = _sit({"nationality": "german", "fp": 1, "normal_range": 6}, {"tem": 3},
               then=[{"fp": 1, "normal_range": 6, "leader": -2}])
    cases.append(("then: a leader on the second attack only", s9e, {
        "first_shot": {"p_cowered": F(1, 6), "p_ptc_or_worse": 0},
        "phase": {"p_cowered": F(1, 6), "p_ptc_or_worse": F(6, 36), "p_mc_or_worse": F(3, 36),
                  "p_broken": F(51, 1296), "e_shots": 2, "end_rof_exhausted": 1,
                  "end_cowered": 0}}))

    # 9f. max_shots on one attack: two MGs of case 4 (2 FP, ROF 1, a 0 leader, at a target
    #     nothing harms).  Capped at 2 IFT attacks: e 7/6, malfunction 7/216, shot_cap 1/36,
    #     rof_exhausted 203/216; uncapped: e 6/5, malfunction 1/30, rof_exhausted 29/30.
    #     fire.max_shots caps attack 1 only: e_shots 7/6 + 6/5 = 71/30, end_* attack 2's
    #     (no shot_cap); the cap on the [[then]] instead: e_shots 71/30 again, end_* the capped
    #     MG's.  p_malfunction 1 - (209/216)(29/30) = 419/6480 either way.
    mgf = {"fp": 0, "leader": 0, "mg": {"fp": 2, "normal_range": 6, "rof": 1}}
    s9f = _sit(mgf, {"tem": 6, "hindrance": 10}, {"max_shots": 2}, then=[dict(mgf)])
    cases.append(("then: fire.max_shots caps the first attack only", s9f, {"phase": {
        "e_shots": F(71, 30), "p_malfunction": F(419, 6480), "end_shot_cap": 0,
        "end_malfunction": F(1, 30), "end_rof_exhausted": F(29, 30)}}))
    s9g = _sit(mgf, {"tem": 6, "hindrance": 10}, then=[dict(mgf, max_shots=2)])
    cases.append(("then: a [[then]]'s own max_shots", s9g, {"phase": {
        "e_shots": F(71, 30), "p_malfunction": F(419, 6480), "end_shot_cap": F(1, 36),
        "end_malfunction": F(7, 216), "end_rof_exhausted": F(203, 216)}}))

    # 9h. Concealment lost carries (A12.14): a concealed good squad, morale 10, TEM 0; two
    #     attacks of 2 FP, a 0 leader.  Concealed: 1 FP, the 1 column, Final = d: PTC or worse
    #     on d <= 5 (10/36), NMC or worse d <= 4 (6/36).  Revealed (after a PTC or worse): the
    #     2 column, PTC or worse d <= 6 (15/36), NMC or worse d <= 5 (10/36).  Nothing
    #     eliminates the squad in attack 1 (no K/# or KIA).  Phase: p_ptc_or_worse = 10/36 +
    #     (26/36)(10/36) = 620/1296; p_mc_or_worse = 6/36 + (4/36)(10/36) + (26/36)(6/36) =
    #     412/1296.
    s9h = _sit({"fp": 2, "normal_range": 6, "leader": 0}, {"concealed": True, "morale": 10},
               then=[{"fp": 2, "normal_range": 6, "leader": 0}])
    cases.append(("then: concealment lost carries", s9h, {"phase": {
        "p_ptc_or_worse": F(620, 1296), "p_mc_or_worse": F(412, 1296), "e_shots": 2}}))

    # 9i. READING (see Model): fire.extra_drm is the first attack's only.  Attack 1: 1 FP,
    #     cowers = false, extra DRM +10: Final >= 12, no effect.  Attack 2: 1 FP, cowers =
    #     false, DRM 0: the 1 column, PTC or worse on d <= 5: 10/36 (with the +10 too, 0).
    s9i = _sit({"fp": 1, "normal_range": 6, "cowers": False}, {}, {"extra_drm": 10},
               then=[{"fp": 1, "normal_range": 6, "cowers": False}])
    cases.append(("then: fire.extra_drm is the first attack's (READING)", s9i, {
        "first_shot": {"p_ptc_or_worse": 0}, "phase": {"p_ptc_or_worse": F(10, 36)}}))

    # 8. The IFT as printed in the rule examples: A7.306 EX 8 FP Final 6 = 1MC; A7.308 EX 8 FP:
    #    Final 8 NMC, 4 2MC, 7 1MC; A12.13 EX: 4 FP Final 5 1MC, 2 FP Final 5 NMC; A7.34 EX:
    #    3 FP (2 column) Final 3 1MC, 1.5 FP (1 column) Final 4 NMC; A9.5 EX-free checks of
    #    the corners: 36 column <= 0 7KIA, >= 15 PTC; 1 column 6 "-".
    table = [(8, 6, "1MC"), (8, 8, "NMC"), (8, 4, "2MC"), (8, 7, "1MC"), (4, 5, "1MC"),
             (2, 5, "NMC"), (3, 3, "1MC"), (F(3, 2), 4, "NMC"), (36, -3, "7KIA"),
             (36, 20, "PTC"), (1, 6, "-"), (200, 15, "PTC"), (F(1, 2), 2, None)]
    return cases, table


def brute_force(sit):
    """An independent, naive enumeration of a phase whose every attack is capped (max_shots
    <= 2): every IFT DR and every MC/TC DR of every IFT attack of every attack in turn, no
    Markov chain, no memo (the outcomes of one IFT attack are only merged when identical).
    -> phase quantities (e_shots, p_*, outcome_*, end_*), to check Model.chain,
    Model.whole_attack and Model.window_phase."""
    m = Model(sit)
    assert all(at.cap is not None and at.cap <= 2 for at in m.attacks)
    last = len(m.attacks) - 1
    acc = {}

    def one(a, state, first):
        at = m.attacks[a]
        status, size, conc = state
        col = column_index(m.total_fp(a, first, conc, status == BROKEN))
        drm = m.drm(a, status)
        out = {}
        for c, w in DICE:
            orig = c + w
            cow = c == w and at.leader is None and at.cowers
            sh = (2 if at.inexp else 1) if cow else 0
            res = "-" if col is None or col < sh else ift(col - sh, orig + drm)
            malf = at.mg is not None and orig >= at.mg["b"]
            keeps = (at.mg is not None and c <= at.mg["rof"] and not cow and not malf
                     and not at.pinned and not (m.phase == "advancing" and not at.opp))
            ev = result_flags(res)
            if cow:
                ev.add("p_cowered")
            if malf:
                ev.add("p_malfunction")
            for q, st, ev2 in m.apply(res, status, size):
                if st[0] == BROKEN or st[1] == DEAD:
                    ev2 = ev2 | {"p_broken_or_worse"}
                k = ((st[0], st[1], conc and res == "-"), frozenset(ev | ev2), malf, cow, keeps)
                out[k] = out.get(k, 0) + P36 * q
        return out

    def go(p, a, state, events, shots):
        for (ns, ev, malf, cow, keeps), q in one(a, state, shots == 0).items():
            pp = p * q
            acc["e_shots"] = acc.get("e_shots", 0) + pp
            allev = events | ev
            why = m.end(a, ns, malf, cow, keeps, shots + 1)
            if why is None:
                go(pp, a, ns, allev, shots + 1)
                continue
            if a < last and why not in ("target_eliminated", "target_effect"):
                go(pp, a + 1, ns, allev, 0)          # the next attack at the same target
                continue
            for n in allev:
                acc[n] = acc.get(n, 0) + pp
            for k in ("outcome_" + m.outcome(ns), "end_" + why):
                acc[k] = acc.get(k, 0) + pp

    go(F(1), 0, m.initial(), frozenset(), 0)
    return acc


def set_caps(sit, caps):
    """fire.max_shots and each [[then]]'s max_shots: caps[i] for attack i (None: no cap)."""
    for d, cap in zip([sit["fire"]] + sit.get("then", []), caps):
        d.pop("max_shots", None)
        if cap is not None:
            d["max_shots"] = cap


def self_test(verbose=False):
    """-> number of failures; prints one line per failure and a summary."""
    fails = 0
    cases, table = hand_cases()
    for fp, final, want in table:
        col = column_index(fp)
        got = None if col is None else ift(col, final)
        if got != want:
            fails += 1
            print("FAIL IFT %s FP Final %s: %s, expected %s" % (fp, final, got, want))
    # A7.83 / A8.14: FFMO and FFNAM (-1 each) vs a good or broken target, not vs a pinned one
    mdl = Model(_sit({"fp": 4, "normal_range": 6, "leader": -1},
                     {"ffmo": True, "ffnam": True, "tem": -1, "hindrance": 2},
                     {"phase": "defensive", "extra_drm": 3}))
    for status, want in ((GOOD, 1), (PINNED, 3), (BROKEN, 1)):   # -1 -1 +2 +3 (-2 if not pinned)
        if mdl.drm(0, status) != want:
            fails += 1
            print("FAIL IFT DRM vs a %s target: %d, expected %d" % (status, mdl.drm(0, status),
                                                                  want))
    n = 0
    for name, sit, exp in cases:
        if refusal(sit) is not None:
            fails += 1
            print("FAIL %s: the model refuses it: %s" % (name, refusal(sit)))
            continue
        got = Model(sit).run()
        for blk, qs in exp.items():
            for k, v in qs.items():
                n += 1
                if got[blk].get(k, F(0)) != F(v):
                    fails += 1
                    print("FAIL %s: %s %s = %s, expected %s" % (name, blk, k,
                                                                got[blk].get(k), F(v)))
    # the Markov chain against the naive enumeration, on random capped phases
    r = random.Random(20261125)
    m_checked = 0
    with_then = 0
    for i in range(60):
        sit, why = situation(r)
        if why is not None or (i >= 40 and "then" not in sit):
            continue                                # the last 20 draws: [[then]] phases only
        # every attack capped, at most 4 IFT attacks in all (the enumeration is naive)
        sit["then"] = sit.get("then", [])[:2]
        if not sit["then"]:
            del sit["then"]
        caps = [r.choice([1, 2, 2]) if d.get("mg") else 1
                for d in [sit["firer"]] + sit.get("then", [])]
        while sum(caps) > 4:
            caps[caps.index(2)] = 1
        set_caps(sit, caps)
        if refusal(sit) is not None:
            continue
        mine = Model(sit).run()["phase"]
        brute = brute_force(sit)
        m_checked += 1
        with_then += "then" in sit
        for k in set(mine) | set(brute):
            if mine.get(k, F(0)) != brute.get(k, F(0)):
                fails += 1
                print("FAIL brute force %d: %s model %s brute %s\n%s" % (
                    i, k, mine.get(k), brute.get(k), situation_text(sit)))
                break
    # the uncapped chain (self loops summed) against a long cap on every attack
    for i in range(25):
        sit, why = situation(r)
        attackers = [sit["firer"]] + sit.get("then", [])
        if why is not None or not any(d.get("mg") for d in attackers):
            continue
        set_caps(sit, [None] * len(attackers))
        inf = Model(sit).run()["phase"]
        set_caps(sit, [60] * len(attackers))
        capped = Model(sit).run()["phase"]
        m_checked += 1
        for k in inf:
            if k in ("end_rof_exhausted", "end_shot_cap"):
                continue
            if abs(float(inf[k]) - float(capped[k])) > 1e-12:
                fails += 1
                print("FAIL cap 60 vs no cap %d: %s %s %s" % (i, k, float(inf[k]),
                                                              float(capped[k])))
    print("infantry_model self-test: %d hand cases (%d values), %d IFT cells, %d phases "
          "cross-checked (%d with [[then]] attacks): %s"
          % (len(cases), n, len(table), m_checked, with_then,
             "%d FAILED" % fails if fails else "all pass"))
    return fails


# --------------------------------------------------------------------------- driver
SECTIONS = ("firer", "target", "fire")


def situation_text(sit):
    """The situation file: its tables, then one [[then]] table for each later attack."""
    text = harness.toml_text(sit, SECTIONS, head=[("ruleset", "asl")], blank_lines=True)
    for th in sit.get("then", []):
        text += "\n[[then]]\n" + "".join("%s = %s\n" % (k, harness.toml_value(v))
                                         for k, v in th.items())
    return text


def first_shot_only(blk, k):
    """end_* are the phase's only."""
    return blk == "first_shot" and k.startswith("end_")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--self-test" in argv:
        return 1 if self_test() else 0
    ap = harness.arguments(__doc__, count=400, readings=READINGS)
    a = harness.parse(ap, argv)
    fails = self_test_quick()
    if fails:
        print("infantry_model: %d hand-derived self-test values fail: the model is wrong" % fails)
        return 1
    r = random.Random(a.seed)
    sits = [situation(r) for _ in range(a.count)]
    n_then = sum(1 for sit, why in sits if why is None and "then" in sit)
    h = harness.Run(a, notes=["%d accepted with [[then]] attacks" % n_then],
                    counts=("refused by salvo", "refused as predicted"))

    def cases():
        for i, (sit, why) in enumerate(sits):
            yield "s%05d.toml" % i, situation_text(sit), (sit, why)

    def check(path, payload):
        sit, why = payload
        if why is not None:
            odds = h.odds(path)
            if odds.refused:
                return harness.Refused(odds.error, kind="refused as predicted")
            return ["the situation format says salvo refuses this (%s), but salvo: %s"
                    % (why, odds.error or "exit 0")]
        values, stop = h.values(path)
        if stop:
            return stop
        model = Model(sit, a.salvo_reading).run()
        return h.compare(model, values, absent="zero", extra="zero", skip=first_shot_only)

    return h.run(cases(), check)


def self_test_quick():
    """The hand-derived values only (a fraction of a second)."""
    fails = 0
    cases, table = hand_cases()
    for fp, final, want in table:
        col = column_index(fp)
        if (None if col is None else ift(col, final)) != want:
            fails += 1
    for name, sit, exp in cases:
        got = Model(sit).run()
        for blk, qs in exp.items():
            for k, v in qs.items():
                if got[blk].get(k, F(0)) != F(v):
                    fails += 1
    return fails


if __name__ == "__main__":
    sys.exit(main())
