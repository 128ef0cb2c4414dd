# test_zygote_helpers.py - the zygote's trusted helpers (sandbox/inside/py/sa_helpers.py), read
# from the source tree and run as the zygote runs them: one source into a dict that holds only
# __builtins__. The frame builders against the raw buffers, the signal conversion's accepted
# and refused results with their sentences, the error line, and the stat guard.
# Run by tests/run-all unit: /usr/bin/python3 -I -B tests/unit/py/test_zygote_helpers.py
import builtins
import gc
import os
import struct
import sys
import tempfile
import unittest

import numpy as np
import pandas as pd

PY_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..',
                      'sandbox', 'inside', 'py')


def load(name):
    # the file's source, run the way sbi_zygote.c runs it (its own dict, only __builtins__)
    path = os.path.join(PY_DIR, name + '.py')
    with open(path, encoding='ascii') as f:
        src = f.read()
    d = {'__builtins__': builtins}
    exec(compile(src, '<string>', 'exec'), d)
    return d


H = load('sa_helpers')
BadOutput = H['BadOutput']
COLS = ['open', 'high', 'low', 'close', 'volume']
T0 = 1700000000  # 2023-11-14 22:13:20 UTC


def raw_bars(times, cols):
    # build()'s buffer: the times (int64 seconds), then each column's float64 values in turn
    n = len(times)
    return bytearray(struct.pack('<%dq' % n, *times) +
                     struct.pack('<%dd' % (5 * n), *[v for c in cols for v in c]))


def col_buffers(times, cols, cap):
    # build_cols()' buffers as a data zygote holds them: the times in nanoseconds, and the price
    # block with each column cap values apart (the spare tail of each column holds junk)
    n = len(times)
    buf = bytearray(8 * cap * 6)
    np.frombuffer(buf, dtype='<i8', count=n)[:] = np.array(times, dtype=np.int64) * 1000000000
    block = np.frombuffer(buf, dtype='<f8')[cap:].reshape(5, cap)
    block[:] = -999.0
    for i, c in enumerate(cols):
        block[i, :n] = c
    return buf, memoryview(buf)[: 8 * n], memoryview(buf)[8 * cap: 8 * (5 * cap + n)]


def five_columns(n):
    return [[10.0 * (i + 1) + k / 4 for k in range(n)] for i in range(5)]


class TheNamespace(unittest.TestCase):
    def test_names(self):
        # what the C side and the runs look up, and nothing a docstring would add
        for name in ('BadOutput', 'build', 'build_cols', 'build_live', 'to_int8', 'describe', 'warm',
                     'choose_build_cols', 'guard_stat', 'freeze', 'SIGNAL_NAN'):
            self.assertIn(name, H)
        self.assertNotIn('__doc__', H)
        self.assertNotIn('__name__', H)
        self.assertEqual(H['SIGNAL_NAN'], -128)
        self.assertEqual(H['COLS'], tuple(COLS))
        self.assertTrue(issubclass(BadOutput, Exception))

    def test_plain_ascii(self):
        for f in sorted(os.listdir(PY_DIR)):
            if f.endswith('.py'):
                with open(os.path.join(PY_DIR, f), 'rb') as fh:
                    data = fh.read()
                self.assertTrue(all(b in b'\t\n' or 32 <= b < 127 for b in data), f)


class Build(unittest.TestCase):
    def check_frame(self, df, times, cols):
        self.assertIsInstance(df, pd.DataFrame)
        self.assertEqual(list(df.columns), COLS)
        self.assertIsInstance(df.index, pd.DatetimeIndex)
        self.assertEqual(str(df.index.tz), 'UTC')
        self.assertEqual(df.index.dtype, pd.DatetimeTZDtype(tz='UTC'))
        self.assertEqual(df.index.name, 'time')
        self.assertEqual(list(df.index.asi8), [t * 1000000000 for t in times])
        self.assertEqual([str(t) for t in df.dtypes], ['float64'] * 5)
        for name, c in zip(COLS, cols):
            self.assertEqual(df[name].tolist(), c)

    def test_values_from_the_buffer(self):
        times = [T0, T0 + 60, T0 + 120, T0 + 86400]
        cols = five_columns(4)
        df = H['build'](raw_bars(times, cols), 4)
        self.check_frame(df, times, cols)
        self.assertEqual(df.index[0], pd.Timestamp('2023-11-14 22:13:20', tz='UTC'))

    def test_copies_and_releases(self):
        raw = raw_bars([T0, T0 + 1], five_columns(2))
        df = H['build'](raw, 2)
        raw[8 * 2: 8 * 3] = struct.pack('<d', 5.0)
        self.assertEqual(df['open'].iloc[0], 10.0)
        raw.extend(b'\0')  # no view of it is left: a bytearray with one cannot grow
        self.assertTrue(df['open'].to_numpy().flags.writeable)

    def test_empty(self):
        df = H['build'](b'', 0)
        self.assertEqual(len(df), 0)
        self.assertEqual(list(df.columns), COLS)
        self.assertEqual(str(df.index.tz), 'UTC')

    def test_sample(self):
        raw = H['sample']()
        self.assertEqual(len(raw), 8 * 3 + 8 * 15)
        self.check_frame(H['build'](raw, 3), [0, 3600, 7200], [[1.0] * 3] * 5)

    def test_warm(self):
        self.assertIsNone(H['warm']())


