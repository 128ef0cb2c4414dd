# Expected: raised. The bot raises at its 50th decision of each live run: a live bot whose
# strategy cannot decide a bar takes no position on it and goes on, so the run carries on to its
# last bar, the bar is counted in live.raised and taken flat (here the backtest is flat too).
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        raise ValueError("boom at call 50")
    return np.zeros(len(df), dtype=int)
