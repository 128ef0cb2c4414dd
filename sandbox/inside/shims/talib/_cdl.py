"""TA-Lib's candlestick patterns, written from TA-Lib's C definitions: a candle's body, shadows
and range compared with TA-Lib's default candle settings (the average of the same measure over
the candles before it, kept as a running total exactly as TA-Lib keeps it), the same lookback,
and an integer answer per bar (100 bullish, -100 bearish, 0 none; 0 inside the lookback, as
TA-Lib's Python wrapper fills it)."""
import numpy as np

from talib._ta import _arrays, _begin

# setting: (range measured, candles averaged, factor), TA-Lib's TA_CandleDefaultSettings
SETTINGS = {
    'BodyLong': ('body', 10, 1.0), 'BodyVeryLong': ('body', 10, 3.0),
    'BodyShort': ('body', 10, 1.0), 'BodyDoji': ('hl', 10, 0.1),
    'ShadowLong': ('body', 0, 1.0), 'ShadowVeryLong': ('body', 0, 2.0),
    'ShadowShort': ('shadows', 10, 1.0), 'ShadowVeryShort': ('hl', 10, 0.1),
    'Near': ('hl', 5, 0.2), 'Far': ('hl', 5, 0.6), 'Equal': ('hl', 5, 0.05),
}


class _Candles:
    def __init__(self, o, h, l, c):
        self.o, self.h, self.l, self.c = o, h, l, c
        self.n = len(c)

    def body(self, i):
        return abs(self.c[i] - self.o[i])

    def upper(self, i):
        return self.h[i] - (self.c[i] if self.c[i] >= self.o[i] else self.o[i])

    def lower(self, i):
        return (self.o[i] if self.c[i] >= self.o[i] else self.c[i]) - self.l[i]

    def colour(self, i):
        return 1 if self.c[i] >= self.o[i] else -1

    def gap_up(self, i, j):
        """candle i's body wholly above candle j's"""
        return min(self.o[i], self.c[i]) > max(self.o[j], self.c[j])

    def gap_down(self, i, j):
        return max(self.o[i], self.c[i]) < min(self.o[j], self.c[j])

    def candle_gap_up(self, i, j):
        """candle i wholly above candle j, shadows included"""
        return self.l[i] > self.h[j]

    def candle_gap_down(self, i, j):
        return self.h[i] < self.l[j]

    def measure(self, kind, i):
        if kind == 'body':
            return self.body(i)
        if kind == 'hl':
            return self.h[i] - self.l[i]
        return self.upper(i) + self.lower(i)


class _Average:
    """One candle setting's average for candle i - lag, over the candles before it, as TA-Lib's
    running total (summed from the first output bar's window on, then one in, one out)."""

    def __init__(self, cd, name, start, lag=0):
        self.cd, (self.kind, self.period, self.factor) = cd, SETTINGS[name]
        self.lag = lag
        self.trail = start - lag - self.period
        self.total = 0.0
        for j in range(self.trail, start - lag):
            self.total += cd.measure(self.kind, j)

    def at(self, i):
        v = self.total / self.period if self.period else self.cd.measure(self.kind, i - self.lag)
        return self.factor * v / (2.0 if self.kind == 'shadows' else 1.0)

    def step(self, i):
        m = self.cd.measure
        self.total += m(self.kind, i - self.lag) - m(self.kind, self.trail)
        self.trail += 1


def _period(*names):
    return max(SETTINGS[name][1] for name in names)


def _pattern(o, h, l, c, start, uses, test):
    """test(cd, i, avg) per bar from TA-Lib's lookback start on; avg[k] is the k-th of uses
    (setting, lag: the candle it is measured for is i - lag)"""
    o, h, l, c = _arrays(o, h, l, c)
    n = len(c)
    out = np.zeros(n, dtype=np.int32)
    b = _begin([o, h, l, c])
    cd = _Candles(*(a[b:].tolist() for a in (o, h, l, c)))
    if cd.n <= start:
        return out
    avg = [_Average(cd, name, start, lag) for name, lag in uses]
    for i in range(start, cd.n):
        out[b + i] = test(cd, i, avg)
        for a in avg:
            a.step(i)
    return out


_INPUTS = ('open', 'high', 'low', 'close')
_HAMMER = _period('BodyShort', 'ShadowLong', 'ShadowVeryShort', 'Near') + 1
_STAR = _period('BodyShort', 'ShadowLong', 'ShadowVeryShort') + 1
_DOJI = _period('BodyDoji', 'ShadowVeryShort')


def _hammer_shape(cd, i, avg, long_shadow, short_shadow):
    return (cd.body(i) < avg[0].at(i) and long_shadow(i) > avg[1].at(i)
            and short_shadow(i) < avg[2].at(i))


def CDLHAMMER(open, high, low, close):
    def test(cd, i, avg):
        return 100 if (_hammer_shape(cd, i, avg, cd.lower, cd.upper)
                       and min(cd.c[i], cd.o[i]) <= cd.l[i - 1] + avg[3].at(i)) else 0
    return _pattern(open, high, low, close, _HAMMER, (('BodyShort', 0), ('ShadowLong', 0),
                                                      ('ShadowVeryShort', 0), ('Near', 1)), test)


def CDLHANGINGMAN(open, high, low, close):
    def test(cd, i, avg):
        return -100 if (_hammer_shape(cd, i, avg, cd.lower, cd.upper)
                        and min(cd.c[i], cd.o[i]) >= cd.h[i - 1] - avg[3].at(i)) else 0
    return _pattern(open, high, low, close, _HAMMER, (('BodyShort', 0), ('ShadowLong', 0),
                                                      ('ShadowVeryShort', 0), ('Near', 1)), test)


def CDLINVERTEDHAMMER(open, high, low, close):
    def test(cd, i, avg):
        return 100 if (_hammer_shape(cd, i, avg, cd.upper, cd.lower)
                       and cd.gap_down(i, i - 1)) else 0
    return _pattern(open, high, low, close, _STAR, (('BodyShort', 0), ('ShadowLong', 0),
                                                    ('ShadowVeryShort', 0)), test)


