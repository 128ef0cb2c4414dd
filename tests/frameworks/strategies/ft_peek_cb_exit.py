# A freqtrade strategy whose custom_exit peeks: it keeps the analysed frame populate_indicators
# was given (in freqtrade's backtest, every candle at once) and leaves a trade when the next
# candles' closes fall below the current rate.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.persistence import Trade
from freqtrade.strategy import IStrategy


class CallbackPeekExit(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 20
    minimal_roi = {"0": 0.1}
    stoploss = -0.05

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=9)
        self.frame = dataframe
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 35, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def custom_exit(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                    current_profit: float, **kwargs):
        d = self.frame
        later = d.loc[d['date'] > current_time, 'close'].head(6)
        if len(later) and later.min() < current_rate * 0.997:
            return 'next_falls'
        return None
