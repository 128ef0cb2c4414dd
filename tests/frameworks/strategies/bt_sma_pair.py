# A backtesting.py strategy: two moving averages of the close, long above and short below, with
# each flip closing the open trade first.
from backtesting import Backtest, Strategy
from backtesting.lib import crossover
from backtesting.test import SMA, GOOG


class MovingPair(Strategy):
    fast = 12
    slow = 36

    def init(self):
        self.ma_fast = self.I(SMA, self.data.Close, self.fast)
        self.ma_slow = self.I(SMA, self.data.Close, self.slow)

    def next(self):
        if crossover(self.ma_fast, self.ma_slow):
            self.position.close()
            self.buy()
        elif crossover(self.ma_slow, self.ma_fast):
            self.position.close()
            self.sell()


if __name__ == '__main__':
    print(Backtest(GOOG, MovingPair, commission=.002).run())
