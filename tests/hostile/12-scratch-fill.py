# tries: fills the scratch directory with one ever-growing file.
# must record: the write past the scratch budget (action file_size); the run goes on.
# expect-status: ok
# expect-action: file_size
def signals(df):
    block = b"x" * (1 << 20)
    try:
        with open("fill.bin", "wb") as f:
            while True:
                f.write(block)
                f.flush()
    except OSError:
        pass
    return [0] * len(df)
