# A freqtrade class whose one callback, confirm_trade_entry, refuses the entries that lose over the
# next 12 candles, read from the frame populate_indicators was given (kept on the class). Its
# signals never peek; in freqtrade's backtest that frame is the whole history, live it ends at
# the candle before the entry, so only the callback's answers set side by side can find it.
import numpy as np
import talib.abstract as ta
from pandas import DataFrame
from freqtrade.strategy import IStrategy


class PeekConfirm(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 20
    minimal_roi = {"0": 0.1}
    stoploss = -0.05
    closes = None

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=9)
        type(self).closes = (dataframe['date'].astype('int64').to_numpy(),
                             dataframe['close'].to_numpy())
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 35, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, 'exit_long'] = 1
        return dataframe

    def confirm_trade_entry(self, pair, order_type, amount, rate, time_in_force, current_time,
                            entry_tag, side, **kwargs):
        if type(self).closes is None:
            return True
        dates, close = type(self).closes
        k = int(np.searchsorted(dates, int(current_time.timestamp()) * 1000000000))
        return not (k + 12 < len(close) and close[k + 12] < rate)
