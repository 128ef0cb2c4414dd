"""Further TA-Lib functions, written from TA-Lib's C definitions: the math operators and
transforms, variance and standard deviation, the directional movement sums and index, Aroon,
the price oscillators over simple averages, the triangular average, TRIX, the ultimate
oscillator, the accumulation/distribution line and its oscillator, linear regression and its
kin, correlation, beta, and the rolling extremes' positions."""
import math

import numpy as np

from sa_frameworks import NotSupported
from talib._ta import (ADX, ATR, _arrays, _dx, _ema, _fastk, _is_zero, _ma, _period, _run, _sma,
                       _smoothed_dm, _true_range, _var, _wilder_gains, _windows)


def _map1(fn):
    def f(real):
        return _run(lambda x: [fn(v) for v in x], _arrays(real))
    return f


def _map2(fn):
    def f(real0, real1):
        return _run(lambda a, b: [fn(u, v) for u, v in zip(a, b)], _arrays(real0, real1))
    return f


ACOS, ASIN, ATAN = _map1(math.acos), _map1(math.asin), _map1(math.atan)
CEIL, FLOOR = _map1(lambda v: float(math.ceil(v))), _map1(lambda v: float(math.floor(v)))
COS, COSH, SIN, SINH = _map1(math.cos), _map1(math.cosh), _map1(math.sin), _map1(math.sinh)
TAN, TANH, EXP = _map1(math.tan), _map1(math.tanh), _map1(math.exp)
LN, LOG10, SQRT = _map1(math.log), _map1(math.log10), _map1(math.sqrt)
ADD, SUB = _map2(lambda a, b: a + b), _map2(lambda a, b: a - b)
MULT, DIV = _map2(lambda a, b: a * b), _map2(lambda a, b: a / b)


def VAR(real, timeperiod=5, nbdev=1.0):
    p = _period(timeperiod, 1)
    return _run(lambda x: _var(x, p), _arrays(real))


def STDDEV(real, timeperiod=5, nbdev=1.0):
    p = _period(timeperiod)
    return _run(lambda x: [math.sqrt(v) * nbdev if v >= 0.00000001 else 0.0 for v in _var(x, p)],
                _arrays(real))


def _dm(h, l, p, which):
    """PLUS_DM / MINUS_DM: the raw movement with a period of 1, else Wilder's running sum from
    the sum of the first p - 1 movements."""
    steps = []
    for i in range(1, len(h)):
        up, down = h[i] - h[i - 1], l[i - 1] - l[i]
        plus = up if up > 0 and up > down else 0.0
        minus = down if down > 0 and up < down else 0.0
        steps.append(plus if which == 0 else minus)
    if p == 1:
        return steps
    if len(steps) < p - 1:
        return []
    prev = 0.0
    for i in range(p - 1):
        prev += steps[i]
    out = [prev]
    for i in range(p - 1, len(steps)):
        prev = prev - prev / p + steps[i]
        out.append(prev)
    return out


def PLUS_DM(high, low, timeperiod=14):
    p = _period(timeperiod, 1)
    return _run(lambda h, l: _dm(h, l, p, 0), _arrays(high, low))


def MINUS_DM(high, low, timeperiod=14):
    p = _period(timeperiod, 1)
    return _run(lambda h, l: _dm(h, l, p, 1), _arrays(high, low))


def DX(high, low, close, timeperiod=14):
    p = _period(timeperiod)

    def core(h, l, c):
        out, prev = [], 0.0
        for sp, sm, st in _smoothed_dm(h, l, c, p):
            d = _dx(sp, sm, st)
            prev = d if d is not None else prev
            out.append(prev)
        return out
    return _run(core, _arrays(high, low, close))


def ADXR(high, low, close, timeperiod=14):
    p = _period(timeperiod)
    adx = ADX(high, low, close, timeperiod=p)
    out = np.full(len(adx), np.nan)
    if len(adx) > p - 1:
        out[p - 1:] = (adx[p - 1:] + adx[:len(adx) - (p - 1)]) / 2.0
    return out


def NATR(high, low, close, timeperiod=14):
    atr = ATR(high, low, close, timeperiod=timeperiod)
    c = _arrays(close)[0]
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(np.isnan(atr), np.nan, np.where(c != 0.0, atr / c * 100.0, 0.0))


