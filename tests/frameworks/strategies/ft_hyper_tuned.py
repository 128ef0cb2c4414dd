# A freqtrade strategy as hyperopt leaves it: the import paths of freqtrade's own modules
# (strategy.interface, strategy.hyper, persistence, exchange), parameters whose defaults are not
# what runs (buy_params and sell_params override them, and the parameter file beside it,
# ft_hyper_tuned.json, overrides buy_params), a parameter its name puts in the buy space, one
# with load=False, and a protection parameter.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.exchange import timeframe_to_minutes, timeframe_to_prev_date
from freqtrade.persistence import Trade
from freqtrade.strategy.hyper import CategoricalParameter, DecimalParameter, IntParameter
from freqtrade.strategy.interface import IStrategy


class HyperTuned(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '1h'
    startup_candle_count = 40
    minimal_roi = {"0": 0.05, "120": 0.02}
    stoploss = -0.06
    use_custom_stoploss = False

    buy_params = {"buy_rsi": 22, "buy_ema": 30, "buy_trend": "sma"}
    sell_params = {"sell_rsi": 60}
    protection_params = {"cooldown": 3}

    buy_rsi = IntParameter(10, 45, default=35)
    buy_ema = IntParameter(10, 60, default=50, space='buy')
    buy_trend = CategoricalParameter(['ema', 'sma'], default='ema', space='buy')
    buy_margin = DecimalParameter(0.9, 1.1, default=1.0, decimals=2, space='buy', load=False)
    sell_rsi = IntParameter(50, 85, default=64, space='sell')
    cooldown = IntParameter(1, 10, default=1, space='protection')

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        assert timeframe_to_minutes(self.timeframe) == 60
        assert timeframe_to_prev_date('1h', datetime(2020, 1, 1, 5, 30)).hour == 5
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        for n in self.buy_ema.range:
            dataframe['ema_%d' % n] = ta.EMA(dataframe, timeperiod=n)
            dataframe['sma_%d' % n] = ta.SMA(dataframe, timeperiod=n)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        trend = dataframe['%s_%d' % (self.buy_trend.value, self.buy_ema.value)]
        dataframe.loc[(dataframe['rsi'] < self.buy_rsi.value) &
                      (dataframe['close'] > trend * self.buy_margin.value * 0.9) &
                      (dataframe['volume'] > 0), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > self.sell_rsi.value, 'exit_long'] = 1
        return dataframe

    def custom_stoploss(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                        current_profit: float, **kwargs) -> float:
        return self.stoploss
