# Expected: clean. EMA crossover with ewm(adjust=True): each value weighs only bars up to its own.
import numpy as np


def signals(df):
    c = df["close"]
    fast = c.ewm(span=12, adjust=True).mean()
    slow = c.ewm(span=48, adjust=True).mean()
    return np.where(fast > slow, 1, -1)
