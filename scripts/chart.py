#!/usr/bin/python3
"""Odds charts from salvo's JSON: P(kill) by range, range x armor heat maps, phase outcomes,
hits per phase, and option comparisons. PNG and SVG, titles and axes in the game's terms, the
situation and provenance in the footer.

Input: the JSON of `salvo odds --format json` (kinds range, heatmap, turns: who wins a fight
by each game turn), of `salvo chart`
(which adds the distributions for kinds outcomes and hits), or of `salvo compare --format json`
(kind compare). Normally run by `salvo chart`; usable directly:

  /usr/bin/python3 scripts/chart.py odds.json --kind range --x fire.range --out kill-by-range

writes kill-by-range.png and kill-by-range.svg. Needs matplotlib (Debian: python3-matplotlib;
scripts/setup.sh installs it). Run it with /usr/bin/python3: another python3 on PATH may lack it.
"""
import argparse
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small, searchable SVG
    matplotlib.rcParams["svg.hashsalt"] = "salvo"  # stable ids: identical runs, identical files
    import matplotlib.pyplot as plt
    from matplotlib.colors import LinearSegmentedColormap
except ImportError as e:  # pragma: no cover - reported to the user
    sys.stderr.write(
        "chart.py: matplotlib is not available to %s (%s): install python3-matplotlib "
        "(scripts/setup.sh) and run with /usr/bin/python3\n" % (sys.executable, e))
    sys.exit(3)

# Quantity names as a player reads them.
QUANTITY_LABELS = {
    "p_kill": "P(kill)", "p_hit": "P(hit)", "p_burn": "P(burn)", "p_eliminated": "P(eliminated)",
    "p_immobilized": "P(immobilized)", "p_shock": "P(shock)", "p_malfunction": "P(malfunction)",
    "p_critical": "P(Critical Hit)", "e_hits": "hits (expected)", "e_shots": "shots (expected)",
}
WINDOW_LABELS = {"phase": "in the fire phase", "first_shot": "with the first shot"}
AXIS_LABELS = {
    "fire.range": "Range (hexes)", "target.armor.hull_front": "Hull front armor factor",
    "target.armor.turret_front": "Turret front armor factor", "target.armor": "Armor factor",
    "target.facing": "Target Facing", "firer.gun": "Gun", "firer.ammo": "Ammunition",
    "fire.acquisition": "Acquisition", "target.size": "Target size (Case P)",
    "target.tem": "TEM (Case Q)", "fire.ca_change": "CA change (hexspines, Case A)",
}
# Phase outcomes, most severe first, with colours a player associates with them.
OUTCOME_COLOURS = {
    "burn": "#b2182b", "eliminated": "#ef8a62", "shock": "#fddbc7", "immobilized": "#d1e5f0",
    "possible shock": "#92c5de", "malfunction": "#4d4d4d", "no effect": "#e0e0e0",
}


def axis_label(key):
    return AXIS_LABELS.get(key, key)


def quantity_label(q, window):
    return "%s %s" % (QUANTITY_LABELS.get(q, q), WINDOW_LABELS.get(window, window))


def provenance(data):
    """One footer line: version, method, trials, seed, rules data."""
    s = data.get("salvo", {})
    method = data.get("method", "exact")
    parts = ["salvo %s (git %s)" % (s.get("version", "?"), s.get("git", "?"))]
    if method in ("mc", "both"):
        parts.append("Monte Carlo, %s trials per situation, seed %s, 95%% bands" %
                     (f"{data.get('trials', 0):,}", data.get("seed", "?")))
    else:
        parts.append("exact")
    rd = data.get("rules_data", {})
    if rd:
        parts.append("rules data %s #%s" % (rd.get("version", "?"), rd.get("hash", "?")))
    return " | ".join(parts)


def situation_line(data):
    files = []
    for s in data.get("situations", []):
        label = "%s (%s)" % (s.get("name", ""), os.path.basename(s.get("file", "")))
        if label not in files:
            files.append(label)
    line = "; ".join(files)
    return line if len(line) < 160 else line[:157] + "..."


def result_of(sit, prefer):
    r = sit.get("results", {})
    if prefer in r:
        return prefer, r[prefer]
    for k in ("exact", "mc"):
        if k in r:
            return k, r[k]
    raise SystemExit("chart.py: situation %r has no results" % sit.get("name"))


