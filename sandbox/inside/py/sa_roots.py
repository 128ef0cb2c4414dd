# sa_roots.py - the sys.path directories there are, as read roots beside sbi_zygote.c's
# lib_roots (collect_roots: run into a dict of its own, then roots() is called). Embedded into
# the sandbox binary at build time (scripts/embed-py).
import os, sys
def roots():
    return [p for p in sys.path if p and os.path.isdir(p)]
