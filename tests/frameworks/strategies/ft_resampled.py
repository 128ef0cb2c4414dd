# A freqtrade strategy on 5-minute candles that resamples its own candles to hours with
# technical.util (resample_to_interval, resampled_merge) and trades the 5-minute close against
# the hourly SMA, with technical.indicators' supertrend as a second filter.
from pandas import DataFrame

import talib.abstract as ta
import technical.indicators as ftt
from freqtrade.strategy import IStrategy
from technical.util import resample_to_interval, resampled_merge


class HourlySma(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 150
    minimal_roi = {"0": 0.02}
    stoploss = -0.02

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        hourly = resample_to_interval(dataframe, 60)
        hourly['sma'] = ta.SMA(hourly, timeperiod=6)
        dataframe = resampled_merge(dataframe, hourly, fill_na=True)
        _, dataframe['stx'] = ftt.supertrend(dataframe, period=10, multiplier=3)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['close'] > dataframe['resample_60_sma']) &
                      (dataframe['stx'] == 'up'), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['close'] < dataframe['resample_60_sma'], 'exit_long'] = 1
        return dataframe
