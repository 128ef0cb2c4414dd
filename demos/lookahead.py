"""A peeker with a real rule underneath: long while the 6-hour EMA is more than 0.15 % above the
24-hour EMA, short while it is more than 0.15 % below, flat between. On its own that trend rule
has an edge on this data. The peek: it stays out of any bar whose next close (shift(-1), which
no one can know at this bar's close) moves more than 0.2 % against the rule's side, so the
backtest skips losing hours it could not have known about."""
import numpy as np


def signals(df):
    close = df["close"]
    fast = close.ewm(span=6, adjust=False).mean()
    slow = close.ewm(span=24, adjust=False).mean()
    gap = fast / slow - 1.0
    rule = np.where(gap > 0.0015, 1, np.where(gap < -0.0015, -1, 0))
    move = (close.shift(-1) / close - 1.0).to_numpy()  # the future: this bar does not know it yet
    against = ((rule == 1) & (move < -0.002)) | ((rule == -1) & (move > 0.002))
    return np.where(against, 0, rule)
