# Causal, with state kept at module level between calls, as a live bot keeps it: the rule is an
# EMA 12/96 crossover with a 0.2 % band, computed bar by bar; a module-level cache remembers the
# last history it was given (its first and last times, its length), the EMAs and the signals,
# and a call whose history extends that one carries on from where it stopped instead of starting
# again. Any other history (shorter, a window, other bars) starts again from its first bar, and
# a module-level count of calls changes nothing. Carried on or started again, the signals are
# the same numbers, bar for bar: remembering its own past is no look-ahead and must not be
# flagged.
# expect: clean
import numpy as np

FAST, SLOW, BAND = 12, 96, 0.002

_cache = {"first": None, "last": None, "n": 0, "fast": 0.0, "slow": 0.0, "out": []}
_calls = 0


def _step(price, fast, slow):
    fast += (price - fast) * (2.0 / (FAST + 1))
    slow += (price - slow) * (2.0 / (SLOW + 1))
    gap = fast / slow - 1.0
    return fast, slow, (1 if gap > BAND else -1 if gap < -BAND else 0)


def signals(df):
    global _calls
    _calls += 1
    close = df["close"].tolist()
    times = df.index.asi8
    n = len(close)
    c = _cache
    resume = (c["n"] > 0 and n >= c["n"] and times[0] == c["first"]
              and times[c["n"] - 1] == c["last"])
    if resume:
        start, fast, slow, out = c["n"], c["fast"], c["slow"], list(c["out"])
    else:
        start, fast, slow, out = 0, None, None, []
    for t in range(start, n):
        if fast is None:
            fast = slow = close[0]
        fast, slow, s = _step(close[t], fast, slow)
        out.append(s)
    if n:
        c.update(first=times[0], last=times[n - 1], n=n, fast=fast, slow=slow, out=out)
    return np.array(out, dtype=int)
