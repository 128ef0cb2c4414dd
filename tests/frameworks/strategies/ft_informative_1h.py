# A freqtrade strategy on 5-minute candles that reads its own pair's hourly candles through the
# @informative decorator: it trades the 5-minute EMA cross only while the hourly close is above
# the hourly EMA (columns close_1h and ema_1h, merged from the hour that has closed).
from pandas import DataFrame

import talib.abstract as ta
from freqtrade.strategy import IStrategy, informative


class HourlyFilter(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 120
    minimal_roi = {"0": 0.02, "60": 0.01}
    stoploss = -0.02

    @informative('1h')
    def populate_indicators_1h(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['ema'] = ta.EMA(dataframe, timeperiod=8)
        return dataframe

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['fast'] = ta.EMA(dataframe, timeperiod=9)
        dataframe['slow'] = ta.EMA(dataframe, timeperiod=21)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['fast'] > dataframe['slow']) &
                      (dataframe['close_1h'] > dataframe['ema_1h']), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['fast'] < dataframe['slow'], 'exit_long'] = 1
        return dataframe