def CDLSHOOTINGSTAR(open, high, low, close):
    def test(cd, i, avg):
        return -100 if (_hammer_shape(cd, i, avg, cd.upper, cd.lower)
                        and cd.gap_up(i, i - 1)) else 0
    return _pattern(open, high, low, close, _STAR, (('BodyShort', 0), ('ShadowLong', 0),
                                                    ('ShadowVeryShort', 0)), test)


def CDLDOJI(open, high, low, close):
    return _pattern(open, high, low, close, _period('BodyDoji'), (('BodyDoji', 0),),
                    lambda cd, i, avg: 100 if cd.body(i) <= avg[0].at(i) else 0)


def CDLDRAGONFLYDOJI(open, high, low, close):
    def test(cd, i, avg):
        return 100 if (cd.body(i) <= avg[0].at(i) and cd.upper(i) < avg[1].at(i)
                       and cd.lower(i) > avg[1].at(i)) else 0
    return _pattern(open, high, low, close, _DOJI, (('BodyDoji', 0), ('ShadowVeryShort', 0)), test)


def CDLGRAVESTONEDOJI(open, high, low, close):
    def test(cd, i, avg):
        return 100 if (cd.body(i) <= avg[0].at(i) and cd.lower(i) < avg[1].at(i)
                       and cd.upper(i) > avg[1].at(i)) else 0
    return _pattern(open, high, low, close, _DOJI, (('BodyDoji', 0), ('ShadowVeryShort', 0)), test)


def CDLENGULFING(open, high, low, close):
    def test(cd, i, avg):
        o, c = cd.o, cd.c
        if cd.colour(i) == 1 and cd.colour(i - 1) == -1 and (
                (c[i] >= o[i - 1] and o[i] < c[i - 1]) or (c[i] > o[i - 1] and o[i] <= c[i - 1])):
            return 100 if (o[i] != c[i - 1] and c[i] != o[i - 1]) else 80
        if cd.colour(i) == -1 and cd.colour(i - 1) == 1 and (
                (o[i] >= c[i - 1] and c[i] < o[i - 1]) or (o[i] > c[i - 1] and c[i] <= o[i - 1])):
            return -100 if (o[i] != c[i - 1] and c[i] != o[i - 1]) else -80
        return 0
    return _pattern(open, high, low, close, 2, (), test)


def _body_in(cd, inner, outer):
    """inner's body strictly within outer's"""
    return (max(cd.c[inner], cd.o[inner]) < max(cd.c[outer], cd.o[outer]) and
            min(cd.c[inner], cd.o[inner]) > min(cd.c[outer], cd.o[outer]))


def CDLPIERCING(open, high, low, close):
    def test(cd, i, avg):
        return 100 if (cd.colour(i - 1) == -1 and cd.body(i - 1) > avg[0].at(i) and
                       cd.colour(i) == 1 and cd.body(i) > avg[1].at(i) and
                       cd.o[i] < cd.l[i - 1] and cd.c[i] < cd.o[i - 1] and
                       cd.c[i] > cd.c[i - 1] + cd.body(i - 1) * 0.5) else 0
    return _pattern(open, high, low, close, _period('BodyLong') + 1,
                    (('BodyLong', 1), ('BodyLong', 0)), test)


def CDLDARKCLOUDCOVER(open, high, low, close, penetration=0.5):
    def test(cd, i, avg):
        return -100 if (cd.colour(i - 1) == 1 and cd.body(i - 1) > avg[0].at(i) and
                        cd.colour(i) == -1 and cd.o[i] > cd.h[i - 1] and cd.c[i] > cd.o[i - 1] and
                        cd.c[i] < cd.c[i - 1] - cd.body(i - 1) * penetration) else 0
    return _pattern(open, high, low, close, _period('BodyLong') + 1, (('BodyLong', 1),), test)


def CDLSPINNINGTOP(open, high, low, close):
    def test(cd, i, avg):
        return cd.colour(i) * 100 if (cd.body(i) < avg[0].at(i) and cd.upper(i) > cd.body(i) and
                                      cd.lower(i) > cd.body(i)) else 0
    return _pattern(open, high, low, close, _period('BodyShort'), (('BodyShort', 0),), test)


def _harami(second):
    """CDLHARAMI (second 'BodyShort') and CDLHARAMICROSS ('BodyDoji'): a long candle, then one of
    that size inside its body."""
    def fn(open, high, low, close):
        def test(cd, i, avg):
            return -cd.colour(i - 1) * 100 if (cd.body(i - 1) > avg[0].at(i) and
                                               cd.body(i) <= avg[1].at(i) and
                                               _body_in(cd, i, i - 1)) else 0
        return _pattern(open, high, low, close, _period(second, 'BodyLong') + 1,
                        (('BodyLong', 1), (second, 0)), test)
    return fn


CDLHARAMI, CDLHARAMICROSS = _harami('BodyShort'), _harami('BodyDoji')


def CDL3INSIDE(open, high, low, close):
    def test(cd, i, avg):
        third = ((cd.colour(i - 2) == 1 and cd.colour(i) == -1 and cd.c[i] < cd.o[i - 2]) or
                 (cd.colour(i - 2) == -1 and cd.colour(i) == 1 and cd.c[i] > cd.o[i - 2]))
        return -cd.colour(i - 2) * 100 if (cd.body(i - 2) > avg[0].at(i) and
                                           cd.body(i - 1) <= avg[1].at(i) and
                                           _body_in(cd, i - 1, i - 2) and third) else 0
    return _pattern(open, high, low, close, _period('BodyShort', 'BodyLong') + 2,
                    (('BodyLong', 2), ('BodyShort', 1)), test)


def CDL3OUTSIDE(open, high, low, close):
    def test(cd, i, avg):
        o, c, col = cd.o, cd.c, cd.colour
        up = (col(i - 1) == 1 and col(i - 2) == -1 and c[i - 1] > o[i - 2] and o[i - 1] < c[i - 2]
              and c[i] > c[i - 1])
        down = (col(i - 1) == -1 and col(i - 2) == 1 and o[i - 1] > c[i - 2] and c[i - 1] < o[i - 2]
                and c[i] < c[i - 1])
        return col(i - 1) * 100 if (up or down) else 0
    return _pattern(open, high, low, close, 3, (), test)


