"""More of TA-Lib's functions, written from TA-Lib's C definitions: price transforms, the
balance of power, rates of change, sums and rolling mid-points, Williams' %R, and the Hilbert
transform's sine wave (John Ehlers' dominant cycle phase, as TA-Lib computes it: a 4-bar
weighted price, the transform on alternate bars, a 63-bar lookback)."""
import math

import numpy as np

from talib._ta import _arrays, _is_zero, _period, _run, _windows


def _elementwise(fn, *xs):
    arrs = _arrays(*xs)
    return _run(lambda *cols: [fn(*v) for v in zip(*cols)], arrs)


def BOP(open, high, low, close):
    def one(o, h, l, c):
        r = h - l
        return 0.0 if r < 0.00000001 else (c - o) / r
    return _elementwise(one, open, high, low, close)


def AVGPRICE(open, high, low, close):
    return _elementwise(lambda o, h, l, c: (o + h + l + c) / 4.0, open, high, low, close)


def MEDPRICE(high, low):
    return _elementwise(lambda h, l: (h + l) / 2.0, high, low)


def TYPPRICE(high, low, close):
    return _elementwise(lambda h, l, c: (h + l + c) / 3.0, high, low, close)


def WCLPRICE(high, low, close):
    return _elementwise(lambda h, l, c: (h + l + c * 2.0) / 4.0, high, low, close)


def _shifted(p, fn):
    def core(x):
        return [fn(x[i], x[i - p]) for i in range(p, len(x))]
    return core


def ROC(real, timeperiod=10):
    p = _period(timeperiod, 1)
    return _run(_shifted(p, lambda a, b: (a / b - 1.0) * 100.0 if b != 0.0 else 0.0), _arrays(real))


def ROCP(real, timeperiod=10):
    p = _period(timeperiod, 1)
    return _run(_shifted(p, lambda a, b: (a - b) / b if b != 0.0 else 0.0), _arrays(real))


def ROCR(real, timeperiod=10):
    p = _period(timeperiod, 1)
    return _run(_shifted(p, lambda a, b: a / b if b != 0.0 else 0.0), _arrays(real))


def ROCR100(real, timeperiod=10):
    p = _period(timeperiod, 1)
    return _run(_shifted(p, lambda a, b: a / b * 100.0 if b != 0.0 else 0.0), _arrays(real))


def SUM(real, timeperiod=30):
    p = _period(timeperiod)

    def core(x):
        if len(x) < p:
            return []
        total, out = sum(x[:p - 1]), []
        for i in range(p - 1, len(x)):
            total += x[i]
            out.append(total)
            total -= x[i - p + 1]
        return out
    return _run(core, _arrays(real))


def MIDPOINT(real, timeperiod=14):
    p = _period(timeperiod)
    return _run(lambda x: ((_windows(x, p).max(axis=1) + _windows(x, p).min(axis=1)) / 2.0).tolist()
                if len(x) >= p else [], _arrays(real))


def MIDPRICE(high, low, timeperiod=14):
    p = _period(timeperiod)
    return _run(lambda h, l: ((_windows(h, p).max(axis=1) + _windows(l, p).min(axis=1)) / 2.0).tolist()
                if len(h) >= p else [], _arrays(high, low))


def WILLR(high, low, close, timeperiod=14):
    p = _period(timeperiod)

    def core(h, l, c):
        if len(c) < p:
            return []
        hh, ll = _windows(h, p).max(axis=1), _windows(l, p).min(axis=1)
        out = []
        for k, i in enumerate(range(p - 1, len(c))):
            d = hh[k] - ll[k]
            out.append(0.0 if _is_zero(d) else (hh[k] - c[i]) / d * -100.0)
        return out
    return _run(core, _arrays(high, low, close))


class _Hilbert:
    """One of TA-Lib's Hilbert transform filters (its HILBERT_VARIABLES and DO_HILBERT_*)."""

    def __init__(self):
        self.ring = {0: [0.0] * 3, 1: [0.0] * 3}
        self.prev = {0: 0.0, 1: 0.0}
        self.prev_input = {0: 0.0, 1: 0.0}
        self.value = 0.0

    def step(self, x, odd, idx, adjusted):
        a, b = 0.0962, 0.5769
        t = a * x
        v = -self.ring[odd][idx]
        self.ring[odd][idx] = t
        v += t
        v -= self.prev[odd]
        self.prev[odd] = b * self.prev_input[odd]
        v += self.prev[odd]
        self.prev_input[odd] = x
        v *= adjusted
        self.value = v
        return v


