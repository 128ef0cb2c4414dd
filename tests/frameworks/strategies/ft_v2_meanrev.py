# A freqtrade strategy in the version-2 interface: buy and sell columns, talib.abstract and qtpylib.
from functools import reduce

import talib.abstract as ta
from pandas import DataFrame

import freqtrade.vendor.qtpylib.indicators as qtpylib
from freqtrade.strategy import IntParameter, DecimalParameter, IStrategy


class BandBounce(IStrategy):
    INTERFACE_VERSION = 2
    minimal_roi = {"0": 0.04}
    stoploss = -0.08
    timeframe = '1h'
    startup_candle_count = 30

    buy_rsi = IntParameter(15, 40, default=35, space='buy')
    band_width = DecimalParameter(1.5, 3.0, default=2.0, space='buy')

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        dataframe['ema_fast'] = ta.EMA(dataframe, timeperiod=8)
        dataframe['sma_slow'] = ta.SMA(dataframe, 24)
        macd = ta.MACD(dataframe)
        dataframe['macdhist'] = macd['macdhist']
        bands = ta.BBANDS(dataframe, timeperiod=20, nbdevup=self.band_width.value,
                          nbdevdn=self.band_width.value)
        dataframe['bb_lower'] = bands['lowerband']
        q = qtpylib.bollinger_bands(qtpylib.typical_price(dataframe), window=20, stds=2)
        dataframe['q_mid'] = q['mid']
        return dataframe

    def populate_buy_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        conditions = [
            dataframe['rsi'] < self.buy_rsi.value,
            dataframe['close'] < dataframe['bb_lower'],
            dataframe['volume'] > 0,
        ]
        dataframe.loc[reduce(lambda a, b: a & b, conditions), 'buy'] = 1
        return dataframe

    def populate_sell_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[qtpylib.crossed_above(dataframe['close'], dataframe['q_mid']) |
                      (dataframe['rsi'] > 70), 'sell'] = 1
        return dataframe