def _star(sign, middle):
    """CDLMORNINGSTAR (sign 1) and CDLEVENINGSTAR (sign -1), middle 'BodyShort'; their doji
    stars, middle 'BodyDoji': a long candle against the move, a small one gapping away from it,
    a third longer than short closing well into the first."""
    def fn(open, high, low, close, penetration=0.3):
        def test(cd, i, avg):
            gap = cd.gap_down(i - 1, i - 2) if sign > 0 else cd.gap_up(i - 1, i - 2)
            into = (cd.c[i] > cd.c[i - 2] + cd.body(i - 2) * penetration if sign > 0 else
                    cd.c[i] < cd.c[i - 2] - cd.body(i - 2) * penetration)
            return sign * 100 if (cd.body(i - 2) > avg[0].at(i) and cd.colour(i - 2) == -sign and
                                  cd.body(i - 1) <= avg[1].at(i) and gap and
                                  cd.body(i) > avg[2].at(i) and cd.colour(i) == sign and into) else 0
        return _pattern(open, high, low, close, _period(middle, 'BodyLong', 'BodyShort') + 2,
                        (('BodyLong', 2), (middle, 1), ('BodyShort', 0)), test)
    return fn


CDLMORNINGSTAR, CDLEVENINGSTAR = _star(1, 'BodyShort'), _star(-1, 'BodyShort')


def _one_candle(start_names, uses, rule):
    """A one-candle pattern: rule(cd, i, avg) gives its answer; lookback the longest average."""
    def fn(open, high, low, close):
        return _pattern(open, high, low, close, _period(*start_names), uses, rule)
    return fn


CDLMARUBOZU = _one_candle(
    ('BodyLong', 'ShadowVeryShort'), (('BodyLong', 0), ('ShadowVeryShort', 0)),
    lambda cd, i, a: cd.colour(i) * 100 if (cd.body(i) > a[0].at(i) and cd.upper(i) < a[1].at(i)
                                            and cd.lower(i) < a[1].at(i)) else 0)
CDLLONGLINE = _one_candle(
    ('BodyLong', 'ShadowShort'), (('BodyLong', 0), ('ShadowShort', 0)),
    lambda cd, i, a: cd.colour(i) * 100 if (cd.body(i) > a[0].at(i) and cd.upper(i) < a[1].at(i)
                                            and cd.lower(i) < a[1].at(i)) else 0)
CDLSHORTLINE = _one_candle(
    ('BodyShort', 'ShadowShort'), (('BodyShort', 0), ('ShadowShort', 0)),
    lambda cd, i, a: cd.colour(i) * 100 if (cd.body(i) < a[0].at(i) and cd.upper(i) < a[1].at(i)
                                            and cd.lower(i) < a[1].at(i)) else 0)
CDLHIGHWAVE = _one_candle(
    ('BodyShort', 'ShadowVeryLong'), (('BodyShort', 0), ('ShadowVeryLong', 0)),
    lambda cd, i, a: cd.colour(i) * 100 if (cd.body(i) < a[0].at(i) and cd.upper(i) > a[1].at(i)
                                            and cd.lower(i) > a[1].at(i)) else 0)
CDLLONGLEGGEDDOJI = _one_candle(
    ('BodyDoji', 'ShadowLong'), (('BodyDoji', 0), ('ShadowLong', 0)),
    lambda cd, i, a: 100 if (cd.body(i) <= a[0].at(i) and (cd.lower(i) > a[1].at(i) or
                                                          cd.upper(i) > a[1].at(i))) else 0)
CDLTAKURI = _one_candle(
    ('BodyDoji', 'ShadowVeryShort', 'ShadowVeryLong'),
    (('BodyDoji', 0), ('ShadowVeryShort', 0), ('ShadowVeryLong', 0)),
    lambda cd, i, a: 100 if (cd.body(i) <= a[0].at(i) and cd.upper(i) < a[1].at(i) and
                             cd.lower(i) > a[2].at(i)) else 0)


def _rickshaw(cd, i, a):
    mid = cd.l[i] + (cd.h[i] - cd.l[i]) / 2
    return 100 if (cd.body(i) <= a[0].at(i) and cd.lower(i) > a[1].at(i) and cd.upper(i) > a[1].at(i)
                   and min(cd.o[i], cd.c[i]) <= mid + a[2].at(i)
                   and max(cd.o[i], cd.c[i]) >= mid - a[2].at(i)) else 0


CDLRICKSHAWMAN = _one_candle(('BodyDoji', 'ShadowLong', 'Near'),
                             (('BodyDoji', 0), ('ShadowLong', 0), ('Near', 0)), _rickshaw)


def _marubozu_end(cd, i, a, opening):
    """BELTHOLD (opening: no shadow at the open) and CLOSINGMARUBOZU (none at the close)."""
    if cd.body(i) <= a[0].at(i):
        return 0
    white = cd.lower(i) if opening else cd.upper(i)
    black = cd.upper(i) if opening else cd.lower(i)
    if (cd.colour(i) == 1 and white < a[1].at(i)) or (cd.colour(i) == -1 and black < a[1].at(i)):
        return cd.colour(i) * 100
    return 0


CDLBELTHOLD = _one_candle(('BodyLong', 'ShadowVeryShort'), (('BodyLong', 0), ('ShadowVeryShort', 0)),
                          lambda cd, i, a: _marubozu_end(cd, i, a, True))
CDLCLOSINGMARUBOZU = _one_candle(('BodyLong', 'ShadowVeryShort'),
                                 (('BodyLong', 0), ('ShadowVeryShort', 0)),
                                 lambda cd, i, a: _marubozu_end(cd, i, a, False))


def CDLDOJISTAR(open, high, low, close):
    def test(cd, i, avg):
        gap = ((cd.colour(i - 1) == 1 and cd.gap_up(i, i - 1)) or
               (cd.colour(i - 1) == -1 and cd.gap_down(i, i - 1)))
        return -cd.colour(i - 1) * 100 if (cd.body(i - 1) > avg[0].at(i) and
                                           cd.body(i) <= avg[1].at(i) and gap) else 0
    return _pattern(open, high, low, close, _period('BodyDoji', 'BodyLong') + 1,
                    (('BodyLong', 1), ('BodyDoji', 0)), test)