def _hilbert(x, warm):
    """TA-Lib's Hilbert transform over x, bar by bar from the end of its warm-up (a 4-bar weighted
    price, then `warm` more bars: 34, or 9 for HT_DCPERIOD and HT_PHASOR): yields a dict per bar
    with the bar's index, the in-phase and quadrature parts, the smoothed period and the
    dominant cycle phase, and the ring of smoothed prices (ring, at)."""
    n = len(x)
    rad2deg = 45.0 / math.atan(1)
    deg2rad360 = math.atan(1) * 8.0
    trail = today = 0
    sub = sm = 0.0
    for w in (1.0, 2.0, 3.0):
        sub += x[today]
        sm += x[today] * w
        today += 1
    trailing_value = 0.0

    def wma(price):
        nonlocal sub, sm, trailing_value, trail
        sub += price
        sub -= trailing_value
        sm += price * 4.0
        trailing_value = x[trail]
        trail += 1
        out = sm * 0.1
        sm -= sub
        return out
    for _ in range(warm):
        wma(x[today])
        today += 1
    det, q1, ji, jq = _Hilbert(), _Hilbert(), _Hilbert(), _Hilbert()
    hidx = 0
    period = prev_i2 = prev_q2 = re = im = 0.0
    i1_odd3 = i1_even3 = i1_odd2 = i1_even2 = 0.0
    smooth_period = dc_phase = 0.0
    smooth, sidx = [0.0] * 50, 0
    while today < n:
        adj = 0.075 * period + 0.54
        smoothed = wma(x[today])
        smooth[sidx] = smoothed
        odd = today % 2
        det.step(smoothed, odd, hidx, adj)
        q1.step(det.value, odd, hidx, adj)
        i1 = i1_odd3 if odd else i1_even3
        bar = {'today': today, 'i1': i1, 'q1': q1.value}
        ji.step(i1, odd, hidx, adj)
        jq.step(q1.value, odd, hidx, adj)
        if not odd:
            hidx = (hidx + 1) % 3
        q2 = 0.2 * (q1.value + ji.value) + 0.8 * prev_q2
        i2 = 0.2 * (i1 - jq.value) + 0.8 * prev_i2
        if odd:
            i1_even3, i1_even2 = i1_even2, det.value
        else:
            i1_odd3, i1_odd2 = i1_odd2, det.value
        re = 0.2 * (i2 * prev_i2 + q2 * prev_q2) + 0.8 * re
        im = 0.2 * (i2 * prev_q2 - q2 * prev_i2) + 0.8 * im
        prev_q2, prev_i2 = q2, i2
        last = period
        if im != 0.0 and re != 0.0:
            period = 360.0 / (math.atan(im / re) * rad2deg)
        if period > 1.5 * last:
            period = 1.5 * last
        if period < 0.67 * last:
            period = 0.67 * last
        if period < 6:
            period = 6.0
        elif period > 50:
            period = 50.0
        period = 0.2 * period + 0.8 * last
        smooth_period = 0.33 * period + 0.67 * smooth_period
        prev_phase = dc_phase
        dc_int = int(smooth_period + 0.5)
        real_part = imag_part = 0.0
        idx = sidx
        for k in range(dc_int):
            t = (float(k) * deg2rad360) / float(dc_int)
            real_part += math.sin(t) * smooth[idx]
            imag_part += math.cos(t) * smooth[idx]
            idx = 49 if idx == 0 else idx - 1
        if abs(imag_part) > 0.0:
            dc_phase = math.atan(real_part / imag_part) * rad2deg
        elif abs(imag_part) <= 0.01:
            if real_part < 0.0:
                dc_phase -= 90.0
            elif real_part > 0.0:
                dc_phase += 90.0
        dc_phase += 90.0
        dc_phase += 360.0 / smooth_period
        if imag_part < 0.0:
            dc_phase += 180.0
        if dc_phase > 315.0:
            dc_phase -= 360.0
        bar.update(smooth_period=smooth_period, dc_phase=dc_phase, prev_phase=prev_phase,
                   ring=smooth, at=sidx)
        yield bar
        sidx = (sidx + 1) % 50
        today += 1


def _ht_sine_core(x):
    if len(x) <= 63:
        return [], []
    sine, lead = [], []
    for b in _hilbert(x, 34):
        if b['today'] >= 63:
            sine.append(math.sin(b['dc_phase'] * _DEG2RAD))
            lead.append(math.sin((b['dc_phase'] + 45) * _DEG2RAD))
    return sine, lead


_DEG2RAD = 1.0 / (45.0 / math.atan(1))


def _trend_line(x, b, state):
    """HT_TRENDLINE's weighted mean of the last dominant cycle's simple means (state: the last three)."""
    n = int(b['smooth_period'] + 0.5)
    total = 0.0
    for k in range(n):
        total += x[b['today'] - k]
    mean = total / n if n > 0 else total
    line = (4.0 * mean + 3.0 * state[0] + 2.0 * state[1] + state[2]) / 10.0
    state[2], state[1], state[0] = state[1], state[0], mean
    return line


def HT_TRENDLINE(real):
    def core(x):
        if len(x) <= 63:
            return []
        state, out = [0.0, 0.0, 0.0], []
        for b in _hilbert(x, 34):
            line = _trend_line(x, b, state)
            if b['today'] >= 63:
                out.append(line)
        return out
    return _run(core, _arrays(real))


def HT_DCPHASE(real):
    return _run(lambda x: [b['dc_phase'] for b in _hilbert(x, 34) if b['today'] >= 63]
                if len(x) > 63 else [], _arrays(real))


