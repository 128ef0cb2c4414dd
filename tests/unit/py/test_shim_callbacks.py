# test_shim_callbacks.py - the freqtrade shim's per-trade callbacks (sandbox/inside/shims/
# sa_frameworks.py, answer_calls): a class's custom_stoploss, custom_exit and confirm_trade_entry called as
# freqtrade's backtest calls them, on the trade state the host sends (sbx_proto.h), reading the
# analysed frame cut before the bar asked about, and answered in the wire's bytes; refused by
# name where the host does not hold the trade; freqtrade's stoploss helpers; the configuration a
# class is built with.
# Run by tests/run-all unit: /usr/bin/python3 -I -B tests/unit/py/test_shim_callbacks.py
import os
import struct
import sys
import tempfile
import unittest

import numpy as np
import pandas as pd

SHIMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..',
                     'sandbox', 'inside', 'shims')
sys.path.insert(0, SHIMS)
import sa_frameworks as fw  # noqa: E402
import freqtrade.strategy as fs  # noqa: E402

# A run's working directory is its scratch, where the freqtrade adapter makes the user-data
# directory freqtrade's backtest has: these tests run in a temporary one.
SCRATCH = tempfile.TemporaryDirectory(prefix='shim-')
os.chdir(SCRATCH.name)

SOURCE = '''
from freqtrade.strategy import IStrategy, stoploss_from_open


class Callbacks(IStrategy):
    timeframe = '1h'
    stoploss = -0.5
    use_custom_stoploss = True
    seen = []

    def populate_indicators(self, dataframe, metadata):
        dataframe['mid'] = (dataframe['high'] + dataframe['low']) / 2
        return dataframe

    def populate_entry_trend(self, dataframe, metadata):
        dataframe.loc[dataframe['close'] > dataframe['open'], 'enter_long'] = 1
        dataframe.loc[dataframe['close'] > dataframe['open'], 'enter_tag'] = 'up'
        return dataframe

    def populate_exit_trend(self, dataframe, metadata):
        return dataframe

    def custom_stoploss(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        d, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        Callbacks.seen.append((len(d), current_time, current_rate, trade.enter_tag))
        if current_profit > 0.1:
            return stoploss_from_open(0.05, current_profit)
        return (d['mid'].iloc[-1] - current_rate) / current_rate

    def confirm_trade_entry(self, pair, order_type, amount, rate, time_in_force, current_time,
                            entry_tag, side, **kwargs):
        d, _ = self.dp.get_analyzed_dataframe(pair, self.timeframe)
        Callbacks.confirmed.append((len(d), order_type, amount, rate, time_in_force, current_time,
                                    entry_tag, side))
        if rate > 200:
            raise ValueError('the strategy fails here')
        return rate < 108

    def custom_exit(self, pair, trade, current_time, current_rate, current_profit, **kwargs):
        if current_profit < -0.2:
            raise ValueError('the strategy fails here')
        if current_profit > 0.3:
            return 'x' * 40
        if current_profit > 0.05:
            return 'took_profit'
        return None
'''

T0 = 1704067200


def bars(n):
    t = pd.DatetimeIndex((T0 + 3600 * np.arange(n)) * 10**9, tz='UTC')
    o = 100 + np.arange(n, dtype=float)
    return pd.DataFrame({'open': o, 'high': o + 2, 'low': o - 2, 'close': o + 1,
                         'volume': np.ones(n)}, index=t)


def state(side=1, ask=3, entry_bar=5, entry_time=T0 + 5 * 3600, bar_time=T0 + 10 * 3600,
          entry_px=105.0, stop=52.5, rate=110.0, profit=0.0476, bound=112.0, bound_profit=0.0667):
    return struct.pack(fw.TRADE_FORMAT, side, ask, entry_bar, entry_time, bar_time, entry_px, stop,
                       rate, profit, bound, bound_profit)


def answer(b):
    assert len(b) == struct.calcsize(fw.CALL_FORMAT) == 42, len(b)  # SBX_LIVE_CALL_BYTES
    flags, ratio, n, name = struct.unpack(fw.CALL_FORMAT, b)
    assert name[n:] == b'\0' * (len(name) - n)
    return flags, ratio, name[:n].decode('ascii')


