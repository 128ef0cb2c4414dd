# Expected: leak. A volume spike is judged against np.percentile(volume, 90) of the whole
# series, a threshold that later bars move.
import numpy as np
import pandas as pd


def signals(df):
    v = df["volume"].to_numpy()
    hi = np.percentile(v, 90)
    d = np.sign(df["close"].diff().fillna(0.0).to_numpy())
    return np.where(v > hi, d, 0).astype(int)