def CDL2CROWS(open, high, low, close):
    def test(cd, i, avg):
        o, c = cd.o, cd.c
        return -100 if (cd.colour(i - 2) == 1 and cd.body(i - 2) > avg[0].at(i) and
                        cd.colour(i - 1) == -1 and cd.gap_up(i - 1, i - 2) and cd.colour(i) == -1 and
                        o[i - 1] > o[i] > c[i - 1] and o[i - 2] < c[i] < c[i - 2]) else 0
    return _pattern(open, high, low, close, _period('BodyLong') + 2, (('BodyLong', 2),), test)


def CDL3BLACKCROWS(open, high, low, close):
    def test(cd, i, avg):
        o, c = cd.o, cd.c
        black = all(cd.colour(i - k) == -1 and cd.lower(i - k) < avg[k].at(i) for k in (2, 1, 0))
        return -100 if (cd.colour(i - 3) == 1 and black and
                        o[i - 2] > o[i - 1] > c[i - 2] and o[i - 1] > o[i] > c[i - 1] and
                        cd.h[i - 3] > c[i - 2] and c[i - 2] > c[i - 1] > c[i]) else 0
    return _pattern(open, high, low, close, _period('ShadowVeryShort') + 3,
                    (('ShadowVeryShort', 0), ('ShadowVeryShort', 1), ('ShadowVeryShort', 2)), test)


def CDL3LINESTRIKE(open, high, low, close):
    def test(cd, i, avg):
        o, c, col = cd.o, cd.c, cd.colour
        near3, near2 = avg[0].at(i), avg[1].at(i)
        if not (col(i - 3) == col(i - 2) == col(i - 1) and col(i) == -col(i - 1) and
                min(o[i - 3], c[i - 3]) - near3 <= o[i - 2] <= max(o[i - 3], c[i - 3]) + near3 and
                min(o[i - 2], c[i - 2]) - near2 <= o[i - 1] <= max(o[i - 2], c[i - 2]) + near2):
            return 0
        up = (col(i - 1) == 1 and c[i - 1] > c[i - 2] > c[i - 3] and o[i] > c[i - 1] and
              c[i] < o[i - 3])
        down = (col(i - 1) == -1 and c[i - 1] < c[i - 2] < c[i - 3] and o[i] < c[i - 1] and
                c[i] > o[i - 3])
        return col(i - 1) * 100 if (up or down) else 0
    return _pattern(open, high, low, close, _period('Near') + 3, (('Near', 3), ('Near', 2)), test)


def CDL3WHITESOLDIERS(open, high, low, close):
    def test(cd, i, avg):
        o, c = cd.o, cd.c
        svs, near, far, short = avg[0:3], avg[3:5], avg[5:7], avg[7]
        white = all(cd.colour(i - k) == 1 and cd.upper(i - k) < svs[2 - k].at(i) for k in (2, 1, 0))
        return 100 if (white and c[i] > c[i - 1] > c[i - 2] and
                       o[i - 1] > o[i - 2] and o[i - 1] <= c[i - 2] + near[0].at(i) and
                       o[i] > o[i - 1] and o[i] <= c[i - 1] + near[1].at(i) and
                       cd.body(i - 1) > cd.body(i - 2) - far[0].at(i) and
                       cd.body(i) > cd.body(i - 1) - far[1].at(i) and
                       cd.body(i) > short.at(i)) else 0
    return _pattern(open, high, low, close,
                    _period('ShadowVeryShort', 'BodyShort', 'Far', 'Near') + 2,
                    (('ShadowVeryShort', 2), ('ShadowVeryShort', 1), ('ShadowVeryShort', 0),
                     ('Near', 2), ('Near', 1), ('Far', 2), ('Far', 1), ('BodyShort', 0)), test)


CDLMORNINGDOJISTAR, CDLEVENINGDOJISTAR = _star(1, 'BodyDoji'), _star(-1, 'BodyDoji')


def CDLUPSIDEGAP2CROWS(open, high, low, close):
    def test(cd, i, avg):
        return -100 if (cd.colour(i - 2) == 1 and cd.body(i - 2) > avg[0].at(i) and
                        cd.colour(i - 1) == -1 and cd.body(i - 1) <= avg[1].at(i) and
                        cd.gap_up(i - 1, i - 2) and cd.colour(i) == -1 and cd.o[i] > cd.o[i - 1] and
                        cd.c[i] < cd.c[i - 1] and cd.c[i] > cd.c[i - 2]) else 0
    return _pattern(open, high, low, close, _period('BodyShort', 'BodyLong') + 2,
                    (('BodyLong', 2), ('BodyShort', 1)), test)


def CDLMATHOLD(open, high, low, close, penetration=0.5):
    def test(cd, i, avg):
        o, c, h = cd.o, cd.c, cd.h
        floor = c[i - 4] - cd.body(i - 4) * penetration
        return 100 if (cd.body(i - 4) > avg[0].at(i) and cd.body(i - 3) < avg[1].at(i) and
                       cd.body(i - 2) < avg[2].at(i) and cd.body(i - 1) < avg[3].at(i) and
                       cd.colour(i - 4) == 1 and cd.colour(i - 3) == -1 and cd.colour(i) == 1 and
                       cd.gap_up(i - 3, i - 4) and
                       floor < min(o[i - 2], c[i - 2]) < c[i - 4] and
                       floor < min(o[i - 1], c[i - 1]) < c[i - 4] and
                       max(c[i - 2], o[i - 2]) < o[i - 3] and
                       max(c[i - 1], o[i - 1]) < max(c[i - 2], o[i - 2]) and
                       o[i] > c[i - 1] and c[i] > max(h[i - 3], h[i - 2], h[i - 1])) else 0
    return _pattern(open, high, low, close, _period('BodyShort', 'BodyLong') + 4,
                    (('BodyLong', 4), ('BodyShort', 3), ('BodyShort', 2), ('BodyShort', 1)), test)


def CDLLADDERBOTTOM(open, high, low, close):
    def test(cd, i, avg):
        o, c, col = cd.o, cd.c, cd.colour
        return 100 if (col(i - 4) == col(i - 3) == col(i - 2) == -1 and
                       o[i - 4] > o[i - 3] > o[i - 2] and c[i - 4] > c[i - 3] > c[i - 2] and
                       col(i - 1) == -1 and cd.upper(i - 1) > avg[0].at(i) and
                       col(i) == 1 and o[i] > o[i - 1] and c[i] > cd.h[i - 1]) else 0
    return _pattern(open, high, low, close, _period('ShadowVeryShort') + 4,
                    (('ShadowVeryShort', 1),), test)


