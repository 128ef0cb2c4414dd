# Expected: clean. Calendar features (hour of day, weekday) are known in advance of every bar.
import numpy as np


def signals(df):
    idx = df.index
    ret = df["close"].pct_change(6).fillna(0.0).to_numpy()
    session = (idx.hour >= 8) & (idx.hour < 20) & (idx.weekday < 5)
    return np.where(session, np.sign(ret), 0).astype(int)