def value(sit, quantity, window, prefer):
    method, res = result_of(sit, prefer)
    e = res[window].get(quantity)
    if e is None:
        raise SystemExit("chart.py: no %s in the %s window of %s" % (quantity, window, sit.get("name", "a situation")))
    # A probability has "p", a mean "mean"; a mean of fewer than 2 trials has no interval
    v = e["p"] if "p" in e else e["mean"]
    return v, e.get("lo", v), e.get("hi", v), method


def as_number(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def finish(fig, data, title, out, note=None):
    footer = situation_line(data) + "\n" + provenance(data)
    if note:
        footer = note + "\n" + footer
    fig.text(0.01, 0.01, footer, fontsize=7, color="#444444", ha="left", va="bottom")
    fig.suptitle(title, fontsize=13, fontweight="bold")
    stem = os.path.splitext(out)[0] if out.endswith((".png", ".svg")) else out
    fig.savefig(stem + ".png", dpi=110, metadata={"Software": None})
    fig.savefig(stem + ".svg", metadata={"Date": None})
    plt.close(fig)
    print(stem + ".png")
    print(stem + ".svg")


def series_key(sit, x, y=None):
    """The series a situation belongs to: its file/name and the sweep values other than x, y."""
    others = ["%s=%s" % (k.split(".")[-1], v) for k, v in sit.get("sweep", {}).items() if k not in (x, y)]
    name = sit.get("name") or os.path.basename(sit.get("file", ""))
    return name + (" (" + ", ".join(others) + ")" if others else "")


def chart_range(data, args):
    if not args.x:
        raise SystemExit("chart.py: --kind range needs --x (a sweep key such as fire.range)")
    series = {}
    any_mc = False
    for sit in data["situations"]:
        xv = as_number(sit.get("sweep", {}).get(args.x))
        if xv is None:
            raise SystemExit("chart.py: situation %r has no numeric sweep value for %s" % (sit.get("name"), args.x))
        p, lo, hi, method = value(sit, args.quantity, args.window, args.prefer)
        any_mc = any_mc or method == "mc"
        series.setdefault(series_key(sit, args.x), []).append((xv, p, lo, hi))
    fig, ax = plt.subplots(figsize=(8, 5.4))
    fig.subplots_adjust(bottom=0.2, top=0.9)
    for label, pts in series.items():
        pts.sort()
        xs = [a[0] for a in pts]
        line, = ax.plot(xs, [a[1] for a in pts], marker="o", label=label)
        if any_mc:
            ax.fill_between(xs, [a[2] for a in pts], [a[3] for a in pts], color=line.get_color(), alpha=0.2, lw=0)
    ax.set_xlabel(axis_label(args.x))
    ax.set_ylabel(quantity_label(args.quantity, args.window))
    ax.set_ylim(0, max(0.05, min(1.0, ax.get_ylim()[1] * 1.05)))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    title = args.title or "%s by %s" % (QUANTITY_LABELS.get(args.quantity, args.quantity), axis_label(args.x).lower())
    finish(fig, data, title, args.out, "shaded: 95% interval" if any_mc else None)


def chart_heatmap(data, args):
    if not args.x or not args.y:
        raise SystemExit("chart.py: --kind heatmap needs --x and --y (two sweep keys)")
    cells = {}
    for sit in data["situations"]:
        sw = sit.get("sweep", {})
        if args.x not in sw or args.y not in sw:
            raise SystemExit("chart.py: situation %r lacks sweep key %s or %s" % (sit.get("name"), args.x, args.y))
        p, lo, hi, _ = value(sit, args.quantity, args.window, args.prefer)
        cells[(sw[args.x], sw[args.y])] = (p, lo, hi)

    def order(vals):
        nums = [as_number(v) for v in vals]
        return sorted(vals, key=lambda v: as_number(v)) if None not in nums else list(dict.fromkeys(vals))

    xs = order(list(dict.fromkeys(k[0] for k in cells)))
    ys = order(list(dict.fromkeys(k[1] for k in cells)))
    z = [[cells.get((xv, yv), (float("nan"),) * 3)[0] for xv in xs] for yv in ys]
    fig, ax = plt.subplots(figsize=(8.5, 5.6))
    fig.subplots_adjust(bottom=0.2, top=0.9)
    cmap = LinearSegmentedColormap.from_list("kill", ["#f7fbff", "#fdae6b", "#d94801", "#7f2704"])
    im = ax.imshow(z, cmap=cmap, vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(len(xs)), xs)
    ax.set_yticks(range(len(ys)), ys)
    ax.set_xlabel(axis_label(args.x))
    ax.set_ylabel(axis_label(args.y))
    mc = any(result_of(s, args.prefer)[0] == "mc" for s in data["situations"])
    for i, yv in enumerate(ys):
        for j, xv in enumerate(xs):
            if (xv, yv) not in cells:
                continue
            p, lo, hi = cells[(xv, yv)]
            text = "%.0f" % (100 * p) if not mc else "%.0f\n±%.1f" % (100 * p, 50 * (hi - lo))
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if p > 0.55 else "black")
    cb = fig.colorbar(im, ax=ax)
    cb.set_label(quantity_label(args.quantity, args.window))
    title = args.title or "%s: %s x %s" % (QUANTITY_LABELS.get(args.quantity, args.quantity),
                                          axis_label(args.x).lower(), axis_label(args.y).lower())
    finish(fig, data, title, args.out, "cells: percent" + (" ± 95% half-width" if mc else ""))