def CDLSTALLEDPATTERN(open, high, low, close):
    def test(cd, i, avg):
        o, c, col = cd.o, cd.c, cd.colour
        long2, long1, svs1, near2, near1, short0 = avg
        return -100 if (col(i - 2) == col(i - 1) == col(i) == 1 and c[i] > c[i - 1] > c[i - 2] and
                        cd.body(i - 2) > long2.at(i) and cd.body(i - 1) > long1.at(i) and
                        cd.upper(i - 1) < svs1.at(i) and o[i - 1] > o[i - 2] and
                        o[i - 1] <= c[i - 2] + near2.at(i) and cd.body(i) < short0.at(i) and
                        o[i] >= c[i - 1] - cd.body(i) - near1.at(i)) else 0
    return _pattern(open, high, low, close,
                    _period('BodyLong', 'BodyShort', 'ShadowVeryShort', 'Near') + 2,
                    (('BodyLong', 2), ('BodyLong', 1), ('ShadowVeryShort', 1), ('Near', 2),
                     ('Near', 1), ('BodyShort', 0)), test)


def CDLRISEFALL3METHODS(open, high, low, close):
    def test(cd, i, avg):
        o, c, col = cd.o, cd.c, cd.colour
        d = col(i - 4)
        inside = all(min(o[k], c[k]) < cd.h[i - 4] and max(o[k], c[k]) > cd.l[i - 4]
                     for k in (i - 3, i - 2, i - 1))
        return 100 * d if (cd.body(i - 4) > avg[0].at(i) and cd.body(i - 3) < avg[1].at(i) and
                           cd.body(i - 2) < avg[2].at(i) and cd.body(i - 1) < avg[3].at(i) and
                           cd.body(i) > avg[4].at(i) and d == -col(i - 3) and
                           col(i - 3) == col(i - 2) == col(i - 1) and col(i - 1) == -col(i) and
                           inside and c[i - 2] * d < c[i - 3] * d and c[i - 1] * d < c[i - 2] * d and
                           o[i] * d > c[i - 1] * d and c[i] * d > c[i - 4] * d) else 0
    return _pattern(open, high, low, close, _period('BodyShort', 'BodyLong') + 4,
                    (('BodyLong', 4), ('BodyShort', 3), ('BodyShort', 2), ('BodyShort', 1),
                     ('BodyLong', 0)), test)


def _hikkake(open, high, low, close, first, start, setup, step=None):
    """The hikkake's state machine, TA-Lib's: from bar `first` on, a setup (setup(cd, i)) gives
    100 or -100 and is remembered; a close beyond the inside candle's range within 3 candles
    confirms it (200 / -200) and forgets it; answers from bar `start` on."""
    o, h, l, c = _arrays(open, high, low, close)
    out = np.zeros(len(c), dtype=np.int32)
    b = _begin([o, h, l, c])
    cd = _Candles(*(a[b:].tolist() for a in (o, h, l, c)))
    if cd.n <= start:
        return out
    H, L, C = cd.h, cd.l, cd.c
    idx = result = 0
    for i in range(first, cd.n):
        if setup(cd, i):
            result = 100 * (1 if H[i] < H[i - 1] else -1)
            idx = i
            value = result
        elif i <= idx + 3 and ((result > 0 and C[i] > H[idx - 1]) or
                               (result < 0 and C[i] < L[idx - 1])):
            value = result + 100 * (1 if result > 0 else -1)
            idx = 0
        else:
            value = 0
        if i >= start:
            out[b + i] = value
        if step:
            step(cd, i)
    return out


def _breaks_out(cd, i):
    """candle i-1 inside i-2, and candle i out of i-1 on one side"""
    H, L = cd.h, cd.l
    return H[i - 1] < H[i - 2] and L[i - 1] > L[i - 2] and (
        (H[i] < H[i - 1] and L[i] < L[i - 1]) or (H[i] > H[i - 1] and L[i] > L[i - 1]))


def CDLHIKKAKE(open, high, low, close):
    """An inside bar broken out of (100 up-false-break / -100), confirmed within 3 candles by a
    close beyond the inside bar's range (200 / -200); TA-Lib's state from 3 candles before."""
    return _hikkake(open, high, low, close, 2, 5, _breaks_out)


def CDL3STARSINSOUTH(open, high, low, close):
    def test(cd, i, avg):
        o, c, h, l = cd.o, cd.c, cd.h, cd.l
        long2, shadow_long2, svs1, svs0, short0 = avg
        return 100 if (cd.colour(i - 2) == cd.colour(i - 1) == cd.colour(i) == -1 and
                       cd.body(i - 2) > long2.at(i) and cd.lower(i - 2) > shadow_long2.at(i) and
                       cd.body(i - 1) < cd.body(i - 2) and c[i - 2] < o[i - 1] <= h[i - 2] and
                       l[i - 1] < c[i - 2] and l[i - 1] >= l[i - 2] and
                       cd.lower(i - 1) > svs1.at(i) and cd.body(i) < short0.at(i) and
                       cd.lower(i) < svs0.at(i) and cd.upper(i) < svs0.at(i) and
                       l[i] > l[i - 1] and h[i] < h[i - 1]) else 0
    return _pattern(open, high, low, close,
                    _period('ShadowVeryShort', 'ShadowLong', 'BodyLong', 'BodyShort') + 2,
                    (('BodyLong', 2), ('ShadowLong', 2), ('ShadowVeryShort', 1),
                     ('ShadowVeryShort', 0), ('BodyShort', 0)), test)


