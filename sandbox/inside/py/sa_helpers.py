# sa_helpers.py - the zygote's trusted helpers (sbi_zygote.c, load_helpers): run as one
# source, before any upload exists, into a dict of their own that holds only __builtins__; the
# zygote then calls warm(), choose_build_cols() and guard_stat(), and freeze() before the first
# data zygote. They run inside a child after lockdown, so an upload that patches numpy can only
# lie about its own output, which the driver validates anyway. Embedded into the sandbox
# binary at build time (scripts/embed-py): plain ASCII, and no docstrings (a module's would add
# __doc__ to the helpers' dict, a function's a constant to its code).
import sys, os, traceback
import numpy as np
import pandas as pd
class BadOutput(Exception):
    pass
# the columns of a run's frame, in the order of the price block
COLS = ('open', 'high', 'low', 'close', 'volume')
# The frame of n bars from one buffer: n little-endian int64 times in seconds, then the 5 x n
# float64 prices, column after column (copied: the buffer is released).
def build(raw, n):
    m = memoryview(raw)
    t = np.frombuffer(m, dtype='<i8', count=n, offset=0) * np.int64(1000000000)
    block = np.frombuffer(m, dtype='<f8', count=5 * n, offset=8 * n).reshape(5, n).T.copy()
    m.release()
    idx = pd.DatetimeIndex(t.view('datetime64[ns]'), name='time').tz_localize('UTC')
    return pd.DataFrame(block, index=idx, columns=list(COLS), copy=False)
UTC = pd.DatetimeTZDtype(tz='UTC')
# The frame over a data zygote's columns, no copy: tv the n times in nanoseconds, pv the price
# block, each column cap values apart.
def build_cols(tv, pv, n, cap):
    t = np.frombuffer(tv, dtype='<i8', count=n).view('datetime64[ns]')
    block = np.ndarray((5, n), dtype='<f8', buffer=pv, strides=(8 * cap, 8))
    arr = pd.arrays.DatetimeArray(t, dtype=UTC, copy=False)
    idx = pd.DatetimeIndex(arr, name='time', copy=False)
    return pd.DataFrame(block.T, index=idx, columns=list(COLS), copy=False)
# The same frame through pandas' own constructors for trusted data (no inference, no
# validation): in a freshly forked run the public path above touches about 1 ms more of
# pandas' pages, each a copy-on-write fault. Used only if it builds what the public path
# builds (choose_build_cols, in the zygote).
try:
    from pandas.core.internals import BlockManager
    from pandas.core.internals.blocks import new_block
    from pandas._libs.internals import BlockPlacement
except ImportError:
    BlockManager = None
def build_cols_direct(tv, pv, n, cap):
    t = np.frombuffer(tv, dtype='<i8', count=n).view('datetime64[ns]')
    block = np.ndarray((5, n), dtype='<f8', buffer=pv, strides=(8 * cap, 8))
    arr = pd.arrays.DatetimeArray._simple_new(t, dtype=UTC)
    idx = pd.DatetimeIndex._simple_new(arr, name='time')
    blk = new_block(block, BlockPlacement(slice(0, 5)), ndim=2)
    return pd.DataFrame(BlockManager((blk,), [COLS_INDEX.copy(), idx], verify_integrity=False))
# A live decision's frame (sbi_child.c, live_frame): the window's n times and price block copied
# out of the run's columns (each cap values apart), its column names a fresh index, so what a call
# writes into its frame (values, times, names) reaches neither the columns nor the next frame.
def build_live(tv, pv, n, cap):
    t = np.frombuffer(tv, dtype='<i8', count=n).copy()
    block = np.ndarray((5, n), dtype='<f8', buffer=pv, strides=(8 * cap, 8)).copy()
    return build_cols(t, block, n, n)
