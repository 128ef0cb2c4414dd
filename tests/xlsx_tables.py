#!/usr/bin/python3
"""Reads a bundle's report.xlsx with openpyxl, apart from the C that wrote it, and checks that
every sheet is one table (a header row of distinct names, rows under it, nothing beside or
below) with a filter over exactly that table, and that the figures of the sheets split from a
section (the figures a table of two columns, figure and value) and their tables are the stage
files' own. Prints "ok: N sheets, M figures checked" or exits with what differs.

usage: xlsx_tables.py BUNDLE_DIR
"""
import csv
import json
import math
import os
import sys

import openpyxl


def load(d, name):
    p = os.path.join(d, name)
    return json.load(open(p)) if os.path.exists(p) else None


def same(got, want):
    """A cell against the JSON value it shows: numbers to 1e-12 relative, text as written (or
    quoted by a leading ' when a spreadsheet would take it for a formula)."""
    if want is None:
        return got is None
    if isinstance(want, bool):
        return got is want
    if isinstance(want, (int, float)):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and \
            math.isfinite(want) and abs(got - want) <= 1e-12 * max(1.0, abs(want))
    if isinstance(want, list):
        return got == " ".join("%g" % x for x in want)
    return got in (want, "'" + str(want))


def one_table(ws):
    """The sheet's rows, after checking it is one filtered table."""
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert rows, (ws.title, "empty sheet")
    head = rows[0]
    assert all(isinstance(h, str) and h for h in head), (ws.title, "header", head)
    assert len(set(head)) == len(head), (ws.title, "header names repeat", head)
    width = len(head)
    assert ws.max_column == width, (ws.title, "cells beside the table", ws.max_column, width)
    for i, r in enumerate(rows[1:], 2):
        assert any(v is not None for v in r), (ws.title, "an empty row inside the table", i)
    last = openpyxl.utils.get_column_letter(width)
    assert ws.auto_filter.ref == "A1:%s%d" % (last, len(rows)), (ws.title, ws.auto_filter.ref, len(rows))
    assert ws.freeze_panes == "A2", (ws.title, ws.freeze_panes)
    return rows


def at(obj, path):
    for k in path.split("."):
        if not isinstance(obj, dict) or k not in obj:
            return KeyError
        obj = obj[k]
    return obj


def figures(rows, resolve):
    """Each figure row's value against resolve(label); returns how many were checked."""
    assert rows[0] == ["figure", "value"], rows[0]
    n = 0
    for label, value in rows[1:]:
        want = resolve(label)
        if want is KeyError:
            continue
        assert same(value, want), (label, value, want)
        n += 1
    return n


def table(rows, cols, items, sheet):
    """Rows under cols against the list of JSON objects items, in order."""
    assert rows[0] == cols, (sheet, rows[0])
    assert len(rows) - 1 == len(items or []), (sheet, len(rows) - 1, len(items or []))
    for r, it in zip(rows[1:], items or []):
        for c, v in zip(cols, r):
            w = it.get(c)
            if isinstance(w, str) and c.endswith("time") and v is not None and not isinstance(v, str):
                v = v.strftime("%Y-%m-%dT%H:%M:%SZ")
            assert same(v, w), (sheet, c, v, w)
    return len(items or [])


def main(d):
    wb = openpyxl.load_workbook(os.path.join(d, "report.xlsx"))
    st, rp, la = load(d, "stats.json") or {}, load(d, "replay.json") or {}, load(d, "lookahead.json") or {}
    rb, vd = load(d, "robustness.json") or {}, load(d, "verdict.json") or {}
    sheets = {ws.title: one_table(ws) for ws in wb.worksheets}
    n = 0

    def reason_or(obj, key):
        return lambda label: obj.get(label, KeyError) if label.endswith("_reason") else at(obj, label)

    n += figures(sheets["LookAhead"], lambda k: la.get(k, KeyError) if k != "not usable" else KeyError)
    n += table(sheets["LookAhead mismatches"], ["point", "bar", "time", "full", "truncated"],
               la.get("mismatches"), "LookAhead mismatches")
    n += figures(sheets["Robustness"], lambda k: KeyError if k == "not usable" else at(rb, k))
    wu = (rb.get("warmup") or {}).get("runs") or []
    assert len(sheets["Later starts"]) - 1 == len(wu), "Later starts"
    for r, run in zip(sheets["Later starts"][1:], wu):
        assert same(r[0], run.get("percent")) and same(r[3], run.get("differing_bars")), (r, run)
    n += figures(sheets["Trials"], reason_or(st, "pbo_reason"))
    if isinstance(st.get("pbo"), dict):
        assert any(r[0] == "pbo.value" for r in sheets["Trials"]), "Trials: pbo.value"
    n += figures(sheets["Cost basis"], lambda k: st.get(k, KeyError)
                 if k != "breakeven_cost_multiple" or isinstance(st.get(k), (int, float))
                 else (st.get("breakeven") or {}).get("reason", "n/a"))
    n += figures(sheets["Tradeable prices"], reason_or(st, "tradeable_prices_reason"))
    tp = st.get("tradeable_prices")
    if isinstance(tp, dict):
        got = {r[0] for r in sheets["Tradeable prices"][1:]}
        for k in ("roll_spread", "corwin_schultz_spread", "abdi_ranaldo_spread", "spread_estimate",
                  "slippage_floor_bps", "returns_lag1", "zero_returns_share", "stale", "bounces"):
            assert "tradeable_prices." + k in got, ("Tradeable prices lacks", k)
    n += table(sheets["Vetoes"], ["veto", "reason"],
               [{"veto": v.get("name"), "reason": v.get("reason")} for v in vd.get("vetoes") or []], "Vetoes")
    gates = [{"gate": g.get("name"), "value": g.get("value"), "threshold": g.get("threshold"),
              "pass": g.get("pass"), "why": g.get("why")} for g in vd.get("gates") or []]
    n += table(sheets["Gates"], ["gate", "value", "threshold", "pass", "why"], gates, "Gates")
    costs = sheets["Costs"]
    assert [r[0] for r in costs[1:]] == [c["multiple"] for c in st.get("cost_sensitivity") or []], "Costs"
    if "Live" in sheets:
        live = la.get("live") or {}
        n += figures(sheets["Live"], lambda k: at(live, k[5:]) if k.startswith("live.") else at(rp, k))
        n += table(sheets["Live differences"], ["bar", "time", "backtest", "live", "confirmed"],
                   live.get("first_differences"), "Live differences")
    if "Reconcile" in sheets:
        rc = rp.get("reconcile") or {}
        said = [r[1] for r in sheets["Reconcile"][1:] if r[0] == "statement"]
        assert said == [s for s in rc.get("statements") or [] if isinstance(s, str)], said
        n += figures(sheets["Reconcile"], lambda k: KeyError if k == "statement" else rc.get(k, KeyError))
        worst = sheets["Worst gaps"]
        assert len(worst) - 1 == len(rc.get("worst") or []), "Worst gaps"
        for r, w in zip(worst[1:], rc.get("worst") or []):
            assert same(r[0], w.get("line")) and same(r[7], w.get("gap")), (r, w)
    if os.path.exists(os.path.join(d, "variants.csv")):
        want = list(csv.DictReader(open(os.path.join(d, "variants.csv"))))
        assert len(sheets["Variants"]) - 1 == len(want), "Variants rows"
    print("ok: %d sheets, %d figures checked" % (len(sheets), n))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
