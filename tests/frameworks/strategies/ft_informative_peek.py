# The same hourly RSI gate merged WITHOUT freqtrade's shift: each hour's candle is joined on its
# opening date, so the 5-minute candles of an hour see that hour's close before it has happened.
# A look-ahead: the live replay must find it.
import pandas as pd
from pandas import DataFrame

import talib.abstract as ta
from freqtrade.strategy import IStrategy


class HourlyRsiPeek(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 200
    minimal_roi = {"0": 0.015}
    stoploss = -0.03

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        hourly = self.dp.get_pair_dataframe(pair=metadata['pair'], timeframe='1h')
        hourly['rsi_1h'] = ta.RSI(hourly, timeperiod=6)
        dataframe = pd.merge_ordered(dataframe, hourly[['date', 'rsi_1h']], fill_method='ffill',
                                     on='date', how='left')
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['rsi_1h'] < 45) & (dataframe['rsi'] < 35), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, 'exit_long'] = 1
        return dataframe
