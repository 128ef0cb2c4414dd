#!/usr/bin/python3
"""recompute_neighbourhood.py - recomputes an audit's neighbourhood from the bundle's own files,
independently of the C code, and compares it with stats.json's neighbourhood:

- the neighbours of each numeric parameter inspect.json lists (value x 0.8, 0.9, 1.1, 1.2; an
  integer rounded half away from zero, an inner one moved off the centre by one, an outer one
  moved one past its inner one, and one that reaches zero or changes sign dropped) and the sets
  (the centre first, then each parameter alone, or with exactly two parameters the 5 x 5 grid);
- each set's column of neighbourhood_returns.bin compounds to neighbourhood.csv's net return,
  and its per-bar Sharpe ratio, mean / sd (ddof 1) (a flat column 0), is stats.json's;
- keep, the neighbours' median Sharpe ratio (a failed run 0, one not run left out) over the
  centre's; the shape (peak below deflation.neighbour_keep of config.json, no_edge when the
  centre's is not positive, else plateau); the trials a peak implies, 5^parameters at most
  100000, and stats.json's trials at least that many;
- per moved parameter, decay: sum(d * -ln rho) / sum(d^2) over the sets that move it alone, d
  = |ln(value / centre's)| and rho the Pearson correlation of the set's column with the
  centre's (at least 0.01; a flat column 0.01); the family's trials, the product of 1 + decay
  ln(deflation.neighbour_span) rounded down to a whole number, at most 100000, and stats.json's trials at least that many when
  the centre's Sharpe ratio is above 0.

usage: recompute_neighbourhood.py DIR
prints one line per figure checked; exits 0 when all agree, 1 when one does not, 2 on bad use.
"""
import csv
import json
import math
import statistics
import struct
import sys

MULT = (0.8, 0.9, 1.1, 1.2)
STEP = (-0.2, -0.1, 0.1, 0.2)


def round_half_away(x):
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def neighbours(v, integer):
    out = [round_half_away(v * m) if integer else v * m for m in MULT]
    if integer:
        sg = 1 if v > 0 else -1
        if out[1] == v:
            out[1] = v - sg
        if out[2] == v:
            out[2] = v + sg
        if sg * out[0] >= sg * out[1]:
            out[0] = out[1] - sg
        if sg * out[3] <= sg * out[2]:
            out[3] = out[2] + sg
    return [x if x != 0 and (x > 0) == (v > 0) else None for x in out]


def expected_sets(params):
    moved = [(p["name"], neighbours(p["value"], p["integer"])) for p in params if p["value"] != 0]
    moved = [(n, nb) for n, nb in moved if any(x is not None for x in nb)][:8]
    sets = [{}]
    if len(moved) == 2:
        (a, na), (b, nb) = moved
        for i in [None, 0, 1, 2, 3]:
            for j in [None, 0, 1, 2, 3]:
                if (i is not None and na[i] is None) or (j is not None and nb[j] is None):
                    continue
                s = {}
                if i is not None:
                    s[a] = na[i]
                if j is not None:
                    s[b] = nb[j]
                if s:
                    sets.append(s)
    else:
        for n, nb in moved:
            sets += [{n: x} for x in nb if x is not None]
    return moved, sets


def close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    spec = json.load(open(f"{d}/inspect.json"))["strategy"]["neighbourhood"]
    stats = json.load(open(f"{d}/stats.json"))
    cfg = json.load(open(f"{d}/config.json"))
    nb = stats["neighbourhood"]
    checks = []
    moved, sets = expected_sets(spec["parameters"])
    same = len(spec["params"]) == len(sets) and all(
        a.keys() == b.keys() and all(close(a[k], b[k], 1e-9) for k in a) for a, b in zip(spec["params"], sets))
    checks.append(("inspect.json's sets are the neighbours by the rule (to 1e-9: the file holds "
                   "10 significant digits)", same, True))
    if not nb["measured"]:
        checks.append(("not measured: the strategy moves no parameter", len(moved), 0))
        return report(checks)
    rows = list(csv.DictReader(open(f"{d}/neighbourhood.csv")))
    raw = open(f"{d}/neighbourhood_returns.bin", "rb").read()
    t, n = struct.unpack("<QQ", raw[8:24])
    ok_rows = [r for r in rows if r["status"] == "ok"]
    checks.append(("one column a set that ran", n, len(ok_rows)))
    checks.append(("one set a row of neighbourhood.csv", len(rows), len(sets)))
    sharpe, col, cols = [], 0, []
    for r in rows:
        if r["status"] != "ok":
            sharpe.append(None)
            cols.append(None)
            continue
        x = struct.unpack_from(f"<{t}d", raw, 24 + 8 * t * col)
        cols.append(x)
        col += 1
        eq = 1.0
        for v in x:
            eq *= 1 + v
        checks.append((f"set {int(r['variant']) - 1}: its column compounds to its net_return",
                       close(eq - 1, float(r["net_return"]), 1e-8), True))
        sd = statistics.stdev(x)
        sharpe.append(statistics.fmean(x) / sd if sd > 0 else 0.0)
    for i, s in enumerate(nb["sets"]):
        checks.append((f"set {i}: its per-bar Sharpe ratio", close(s["sharpe"], sharpe[i]), True))
    centre = sharpe[0]
    pool = [(sharpe[i] if sharpe[i] is not None else 0.0)
            for i, r in enumerate(rows) if i > 0 and r["status"] != "not_run"]
    med = statistics.median(pool)
    checks.append(("centre_sharpe", close(nb["centre_sharpe"], centre), True))
    checks.append(("median_sharpe", close(nb["median_sharpe"], med), True))
    keep = med / centre if centre > 0 else None
    checks.append(("keep", close(nb["keep"], keep), True))
    kmin = cfg["deflation"]["neighbour_keep"]
    shape = "no_edge" if centre <= 0 else "peak" if keep < kmin else "plateau"
    checks.append(("shape", nb["shape"], shape))
    implied = min(5.0 ** len(moved), 100000.0) if shape == "peak" else None
    checks.append(("implied_trials", close(nb["implied_trials"], implied), True))
    if implied:
        checks.append(("trials at least the implied search", stats["trials"] >= implied, True))
    span = cfg["deflation"]["neighbour_span"]
    family = 1.0
    for k, (name, _) in enumerate(moved):
        v0 = next(p["value"] for p in spec["parameters"] if p["name"] == name)
        num = den = 0.0
        for i, r in enumerate(rows):
            ps = json.loads(r["params"]) if r.get("params") else nb["sets"][i]["params"]
            if i == 0 or cols[i] is None or list(ps) != [name]:
                continue
            d = abs(math.log(ps[name] / v0))
            rho = pearson(cols[0], cols[i])
            rho = 0.01 if rho is None else min(max(rho, 0.01), 1.0)
            num += d * -math.log(rho)
            den += d * d
        decay = num / den if den > 0 else None
        checks.append((f"decay of {name}", close(nb["parameters"][k]["decay"], decay), True))
        if decay is not None:
            family *= 1 + decay * math.log(span)
    family = min(math.floor(family), 100000.0)
    checks.append(("family_trials", close(nb["family_trials"], family), True))
    if centre > 0:
        checks.append(("trials at least the family's", stats["trials"] >= family * (1 - 1e-9), True))
    return report(checks)


def pearson(a, b):
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    return sab / math.sqrt(saa * sbb) if saa > 0 and sbb > 0 else None


def report(checks):
    bad = 0
    for what, got, want in checks:
        good = got == want
        bad += not good
        print(f"{'ok' if good else 'MISMATCH'}  {what}: {got!r}" + ("" if good else f" (want {want!r})"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
