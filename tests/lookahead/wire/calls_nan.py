# Expected: bad_output "custom_stoploss". A freqtrade class with a per-trade callback whose bot, at
# its 50th decision, writes an answer of its own (numbered as the host numbers it) whose
# callbacks' part claims custom_stoploss answered NaN: the driver checks that part as it checks
# the value, and ends the run on it, named, whether the stop was asked on that bar or not.
import os
import struct

from freqtrade.strategy import IStrategy

calls = [0]


class NanStop(IStrategy):
    timeframe = '1h'
    stoploss = -0.1
    use_custom_stoploss = True

    def populate_indicators(self, dataframe, metadata):
        calls[0] += 1
        if calls[0] == 50:
            os.write(3, struct.pack('=I', calls[0] - 1) + struct.pack('=BdB32s', 1, float('nan'), 0, b'') +
                     b'\0')
        return dataframe

    def populate_entry_trend(self, dataframe, metadata):
        dataframe['enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe, metadata):
        return dataframe

    def custom_stoploss(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        return -0.05
