# A backtesting.py strategy run with exclusive_orders: a breakout of the last day's range goes
# long or short, each order closing whatever was open; a stale trade is closed after two days.
import numpy as np
import pandas as pd
from backtesting import Backtest, Strategy
from backtesting.test import GOOG


def rolling_high(values, n):
    return pd.Series(values).rolling(n).max().shift(1)


def rolling_low(values, n):
    return pd.Series(values).rolling(n).min().shift(1)


class DayBreakout(Strategy):
    window = 24

    def init(self):
        self.top = self.I(rolling_high, self.data.High, self.window)
        self.bottom = self.I(rolling_low, self.data.Low, self.window)

    def next(self):
        price = self.data.Close[-1]
        if price > self.top[-1] and not self.position.is_long:
            self.buy()
        elif price < self.bottom[-1] and not self.position.is_short:
            self.sell()
        elif self.position and len(self.data) - self.trades[0].entry_bar > 48:
            self.position.close()


bt = Backtest(GOOG, DayBreakout, cash=10_000, exclusive_orders=True)
