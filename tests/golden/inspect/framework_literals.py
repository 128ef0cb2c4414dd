"""A freqtrade class's numbers as neighbourhood parameters: its declared IntParameter first, then
the numbers written in the methods that make its signals, in the order they are reached (an
inherited populate_indicators, a method and a module function they call); never a 0 or a 1, a
position on the clock or the calendar (an hour compared, a datetime or timedelta built), nor a
number of a callback (custom_stoploss) or of a method nothing calls."""
from datetime import datetime, timedelta

from pandas import DataFrame

from freqtrade.strategy import IntParameter, IStrategy


def band(x):
    return x.rolling(20).mean() * 1.02


class Base(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '1h'
    stoploss = -0.1

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['ema'] = dataframe['close'].ewm(span=21).mean()
        dataframe['band'] = band(dataframe['close'])
        return dataframe


class Tuned(Base):
    buy_rsi = IntParameter(10, 40, default=30, space='buy')

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        late = dataframe['date'] > datetime(2024, 3, 1) + timedelta(hours=4)
        dataframe.loc[self.cheap(dataframe) & late & (dataframe['date'].dt.hour == 13) &
                      (dataframe['volume'] > 0), 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['close'] > dataframe['band'], 'exit_long'] = 1
        return dataframe

    def cheap(self, dataframe):
        return dataframe['close'] < dataframe['ema'] * 0.97

    def unused(self, dataframe):
        return dataframe['close'] * 3.5

    def custom_stoploss(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        return -0.05
