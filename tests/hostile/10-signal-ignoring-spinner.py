# tries: ignores every catchable signal and sleeps forever (so the CPU limit never fires).
# must record: the wall-clock kill (status killed_wall_clock, action wall_clock).
# expect-status: killed_wall_clock
# expect-action: wall_clock
import signal, time
def signals(df):
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1):
        try:
            signal.signal(s, signal.SIG_IGN)
        except Exception:
            pass
    while True:
        time.sleep(1)