def _aroon(h, l, p):
    out = []
    for i in range(p, len(h)):
        hi_i = lo_i = i - p
        for j in range(i - p, i + 1):
            if h[j] >= h[hi_i]:
                hi_i = j
            if l[j] <= l[lo_i]:
                lo_i = j
        out.append((hi_i, lo_i, i))
    return out


def AROON(high, low, timeperiod=14):
    p = _period(timeperiod)
    f = 100.0 / p

    def core(h, l):
        a = _aroon(h, l, p)
        return [f * (p - (i - lo)) for _, lo, i in a], [f * (p - (i - hi)) for hi, _, i in a]
    return _run(core, _arrays(high, low), 2)


def AROONOSC(high, low, timeperiod=14):
    p = _period(timeperiod)
    f = 100.0 / p
    return _run(lambda h, l: [f * (hi - lo) for hi, lo, _ in _aroon(h, l, p)], _arrays(high, low))


def _po(x, fast, slow, matype, percent):
    if int(matype) != 0:
        raise NotSupported('talib APO and PPO with matype %d are not supported: the sandbox\'s talib '
                           'has them over simple averages (matype 0)' % int(matype))
    if slow < fast:
        fast, slow = slow, fast
    s, f = _sma(x, slow), _sma(x, fast)
    f = f[len(f) - len(s):]
    if percent:
        return [((a - b) / b) * 100.0 if not _is_zero(b) else 0.0 for a, b in zip(f, s)]
    return [a - b for a, b in zip(f, s)]


def APO(real, fastperiod=12, slowperiod=26, matype=0):
    fast, slow = _period(fastperiod), _period(slowperiod)
    return _run(lambda x: _po(x, fast, slow, matype, False), _arrays(real))


def PPO(real, fastperiod=12, slowperiod=26, matype=0):
    fast, slow = _period(fastperiod), _period(slowperiod)
    return _run(lambda x: _po(x, fast, slow, matype, True), _arrays(real))


def TRIMA(real, timeperiod=30):
    p = _period(timeperiod)

    def core(x):
        if p % 2:
            a = b = (p + 1) // 2
        else:
            a, b = p // 2, p // 2 + 1
        return _sma(_sma(x, a), b)
    return _run(core, _arrays(real))


def TRIX(real, timeperiod=30):
    p = _period(timeperiod, 1)

    def core(x):
        e = _ema(_ema(_ema(x, p), p), p)
        return [(e[i] - e[i - 1]) / e[i - 1] * 100.0 if e[i - 1] != 0.0 else 0.0
                for i in range(1, len(e))]
    return _run(core, _arrays(real))


def ULTOSC(high, low, close, timeperiod1=7, timeperiod2=14, timeperiod3=28):
    periods = sorted((_period(timeperiod1, 1), _period(timeperiod2, 1), _period(timeperiod3, 1)))
    p1, p2, p3 = periods[0], periods[1], periods[2]

    def core(h, l, c):
        bp, tr = [0.0], [0.0]
        for i in range(1, len(c)):
            bp.append(c[i] - min(l[i], c[i - 1]))
            tr.append(_true_range(h[i], l[i], c[i - 1]))
        out = []
        for i in range(p3, len(c)):
            parts = []
            for p in (p1, p2, p3):
                sb, st = sum(bp[i - p + 1:i + 1]), sum(tr[i - p + 1:i + 1])
                parts.append(sb / st if not _is_zero(st) else 0.0)
            out.append(100.0 * (4.0 * parts[0] + 2.0 * parts[1] + parts[2]) / 7.0)
        return out
    return _run(core, _arrays(high, low, close))


def _ad(h, l, c, v):
    total, out = 0.0, []
    for i in range(len(c)):
        r = h[i] - l[i]
        if r > 0.0:
            total += (((c[i] - l[i]) - (h[i] - c[i])) / r) * v[i]
        out.append(total)
    return out


def AD(high, low, close, volume):
    return _run(_ad, _arrays(high, low, close, volume))


def ADOSC(high, low, close, volume, fastperiod=3, slowperiod=10):
    fast, slow = _period(fastperiod), _period(slowperiod)

    def core(h, l, c, v):
        ad = _ad(h, l, c, v)
        look = max(fast, slow) - 1
        if len(ad) <= look:
            return []
        kf, ks = 2.0 / (fast + 1), 2.0 / (slow + 1)
        ef = es = ad[0]
        out = []
        for i in range(1, len(ad)):
            ef = (kf * ad[i]) + ((1.0 - kf) * ef)
            es = (ks * ad[i]) + ((1.0 - ks) * es)
            if i >= look:
                out.append(ef - es)
        return out
    return _run(core, _arrays(high, low, close, volume))


