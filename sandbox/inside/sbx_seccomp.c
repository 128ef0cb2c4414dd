/* sbx_seccomp.c - the run's seccomp filter: built from a policy table with libseccomp once, in
 * the zygote, and loaded as raw BPF by each run. */
#include "sbx_seccomp.h"
#include "sbx_proto.h"
#include "sbx_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define NO_PROC SBX_R_NO_PROC
#define NO_NET SBX_R_NO_NET
#define NO_NS SBX_R_NO_NS
#define NO_PEEK SBX_R_NO_PEEK
#define NO_KERN SBX_R_NO_KERN
#define FIXED SBX_R_PLUMBING
#define HOST_FILES SBX_R_HOST_FILES
#define NO_EXEC_MEM SBX_R_NO_EXEC_MEM
#define NO_SPECIAL SBX_R_NO_SPECIAL
#define SCHEDULE SBX_R_SCHEDULE
#define NOT_LISTED SBX_R_NOT_LISTED
#define IDENTITY SBX_R_IDENTITY
#define APART SBX_R_APART

/* Deny by default: the filter's default action traps (EPERM, recorded), and only the calls below
 * marked SBX_SC_ALLOW pass, some only for the arguments their match selects. The list is what
 * CPython, numpy and pandas were measured to call after lockdown (strace -f over the honest,
 * causal, leaky, demo and hostile corpora), plus what the interpreter and the loader call on
 * paths those corpora did not take (imports after lockdown, tracebacks, threads, sleeps).
 * Trap entries change nothing in the filter; they name the rule a refusal reports. */
