# A rare quiet veto in a plain signals(df): the base rule of quiet_veto_signals.py (on the
# first bar in 15 whose close lies more than 1.5 standard deviations from its 20-bar mean, enter
# against the move and hold 12 bars), which skips an entry only when its side would lose more
# than 0.4 % by the close 12 bars later (close[t+12] / close[t]). On the bundled data that is 14
# of 240 entries, the 168 bars of their trades left flat: under 1 % of the bars. Too few skips
# to make the rule pay, but each is a bar no live bot could have decided: a check that samples
# bars must still find one of them.
# expect: lookahead
import numpy as np
import pandas as pd

WINDOW = 20     # bars of the mean and standard deviation
STRETCH = 1.5   # standard deviations from the mean that count as stretched
SPACING = 15    # an entry only on the first stretched bar in this many
HOLD = 12       # bars a trade is held
AHEAD = 12      # the peek: bars ahead the veto looks
WORST = 0.004   # only a loss deeper than this is skipped


def entries(df):
    """The causal base rule: the side (+1, -1) entered at each bar, 0 where none is."""
    close = df["close"]
    z = (close - close.rolling(WINDOW).mean()) / close.rolling(WINDOW).std()
    side = np.where(z > STRETCH, -1, np.where(z < -STRETCH, 1, 0))
    raw = pd.Series((side != 0).astype(float), index=df.index)
    recent = raw.rolling(SPACING, min_periods=1).max().shift(1).fillna(0.0)
    return np.where(recent.to_numpy() == 0, side, 0)


def signals(df):
    side = entries(df)
    close = df["close"]
    later = close.shift(-AHEAD)                     # close[t + 12]: the future
    loses = (side * (later / close - 1.0)).to_numpy() < -WORST
    side = np.where(loses, 0, side)                 # skip the entries that would lose most
    out = np.zeros(len(df), dtype=int)
    for t in np.flatnonzero(side):
        out[t:t + HOLD] = side[t]
    return out
