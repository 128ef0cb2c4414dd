# A freqtrade strategy whose entries are confirmed per trade: confirm_trade_entry refuses an
# entry whose rate is above the last analysed candle's close by more than a little, or that
# comes in the first quarter of an hour, so many entries are refused and taken on a later
# candle whose entry signal is still set; custom_exit then ends some of the trades it let in.
from datetime import datetime

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.persistence import Trade
from freqtrade.strategy import IStrategy


class CallbackConfirm(IStrategy):
    INTERFACE_VERSION = 3
    timeframe = '5m'
    startup_candle_count = 20
    minimal_roi = {"0": 0.02, "60": 0.01}
    stoploss = -0.03
    order_types = {'entry': 'limit', 'exit': 'limit', 'stoploss': 'market',
                   'stoploss_on_exchange': False}

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=9)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] < 40, ['enter_long', 'enter_tag']] = (1, 'rsi_40')
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 70, 'exit_long'] = 1
        return dataframe

    def confirm_trade_entry(self, pair: str, order_type: str, amount: float, rate: float,
                            time_in_force: str, current_time: datetime, entry_tag,
                            side: str, **kwargs) -> bool:
        dataframe, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        last = dataframe.iloc[-1].squeeze()
        if order_type != 'limit' or time_in_force != 'GTC' or side != 'long' or entry_tag != 'rsi_40':
            return False
        if rate > last['close'] * 1.0005:
            return False
        return current_time.minute >= 15

    def custom_exit(self, pair: str, trade: Trade, current_time: datetime, current_rate: float,
                    current_profit: float, **kwargs):
        if (current_time - trade.open_date_utc).total_seconds() >= 3600 and current_profit < 0:
            return 'held_1h_loss'
        return None