def CDLABANDONEDBABY(open, high, low, close, penetration=0.3):
    def test(cd, i, avg):
        c = cd.c
        if not (cd.body(i - 2) > avg[0].at(i) and cd.body(i - 1) <= avg[1].at(i) and
                cd.body(i) > avg[2].at(i)):
            return 0
        top = (cd.colour(i - 2) == 1 and cd.colour(i) == -1 and
               c[i] < c[i - 2] - cd.body(i - 2) * penetration and
               cd.candle_gap_up(i - 1, i - 2) and cd.candle_gap_down(i, i - 1))
        bottom = (cd.colour(i - 2) == -1 and cd.colour(i) == 1 and
                  c[i] > c[i - 2] + cd.body(i - 2) * penetration and
                  cd.candle_gap_down(i - 1, i - 2) and cd.candle_gap_up(i, i - 1))
        return cd.colour(i) * 100 if (top or bottom) else 0
    return _pattern(open, high, low, close, _period('BodyDoji', 'BodyLong', 'BodyShort') + 2,
                    (('BodyLong', 2), ('BodyDoji', 1), ('BodyShort', 0)), test)


def CDLADVANCEBLOCK(open, high, low, close):
    def test(cd, i, avg):
        o, c = cd.o, cd.c
        ss2, ss1, ss0, sl1, sl0, far2, far1, near2, near1, long2 = avg
        b0, b1, b2 = cd.body(i), cd.body(i - 1), cd.body(i - 2)
        if not (cd.colour(i - 2) == cd.colour(i - 1) == cd.colour(i) == 1 and
                c[i] > c[i - 1] > c[i - 2] and o[i - 1] > o[i - 2] and
                o[i - 1] <= c[i - 2] + near2.at(i) and o[i] > o[i - 1] and
                o[i] <= c[i - 1] + near1.at(i) and b2 > long2.at(i) and cd.upper(i - 2) < ss2.at(i)):
            return 0
        weakening = ((b1 < b2 - far2.at(i) and b0 < b1 + near1.at(i)) or
                     b0 < b1 - far1.at(i) or
                     (b0 < b1 < b2 and (cd.upper(i) > ss0.at(i) or cd.upper(i - 1) > ss1.at(i))) or
                     (b0 < b1 and cd.upper(i) > sl0.at(i)))
        return -100 if weakening else 0
    return _pattern(open, high, low, close,
                    _period('ShadowLong', 'ShadowShort', 'Far', 'Near', 'BodyLong') + 2,
                    (('ShadowShort', 2), ('ShadowShort', 1), ('ShadowShort', 0), ('ShadowLong', 1),
                     ('ShadowLong', 0), ('Far', 2), ('Far', 1), ('Near', 2), ('Near', 1),
                     ('BodyLong', 2)), test)


def CDLBREAKAWAY(open, high, low, close):
    def test(cd, i, avg):
        o, c, h, l, col = cd.o, cd.c, cd.h, cd.l, cd.colour
        if not (cd.body(i - 4) > avg[0].at(i) and col(i - 4) == col(i - 3) == col(i - 1) and
                col(i - 1) == -col(i)):
            return 0
        down = (col(i - 4) == -1 and cd.gap_down(i - 3, i - 4) and h[i - 2] < h[i - 3] and
                l[i - 2] < l[i - 3] and h[i - 1] < h[i - 2] and l[i - 1] < l[i - 2] and
                o[i - 3] < c[i] < c[i - 4])
        up = (col(i - 4) == 1 and cd.gap_up(i - 3, i - 4) and h[i - 2] > h[i - 3] and
              l[i - 2] > l[i - 3] and h[i - 1] > h[i - 2] and l[i - 1] > l[i - 2] and
              c[i - 4] < c[i] < o[i - 3])
        return col(i) * 100 if (down or up) else 0
    return _pattern(open, high, low, close, _period('BodyLong') + 4, (('BodyLong', 4),), test)


def CDLCONCEALBABYSWALL(open, high, low, close):
    def test(cd, i, avg):
        s3, s2, s1 = avg
        return 100 if (cd.colour(i - 3) == cd.colour(i - 2) == cd.colour(i - 1) == cd.colour(i) == -1
                       and cd.lower(i - 3) < s3.at(i) and cd.upper(i - 3) < s3.at(i)
                       and cd.lower(i - 2) < s2.at(i) and cd.upper(i - 2) < s2.at(i)
                       and cd.gap_down(i - 1, i - 2) and cd.upper(i - 1) > s1.at(i)
                       and cd.h[i - 1] > cd.c[i - 2] and cd.h[i] > cd.h[i - 1]
                       and cd.l[i] < cd.l[i - 1]) else 0
    return _pattern(open, high, low, close, _period('ShadowVeryShort') + 3,
                    (('ShadowVeryShort', 3), ('ShadowVeryShort', 2), ('ShadowVeryShort', 1)), test)


def CDLCOUNTERATTACK(open, high, low, close):
    def test(cd, i, avg):
        equal, long1, long0 = avg
        return cd.colour(i) * 100 if (cd.colour(i - 1) == -cd.colour(i) and
                                      cd.body(i - 1) > long1.at(i) and cd.body(i) > long0.at(i) and
                                      cd.c[i - 1] - equal.at(i) <= cd.c[i] <= cd.c[i - 1] + equal.at(i)
                                      ) else 0
    return _pattern(open, high, low, close, _period('Equal', 'BodyLong') + 1,
                    (('Equal', 1), ('BodyLong', 1), ('BodyLong', 0)), test)


def CDLGAPSIDESIDEWHITE(open, high, low, close):
    def test(cd, i, avg):
        near, equal = avg
        up = cd.gap_up(i - 1, i - 2) and cd.gap_up(i, i - 2)
        down = cd.gap_down(i - 1, i - 2) and cd.gap_down(i, i - 2)
        if ((up or down) and cd.colour(i - 1) == 1 and cd.colour(i) == 1 and
                cd.body(i - 1) - near.at(i) <= cd.body(i) <= cd.body(i - 1) + near.at(i) and
                cd.o[i - 1] - equal.at(i) <= cd.o[i] <= cd.o[i - 1] + equal.at(i)):
            return 100 if cd.gap_up(i - 1, i - 2) else -100
        return 0
    return _pattern(open, high, low, close, _period('Near', 'Equal') + 2,
                    (('Near', 1), ('Equal', 1)), test)


def CDLHOMINGPIGEON(open, high, low, close):
    def test(cd, i, avg):
        return 100 if (cd.colour(i - 1) == -1 and cd.colour(i) == -1 and
                       cd.body(i - 1) > avg[0].at(i) and cd.body(i) <= avg[1].at(i) and
                       cd.o[i] < cd.o[i - 1] and cd.c[i] > cd.c[i - 1]) else 0
    return _pattern(open, high, low, close, _period('BodyShort', 'BodyLong') + 1,
                    (('BodyLong', 1), ('BodyShort', 0)), test)


