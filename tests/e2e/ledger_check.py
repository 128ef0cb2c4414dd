#!/usr/bin/env python3
"""tests/e2e/ledger_check.py - recomputes the trial ledger and the forward figures of a night's
audits by other means than the pipeline's: the lineage rule over Python's own ast (normalised
here, independently of the inspect stage's C walk), and the forward bars, trades, return,
Sharpe ratio and band from each bundle's trades.csv and equity.csv with numpy.

  ledger_check.py ledger NIGHTS.txt OUT_ROOT      every audit of the last night listed
  ledger_check.py forward OUT_DIR                  one audit's stats.json forward

NIGHTS.txt: one line a night, "NIGHT FOLDER DATA", FOLDER a copy of the strategies as they
were that night, DATA the bars it was audited on. Prints "ok" or what differs, and exits 1.
"""
import ast
import csv
import json
import math
import os
import sys

import numpy as np

INTERFACE = {"signals", "VARIANTS"}


def normalised(src, keep_constants):
    """The tree as text: docstrings dropped, names the file binds numbered, constants kept or
    abstracted."""
    tree = ast.parse(src)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:]
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            bound.add(node.asname)
    bound -= INTERFACE
    numbers = {}

    def num(name):
        return "n%d" % numbers.setdefault(name, len(numbers))

    class Rewrite(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in bound:
                node.id = num(node.id)
            return node

        def visit_arg(self, node):
            if node.arg in bound:
                node.arg = num(node.arg)
            return node

        def visit_FunctionDef(self, node):
            if node.name in bound:
                node.name = num(node.name)
            self.generic_visit(node)
            return node

        def visit_Constant(self, node):
            return node if keep_constants else ast.Constant(value="C")

    return ast.dump(Rewrite().visit(tree), annotate_fields=False, include_attributes=False)


def declared_variants(src):
    """How many parameter sets a top-level VARIANTS literal declares (0: none)."""
    n = 0
    for node in ast.parse(src).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "VARIANTS" for t in node.targets):
            try:
                n = len(ast.literal_eval(node.value))
            except ValueError:
                n = 0
    return n


def last_bar(data):
    with open(data) as f:
        rows = f.read().strip().splitlines()
    return rows[-1].split(",")[0]


def simulate(nights):
    """Walks the nights in order: returns, for the last one, {name: (lineage, version, versions,
    trials, since)} as its audits saw the ledger (before the night was recorded)."""
    versions = {}   # version text -> [lineage, number, structure text, first night, data last, variants]
    names = {}      # file name -> lineage
    first = {}      # lineage -> first night
    seen = {}
    for i, (night, folder, data) in enumerate(nights):
        tonight = {}
        for fn in sorted(os.listdir(folder)):
            if not fn.endswith(".py"):
                continue
            name = fn[:-3]
            src = open(os.path.join(folder, fn)).read()
            tonight[name] = (normalised(src, True), normalised(src, False), declared_variants(src))
        seen = {}
        for name, (v, s, k) in tonight.items():
            seen[name] = view(versions, names, name, v, s, k)
        if i + 1 == len(nights):
            return seen
        for name in sorted(tonight):    # the index step records in name order
            v, s, k = tonight[name]
            lin, number, _, _, _, known = view(versions, names, name, v, s, k) + (v in versions,)
            if lin not in first:
                first[lin] = night
            if not known:
                versions[v] = [lin, number, s, night, last_bar(data), k]
            names[name] = lin
    return seen


def view(versions, names, name, v, s, k):
    """(lineage, version, versions, trials, since): each version counts its variants, at least 1."""
    def tally(lin):
        mine = [x for x in versions.values() if x[0] == lin]
        return len(mine), sum(max(1, x[5]) for x in mine)
    if v in versions:
        lin, number, _, _, since, _ = versions[v]
        return (lin, number) + tally(lin) + (since,)
    lin = names.get(name)
    if lin is None:
        match = sorted((x[3], x[0], x[1]) for x in versions.values() if x[2] == s)
        lin = match[0][1] if match else None
    if lin is None:
        return name, 1, 1, max(1, k), None
    count, trials = tally(lin)
    return lin, count + 1, count + 1, trials + max(1, k), None


