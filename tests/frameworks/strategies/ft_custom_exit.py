# A freqtrade strategy whose exits are a per-trade callback.
import talib.abstract as ta
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class CallbackExit(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '1h'

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 30, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def custom_exit(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        if current_profit > 0.02:
            return 'took_profit'
        return None