def _linreg(x, p):
    """(slope, intercept) of the least-squares line over each window, x = 0..p-1 as TA-Lib."""
    sum_x = p * (p - 1) * 0.5
    sum_xx = p * (p - 1) * (2 * p - 1) / 6.0
    div = sum_x * sum_x - p * sum_xx
    out = []
    for i in range(p - 1, len(x)):
        sxy = sy = 0.0
        for k in range(p):
            y = x[i - k]
            sy += y
            sxy += k * y
        m = (p * sxy - sum_x * sy) / div
        b = (sy - m * sum_x) / p
        out.append((m, b))
    return out


def _linreg_fn(pick):
    def fn(real, timeperiod=14):
        p = _period(timeperiod)
        return _run(lambda x: [pick(m, b, p) for m, b in _linreg(x, p)], _arrays(real))
    return fn


LINEARREG = _linreg_fn(lambda m, b, p: b + m * (p - 1))
LINEARREG_SLOPE = _linreg_fn(lambda m, b, p: m)
LINEARREG_INTERCEPT = _linreg_fn(lambda m, b, p: b)
LINEARREG_ANGLE = _linreg_fn(lambda m, b, p: math.atan(m) * (180.0 / 3.14159265358979323846))
TSF = _linreg_fn(lambda m, b, p: b + m * p)


def CORREL(real0, real1, timeperiod=30):
    p = _period(timeperiod, 1)

    def core(a, b):
        if len(a) < p:
            return []
        sx = sy = sxx = syy = sxy = 0.0
        for j in range(p - 1):
            sx += a[j]
            sy += b[j]
            sxx += a[j] * a[j]
            syy += b[j] * b[j]
            sxy += a[j] * b[j]
        out = []
        for i in range(p - 1, len(a)):
            x, y = a[i], b[i]
            sx += x
            sxx += x * x
            sxy += x * y
            sy += y
            syy += y * y
            t = (sxx - (sx * sx) / p) * (syy - (sy * sy) / p)
            out.append((sxy - (sx * sy) / p) / math.sqrt(t) if not t < 0.00000001 else 0.0)
            x, y = a[i - p + 1], b[i - p + 1]
            sx -= x
            sxx -= x * x
            sxy -= x * y
            sy -= y
            syy -= y * y
        return out
    return _run(core, _arrays(real0, real1))


def _extreme_index(x, p, better, better_or_equal):
    """TA-Lib's MAXINDEX / MININDEX scan: the extreme kept while it stays in the window (a new
    bar as good replaces it), the window rescanned from its oldest bar when it leaves (then the
    earliest of equals wins)."""
    out, idx = [], -1
    for today in range(p - 1, len(x)):
        trailing = today - p + 1
        if idx < trailing:
            idx = trailing
            for i in range(trailing + 1, today + 1):
                if better(x[i], x[idx]):
                    idx = i
        elif better_or_equal(x[today], x[idx]):
            idx = today
        out.append(float(idx))
    return out


def MAXINDEX(real, timeperiod=30):
    p = _period(timeperiod)
    return _index(lambda x: _extreme_index(x, p, lambda a, b: a > b, lambda a, b: a >= b), real)


def MININDEX(real, timeperiod=30):
    p = _period(timeperiod)
    return _index(lambda x: _extreme_index(x, p, lambda a, b: a < b, lambda a, b: a <= b), real)


def _index(core, real):
    """An index output: integers, 0 inside the lookback (TA-Lib's wrapper), the bar counted from
    the array's start."""
    x = _arrays(real)[0]
    out = _run(core, [x])
    b = int(np.argmin(np.isnan(x))) if np.isnan(x).any() else 0
    return np.where(np.isnan(out), 0, out + b).astype(np.int32)


def MINMAX(real, timeperiod=30):
    p = _period(timeperiod)

    def core(x):
        if len(x) < p:
            return [], []
        w = _windows(x, p)
        return w.min(axis=1).tolist(), w.max(axis=1).tolist()
    return _run(core, _arrays(real), 2)


def MINMAXINDEX(real, timeperiod=30):
    return MININDEX(real, timeperiod), MAXINDEX(real, timeperiod)


