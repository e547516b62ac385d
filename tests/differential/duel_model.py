#!/usr/bin/env python3
"""Exact model of ASL ordnance fire against an armored vehicle, over one fire phase or a duel
of several turns (`fire.turns = N`), checked against the `salvo` odds calculator.

This is an independent implementation written from the rule texts (ASL Chapters A, C and D:
A9.7, A21.11-.13, C2-C8, D3-D4) and from the readings
that salvo's user documentation (README, "Situation files" and "Duels over several turns") states
for points the rules leave open.  It does not use or mirror salvo's code.  Standard library only.

What it models: To Hit (C3 table, red/black A25, C4 gun and ammunition modifications, Cases A
to R as generated), Improbable and Critical Hits (C3.6-.7), Multiple Hits of 15-40mm guns (C3.8),
hit location and hull down (C3.9, D4.2), To Kill (C7.31-.34, Case D, rear, superior/inferior
turret armor, Dud, burning wreck with a red CS#), Rate of Fire and Intensive Fire (C2.24, C5.6),
malfunction, X# and Low Ammo (A9.7, A.11, D3.71), special ammunition depletion and fallback (C8.9),
Acquisition and concealment (C6.5, C6.57); and, over several turns, repair in the Rally Phase
(D3.7 vehicles, A9.72 Guns), Shock and Unconfirmed Kill recovery (C7.42), Acquisition carried
over and lost on a malfunction, Low Ammo and spent special ammunition staying spent.

Readings followed:
  * A21.11-.13: `firer.captured` and `firer.non_qualified` each give one level of penalty - red
    To Hit numbers, Case H +2, B# -2 (the original B# becoming an X#, A.11), Multiple ROF -1 (not
    below 0); both together give two levels (+4, B# -4, ROF -2).  non_qualified is generated only
    for a Gun (vehicle = false), as salvo refuses it on a vehicle.
  * Repair (A9.72, D3.7): a captured weapon is never repaired; a Gun manned by non-qualified
    Infantry is never repaired (only a crew repairs a Gun) and then needs no `firer.repair`; a gun
    with no ammunition left (special ammunition gone, fallback_ammo = "none") makes no attempt.
  * Duel end: the target destroyed; or, the target not Shocked, the gun out for good (disabled,
    or malfunctioned and never to be repaired) or out of ammunition.  The end reason is
    out_of_ammo (gun not disabled, no ammunition) or gun_disabled whenever the gun is out for good
    at the end, on the last turn too; turns_over only when it could still fire or be repaired.
  * C2.5: a non-vehicular NT Gun without Multiple ROF (after the A21 reduction) that changes CA
    for its first shot cannot Intensive Fire in that Player Turn - in a duel, turn 1 only.  The
    one-turn situation with that combination (refused by salvo) is not generated.
  * C3.8 + D4.2: a Multiple Hit whose second hit lands on the hull of a hull-down target scores
    one hit in e_hits (it is still a Multiple Hit); the first hit's result stands, a Dud included.
  * C4.3/C7.32: the German 28LL and 40LL use the APCR To Hit modification always, the APCR To Kill
    table and APCR Case D for AP as well, and never deplete.
  * The better of a Multiple Hit's two results is kept in the order burn > eliminated > shock >
    immobilized > possible shock > no effect > dud; a hit removes concealment (Case K) and only
    then builds Acquisition; Possible Shock has no lasting effect in a duel.

Method: every To Hit DR (36 ordered colored/white pairs), subsequent dr and To Kill DR is
enumerated with fractions.Fraction; the Rate of Fire loop is solved as an absorbing chain and a
duel as a distribution over the carried-over state, turn by turn.

Run:
  python3 duel_model.py SALVO [--count N] [--seed S] [--turns-min T] [--keep DIR] [--show K] [-v]

It generates N random situations from seed S, writes each as a TOML file in a temporary
directory (removed at the end; --keep DIR writes them there and keeps them), runs
`SALVO odds FILE --format json` and compares every quantity salvo reports (turn 1 / first shot
and the whole duel / phase) with the model to 1e-9.  A situation salvo refuses, or a quantity
only one side reports, counts as a disagreement.  The TOML of the first K (default 3)
disagreements is printed; the last line is a one-line summary.
Exit status: 0 all agree, 1 any disagreement, 2 usage error.
For a test suite: `duel_model.py SALVO --count 150 --seed 1` (about 15 s on 2 cores).

The glue - command line, running salvo, comparing to 1e-9, the report - is harness.py's,
shared by the models; this file holds only its reading of the rules and its generator.
"""
import random
import sys
from fractions import Fraction as F

import harness

# ----------------------------------------------------------------------------- tables
AF_SCALE = [0, 1, 2, 3, 4, 6, 8, 11, 14, 18, 26]
TH_BLACK = [10, 9, 8, 7, 6, 6, 5, 4, 3, 2]      # C3 Vehicle row, bands 0-6,7-12,...,>54
TH_RED = [10, 8, 7, 6, 5, 4, 3, 2, 1, 0]

# gun name -> dict(ammo -> Basic TK#) per nationality group (C7.31-.34)
def he_tk(cal):                                   # C7.34 armored target
    for lim, tk in ((150, 16), (120, 12), (100, 10), (80, 8), (70, 7), (50, 6), (40, 5), (30, 4), (20, 3)):
        if cal >= lim:
            return tk
    return None

HEAT_TK = {37: 26, 40: 26, 47: 26, 57: 11, 65: 11, 70: 12, 75: 13, 76: 13, 100: 14, 105: 15, 95: 16,
           122: 17, 150: 21}

