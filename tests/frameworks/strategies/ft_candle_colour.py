# A freqtrade strategy for four-hour candles whose position is the last candle's colour: long
# after a rising candle, flat after a falling one (checked against pandas' own resampling).
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class CandleColour(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '4h'

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['close'] > dataframe['open'], 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['close'] <= dataframe['open'], 'exit_long'] = 1
        return dataframe
