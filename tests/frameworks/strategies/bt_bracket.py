# A backtesting.py strategy whose orders carry their own stop-loss and take-profit prices.
from backtesting import Strategy
from backtesting.test import SMA


class Bracketed(Strategy):
    def init(self):
        self.ma = self.I(SMA, self.data.Close, 20)

    def next(self):
        if not self.position and self.data.Close[-1] > self.ma[-1]:
            price = self.data.Close[-1]
            self.buy(sl=price * 0.97, tp=price * 1.05)
