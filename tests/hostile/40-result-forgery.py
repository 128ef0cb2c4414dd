# tries: forges the result channel: writes 'R' and n bytes of 0x7f straight to descriptor 3,
#        closes it so the runner's own write fails, and returns valid signals.
# must record: the driver validates the bytes it got, not what signals() returned
#              (status bad_output).
# expect-status: bad_output
import os
def signals(df):
    os.write(3, b"R" + b"\x7f" * len(df))
    os.close(3)
    return [0] * len(df)
