# A quiet veto in a backtesting.py Strategy: the rule of quiet_veto_signals.py as its author
# would write it for backtesting.py. init() marks the causal entries (on the first bar in 15
# whose close lies more than 1.5 standard deviations from its 20-bar mean, against the move);
# next() enters them and closes each trade after 12 bars. The peek: self.data.Close inside
# next() is the bars so far, but its .base is the whole column, so next() skips an entry whose
# side would lose by the close 12 bars later (close[t+12] / close[t]). A skipped entry changes
# no position, so the same trades as quiet_veto_signals.py: a loser turned into a winner.
# expect: lookahead
import numpy as np
import pandas as pd
from backtesting import Backtest, Strategy
from backtesting.test import GOOG

HOLD = 12       # bars a trade is held
AHEAD = 12      # the peek: bars ahead the veto looks


def stretched(close, window, stretch, spacing):
    """+1 (buy) or -1 (sell) on the first stretched close in `spacing` bars, against the move."""
    close = pd.Series(close)
    z = (close - close.rolling(window).mean()) / close.rolling(window).std()
    side = np.where(z > stretch, -1, np.where(z < -stretch, 1, 0))
    raw = pd.Series((side != 0).astype(float))
    recent = raw.rolling(spacing, min_periods=1).max().shift(1).fillna(0.0)
    return np.where(recent.to_numpy() == 0, side, 0).astype(float)


class QuietVeto(Strategy):
    window = 20
    stretch = 1.5
    spacing = 15

    def init(self):
        self.side = self.I(stretched, self.data.Close, self.window, self.stretch, self.spacing)

    def next(self):
        bar = len(self.data) - 1
        if self.position:
            if bar - (self.trades[0].entry_bar - 1) >= HOLD:
                self.position.close()
            return
        side = self.side[-1]
        if side == 0:
            return
        every_close = self.data.Close.base          # the whole column, the future included
        if bar + AHEAD < len(every_close) and side * (every_close[bar + AHEAD] / every_close[bar] - 1) < 0:
            return                                  # skip the entry that would lose
        if side > 0:
            self.buy()
        else:
            self.sell()


if __name__ == '__main__':
    print(Backtest(GOOG, QuietVeto, commission=.002).run())
