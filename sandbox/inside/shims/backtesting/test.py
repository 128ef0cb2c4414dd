"""backtesting.test: SMA, and GOOG and EURUSD as empty frames on a DatetimeIndex, as
backtesting.py loads them (the audit's data is its own)."""
import pandas as pd


def SMA(values, n):
    return pd.Series(values).rolling(n).mean()


GOOG = pd.DataFrame(columns=['Open', 'High', 'Low', 'Close', 'Volume'], dtype=float,
                    index=pd.DatetimeIndex([]))
EURUSD = GOOG