GUNS = {
    # nationality: {gun: {AP: tk, APCR: tk, APDS: tk}}
    'german': {'20L': {'AP': 6}, '28LL': {'AP': 12, 'APCR': 12}, '40LL': {'AP': 14, 'APCR': 14},
               '37': {'AP': 8}, '37L': {'AP': 9, 'APCR': 10}, '40L': {'AP': 10},
               '47L': {'AP': 11, 'APCR': 13}, '50': {'AP': 11, 'APCR': 14}, '50L': {'AP': 13, 'APCR': 17},
               '75*': {'AP': 10}, '75': {'AP': 14}, '75L': {'AP': 17, 'APCR': 20}, '75LL': {'AP': 23},
               '88L': {'AP': 20, 'APCR': 23}, '88LL': {'AP': 27}, '105': {'AP': 14}, '150*': {'AP': 17}},
    'russian': {'37L': {'AP': 9, 'APCR': 10}, '45L': {'AP': 10, 'APCR': 12}, '45LL': {'AP': 11, 'APCR': 13},
                '57LL': {'AP': 15, 'APCR': 18}, '85L': {'AP': 17, 'APCR': 19}, '122L': {'AP': 25}},
    'american': {'37L': {'AP': 9}, '75': {'AP': 14}, '76L': {'AP': 17, 'APCR': 22}, '90L': {'AP': 21, 'APCR': 27},
                 '105': {'AP': 14}},
    'british': {'57L': {'AP': 15, 'APDS': 18}, '76LL': {'AP': 23, 'APDS': 25}, '75': {'AP': 14}},
}


def apcr_always(nat, gun):
    """C4.3/C7.32: the German 28LL and 40LL always use the APCR To Hit modification and the
    APCR To Kill table (with its Case D) unless firing HE, and are not subject to depletion."""
    return nat == 'german' and gun in ('28LL', '40LL')


def parse_gun(g):
    suf = ''
    for s in ('LL', 'L', '*'):
        if g.endswith(s):
            suf = s
            g = g[:-len(s)]
            break
    return int(g), suf


def th_color(nat, year, month):
    if nat in ('german', 'british'):
        return 'black'
    if nat == 'american':
        return 'black' if year >= 1944 else 'red'
    return 'red'


