"""TA-Lib's functions, written from TA-Lib's C definitions: the same lookbacks, the same
seeding (an EMA starts from the simple mean of its first period), Wilder's smoothing where
TA-Lib uses it, NaN for every bar inside the lookback. Leading NaNs of the inputs are skipped,
as TA-Lib's Python wrapper does, so an indicator of an indicator starts where its input does.
Each function takes float arrays and returns float arrays (a tuple for several outputs)."""
import math

import numpy as np

from sa_frameworks import NotSupported

NAN = float('nan')


def _is_zero(v):
    return -0.00000001 < v < 0.00000001


def _arrays(*xs):
    out = []
    for x in xs:
        a = np.asarray(x, dtype=np.float64)
        if a.ndim != 1:
            raise ValueError('talib takes one-dimensional inputs')
        out.append(a)
    n = len(out[0])
    if any(len(a) != n for a in out):
        raise ValueError('talib inputs differ in length')
    return out


def _begin(arrs):
    """The first bar at which no input is NaN any more (TA-Lib's wrapper skips leading NaNs)."""
    b = 0
    for a in arrs:
        nan = np.isnan(a)
        if nan.all():
            return len(a)
        b = max(b, int(np.argmin(nan)))
    return b


def _pad(n, begin, values):
    """values computed from bar begin + (n - begin - len(values)) on, as a full-length array."""
    out = np.full(n, NAN)
    if len(values):
        out[n - len(values):] = values
    return out


def _run(core, arrs, n_out=1):
    """Calls core(lists) on the inputs past their leading NaNs; pads each output to full length."""
    n = len(arrs[0])
    b = _begin(arrs)
    parts = [a[b:].tolist() for a in arrs]
    res = core(*parts) if n - b > 0 else ([[]] * n_out if n_out > 1 else [])
    if n_out == 1:
        return _pad(n, b, res)
    return tuple(_pad(n, b, r) for r in res)


def _period(p, low=2):
    p = int(p)
    if p < low or p > 100000:
        raise ValueError('talib: period %d out of range' % p)
    return p


# --- moving averages --------------------------------------------------------------------------

def _sma(x, p):
    n = len(x)
    if n < p:
        return []
    out = []
    total = 0.0
    for i in range(p - 1):
        total += x[i]
    trailing = 0
    for i in range(p - 1, n):
        total += x[i]
        t = total
        total -= x[trailing]
        trailing += 1
        out.append(t / p)
    return out


def _ema(x, p, k=None):
    n = len(x)
    if n < p:
        return []
    if k is None:
        k = 2.0 / (p + 1)
    total = 0.0
    for i in range(p):
        total += x[i]
    prev = total / p
    out = [prev]
    for i in range(p, n):
        prev = ((x[i] - prev) * k) + prev
        out.append(prev)
    return out


def _wma(x, p):
    n = len(x)
    if n < p:
        return []
    div = p * (p + 1) / 2.0
    out = []
    for i in range(p - 1, n):
        s = 0.0
        for j in range(p):
            s += x[i - p + 1 + j] * (j + 1)
        out.append(s / div)
    return out


def _ma(x, p, matype):
    matype = int(matype)
    if p == 1:
        return list(x)
    if matype == 0:
        return _sma(x, p)
    if matype == 1:
        return _ema(x, p)
    if matype == 2:
        return _wma(x, p)
    if matype == 3:
        return _dema(x, p)
    if matype == 4:
        return _tema(x, p)
    raise NotSupported('talib moving-average type %d is not supported: the sandbox\'s talib has '
                       'matype 0 (SMA), 1 (EMA), 2 (WMA), 3 (DEMA) and 4 (TEMA)' % matype)


def _dema(x, p):
    e1 = _ema(x, p)
    e2 = _ema(e1, p)
    off = len(e1) - len(e2)
    return [2.0 * e1[off + i] - e2[i] for i in range(len(e2))]


def _tema(x, p):
    e1 = _ema(x, p)
    e2 = _ema(e1, p)
    e3 = _ema(e2, p)
    o1, o2 = len(e1) - len(e3), len(e2) - len(e3)
    return [3.0 * e1[o1 + i] - 3.0 * e2[o2 + i] + e3[i] for i in range(len(e3))]


def _average(core):
    """An average of one input over timeperiod bars (default 30), TA-Lib's signature."""
    def fn(real, timeperiod=30):
        p = _period(timeperiod)
        return _run(lambda x: core(x, p), _arrays(real))
    return fn