# build_live through pandas' own constructors for trusted data, as build_cols_direct: its copies
# taken once, by numpy, and the column names' index made from a copy of their array (a tenth of
# Index.copy()'s cost); used only if it builds what build_live builds (choose_build_cols).
def build_live_direct(tv, pv, n, cap):
    t = np.frombuffer(tv, dtype='<i8', count=n).copy().view('datetime64[ns]')
    block = np.ndarray((5, n), dtype='<f8', buffer=pv, strides=(8 * cap, 8)).copy()
    arr = pd.arrays.DatetimeArray._simple_new(t, dtype=UTC)
    idx = pd.DatetimeIndex._simple_new(arr, name='time')
    blk = new_block(block, BlockPlacement(slice(0, 5)), ndim=2)
    cols = pd.Index._simple_new(COLS_ARRAY.copy(), name=None)
    return pd.DataFrame(BlockManager((blk,), [cols, idx], verify_integrity=False))
# Builds a small frame both ways and keeps build_cols_direct as build_cols only when it is the
# same frame (values, index, dtypes, one block over pv); returns whether it did.
def same_frame(a, b):
    return (a.equals(b) and a.index.equals(b.index) and a.index.dtype == b.index.dtype and
            a.index.name == b.index.name and a.index.freq == b.index.freq and
            type(a.columns) is type(b.columns) and a.columns.dtype == b.columns.dtype and
            list(a.columns) == list(b.columns) and a.columns.name == b.columns.name and
            list(a.dtypes) == list(b.dtypes) and b._mgr.nblocks == 1)
# Whether frame b holds its own copy of the columns' times and prices, not a view of buf.
def owns_copy(b, buf):
    return not (np.shares_memory(b['close'].to_numpy(), buf) or
                np.shares_memory(b.index.asi8, buf) or np.shares_memory(b.values, buf))
def choose_build_cols():
    global build_cols, build_live, COLS_INDEX, COLS_ARRAY
    cap, n = 4, 3
    buf = bytearray(6 * cap * 8)
    np.frombuffer(buf, dtype='<i8', count=n)[:] = np.arange(n) * 3600 * 1000000000
    np.frombuffer(buf, dtype='<f8')[cap:] = np.arange(5 * cap) / 8 + 1
    tv, pv = memoryview(buf)[: 8 * n], memoryview(buf)[8 * cap: 8 * (5 * cap + n)]
    a = build_cols(tv, pv, n, cap)
    try:
        COLS_INDEX = pd.Index(list(COLS))
        COLS_ARRAY = np.array(COLS, dtype=object)
        b = build_cols_direct(tv, pv, n, cap)
        same = same_frame(a, b) and np.shares_memory(b['close'].to_numpy(), pv)
    except Exception:
        same = False
    try:
        c, d = build_live(tv, pv, n, cap), build_live_direct(tv, pv, n, cap)
        live = (same and same_frame(a, c) and same_frame(c, d) and owns_copy(c, buf) and
                owns_copy(d, buf))
    except Exception:
        live = False
    if same:
        build_cols = build_cols_direct
    if live:
        build_live = build_live_direct
    return same
SIGNAL_NAN = -128  # SBX_SIGNAL_NAN (sbx_proto.h): a NaN or None the conversion found
EVENTS_MAX = 94  # SBX_SIGNAL_EVENTS_MAX (sbx_proto.h): a framework run's largest value
# An object array (a list with None in it, a Series of object dtype) as float64, None as NaN;
# anything but a number is refused.
def none_as_nan(a):
    out = np.empty(a.shape[0])
    for i, v in enumerate(a.tolist()):
        if v is None:
            out[i] = np.nan
        elif isinstance(v, (int, float, np.integer, np.floating, np.bool_)):
            try:
                out[i] = v
            except OverflowError:
                raise BadOutput('value %r at bar %d is not -1, 0 or 1' % (v, i)) from None
        else:
            raise BadOutput('signals() returned a %s at bar %d, not a number' % (type(v).__name__, i))
    return out