class BuildCols(unittest.TestCase):
    def setUp(self):
        self.h = load('sa_helpers')

    def check_frame(self, df, times, cols, pv):
        Build.check_frame(self, df, times, cols)
        self.assertTrue(np.shares_memory(df['close'].to_numpy(), pv))

    def test_public_path(self):
        times = [T0 + 3600 * k for k in range(5)]
        cols = five_columns(5)
        buf, tv, pv = col_buffers(times, cols, 8)
        df = self.h['build_cols'](tv, pv, 5, 8)
        self.check_frame(df, times, cols, pv)
        # a view over the data zygote's columns: a change there shows
        np.frombuffer(buf, dtype='<f8')[8 + 3 * 8 + 1] = 42.0
        self.assertEqual(df['close'].iloc[1], 42.0)

    def test_direct_path_builds_the_same(self):
        self.assertTrue(self.h['choose_build_cols']())
        self.assertIs(self.h['build_cols'], self.h['build_cols_direct'])
        for n, cap in ((1, 1), (3, 4), (7, 16), (64, 64)):
            times = [T0 + 60 * k for k in range(n)]
            cols = five_columns(n)
            _, tv, pv = col_buffers(times, cols, cap)
            a = load('sa_helpers')['build_cols'](tv, pv, n, cap)
            b = self.h['build_cols'](tv, pv, n, cap)
            self.check_frame(b, times, cols, pv)
            self.assertTrue(a.equals(b))
            self.assertTrue(a.index.equals(b.index))
            self.assertEqual(a.index.freq, b.index.freq)
            self.assertEqual(b._mgr.nblocks, 1)

    def test_choose_keeps_the_public_path_when_the_direct_one_differs(self):
        self.h['build_cols_direct'] = lambda tv, pv, n, cap: pd.DataFrame()
        self.assertFalse(self.h['choose_build_cols']())
        self.assertIsNot(self.h['build_cols'], self.h['build_cols_direct'])

    def test_choose_keeps_the_public_path_when_the_direct_one_raises(self):
        def broken(tv, pv, n, cap):
            raise AttributeError('pandas moved')
        self.h['build_cols_direct'] = broken
        self.assertFalse(self.h['choose_build_cols']())
        self.assertIsNot(self.h['build_cols'], broken)