class Callbacks(unittest.TestCase):
    def setUp(self):
        fw.install()
        g = {'__name__': 'strategy'}
        exec(compile(SOURCE, 'strategy.py', 'exec'), g)
        self.cls = g['Callbacks']
        self.cls.seen = []
        self.cls.confirmed = []
        self.run_ = fw.adapt(g)
        fw.LIVE, fw.CALLS, fw.LAST = True, True, None

    def tearDown(self):
        fw.LIVE, fw.CALLS, fw.LAST = False, False, None

    def test_refused_in_a_live_run_where_the_host_holds_no_trade(self):
        fw.CALLS = False
        with self.assertRaises(fw.NotSupported) as e:
            self.run_(bars(20))
        self.assertIn('Callbacks.custom_stoploss is not supported in this run', str(e.exception))
        # a run of the whole history gives the signals, its callbacks not called
        fw.LIVE = False
        self.assertEqual(len(self.run_(bars(20))), 20)
        self.assertEqual(self.cls.seen, [])

    def test_custom_stoploss_on_the_frame_before_the_bar(self):
        self.run_(bars(10))  # the decision for bar 9: the callbacks of bar 10 read this frame
        flags, ratio, name = answer(fw.answer_calls(state(ask=fw.ASK_STOP)))
        self.assertEqual(flags, fw.CALL_STOP)
        # bar 9's mid is 109, asked on bar 10's best price 112
        self.assertAlmostEqual(ratio, (109 - 112) / 112)
        self.assertEqual(name, '')
        n, when, rate, tag = self.cls.seen[0]
        self.assertEqual(n, 10)
        self.assertEqual(when, pd.Timestamp(T0 + 10 * 3600, unit='s', tz='UTC'))
        self.assertEqual(rate, 112.0)
        self.assertEqual(tag, 'up')  # the candle before the entry's bar (4) set it
        # stoploss_from_open on a profit over 10 %: 5 % above the open, relative to the bound
        flags, ratio, _ = answer(fw.answer_calls(state(ask=fw.ASK_STOP, bound_profit=0.2)))
        self.assertAlmostEqual(ratio, 1 - 1.05 / 1.2)
        # the frame is not left for anything after the callbacks
        with self.assertRaises(fw.NotSupported):
            fw.LAST[1].dp.get_analyzed_dataframe(fw.PAIR)

    def test_custom_exit_as_freqtrade_takes_it(self):
        self.run_(bars(10))
        flags, ratio, name = answer(fw.answer_calls(state(ask=fw.ASK_EXIT, profit=0.06)))
        self.assertEqual((flags, ratio, name), (fw.CALL_EXIT, 0.0, 'took_profit'))
        # not asked: not called
        self.assertEqual(answer(fw.answer_calls(state(ask=0, profit=0.06))), (0, 0.0, ''))
        # no reason: no exit; a callback that raises: no exit (strategy_safe_wrapper's default)
        self.assertEqual(answer(fw.answer_calls(state(ask=fw.ASK_EXIT, profit=0.0)))[0], 0)
        self.assertEqual(answer(fw.answer_calls(state(ask=fw.ASK_EXIT, profit=-0.3)))[0], 0)
        # a reason the wire cannot carry is refused by name
        with self.assertRaises(fw.NotSupported) as e:
            fw.answer_calls(state(ask=fw.ASK_EXIT, profit=0.4))
        self.assertIn("custom_exit's reason", str(e.exception))

    def test_confirm_trade_entry_as_freqtrade_calls_it(self):
        self.run_(bars(10))
        fresh = dict(entry_bar=10, entry_time=T0 + 10 * 3600, bar_time=T0 + 10 * 3600)
        all_asked = fw.ASK_ENTRY | fw.ASK_STOP | fw.ASK_EXIT
        # refused: the refusal is the whole answer, the trade's other callbacks are not called
        self.assertEqual(answer(fw.answer_calls(state(ask=all_asked, entry_px=110.0, **fresh))),
                         (fw.CALL_REFUSED, 0.0, ''))
        self.assertEqual(self.cls.seen, [])
        self.assertEqual(self.cls.confirmed, [
            (10, 'limit', 1.0 / 110, 110.0, 'GTC', pd.Timestamp(T0 + 10 * 3600, unit='s', tz='UTC'),
             'up', 'long')])
        # confirmed: the trade's callbacks answer as on any bar
        flags, _, _ = answer(fw.answer_calls(state(ask=all_asked, entry_px=105.0, **fresh)))
        self.assertEqual(flags, fw.CALL_STOP)
        # a confirm_trade_entry that raises gives freqtrade's default, True
        flags, _, _ = answer(fw.answer_calls(state(ask=fw.ASK_ENTRY, entry_px=250.0, **fresh)))
        self.assertEqual(flags, 0)
        # not asked (the trade entered before): not called
        n = len(self.cls.confirmed)
        self.assertEqual(answer(fw.answer_calls(state(ask=0, entry_px=110.0)))[0], 0)
        self.assertEqual(len(self.cls.confirmed), n)

    def test_flat_answers_nothing(self):
        self.run_(bars(10))
        self.assertEqual(answer(fw.answer_calls(state(side=0))), (0, 0.0, ''))
        self.assertEqual(self.cls.seen, [])

    def test_a_ratio_freqtrade_would_not_use_is_not_sent(self):
        self.run_(bars(10))
        self.cls.custom_stoploss = lambda self, **k: float('nan')
        self.assertEqual(answer(fw.answer_calls(state(ask=fw.ASK_STOP)))[0], 0)
        self.cls.custom_stoploss = lambda self, **k: 0
        self.assertEqual(answer(fw.answer_calls(state(ask=fw.ASK_STOP)))[0], 0)