def check_ledger(nights_file, out_root):
    nights = [line.split() for line in open(nights_file) if line.strip()]
    want = simulate(nights)
    bad = []
    for name, (lin, version, versions, trials, since) in sorted(want.items()):
        st = json.load(open(os.path.join(out_root, name, "stats.json")))
        led = st.get("ledger") or {}
        got = (led.get("lineage"), led.get("version"), led.get("versions"), led.get("trials"))
        if got != (lin, version, versions, trials):
            bad.append("%s: ledger %s, recomputed %s" % (name, got, (lin, version, versions, trials)))
        declared = json.load(open(os.path.join(out_root, name, "config.json")))["trials"]
        ran = json.load(open(os.path.join(out_root, name, "variants.json"))).get("ran") or 0
        deflated = max(declared, ran, trials)
        source = "ledger" if trials > max(declared, ran) else "variants" if ran and ran >= declared else "declared"
        if (st["trials"], st["trials_source"]) != (deflated, source):
            bad.append("%s: trials %s from %s, recomputed %s from %s"
                       % (name, st["trials"], st["trials_source"], deflated, source))
        fwd = st.get("forward")
        if since is not None and last_bar(nights[-1][2]) != since:
            if not fwd or fwd["since"] != since:
                bad.append("%s: forward since %s, recomputed %s" % (name, fwd and fwd["since"], since))
        elif fwd is not None:
            bad.append("%s: a forward section without a version audited before on shorter data" % name)
    return bad


def check_forward(out_dir):
    st = json.load(open(os.path.join(out_dir, "stats.json")))
    fwd = st["forward"]
    since = fwd["since"]
    with open(os.path.join(out_dir, "equity.csv")) as f:
        eq = [(r["time"], float(r["net_equity"])) for r in csv.DictReader(f)]
    with open(os.path.join(out_dir, "trades.csv")) as f:
        trades = [(r["entry_time"], float(r["net_return"])) for r in csv.DictReader(f)]
    # ISO-8601 UTC in one form: text order is time order
    first = next(i for i, (t, _) in enumerate(eq) if t > since)
    fwd_trades = [r for t, r in trades if t > since]
    in_trades = np.array([r for t, r in trades if t <= since])
    net = float(np.prod([1 + r for r in fwd_trades]) - 1)
    e = np.array([x for _, x in eq])
    rets = e[first:] / e[first - 1:-1] - 1
    replay = json.load(open(os.path.join(out_dir, "replay.json")))
    sharpe = rets.mean() / rets.std(ddof=1) * math.sqrt(365.25 * 86400 / replay["bar_seconds"])
    bars = len(eq) - first
    k = int(round(len(in_trades) * bars / first))
    rng = np.random.default_rng(12345)
    draws = np.prod(1 + in_trades[rng.integers(0, len(in_trades), size=(4000, k))], axis=1) - 1
    lo, hi = np.quantile(draws, [0.05, 0.95])
    bad = []
    for what, a, b, tol in (("bars", fwd["bars"], bars, 0), ("trades", fwd["trades"], len(fwd_trades), 0),
                            ("net_return", fwd["net_return"], net, 1e-8),
                            ("sharpe_annualised", fwd["sharpe_annualised"], sharpe, 1e-6 * max(1, abs(sharpe)))):
        if abs(a - b) > tol:
            bad.append("forward %s: %s, recomputed %s" % (what, a, b))
    # the band is a bootstrap: another generator agrees within a fifth of its width
    width = hi - lo
    for what, a, b in (("band low", fwd["band"][0], lo), ("band high", fwd["band"][1], hi)):
        if abs(a - b) > 0.2 * width + 1e-9:
            bad.append("forward %s: %s, recomputed %s (width %s)" % (what, a, b, width))
    if fwd["inside"] != (fwd["band"][0] <= fwd["net_return"] <= fwd["band"][1]):
        bad.append("forward inside does not follow from its band and return")
    return bad


def main():
    if sys.argv[1] == "ledger":
        bad = check_ledger(sys.argv[2], sys.argv[3])
    else:
        bad = check_forward(sys.argv[2])
    print("\n".join(bad) if bad else "ok")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