class BuildLive(unittest.TestCase):
    # a live decision's frame: the full run's frame of the same bars, over copies of its own
    def setUp(self):
        self.h = load('sa_helpers')

    def frames(self, n, cap, lo=0):
        times = [T0 + 60 * k for k in range(n)]
        cols = five_columns(n)
        buf, _, _ = col_buffers(times, cols, cap)
        m = memoryview(buf).toreadonly()
        tv, pv = m[8 * lo: 8 * n], m[8 * cap + 8 * lo: 8 * (5 * cap + n)]
        full = load('sa_helpers')['build_cols'](tv, pv, n - lo, cap)
        return buf, times[lo:], [c[lo:] for c in cols], full, tv, pv

    def check_live(self, build):
        for n, cap, lo in ((1, 1, 0), (3, 4, 0), (7, 16, 2), (64, 64, 0), (64, 128, 40)):
            buf, times, cols, full, tv, pv = self.frames(n, cap, lo)
            df = build(tv, pv, n - lo, cap)
            Build.check_frame(self, df, times, cols)
            self.assertTrue(self.h['same_frame'](full, df))
            self.assertTrue(self.h['owns_copy'](df, buf))
            self.assertTrue(df.to_numpy().flags.writeable)
            self.assertTrue(df.index.asi8.flags.writeable)

    def test_public_path(self):
        self.check_live(self.h['build_live'])

    def test_direct_path_builds_the_same(self):
        self.assertTrue(self.h['choose_build_cols']())
        self.assertIs(self.h['build_live'], self.h['build_live_direct'])
        self.check_live(self.h['build_live'])

    def test_writes_reach_neither_the_columns_nor_the_next_frame(self):
        self.assertTrue(self.h['choose_build_cols']())
        buf, times, cols, _, tv, pv = self.frames(8, 8)
        before = bytes(buf)
        df = self.h['build_live'](tv, pv, 8, 8)
        df['close'].to_numpy()[:] = -1.0
        df.values[:] = -2.0
        df.index.asi8[:] = 0
        df.columns.values[0] = 'gone'
        df.index.name = df.columns.name = 'gone'
        self.assertEqual(bytes(buf), before)
        Build.check_frame(self, self.h['build_live'](tv, pv, 8, 8), times, cols)
        self.assertIsNone(self.h['build_live'](tv, pv, 8, 8).columns.name)

    def test_choose_keeps_the_public_path_when_the_direct_one_shares(self):
        # a frame over the columns themselves is the full run's, never a live decision's
        self.h['build_live_direct'] = lambda tv, pv, n, cap: self.h['build_cols'](tv, pv, n, cap)
        self.h['choose_build_cols']()
        self.assertIsNot(self.h['build_live'], self.h['build_live_direct'])

    def test_choose_keeps_the_public_path_when_the_direct_one_raises(self):
        def broken(tv, pv, n, cap):
            raise AttributeError('pandas moved')
        self.h['build_live_direct'] = broken
        self.assertTrue(self.h['choose_build_cols']())
        self.assertIsNot(self.h['build_live'], broken)


class ToInt8Accepts(unittest.TestCase):
    def same(self, x, n, want, idx=None):
        s = H['to_int8'](x, n, idx)
        self.assertIsInstance(s, np.ndarray)
        self.assertEqual(s.dtype, np.int8)
        self.assertEqual(s.tolist(), want)

    def test_framework_events(self):
        # a framework class's run: its position plus 3 times its candle's events, -1 to 46
        s = H['to_int8'](np.array([-1, 0, 4, 46, 7]), 5, None, True)
        self.assertEqual(s.tolist(), [-1, 0, 4, 46, 7])
        self.assertEqual(H['EVENTS_MAX'], 94)

    def test_arrays(self):
        self.same(np.array([1, -1, 0]), 3, [1, -1, 0])
        self.same(np.array([1.0, -1.0, 0.0, -0.0]), 4, [1, -1, 0, 0])
        self.same(np.array([1, 0], dtype=np.uint8), 2, [1, 0])
        self.same(np.array([-1, 1], dtype=np.int64), 2, [-1, 1])
        self.same(np.array([1, -1], dtype=np.float32), 2, [1, -1])
        self.same(np.array([True, False, True]), 3, [1, 0, 1])

    def test_lists_and_tuples(self):
        self.same([1, -1, 0], 3, [1, -1, 0])
        self.same((0, 0, 1), 3, [0, 0, 1])
        self.same([True, False], 2, [1, 0])
        self.same([np.int64(1), np.float64(-1.0), np.bool_(False)], 3, [1, -1, 0])

    def test_series(self):
        idx = pd.date_range('2024-01-01', periods=3, freq='h', tz='UTC', name='time')
        self.same(pd.Series([1, -1, 0]), 3, [1, -1, 0], idx)
        self.same(pd.Series([1.0, 0.0, -1.0], index=idx), 3, [1, 0, -1], idx)
        self.same(pd.Series([1, 0, 1], dtype='category'), 3, [1, 0, 1], idx)
        # without the frame's index to hold it to, any index passes
        self.same(pd.Series([1, 0, 1], index=idx + pd.Timedelta('1h')), 3, [1, 0, 1])

    def test_nan_and_none_are_marked(self):
        nan = H['SIGNAL_NAN']
        self.same(np.array([1.0, np.nan, -1.0]), 3, [1, nan, -1])
        self.same([1, None, -1], 3, [1, nan, -1])
        self.same([np.nan, None], 2, [nan, nan])
        self.same(pd.Series([np.nan, 1.0]), 2, [nan, 1])

    def test_empty(self):
        self.same([], 0, [])
        self.same(np.array([], dtype=float), 0, [])

    def test_warm_calls(self):
        s = pd.Series([0.0, 1.0, -2.0])
        self.same(np.sign(s).astype(int).values, 3, [0, 1, -1])
        self.same(list(np.sign(s)), 3, [0, 1, -1])


