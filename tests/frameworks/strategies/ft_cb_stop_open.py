# A freqtrade strategy on both sides whose stop steps up with the trade's profit, relative to the
# open price (stoploss_from_open): at break-even past 1 %, half the gain locked past 2 %, beside a
# trailing stop armed past 3 %.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.persistence import Trade
from freqtrade.strategy import IStrategy, stoploss_from_open


class CallbackStopOpen(IStrategy):
    INTERFACE_VERSION = 3
    can_short = True
    timeframe = '5m'
    startup_candle_count = 20
    minimal_roi = {"0": 0.08, "120": 0.03}
    stoploss = -0.04
    use_custom_stoploss = True
    trailing_stop = True
    trailing_stop_positive = 0.015
    trailing_stop_positive_offset = 0.03
    trailing_only_offset_is_reached = True

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=7)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 30, ['enter_long', 'enter_tag']] = (1, 'rsi_low')
        dataframe.loc[dataframe['rsi'] > 70, ['enter_short', 'enter_tag']] = (1, 'rsi_high')
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def custom_stoploss(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                        current_profit: float, after_fill: bool, **kwargs) -> float:
        if current_profit > 0.02:
            return stoploss_from_open(current_profit / 2, current_profit, is_short=trade.is_short)
        if current_profit > 0.01:
            return stoploss_from_open(0.0, current_profit, is_short=trade.is_short)
        return None
