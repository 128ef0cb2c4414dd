# Expected: error "boom at call 50". The bot raises mid-stream: its error comes back after its
# stream stops, and the decisions before it are kept.
import numpy as np

calls = [0]


def signals(df):
    calls[0] += 1
    if calls[0] == 50:
        raise ValueError("boom at call 50")
    return np.zeros(len(df), dtype=int)
