# tries: an object whose __len__ claims one value per bar, whose __iter__ yields forever and
#        whose __array__ raises SystemExit (not an Exception), so a converter that catches only
#        Exception lets the interpreter exit cleanly before any result is written.
# must record: a finding, not a crash of the runner: status error with the exception named.
# expect-status: error
class Liar:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __iter__(self):
        while True:
            yield 1
    def __getitem__(self, i):
        return 1
    def __array__(self, *a, **k):
        raise SystemExit(0)
def signals(df):
    return Liar(len(df))