def band(r):
    return min(9, max(0, (r - 1) // 6)) if r > 0 else 0


def c4_mod(cal, suf, ammo, r):
    if r <= 12:
        return 0
    steps = min(4, (r - 12 + 11) // 12)            # per 12 hexes (or fraction) beyond 12
    m = 0
    if suf == '*':
        m -= 1
    elif suf == 'L':
        m += 1
    elif suf == 'LL':
        m += 2 if r > 24 else 1
    if ammo in ('APCR', 'APDS'):
        m -= steps
    if cal <= 57:
        m -= steps
    if cal <= 40:
        m -= 1
    return m


def case_d(cal, ammo, r):
    """C7.24 range change; None = NA (no kill possible)."""
    if ammo == 'AP':
        if cal <= 25:
            row = [2, 1, 1, 0, 0, -1, -2, -3, -4, -5]
        elif cal <= 57:
            row = [1, 1, 0, 0, 0, -1, -2, -2, -3, -4, -4, -5]
        else:
            row = [1, 0, 0, 0, 0, -1, -1, -2, -2, -3, -3, -4, -4, -5, -5]
    elif ammo == 'APCR':
        row = [3, 2, 1, 0, -2, -4, -6] if cal <= 57 else [3, 2, 1, 0, -1, -3, -4, -5, -6, -7]
    elif ammo == 'APDS':
        row = [1, 0, 0, 0, 0, 0, -1, -2, -3, -4]
    else:
        return 0
    if r <= 1:
        i = 0
    elif r == 2:
        i = 1
    elif r <= 6:
        i = 2
    else:
        i = 3 + (r - 7) // 6
    return row[i] if i < len(row) else None


def basic_tk(sit, ammo):
    fr = sit['firer']
    cal, suf = parse_gun(fr.get('gun', '75'))
    if ammo == 'HE':
        return he_tk(cal)
    if ammo == 'HEAT':
        return HEAT_TK[cal]
    return GUNS[fr.get('nationality', 'german')][fr.get('gun', '75')][ammo]



RANK = {'dud': 0, 'none': 1, 'pshock': 2, 'immob': 3, 'shock': 4, 'elim': 5, 'burn': 6}


def tk_result(o, T, hull, ammo, red_cs=False):
    if T is None:                 # Case D "NA": no kill possible, no TK DR (no effect)
        return 'none'
    if o == 12:
        return 'dud'
    if o < T:
        # burning wreck on <= half the Final TK#; a red CS# is -1 for this check only (C7.7 note A)
        return 'burn' if 2 * (o - (1 if red_cs else 0)) <= T else 'elim'
    if o == T:
        return 'immob' if hull else 'shock'
    if o == T + 1:
        if ammo == 'HE':
            return 'immob' if hull else 'shock'
        return 'pshock'
    return 'none'


# ----------------------------------------------------------------------------- one shot
class Sit:
    """Normalised situation (everything the shot and duel depend on)."""

    def __init__(self, d):
        fr, tg, fi = d.get('firer', {}), d.get('target', {}), d.get('fire', {})
        self.d = d
        self.nat = fr.get('nationality', 'german')
        self.year = fr.get('year', 1944)
        self.gun = fr.get('gun', '75')
        self.cal, self.suf = parse_gun(self.gun)
        self.ammo = fr.get('ammo', 'AP')
        self.rof = fr.get('rof', 0)
        self.B = fr.get('breakdown', 12)
        self.X = fr.get('x_number')
        self.circled = fr.get('low_ammo', False)
        self.la_marked0 = fr.get('low_ammo_marked', False)
        self.depl = fr.get('depletion')
        if self.depl is not None and fr.get('elite', False):
            self.depl += 1
        self.apcr_always = apcr_always(self.nat, self.gun)
        self.special = (self.ammo in ('APCR', 'APDS', 'HEAT') and self.depl is not None
                        and not self.apcr_always)
        self.fallback = fr.get('fallback_ammo', 'AP')
        self.gun_type = fr.get('gun_type', 'T')
        self.vehicle = fr.get('vehicle', True)
        self.captured = fr.get('captured', False)
        self.nonq = fr.get('non_qualified', False)
        self.no_if = fr.get('no_intensive_fire', False)
        self.repair = fr.get('repair')
        arm = tg.get('armor', {})
        self.af = {k: arm.get(k, 8) for k in ('hull_front', 'hull_side', 'turret_front', 'turret_side')}
        self.tarm = tg.get('turret_armor', 'normal')
        self.facing = tg.get('facing', 'front')
        sz = tg.get('size', 'average')
        self.size = {'very_large': -2, 'large': -1, 'average': 0, 'small': 1, 'very_small': 2}.get(sz, sz)
        self.hd = tg.get('hull_down', False)
        self.red_cs = tg.get('red_cs', False)
        self.leader = fr.get('armor_leader', 0)
        self.moving = tg.get('moving', False)
        self.concealed0 = tg.get('concealed', False)
        self.tem = tg.get('tem', 0)
        self.hind = tg.get('hindrance', 0)
        self.range = fi.get('range', 6)
        self.phase = fi.get('phase', 'prep')
        self.ca_change = fi.get('ca_change', 0)
        self.terrain = fi.get('firer_terrain', 'open')
        self.bu = fi.get('buttoned_up', False)
        self.acq0 = fi.get('acquisition', 0)
        self.extra = fi.get('extra_drm', 0)
        self.pinned = fi.get('pinned', False)
        self.max_shots = fi.get('max_shots')
        self.intensive = fi.get('intensive_fire', False)
        self.stop_on = fi.get('stop_on', 'destroyed')
        self.turns = fi.get('turns', 1)
        self.rph = fi.get('rally_phases', 1)
        self.color = 'red' if self.penalty_level() else th_color(self.nat, self.year, fr.get('month', 6))
        self.obstacle = self.terrain in ('woods', 'building', 'rubble')

    def case_a(self):
        n = self.ca_change
        if n == 0:
            return 0
        first = {'T': 1, 'ST': 2, 'NT': 3}[self.gun_type]
        v = first + (n - 1)
        return 2 * v if self.obstacle else v

    def cond_rof(self):
        """C2.5: a non-vehicular NT Gun's CA-changing shot has its ROF lowered by 1."""
        return (not self.vehicle) and self.gun_type == 'NT' and self.ca_change > 0

    def penalty_level(self):
        """A21.11-.13: 1 for captured or non-qualified use, 2 for both (penalties doubled)."""
        return int(self.captured) + int(self.nonq)

    def base_rof(self):
        if self.phase == 'advancing' or self.pinned:
            return 0
        return max(0, self.rof - self.penalty_level())

    def modified_th(self, ammo):
        base = (TH_BLACK if self.color == 'black' else TH_RED)[band(self.range)]
        return base + c4_mod(self.cal, self.suf, 'APCR' if self.apcr_always else ammo, self.range)

    def drm(self, case_a, acq, concealed, ifshot):
        d = 0
        if case_a:
            d += self.case_a()
        if self.phase == 'advancing':
            d += 3 if self.obstacle else 2
        if self.pinned:
            d += 2      # Case D (C5.4)
        if ifshot:
            d += 2
        if self.captured:
            d += 2
        if self.nonq:
            d += 2
        if self.bu:
            d += 1
        if self.moving:
            d += 2
        if concealed:
            d += 2
        if not self.moving:                      # C6.3: no Case L vs a Motion/Non-Stopped vehicle
            if self.range == 1:
                d -= 2
            elif self.range == 2:
                d -= 1
        d -= acq
        d += self.leader
        d += self.size + self.tem + self.hind + self.extra
        return d

    def repairable(self):
        """A9.72/D3.7: a captured weapon is never repaired (until recaptured); only a crew
        repairs a Gun, so a Gun manned by non-qualified Infantry is never repaired."""
        if self.captured:
            return False
        if self.nonq and not self.vehicle:
            return False
        return True

    def breakdown(self, o, ifshot, la_marked):
        """-> (malf 0/1/2, low_ammo bool)."""
        B = self.B
        X = self.X
        red = (2 if ifshot else 0) + 2 * self.penalty_level()
        if self.circled and la_marked:
            X = B if X is None else min(X, B)
            B = B - 1
        if red:
            X = self.B if X is None else min(X, self.B)
            B = B - red
        if X is not None and o >= X:
            return 2, False
        if self.circled and not la_marked:
            if o == 12:
                return 1, False
            if o >= B:
                return 0, True
            return 0, False
        if o >= B:
            return 1, False
        return 0, False

    def final_tk(self, ammo, crit, turret):
        b = basic_tk_cached(self, ammo)
        if b is None:
            return None
        if crit:
            b *= 2
        if self.facing == 'rear':
            b += 1
        cd_ammo = 'APCR' if (self.apcr_always and ammo == 'AP') else ammo
        cd = case_d(self.cal, cd_ammo, self.range) if ammo in ('AP', 'APCR', 'APDS') else 0
        if cd is None:
            return None
        b += cd
        side = 'front' if self.facing == 'front' else 'side'
        af = self.af[('turret_' if turret else 'hull_') + side]
        if turret and self.tarm != 'normal':  # D1.62-.63: one step up/down the AF scale
            i = AF_SCALE.index(af)
            af = AF_SCALE[i + 1] if self.tarm == 'superior' else AF_SCALE[i - 1]
        return b - af


def basic_tk_cached(s, ammo):
    return basic_tk(s.d, ammo)


def hit_effect(s, ammo, crit, turret, mh):
    """Distribution over (result, dud_flag) for a hit at location; mh = Multiple Hit."""
    out = {}
    T1 = s.final_tk(ammo, crit, turret)
    if not mh:
        for c in range(1, 7):
            for w in range(1, 7):
                r = tk_result(c + w, T1, not turret, ammo, s.red_cs)
                out[(r, 0)] = out.get((r, 0), 0) + F(1, 36)
        return out
    Tt = s.final_tk(ammo, False, True)
    Th = s.final_tk(ammo, False, False)
    for c in range(1, 7):
        for w in range(1, 7):
            r1 = tk_result(c + w, T1, not turret, ammo, s.red_cs)
            if c + w == 12:
                r1 = 'dud'      # C7.35; rolled even under Case D NA, as it locates the second hit
            turret2 = c < w
            for c2 in range(1, 7):
                for w2 in range(1, 7):
                    if s.hd and not turret2:
                        r2 = None           # D4.2: the second hit strikes the hull: nothing
                    else:
                        r2 = tk_result(c2 + w2, Tt if turret2 else Th, not turret2, ammo, s.red_cs)
                    r = r1 if r2 is None or RANK[r1] >= RANK[r2] else r2
                    k = (r, 1 if r2 is None else 2)
                    out[k] = out.get(k, 0) + F(1, 1296)
    return out


_shot_cache = {}


def shot_dist(s, ammo, special, case_a, acq, concealed, ifshot, la_marked):
    """Distribution of one To Hit attempt.
    key: (fired, malf, la, depl, rof_kept, hit, crit, mh, res)
      depl: 0 none, 1 used and gone, 2 not there."""
    key = (id(s), ammo, special, case_a, acq, concealed, ifshot, la_marked)
    if key in _shot_cache:
        return _shot_cache[key]
    M = s.modified_th(ammo)
    D = s.drm(case_a, acq, concealed, ifshot)
    rof = s.base_rof()
    if case_a and s.cond_rof():
        rof = rof - 1
    lowest = 2 + D
    mh_ok = 15 <= s.cal <= 40
    dist = {}

    def add(k, p):
        dist[k] = dist.get(k, 0) + p

    for c in range(1, 7):
        for w in range(1, 7):
            o = c + w
            p = F(1, 36)
            malf, la = s.breakdown(o, ifshot, la_marked)
            kept = c <= rof and malf == 0
            depl = 0
            if special:
                if o > s.depl:
                    if malf or la:
                        add((True, malf, la, 2, kept, False, False, False, 'miss'), p)
                    else:
                        add((False, 0, False, 2, False, False, False, False, 'noshot'), p)
                    continue
                if o == s.depl:
                    depl = 1
            base = (True, malf, la, depl, kept)
            # hits: list of (prob, crit, turret, mh)
            hits = []
            if lowest > M:                     # C3.6 improbable hit
                if o == 2:
                    for sd in range(1, 7):
                        q = p / 6
                        if sd == 1:
                            hits.append((q, True, s.hd, False))
                        elif sd == 2:
                            hits.append((q, False, True, False))
                        elif sd == 3 and not s.hd:
                            hits.append((q, False, False, False))
                        else:
                            hits.append((q, None, None, None))
                else:
                    hits.append((p, None, None, None))
            elif o + D <= M:
                if o == 2:
                    if lowest == M:             # only the lowest Final DR hits: CH on dr 1
                        hits.append((p / 6, True, s.hd, False))
                        hits.append((p * 5 / 6, False, s.hd, mh_ok))
                    else:
                        hits.append((p, True, s.hd, False))
                else:
                    turret = c < w
                    if s.hd and not turret:
                        hits.append((p, None, None, None))
                    else:
                        hits.append((p, False, turret, mh_ok and c == w))
            else:
                hits.append((p, None, None, None))
            for q, crit, turret, mh in hits:
                if crit is None:
                    add(base + (False, False, False, 'miss'), q)
                    continue
                # mh: 0 single hit, 1 Multiple Hit whose second hit struck nothing, 2 two hits
                for (r, nh), pr in hit_effect_cached(s, ammo, crit, turret, mh).items():
                    add(base + (True, crit, nh, r), q * pr)
    _shot_cache[key] = dist
    return dist


_he_cache = {}


def hit_effect_cached(s, ammo, crit, turret, mh):
    k = (id(s), ammo, crit, turret, mh)
    if k not in _he_cache:
        _he_cache[k] = hit_effect(s, ammo, crit, turret, mh)
    return _he_cache[k]


EFFECT = ('pshock', 'immob', 'shock', 'elim', 'burn')


def result_flags(r):
    fired, malf, la, depl, kept, hit, crit, mh, res = r
    fl = set()
    if hit:
        fl.add('p_hit')
    if crit:
        fl.add('p_critical')
    if mh:
        fl.add('p_multiple_hit')
    if res in ('burn', 'elim'):
        fl.add('p_kill')
    m = {'burn': 'p_burn', 'elim': 'p_eliminated', 'immob': 'p_immobilized', 'shock': 'p_shock',
         'pshock': 'p_possible_shock', 'dud': 'p_dud'}
    if res in m:
        fl.add(m[res])
    if malf:
        fl.add('p_malfunction')
    if malf == 2:
        fl.add('p_disabled')
    if la:
        fl.add('p_low_ammo')
    if depl:
        fl.add('p_depleted')
    return fl


FLAGS = ['p_hit', 'p_critical', 'p_multiple_hit', 'p_kill', 'p_burn', 'p_eliminated', 'p_immobilized',
         'p_shock', 'p_possible_shock', 'p_dud', 'p_malfunction', 'p_disabled', 'p_low_ammo', 'p_depleted']

# ----------------------------------------------------------------------------- one fire phase
# phase state: (caseA, acq, conc, special, la, immob, shock, ifmode, nshots, noif, last)
#   shock: 0 none, 1 shocked, 2 unconfirmed kill ; ifmode: 0 normal shots, 1 the IF shot
# exit: (end, last, gun, acq, conc, caseA, special, la, immob, shock, destroyed)


class Phase:
    def __init__(self, s, track_last):
        self.s = s
        self.track_last = track_last
        self.memo = {}

    def ammo_of(self, special):
        s = self.s
        if special:
            return s.ammo
        if s.special:
            return s.fallback
        return s.ammo

    def has_ammo(self, special):
        s = self.s
        return special or not s.special or s.fallback != 'none'

    def solve(self, ps, kill):
        """-> (exits, e_shots, e_hits).  An exit's 'last' field is the result of the last shot,
        or 'PREV' when the phase ended on an attempt that was not fired (resolved by the caller)."""
        k = (ps, kill)
        if k in self.memo:
            return self.memo[k]
        s = self.s
        caseA, acq, conc, special, la, immob, shock, ifmode, nshots, noif = ps
        ammo = self.ammo_of(special)
        dist = shot_dist(s, ammo, special and s.special, caseA, acq, conc, ifmode == 1, la)
        tl = self.track_last
        selfr = []
        exits = {}
        es = F(0)
        eh = F(0)
        nexts = []

        def addx(ex, p):
            exits[ex] = exits.get(ex, 0) + p
        for r, p in dist.items():
            fired, malf, la_r, depl, kept, hit, crit, mh, res = r
            if kill is not None and kill in result_flags(r):
                continue
            if not fired:
                # no such ammunition: not fired for any purpose (C8.9); again with the fallback
                if s.fallback == 'none':
                    # the phase ends on an attempt that fired nothing: its outcome is no_shot
                    addx(('out_of_ammo', 'no_shot' if tl else None, 0, acq, conc, caseA, False, la,
                          immob, shock, False), p)
                    continue
                nps = (caseA, acq, conc, False, la, immob, shock, ifmode, nshots, noif)
                nexts.append((p, nps, None))
                continue
            es += p
            eh += p * ((2 if mh == 2 else 1) if hit else 0)
            n2 = nshots + 1 if s.max_shots else 0
            conc2 = conc and not hit
            acq2 = acq if (conc and not hit) else min(2, acq + 1)
            gun = malf
            if malf:
                acq2 = 0
            la2 = la or la_r
            sp2 = special and depl == 0
            immob2 = immob or res == 'immob'
            shock2 = 1 if res == 'shock' else shock
            destroyed = res in ('burn', 'elim')
            last2 = res if tl else None
            noif2 = noif or (caseA and s.cond_rof() and s.base_rof() == 0)
            end = None
            if destroyed and s.stop_on in ('destroyed', 'effect'):
                end = 'target_destroyed'
            elif s.stop_on == 'effect' and res in EFFECT:
                end = 'target_effect'
            elif malf:
                end = 'malfunction'
            elif s.max_shots and n2 >= s.max_shots:
                end = 'shot_cap'
            elif ifmode == 1:
                end = 'intensive_fire_done'
            elif kept:
                if not self.has_ammo(sp2):
                    end = 'out_of_ammo'
            elif s.intensive and not noif2 and not s.no_if:
                if not self.has_ammo(sp2):
                    end = 'out_of_ammo'
            else:
                end = 'rof_exhausted'
            if end is not None:
                addx((end, last2, gun, acq2, conc2, False, sp2, la2, immob2, shock2, destroyed), p)
                continue
            if0 = 0 if kept else 1
            nps = (False, acq2, conc2, sp2, la2, immob2, shock2, if0, n2, noif2)
            if nps == ps:
                selfr.append((p, last2))
            else:
                nexts.append((p, nps, last2))
        for p, nps, lab in nexts:
            sub_ex, sub_es, sub_eh = self.solve(nps, kill)
            es += p * sub_es
            eh += p * sub_eh
            for ex, q in sub_ex.items():
                if ex[1] == 'PREV' and lab is not None:
                    ex = (ex[0], lab) + ex[2:]
                addx(ex, p * q)
        p_self = sum((p for p, _ in selfr), F(0))
        if p_self:
            prev = {ex: v for ex, v in exits.items() if ex[1] == 'PREV'}
            conc_ = {ex: v for ex, v in exits.items() if ex[1] != 'PREV'}
            for p, lab in selfr:
                for ex, v in prev.items():
                    e2 = (ex[0], lab) + ex[2:] if lab is not None else ex
                    conc_[e2] = conc_.get(e2, 0) + p * v
            f = 1 / (1 - p_self)
            exits = {k2: v * f for k2, v in conc_.items()}
            for ex, v in prev.items():
                if tl:
                    exits[ex] = exits.get(ex, 0) + v
            es *= f
            eh *= f
        res = (exits, es, eh)
        self.memo[k] = res
        return res


# ----------------------------------------------------------------------------- duel
def model(d):
    """Return {'first': {...}, 'all': {...}}: turn 1 (or the first shot) and the whole duel
    (or the phase), every quantity as an exact Fraction."""
    s = Sit(d)
    _shot_cache.clear()
    _he_cache.clear()
    if s.turns == 1:
        return model_phase(s)
    return model_duel(s)


def model_phase(s):
    ph = Phase(s, True)
    ps0 = (s.ca_change > 0, s.acq0, s.concealed0, s.special, s.la_marked0, False, 0, 0, 0, False)
    out = {}
    exits, es, eh = ph.solve(ps0, None)
    out['e_shots'] = es
    out['e_hits'] = eh
    for f in FLAGS:
        ex, _, _ = ph.solve(ps0, f)
        out[f] = 1 - sum(ex.values())
    for o in ('no_shot', 'miss', 'dud', 'no_effect', 'possible_shock', 'immobilized', 'shock', 'eliminated',
              'burn'):
        out['outcome_' + o] = F(0)
    for e in ('rof_exhausted', 'intensive_fire_done', 'malfunction', 'target_destroyed', 'target_effect',
              'shot_cap', 'out_of_ammo'):
        out['end_' + e] = F(0)
    lname = {'no_shot': 'no_shot', 'miss': 'miss', 'dud': 'dud', 'none': 'no_effect', 'pshock': 'possible_shock',
             'immob': 'immobilized', 'shock': 'shock', 'elim': 'eliminated', 'burn': 'burn'}
    for ex, p in exits.items():
        out['end_' + ex[0]] += p
        out['outcome_' + lname['no_shot' if ex[1] == 'PREV' else ex[1]]] += p
    return {'all': out, 'first': first_shot(s, lname)}


def first_shot(s, lname):
    """The first shot of a one-turn phase: the first attempt, or, when the special ammunition
    was not there, the shot fired with the fallback ammunition."""
    out = {f: F(0) for f in FLAGS}
    out['e_shots'] = F(0)
    out['e_hits'] = F(0)
    for o in lname.values():
        out['outcome_' + o] = F(0)

    def walk(special, p0, extra):
        ammo = s.ammo if special else (s.fallback if s.special else s.ammo)
        dist = shot_dist(s, ammo, special, s.ca_change > 0, s.acq0, s.concealed0, False, s.la_marked0)
        for r, p in dist.items():
            p = p * p0
            fired, malf, la_r, depl, kept, hit, crit, mh, res = r
            fl = result_flags(r) | extra
            if not fired and s.fallback != 'none':
                walk(False, p, fl)
                continue
            for f in fl:
                out[f] += p
            if fired:
                out['e_shots'] += p
                out['e_hits'] += p * ((2 if mh == 2 else 1) if hit else 0)
            out['outcome_' + lname['no_shot' if not fired else res]] += p
    walk(s.special, F(1), set())
    return out


def model_duel(s):
    N = s.turns
    ph = Phase(s, False)
    # duel state: (gun, acq, conc, caseA, special, la, immob, shock, destroyed, ended)
    init = (0, s.acq0, s.concealed0, s.ca_change > 0, s.special, s.la_marked0, False, 0, False, None)

    def run(kill):
        dist = {init: F(1)}
        per_turn = []
        es_t = []
        eh_t = []
        for t in range(1, N + 1):
            nd = {}
            es = F(0)
            eh = F(0)
            for st, p in dist.items():
                gun, acq, conc, caseA, special, la, immob, shock, destroyed, ended = st
                if ended is not None:
                    nd[st] = nd.get(st, 0) + p
                    continue
                can = gun == 0 and not destroyed and (special or not s.special or s.fallback != 'none')
                outs = []
                if can:
                    ps = (caseA, acq, conc, special, la, immob, shock, 0, 0, False)
                    exits, e1, h1 = ph.solve(ps, kill if kill in FLAGS else None)
                    es += p * e1
                    eh += p * h1
                    for ex, q in exits.items():
                        end, _, g2, a2, c2, ca2, sp2, la2, im2, sh2, de2 = ex
                        outs.append((q, (g2, a2, c2, ca2, sp2, la2, im2, sh2, de2 or destroyed, None)))
                else:
                    outs.append((F(1), st))
                for q, st2 in outs:
                    nd[st2] = nd.get(st2, 0) + p * q
            # end of turn t: stats, kill of gun-out mass, end checks
            stats = {'destroyed': F(0), 'gun_out': F(0)}
            d2 = {}
            for st, p in nd.items():
                gun, acq, conc, caseA, special, la, immob, shock, destroyed, ended = st
                if destroyed:
                    stats['destroyed'] += p
                if gun:
                    stats['gun_out'] += p
                    if kill == 'gunout':
                        continue
                if ended is None:
                    noammo = s.special and not special and s.fallback == 'none'
                    # out for good: disabled, malfunctioned and never to be repaired, or no ammunition
                    for_good = gun == 2 or noammo or (gun == 1 and not s.repairable())
                    if destroyed:
                        ended = ('destroyed', t)
                    elif for_good and (shock == 0 or t == N):
                        ended = ('out_of_ammo',) if (noammo and gun != 2) else ('gun_disabled',)
                    elif t == N:
                        ended = ('turns_over',)
                    st = (gun, acq, conc, caseA, special, la, immob, shock, destroyed, ended)
                d2[st] = d2.get(st, 0) + p
            stats['surv'] = sum(d2.values())
            stats['dist'] = dict(d2) if t == 1 else None
            per_turn.append(stats)
            es_t.append(es)
            eh_t.append(eh)
            if t == N:
                dist = d2
                break
            # Rally Phases
            for _ in range(s.rph):
                d3 = {}
                for st, p in d2.items():
                    gun, acq, conc, caseA, special, la, immob, shock, destroyed, ended = st
                    if ended is not None:
                        d3[st] = d3.get(st, 0) + p
                        continue
                    gouts = []
                    noammo = s.special and not special and s.fallback == 'none'
                    if gun == 1 and (noammo or not s.repairable()):
                        gouts = [(F(1), 1)]          # no repair attempt (A9.72, D3.7)
                    elif gun == 1:
                        if s.vehicle:
                            gouts = [(F(1, 6), 0), (F(4, 6), 1), (F(1, 6), 2)]
                        else:
                            R = s.repair
                            gouts = [(F(R, 6), 0), (F(5 - R, 6), 1), (F(1, 6), 2)]
                    else:
                        gouts = [(F(1), gun)]
                    if shock == 1:
                        souts = [(F(2, 6), 0, False), (F(4, 6), 2, False)]
                    elif shock == 2:
                        souts = [(F(3, 6), 0, False), (F(3, 6), 2, True)]
                    else:
                        souts = [(F(1), 0, False)]
                    for gq, g2 in gouts:
                        if kill == 'p_disabled' and g2 == 2 and gun == 1:
                            continue
                        for sq, sh2, wreck in souts:
                            st2 = (g2, acq, conc, caseA, special, la, immob, 0 if wreck else sh2,
                                   destroyed or wreck, None)
                            d3[st2] = d3.get(st2, 0) + p * gq * sq
                d2 = d3
            dist = d2
        return dist, per_turn, es_t, eh_t

    first, allq = {}, {}
    dist, per_turn, es_t, eh_t = run(None)
    first['e_shots'] = es_t[0]
    first['e_hits'] = eh_t[0]
    allq['e_shots'] = sum(es_t)
    allq['e_hits'] = sum(eh_t)
    for f in FLAGS:
        _, pt, _, _ = run(f)
        first[f] = 1 - pt[0]['surv']
        allq[f] = 1 - pt[-1]['surv']
    _, ptg, _, _ = run('gunout')
    for t in range(1, N + 1):
        allq['p_destroyed_by_turn_%d' % t] = per_turn[t - 1]['destroyed']
        allq['p_gun_out_turn_%d' % t] = per_turn[t - 1]['gun_out']
        allq['p_gun_out_by_turn_%d' % t] = 1 - ptg[t - 1]['surv']
        allq['end_destroyed_turn_%d' % t] = F(0)
    first['p_destroyed_by_turn_1'] = per_turn[0]['destroyed']
    first['p_gun_out_turn_1'] = per_turn[0]['gun_out']
    first['p_gun_out_by_turn_1'] = 1 - ptg[0]['surv']
    for k in ('turns_over', 'gun_disabled', 'out_of_ammo'):
        allq['end_' + k] = F(0)
    for k in ('intact', 'immobilized', 'shocked', 'unconfirmed_kill', 'destroyed'):
        allq['outcome_' + k] = F(0)

    def status(st):
        gun, acq, conc, caseA, special, la, immob, shock, destroyed, ended = st
        if destroyed:
            return 'destroyed'
        if shock == 2:
            return 'unconfirmed_kill'
        if shock == 1:
            return 'shocked'
        if immob:
            return 'immobilized'
        return 'intact'

    for k in ('intact', 'immobilized', 'shocked', 'unconfirmed_kill', 'destroyed'):
        first['outcome_' + k] = F(0)
    for st, p in per_turn[0]['dist'].items():          # the target's status at the end of turn 1
        first['outcome_' + status(st)] += p
    for st, p in dist.items():
        ended = st[-1]
        if ended[0] == 'destroyed':
            allq['end_destroyed_turn_%d' % ended[1]] += p
        else:
            allq['end_' + ended[0]] += p
        allq['outcome_' + status(st)] += p
    # turn-1 status
    return {'first': first, 'all': allq, 'turn1_dist_needed': False}


# ----------------------------------------------------------------------------- generator
def gen(rng, turns_min=1):
    nat = rng.choice(['german', 'german', 'russian', 'american', 'british'])
    gun = rng.choice(sorted(GUNS[nat]))
    cal, suf = parse_gun(gun)
    year = 1944 if nat != 'american' else rng.choice([1943, 1944, 1945])
    ammos = ['AP', 'HE'] + [a for a in ('APCR', 'APDS') if a in GUNS[nat][gun]]
    if cal in HEAT_TK and year >= 1943 and not apcr_always(nat, gun):
        ammos.append('HEAT')
    ammo = rng.choice(ammos + [a for a in ammos if a in ('APCR', 'APDS', 'HEAT')])
    fr = {'nationality': nat, 'year': year, 'gun': gun, 'ammo': ammo, 'rof': rng.choice([0, 1, 1, 2, 3])}
    vehicle = rng.random() < 0.75
    fr['vehicle'] = vehicle
    if rng.random() < 0.4:
        fr['breakdown'] = rng.randint(7, 12)
    if vehicle and rng.random() < 0.25:
        fr['low_ammo'] = True
        if rng.random() < 0.3:
            fr['low_ammo_marked'] = True
    elif rng.random() < 0.25:
        fr['x_number'] = rng.randint(fr.get('breakdown', 12), 12)
    if ammo in ('APCR', 'APDS', 'HEAT'):
        fr['depletion'] = rng.randint(3, 9)
        if rng.random() < 0.2:
            fr['elite'] = True
        fr['fallback_ammo'] = rng.choice(['AP', 'HE', 'none'])
    fr['gun_type'] = rng.choice(['T', 'T', 'ST', 'NT'])
    cond_rof = not vehicle and rng.random() < 0.3      # weight the C2.5 Conditional ROF case
    if cond_rof:
        fr['gun_type'] = 'NT'
    if rng.random() < 0.1:
        fr['captured'] = True
    if not vehicle and rng.random() < 0.12:
        fr['non_qualified'] = True              # salvo refuses non_qualified on a vehicle
    if not vehicle and (not (fr.get('captured') or fr.get('non_qualified')) or rng.random() < 0.5):
        fr['repair'] = rng.randint(1, 5)        # not needed when the Gun is never repaired
    if rng.random() < 0.05:
        fr['no_intensive_fire'] = True
    tg = {}
    def af():
        return rng.choice(AF_SCALE[1:10] if rng.random() < 0.8 else AF_SCALE)
    tg['armor'] = {'hull_front': af(), 'hull_side': af(), 'turret_front': af(), 'turret_side': af()}
    if rng.random() < 0.15 and 0 < tg['armor']['turret_front'] < 26 and 0 < tg['armor']['turret_side'] < 26:
        tg['turret_armor'] = rng.choice(['superior', 'inferior'])
    tg['facing'] = rng.choice(['front', 'side', 'rear'])
    if rng.random() < 0.2:
        tg['size'] = rng.choice(['very_large', 'large', 'small', 'very_small'])
    if rng.random() < 0.2:
        tg['hull_down'] = True
    elif rng.random() < 0.2:
        tg['tem'] = rng.randint(1, 3)
    if rng.random() < 0.15:
        tg['moving'] = True
    if rng.random() < 0.15:
        tg['red_cs'] = True
    if vehicle and rng.random() < 0.1:
        fr['armor_leader'] = rng.randint(-3, -1)
    if rng.random() < 0.15:
        tg['concealed'] = True
    if rng.random() < 0.15:
        tg['hindrance'] = rng.randint(1, 3)
    fi = {}
    fi['range'] = rng.choice([1, 2, 3, 6, 8, 12, 13, 18, 20, 24, 25, 30, 36, 40, 48, 54, rng.randint(1, 54), rng.randint(55, 80)])
    fi['phase'] = rng.choice(['prep', 'prep', 'prep', 'final', 'advancing'])
    if vehicle and rng.random() < 0.5:
        fi['buttoned_up'] = True
    if cond_rof or rng.random() < 0.25:
        fi['ca_change'] = rng.randint(1, 3)
        if rng.random() < 0.3:
            fi['firer_terrain'] = rng.choice(['woods', 'building'])
    if not tg.get('concealed') and rng.random() < 0.25:
        fi['acquisition'] = rng.randint(1, 2)
    if rng.random() < 0.08:
        fi['pinned'] = True
    if (fi['phase'] != 'advancing' and not fi.get('pinned') and not fr.get('no_intensive_fire')
            and rng.random() < (0.6 if cond_rof else 0.35)):
        fi['intensive_fire'] = True
    fi['stop_on'] = rng.choice(['destroyed', 'destroyed', 'effect'])
    if rng.random() < 0.15:
        fi['max_shots'] = rng.randint(1, 4)
    if rng.random() < 0.1:
        fi['extra_drm'] = rng.randint(-3, 4)
    fi['turns'] = rng.choice([max(turns_min, x) for x in (1, 2, 3, 4, 5, 6, 8, 12)])
    rally_phases = rng.choice([1, 2])
    if fi['turns'] > 1:                         # salvo refuses a setting that changes nothing
        fi['rally_phases'] = rally_phases
    if (fi['turns'] == 1 and fi.get('intensive_fire') and not vehicle and fr['gun_type'] == 'NT'
            and fi.get('ca_change', 0) > 0
            and fr['rof'] - int(bool(fr.get('captured'))) - int(bool(fr.get('non_qualified'))) <= 0):
        del fi['intensive_fire']                # C2.5: no Intensive Fire; salvo refuses the combination
    return {'firer': fr, 'target': tg, 'fire': fi}


# ----------------------------------------------------------------------------- differential test
SECTIONS = ('firer', 'target', 'fire')


def main(argv=None):
    ap = harness.arguments(__doc__, count=150)
    ap.add_argument('--turns-min', type=int, default=1, help='fewest turns per situation')
    a = harness.parse(ap, argv)
    if not 1 <= a.turns_min <= 12:
        ap.error('--turns-min must be from 1 to 12')
    h = harness.Run(a, counts=())
    rng = random.Random(a.seed)

    def cases():
        for i in range(a.count):
            d = gen(rng, a.turns_min)
            head = [('ruleset', 'asl'), ('name', 'duel %d-%d' % (a.seed, i))]
            text = harness.toml_text(d, SECTIONS, head=head, blank_lines=True, skip_empty=True)
            yield 'duel_%d_%04d.toml' % (a.seed, i), text, d

    def check(path, d):
        values, stop = h.values(path, refusals=False)   # a refusal is a disagreement here
        if stop:
            return stop
        m = model(d)
        return h.compare({'phase': m['all'], 'first_shot': m['first']}, values)

    return h.run(cases(), check)


if __name__ == '__main__':
    sys.exit(main())