def outcome_categories(dist, names, malfunction_flag=True):
    """Partition of the phase by its best effect; malfunction: the Gun broke and nothing worse
    than no effect happened to the target."""
    k = len(names)
    p = dist["p"]
    lo = dist["lo"]
    hi = dist["hi"]
    cats = {}
    def add(cat, i):
        v = cats.setdefault(cat, [0.0, 0.0, 0.0])
        v[0] += p[i]
        v[1] += lo[i]
        v[2] += hi[i]
    effects = {"burn", "eliminated", "shock", "immobilized", "possible shock"}
    for seen in (0, 1):
        for o, name in enumerate(names):
            i = o + k * seen
            if name in effects:
                add(name, i)
            elif seen:
                add("malfunction", i)
            else:
                add("no effect", i)
    return cats


def bar_label(sit, same_name=False):
    """A situation's label: its sweep values one per line, under its name unless all share it."""
    sw = sit.get("sweep", {})
    name = sit.get("name") or os.path.basename(sit.get("file", ""))
    lines = [] if (same_name and sw) else [name]
    lines += ["%s %s" % (k.split(".")[-1], v) for k, v in sw.items()]
    return "\n".join(lines)


def same_names(data):
    return len({s.get("name") for s in data["situations"]}) <= 1


# A fight's outcomes (docs/fights.md): who won by the end of the window.
FIGHT_OUTCOMES = {"a_wins": "A wins", "b_wins": "B wins", "neither": "neither"}
OUTCOME_COLOURS.update({"A wins": "#2166ac", "B wins": "#b2182b", "neither": "#e0e0e0"})


def fight_categories(dist, names):
    """Partition of a fight's window by who won (its last step's outcome is its highest)."""
    k = len(names)
    cats = {}
    for seen in (0, 1):
        for o, name in enumerate(names):
            v = cats.setdefault(FIGHT_OUTCOMES[name], [0.0, 0.0, 0.0])
            for j, key in enumerate(("p", "lo", "hi")):
                v[j] += dist[key][o + k * seen]
    return cats


def distributions_of(data, kind):
    """Each situation with its distribution `kind` ("outcomes" or "hits"), and whether any of them
    is a Monte Carlo one."""
    pairs, mc = [], False
    for sit in data["situations"]:
        d = sit.get("distributions", {}).get(kind)
        if d is None:
            raise SystemExit("chart.py: --kind %s needs the JSON of `salvo chart %s`" % (kind, kind))
        mc = mc or d.get("method") == "mc"
        pairs.append((sit, d))
    return pairs, mc