def MACDFIX(real, signalperiod=9):
    sig = _period(signalperiod, 1)

    def core(x):
        if len(x) < 26 + sig - 1:
            return [], [], []
        e_slow = _ema(x, 26, 0.075)
        e_fast = _ema(x[26 - 12:], 12, 0.15)
        line = [a - b for a, b in zip(e_fast, e_slow)]
        signal = _ema(line, sig) if sig > 1 else list(line)
        line = line[sig - 1:]
        return line, signal, [a - b for a, b in zip(line, signal)]
    return _run(core, _arrays(real), 3)


def STOCHRSI(real, timeperiod=14, fastk_period=5, fastd_period=3, fastd_matype=0):
    p, pk, pd_ = _period(timeperiod), _period(fastk_period, 1), _period(fastd_period, 1)

    def core(x):
        rsi = [100.0 * (g / (g + l)) if not _is_zero(g + l) else 0.0 for g, l in _wilder_gains(x, p)]
        k = _fastk(rsi, rsi, rsi, pk)
        d = _ma(k, pd_, fastd_matype)
        return k[len(k) - len(d):], d
    return _run(core, _arrays(real), 2)


def KAMA(real, timeperiod=30):
    p = _period(timeperiod)
    fastest, slowest = 2.0 / (2 + 1), 2.0 / (30 + 1)
    diff = fastest - slowest

    def step(prev, value, change, volatility):
        e = 1.0 if (volatility <= change or _is_zero(volatility)) else abs(change / volatility)
        e = (e * diff) + slowest
        e *= e
        return ((value - prev) * e) + prev

    def core(x):
        if len(x) <= p:
            return []
        vol = 0.0
        for i in range(p):
            vol += abs(x[i] - x[i + 1])
        kama = x[p - 1]
        kama = step(kama, x[p], x[p] - x[0], vol)
        out, trailing_value = [kama], x[0]
        for today in range(p + 1, len(x)):
            trailing = today - p
            vol -= abs(trailing_value - x[trailing])
            vol += abs(x[today] - x[today - 1])
            trailing_value = x[trailing]
            kama = step(kama, x[today], x[today] - x[trailing], vol)
            out.append(kama)
        return out
    return _run(core, _arrays(real))


def T3(real, timeperiod=5, vfactor=0.7):
    p = _period(timeperiod)
    v = float(vfactor)

    def core(x):
        if len(x) < 6 * (p - 1) + 1:
            return []
        k = 2.0 / (p + 1.0)
        k1 = 1.0 - k
        it = iter(x)
        total = 0.0
        for _ in range(p):
            total += next(it)
        e = [total / p]
        for level in range(1, 6):
            total = e[level - 1]
            for _ in range(p - 1):
                e[0] = k * next(it) + k1 * e[0]
                for j in range(1, level):
                    e[j] = k * e[j - 1] + k1 * e[j]
                total += e[level - 1]
            e.append(total / p)
        c1 = -v * v * v
        c2 = 3.0 * (v * v - c1)
        c3 = -6.0 * v * v - 3.0 * (v - c1)
        c4 = 1.0 + 3.0 * v - c1 + 3.0 * v * v
        out = [c1 * e[5] + c2 * e[4] + c3 * e[3] + c4 * e[2]]
        for value in it:
            e[0] = k * value + k1 * e[0]
            for j in range(1, 6):
                e[j] = k * e[j - 1] + k1 * e[j]
            out.append(c1 * e[5] + c2 * e[4] + c3 * e[3] + c4 * e[2])
        return out
    return _run(core, _arrays(real))


def BETA(real0, real1, timeperiod=5):
    p = _period(timeperiod, 1)

    def ret(now, before):
        return (now - before) / before if before != 0.0 else 0.0

    def core(a, b):
        if len(a) <= p:
            return []
        sxx = sxy = sx = sy = 0.0
        for i in range(1, p):
            x, y = ret(a[i], a[i - 1]), ret(b[i], b[i - 1])
            sxx += x * x
            sxy += x * y
            sx += x
            sy += y
        out = []
        for i in range(p, len(a)):
            x, y = ret(a[i], a[i - 1]), ret(b[i], b[i - 1])
            sxx += x * x
            sxy += x * y
            sx += x
            sy += y
            t = i - p + 1
            x, y = ret(a[t], a[t - 1]), ret(b[t], b[t - 1])
            d = p * sxx - sx * sx
            out.append((p * sxy - sx * sy) / d if not _is_zero(d) else 0.0)
            sxx -= x * x
            sxy -= x * y
            sx -= x
            sy -= y
        return out
    return _run(core, _arrays(real0, real1))


