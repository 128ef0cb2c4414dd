# Causal, with a memory as long as the history: the trend is the close against a slow
# exponential mean (ewm with adjust=True and a half-life of 2000 bars, so every bar since bar 0
# weighs on it) and against the expanding mean of every close since bar 0; the position is a
# state carried from bar 0 (long once the close is 0.2 % above the slow mean, short once 0.2 %
# below it, held in between), kept only while the close is on the same side of the expanding
# mean. No bar uses a later one, but a run that starts later than bar 0 (a window) computes other
# means and may carry another state: that is memory, not look-ahead, and must not be flagged.
# expect: clean
import numpy as np

HALF_LIFE = 2000
BAND = 0.002


def signals(df):
    close = df["close"]
    slow = close.ewm(halflife=HALF_LIFE, adjust=True).mean().to_numpy()
    anchor = close.expanding().mean().to_numpy()
    c = close.to_numpy()
    out = np.zeros(len(c), dtype=int)
    state = 0
    for t in range(len(c)):
        if c[t] > slow[t] * (1 + BAND):
            state = 1
        elif c[t] < slow[t] * (1 - BAND):
            state = -1
        if (state > 0 and c[t] > anchor[t]) or (state < 0 and c[t] < anchor[t]):
            out[t] = state
    return out