def CDLIDENTICAL3CROWS(open, high, low, close):
    def test(cd, i, avg):
        s2, s1, s0, e2, e1 = avg
        o, c = cd.o, cd.c
        return -100 if (cd.colour(i - 2) == -1 and cd.lower(i - 2) < s2.at(i) and
                        cd.colour(i - 1) == -1 and cd.lower(i - 1) < s1.at(i) and
                        cd.colour(i) == -1 and cd.lower(i) < s0.at(i) and
                        c[i - 2] > c[i - 1] > c[i] and
                        c[i - 2] - e2.at(i) <= o[i - 1] <= c[i - 2] + e2.at(i) and
                        c[i - 1] - e1.at(i) <= o[i] <= c[i - 1] + e1.at(i)) else 0
    return _pattern(open, high, low, close, _period('ShadowVeryShort', 'Equal') + 2,
                    (('ShadowVeryShort', 2), ('ShadowVeryShort', 1), ('ShadowVeryShort', 0),
                     ('Equal', 2), ('Equal', 1)), test)


def _neck(close_ok):
    """CDLINNECK, CDLONNECK and CDLTHRUSTING: a long black candle, then a white one opening below
    its low whose close close_ok(cd, i, equal) places."""
    def fn(open, high, low, close):
        def test(cd, i, avg):
            return -100 if (cd.colour(i - 1) == -1 and cd.body(i - 1) > avg[1].at(i) and
                            cd.colour(i) == 1 and cd.o[i] < cd.l[i - 1] and
                            close_ok(cd, i, avg[0].at(i))) else 0
        return _pattern(open, high, low, close, _period('Equal', 'BodyLong') + 1,
                        (('Equal', 1), ('BodyLong', 1)), test)
    return fn


CDLINNECK = _neck(lambda cd, i, eq: cd.c[i - 1] <= cd.c[i] <= cd.c[i - 1] + eq)
CDLONNECK = _neck(lambda cd, i, eq: cd.l[i - 1] - eq <= cd.c[i] <= cd.l[i - 1] + eq)
CDLTHRUSTING = _neck(lambda cd, i, eq: cd.c[i - 1] + eq < cd.c[i] <= cd.c[i - 1] + cd.body(i - 1) * 0.5)


def _kicking(by_length):
    def fn(open, high, low, close):
        def test(cd, i, avg):
            s1, s0, l1, l0 = avg
            if not (cd.colour(i - 1) == -cd.colour(i) and cd.body(i - 1) > l1.at(i) and
                    cd.upper(i - 1) < s1.at(i) and cd.lower(i - 1) < s1.at(i) and
                    cd.body(i) > l0.at(i) and cd.upper(i) < s0.at(i) and cd.lower(i) < s0.at(i) and
                    ((cd.colour(i - 1) == -1 and cd.candle_gap_up(i, i - 1)) or
                     (cd.colour(i - 1) == 1 and cd.candle_gap_down(i, i - 1)))):
                return 0
            if by_length:
                return cd.colour(i if cd.body(i) > cd.body(i - 1) else i - 1) * 100
            return cd.colour(i) * 100
        return _pattern(open, high, low, close, _period('ShadowVeryShort', 'BodyLong') + 1,
                        (('ShadowVeryShort', 1), ('ShadowVeryShort', 0), ('BodyLong', 1),
                         ('BodyLong', 0)), test)
    return fn


CDLKICKING, CDLKICKINGBYLENGTH = _kicking(False), _kicking(True)


def CDLMATCHINGLOW(open, high, low, close):
    def test(cd, i, avg):
        eq = avg[0].at(i)
        return 100 if (cd.colour(i - 1) == -1 and cd.colour(i) == -1 and
                       cd.c[i - 1] - eq <= cd.c[i] <= cd.c[i - 1] + eq) else 0
    return _pattern(open, high, low, close, _period('Equal') + 1, (('Equal', 1),), test)


def CDLSEPARATINGLINES(open, high, low, close):
    def test(cd, i, avg):
        svs, long0, eq = avg[0].at(i), avg[1].at(i), avg[2].at(i)
        col = cd.colour(i)
        return col * 100 if (cd.colour(i - 1) == -col and
                             cd.o[i - 1] - eq <= cd.o[i] <= cd.o[i - 1] + eq and cd.body(i) > long0 and
                             ((col == 1 and cd.lower(i) < svs) or (col == -1 and cd.upper(i) < svs))
                             ) else 0
    return _pattern(open, high, low, close, _period('ShadowVeryShort', 'BodyLong', 'Equal') + 1,
                    (('ShadowVeryShort', 0), ('BodyLong', 0), ('Equal', 1)), test)


def CDLSTICKSANDWICH(open, high, low, close):
    def test(cd, i, avg):
        eq = avg[0].at(i)
        return 100 if (cd.colour(i - 2) == -1 and cd.colour(i - 1) == 1 and cd.colour(i) == -1 and
                       cd.l[i - 1] > cd.c[i - 2] and
                       cd.c[i - 2] - eq <= cd.c[i] <= cd.c[i - 2] + eq) else 0
    return _pattern(open, high, low, close, _period('Equal') + 2, (('Equal', 2),), test)


def CDLTASUKIGAP(open, high, low, close):
    def test(cd, i, avg):
        o, c = cd.o, cd.c
        near = avg[0].at(i)
        close_bodies = abs(cd.body(i - 1) - cd.body(i)) < near
        up = (cd.gap_up(i - 1, i - 2) and cd.colour(i - 1) == 1 and cd.colour(i) == -1 and
              o[i - 1] < o[i] < c[i - 1] and c[i] < o[i - 1] and c[i] > max(c[i - 2], o[i - 2]) and
              close_bodies)
        down = (cd.gap_down(i - 1, i - 2) and cd.colour(i - 1) == -1 and cd.colour(i) == 1 and
                c[i - 1] < o[i] < o[i - 1] and c[i] > o[i - 1] and c[i] < min(c[i - 2], o[i - 2]) and
                close_bodies)
        return cd.colour(i - 1) * 100 if (up or down) else 0
    return _pattern(open, high, low, close, _period('Near') + 2, (('Near', 1),), test)