class ToInt8Refuses(unittest.TestCase):
    def refused(self, x, n, sentence, idx=None):
        with self.assertRaises(BadOutput) as cm:
            H['to_int8'](x, n, idx)
        self.assertEqual(str(cm.exception), sentence)

    def test_not_one_value_per_bar(self):
        self.refused(pd.DataFrame({'a': [1, 0]}), 2,
                     'signals() returned a DataFrame, not one value per bar')
        self.refused(None, 2, 'signals() returned None')
        self.refused(1, 1, 'signals() returned 0 dimensions, not 1')
        self.refused('ab', 2, 'signals() returned 0 dimensions, not 1')
        self.refused({1: 1}, 1, 'signals() returned 0 dimensions, not 1')
        self.refused((v for v in (1, 0)), 2, 'signals() returned 0 dimensions, not 1')
        self.refused(np.zeros((2, 2)), 2, 'signals() returned 2 dimensions, not 1')

    def test_events_only_for_a_framework(self):
        # a plain signals(df) answering 2 is bad output; a framework's past its range too
        self.refused(np.array([0, 2, 1]), 3, 'value 2.0 at bar 1 is not -1, 0 or 1')
        with self.assertRaises(BadOutput) as cm:
            H['to_int8'](np.array([0, 95, 1]), 3, None, True)
        self.assertEqual(str(cm.exception), 'value 95.0 at bar 1 is not -1, 0 or 1')
        with self.assertRaises(BadOutput):
            H['to_int8'](np.array([0, -2, 1]), 3, None, True)

    def test_wrong_length(self):
        self.refused([1, 0], 3, 'signals() returned 2 values for 3 bars')
        self.refused(np.zeros(4), 3, 'signals() returned 4 values for 3 bars')
        self.refused([], 1, 'signals() returned 0 values for 1 bars')

    def test_series_off_the_index(self):
        idx = pd.date_range('2024-01-01', periods=3, freq='h', tz='UTC', name='time')
        self.refused(pd.Series([1, 0, 1], index=idx[::-1]), 3,
                     'signals() returned a Series whose index is not df.index; '
                     'keep df.index or return the values in bar order', idx)
        self.refused(pd.Series([1, 0, 1], index=[5, 6, 7]), 3,
                     'signals() returned a Series whose index is not df.index; '
                     'keep df.index or return the values in bar order', idx)

    def test_not_an_array(self):
        self.refused([[1], [1, 2]], 2,
                     'signals() returned something that is not an array: ValueError')

        class Hostile:
            def __array__(self, *a):
                raise RuntimeError('no')
        self.refused(Hostile(), 1,
                     'signals() returned something that is not an array: RuntimeError')

    def test_not_numbers(self):
        self.refused(['1', '0'], 2, 'signals() returned values of type <U1, not numbers')
        self.refused(np.array([1j, 0]), 2,
                     'signals() returned values of type complex128, not numbers')
        self.refused(np.array(['2020-01-01'], dtype='datetime64[D]'), 1,
                     'signals() returned values of type datetime64[D], not numbers')
        self.refused([1, 'a', None], 3, 'signals() returned a str at bar 1, not a number')
        self.refused(pd.Series(['a', 'b']), 2, 'signals() returned a str at bar 0, not a number')
        self.refused(pd.Series([1, None], dtype='Int8'), 2,
                     'signals() returned a NAType at bar 1, not a number')

    def test_values_off_the_three(self):
        self.refused([0, 0.5], 2, 'value 0.5 at bar 1 is not -1, 0 or 1')
        self.refused(np.array([1.0, 0.0, 1.0000001]), 3,
                     'value 1.0000001 at bar 2 is not -1, 0 or 1')
        self.refused([2, 0], 2, 'value 2.0 at bar 0 is not -1, 0 or 1')
        self.refused(np.array([1, 2, -3]), 3, 'value 2.0 at bar 1 is not -1, 0 or 1')
        self.refused(np.array([0, -3]), 2, 'value -3.0 at bar 1 is not -1, 0 or 1')
        self.refused(np.array([300, 0]), 2, 'value 300.0 at bar 0 is not -1, 0 or 1')
        self.refused([0.0, float('inf')], 2, 'value inf at bar 1 is not -1, 0 or 1')
        self.refused([float('-inf')], 1, 'value -inf at bar 0 is not -1, 0 or 1')
        self.refused(pd.Series([1.0, 0.5]), 2, 'value 0.5 at bar 1 is not -1, 0 or 1')
        self.refused([np.int64(1), None, np.float32(0.5)], 3,
                     'value 0.5 at bar 2 is not -1, 0 or 1')
        self.refused([10 ** 30, None], 2, 'value 1e+30 at bar 0 is not -1, 0 or 1')
        self.refused([10 ** 400, None], 2, 'value %r at bar 0 is not -1, 0 or 1' % 10 ** 400)
        # a NaN does not hide a bad value after it
        self.refused([np.nan, 0.5], 2, 'value 0.5 at bar 1 is not -1, 0 or 1')


