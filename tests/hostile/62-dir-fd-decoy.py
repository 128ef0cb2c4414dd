# tries: names a host file relative to a directory descriptor (dir_fd=) while a decoy of the same
#        relative name sits in scratch: the hook resolved relative names from the working
#        directory, so the decoy passed its check and only Landlock, silently, stood in the way.
#        Reads a name that climbs out of a read root, plants a file, makes a directory and a
#        symlink, renames and removes through the read root's descriptor.
# must record: every such call refused by rule "names resolve from the working directory"; the
#              same calls through a scratch directory's descriptor (shutil.rmtree's way) pass.
# expect-status: ok
# expect-event: os.stat | names resolve from the working directory
# expect-event: os.mkdir | names resolve from the working directory
# expect-event: os.symlink | names resolve from the working directory
# expect-event: os.rename | names resolve from the working directory
# expect-event: os.remove | names resolve from the working directory
# expect-detail: ../../../etc/passwd
import os
import sys
def signals(df):
    lib = os.path.dirname(os.__file__)  # a read root
    depth = lib.count("/")
    os.makedirs("a/b/c/d/e/f", exist_ok=True)
    os.chdir("a/b/c/d/e/f")
    os.makedirs("../../../etc", exist_ok=True)
    open("../../../etc/passwd", "w").write("decoy")  # what the working directory would show
    fd = os.open(lib, os.O_RDONLY)
    climb = "../" * depth + "etc/passwd"
    for attempt in (lambda: os.stat("../../../etc/passwd", dir_fd=fd), lambda: os.stat(climb, dir_fd=fd),
                    lambda: os.mkdir("zz-planted", dir_fd=fd),
                    lambda: os.symlink("/etc/passwd", "zz-link", dir_fd=fd),
                    lambda: os.rename("os.py", "zz-os.py", src_dir_fd=fd, dst_dir_fd=fd),
                    lambda: os.remove("os.py", dir_fd=fd)):
        try:
            attempt()
        except OSError:
            pass
    # the same forms inside scratch are fine
    os.chdir("/tmp")
    s = os.open("/tmp/a", os.O_RDONLY)
    os.mkdir("made", dir_fd=s)
    os.rmdir("made", dir_fd=s)
    return [0] * len(df)
