# Expected: clean. ewm mean, std, var and corr with adjust True and False, span, halflife and
# alpha: all recursive over past bars.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    r = c.pct_change()
    m1 = c.ewm(span=20, adjust=True).mean()
    m2 = c.ewm(span=60, adjust=False).mean()
    s1 = r.ewm(halflife=24, adjust=True).std()
    v2 = r.ewm(alpha=0.05, adjust=False).var()
    cr = r.ewm(span=50).corr(df["volume"].pct_change())
    return np.where((m1 > m2) & (s1 ** 2 < v2 * 2), 1, np.where(cr < -0.1, -1, 0))
