# tries: floods stdout and stderr with megabytes of text.
# must record: both logs capped at a 4 KB excerpt in run.json; the run itself completes.
# expect-status: ok
# expect-stdout-max: 4096
import sys
def signals(df):
    line = "A" * 1023 + "\n"
    for _ in range(8192):
        sys.stdout.write(line)
        sys.stderr.write(line)
    return [0] * len(df)