def chart_outcomes(data, args):
    fight = all("a_wins" in s.get("distributions", {}).get("outcomes", {}).get("outcome_names", [])
                for s in data["situations"])
    order = (["A wins", "neither", "B wins"] if fight else
             ["burn", "eliminated", "shock", "immobilized", "possible shock", "malfunction", "no effect"])
    labels, rows = [], []
    pairs, mc = distributions_of(data, "outcomes")
    for sit, d in pairs:
        labels.append(bar_label(sit, same_names(data)))
        rows.append(fight_categories(d, d["outcome_names"]) if fight else outcome_categories(d, d["outcome_names"]))
    fig, ax = plt.subplots(figsize=(max(7, 0.75 * len(labels) + 3), 5.8))
    fig.subplots_adjust(bottom=0.3, top=0.9, right=0.78)
    bottom = [0.0] * len(labels)
    for cat in order:
        vals = [r.get(cat, [0, 0, 0])[0] for r in rows]
        if not any(v > 0 for v in vals):
            continue
        err = None
        if mc:
            err = [[max(0.0, v - r.get(cat, [0, 0, 0])[1]) for v, r in zip(vals, rows)],
                   [max(0.0, r.get(cat, [0, 0, 0])[2] - v) for v, r in zip(vals, rows)]]
        ax.bar(range(len(labels)), vals, bottom=bottom, label=cat, color=OUTCOME_COLOURS[cat],
               edgecolor="#333333", linewidth=0.4, yerr=err, capsize=2, error_kw={"elinewidth": 0.6})
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(labels)), labels, fontsize=7)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="outcome")
    mc_note = "; whiskers: 95% intervals" if mc else ""
    if fight:
        ax.set_ylabel("probability, " + ("by the end of turn 1" if args.window == "first_shot" else "the whole fight"))
        title = args.title or ("Who wins: " + data["situations"][0].get("name", "") if same_names(data)
                               else "Who wins")
        finish(fig, data, title, args.out, "each bar: who wins the fight, or neither by its last turn" + mc_note)
        return
    ax.set_ylabel("probability, best effect " + WINDOW_LABELS.get(args.window, args.window))
    title = args.title or ("Fire phase outcomes: " + data["situations"][0].get("name", "") if same_names(data)
                           else "Fire phase outcomes")
    finish(fig, data, title, args.out,
           "each bar: the best effect of the phase (C7.7); malfunction = the Gun malfunctioned with no effect on the target"
           + mc_note)


def chart_hits(data, args):
    groups, dists = [], []
    pairs, mc = distributions_of(data, "hits")
    for sit, d in pairs:
        groups.append(bar_label(sit, same_names(data)).replace("\n", ", "))
        dists.append(d)
    cap = len(dists[0]["p"]) - 1
    buckets = [str(i) for i in range(cap)] + ["%d+" % cap]
    fig, ax = plt.subplots(figsize=(8, 5.4))
    fig.subplots_adjust(bottom=0.2, top=0.9)
    n = len(dists)
    width = 0.8 / n
    for g, (label, d) in enumerate(zip(groups, dists)):
        xs = [i - 0.4 + width * (g + 0.5) for i in range(len(buckets))]
        err = None
        if mc:
            err = [[max(0.0, p - lo) for p, lo in zip(d["p"], d["lo"])],
                   [max(0.0, hi - p) for p, hi in zip(d["p"], d["hi"])]]
        ax.bar(xs, d["p"], width=width, label=label, yerr=err, capsize=2)
    ax.set_xticks(range(len(buckets)), buckets)
    ax.set_xlabel("hits on the target " + WINDOW_LABELS.get(args.window, args.window))
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    finish(fig, data, args.title or "Hits per fire phase", args.out,
           "a Multiple Hit (C3.8) counts two" + ("; whiskers: 95% intervals" if mc else ""))


def wilson(p, n):
    """The 95% Wilson interval of a proportion p of n trials (as salvo's Monte Carlo gives)."""
    z = 1.959963984540054
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, c - h), min(1.0, c + h)