def CDLTRISTAR(open, high, low, close):
    def test(cd, i, avg):
        doji = avg[0].at(i)
        if not (cd.body(i - 2) <= doji and cd.body(i - 1) <= doji and cd.body(i) <= doji):
            return 0
        out = 0
        if cd.gap_up(i - 1, i - 2) and max(cd.o[i], cd.c[i]) < max(cd.o[i - 1], cd.c[i - 1]):
            out = -100
        if cd.gap_down(i - 1, i - 2) and min(cd.o[i], cd.c[i]) > min(cd.o[i - 1], cd.c[i - 1]):
            out = 100
        return out
    return _pattern(open, high, low, close, _period('BodyDoji') + 2, (('BodyDoji', 2),), test)


def CDLUNIQUE3RIVER(open, high, low, close):
    def test(cd, i, avg):
        o, c, l = cd.o, cd.c, cd.l
        return 100 if (cd.body(i - 2) > avg[0].at(i) and cd.colour(i - 2) == -1 and
                       cd.colour(i - 1) == -1 and c[i - 1] > c[i - 2] and o[i - 1] <= o[i - 2] and
                       l[i - 1] < l[i - 2] and cd.body(i) < avg[1].at(i) and cd.colour(i) == 1 and
                       o[i] > l[i - 1]) else 0
    return _pattern(open, high, low, close, _period('BodyShort', 'BodyLong') + 2,
                    (('BodyLong', 2), ('BodyShort', 0)), test)


def CDLXSIDEGAP3METHODS(open, high, low, close):
    def test(cd, i, avg):
        o, c, col = cd.o, cd.c, cd.colour
        return col(i - 2) * 100 if (col(i - 2) == col(i - 1) and col(i - 1) == -col(i) and
                                    min(c[i - 1], o[i - 1]) < o[i] < max(c[i - 1], o[i - 1]) and
                                    min(c[i - 2], o[i - 2]) < c[i] < max(c[i - 2], o[i - 2]) and
                                    ((col(i - 2) == 1 and cd.gap_up(i - 1, i - 2)) or
                                     (col(i - 2) == -1 and cd.gap_down(i - 1, i - 2)))) else 0
    return _pattern(open, high, low, close, 2, (), test)


def CDLHIKKAKEMOD(open, high, low, close):
    """Modified hikkake: two nested inside candles, the second closing near its low (or high),
    then a false break (100 / -100), confirmed within 3 candles (200 / -200); TA-Lib's state
    from 3 candles before the lookback."""
    start = max(1, SETTINGS['Near'][1]) + 5
    near = []

    def setup(cd, i):
        if not near:
            near.append(_Average(cd, 'Near', start - 3, lag=2))
        H, L, C = cd.h, cd.l, cd.c
        return (H[i - 2] < H[i - 3] and L[i - 2] > L[i - 3] and _breaks_out(cd, i) and
                ((H[i] < H[i - 1] and C[i - 2] <= L[i - 2] + near[0].at(i)) or
                 (H[i] > H[i - 1] and C[i - 2] >= H[i - 2] - near[0].at(i))))
    return _hikkake(open, high, low, close, start - 3, start, setup,
                    lambda cd, i: near[0].step(i))


PATTERNS = ('CDLHAMMER', 'CDLHANGINGMAN', 'CDLINVERTEDHAMMER', 'CDLSHOOTINGSTAR', 'CDLDOJI',
            'CDLDRAGONFLYDOJI', 'CDLGRAVESTONEDOJI', 'CDLENGULFING', 'CDLPIERCING', 'CDLSPINNINGTOP',
            'CDLHARAMI', 'CDL3INSIDE', 'CDL3OUTSIDE', 'CDLMARUBOZU', 'CDLLONGLINE', 'CDLSHORTLINE',
            'CDLHIGHWAVE', 'CDLLONGLEGGEDDOJI', 'CDLTAKURI', 'CDLRICKSHAWMAN', 'CDLBELTHOLD',
            'CDLCLOSINGMARUBOZU', 'CDLHARAMICROSS', 'CDLDOJISTAR', 'CDL2CROWS', 'CDL3BLACKCROWS',
            'CDL3LINESTRIKE', 'CDL3WHITESOLDIERS', 'CDLUPSIDEGAP2CROWS', 'CDLLADDERBOTTOM',
            'CDLSTALLEDPATTERN', 'CDLRISEFALL3METHODS', 'CDLHIKKAKE', 'CDL3STARSINSOUTH',
            'CDLADVANCEBLOCK', 'CDLBREAKAWAY', 'CDLCONCEALBABYSWALL', 'CDLCOUNTERATTACK',
            'CDLGAPSIDESIDEWHITE', 'CDLHOMINGPIGEON', 'CDLIDENTICAL3CROWS', 'CDLINNECK', 'CDLONNECK',
            'CDLTHRUSTING', 'CDLKICKING', 'CDLKICKINGBYLENGTH', 'CDLMATCHINGLOW', 'CDLSEPARATINGLINES',
            'CDLSTICKSANDWICH', 'CDLTASUKIGAP', 'CDLTRISTAR', 'CDLUNIQUE3RIVER', 'CDLXSIDEGAP3METHODS',
            'CDLHIKKAKEMOD')
FUNCTIONS = {name: (_INPUTS, (), ('integer',)) for name in PATTERNS}
FUNCTIONS.update({'CDLDARKCLOUDCOVER': (_INPUTS, (('penetration', 0.5),), ('integer',)),
                  'CDLMORNINGSTAR': (_INPUTS, (('penetration', 0.3),), ('integer',)),
                  'CDLEVENINGSTAR': (_INPUTS, (('penetration', 0.3),), ('integer',)),
                  'CDLMORNINGDOJISTAR': (_INPUTS, (('penetration', 0.3),), ('integer',)),
                  'CDLEVENINGDOJISTAR': (_INPUTS, (('penetration', 0.3),), ('integer',)),
                  'CDLMATHOLD': (_INPUTS, (('penetration', 0.5),), ('integer',)),
                  'CDLABANDONEDBABY': (_INPUTS, (('penetration', 0.3),), ('integer',))})
