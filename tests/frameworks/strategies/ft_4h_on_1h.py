# A freqtrade strategy written for four-hour candles, audited on hourly bars.
import talib.abstract as ta
from pandas import DataFrame

import freqtrade.vendor.qtpylib.indicators as qtpylib
from freqtrade.strategy import IStrategy


class FourHourCross(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '4h'
    startup_candle_count = 30
    minimal_roi = {"0": 10}
    stoploss = -0.99

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['fast'] = ta.EMA(dataframe, timeperiod=5)
        dataframe['slow'] = ta.EMA(dataframe, timeperiod=20)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[qtpylib.crossed_above(dataframe['fast'], dataframe['slow']), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[qtpylib.crossed_below(dataframe['fast'], dataframe['slow']), 'exit_long'] = 1
        return dataframe
