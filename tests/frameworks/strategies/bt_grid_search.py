# A backtesting.py strategy tuned by a grid search in the file, as its documentation shows
# optimize(): four windows, a constraint between them, a random subset of the grid (max_tries,
# random_state) and the heatmap read on after the call. It also reads its bars' dates
# (self.data.index, self.data.df, the sample data's index), which backtesting.py gives as a
# DatetimeIndex.
from backtesting import Backtest, Strategy
from backtesting.lib import crossover
from backtesting.test import GOOG, SMA


class FourWindows(Strategy):
    trend_fast = 20
    trend_slow = 60
    enter = 15
    leave = 8

    def init(self):
        close = self.data.Close
        self.t_fast = self.I(SMA, close, self.trend_fast)
        self.t_slow = self.I(SMA, close, self.trend_slow)
        self.ma_enter = self.I(SMA, close, self.enter)
        self.ma_leave = self.I(SMA, close, self.leave)
        self.weekday = self.I(lambda: self.data.index.dayofweek.to_numpy(dtype=float))
        assert self.data.df.index.equals(self.data.index)

    def next(self):
        if self.weekday[-1] == 4:  # no new trade into a weekend
            return
        if not self.position:
            if self.t_fast[-1] > self.t_slow[-1] and crossover(self.data.Close, self.ma_enter):
                self.buy()
            elif self.t_fast[-1] < self.t_slow[-1] and crossover(self.ma_enter, self.data.Close):
                self.sell()
        elif (self.position.is_long and crossover(self.ma_leave, self.data.Close) or
              self.position.is_short and crossover(self.data.Close, self.ma_leave)):
            self.position.close()


weekdays = GOOG.index.dayofweek
bt = Backtest(GOOG, FourWindows, commission=.002)
stats, heatmap = bt.optimize(trend_fast=range(10, 60, 10), trend_slow=range(40, 160, 20),
                             enter=range(10, 30, 5), leave=range(5, 20, 5),
                             constraint=lambda p: p.leave < p.enter < p.trend_fast < p.trend_slow,
                             maximize='Equity Final [$]', max_tries=60, random_state=7,
                             return_heatmap=True)
best = heatmap.groupby(['trend_fast', 'trend_slow']).mean().unstack()
top = heatmap.sort_values().iloc[-3:]