static const struct sbi_sc_rule policy[] = {
	/* memory: W^X, an executable page only ever comes from a file the loader maps */
	{ "brk", SBX_SC_ALLOW, SBX_SCM_ALL, "", "the heap" },
	{ "mmap", SBX_SC_ALLOW, SBX_SCM_MMAP, "", "arenas, arrays; PROT_EXEC only of a file, never writable too (extension modules)" },
	{ "mmap", SBX_SC_TRAP, SBX_SCM_ALL, NO_EXEC_MEM, "anonymous writable-then-executable memory runs injected code" },
	{ "mprotect", SBX_SC_ALLOW, SBX_SCM_PROT_NO_EXEC, "", "the loader's RELRO and guard pages" },
	{ "mprotect", SBX_SC_TRAP, SBX_SCM_ALL, NO_EXEC_MEM, "making a page executable after writing it" },
	{ "pkey_mprotect", SBX_SC_ALLOW, SBX_SCM_PROT_NO_EXEC, "", "as mprotect" },
	{ "pkey_mprotect", SBX_SC_TRAP, SBX_SCM_ALL, NO_EXEC_MEM, "making a page executable after writing it" },
	{ "munmap", SBX_SC_ALLOW, SBX_SCM_ALL, "", "freeing arenas and arrays" },
	{ "mremap", SBX_SC_ALLOW, SBX_SCM_ALL, "", "realloc of large arrays (keeps the protection)" },
	{ "madvise", SBX_SC_ALLOW, SBX_SCM_MADVISE_OK, "", "malloc trimming (DONTNEED, FREE), numpy's huge-page hint: advice about the run's own pages" },
	{ "madvise", SBX_SC_TRAP, SBX_SCM_ALL, APART, "WILLNEED, COLD, PAGEOUT, POPULATE, REMOVE, MERGEABLE, COLLAPSE: evict, pre-fault or merge pages other runs read" },
	{ "msync", SBX_SC_ALLOW, SBX_SCM_ALL, "", "numpy.memmap flush within scratch" },
	{ "mincore", SBX_SC_TRAP, SBX_SCM_ALL, APART, "which file pages are cached tells one run what another read" },
	{ "cachestat", SBX_SC_TRAP, SBX_SCM_ALL, APART, "as mincore, by file range" },
	{ "readahead", SBX_SC_TRAP, SBX_SCM_ALL, APART, "fills the page cache other runs read" },
	/* files: Landlock decides which; these are the calls that reach them */
	{ "read", SBX_SC_ALLOW, SBX_SCM_ALL, "", "module sources, scratch files" },
	{ "write", SBX_SC_ALLOW, SBX_SCM_ALL, "", "stdout, stderr, result, scratch" },
	{ "pread64", SBX_SC_ALLOW, SBX_SCM_ALL, "", "the loader reads ELF headers" },
	{ "pwrite64", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "readv", SBX_SC_ALLOW, SBX_SCM_ALL, "", "buffered I/O" },
	{ "writev", SBX_SC_ALLOW, SBX_SCM_ALL, "", "buffered I/O" },
	{ "openat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "imports, scratch files (Landlock judges the path)" },
	{ "open", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as openat" },
	{ "close", SBX_SC_ALLOW, SBX_SCM_NOT_FD_A0, "", "every descriptor but the events channel" },
	{ "close", SBX_SC_TRAP, SBX_SCM_FD_A0, FIXED, "the events channel must stay open" },
	{ "close_range", SBX_SC_ALLOW, SBX_SCM_RANGE_NOT_FD, "", "ranges that spare the events channel" },
	{ "close_range", SBX_SC_TRAP, SBX_SCM_RANGE_FD, FIXED, "the events channel must stay open" },
	{ "dup", SBX_SC_ALLOW, SBX_SCM_ALL, "", "descriptor copies" },
	{ "dup2", SBX_SC_ALLOW, SBX_SCM_NOT_FD_A1, "", "any target but the events channel" },
	{ "dup2", SBX_SC_TRAP, SBX_SCM_FD_A1, FIXED, "the events channel must not be replaced" },
	{ "dup3", SBX_SC_ALLOW, SBX_SCM_NOT_FD_A1, "", "any target but the events channel" },
	{ "dup3", SBX_SC_TRAP, SBX_SCM_FD_A1, FIXED, "the events channel must not be replaced" },
	{ "lseek", SBX_SC_ALLOW, SBX_SCM_ALL, "", "file positions" },
	{ "fstat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "imports, open()" },
	{ "stat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "imports (names outside are the hook's to record)" },
	{ "lstat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as stat" },
	{ "newfstatat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as stat" },
	{ "statx", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as stat" },
	/* metadata Landlock does not mediate and CPython raises no event for: refused, recorded */
	{ "statfs", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "os.statvfs, os.pathconf: a disk's size and kind" },
	{ "fstatfs", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "as statfs" },
	{ "access", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "os.access: who may read or write a host path" },
	{ "faccessat", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "as access" },
	{ "faccessat2", SBX_SC_ALLOW, SBX_SCM_EXISTS, "", "realpath (in the hook, os.path) asks only whether a name exists, which stat tells" },
	{ "faccessat2", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "as access" },
	{ "readlink", SBX_SC_ALLOW, SBX_SCM_ALL, "", "realpath in the hook and in os.path" },
	{ "readlinkat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as readlink" },
	{ "getdents64", SBX_SC_ALLOW, SBX_SCM_ALL, "", "the import system lists sys.path directories" },
	{ "getcwd", SBX_SC_ALLOW, SBX_SCM_ALL, "", "relative paths" },
	{ "chdir", SBX_SC_ALLOW, SBX_SCM_ALL, "", "within what Landlock shows" },
	{ "fchdir", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as chdir" },
	{ "mkdir", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch directories" },
	{ "mkdirat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch directories" },
	{ "rmdir", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch directories" },
	{ "unlink", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files (tempfile)" },
	{ "unlinkat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files (shutil.rmtree)" },
	{ "rename", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "renameat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "renameat2", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "link", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "linkat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "symlink", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "symlinkat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "chmod", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files (tempfile)" },
	{ "fchmod", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "fchmodat", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "umask", SBX_SC_ALLOW, SBX_SCM_ALL, "", "tempfile" },
	{ "truncate", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "ftruncate", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "fallocate", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files (bounded by RLIMIT_FSIZE)" },
	{ "fsync", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "fdatasync", SBX_SC_ALLOW, SBX_SCM_ALL, "", "scratch files" },
	{ "fadvise64", SBX_SC_ALLOW, SBX_SCM_FADVISE_OK, "", "NORMAL, RANDOM, SEQUENTIAL: the run's own open file's read-ahead window" },
	{ "fadvise64", SBX_SC_TRAP, SBX_SCM_ALL, APART, "WILLNEED reads pages in, DONTNEED evicts them, NOREUSE ages them: the page cache every run reads" },
	{ "copy_file_range", SBX_SC_ALLOW, SBX_SCM_ALL, "", "shutil.copyfile in scratch" },
	{ "sendfile", SBX_SC_ALLOW, SBX_SCM_ALL, "", "shutil.copyfile in scratch" },
	{ "fcntl", SBX_SC_ALLOW, SBX_SCM_FCNTL_OK, "", "descriptor flags, duplicates and pipe sizes" },
	{ "fcntl", SBX_SC_TRAP, SBX_SCM_ALL, APART, "record locks, leases and notices on files every run can open are channels between runs" },
	{ "pipe", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "a pipe's inode number is a machine-wide counter (every pipe, socket and eventfd since boot)" },
	{ "pipe2", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "as pipe" },
	{ "eventfd", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "as pipe" },
	{ "eventfd2", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_NO_HOST_FACTS, "as pipe" },
	{ "poll", SBX_SC_ALLOW, SBX_SCM_ALL, "", "select on own descriptors" },
	{ "ppoll", SBX_SC_ALLOW, SBX_SCM_ALL, "", "select on own descriptors" },
	{ "select", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.sleep in older code, select" },
	{ "pselect6", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as select" },
	{ "ioctl", SBX_SC_ALLOW, SBX_SCM_IOCTL_OK, "", "isatty (TCGETS), terminal size, FIOCLEX, FIONREAD" },
	{ "ioctl", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_IOCTL, "other requests drive devices (TIOCSTI types into terminals)" },
	{ "mknod", SBX_SC_TRAP, SBX_SCM_ALL, NO_SPECIAL, "fifos and device nodes are channels and devices" },
	{ "mknodat", SBX_SC_TRAP, SBX_SCM_ALL, NO_SPECIAL, "os.mkfifo and os.mknod" },
	/* the events channel: send() on fd 4 */
	{ "sendto", SBX_SC_ALLOW, SBX_SCM_ALL, "", "events on the inherited channel; no socket can be made" },
	/* time */
	{ "clock_gettime", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.monotonic when the vDSO is not used" },
	{ "clock_getres", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.get_clock_info" },
	{ "gettimeofday", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.time fallback" },
	{ "time", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.time fallback" },
	{ "nanosleep", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.sleep (the wall clock bounds it)" },
	{ "clock_nanosleep", SBX_SC_ALLOW, SBX_SCM_ALL, "", "time.sleep" },
	{ "times", SBX_SC_FAKE, SBX_SCM_ALL, "", "os.times: answered from getrusage and the run's own monotonic clock (the kernel's answer counts ticks since boot)" },
	{ "getrusage", SBX_SC_ALLOW, SBX_SCM_ALL, "", "resource.getrusage, time.process_time" },
	/* who am I: reads only */
	{ "getpid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getpid, tempfile names" },
	{ "gettid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "threading" },
	{ "getppid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getppid" },
	{ "getuid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getuid, getpass" },
	{ "geteuid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.geteuid" },
	{ "getgid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getgid" },
	{ "getegid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getegid" },
	{ "getgroups", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getgroups" },
	{ "getresuid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getresuid" },
	{ "getresgid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getresgid" },
	{ "getpgrp", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getpgrp" },
	{ "getpgid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getpgid" },
	{ "getsid", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getsid" },
	{ "uname", SBX_SC_FAKE, SBX_SCM_ALL, "", "platform, os.uname: one fixed answer (the kernel's release and build are the host's)" },
	{ "sysinfo", SBX_SC_FAKE, SBX_SCM_ALL, "", "glibc's memory queries (os.sysconf): the run's memory budget, its own uptime; not the machine's RAM, load or process count" },
	{ "getrlimit", SBX_SC_ALLOW, SBX_SCM_ALL, "", "resource.getrlimit" },
	{ "prlimit64", SBX_SC_ALLOW, SBX_SCM_GET_LIMIT, "", "reading limits" },
	{ "prlimit64", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_LIMITS, "reading limits is fine, setting them is not" },
	{ "getrandom", SBX_SC_ALLOW, SBX_SCM_ALL, "", "hash seeds, random, numpy's default_rng" },
	{ "getpriority", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.getpriority" },
	{ "sched_getaffinity", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.sched_getaffinity, BLAS thread counts" },
	{ "sched_yield", SBX_SC_ALLOW, SBX_SCM_ALL, "", "spin locks in BLAS" },
	{ "sched_getparam", SBX_SC_ALLOW, SBX_SCM_ALL, "", "reading the schedule" },
	{ "sched_getscheduler", SBX_SC_ALLOW, SBX_SCM_ALL, "", "reading the schedule" },
	{ "sched_get_priority_max", SBX_SC_ALLOW, SBX_SCM_ALL, "", "reading the schedule" },
	{ "sched_get_priority_min", SBX_SC_ALLOW, SBX_SCM_ALL, "", "reading the schedule" },
	{ "getcpu", SBX_SC_ALLOW, SBX_SCM_ALL, "", "glibc's per-CPU arenas" },
	{ "sched_setaffinity", SBX_SC_TRAP, SBX_SCM_ALL, SCHEDULE, "CPU placement is the host's" },
	{ "sched_setscheduler", SBX_SC_TRAP, SBX_SCM_ALL, SCHEDULE, "real-time classes starve the host" },
	{ "sched_setparam", SBX_SC_TRAP, SBX_SCM_ALL, SCHEDULE, "priority is the host's" },
	{ "sched_setattr", SBX_SC_TRAP, SBX_SCM_ALL, SCHEDULE, "real-time classes starve the host" },
	{ "setpriority", SBX_SC_TRAP, SBX_SCM_ALL, SCHEDULE, "priority is the host's" },
	{ "ioprio_set", SBX_SC_TRAP, SBX_SCM_ALL, SCHEDULE, "I/O priority is the host's" },
	/* threads (numpy's BLAS, threading), signals to itself */
	{ "clone", SBX_SC_ALLOW, SBX_SCM_CLONE_THREAD, "", "threads only, no namespace flag" },
	{ "clone", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "threads may start, processes may not" },
	{ "clone3", SBX_SC_ENOSYS, SBX_SCM_ALL, NO_PROC, "flags sit in memory seccomp cannot read; libc falls back to clone" },
	{ "set_robust_list", SBX_SC_ALLOW, SBX_SCM_ALL, "", "a new thread's futex list" },
	{ "rseq", SBX_SC_ALLOW, SBX_SCM_ALL, "", "a new thread registers with glibc" },
	{ "set_tid_address", SBX_SC_ALLOW, SBX_SCM_ALL, "", "thread start" },
	{ "futex", SBX_SC_ALLOW, SBX_SCM_FUTEX_OK, "", "locks, the GIL (private); a thread join's wait (shared)" },
	{ "futex", SBX_SC_TRAP, SBX_SCM_ALL, APART, "a shared wake on a file page every run maps reaches another run" },
	{ "futex_waitv", SBX_SC_TRAP, SBX_SCM_ALL, APART, "its shared flag sits in memory seccomp cannot read" },
	{ "exit", SBX_SC_ALLOW, SBX_SCM_ALL, "", "a thread ends" },
	{ "exit_group", SBX_SC_ALLOW, SBX_SCM_ALL, "", "the run ends" },
	{ "sigaltstack", SBX_SC_ALLOW, SBX_SCM_ALL, "", "thread start, faulthandler" },
	{ "rt_sigreturn", SBX_SC_ALLOW, SBX_SCM_ALL, "", "return from the SIGSYS handler itself" },
	{ "rt_sigprocmask", SBX_SC_ALLOW, SBX_SCM_ALL, "", "thread start, signal masks" },
	{ "rt_sigaction", SBX_SC_ALLOW, SBX_SCM_FREE_SIG, "", "signal module, on any signal but the guarded two" },
	{ "rt_sigaction", SBX_SC_TRAP, SBX_SCM_GUARDED_SIG, FIXED, "the sandbox's signal handlers record refusals" },
	{ "rt_sigpending", SBX_SC_ALLOW, SBX_SCM_ALL, "", "signal.sigpending" },
	{ "rt_sigtimedwait", SBX_SC_ALLOW, SBX_SCM_ALL, "", "signal.sigtimedwait" },
	{ "rt_sigsuspend", SBX_SC_ALLOW, SBX_SCM_ALL, "", "signal.pause" },
	{ "restart_syscall", SBX_SC_ALLOW, SBX_SCM_ALL, "", "the kernel restarts an interrupted sleep" },
	{ "kill", SBX_SC_ALLOW, SBX_SCM_ALL, "", "abort(); Landlock scopes signals to the run's own domain" },
	{ "tgkill", SBX_SC_ALLOW, SBX_SCM_ALL, "", "abort(), signal.pthread_kill on own threads" },
	{ "tkill", SBX_SC_ALLOW, SBX_SCM_ALL, "", "as tgkill" },
	{ "wait4", SBX_SC_ALLOW, SBX_SCM_ALL, "", "os.wait; a run has no child to wait for" },
	{ "prctl", SBX_SC_ALLOW, SBX_SCM_PRCTL_OK, "", "thread names, reading dumpable and no_new_privs" },
	{ "prctl", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_PRCTL, "other options change the process" },
	/* refused with their own rule (nothing here is on the allowlist) */
	{ "execve", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "a strategy runs no programs" },
	{ "execveat", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "a strategy runs no programs" },
	{ "fork", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "one process per run" },
	{ "vfork", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "one process per run" },
	{ "socket", SBX_SC_TRAP, SBX_SCM_ALL, NO_NET, "any family: Landlock does not cover UDP or unix sockets" },
	{ "socketpair", SBX_SC_TRAP, SBX_SCM_ALL, NO_NET, "no sockets at all" },
	{ "shutdown", SBX_SC_TRAP, SBX_SCM_ALL, FIXED, "would cut the events channel" },
	{ "ptrace", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no debugging of anything" },
	{ "process_vm_readv", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no reading other address spaces" },
	{ "process_vm_writev", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no writing other address spaces" },
	{ "pidfd_open", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no handles on other processes" },
	{ "pidfd_getfd", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no stealing descriptors" },
	{ "kcmp", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no probing other processes" },
	{ "io_uring_setup", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "io_uring bypasses seccomp for its operations" },
	{ "io_uring_enter", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "io_uring bypasses seccomp for its operations" },
	{ "io_uring_register", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "io_uring bypasses seccomp for its operations" },
	{ "userfaultfd", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "a classic exploit primitive" },
	{ "memfd_create", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "anonymous files serve loaders and exploits" },
	{ "memfd_secret", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "not needed" },
	{ "keyctl", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the keyring holds no strategy data" },
	{ "add_key", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the keyring holds no strategy data" },
	{ "request_key", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the keyring holds no strategy data" },
	{ "bpf", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no kernel programs" },
	{ "perf_event_open", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "side channels and kernel bugs" },
	{ "mount", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "umount2", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "pivot_root", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "chroot", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "move_mount", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "open_tree", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "fsopen", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "fsmount", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "fspick", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "mount_setattr", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "unshare", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "no new namespaces from inside" },
	{ "setns", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "no joining other namespaces" },
	{ "open_by_handle_at", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "walks around path checks" },
	{ "name_to_handle_at", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "walks around path checks" },
	{ "init_module", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no kernel modules" },
	{ "finit_module", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no kernel modules" },
	{ "delete_module", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no kernel modules" },
	{ "kexec_load", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no kernel replacement" },
	{ "kexec_file_load", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no kernel replacement" },
	{ "reboot", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no host control" },
	{ "swapon", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no host control" },
	{ "swapoff", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no host control" },
	{ "acct", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no host control" },
	{ "quotactl", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no host control" },
	{ "syslog", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the kernel log is not the strategy's" },
	{ "settimeofday", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "clock_settime", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "clock_adjtime", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "adjtimex", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "sethostname", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "not needed" },
	{ "setdomainname", SBX_SC_TRAP, SBX_SCM_ALL, NO_NS, "not needed" },
	{ "personality", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "could switch off address randomisation" },
	{ "fanotify_init", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no watching the file system" },
	{ "inotify_init", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "watches see host names Landlock hides; instances are the host's" },
	{ "inotify_init1", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "watches see host names Landlock hides; instances are the host's" },
	{ "inotify_add_watch", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "watches see host names Landlock hides" },
	{ "utimensat", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "utimes", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "utime", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "futimesat", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "flock", SBX_SC_TRAP, SBX_SCM_ALL, APART, "a lock on a shared file is a channel between runs" },
	{ "setuid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setgid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setreuid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setregid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setresuid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setresgid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setgroups", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setfsuid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setfsgid", SBX_SC_TRAP, SBX_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setrlimit", SBX_SC_TRAP, SBX_SCM_ALL, SBX_R_LIMITS, "limits are set before the upload loads" },
	{ "shmget", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no shared memory" },
	{ "msgget", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no message queues" },
	{ "semget", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no semaphores" },
	{ "mq_open", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no message queues" },
};

#define N_POLICY (sizeof(policy) / sizeof(policy[0]))

/* Syscall numbers of the table, resolved when the filter is compiled (in the zygote, inherited
 * by every run), so the SIGSYS handler can name a call without allocating. */
static int policy_nr[N_POLICY];
static int trap_event_fd = -1;

/* Every syscall's name by number, for refusals of calls the table does not name. */
#define MAX_NR 512
static char *nr_name[MAX_NR];

const struct sbi_sc_rule *sbi_seccomp_policy(size_t *n)
{
	*n = N_POLICY;
	return policy;
}

static size_t cat(char *buf, size_t at, size_t len, const char *s)
{
	while (*s && at + 1 < len)
		buf[at++] = *s++;
	buf[at] = '\0';
	return at;
}

size_t sbi_seccomp_event(long nr, char *buf, size_t len)
{
	const char *name = nr >= 0 && nr < MAX_NR && nr_name[nr] ? nr_name[nr] : "unknown";
	const char *rule = NOT_LISTED;
	char sep[2] = { SBX_EVENT_SEP, 0 };
	size_t at = 0;

	for (size_t i = 0; i < N_POLICY; i++)
		if (policy_nr[i] == nr && policy[i].action == SBX_SC_TRAP) {
			name = policy[i].name;
			rule = policy[i].rule;
			break;
		}
	at = cat(buf, at, len, "seccomp.");
	at = cat(buf, at, len, name);
	at = cat(buf, at, len, sep);
	at = cat(buf, at, len, rule);
	at = cat(buf, at, len, sep);
	at = cat(buf, at, len, "syscall refused by the kernel filter: ");
	at = cat(buf, at, len, name);
	return at;
}

/* The answers of the SBX_SC_FAKE calls: the same in every run of every audit on any machine
 * but for the run's own figures (its memory budget, its CPU time, its clock since it began,
 * which the time namespace starts at the run). */
static const struct utsname fixed_uts = { "Linux", "sandbox", "6.0.0", "#1 SMP", "x86_64", "(none)" };
static unsigned long fake_mem_bytes;

static long fake_uname(struct utsname *u)
{
	memcpy(u, &fixed_uts, sizeof *u);
	return 0;
}

static long fake_sysinfo(struct sysinfo *si)
{
	struct timespec t;

	clock_gettime(CLOCK_BOOTTIME, &t);
	memset(si, 0, sizeof *si);
	si->uptime = t.tv_sec;
	si->totalram = si->freeram = fake_mem_bytes;
	si->procs = 1;
	si->mem_unit = 1;
	return 0;
}

/* os.times: the run's own CPU time in clock ticks (USER_HZ, 100 on Linux), its children none,
 * and the elapsed count from its monotonic clock instead of the ticks since the host booted. */
static long fake_times(struct tms *t)
{
	struct rusage ru;
	struct timespec now;
	long hz = 100;

	if (t) {
		getrusage(RUSAGE_SELF, &ru);
		memset(t, 0, sizeof *t);
		t->tms_utime = (clock_t)(ru.ru_utime.tv_sec * hz + ru.ru_utime.tv_usec / (1000000 / hz));
		t->tms_stime = (clock_t)(ru.ru_stime.tv_sec * hz + ru.ru_stime.tv_usec / (1000000 / hz));
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * hz + now.tv_nsec / (1000000000L / hz);
}

/* Answers a SBX_SC_FAKE call into the registers; returns 0 when nr is not one. */
static int fake_call(long nr, ucontext_t *uc)
{
#if defined(__x86_64__)
	greg_t *r = uc->uc_mcontext.gregs;
	void *arg = (void *)r[REG_RDI];

	switch (nr) {
	case SYS_uname:
		r[REG_RAX] = fake_uname(arg);
		return 1;
	case SYS_sysinfo:
		r[REG_RAX] = fake_sysinfo(arg);
		return 1;
	case SYS_times:
		r[REG_RAX] = fake_times(arg);
		return 1;
	default:
		return 0;
	}
#else
	(void)nr;
	(void)uc;
	return 0;
#endif
}

/* Async-signal-safe: answers a normalised call, or formats into a stack buffer, sends one
 * message, makes the call fail. */
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	char buf[SBX_EVENT_MAX];
	size_t len;
	ucontext_t *uc = ctx;
	int saved = errno;

	(void)sig;
	if (fake_call(si->si_syscall, uc)) {
		errno = saved;
		return;
	}
	len = sbi_seccomp_event(si->si_syscall, buf, sizeof buf);
	if (trap_event_fd >= 0)
		(void)send(trap_event_fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#else
	(void)uc;
#endif
	errno = saved;
}

/* A futex op's command and its private flag (FUTEX_CLOCK_REALTIME, the one flag above, may be
 * anything). */
#define FUTEX_CMD_PRIVATE 0xffu

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Allows nr when its argument arg (0-5, its low 32 bits) is one of the n values. Returns 0, or
 * libseccomp's negative errno. */
static int allow_values(scmp_filter_ctx ctx, int nr, unsigned arg, const unsigned long *v, size_t n)
{
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
				      (struct scmp_arg_cmp){ arg, SCMP_CMP_MASKED_EQ, 0xffffffffu, v[i] });
	return rc;
}

/* The argument filters of the allowlist's partly allowed calls. */
static int add_allow(scmp_filter_ctx ctx, enum sbi_sc_match m, int nr, unsigned fd)
{
	static const unsigned long ioctls[] = { TCGETS, TIOCGWINSZ, FIOCLEX, FIONCLEX, FIONREAD, FIONBIO };
	static const unsigned long fcntls[] = { F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL,
		F_DUPFD_CLOEXEC, F_GETPIPE_SZ, F_SETPIPE_SZ };
	static const unsigned long prctls[] = { PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE,
		PR_GET_NO_NEW_PRIVS, PR_GET_SECCOMP, PR_GET_TIMERSLACK };
	/* Advice about the caller's own mapping, which changes what no other process reads: glibc
	 * frees (DONTNEED, FREE; on a file page DONTNEED drops the run's mapping, not the cached
	 * page), huge pages, fork and dump flags, less read-ahead. Not WILLNEED, SEQUENTIAL and
	 * POPULATE_* (they read file pages in), COLD, PAGEOUT, REMOVE (they evict them or punch
	 * them out), MERGEABLE (KSM shares pages between processes), COLLAPSE, HWPOISON. */
	static const unsigned long madvs[] = { MADV_NORMAL, MADV_RANDOM, MADV_DONTNEED, MADV_FREE,
		MADV_DONTFORK, MADV_DOFORK, MADV_HUGEPAGE, MADV_NOHUGEPAGE, MADV_DONTDUMP, MADV_DODUMP };
	/* What only the open file's own read-ahead state keeps (the run's own descriptor). */
	static const unsigned long fadvs[] = { POSIX_FADV_NORMAL, POSIX_FADV_RANDOM, POSIX_FADV_SEQUENTIAL };
	const unsigned long ns = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
				 CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
	uint32_t a = SCMP_ACT_ALLOW;
	int rc = -EINVAL;

	switch (m) {
	case SBX_SCM_CLONE_THREAD:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | ns, CLONE_THREAD));
		break;
	case SBX_SCM_NOT_FD_A0:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_NE, fd));
		break;
	case SBX_SCM_NOT_FD_A1:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_NE, fd));
		break;
	case SBX_SCM_RANGE_NOT_FD:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_GT, fd));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_LT, fd));
		break;
	case SBX_SCM_FREE_SIG:
		/* SIGXFSZ < SIGSYS on every Linux ABI: below, between, above. */
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_LT, SIGXFSZ));
		for (int sig = SIGXFSZ + 1; sig < SIGSYS && rc == 0; sig++)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_EQ, (unsigned)sig));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_GT, SIGSYS));
		break;
	case SBX_SCM_GET_LIMIT:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A2(SCMP_CMP_EQ, 0));
		break;
	case SBX_SCM_PROT_NO_EXEC:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
		break;
	case SBX_SCM_MMAP:
		/* W^X for every mapping: anything not executable, or an executable mapping of a file
		 * that is not writable (the loader maps an extension's text that way). A writable and
		 * executable one, private or shared, file or anonymous, is refused: its bytes would
		 * become code. */
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 2, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE, 0),
					      SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, 0));
		break;
	case SBX_SCM_IOCTL_OK:
		rc = allow_values(ctx, nr, 1, ioctls, N_OF(ioctls));
		break;
	case SBX_SCM_FCNTL_OK:
		rc = allow_values(ctx, nr, 1, fcntls, N_OF(fcntls));
		break;
	case SBX_SCM_FUTEX_OK:
		/* Private futexes are keyed by the process's own memory. A shared one on a file
		 * page is keyed by the file, which every run maps: only its waits are allowed (glibc's
		 * pthread_join waits shared on the thread id, which the kernel wakes), never a wake,
		 * a requeue or a PI lock, which would reach another run. */
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, FUTEX_PRIVATE_FLAG, FUTEX_PRIVATE_FLAG));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, FUTEX_CMD_PRIVATE, FUTEX_WAIT));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, FUTEX_CMD_PRIVATE, FUTEX_WAIT_BITSET));
		break;
	case SBX_SCM_EXISTS:
		rc = seccomp_rule_add(ctx, a, nr, 2, SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu, F_OK),
				      SCMP_A3(SCMP_CMP_MASKED_EQ, 0xffffffffu, AT_EACCESS));
		break;
	case SBX_SCM_MADVISE_OK:
		rc = allow_values(ctx, nr, 2, madvs, N_OF(madvs));
		break;
	case SBX_SCM_FADVISE_OK:
		rc = allow_values(ctx, nr, 3, fadvs, N_OF(fadvs));
		break;
	case SBX_SCM_PRCTL_OK:
		for (size_t i = 0; i < sizeof prctls / sizeof prctls[0] && (rc = 0) == 0; i++)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_EQ, prctls[i]));
		break;
	default:
		break;
	}
	return rc;
}

static int add_rule(scmp_filter_ctx ctx, const struct sbi_sc_rule *r, int nr, int event_fd)
{
	uint32_t act = r->action == SBX_SC_ALLOW ? SCMP_ACT_ALLOW :
		       r->action == SBX_SC_ENOSYS ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ERRNO(EPERM);
	int rc = 0;
	unsigned fd = (unsigned)event_fd;

	switch (r->match) {
	case SBX_SCM_ALL:
		rc = seccomp_rule_add(ctx, act, nr, 0);
		break;
	case SBX_SCM_FD_A0:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A0(SCMP_CMP_EQ, fd));
		break;
	case SBX_SCM_FD_A1:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A1(SCMP_CMP_EQ, fd));
		break;
	case SBX_SCM_RANGE_FD:
		rc = seccomp_rule_add(ctx, act, nr, 2, SCMP_A0(SCMP_CMP_LE, fd), SCMP_A1(SCMP_CMP_GE, fd));
		break;
	case SBX_SCM_GUARDED_SIG:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A0(SCMP_CMP_EQ, SIGSYS));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A0(SCMP_CMP_EQ, SIGXFSZ));
		break;
	default:
		rc = add_allow(ctx, r->match, nr, fd);
		break;
	}
	return rc;
}

/* The filter libseccomp built, read back as raw BPF from an anonymous file. */
static int export_filter(scmp_filter_ctx ctx, struct sbi_seccomp_filter *f)
{
	int fd = memfd_create("sbx-seccomp", MFD_CLOEXEC), rc = -1, err;
	off_t size;

	if (fd < 0)
		return -1;
	if ((err = -seccomp_export_bpf(ctx, fd)) != 0) {
		errno = err;
		goto out;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || size % (off_t)sizeof *f->insns != 0 ||
	    size / (off_t)sizeof *f->insns > BPF_MAXINSNS) {
		errno = EINVAL;
		goto out;
	}
	if (!(f->insns = malloc((size_t)size)))
		goto out;
	if (pread(fd, f->insns, (size_t)size, 0) != (ssize_t)size) {
		errno = EIO;
		goto out;
	}
	f->len = (unsigned short)(size / (off_t)sizeof *f->insns);
	rc = 0;
out:
	err = errno;
	close(fd);
	if (rc < 0)
		sbi_seccomp_release(f);
	errno = err;
	return rc;
}

int sbi_seccomp_compile(int event_fd, struct sbi_seccomp_filter *f)
{
	scmp_filter_ctx ctx = NULL;
	int rc = -1, err = EINVAL;

	memset(f, 0, sizeof *f);
	for (int nr = 0; nr < MAX_NR; nr++)
		if (!nr_name[nr])
			nr_name[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	ctx = seccomp_init(SCMP_ACT_TRAP);
	if (!ctx)
		goto out;
	/* A call from another ABI (int 0x80, x32) would dodge every rule: kill it instead. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) < 0)
		goto out;
	for (size_t i = 0; i < N_POLICY; i++) {
		int nr = seccomp_syscall_resolve_name(policy[i].name);
		policy_nr[i] = nr;
		if (nr == __NR_SCMP_ERROR || nr < 0 || policy[i].action == SBX_SC_TRAP ||
		    policy[i].action == SBX_SC_FAKE)
			continue;  /* not on this architecture, or the default already */
		if ((err = -add_rule(ctx, &policy[i], nr, event_fd)) != 0)
			goto out;
	}
	if (export_filter(ctx, f) < 0) {
		err = errno;
		goto out;
	}
	rc = 0;
out:
	seccomp_release(ctx);
	if (rc < 0)
		errno = err;
	return rc;
}

int sbi_seccomp_install(const struct sbi_seccomp_filter *f, int event_fd, unsigned long mem_bytes)
{
	struct sock_fprog prog = { f->len, f->insns };
	struct sigaction sa;

	if (!f->insns) {
		errno = EINVAL;
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	trap_event_fd = event_fd;
	fake_mem_bytes = mem_bytes;
	if (sigaction(SIGSYS, &sa, NULL) < 0)
		return -1;
	/* What libseccomp's seccomp_load does with default attributes: no flags, this thread. */
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

void sbi_seccomp_release(struct sbi_seccomp_filter *f)
{
	free(f->insns);
	memset(f, 0, sizeof *f);
}