SMA, EMA, WMA = _average(_sma), _average(_ema), _average(_wma)
DEMA, TEMA = _average(_dema), _average(_tema)


def MA(real, timeperiod=30, matype=0):
    p = _period(timeperiod, 1)
    return _run(lambda x: _ma(x, p, matype), _arrays(real))


# --- oscillators ------------------------------------------------------------------------------

def _wilder_gains(x, p):
    """(gain, loss) averages per bar from bar p on: the first the simple mean of p changes,
    then Wilder's smoothing, as TA-Lib's RSI and CMO."""
    n = len(x)
    if n <= p:
        return []
    gain = loss = 0.0
    prev = x[0]
    for i in range(1, p + 1):
        d = x[i] - prev
        prev = x[i]
        if d < 0:
            loss -= d
        else:
            gain += d
    loss /= p
    gain /= p
    out = [(gain, loss)]
    for i in range(p + 1, n):
        d = x[i] - prev
        prev = x[i]
        loss *= (p - 1)
        gain *= (p - 1)
        if d < 0:
            loss -= d
        else:
            gain += d
        loss /= p
        gain /= p
        out.append((gain, loss))
    return out


def RSI(real, timeperiod=14):
    p = _period(timeperiod)

    def core(x):
        return [100.0 * (g / (g + l)) if not _is_zero(g + l) else 0.0 for g, l in _wilder_gains(x, p)]
    return _run(core, _arrays(real))


def CMO(real, timeperiod=14):
    p = _period(timeperiod)

    def core(x):
        return [100.0 * ((g - l) / (g + l)) if not _is_zero(g + l) else 0.0
                for g, l in _wilder_gains(x, p)]
    return _run(core, _arrays(real))


def MOM(real, timeperiod=10):
    p = _period(timeperiod, 1)
    return _run(lambda x: [x[i] - x[i - p] for i in range(p, len(x))], _arrays(real))


def MACD(real, fastperiod=12, slowperiod=26, signalperiod=9):
    fast, slow, sig = _period(fastperiod), _period(slowperiod), _period(signalperiod, 1)
    if slow < fast:
        fast, slow = slow, fast

    def core(x):
        n = len(x)
        if n < slow + sig - 1:
            return [], [], []
        # TA-Lib seeds both averages at the slow one's first bar: the fast EMA starts from the
        # mean of the fast period ending there, not from the first fast period.
        e_slow = _ema(x, slow)
        e_fast = _ema(x[slow - fast:], fast)
        line = [a - b for a, b in zip(e_fast, e_slow)]
        signal = _ema(line, sig) if sig > 1 else list(line)
        line = line[sig - 1:]
        return line, signal, [a - b for a, b in zip(line, signal)]
    return _run(core, _arrays(real), 3)


def _windows(x, p):
    """Every window of p bars of x, one a row (a view, no copy)."""
    return np.lib.stride_tricks.sliding_window_view(np.asarray(x, dtype=np.float64), p)


def _fastk(h, l, c, p):
    if len(c) < p:
        return []
    hh, ll = _windows(h, p).max(axis=1), _windows(l, p).min(axis=1)
    out = []
    for cv, hv, lv in zip(c[p - 1:], hh.tolist(), ll.tolist()):
        diff = (hv - lv) / 100.0
        out.append((cv - lv) / diff if diff != 0.0 else 0.0)
    return out


def STOCHF(high, low, close, fastk_period=5, fastd_period=3, fastd_matype=0):
    pk, pd_ = _period(fastk_period, 1), _period(fastd_period, 1)

    def core(h, l, c):
        k = _fastk(h, l, c, pk)
        d = _ma(k, pd_, fastd_matype)
        return k[len(k) - len(d):], d
    return _run(core, _arrays(high, low, close), 2)


def STOCH(high, low, close, fastk_period=5, slowk_period=3, slowk_matype=0, slowd_period=3,
          slowd_matype=0):
    pk, psk, psd = _period(fastk_period, 1), _period(slowk_period, 1), _period(slowd_period, 1)

    def core(h, l, c):
        sk = _ma(_fastk(h, l, c, pk), psk, slowk_matype)
        sd = _ma(sk, psd, slowd_matype)
        return sk[len(sk) - len(sd):], sd
    return _run(core, _arrays(high, low, close), 2)


