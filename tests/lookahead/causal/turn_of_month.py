# Expected: clean. A calendar rule on the date, not on remembered dates: long over the last two
# days of each month and the first three, flat otherwise. Moved 28 years the calendar repeats,
# so the hindsight check keeps every trade.
import numpy as np


def signals(df):
    day = df.index.day.to_numpy()
    last = df.index.days_in_month.to_numpy()
    return np.where((day >= last - 1) | (day <= 3), 1, 0)
