# A freqtrade strategy on 5-minute candles that asks the data provider for its own pair's hourly
# candles (informative_pairs from the whitelist, self.dp.get_pair_dataframe) and merges them with
# merge_informative_pair, which puts each hour on the 5-minute candle that closes with it.
from pandas import DataFrame

import talib.abstract as ta
from freqtrade.strategy import IStrategy, merge_informative_pair


class HourlyRsiGate(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    inf_tf = '1h'
    startup_candle_count = 200
    minimal_roi = {"0": 0.015}
    stoploss = -0.03

    def informative_pairs(self):
        return [(pair, self.inf_tf) for pair in self.dp.current_whitelist()]

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        hourly = self.dp.get_pair_dataframe(pair=metadata['pair'], timeframe=self.inf_tf)
        hourly['rsi'] = ta.RSI(hourly, timeperiod=6)
        dataframe = merge_informative_pair(dataframe, hourly, self.timeframe, self.inf_tf, ffill=True)
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[(dataframe['rsi_1h'] < 45) & (dataframe['rsi'] < 35), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, 'exit_long'] = 1
        return dataframe
