# A freqtrade strategy whose custom_stoploss reads a centred rolling mean: each candle's value
# averages the candles after it too, which only a frame analysed over the whole history holds.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.persistence import Trade
from freqtrade.strategy import IStrategy


class CallbackPeekStop(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 20
    minimal_roi = {"0": 0.1}
    stoploss = -0.05
    use_custom_stoploss = True

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=9)
        dataframe['mid'] = dataframe['close'].rolling(11, center=True).mean()
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 35, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def custom_stoploss(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                        current_profit: float, **kwargs) -> float:
        dataframe, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        mid = dataframe['mid'].iloc[-1]
        if mid != mid:
            return -0.05
        if mid < current_rate:
            return -0.002
        return -0.05
