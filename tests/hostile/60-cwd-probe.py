# tries: learns about the host through the working directory: chdir to a host directory, then
#        list it with no argument (os.listdir(), os.scandir()), which the hook used to pass as
#        "None" and Landlock refused silently.
# must record: the chdir outside the read roots (os.chdir); a listing of the working directory
#              is judged as the working directory; the run goes on.
# expect-status: ok
# expect-event: os.chdir | reads stay in the interpreter's files
# expect-detail: /etc
import os
def signals(df):
    seen = []
    for where in ("/etc", "/root", "/home"):
        try:
            os.chdir(where)
            seen += os.listdir()
            seen += [e.name for e in os.scandir()]
        except OSError:
            pass
    return [1 if seen else 0] * len(df)
