# tries: silences the event channel: a zero-length write on descriptor 4 (the SOCK_SEQPACKET
#        events socket) reads as 0 bytes in the driver, the same as end of file, so the driver
#        stops listening; every refusal after it would go unrecorded and the run would pass as
#        "ok" with blocked_actions 0.
# must record: the shell call after the empty message (os.system) is still recorded; an empty
#              message is not end of file (the driver keeps reading until the run has exited).
# expect-status: ok
# expect-action: os.system
import os
def signals(df):
    try:
        os.write(4, b"")
    except OSError:
        pass
    try:
        os.system("touch /var/tmp/strataudit-hostile-29")
    except OSError:
        pass
    return [0] * len(df)
