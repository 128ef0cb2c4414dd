# tries: writes a valid-looking result ('R' and one byte per bar) straight to the result pipe
#        (descriptor 3), then keeps writing hundreds of megabytes so the driver buffers them all.
# must record: the driver keeps at most n + 1 KB and rejects the result (status bad_output).
# expect-status: bad_output
import os
def signals(df):
    os.write(3, b"R" + b"\0" * len(df))
    block = b"\x01" * (1 << 20)
    for _ in range(300):
        os.write(3, block)
    return [0] * len(df)
