# A freqtrade strategy whose trades depend on freqtrade's rules about the open trade: its exit
# signal closes a trade only above 0.2 % of profit (exit_profit_only, exit_profit_offset), and
# its ROI table is set aside on every candle its entry signal is set (ignore_roi_if_entry_signal),
# an entry signal that stays set for many candles and is sometimes set with the exit signal on
# the same candle (which cancels the entry but still sets the ROI aside).
from pandas import DataFrame

import talib.abstract as ta
from freqtrade.strategy import IStrategy


class ProfitOnly(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 30
    minimal_roi = {"0": 0.008, "40": 0.004, "120": 0.0}
    stoploss = -0.02
    use_exit_signal = True
    exit_profit_only = True
    exit_profit_offset = 0.002
    ignore_roi_if_entry_signal = True

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['ema_fast'] = ta.EMA(dataframe, timeperiod=8)
        dataframe['ema_slow'] = ta.EMA(dataframe, timeperiod=21)
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        up = dataframe['ema_fast'] > dataframe['ema_slow']
        dataframe.loc[up & (dataframe['rsi'] < 75), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['rsi'] > 62) | (dataframe['rsi'] < 45), 'exit_long'] = 1
        return dataframe