# signals()'s result x as n int8 values: -1, 0 or 1, and SIGNAL_NAN for each NaN or None; a
# Series must be in bar order (its index df.index, idx, or a RangeIndex). With events (a
# framework class's run: position + 3 * its candle's events, sbx_proto.h), -1 to EVENTS_MAX.
# Anything else raises BadOutput with the sentence the run reports.
def to_int8(x, n, idx=None, events=False):
    # the common answer, an integer array of the right length within range, checked the short way
    if type(x) is np.ndarray and x.ndim == 1 and x.shape[0] == n > 0 and x.dtype.kind in 'iu':
        if x.min() >= -1 and x.max() <= (EVENTS_MAX if events else 1):
            return x.astype(np.int8)
    if isinstance(x, pd.DataFrame):
        raise BadOutput('signals() returned a DataFrame, not one value per bar')
    if x is None:
        raise BadOutput('signals() returned None')
    if (isinstance(x, pd.Series) and idx is not None and
            not isinstance(x.index, pd.RangeIndex) and not x.index.equals(idx)):
        raise BadOutput('signals() returned a Series whose index is not df.index; '
                        'keep df.index or return the values in bar order')
    try:
        a = np.asarray(x)
    except Exception as e:
        raise BadOutput('signals() returned something that is not an array: %s' % type(e).__name__)
    if a.ndim != 1:
        raise BadOutput('signals() returned %d dimensions, not 1' % a.ndim)
    if a.shape[0] != n:
        raise BadOutput('signals() returned %d values for %d bars' % (a.shape[0], n))
    if a.dtype.kind == 'O':
        a = none_as_nan(a)
    if a.dtype.kind not in 'biuf':
        raise BadOutput('signals() returned values of type %s, not numbers' % a.dtype)
    with np.errstate(all='ignore'):
        nan = np.isnan(a) if a.dtype.kind == 'f' else None
        if nan is not None and nan.any():
            a = np.where(nan, 0.0, a)
        else:
            nan = None
        s = a.astype(np.int8)
        if a.dtype.kind == 'b' or n == 0:
            return s
        lo, hi, top = a.min(), a.max(), EVENTS_MAX if events else 1
        if lo >= -1 and hi <= top and (a.dtype.kind != 'f' or np.array_equal(s, a)):
            if nan is not None:
                s[nan] = SIGNAL_NAN
            return s
        bad = (s != a) | (a < -1) | (a > top)
    i = int(np.argmax(bad))
    raise BadOutput('value %r at bar %d is not -1, 0 or 1' % (float(a[i]), i))
# An exception as one line, 'line N: Type: message', N the last line of strategy.py in its
# traceback (or of its SyntaxError); the message cut at 800 characters.
def describe(e):
    where = ''
    for fr in traceback.extract_tb(e.__traceback__):
        if fr.filename == 'strategy.py':
            where = 'line %d: ' % fr.lineno
    try:
        msg = str(e)
        if (isinstance(e, SyntaxError) and e.filename == 'strategy.py' and
                type(e.lineno) is int and type(e.msg) is str):
            where, msg = 'line %d: ' % e.lineno, e.msg
    except BaseException:
        msg = '(unprintable)'
    return '%s%s: %s' % (where, type(e).__name__, msg[:800])
# three bars of price 1.0, an hour apart, in build()'s layout
def sample():
    import struct
    return struct.pack('<3q', 0, 3600, 7200) + struct.pack('<15d', *([1.0] * 15))
# Runs the common paths once in the zygote, so no run pays their first call.
def warm():
    df = build(sample(), 3)
    s = df['close'].rolling(2).mean().diff().shift(1).fillna(0.0)
    to_int8(np.sign(s).astype(int).values, 3)
    to_int8(list(np.sign(s)), 3)
    df.ewm(span=2).mean(); df.pct_change(); df['close'].ge(df['open']).astype(int)
# Every object so far into the permanent generation: a run's collections never walk them.
def freeze():
    import gc
    gc.collect()
    gc.freeze()
# os.stat, os.lstat, os.readlink and os.access raise no audit event of their own: wrapped, each
# raises one (os.stat for both stats) with the name and dir_fd, for the hook to judge; the
# functions under them, posix.*, find only the run's own root.
def guard_stat():
    def wrap(f, event):
        def guarded(path, *a, **k):
            sys.audit(event, path, k.get('dir_fd'))
            return f(path, *a, **k)
        return guarded
    os.stat, os.lstat = wrap(os.stat, 'os.stat'), wrap(os.lstat, 'os.stat')
    os.readlink = wrap(os.readlink, 'os.readlink')
    os.access = wrap(os.access, 'os.access')
