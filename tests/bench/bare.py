"""bare.py - the floor of a sandboxed run: a strategy in a warm interpreter, called directly
("call") or in a bare child forked per run that sends its int8 signals back through a pipe
("fork": no layer, no namespace, no cgroup). Each run builds its DataFrame, as the sandbox does
from bytes.

usage: bare.py STRATEGY BARS.csv RUNS call|fork [LAST] [wall|cpu]
prints ms a run: wall time (default), or CPU of this process and its children (median of 5
rounds of RUNS); LAST keeps only the last LAST bars (a look-ahead window)."""
import os, runpy, statistics, sys, time
import numpy as np, pandas as pd

sig = runpy.run_path(sys.argv[1])["signals"]
raw = pd.read_csv(sys.argv[2])
n, fork = int(sys.argv[3]), sys.argv[4] == "fork"
last = int(sys.argv[5]) if len(sys.argv) > 5 else 0
cpu = len(sys.argv) > 6 and sys.argv[6] == "cpu"
if last:
    raw = raw.iloc[-last:]
t = pd.to_datetime(raw["time"], utc=True).values.astype("int64")
vals = raw[["open", "high", "low", "close", "volume"]].to_numpy(np.float64)


def run():
    idx = pd.DatetimeIndex(t.view("datetime64[ns]"), name="time").tz_localize("UTC")
    df = pd.DataFrame(vals.copy(), index=idx, columns=["open", "high", "low", "close", "volume"])
    return np.asarray(sig(df), dtype=np.int8).tobytes()


def one():
    if not fork:
        run()
        return
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.write(w, run())
        os._exit(0)
    os.close(w)
    while os.read(r, 1 << 20):
        pass
    os.close(r)
    os.waitpid(pid, 0)


def clock():
    c = os.times()
    return c[0] + c[1] + c[2] + c[3] if cpu else time.perf_counter()


rounds = []
for _ in range(5 if cpu else 1):
    t0 = clock()
    for _ in range(n):
        one()
    rounds.append((clock() - t0) * 1000 / n)
print("%.2f" % statistics.median(rounds))