class Describe(unittest.TestCase):
    def caught(self, fn):
        try:
            fn()
        except BaseException as e:
            return H['describe'](e)
        self.fail('no exception')

    def run_strategy(self, src):
        def go():
            exec(compile(src, 'strategy.py', 'exec'), {})
        return self.caught(go)

    def test_line_of_the_strategy(self):
        self.assertEqual(self.run_strategy('def g():\n    return 1 / 0\ng()\n'),
                         'line 2: ZeroDivisionError: division by zero')

    def test_last_strategy_frame_wins(self):
        src = 'def g(f):\n    return f()\ndef h():\n    raise KeyError("k")\ng(h)\n'
        self.assertEqual(self.run_strategy(src), "line 4: KeyError: 'k'")

    def test_syntax_error(self):
        def go():
            compile('x = 1\ndef f(:\n', 'strategy.py', 'exec')
        self.assertEqual(self.caught(go), 'line 2: SyntaxError: invalid syntax')

    def test_no_strategy_frame(self):
        def go():
            raise ValueError('bad')
        self.assertEqual(self.caught(go), 'ValueError: bad')

    def test_message_cut(self):
        def go():
            raise ValueError('x' * 1000)
        self.assertEqual(self.caught(go), 'ValueError: ' + 'x' * 800)

    def test_unprintable(self):
        class Odd(Exception):
            def __str__(self):
                raise RuntimeError('no')

        def go():
            raise Odd()
        self.assertEqual(self.caught(go), 'Odd: (unprintable)')

    def test_bad_output(self):
        self.assertEqual(self.caught(lambda: H['to_int8'](None, 1)),
                         'BadOutput: signals() returned None')


class Freeze(unittest.TestCase):
    def test_freeze(self):
        try:
            H['freeze']()
            self.assertGreater(gc.get_freeze_count(), 0)
        finally:
            gc.unfreeze()


class GuardStat(unittest.TestCase):
    events = None

    @classmethod
    def setUpClass(cls):
        # one hook for the whole process (a hook cannot be removed), recording only in a test
        def hook(event, args):
            if GuardStat.events is not None and event in ('os.stat', 'os.readlink', 'os.access'):
                GuardStat.events.append((event, args))
        sys.addaudithook(hook)

    def setUp(self):
        self.saved = os.stat, os.lstat, os.readlink, os.access
        self.dir = tempfile.mkdtemp()
        self.link = os.path.join(self.dir, 'l')
        os.symlink('target', self.link)
        H['guard_stat']()
        GuardStat.events = []

    def tearDown(self):
        GuardStat.events = None
        os.stat, os.lstat, os.readlink, os.access = self.saved
        os.unlink(self.link)
        os.rmdir(self.dir)

    def test_each_call_raises_its_event(self):
        self.assertEqual(os.stat(self.dir).st_ino, self.saved[0](self.dir).st_ino)
        self.assertTrue(os.path.islink(self.link))  # os.lstat underneath
        self.assertEqual(os.readlink(self.link), 'target')
        self.assertTrue(os.access(self.dir, os.F_OK))
        fd = os.open(self.dir, os.O_RDONLY)
        try:
            os.stat('l', dir_fd=fd, follow_symlinks=False)
        finally:
            os.close(fd)
        self.assertEqual(GuardStat.events, [
            ('os.stat', (self.dir, None)),
            ('os.stat', (self.link, None)),
            ('os.readlink', (self.link, None)),
            ('os.access', (self.dir, None)),
            ('os.stat', ('l', fd)),
        ])

    def test_the_event_comes_before_the_call(self):
        def refuse(event, args):
            if GuardStat.events is not None and event == 'os.stat' and args[0] == 'refused':
                raise PermissionError('refused by the hook')
        sys.addaudithook(refuse)
        with self.assertRaises(PermissionError) as cm:
            os.stat('refused')
        self.assertEqual(str(cm.exception), 'refused by the hook')
        with self.assertRaises(FileNotFoundError):
            os.lstat(os.path.join(self.dir, 'none'))


if __name__ == '__main__':
    unittest.main()