_MA_LOOKBACK = {0: lambda p: p - 1, 1: lambda p: p - 1, 2: lambda p: p - 1,
                3: lambda p: 2 * (p - 1), 4: lambda p: 3 * (p - 1)}


def _ma_lookback(p, matype):
    if p <= 1:
        return 0
    if int(matype) not in _MA_LOOKBACK:
        _ma([], p, matype)  # the refusal of a moving-average type the sandbox does not have
    return _MA_LOOKBACK[int(matype)](p)


def MACDEXT(real, fastperiod=12, fastmatype=0, slowperiod=26, slowmatype=0, signalperiod=9,
            signalmatype=0):
    """MACD over moving averages of any type, TA-Lib's: both averages computed as TA-Lib's MA
    computes them from the bar the line starts at (each seeded on its own lookback before it)."""
    fast, slow, sig = _period(fastperiod), _period(slowperiod), _period(signalperiod, 1)
    if slow < fast:
        fast, slow, fastmatype, slowmatype = slow, fast, slowmatype, fastmatype

    def core(x):
        largest = max(_ma_lookback(fast, fastmatype), _ma_lookback(slow, slowmatype))
        sig_look = _ma_lookback(sig, signalmatype)
        if len(x) <= largest + sig_look:
            return [], [], []
        s = _ma(x[largest - _ma_lookback(slow, slowmatype):], slow, slowmatype)
        f = _ma(x[largest - _ma_lookback(fast, fastmatype):], fast, fastmatype)
        line = [a - b for a, b in zip(f, s)]
        signal = _ma(line, sig, signalmatype)
        line = line[len(line) - len(signal):]
        return line, signal, [a - b for a, b in zip(line, signal)]
    return _run(core, _arrays(real), 3)


def SAREXT(high, low, startvalue=0.0, offsetonreverse=0.0, accelerationinitlong=0.02,
           accelerationlong=0.02, accelerationmaxlong=0.2, accelerationinitshort=0.02,
           accelerationshort=0.02, accelerationmaxshort=0.2):
    """The parabolic SAR with its own factors each side, a start and an offset on reversal,
    TA-Lib's: positive while long, negative while short."""
    init_l, step_l, max_l = float(accelerationinitlong), float(accelerationlong), float(accelerationmaxlong)
    init_s, step_s, max_s = float(accelerationinitshort), float(accelerationshort), float(accelerationmaxshort)
    init_l, step_l = min(init_l, max_l), min(step_l, max_l)
    init_s, step_s = min(init_s, max_s), min(step_s, max_s)
    start, offset = float(startvalue), float(offsetonreverse)

    def core(h, l):
        if len(h) < 2:
            return []
        af_l, af_s = init_l, init_s
        if start == 0.0:
            up, down = h[1] - h[0], l[0] - l[1]
            long_ = not (down > 0 and up < down)
            ep, sar = (h[1], l[0]) if long_ else (l[1], h[0])
        else:
            long_ = start > 0
            ep, sar = (h[1] if long_ else l[1]), abs(start)
        new_lo, new_hi = l[1], h[1]
        out = []
        for i in range(1, len(h)):
            prev_lo, prev_hi = new_lo, new_hi
            new_lo, new_hi = l[i], h[i]
            if long_ and new_lo <= sar:
                long_ = False
                sar = max(ep, prev_hi, new_hi)
                if offset != 0.0:
                    sar += sar * offset
                out.append(-sar)
                af_s, ep = init_s, new_lo
                sar = max(sar + af_s * (ep - sar), prev_hi, new_hi)
            elif long_:
                out.append(sar)
                if new_hi > ep:
                    ep = new_hi
                    af_l = min(af_l + step_l, max_l)
                sar = min(sar + af_l * (ep - sar), prev_lo, new_lo)
            elif new_hi >= sar:
                long_ = True
                sar = min(ep, prev_lo, new_lo)
                if offset != 0.0:
                    sar -= sar * offset
                out.append(sar)
                af_l, ep = init_l, new_hi
                sar = min(sar + af_l * (ep - sar), prev_lo, new_lo)
            else:
                out.append(-sar)
                if new_lo < ep:
                    ep = new_lo
                    af_s = min(af_s + step_s, max_s)
                sar = max(sar + af_s * (ep - sar), prev_hi, new_hi)
        return out
    return _run(core, _arrays(high, low))


