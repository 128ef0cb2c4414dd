/* sbi_seccomp.c - the run's seccomp filter: built from a policy table with libseccomp once, in
 * the zygote, and loaded as raw BPF by each run. */
#include "sbi_seccomp.h"
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
 * marked SBI_SC_ALLOW pass, some only for the arguments their match selects. The list is what
 * CPython, numpy and pandas were measured to call after lockdown (strace -f over the honest,
 * causal, leaky, demo and hostile corpora), plus what the interpreter and the loader call on
 * paths those corpora did not take (imports after lockdown, tracebacks, threads, sleeps).
 * Trap entries change nothing in the filter; they name the rule a refusal reports. */
static const struct sbi_sc_rule policy[] = {
	/* memory: W^X, an executable page only ever comes from a file the loader maps */
	{ "brk", SBI_SC_ALLOW, SBI_SCM_ALL, "", "the heap" },
	{ "mmap", SBI_SC_ALLOW, SBI_SCM_MMAP, "", "arenas, arrays; PROT_EXEC only of a file, never writable too (extension modules)" },
	{ "mmap", SBI_SC_TRAP, SBI_SCM_ALL, NO_EXEC_MEM, "anonymous writable-then-executable memory runs injected code" },
	{ "mprotect", SBI_SC_ALLOW, SBI_SCM_PROT_NO_EXEC, "", "the loader's RELRO and guard pages" },
	{ "mprotect", SBI_SC_TRAP, SBI_SCM_ALL, NO_EXEC_MEM, "making a page executable after writing it" },
	{ "pkey_mprotect", SBI_SC_ALLOW, SBI_SCM_PROT_NO_EXEC, "", "as mprotect" },
	{ "pkey_mprotect", SBI_SC_TRAP, SBI_SCM_ALL, NO_EXEC_MEM, "making a page executable after writing it" },
	{ "munmap", SBI_SC_ALLOW, SBI_SCM_ALL, "", "freeing arenas and arrays" },
	{ "mremap", SBI_SC_ALLOW, SBI_SCM_ALL, "", "realloc of large arrays (keeps the protection)" },
	{ "madvise", SBI_SC_ALLOW, SBI_SCM_MADVISE_OK, "", "malloc trimming (DONTNEED, FREE), numpy's huge-page hint: advice about the run's own pages" },
	{ "madvise", SBI_SC_TRAP, SBI_SCM_ALL, APART, "WILLNEED, COLD, PAGEOUT, POPULATE, REMOVE, MERGEABLE, COLLAPSE: evict, pre-fault or merge pages other runs read" },
	{ "msync", SBI_SC_ALLOW, SBI_SCM_ALL, "", "numpy.memmap flush within scratch" },
	{ "mincore", SBI_SC_TRAP, SBI_SCM_ALL, APART, "which file pages are cached tells one run what another read" },
	{ "cachestat", SBI_SC_TRAP, SBI_SCM_ALL, APART, "as mincore, by file range" },
	{ "readahead", SBI_SC_TRAP, SBI_SCM_ALL, APART, "fills the page cache other runs read" },
	/* files: Landlock decides which; these are the calls that reach them */
	{ "read", SBI_SC_ALLOW, SBI_SCM_ALL, "", "module sources, scratch files" },
	{ "write", SBI_SC_ALLOW, SBI_SCM_ALL, "", "stdout, stderr, result, scratch" },
	{ "pread64", SBI_SC_ALLOW, SBI_SCM_ALL, "", "the loader reads ELF headers" },
	{ "pwrite64", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "readv", SBI_SC_ALLOW, SBI_SCM_ALL, "", "buffered I/O" },
	{ "writev", SBI_SC_ALLOW, SBI_SCM_ALL, "", "buffered I/O" },
	{ "openat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "imports, scratch files (Landlock judges the path)" },
	{ "open", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as openat" },
	{ "close", SBI_SC_ALLOW, SBI_SCM_NOT_FD_A0, "", "every descriptor but the events channel" },
	{ "close", SBI_SC_TRAP, SBI_SCM_FD_A0, FIXED, "the events channel must stay open" },
	{ "close_range", SBI_SC_ALLOW, SBI_SCM_RANGE_NOT_FD, "", "ranges that spare the events channel" },
	{ "close_range", SBI_SC_TRAP, SBI_SCM_RANGE_FD, FIXED, "the events channel must stay open" },
	{ "dup", SBI_SC_ALLOW, SBI_SCM_ALL, "", "descriptor copies" },
	{ "dup2", SBI_SC_ALLOW, SBI_SCM_NOT_FD_A1, "", "any target but the events channel" },
	{ "dup2", SBI_SC_TRAP, SBI_SCM_FD_A1, FIXED, "the events channel must not be replaced" },
	{ "dup3", SBI_SC_ALLOW, SBI_SCM_NOT_FD_A1, "", "any target but the events channel" },
	{ "dup3", SBI_SC_TRAP, SBI_SCM_FD_A1, FIXED, "the events channel must not be replaced" },
	{ "lseek", SBI_SC_ALLOW, SBI_SCM_ALL, "", "file positions" },
	{ "fstat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "imports, open()" },
	{ "stat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "imports (names outside are the hook's to record)" },
	{ "lstat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as stat" },
	{ "newfstatat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as stat" },
	{ "statx", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as stat" },
	/* metadata Landlock does not mediate and CPython raises no event for: refused, recorded */
	{ "statfs", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "os.statvfs, os.pathconf: a disk's size and kind" },
	{ "fstatfs", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "as statfs" },
	{ "access", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "os.access: who may read or write a host path" },
	{ "faccessat", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "as access" },
	{ "faccessat2", SBI_SC_ALLOW, SBI_SCM_EXISTS, "", "realpath (in the hook, os.path) asks only whether a name exists, which stat tells" },
	{ "faccessat2", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "as access" },
	{ "readlink", SBI_SC_ALLOW, SBI_SCM_ALL, "", "realpath in the hook and in os.path" },
	{ "readlinkat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as readlink" },
	{ "getdents64", SBI_SC_ALLOW, SBI_SCM_ALL, "", "the import system lists sys.path directories" },
	{ "getcwd", SBI_SC_ALLOW, SBI_SCM_ALL, "", "relative paths" },
	{ "chdir", SBI_SC_ALLOW, SBI_SCM_ALL, "", "within what Landlock shows" },
	{ "fchdir", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as chdir" },
	{ "mkdir", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch directories" },
	{ "mkdirat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch directories" },
	{ "rmdir", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch directories" },
	{ "unlink", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files (tempfile)" },
	{ "unlinkat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files (shutil.rmtree)" },
	{ "rename", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "renameat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "renameat2", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "link", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "linkat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "symlink", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "symlinkat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "chmod", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files (tempfile)" },
	{ "fchmod", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "fchmodat", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "umask", SBI_SC_ALLOW, SBI_SCM_ALL, "", "tempfile" },
	{ "truncate", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "ftruncate", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "fallocate", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files (bounded by RLIMIT_FSIZE)" },
	{ "fsync", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "fdatasync", SBI_SC_ALLOW, SBI_SCM_ALL, "", "scratch files" },
	{ "fadvise64", SBI_SC_ALLOW, SBI_SCM_FADVISE_OK, "", "NORMAL, RANDOM, SEQUENTIAL: the run's own open file's read-ahead window" },
	{ "fadvise64", SBI_SC_TRAP, SBI_SCM_ALL, APART, "WILLNEED reads pages in, DONTNEED evicts them, NOREUSE ages them: the page cache every run reads" },
	{ "copy_file_range", SBI_SC_ALLOW, SBI_SCM_ALL, "", "shutil.copyfile in scratch" },
	{ "sendfile", SBI_SC_ALLOW, SBI_SCM_ALL, "", "shutil.copyfile in scratch" },
	{ "fcntl", SBI_SC_ALLOW, SBI_SCM_FCNTL_OK, "", "descriptor flags, duplicates and pipe sizes" },
	{ "fcntl", SBI_SC_TRAP, SBI_SCM_ALL, APART, "record locks, leases and notices on files every run can open are channels between runs" },
	{ "pipe", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "a pipe's inode number is a machine-wide counter (every pipe, socket and eventfd since boot)" },
	{ "pipe2", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "as pipe" },
	{ "eventfd", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "as pipe" },
	{ "eventfd2", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_NO_HOST_FACTS, "as pipe" },
	{ "poll", SBI_SC_ALLOW, SBI_SCM_ALL, "", "select on own descriptors" },
	{ "ppoll", SBI_SC_ALLOW, SBI_SCM_ALL, "", "select on own descriptors" },
	{ "select", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.sleep in older code, select" },
	{ "pselect6", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as select" },
	{ "ioctl", SBI_SC_ALLOW, SBI_SCM_IOCTL_OK, "", "isatty (TCGETS), terminal size, FIOCLEX, FIONREAD" },
	{ "ioctl", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_IOCTL, "other requests drive devices (TIOCSTI types into terminals)" },
	{ "mknod", SBI_SC_TRAP, SBI_SCM_ALL, NO_SPECIAL, "fifos and device nodes are channels and devices" },
	{ "mknodat", SBI_SC_TRAP, SBI_SCM_ALL, NO_SPECIAL, "os.mkfifo and os.mknod" },
	/* the events channel: send() on fd 4 */
	{ "sendto", SBI_SC_ALLOW, SBI_SCM_ALL, "", "events on the inherited channel; no socket can be made" },
	/* time */
	{ "clock_gettime", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.monotonic when the vDSO is not used" },
	{ "clock_getres", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.get_clock_info" },
	{ "gettimeofday", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.time fallback" },
	{ "time", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.time fallback" },
	{ "nanosleep", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.sleep (the wall clock bounds it)" },
	{ "clock_nanosleep", SBI_SC_ALLOW, SBI_SCM_ALL, "", "time.sleep" },
	{ "times", SBI_SC_FAKE, SBI_SCM_ALL, "", "os.times: answered from getrusage and the run's own monotonic clock (the kernel's answer counts ticks since boot)" },
	{ "getrusage", SBI_SC_ALLOW, SBI_SCM_ALL, "", "resource.getrusage, time.process_time" },
	/* who am I: reads only */
	{ "getpid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getpid, tempfile names" },
	{ "gettid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "threading" },
	{ "getppid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getppid" },
	{ "getuid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getuid, getpass" },
	{ "geteuid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.geteuid" },
	{ "getgid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getgid" },
	{ "getegid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getegid" },
	{ "getgroups", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getgroups" },
	{ "getresuid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getresuid" },
	{ "getresgid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getresgid" },
	{ "getpgrp", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getpgrp" },
	{ "getpgid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getpgid" },
	{ "getsid", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getsid" },
	{ "uname", SBI_SC_FAKE, SBI_SCM_ALL, "", "platform, os.uname: one fixed answer (the kernel's release and build are the host's)" },
	{ "sysinfo", SBI_SC_FAKE, SBI_SCM_ALL, "", "glibc's memory queries (os.sysconf): the run's memory budget, its own uptime; not the machine's RAM, load or process count" },
	{ "getrlimit", SBI_SC_ALLOW, SBI_SCM_ALL, "", "resource.getrlimit" },
	{ "prlimit64", SBI_SC_ALLOW, SBI_SCM_GET_LIMIT, "", "reading limits" },
	{ "prlimit64", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_LIMITS, "reading limits is fine, setting them is not" },
	{ "getrandom", SBI_SC_ALLOW, SBI_SCM_ALL, "", "hash seeds, random, numpy's default_rng" },
	{ "getpriority", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.getpriority" },
	{ "sched_getaffinity", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.sched_getaffinity, BLAS thread counts" },
	{ "sched_yield", SBI_SC_ALLOW, SBI_SCM_ALL, "", "spin locks in BLAS" },
	{ "sched_getparam", SBI_SC_ALLOW, SBI_SCM_ALL, "", "reading the schedule" },
	{ "sched_getscheduler", SBI_SC_ALLOW, SBI_SCM_ALL, "", "reading the schedule" },
	{ "sched_get_priority_max", SBI_SC_ALLOW, SBI_SCM_ALL, "", "reading the schedule" },
	{ "sched_get_priority_min", SBI_SC_ALLOW, SBI_SCM_ALL, "", "reading the schedule" },
	{ "getcpu", SBI_SC_ALLOW, SBI_SCM_ALL, "", "glibc's per-CPU arenas" },
	{ "sched_setaffinity", SBI_SC_TRAP, SBI_SCM_ALL, SCHEDULE, "CPU placement is the host's" },
	{ "sched_setscheduler", SBI_SC_TRAP, SBI_SCM_ALL, SCHEDULE, "real-time classes starve the host" },
	{ "sched_setparam", SBI_SC_TRAP, SBI_SCM_ALL, SCHEDULE, "priority is the host's" },
	{ "sched_setattr", SBI_SC_TRAP, SBI_SCM_ALL, SCHEDULE, "real-time classes starve the host" },
	{ "setpriority", SBI_SC_TRAP, SBI_SCM_ALL, SCHEDULE, "priority is the host's" },
	{ "ioprio_set", SBI_SC_TRAP, SBI_SCM_ALL, SCHEDULE, "I/O priority is the host's" },
	/* threads (numpy's BLAS, threading), signals to itself */
	{ "clone", SBI_SC_ALLOW, SBI_SCM_CLONE_THREAD, "", "threads only, no namespace flag" },
	{ "clone", SBI_SC_TRAP, SBI_SCM_ALL, NO_PROC, "threads may start, processes may not" },
	{ "clone3", SBI_SC_ENOSYS, SBI_SCM_ALL, NO_PROC, "flags sit in memory seccomp cannot read; libc falls back to clone" },
	{ "set_robust_list", SBI_SC_ALLOW, SBI_SCM_ALL, "", "a new thread's futex list" },
	{ "rseq", SBI_SC_ALLOW, SBI_SCM_ALL, "", "a new thread registers with glibc" },
	{ "set_tid_address", SBI_SC_ALLOW, SBI_SCM_ALL, "", "thread start" },
	{ "futex", SBI_SC_ALLOW, SBI_SCM_FUTEX_OK, "", "locks, the GIL (private); a thread join's wait (shared)" },
	{ "futex", SBI_SC_TRAP, SBI_SCM_ALL, APART, "a shared wake on a file page every run maps reaches another run" },
	{ "futex_waitv", SBI_SC_TRAP, SBI_SCM_ALL, APART, "its shared flag sits in memory seccomp cannot read" },
	{ "exit", SBI_SC_ALLOW, SBI_SCM_ALL, "", "a thread ends" },
	{ "exit_group", SBI_SC_ALLOW, SBI_SCM_ALL, "", "the run ends" },
	{ "sigaltstack", SBI_SC_ALLOW, SBI_SCM_ALL, "", "thread start, faulthandler" },
	{ "rt_sigreturn", SBI_SC_ALLOW, SBI_SCM_ALL, "", "return from the SIGSYS handler itself" },
	{ "rt_sigprocmask", SBI_SC_ALLOW, SBI_SCM_ALL, "", "thread start, signal masks" },
	{ "rt_sigaction", SBI_SC_ALLOW, SBI_SCM_FREE_SIG, "", "signal module, on any signal but the guarded two" },
	{ "rt_sigaction", SBI_SC_TRAP, SBI_SCM_GUARDED_SIG, FIXED, "the sandbox's signal handlers record refusals" },
	{ "rt_sigpending", SBI_SC_ALLOW, SBI_SCM_ALL, "", "signal.sigpending" },
	{ "rt_sigtimedwait", SBI_SC_ALLOW, SBI_SCM_ALL, "", "signal.sigtimedwait" },
	{ "rt_sigsuspend", SBI_SC_ALLOW, SBI_SCM_ALL, "", "signal.pause" },
	{ "restart_syscall", SBI_SC_ALLOW, SBI_SCM_ALL, "", "the kernel restarts an interrupted sleep" },
	{ "kill", SBI_SC_ALLOW, SBI_SCM_ALL, "", "abort(); Landlock scopes signals to the run's own domain" },
	{ "tgkill", SBI_SC_ALLOW, SBI_SCM_ALL, "", "abort(), signal.pthread_kill on own threads" },
	{ "tkill", SBI_SC_ALLOW, SBI_SCM_ALL, "", "as tgkill" },
	{ "wait4", SBI_SC_ALLOW, SBI_SCM_ALL, "", "os.wait; a run has no child to wait for" },
	{ "prctl", SBI_SC_ALLOW, SBI_SCM_PRCTL_OK, "", "thread names, reading dumpable and no_new_privs" },
	{ "prctl", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_PRCTL, "other options change the process" },
	/* refused with their own rule (nothing here is on the allowlist) */
	{ "execve", SBI_SC_TRAP, SBI_SCM_ALL, NO_PROC, "a strategy runs no programs" },
	{ "execveat", SBI_SC_TRAP, SBI_SCM_ALL, NO_PROC, "a strategy runs no programs" },
	{ "fork", SBI_SC_TRAP, SBI_SCM_ALL, NO_PROC, "one process per run" },
	{ "vfork", SBI_SC_TRAP, SBI_SCM_ALL, NO_PROC, "one process per run" },
	{ "socket", SBI_SC_TRAP, SBI_SCM_ALL, NO_NET, "any family: Landlock does not cover UDP or unix sockets" },
	{ "socketpair", SBI_SC_TRAP, SBI_SCM_ALL, NO_NET, "no sockets at all" },
	{ "shutdown", SBI_SC_TRAP, SBI_SCM_ALL, FIXED, "would cut the events channel" },
	{ "ptrace", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no debugging of anything" },
	{ "process_vm_readv", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no reading other address spaces" },
	{ "process_vm_writev", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no writing other address spaces" },
	{ "pidfd_open", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no handles on other processes" },
	{ "pidfd_getfd", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no stealing descriptors" },
	{ "kcmp", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no probing other processes" },
	{ "io_uring_setup", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "io_uring bypasses seccomp for its operations" },
	{ "io_uring_enter", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "io_uring bypasses seccomp for its operations" },
	{ "io_uring_register", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "io_uring bypasses seccomp for its operations" },
	{ "userfaultfd", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "a classic exploit primitive" },
	{ "memfd_create", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "anonymous files serve loaders and exploits" },
	{ "memfd_secret", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "not needed" },
	{ "keyctl", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the keyring holds no strategy data" },
	{ "add_key", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the keyring holds no strategy data" },
	{ "request_key", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the keyring holds no strategy data" },
	{ "bpf", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no kernel programs" },
	{ "perf_event_open", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "side channels and kernel bugs" },
	{ "mount", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "umount2", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "pivot_root", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "chroot", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "move_mount", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "open_tree", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "fsopen", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "fsmount", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "fspick", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "mount_setattr", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "the file system view is fixed" },
	{ "unshare", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "no new namespaces from inside" },
	{ "setns", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "no joining other namespaces" },
	{ "open_by_handle_at", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "walks around path checks" },
	{ "name_to_handle_at", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "walks around path checks" },
	{ "init_module", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no kernel modules" },
	{ "finit_module", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no kernel modules" },
	{ "delete_module", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no kernel modules" },
	{ "kexec_load", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no kernel replacement" },
	{ "kexec_file_load", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no kernel replacement" },
	{ "reboot", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no host control" },
	{ "swapon", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no host control" },
	{ "swapoff", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no host control" },
	{ "acct", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no host control" },
	{ "quotactl", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no host control" },
	{ "syslog", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the kernel log is not the strategy's" },
	{ "settimeofday", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "clock_settime", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "clock_adjtime", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "adjtimex", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "the clock is the host's" },
	{ "sethostname", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "not needed" },
	{ "setdomainname", SBI_SC_TRAP, SBI_SCM_ALL, NO_NS, "not needed" },
	{ "personality", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "could switch off address randomisation" },
	{ "fanotify_init", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "no watching the file system" },
	{ "inotify_init", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "watches see host names Landlock hides; instances are the host's" },
	{ "inotify_init1", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "watches see host names Landlock hides; instances are the host's" },
	{ "inotify_add_watch", SBI_SC_TRAP, SBI_SCM_ALL, NO_KERN, "watches see host names Landlock hides" },
	{ "utimensat", SBI_SC_TRAP, SBI_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "utimes", SBI_SC_TRAP, SBI_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "utime", SBI_SC_TRAP, SBI_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "futimesat", SBI_SC_TRAP, SBI_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "flock", SBI_SC_TRAP, SBI_SCM_ALL, APART, "a lock on a shared file is a channel between runs" },
	{ "setuid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setgid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setreuid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setregid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setresuid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setresgid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setgroups", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setfsuid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setfsgid", SBI_SC_TRAP, SBI_SCM_ALL, IDENTITY, "identity is fixed" },
	{ "setrlimit", SBI_SC_TRAP, SBI_SCM_ALL, SBX_R_LIMITS, "limits are set before the upload loads" },
	{ "shmget", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no shared memory" },
	{ "msgget", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no message queues" },
	{ "semget", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no semaphores" },
	{ "mq_open", SBI_SC_TRAP, SBI_SCM_ALL, NO_PEEK, "no message queues" },
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
		if (policy_nr[i] == nr && policy[i].action == SBI_SC_TRAP) {
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

/* The answers of the SBI_SC_FAKE calls: the same in every run of every audit on any machine
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

/* Answers a SBI_SC_FAKE call into the registers; returns 0 when nr is not one. */
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
	case SBI_SCM_CLONE_THREAD:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | ns, CLONE_THREAD));
		break;
	case SBI_SCM_NOT_FD_A0:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_NE, fd));
		break;
	case SBI_SCM_NOT_FD_A1:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_NE, fd));
		break;
	case SBI_SCM_RANGE_NOT_FD:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_GT, fd));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A1(SCMP_CMP_LT, fd));
		break;
	case SBI_SCM_FREE_SIG:
		/* SIGXFSZ < SIGSYS on every Linux ABI: below, between, above. */
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_LT, SIGXFSZ));
		for (int sig = SIGXFSZ + 1; sig < SIGSYS && rc == 0; sig++)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_EQ, (unsigned)sig));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A0(SCMP_CMP_GT, SIGSYS));
		break;
	case SBI_SCM_GET_LIMIT:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A2(SCMP_CMP_EQ, 0));
		break;
	case SBI_SCM_PROT_NO_EXEC:
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
		break;
	case SBI_SCM_MMAP:
		/* W^X for every mapping: anything not executable, or an executable mapping of a file
		 * that is not writable (the loader maps an extension's text that way). A writable and
		 * executable one, private or shared, file or anonymous, is refused: its bytes would
		 * become code. */
		rc = seccomp_rule_add(ctx, a, nr, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, a, nr, 2, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE, 0),
					      SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, 0));
		break;
	case SBI_SCM_IOCTL_OK:
		rc = allow_values(ctx, nr, 1, ioctls, N_OF(ioctls));
		break;
	case SBI_SCM_FCNTL_OK:
		rc = allow_values(ctx, nr, 1, fcntls, N_OF(fcntls));
		break;
	case SBI_SCM_FUTEX_OK:
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
	case SBI_SCM_EXISTS:
		rc = seccomp_rule_add(ctx, a, nr, 2, SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu, F_OK),
				      SCMP_A3(SCMP_CMP_MASKED_EQ, 0xffffffffu, AT_EACCESS));
		break;
	case SBI_SCM_MADVISE_OK:
		rc = allow_values(ctx, nr, 2, madvs, N_OF(madvs));
		break;
	case SBI_SCM_FADVISE_OK:
		rc = allow_values(ctx, nr, 3, fadvs, N_OF(fadvs));
		break;
	case SBI_SCM_PRCTL_OK:
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
	uint32_t act = r->action == SBI_SC_ALLOW ? SCMP_ACT_ALLOW :
		       r->action == SBI_SC_ENOSYS ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ERRNO(EPERM);
	int rc = 0;
	unsigned fd = (unsigned)event_fd;

	switch (r->match) {
	case SBI_SCM_ALL:
		rc = seccomp_rule_add(ctx, act, nr, 0);
		break;
	case SBI_SCM_FD_A0:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A0(SCMP_CMP_EQ, fd));
		break;
	case SBI_SCM_FD_A1:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A1(SCMP_CMP_EQ, fd));
		break;
	case SBI_SCM_RANGE_FD:
		rc = seccomp_rule_add(ctx, act, nr, 2, SCMP_A0(SCMP_CMP_LE, fd), SCMP_A1(SCMP_CMP_GE, fd));
		break;
	case SBI_SCM_GUARDED_SIG:
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
		if (nr == __NR_SCMP_ERROR || nr < 0 || policy[i].action == SBI_SC_TRAP ||
		    policy[i].action == SBI_SC_FAKE)
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