def CCI(high, low, close, timeperiod=14):
    p = _period(timeperiod)

    def core(h, l, c):
        tp = (np.asarray(h) + np.asarray(l) + np.asarray(c)) / 3.0
        if len(tp) < p:
            return []
        w = _windows(tp, p)
        avg = w.sum(axis=1) / p
        dev = np.abs(w - avg[:, None]).sum(axis=1)
        last = tp[p - 1:] - avg
        ok = (last != 0.0) & (dev != 0.0)
        return np.where(ok, last / np.where(ok, 0.015 * (dev / p), 1.0), 0.0).tolist()
    return _run(core, _arrays(high, low, close))


def MFI(high, low, close, volume, timeperiod=14):
    p = _period(timeperiod)

    def core(h, l, c, v):
        n = len(c)
        if n <= p:
            return []
        pos, neg = [0.0] * n, [0.0] * n
        prev = (h[0] + l[0] + c[0]) / 3.0
        for i in range(1, n):
            tp = (h[i] + l[i] + c[i]) / 3.0
            mf = tp * v[i]
            if tp > prev:
                pos[i] = mf
            elif tp < prev:
                neg[i] = mf
            prev = tp
        ps, ns, out = 0.0, 0.0, []
        for i in range(1, p + 1):
            ps += pos[i]
            ns += neg[i]
        for i in range(p, n):
            if i > p:
                ps += pos[i] - pos[i - p]
                ns += neg[i] - neg[i - p]
            t = ps + ns
            out.append(100.0 * (ps / t) if t >= 1.0 else 0.0)
        return out
    return _run(core, _arrays(high, low, close, volume))


# --- directional movement and volatility ------------------------------------------------------

def _true_range(h, l, pc):
    r = h - l
    a = abs(h - pc)
    if a > r:
        r = a
    a = abs(l - pc)
    if a > r:
        r = a
    return r


def _dm_steps(h, l, c):
    """(plus DM, minus DM, true range) of each bar from the second, TA-Lib's rules."""
    out = []
    for i in range(1, len(c)):
        up, down = h[i] - h[i - 1], l[i - 1] - l[i]
        plus = up if up > 0 and up > down else 0.0
        minus = down if down > 0 and up < down else 0.0
        out.append((plus, minus, _true_range(h[i], l[i], c[i - 1])))
    return out


def _smoothed_dm(h, l, c, p):
    """Wilder-smoothed (plus DM, minus DM, TR) from bar p on (sums of p - 1 steps, then each
    step: prev - prev / p + new)."""
    steps = _dm_steps(h, l, c)
    if len(steps) < p:
        return []
    sp = sm = st = 0.0
    for i in range(p - 1):
        sp += steps[i][0]
        sm += steps[i][1]
        st += steps[i][2]
    out = []
    for i in range(p - 1, len(steps)):
        a, b, t = steps[i]
        sp = sp - sp / p + a
        sm = sm - sm / p + b
        st = st - st / p + t
        out.append((sp, sm, st))
    return out


def PLUS_DI(high, low, close, timeperiod=14):
    p = _period(timeperiod, 1)

    def core(h, l, c):
        return [100.0 * (a / t) if not _is_zero(t) else 0.0 for a, _, t in _smoothed_dm(h, l, c, p)]
    return _run(core, _arrays(high, low, close))


def MINUS_DI(high, low, close, timeperiod=14):
    p = _period(timeperiod, 1)

    def core(h, l, c):
        return [100.0 * (b / t) if not _is_zero(t) else 0.0 for _, b, t in _smoothed_dm(h, l, c, p)]
    return _run(core, _arrays(high, low, close))


def _dx(sp, sm, st):
    """DX of one bar, or None where TA-Lib leaves the running value as it is."""
    if _is_zero(st):
        return None
    minus, plus = 100.0 * (sm / st), 100.0 * (sp / st)
    s = minus + plus
    if _is_zero(s):
        return None
    return 100.0 * (abs(minus - plus) / s)


def ADX(high, low, close, timeperiod=14):
    p = _period(timeperiod)

    def core(h, l, c):
        sm = _smoothed_dm(h, l, c, p)
        if len(sm) < p:
            return []
        total = 0.0
        for i in range(p):
            d = _dx(*sm[i])
            if d is not None:
                total += d
        adx = total / p
        out = [adx]
        for i in range(p, len(sm)):
            d = _dx(*sm[i])
            if d is not None:
                adx = ((adx * (p - 1)) + d) / p
            out.append(adx)
        return out
    return _run(core, _arrays(high, low, close))


