# tries: overruns scratch with nothing on record: blocks SIGXFSZ (signal.pthread_sigmask), so the
#        write past the file size limit fails quietly (EFBIG) instead of raising the signal whose
#        handler recorded it; then fills the rest of scratch with small files to ENOSPC.
# must record: the full scratch, read by the driver from outside the run after it ended
#              (scratch_full); the run goes on.
# expect-status: ok
# expect-event: scratch_full | scratch stays within its budget
import signal
def signals(df):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXFSZ})
    block = b"x" * (1 << 16)
    try:
        with open("big.bin", "wb") as f:
            for _ in range(1 << 20):
                f.write(block)
    except OSError:
        pass
    return [0] * len(df)
