# A freqtrade strategy whose exits are per-trade callbacks: custom_exit names its reason by the
# last analysed candle's RSI and the trade's profit, or by the time the trade has been held, and
# answers True (freqtrade's plain custom_exit) for a loss held too long; an exit signal, checked
# before custom_exit, ends some trades first.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.persistence import Trade
from freqtrade.strategy import IStrategy


class CallbackExit(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 20
    minimal_roi = {"0": 0.1}
    stoploss = -0.05

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=9)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 35, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, ['exit_long', 'exit_tag']] = (1, 'rsi_70')
        return dataframe

    def custom_exit(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                    current_profit: float, **kwargs):
        dataframe, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        last = dataframe.iloc[-1].squeeze()
        if last['rsi'] > 55 and current_profit > 0.01:
            return 'rsi_profit'
        minutes = (current_time - trade.open_date_utc).total_seconds() / 60
        if minutes >= 90 and current_profit < -0.005:
            return True
        if minutes >= 120:
            return 'held_%dh' % (minutes // 60)
        return None