def TRANGE(high, low, close):
    def core(h, l, c):
        return [_true_range(h[i], l[i], c[i - 1]) for i in range(1, len(c))]
    return _run(core, _arrays(high, low, close))


def ATR(high, low, close, timeperiod=14):
    p = _period(timeperiod, 1)

    def core(h, l, c):
        tr = [_true_range(h[i], l[i], c[i - 1]) for i in range(1, len(c))]
        if p == 1:
            return tr
        if len(tr) < p:
            return []
        s = 0.0
        for i in range(p):
            s += tr[i]
        prev = s / p
        out = [prev]
        for i in range(p, len(tr)):
            prev *= p - 1
            prev += tr[i]
            prev /= p
            out.append(prev)
        return out
    return _run(core, _arrays(high, low, close))


def _var(x, p):
    """TA-Lib's running population variance (TA_INT_VAR): running sums of x and x squared, the
    new bar added before the means are taken and the oldest taken off after."""
    if len(x) < p:
        return []
    s1 = s2 = 0.0
    for i in range(p - 1):
        s1 += x[i]
        s2 += x[i] * x[i]
    out = []
    for i in range(p - 1, len(x)):
        s1 += x[i]
        s2 += x[i] * x[i]
        m1, m2 = s1 / p, s2 / p
        old = x[i - p + 1]
        s1 -= old
        s2 -= old * old
        out.append(m2 - m1 * m1)
    return out


def _stddev(x, p):
    """TA-Lib's population standard deviation: the root of the running variance, 0 where the
    variance is below 1e-8."""
    return [math.sqrt(v) if not v < 0.00000001 else 0.0 for v in _var(x, p)]


def _stddev_sma(x, mid, p):
    """The same over a simple mean already computed (TA-Lib's BBANDS with matype 0): the mean of
    the squares less the square of that mean."""
    s2 = 0.0
    for i in range(p - 1):
        s2 += x[i] * x[i]
    out = []
    for k, i in enumerate(range(p - 1, len(x))):
        s2 += x[i] * x[i]
        var = s2 / p
        old = x[i - p + 1]
        s2 -= old * old
        var -= mid[k] * mid[k]
        out.append(math.sqrt(var) if not var < 0.00000001 else 0.0)
    return out


def BBANDS(real, timeperiod=5, nbdevup=2.0, nbdevdn=2.0, matype=0):
    p = _period(timeperiod)
    up, dn = float(nbdevup), float(nbdevdn)

    def core(x):
        mid = _ma(x, p, matype)
        sd = _stddev_sma(x, mid, p) if int(matype) == 0 else _stddev(x, p)[len(x) - p + 1 - len(mid):]
        return ([m + up * s for m, s in zip(mid, sd)], mid, [m - dn * s for m, s in zip(mid, sd)])
    return _run(core, _arrays(real), 3)


def SAR(high, low, acceleration=0.02, maximum=0.2):
    acc, mx = float(acceleration), float(maximum)
    if acc > mx:
        acc = mx

    def core(h, l):
        # TA-Lib's two mirrored branches as one: the prices of a short are negated (exact in
        # floating point, as are min, max and the update), so a short is a long in its frame
        n = len(h)
        if n < 2:
            return []

        def frame(d, lo, hi, plo, phi):
            return (lo, hi, plo, phi) if d > 0 else (-hi, -lo, -phi, -plo)
        af = acc
        down, up = l[0] - l[1], h[1] - h[0]
        d = -1 if down > 0 and up < down else 1
        ep, sar = (h[1], l[0]) if d > 0 else (-l[1], -h[0])
        new_lo, new_hi = l[1], h[1]
        out = []
        for i in range(1, n):
            prev_lo, prev_hi = new_lo, new_hi
            new_lo, new_hi = l[i], h[i]
            fl, fh, fpl, fph = frame(d, new_lo, new_hi, prev_lo, prev_hi)
            if fl <= sar:
                stop = max(ep, fph, fh)
                out.append(d * stop)
                d = -d
                fl, fh, fpl, fph = frame(d, new_lo, new_hi, prev_lo, prev_hi)
                af, ep, sar = acc, fh, -stop
            else:
                out.append(d * sar)
                if fh > ep:
                    ep = fh
                    af = min(af + acc, mx)
            sar = min(sar + af * (ep - sar), fpl, fl)
        return out
    return _run(core, _arrays(high, low))


