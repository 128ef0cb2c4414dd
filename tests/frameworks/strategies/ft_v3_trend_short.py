# A freqtrade strategy in the version-3 interface that trades both sides (can_short), with the
# directional, oscillator and volume indicators of talib and qtpylib's candles.
import numpy as np
import talib
import talib.abstract as ta
from pandas import DataFrame

from technical import qtpylib
from freqtrade.strategy import BooleanParameter, CategoricalParameter, IStrategy


class TwoSidedTrend(IStrategy):
    INTERFACE_VERSION = 3
    can_short = True
    timeframe = '1h'
    startup_candle_count = 60
    minimal_roi = {"0": 10}
    stoploss = -0.99

    use_volume = BooleanParameter(default=True, space='buy')
    trend_ma = CategoricalParameter(['tema', 'ema'], default='tema', space='buy')

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['adx'] = ta.ADX(dataframe)
        dataframe['pdi'] = ta.PLUS_DI(dataframe, timeperiod=14)
        dataframe['mdi'] = ta.MINUS_DI(dataframe, timeperiod=14)
        dataframe['cci'] = ta.CCI(dataframe, timeperiod=20)
        dataframe['mfi'] = ta.MFI(dataframe)
        fast = ta.STOCHF(dataframe, fastk_period=5, fastd_period=3)
        dataframe['fastk'] = fast['fastk']
        slow = ta.STOCH(dataframe)
        dataframe['slowd'] = slow['slowd']
        dataframe['sar'] = ta.SAR(dataframe)
        dataframe['tema'] = ta.TEMA(dataframe, timeperiod=21)
        dataframe['ema'] = talib.EMA(dataframe['close'], timeperiod=21)
        dataframe['atr'] = ta.ATR(dataframe, timeperiod=14)
        dataframe['obv'] = ta.OBV(dataframe)
        dataframe['obv_up'] = dataframe['obv'] > ta.SMA(dataframe['obv'], timeperiod=20)
        dataframe['lo'] = ta.MIN(dataframe, timeperiod=30)
        dataframe['hi'] = ta.MAX(dataframe, timeperiod=30)
        dataframe['mom'] = ta.MOM(dataframe, timeperiod=10)
        dataframe['cmo'] = ta.CMO(dataframe)
        ha = qtpylib.heikinashi(dataframe)
        dataframe['ha_up'] = ha['close'] > ha['open']
        dataframe['ao'] = qtpylib.awesome_oscillator(dataframe)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        ma = dataframe[self.trend_ma.value]
        vol_ok = dataframe['obv_up'] if self.use_volume.value else True
        dataframe.loc[(dataframe['adx'] > 20) & (dataframe['pdi'] > dataframe['mdi']) &
                      qtpylib.crossed_above(dataframe['close'], ma) & dataframe['ha_up'] &
                      (dataframe['mom'] > 0) & vol_ok, 'enter_long'] = 1
        dataframe.loc[(dataframe['adx'] > 20) & (dataframe['mdi'] > dataframe['pdi']) &
                      qtpylib.crossed_below(dataframe['close'], ma) & ~dataframe['ha_up'] &
                      (dataframe['cmo'] < 0), 'enter_short'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['close'] < dataframe['sar']) | (dataframe['cci'] > 200) |
                      (dataframe['mfi'] > 85) | (dataframe['ao'] < 0) & (dataframe['fastk'] > 90),
                      'exit_long'] = 1
        dataframe.loc[(dataframe['close'] > dataframe['sar']) | (dataframe['cci'] < -200) |
                      (dataframe['close'] <= dataframe['lo']) | (dataframe['slowd'] < 10) &
                      (dataframe['atr'] > 0), 'exit_short'] = 1
        return dataframe
