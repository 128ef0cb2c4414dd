# A freqtrade strategy whose entry signal stays set for many candles while its ROI table and
# stop-loss close trades: freqtrade enters again on the next candle whose entry signal is set,
# so most of its trades are re-entries. Both sides (can_short), an exit signal that cancels an
# entry, and a start-up period.
from pandas import DataFrame

import talib.abstract as ta
from freqtrade.strategy import IStrategy


class Reentry(IStrategy):
    INTERFACE_VERSION = 3
    can_short = True
    timeframe = '5m'
    startup_candle_count = 30
    minimal_roi = {"0": 0.012, "30": 0.006, "90": 0.0}
    stoploss = -0.015

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['ema_fast'] = ta.EMA(dataframe, timeperiod=12)
        dataframe['ema_slow'] = ta.EMA(dataframe, timeperiod=26)
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        up = dataframe['ema_fast'] > dataframe['ema_slow']
        dataframe.loc[up & (dataframe['rsi'] < 70), 'enter_long'] = 1
        dataframe.loc[~up & (dataframe['rsi'] > 30), 'enter_short'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 80, 'exit_long'] = 1
        dataframe.loc[dataframe['rsi'] < 20, 'exit_short'] = 1
        return dataframe
