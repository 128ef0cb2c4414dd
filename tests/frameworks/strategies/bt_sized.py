# A backtesting.py strategy that stakes a fraction of its equity in each order, and, by the
# markers below, whole units, part of a trade, or a trade's own stop moved by hand.
from backtesting import Strategy
from backtesting.lib import crossover
from backtesting.test import SMA


class Sized(Strategy):
    n1 = 10
    n2 = 30

    def init(self):
        self.fast = self.I(SMA, self.data.Close, self.n1)
        self.slow = self.I(SMA, self.data.Close, self.n2)

    def next(self):
        if crossover(self.fast, self.slow):
            self.position.close()
            self.buy(size=0.5)  # SIZE
        elif crossover(self.slow, self.fast):
            self.position.close()  # CLOSE
            self.sell(size=0.5)  # SIZE
        for trade in self.trades:
            pass  # LEVELS
