#!/usr/bin/python3
"""talib_patterns_oracle.py LIBTA - TA-Lib's candlestick patterns and its Hilbert transforms from
TA-Lib's own C code (a shared library built from its source, LIBTA), on
tests/frameworks/talib_input.csv and on freqtrade's real candles (unittest_btc_5m.csv, where
gaps, long shadows and so the patterns occur), written as talib_golden_patterns.json for
tests/frameworks/check_talib.py. Test-only.

Why not talib-web (talib_oracle.js) for these: its WebAssembly build never calls TA_Initialize,
so its candle settings are all zero (a doji there is a candle whose open equals its close, and
no hammer is ever found), while TA-Lib's Python wrapper initialises them to TA-Lib's defaults;
and its HT_SINE differs from the C on the last bar alone (so the Hilbert transforms are taken
from the C).
Build LIBTA from TA-Lib 0.4.0's C source, outside the project, e.g.
  gcc -O2 -shared -fPIC -Iinclude -Isrc/ta_common -Isrc/ta_func src/ta_func/*.c \\
      src/ta_common/ta_global.c src/ta_common/ta_retcode.c src/ta_common/ta_version.c -o libta.so -lm
then  tests/frameworks/talib_patterns_oracle.py libta.so > tests/frameworks/talib_golden_patterns.json"""
import ctypes
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERNS = ['CDLHAMMER', 'CDLHANGINGMAN', 'CDLINVERTEDHAMMER', 'CDLSHOOTINGSTAR', 'CDLDOJI',
            'CDLDRAGONFLYDOJI', 'CDLGRAVESTONEDOJI', 'CDLPIERCING', 'CDLSPINNINGTOP', 'CDLHARAMI',
            'CDL3INSIDE', 'CDL3OUTSIDE', ('CDLDARKCLOUDCOVER', 0.5), ('CDLDARKCLOUDCOVER', 0.2),
            ('CDLMORNINGSTAR', 0.3), ('CDLEVENINGSTAR', 0.3), ('CDLMORNINGSTAR', 0.0), 'CDLMARUBOZU',
            'CDLLONGLINE', 'CDLSHORTLINE', 'CDLHIGHWAVE', 'CDLLONGLEGGEDDOJI', 'CDLTAKURI',
            'CDLRICKSHAWMAN', 'CDLBELTHOLD', 'CDLCLOSINGMARUBOZU', 'CDLHARAMICROSS', 'CDLDOJISTAR',
            'CDL2CROWS', 'CDL3BLACKCROWS', 'CDL3LINESTRIKE', 'CDL3WHITESOLDIERS',
            ('CDLMORNINGDOJISTAR', 0.3), ('CDLEVENINGDOJISTAR', 0.3), 'CDLUPSIDEGAP2CROWS',
            ('CDLMATHOLD', 0.5), 'CDLLADDERBOTTOM', 'CDLSTALLEDPATTERN', 'CDLRISEFALL3METHODS',
            'CDLHIKKAKE', 'CDL3STARSINSOUTH', ('CDLABANDONEDBABY', 0.3), 'CDLADVANCEBLOCK',
            'CDLBREAKAWAY', 'CDLCONCEALBABYSWALL', 'CDLCOUNTERATTACK', 'CDLGAPSIDESIDEWHITE',
            'CDLHOMINGPIGEON', 'CDLIDENTICAL3CROWS', 'CDLINNECK', 'CDLONNECK', 'CDLTHRUSTING',
            'CDLKICKING', 'CDLKICKINGBYLENGTH', 'CDLMATCHINGLOW', 'CDLSEPARATINGLINES',
            'CDLSTICKSANDWICH', 'CDLTASUKIGAP', 'CDLTRISTAR', 'CDLUNIQUE3RIVER', 'CDLXSIDEGAP3METHODS',
            'CDLHIKKAKEMOD']


def cases_on(lib, data):
    cases = []
    rows = list(csv.DictReader(open(os.path.join(HERE, data))))
    n = len(rows)
    arr = ctypes.c_double * n
    o, h, l, c = (arr(*[float(r[k]) for r in rows]) for k in ('open', 'high', 'low', 'close'))
    for pattern in PATTERNS:
        name, params = (pattern, []) if isinstance(pattern, str) else (pattern[0], list(pattern[1:]))
        out = (ctypes.c_int * n)()
        beg, nb = ctypes.c_int(), ctypes.c_int()
        rc = getattr(lib, 'TA_' + name)(0, n - 1, o, h, l, c, *[ctypes.c_double(p) for p in params],
                                        ctypes.byref(beg), ctypes.byref(nb), out)
        if rc != 0:
            raise SystemExit('%s returned %d' % (name, rc))
        full = [None] * n
        for i in range(nb.value):
            full[beg.value + i] = out[i]
        cases.append({'function': name, 'inputs': ['open', 'high', 'low', 'close'], 'params': params,
                      'integer': True, 'outputs': [full], 'data': data})
    for name, n_out, integer in (('HT_SINE', 2, False), ('HT_TRENDLINE', 1, False),
                                 ('HT_DCPHASE', 1, False), ('HT_DCPERIOD', 1, False),
                                 ('HT_PHASOR', 2, False), ('HT_TRENDMODE', 1, True),
                                 ('MAMA', 2, False)):
        kind = ctypes.c_int if integer else ctypes.c_double
        outs = [(kind * n)() for _ in range(n_out)]
        beg, nb = ctypes.c_int(), ctypes.c_int()
        params = [0.5, 0.05] if name == 'MAMA' else []
        if getattr(lib, 'TA_' + name)(0, n - 1, c, *[ctypes.c_double(p) for p in params],
                                      ctypes.byref(beg), ctypes.byref(nb), *outs) != 0:
            raise SystemExit('%s failed' % name)
        full = [[None] * n for _ in range(n_out)]
        for k in range(n_out):
            for i in range(nb.value):
                full[k][beg.value + i] = outs[k][i]
        cases.append({'function': name, 'inputs': ['close'], 'params': params, 'outputs': full,
                      'integer': integer, 'data': data})
    return cases


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[0], file=sys.stderr)
        return 2
    lib = ctypes.CDLL(argv[1])
    if lib.TA_Initialize() != 0:
        raise SystemExit('TA_Initialize failed')
    cases = []
    for data in ('talib_input.csv', 'unittest_btc_5m.csv', 'talib_shapes.csv'):
        cases += cases_on(lib, data)
    version = ctypes.c_char_p
    lib.TA_GetVersionString.restype = version
    print(json.dumps({'source': 'TA-Lib C %s, TA_Initialize\'d' %
                      lib.TA_GetVersionString().decode().split(' ')[0], 'cases': cases}))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
