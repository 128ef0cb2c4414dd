# A freqtrade strategy whose stop follows the parabolic SAR of the last analysed candle, read in
# custom_stoploss through the data provider (the official CustomStoplossWithPSAR's way): the stop
# sits at the SAR whenever the SAR is below the price, and is set there as the entry fills too.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.persistence import Trade
from freqtrade.strategy import IStrategy, stoploss_from_absolute


class CallbackStopPSAR(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 30
    minimal_roi = {"0": 0.05}
    stoploss = -0.08
    use_custom_stoploss = True

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['sar'] = ta.SAR(dataframe, acceleration=0.02, maximum=0.2)
        dataframe['ema'] = ta.EMA(dataframe, timeperiod=20)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['close'] > dataframe['ema']) &
                      (dataframe['sar'] < dataframe['close']), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        return dataframe

    def custom_stoploss(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                        current_profit: float, after_fill: bool, **kwargs) -> float:
        dataframe, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        sar = dataframe.iloc[-1].squeeze()['sar']
        if sar >= current_rate:
            return None
        return stoploss_from_absolute(sar, current_rate, is_short=trade.is_short)
