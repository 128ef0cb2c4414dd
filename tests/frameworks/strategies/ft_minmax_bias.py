# A freqtrade strategy that scales its price by the whole frame's minimum and maximum: every bar
# then knows where the price will end up, which no live bot can.
import talib.abstract as ta
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class RangeNormalised(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '1h'
    minimal_roi = {"0": 10}
    stoploss = -0.99

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        low, high = dataframe['close'].min(), dataframe['close'].max()
        dataframe['scaled'] = (dataframe['close'] - low) / (high - low)
        dataframe['rsi'] = ta.RSI(dataframe)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['scaled'] < 0.3) & (dataframe['rsi'] < 45), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['scaled'] > 0.6, 'exit_long'] = 1
        return dataframe
