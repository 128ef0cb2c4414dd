# A quiet veto in a plain signals(df). The causal base rule fades a stretched close: on the
# first bar in 15 whose close lies more than 1.5 standard deviations from its 20-bar mean, it
# enters against the move and holds 12 bars (240 entries on the bundled data; alone it loses
# after costs). The peek: an entry whose side would lose by the close 12 bars later
# (close[t+12] / close[t], the close shifted back 12 bars) is skipped, the whole trade left
# flat (53 of the 240). It only removes trades, never adds or moves one, so a vetoed bar
# changes no position: no truncated run is cut where positions change near it, and only a run
# cut within the 12 bars after a skipped entry could see the difference. The skips turn a loser
# into a steady winner.
# expect: lookahead
import numpy as np
import pandas as pd

WINDOW = 20     # bars of the mean and standard deviation
STRETCH = 1.5   # standard deviations from the mean that count as stretched
SPACING = 15    # an entry only on the first stretched bar in this many
HOLD = 12       # bars a trade is held
AHEAD = 12      # the peek: bars ahead the veto looks


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
    loses = (side * (later / close - 1.0)).to_numpy() < 0
    side = np.where(loses, 0, side)                 # skip the entries that would lose
    out = np.zeros(len(df), dtype=int)
    for t in np.flatnonzero(side):
        out[t:t + HOLD] = side[t]
    return out