_HL = ('high', 'low')
_HLC = ('high', 'low', 'close')
_HLCV = ('high', 'low', 'close', 'volume')
_C = ('close',)
_TP = (('timeperiod', 14),)
FUNCTIONS = {name: (_C, (), ('real',)) for name in (
    'ACOS', 'ASIN', 'ATAN', 'CEIL', 'FLOOR', 'COS', 'COSH', 'SIN', 'SINH', 'TAN', 'TANH', 'EXP',
    'LN', 'LOG10', 'SQRT')}
FUNCTIONS.update({name: (_HL, (), ('real',)) for name in ('ADD', 'SUB', 'MULT', 'DIV')})
FUNCTIONS.update({
    'VAR': (_C, (('timeperiod', 5), ('nbdev', 1.0)), ('real',)),
    'STDDEV': (_C, (('timeperiod', 5), ('nbdev', 1.0)), ('real',)),
    'PLUS_DM': (_HL, _TP, ('real',)), 'MINUS_DM': (_HL, _TP, ('real',)),
    'DX': (_HLC, _TP, ('real',)), 'ADXR': (_HLC, _TP, ('real',)), 'NATR': (_HLC, _TP, ('real',)),
    'AROON': (_HL, _TP, ('aroondown', 'aroonup')), 'AROONOSC': (_HL, _TP, ('real',)),
    'APO': (_C, (('fastperiod', 12), ('slowperiod', 26), ('matype', 0)), ('real',)),
    'PPO': (_C, (('fastperiod', 12), ('slowperiod', 26), ('matype', 0)), ('real',)),
    'TRIMA': (_C, (('timeperiod', 30),), ('real',)), 'TRIX': (_C, (('timeperiod', 30),), ('real',)),
    'ULTOSC': (_HLC, (('timeperiod1', 7), ('timeperiod2', 14), ('timeperiod3', 28)), ('real',)),
    'AD': (_HLCV, (), ('real',)),
    'ADOSC': (_HLCV, (('fastperiod', 3), ('slowperiod', 10)), ('real',)),
    'LINEARREG': (_C, _TP, ('real',)), 'LINEARREG_SLOPE': (_C, _TP, ('real',)),
    'LINEARREG_INTERCEPT': (_C, _TP, ('real',)), 'LINEARREG_ANGLE': (_C, _TP, ('real',)),
    'TSF': (_C, _TP, ('real',)),
    'CORREL': (_HL, (('timeperiod', 30),), ('real',)),
    'MAXINDEX': (_C, (('timeperiod', 30),), ('integer',)),
    'MININDEX': (_C, (('timeperiod', 30),), ('integer',)),
    'MINMAX': (_C, (('timeperiod', 30),), ('min', 'max')),
    'MINMAXINDEX': (_C, (('timeperiod', 30),), ('minidx', 'maxidx')),
    'MACDFIX': (_C, (('signalperiod', 9),), ('macd', 'macdsignal', 'macdhist')),
    'STOCHRSI': (_C, (('timeperiod', 14), ('fastk_period', 5), ('fastd_period', 3),
                      ('fastd_matype', 0)), ('fastk', 'fastd')),
    'KAMA': (_C, (('timeperiod', 30),), ('real',)),
    'T3': (_C, (('timeperiod', 5), ('vfactor', 0.7)), ('real',)),
    'BETA': (_HL, (('timeperiod', 5),), ('real',)),
    'SAREXT': (_HL, (('startvalue', 0.0), ('offsetonreverse', 0.0), ('accelerationinitlong', 0.02),
                     ('accelerationlong', 0.02), ('accelerationmaxlong', 0.2),
                     ('accelerationinitshort', 0.02), ('accelerationshort', 0.02),
                     ('accelerationmaxshort', 0.2)), ('real',)),
    'MACDEXT': (_C, (('fastperiod', 12), ('fastmatype', 0), ('slowperiod', 26), ('slowmatype', 0),
                     ('signalperiod', 9), ('signalmatype', 0)), ('macd', 'macdsignal', 'macdhist')),
})
