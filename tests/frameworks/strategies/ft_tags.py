# A freqtrade strategy that names its entries and exits (enter_tag, exit_tag): two long entry
# rules and one short, each with its tag, exits tagged by the rule that fired, on both sides, with
# an ROI table and a stop-loss that also close trades (those keep freqtrade's own reasons).
from pandas import DataFrame

import talib.abstract as ta
from freqtrade.strategy import IStrategy


class Tagged(IStrategy):
    INTERFACE_VERSION = 3
    can_short = True
    timeframe = '5m'
    startup_candle_count = 30
    minimal_roi = {"0": 0.03, "120": 0.01}
    stoploss = -0.02

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['ema_fast'] = ta.EMA(dataframe, timeperiod=10)
        dataframe['ema_slow'] = ta.EMA(dataframe, timeperiod=30)
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        up = dataframe['ema_fast'] > dataframe['ema_slow']
        dip = up & (dataframe['rsi'] < 45)
        trend = up & (dataframe['rsi'] >= 45) & (dataframe['rsi'] < 60)
        dataframe.loc[dip, ['enter_long', 'enter_tag']] = (1, 'dip in uptrend')
        dataframe.loc[trend, ['enter_long', 'enter_tag']] = (1, 'trend')
        dataframe.loc[~up & (dataframe['rsi'] > 55), ['enter_short', 'enter_tag']] = (1, 'short bounce')
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 66, ['exit_long', 'exit_tag']] = (1, 'rsi high')
        dataframe.loc[dataframe['rsi'] < 36, ['exit_short', 'exit_tag']] = (1, 'rsi low')
        return dataframe
