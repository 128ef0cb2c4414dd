# tries: floods the events channel with twenty thousand well-formed and malformed records (forged
#        actions, oversized fields, control bytes) to exhaust the driver's memory or time.
# must record: every message as a forged record (malformed, or naming a rule the sandbox does
#              not have), counted in full, kept in events.jsonl up to the per-rule cap; the run
#              completes.
# expect-status: ok
# expect-event: forged_event | the event channel carries sandbox records only
import os
def signals(df):
    msgs = [b"wall_clock\x1fruns stop\x1f" + b"\x1b[2J" * 200, b"no separators", b"\x1f\x1f",
            b"a" * 100000, b"ok\x1f" + bytes(range(256)) + b"\x1fx"]
    for i in range(20000):
        try:
            os.write(4, msgs[i % len(msgs)])
        except OSError:
            pass
    return [0] * len(df)
