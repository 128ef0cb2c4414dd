# A quiet veto in a freqtrade IStrategy (interface 3, both sides): the rule of
# quiet_veto_signals.py as its author would write it for freqtrade. populate_indicators marks
# the causal entries (on the first candle in 15 whose close lies more than 1.5 standard
# deviations from its 20-candle mean, against the move); populate_exit_trend leaves 12 candles
# after each. The peek is in populate_entry_trend: the close 12 candles later (shift(-12)) drops
# an entry whose side would lose by then. A dropped entry changes no position, so the same
# trades as quiet_veto_signals.py: a loser turned into a winner.
# expect: lookahead
import numpy as np
import pandas as pd
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class QuietVeto(IStrategy):
    INTERFACE_VERSION = 3
    can_short = True
    timeframe = '1h'
    minimal_roi = {"0": 10}
    stoploss = -0.99

    window = 20
    stretch = 1.5
    spacing = 15
    hold = 12

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        close = dataframe['close']
        z = (close - close.rolling(self.window).mean()) / close.rolling(self.window).std()
        side = np.where(z > self.stretch, -1, np.where(z < -self.stretch, 1, 0))
        raw = pd.Series((side != 0).astype(float), index=dataframe.index)
        recent = raw.rolling(self.spacing, min_periods=1).max().shift(1).fillna(0.0)
        dataframe['side'] = np.where(recent == 0, side, 0)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        later = dataframe['close'].shift(-12)       # the close 12 candles ahead: the future
        loses = dataframe['side'] * (later / dataframe['close'] - 1) < 0
        dataframe.loc[(dataframe['side'] > 0) & ~loses, 'enter_long'] = 1
        dataframe.loc[(dataframe['side'] < 0) & ~loses, 'enter_short'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        entered = dataframe['side'].shift(self.hold)
        dataframe.loc[entered > 0, 'exit_long'] = 1
        dataframe.loc[entered < 0, 'exit_short'] = 1
        return dataframe