class StillRefused(unittest.TestCase):
    def test_the_other_callbacks_are_refused_by_name(self):
        fw.install()
        for name in ('adjust_trade_position', 'confirm_trade_exit', 'custom_stake_amount'):
            src = ('from freqtrade.strategy import IStrategy\n'
                   'class C(IStrategy):\n'
                   '    timeframe = "1h"\n'
                   '    def %s(self, *a, **k):\n'
                   '        return None\n' % name)
            g = {'__name__': 'strategy'}
            exec(compile(src, 'strategy.py', 'exec'), g)
            with self.assertRaises(fw.NotSupported) as e:
                fw.adapt(g)(bars(10))
            self.assertIn('C.%s is not supported' % name, str(e.exception))

    def test_leverage_refused_only_where_freqtrade_calls_it(self):
        # a class that can short runs in futures or margin mode, where freqtrade sizes each entry
        # by leverage's answer: refused by name; a long-only class runs in spot mode, never asked
        fw.install()
        src = ('from freqtrade.strategy import IStrategy\n'
               'class C(IStrategy):\n'
               '    timeframe = "1h"\n'
               '    can_short = %s\n'
               '    def leverage(self, *a, **k):\n'
               '        raise AssertionError("called")\n')
        g = {'__name__': 'strategy'}
        exec(compile(src % 'True', 'strategy.py', 'exec'), g)
        with self.assertRaises(fw.NotSupported) as e:
            fw.adapt(g)(bars(10))
        self.assertIn('C.leverage is not supported: shorting (can_short) needs', str(e.exception))
        g = {'__name__': 'strategy'}
        exec(compile(src % 'False', 'strategy.py', 'exec'), g)
        self.assertEqual(len(fw.adapt(g)(bars(10))), 10)

    def test_custom_stoploss_naming_after_fill_is_refused_by_name(self):
        # freqtrade calls such a custom_stoploss again as each entry fills; every run refuses it
        fw.install()
        body = ('from freqtrade.strategy import IStrategy\n'
                'class C(IStrategy):\n'
                '    timeframe = "1h"\n'
                '    use_custom_stoploss = %s\n'
                '    def custom_stoploss(self, pair, trade, current_time, current_rate,\n'
                '                        current_profit, %s**kwargs):\n'
                '        return None\n')
        for live in (False, True):
            fw.LIVE, fw.CALLS = live, live
            g = {'__name__': 'strategy'}
            exec(compile(body % ('True', 'after_fill, '), 'strategy.py', 'exec'), g)
            with self.assertRaises(fw.NotSupported) as e:
                fw.adapt(g)(bars(10))
            self.assertIn('C.custom_stoploss takes after_fill', str(e.exception))
        fw.LIVE, fw.CALLS = False, False
        # without after_fill, or with use_custom_stoploss off, freqtrade makes no such call
        for use, arg in (('True', ''), ('False', 'after_fill, ')):
            g = {'__name__': 'strategy'}
            exec(compile(body % (use, arg), 'strategy.py', 'exec'), g)
            self.assertEqual(len(fw.adapt(g)(bars(10))), 10)


CONFIG_SOURCE = '''
from freqtrade.enums import RunMode
from freqtrade.strategy import IStrategy


class Configured(IStrategy):
    timeframe = '1h'
    stoploss = -0.5

    def __init__(self, config):
        super().__init__(config)
        self.live = config['runmode'] in (RunMode.LIVE, RunMode.DRY_RUN)
        self.mode = self.config['runmode'].value
        self.slots = self.config.get('max_open_trades', 3)
        self.bot = self.config.get('bot_name', 'mine')
        try:
            self.fee_note = config['fee']
        except KeyError:
            self.fee_note = 'none'
        if self.config.get('wants_exchange'):
            self.name = config['exchange']['name']

    def populate_indicators(self, dataframe, metadata):
        return dataframe

    def populate_entry_trend(self, dataframe, metadata):
        dataframe['enter_long'] = int(not self.live and self.mode == 'backtest' and self.slots == 1
                                      and self.bot == 'mine' and self.fee_note == 'none')
        return dataframe

    def populate_exit_trend(self, dataframe, metadata):
        return dataframe
'''