def HT_DCPERIOD(real):
    return _run(lambda x: [b['smooth_period'] for b in _hilbert(x, 9) if b['today'] >= 32]
                if len(x) > 32 else [], _arrays(real))


def HT_PHASOR(real):
    def core(x):
        if len(x) <= 32:
            return [], []
        bars = [b for b in _hilbert(x, 9) if b['today'] >= 32]
        return [b['i1'] for b in bars], [b['q1'] for b in bars]
    return _run(core, _arrays(real), 2)


def HT_TRENDMODE(real):
    """1 in a trend, 0 in a cycle, TA-Lib's rules: integers, 0 inside the 63-bar lookback."""
    def core(x):
        if len(x) <= 63:
            return []
        state, out = [0.0, 0.0, 0.0], []
        sine = lead = 0.0
        days = 0
        for b in _hilbert(x, 34):
            prev_sine, prev_lead = sine, lead
            sine = math.sin(b['dc_phase'] * _DEG2RAD)
            lead = math.sin((b['dc_phase'] + 45) * _DEG2RAD)
            line = _trend_line(x, b, state)
            trend = 1
            if (sine > lead and prev_sine <= prev_lead) or (sine < lead and prev_sine >= prev_lead):
                days = 0
                trend = 0
            days += 1
            sp = b['smooth_period']
            if days < 0.5 * sp:
                trend = 0
            change = b['dc_phase'] - b['prev_phase']
            if sp != 0.0 and 0.67 * 360.0 / sp < change < 1.5 * 360.0 / sp:
                trend = 0
            price = b['ring'][b['at']]
            if line != 0.0 and abs((price - line) / line) >= 0.015:
                trend = 1
            if b['today'] >= 63:
                out.append(float(trend))
        return out
    x = _arrays(real)[0]
    out = _run(core, [x])
    return np.where(np.isnan(out), 0, out).astype(np.int32)


def HT_SINE(real):
    return _run(_ht_sine_core, _arrays(real), n_out=2)


def MAMA(real, fastlimit=0.5, slowlimit=0.05):
    """Ehlers' MESA adaptive moving average and its following average, TA-Lib's: the step of the
    phase (from the Hilbert transform's in-phase and quadrature parts) sets alpha between the
    limits; a 32-bar lookback."""
    rad2deg = 180.0 / (4.0 * math.atan(1))

    def core(x):
        if len(x) <= 32:
            return [], []
        mama = fama = prev_phase = 0.0
        out_mama, out_fama = [], []
        for b in _hilbert(x, 9):
            phase = math.atan(b['q1'] / b['i1']) * rad2deg if b['i1'] != 0.0 else 0.0
            step = prev_phase - phase
            prev_phase = phase
            if step < 1.0:
                step = 1.0
            if step > 1.0:
                alpha = fastlimit / step
                if alpha < slowlimit:
                    alpha = slowlimit
            else:
                alpha = fastlimit
            value = x[b['today']]
            mama = (alpha * value) + ((1 - alpha) * mama)
            alpha *= 0.5
            fama = (alpha * mama) + ((1 - alpha) * fama)
            if b['today'] >= 32:
                out_mama.append(mama)
                out_fama.append(fama)
        return out_mama, out_fama
    return _run(core, _arrays(real), 2)


_OHLC = ('open', 'high', 'low', 'close')
FUNCTIONS = {
    'BOP': (_OHLC, (), ('real',)),
    'AVGPRICE': (_OHLC, (), ('real',)),
    'MEDPRICE': (('high', 'low'), (), ('real',)),
    'TYPPRICE': (('high', 'low', 'close'), (), ('real',)),
    'WCLPRICE': (('high', 'low', 'close'), (), ('real',)),
    'ROC': (('close',), (('timeperiod', 10),), ('real',)),
    'ROCP': (('close',), (('timeperiod', 10),), ('real',)),
    'ROCR': (('close',), (('timeperiod', 10),), ('real',)),
    'ROCR100': (('close',), (('timeperiod', 10),), ('real',)),
    'SUM': (('close',), (('timeperiod', 30),), ('real',)),
    'MIDPOINT': (('close',), (('timeperiod', 14),), ('real',)),
    'MIDPRICE': (('high', 'low'), (('timeperiod', 14),), ('real',)),
    'WILLR': (('high', 'low', 'close'), (('timeperiod', 14),), ('real',)),
    'HT_SINE': (('close',), (), ('sine', 'leadsine')),
    'HT_TRENDLINE': (('close',), (), ('real',)),
    'HT_DCPHASE': (('close',), (), ('real',)),
    'HT_DCPERIOD': (('close',), (), ('real',)),
    'HT_PHASOR': (('close',), (), ('inphase', 'quadrature')),
    'HT_TRENDMODE': (('close',), (), ('integer',)),
    'MAMA': (('close',), (('fastlimit', 0.5), ('slowlimit', 0.05)), ('mama', 'fama')),
}
