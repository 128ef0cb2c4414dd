#!/usr/bin/python3
"""check_talib.py - the sandbox's talib (sandbox/inside/shims/talib) against TA-Lib's own outputs
for the same input (talib_golden.json, written by talib_oracle.js): the same NaN warm-up, and
every value within 1e-9 (relative to the value's size when it is above 1). Prints one line per
case and exits 1 on any difference."""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'sandbox', 'inside', 'shims'))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import talib  # noqa: E402
import talib.abstract as ta  # noqa: E402

TOL = 1e-9


def compare(name, got, want, integer=False):
    if integer and np.asarray(got).dtype.kind != 'i':
        return '%s: %s values, TA-Lib answers integers' % (name, np.asarray(got).dtype)
    got = np.asarray(got, dtype=float)
    if len(got) != len(want):
        return '%s: %d values, TA-Lib has %d' % (name, len(got), len(want))
    for i, w in enumerate(want):
        g = got[i]
        if w is None and integer:
            if g != 0:
                return '%s: bar %d is %r, TA-Lib\'s wrapper has 0 (inside its lookback)' % (name, i, g)
        elif w is None:
            if not math.isnan(g):
                return '%s: bar %d is %r, TA-Lib has NaN (inside its lookback)' % (name, i, g)
        elif math.isnan(g) or abs(g - w) > TOL * max(1.0, abs(w)):
            return '%s: bar %d is %r, TA-Lib has %r' % (name, i, g, w)
    return None


def main():
    gold = json.load(open(os.path.join(HERE, 'talib_golden.json')))
    gold['cases'] += json.load(open(os.path.join(HERE, 'talib_golden_patterns.json')))['cases']
    frames = {name: pd.read_csv(os.path.join(HERE, name))
              for name in ('talib_input.csv', 'unittest_btc_5m.csv', 'talib_shapes.csv')}
    df = frames['talib_input.csv']
    lo, hi = df['close'].min(), df['close'].max()
    df['unit'] = 2 * (df['close'] - lo) / (hi - lo) - 1  # the oracle's inputs for ACOS, ASIN
    df['small'] = (df['close'] - lo) / (hi - lo) * 5  # and for EXP, COSH, SINH
    bad = 0
    for case in gold['cases']:
        fn, params = case['function'], case['params']
        df = frames[case.get('data', 'talib_input.csv')]
        label = '%s(%s)%s' % (fn, ', '.join(str(p) for p in params),
                              ' on %s' % case['data'] if 'data' in case else '')
        if fn == 'EMA_OF_RSI':
            results = [talib.EMA(talib.RSI(df['close'].values, params[0]), params[1])]
            results_abs = [ta.EMA(pd.DataFrame({'close': ta.RSI(df, params[0])}), params[1])]
        else:
            out = getattr(talib, fn)(*[df[c].values for c in case['inputs']], *params)
            results = list(out) if isinstance(out, tuple) else [out]
            renamed = df.assign(close=df[case['inputs'][0]]) if case['inputs'][0] in ('unit', 'small') else df
            out_abs = getattr(ta, fn)(renamed, *params)
            results_abs = ([out_abs[c] for c in out_abs.columns] if isinstance(out_abs, pd.DataFrame)
                           else [out_abs])
        why = None
        for k, want in enumerate(case['outputs']):
            integer = case.get('integer', False)
            why = why or compare('%s output %d' % (label, k), results[k], want, integer)
            why = why or compare('%s output %d (abstract)' % (label, k), results_abs[k], want, integer)
        n_valid = sum(v is not None for v in case['outputs'][0])
        if case.get('integer'):
            n_valid = sum(bool(v) for v in case['outputs'][0])
        print('%s %s: %d values%s' % ('ok  ' if why is None else 'FAIL', label, n_valid,
                                      '' if why is None else ' -- ' + why))
        bad += why is not None
    print('%d of %d cases match TA-Lib to %g' % (len(gold['cases']) - bad, len(gold['cases']), TOL))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