def chart_turns(data, args):
    """A fight's P(A wins by the end of game turn t) and P(B wins by it), summed from its
    per-turn end reasons (end_a_wins_turn_t, end_b_wins_turn_t)."""
    fig, ax = plt.subplots(figsize=(8, 5.4))
    fig.subplots_adjust(bottom=0.2, top=0.9)
    one = len(data["situations"]) == 1
    mc_any, most = False, 1
    for sit in data["situations"]:
        method, res = result_of(sit, args.prefer)
        phase = res["phase"]
        turns = 0
        while "end_a_wins_turn_%d" % (turns + 1) in phase:
            turns += 1
        if turns == 0:
            raise SystemExit("chart.py: --kind turns needs fights: %r has no end_a_wins_turn_1" % sit.get("name"))
        most = max(most, turns)
        mc = method == "mc"
        mc_any = mc_any or mc
        xs = list(range(1, turns + 1))
        colour = None
        for side, key, style, side_colour in (("A", "end_a_wins_turn_%d", "-", "#2166ac"),
                                              ("B", "end_b_wins_turn_%d", "--", "#b2182b")):
            cum, ys = 0.0, []
            for t in xs:
                cum += phase[key % t]["p"]
                ys.append(min(1.0, cum))
            label = ("%s wins" % side) if one else "%s: %s wins" % (bar_label(sit).replace("\n", ", "), side)
            line, = ax.plot(xs, ys, style, marker="o", label=label, color=side_colour if one else colour)
            colour = line.get_color()
            if mc:  # the cumulative count's own interval
                band = [wilson(y, res["trials"]) for y in ys]
                ax.fill_between(xs, [b[0] for b in band], [b[1] for b in band], color=colour, alpha=0.2, lw=0)
    ax.set_xticks(range(1, most + 1))
    ax.set_xlabel("game turn")
    ax.set_ylabel("probability the side has won by the end of the turn")
    ax.set_ylim(0, 1)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    title = args.title or ("Who wins, turn by turn: " + data["situations"][0].get("name", "") if one
                           else "Who wins, turn by turn")
    finish(fig, data, title, args.out,
           "a side wins when every enemy unit is destroyed" + ("; shaded: 95% interval" if mc_any else ""))


def chart_compare(data, args):
    rows = []
    for c in data.get("comparisons", []):
        for q in c["quantities"]:
            if q["name"] == args.quantity and q["window"] == args.window:
                rows.append(("%s\nvs %s" % (c["a"]["name"], c["b"]["name"]) +
                             ("" if len(data.get("comparisons", [])) <= 1 or not c.get("sweep") else
                              "\n" + ", ".join("%s=%s" % (k.split(".")[-1], v) for k, v in c["sweep"].items())),
                             q["diff"], c["method"]))
    if not rows:
        raise SystemExit("chart.py: no comparison of %s %s in the data" % (args.quantity, args.window))
    fig, ax = plt.subplots(figsize=(8, max(3.5, 0.7 * len(rows) + 2)))
    fig.subplots_adjust(bottom=0.25, top=0.88, left=0.3)
    ys = list(range(len(rows)))[::-1]
    vals = [100 * r[1]["p"] for r in rows]
    err = [[100 * (r[1]["p"] - r[1]["lo"]) for r in rows], [100 * (r[1]["hi"] - r[1]["p"]) for r in rows]]
    ax.barh(ys, vals, xerr=err, color=["#1b7837" if v >= 0 else "#762a83" for v in vals], capsize=3)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=8)
    ax.set_xlabel("difference A - B in %s, percentage points" % quantity_label(args.quantity, args.window))
    ax.grid(True, axis="x", alpha=0.3)
    finish(fig, data, args.title or "Option A against option B", args.out,
           "bars: 95% interval of the difference (common dice)" if any(r[2] == "mc" for r in rows) else "exact differences")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="JSON from salvo odds/chart/compare ('-' for stdin)")
    ap.add_argument("--kind", required=True, choices=["range", "heatmap", "outcomes", "hits", "turns", "compare"])
    ap.add_argument("--out", required=True, help="output path; .png and .svg are both written")
    ap.add_argument("--x", help="sweep key on the x axis")
    ap.add_argument("--y", help="sweep key on the y axis (heatmap)")
    ap.add_argument("--quantity", default="p_kill")
    ap.add_argument("--window", default="phase", choices=["phase", "first_shot"])
    ap.add_argument("--prefer", default="mc", choices=["exact", "mc"],
                    help="with --method both: which results to draw (default mc, with its bands)")
    ap.add_argument("--title")
    args = ap.parse_args(argv)
    data = json.load(sys.stdin if args.data == "-" else open(args.data))
    {"range": chart_range, "heatmap": chart_heatmap, "outcomes": chart_outcomes, "hits": chart_hits,
     "turns": chart_turns, "compare": chart_compare}[args.kind](data, args)


if __name__ == "__main__":
    main()
