# A freqtrade strategy that needs pandas_ta's rsi, which the sandbox's pandas_ta does not provide.
import pandas_ta as pta
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class NeedsPandasTa(IStrategy):
    timeframe = '1h'

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = pta.rsi(dataframe['close'])
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 30, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, 'exit_long'] = 1
        return dataframe
