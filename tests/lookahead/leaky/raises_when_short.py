# Expected: leak. Raises when given fewer than 300 bars, a warm-up it says it needs, and peeks a
# bar ahead once it has them. A window shorter than 300 bars fails at every point: were a failed
# window taken as a pass, this would pass; each is run again over the whole prefix, which shows
# the peek.
import numpy as np


def signals(df):
    c = df["close"].to_numpy()
    if len(c) < 300:
        raise ValueError("needs 300 bars of history, got %d" % len(c))
    nxt = np.append(c[1:], c[-1])
    out = np.where(nxt > c, 1, -1)
    out[:300] = 0
    return out
