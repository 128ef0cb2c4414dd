# A freqtrade strategy whose exits are a per-trade callback: custom_exit takes a 0.2 % profit
# ("took_profit") and gives up on a trade held 12 hours ("time_out"); no exit signal. The stop is
# the declared constant.
from datetime import timedelta

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class CallbackExits(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '1h'
    stoploss = -0.03
    startup_candle_count = 20

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 40, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def custom_exit(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        if current_profit > 0.002:
            return 'took_profit'
        if current_time - trade.open_date_utc >= timedelta(hours=12):
            return 'time_out'
        return None
