# The moving-average cross of backtesting.py's own documentation and test suite (10 and 30 bars
# of the close; each cross closes the open trade and takes the other side), for the check of its
# trades against the figures that documentation publishes for the GOOG daily bars.
from backtesting import Strategy
from backtesting.lib import crossover
from backtesting.test import SMA


class DocsCross(Strategy):
    fast = 10
    slow = 30

    def init(self):
        self.sma1 = self.I(SMA, self.data.Close, self.fast)
        self.sma2 = self.I(SMA, self.data.Close, self.slow)

    def next(self):
        if crossover(self.sma1, self.sma2):
            self.position.close()
            self.buy()
        elif crossover(self.sma2, self.sma1):
            self.position.close()
            self.sell()
