# Expected: clean. The honest version of a whole-history z-score: expanding() statistics use only
# the bars seen so far.
import numpy as np


def signals(df):
    r = df["close"].pct_change()
    z = (r - r.expanding(min_periods=20).mean()) / r.expanding(min_periods=20).std()
    return np.where(z > 1.0, 1, np.where(z < -1.0, -1, 0))
