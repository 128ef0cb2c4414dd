# hindsight_gen.py DATA OUTDIR: writes three "strategies" that never read the future but remember
# it, as someone who had looked at DATA's chart would: the entry times of its best 24-bar moves
# (dates.py), the closes at those entries (prices.py), and their bar numbers (bar_numbers.py).
# Each holds a long position for the 24 bars after each remembered entry. Every truncated re-run
# agrees with the full run (nothing is read from the future), so the look-ahead check alone
# passes them; the hindsight checks in robustness.json must not.
import csv
import os
import sys

HOLD = 24
BEST = 132


def best_moves(close, hold, count):
    """The bars before the count best hold-bar moves of close that do not overlap, in order."""
    moves = sorted(range(len(close) - hold - 1), key=lambda i: close[i + hold + 1] / close[i + 1],
                   reverse=True)
    picked, taken = [], set()
    for i in moves:
        if any(j in taken for j in range(i - hold, i + hold + 1)):
            continue
        picked.append(i)
        taken.add(i)
        if len(picked) == count:
            break
    return sorted(picked)


def main(data, outdir):
    rows = list(csv.DictReader(open(data)))
    close = [float(r["close"]) for r in rows]
    times = [r["time"] for r in rows]
    picked = best_moves(close, HOLD, BEST)
    body = {
        "dates.py": ("KEYS = %r\n" % sorted(times[i][:16] for i in picked),
                     "df.index.strftime('%Y-%m-%dT%H:%M')"),
        "prices.py": ("KEYS = %r\n" % sorted("%.2f" % close[i] for i in picked),
                      "np.char.mod('%.2f', df['close'].to_numpy())"),
        "bar_numbers.py": ("KEYS = %r\n" % picked, "np.arange(len(df))"),
    }
    for name, (keys, key_of_bar) in body.items():
        with open(os.path.join(outdir, name), "w") as f:
            f.write("# Hindsight, not a rule: remembered from the chart (tests/lookahead/dodge/"
                    "hindsight_gen.py).\nimport numpy as np\n\n" + keys + "\n\n"
                    "def signals(df):\n"
                    "    keys = set(KEYS)\n"
                    "    hit = np.array([k in keys for k in %s])\n"
                    "    out = np.zeros(len(df), dtype=int)\n"
                    "    for i in np.flatnonzero(hit):\n"
                    "        out[i:i + %d] = 1\n"
                    "    return out\n" % (key_of_bar, HOLD))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
