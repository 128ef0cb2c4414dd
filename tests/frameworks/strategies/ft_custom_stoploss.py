# A freqtrade strategy whose stop is a per-trade callback: an ATR stop read from the analysed
# frame's last candle (dp.get_analyzed_dataframe, cut before the candle asked about), tightened to
# 1 % above the entry (stoploss_from_open) once the trade is 3 % up.
import talib.abstract as ta
from pandas import DataFrame

from freqtrade.strategy import IStrategy, stoploss_from_open


class CallbackStop(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '1h'
    stoploss = -0.10
    use_custom_stoploss = True
    startup_candle_count = 30

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe)
        dataframe['atr'] = ta.ATR(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 35, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, 'exit_long'] = 1
        return dataframe

    def custom_stoploss(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        if current_profit > 0.03:
            return stoploss_from_open(0.01, current_profit, is_short=trade.is_short)
        d, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        atr = d['atr'].iloc[-1]
        return -2 * atr / current_rate
