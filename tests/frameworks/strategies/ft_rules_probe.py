# A freqtrade strategy whose signal columns are set on fixed candles, to check freqtrade's rules:
# the start-up candles are not traded, an exit cancels an entry on the same candle, a trade that
# leaves on a candle does not re-enter on it, and a short needs can_short.
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class FixedCandles(IStrategy):
    INTERFACE_VERSION = 3
    can_short = True
    timeframe = '1h'
    startup_candle_count = 20

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['row'] = range(len(dataframe))
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['row'].isin([10, 50, 55, 70, 90, 120]), 'enter_long'] = 1
        dataframe.loc[dataframe['row'].isin([100, 130, 131]), 'enter_short'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['row'].isin([60, 70, 95, 130]), 'exit_long'] = 1
        dataframe.loc[dataframe['row'].isin([110, 140]), 'exit_short'] = 1
        return dataframe
