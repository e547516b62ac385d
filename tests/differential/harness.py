"""What the differential models (tests/differential/*_model.py) share: the glue, not the rules.

Each model keeps its own reading of the rules and its own situation generator; they are
independent checks on purpose and share none of that.  This module holds what is the same around
them:

  * the command line (`arguments`, `parse`): SALVO [--count N] [--seed S] [--keep DIR] [--show K]
    [-v] [--show-refusals] [--salvo-reading NAME ...], usage errors exiting 2;
  * drawing situations, a share of them meant to be refused (`draw`);
  * the situation files (`toml_text`);
  * running salvo (`Run.salvo`, `Run.odds`: `salvo odds FILE --format json`, its exact results as
    {block: {quantity: p or mean}});
  * comparing every modelled quantity to 1e-9 (`Run.compare`);
  * the loop over the situations (`Run.run`): write each file, check it, count agreements,
    disagreements and refusals, print the first K disagreements with their TOML, one summary
    line, exit status 0 when all agree and 1 on any disagreement.

Standard library only.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TOL = 1e-9
BLOCKS = ("first_shot", "phase")


# ---------------------------------------------------------------- situations
def draw(r, gen, refusal, break_it, refused_share):
    """A random situation and the refusal the model predicts for it (None: accepted).

    A share `refused_share` of the draws is a valid situation `break_it(sit, r)` then makes one
    that must be refused; the rest are valid ones (`gen(r)` redrawn until `refusal` is None).
    """
    if r.random() < refused_share:
        while True:
            sit = gen(r)
            if refusal(sit) is None:
                break
        sit = break_it(sit, r)
        return sit, refusal(sit)
    while True:
        sit = gen(r)
        if refusal(sit) is None:
            return sit, None


# ---------------------------------------------------------------- command line
def _count_at_least(low):
    def check(text):
        n = int(text)
        if n < low:
            raise ValueError(text)
        return n
    check.__name__ = "count"
    return check


def arguments(doc, count, seed=1, readings=None, min_count=1):
    """The options every model takes; a model adds its own to the parser this returns.
    doc: the model's docstring (its first line describes it); readings: {name: text} of the
    salvo readings the model can follow (--salvo-reading), None for a model without any."""
    ap = argparse.ArgumentParser(description=doc.strip().split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("salvo", help="path to the salvo binary")
    ap.add_argument("--count", type=_count_at_least(min_count), default=count,
                    help="random situations (default %d)" % count)
    ap.add_argument("--seed", type=int, default=seed, help="random seed (default %d)" % seed)
    ap.add_argument("--keep", metavar="DIR", help="write the situation files to DIR and keep them")
    ap.add_argument("--show", type=int, default=3,
                    help="print the TOML of the first K disagreements (default 3)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every disagreeing quantity")
    ap.add_argument("--show-refusals", action="store_true",
                    help="print why salvo refused each situation it refused")
    if readings is not None:
        ap.add_argument("--salvo-reading", action="append", default=[], metavar="NAME",
                        help="model a documented deviation of salvo instead of the rule text "
                             "('list' lists them)")
    ap.set_defaults(readings=readings)
    return ap


def parse(ap, argv=None):
    """Parse and check the common options; a usage error exits 2 (argparse's own code)."""
    a = ap.parse_args(argv)
    if a.readings is not None:
        for name in a.salvo_reading:
            if name == "list":
                for k, v in a.readings.items():
                    print("%s: %s" % (k, v))
                if not a.readings:
                    print("(no salvo readings)")
                sys.exit(0)
            if name not in a.readings:
                ap.error("unknown --salvo-reading %r (known: %s)"
                         % (name, ", ".join(sorted(a.readings)) or "none"))
    else:
        a.salvo_reading = []
    if not (os.path.isfile(a.salvo) and os.access(a.salvo, os.X_OK)):
        ap.error("%s is not an executable file" % a.salvo)
    if a.show < 0:
        ap.error("--show must be >= 0")
    a.salvo = os.path.abspath(a.salvo)
    a.label = os.path.splitext(ap.prog)[0]
    return a


# ---------------------------------------------------------------- situation files
def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join("%s = %s" % (k, toml_value(x)) for k, x in v.items()) + " }"
    raise TypeError("no TOML for %r" % (v,))


def toml_text(sit, sections, head=(), blank_lines=False, skip_empty=False):
    """A situation file: the (key, value) pairs of head, then a table for each of sections that
    sit has (an empty one too unless skip_empty), a blank line before each table if blank_lines."""
    lines = ["%s = %s" % (k, toml_value(v)) for k, v in head]
    for sec in sections:
        if sec not in sit or (skip_empty and not sit[sec]):
            continue
        if blank_lines:
            lines.append("")
        lines.append("[%s]" % sec)
        lines += ["%s = %s" % (k, toml_value(v)) for k, v in sit[sec].items()]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- salvo and the loop
class Refused(str):
    """What a check returns for a situation it does not compare (salvo refused it): counted
    apart under kind, its text printed with --show-refusals."""

    def __new__(cls, reason, kind="refused by salvo"):
        self = str.__new__(cls, reason)
        self.kind = kind
        return self


Odds = collections.namedtuple("Odds", "code values error")
Odds.__doc__ = """salvo odds: code (None when salvo could not be run), values ({block: {quantity:
p or mean}}, None on any error) and error (None, or why there are no values)."""
Odds.refused = property(lambda self: self.code == 2)


def _fmt(v):
    return "-" if v is None else "%.12g" % v


class Run:
    """One model's run over its situations: args from parse()."""

    def __init__(self, args, notes=(), counts=("refused by salvo",)):
        self.a = args
        self.notes = [n for n in notes if n]
        self.counts = collections.Counter({k: 0 for k in counts})
        self.compared = 0

    def salvo(self, *args):
        """-> (exit code or None, stdout, stderr)."""
        try:
            p = subprocess.run([self.a.salvo] + list(args), capture_output=True, text=True,
                               timeout=600)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, "", "could not run salvo: %s" % e
        return p.returncode, p.stdout, p.stderr

    def odds(self, path, *extra):
        """`salvo odds PATH --format json EXTRA...` -> Odds."""
        code, out, err = self.salvo("odds", path, "--format", "json", *extra)
        if code is None:
            return Odds(None, None, err)
        if code != 0:
            return Odds(code, None, "salvo exited with %d: %s" % (code, err.strip()))
        try:
            r = json.loads(out)["situations"][0]["results"]["exact"]
            values = {blk: {k: (v["p"] if "p" in v else v["mean"]) for k, v in r[blk].items()}
                      for blk in BLOCKS if blk in r}
        except (ValueError, KeyError, IndexError, TypeError) as e:
            return Odds(code, None, "unreadable salvo output: %r" % e)
        return Odds(code, values, None)

    def values(self, path, *extra, refusals=True):
        """salvo's exact values for PATH -> (values, None), or (None, what check then returns):
        a Refused when salvo refuses the situation (exit 2) and refusals are counted apart, else
        salvo's error as a disagreement."""
        odds = self.odds(path, *extra)
        if odds.error is None:
            return odds.values, None
        if odds.refused and refusals:
            return None, Refused(odds.error)
        return None, [odds.error]

    def compare(self, model, salvo, absent="differ", extra="differ", skip=None):
        """Every quantity of model ({block: {quantity: exact value}}) against salvo's (Odds.values)
        to TOL -> [(block, quantity, model value or None, salvo value or None)], [] if all agree.
        absent: a quantity salvo does not report: "differ", or "zero" (it is 0 there, so only a
        non-zero model value differs).  extra: one salvo reports and the model does not:
        "differ", "zero" (the model's 0: only a non-zero one differs) or "ignore".
        skip(block, quantity): quantities compared on neither side."""
        bad = []
        for blk, mine in model.items():
            theirs = salvo.get(blk, {})
            for k, v in mine.items():
                if skip and skip(blk, k):
                    continue
                self.compared += 1
                if k not in theirs:
                    if absent == "differ" or v != 0:
                        bad.append((blk, k, float(v), None))
                elif abs(float(v) - theirs[k]) > TOL:
                    bad.append((blk, k, float(v), theirs[k]))
            if extra == "ignore":
                continue
            for k, v in theirs.items():
                if k in mine or (skip and skip(blk, k)):
                    continue
                if extra == "differ":
                    bad.append((blk, k, None, v))
                elif abs(v) > TOL:
                    bad.append((blk, k, 0.0, v))
        return bad

    def run(self, cases, check, files=()):
        """cases: (file name, TOML text, payload) for each situation, in order; check(path,
        payload) -> [] (agree), a list of differences (compare()'s tuples or lines of text) or a
        Refused; an exception in it is a disagreement.  files: copied into the directory first.
        Prints the disagreements and the summary; -> exit status."""
        a = self.a
        t0 = time.monotonic()
        tmp = None
        if a.keep:
            workdir = a.keep
            os.makedirs(workdir, exist_ok=True)
        else:
            workdir = tmp = tempfile.mkdtemp(prefix=a.label + "_")
        n = agree = disagree = 0
        try:
            for f in files:
                shutil.copy(f, os.path.join(workdir, os.path.basename(f)))
            for name, text, payload in cases:
                n += 1
                path = os.path.join(workdir, name)
                with open(path, "w") as fh:
                    fh.write(text)
                try:
                    got = check(path, payload)
                except Exception as e:              # a model failure is reported, not hidden
                    got = ["model error: %r" % e]
                if isinstance(got, Refused):
                    self.counts[got.kind] += 1
                    if a.show_refusals:
                        why = got.strip().splitlines() or ["-"]
                        print("%s %s: %s" % (got.kind, name, why[-1]))
                elif not got:
                    agree += 1
                else:
                    disagree += 1
                    self._report(name, text, got, disagree <= a.show)
        finally:
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)
        notes = ["seed %d" % a.seed] + self.notes
        if a.salvo_reading:
            notes.append("salvo readings: " + ", ".join(a.salvo_reading))
        counts = "".join(", %d %s" % (c, k) for k, c in self.counts.items())
        print("%s: %d situations (%s): %d agree, %d disagree%s; %d quantities compared; %.1f s%s"
              % (a.label, n, "; ".join(notes), agree, disagree, counts, self.compared,
                 time.monotonic() - t0, "; files in " + a.keep if a.keep else ""))
        return 1 if disagree else 0

    def _report(self, name, text, diffs, full):
        first = diffs[0] if isinstance(diffs[0], str) else None
        if not full:
            print("DISAGREE %s: %s" % (
                name, first.splitlines()[0] if first else "%d quantities" % len(diffs)))
            return
        print("DISAGREE %s" % name)
        print(text.rstrip())
        shown = diffs if self.a.verbose else diffs[:25]
        for d in shown:
            if isinstance(d, str):
                print("   " + d)
            else:
                print("   %-10s %-26s model %-18s salvo %s" % (d[0], d[1], _fmt(d[2]), _fmt(d[3])))
        if len(diffs) > len(shown):
            print("   ... %d more" % (len(diffs) - len(shown)))
        print()