# --- volume and rolling extremes --------------------------------------------------------------

def OBV(real, volume):
    def core(x, v):
        if not x:
            return []
        obv, prev = v[0], x[0]
        out = [obv]
        for i in range(1, len(x)):
            if x[i] > prev:
                obv += v[i]
            elif x[i] < prev:
                obv -= v[i]
            out.append(obv)
            prev = x[i]
        return out
    return _run(core, _arrays(real, volume))


def MAX(real, timeperiod=30):
    p = _period(timeperiod)
    return _run(lambda x: _windows(x, p).max(axis=1).tolist() if len(x) >= p else [], _arrays(real))


def MIN(real, timeperiod=30):
    p = _period(timeperiod)
    return _run(lambda x: _windows(x, p).min(axis=1).tolist() if len(x) >= p else [], _arrays(real))


# name: (inputs, parameters with defaults in order, outputs); the abstract API reads this table
FUNCTIONS = {
    'SMA': (('close',), (('timeperiod', 30),), ('real',)),
    'EMA': (('close',), (('timeperiod', 30),), ('real',)),
    'WMA': (('close',), (('timeperiod', 30),), ('real',)),
    'DEMA': (('close',), (('timeperiod', 30),), ('real',)),
    'TEMA': (('close',), (('timeperiod', 30),), ('real',)),
    'MA': (('close',), (('timeperiod', 30), ('matype', 0)), ('real',)),
    'RSI': (('close',), (('timeperiod', 14),), ('real',)),
    'CMO': (('close',), (('timeperiod', 14),), ('real',)),
    'MOM': (('close',), (('timeperiod', 10),), ('real',)),
    'MACD': (('close',), (('fastperiod', 12), ('slowperiod', 26), ('signalperiod', 9)),
             ('macd', 'macdsignal', 'macdhist')),
    'STOCHF': (('high', 'low', 'close'), (('fastk_period', 5), ('fastd_period', 3), ('fastd_matype', 0)),
               ('fastk', 'fastd')),
    'STOCH': (('high', 'low', 'close'), (('fastk_period', 5), ('slowk_period', 3), ('slowk_matype', 0),
                                         ('slowd_period', 3), ('slowd_matype', 0)), ('slowk', 'slowd')),
    'CCI': (('high', 'low', 'close'), (('timeperiod', 14),), ('real',)),
    'MFI': (('high', 'low', 'close', 'volume'), (('timeperiod', 14),), ('real',)),
    'PLUS_DI': (('high', 'low', 'close'), (('timeperiod', 14),), ('real',)),
    'MINUS_DI': (('high', 'low', 'close'), (('timeperiod', 14),), ('real',)),
    'ADX': (('high', 'low', 'close'), (('timeperiod', 14),), ('real',)),
    'TRANGE': (('high', 'low', 'close'), (), ('real',)),
    'ATR': (('high', 'low', 'close'), (('timeperiod', 14),), ('real',)),
    'BBANDS': (('close',), (('timeperiod', 5), ('nbdevup', 2.0), ('nbdevdn', 2.0), ('matype', 0)),
               ('upperband', 'middleband', 'lowerband')),
    'SAR': (('high', 'low'), (('acceleration', 0.02), ('maximum', 0.2)), ('real',)),
    'OBV': (('close', 'volume'), (), ('real',)),
    'MAX': (('close',), (('timeperiod', 30),), ('real',)),
    'MIN': (('close',), (('timeperiod', 30),), ('real',)),
}


from talib import _cdl, _extra, _more  # noqa: E402  (they build on the helpers above)

for _module in (_cdl, _more, _extra):
    FUNCTIONS.update(_module.FUNCTIONS)
    for _name in _module.FUNCTIONS:
        globals()[_name] = getattr(_module, _name)


def unsupported(name):
    """The sentence for a TA-Lib function the sandbox does not provide."""
    from talib._groups import ALL
    missing = [f for f in ALL if f not in FUNCTIONS]
    return NotSupported('talib.%s is not supported: the sandbox\'s talib provides %d of TA-Lib\'s %d '
                        'functions, all but %s' % (name, len(ALL) - len(missing), len(ALL),
                                                   ', '.join(missing)))
