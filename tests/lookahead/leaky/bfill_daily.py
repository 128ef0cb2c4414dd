# Expected: leak. A daily trend is known only at the day's last bar; bfill copies it back onto the
# day's earlier bars, which therefore trade on the evening's close.
import numpy as np
import pandas as pd


def signals(df):
    c = df["close"]
    day = c.index.floor("D")
    last_bar = day != pd.Series(day, index=c.index).shift(-1).to_numpy()
    trend = pd.Series(np.where(last_bar, np.sign(c - c.rolling(24, min_periods=1).mean()), np.nan),
                      index=c.index)
    return trend.bfill().fillna(0).astype(int)