class Config(unittest.TestCase):
    """The configuration a freqtrade class is built with: freqtrade's backtest run mode (an enum
    equal to its text), .get() and a caught KeyError keep the strategy's own defaults, and a key
    it does not hold is refused naming the key."""
    def setUp(self):
        fw.install()
        self.g = {'__name__': 'strategy'}
        exec(compile(CONFIG_SOURCE, 'strategy.py', 'exec'), self.g)

    def test_backtest_mode_and_defaults(self):
        out = fw.adapt(self.g)(bars(6))
        self.assertEqual(len(out), 6)
        self.assertTrue(all(v != 0 for v in out), out)  # every candle's entry signal was set

    def test_a_key_not_held_is_named(self):
        from freqtrade.enums import RunMode
        with self.assertRaises(fw.NotSupported) as e:
            self.g['Configured'](fw._Config(timeframe='1h', stake_currency='QUOTE',
                                            runmode=RunMode.BACKTEST, wants_exchange=True))
        self.assertIn("config['exchange'] is not in an audit's freqtrade config, which holds "
                      "runmode, stake_currency, timeframe, wants_exchange", str(e.exception))
        self.assertIsInstance(e.exception, KeyError)

    def test_freqtrade_backtest_config(self):
        # what freqtrade's backtest of one pair hands the constructor (configuration.py,
        # constants.py): the audited pair the whole whitelist, spot, dry_run, all the wallet staked
        from freqtrade.enums import RunMode, TradingMode
        c = fw.backtest_config(self.g['Configured'])
        self.assertEqual((c['exchange']['name'], c['exchange']['pair_whitelist'], c['pairs']),
                         (fw.EXCHANGE, [fw.PAIR], [fw.PAIR]))
        self.assertEqual((c['stake_currency'], c['stake_amount'], c['max_open_trades'], c['dry_run']),
                         ('QUOTE', 'unlimited', 1, True))
        self.assertIs(c['runmode'], RunMode.BACKTEST)
        self.assertIs(c['trading_mode'], TradingMode.SPOT)
        self.assertEqual(c['trading_mode'], 'spot')
        self.assertEqual((c['timeframe'], c['strategy']), ('1h', 'Configured'))
        self.assertEqual(c['exit_pricing']['price_side'], 'same')
        self.assertTrue(c['user_data_dir'].is_dir())
        self.assertEqual(sorted(p.name for p in c['user_data_dir'].iterdir()),
                         sorted(fw.USER_DATA_DIRS))
        with self.assertRaises(KeyError) as e:
            c['exchange']['secret']
        self.assertIn("config['exchange']['secret'] is not in an audit's freqtrade config, which "
                      "holds ccxt_async_config, ccxt_config, name, pair_blacklist, pair_whitelist, "
                      "sandbox", str(e.exception))
        with self.assertRaises(fw.NotSupported) as e:
            c['telegram']
        self.assertIn("config['telegram'] is not in", str(e.exception))
        self.assertIn(fw.backtest_config(self.g['Configured'])['user_data_dir'],
                      [c['user_data_dir']])  # a second class in the same scratch finds it made


class Helpers(unittest.TestCase):
    def test_stoploss_helpers_as_freqtrade_gives_them(self):
        # freqtrade's own examples (strategy_helper.py's docstrings and tests)
        self.assertAlmostEqual(fs.stoploss_from_open(0.05, 0.1), 1 - 1.05 / 1.1)
        self.assertEqual(fs.stoploss_from_open(0.1, 0.05), 0.0)
        self.assertEqual(fs.stoploss_from_open(0.05, -1), 1)
        self.assertAlmostEqual(fs.stoploss_from_open(0.05, 0.1, is_short=True), -1 + 0.95 / 0.9)
        self.assertAlmostEqual(fs.stoploss_from_absolute(95, 100), 0.05)
        self.assertEqual(fs.stoploss_from_absolute(105, 100), 0.0)
        self.assertAlmostEqual(fs.stoploss_from_absolute(105, 100, is_short=True), 0.05)
        self.assertEqual(fs.stoploss_from_absolute(1, 0), 1)


if __name__ == '__main__':
    unittest.main()
