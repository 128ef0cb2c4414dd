/* sbx_seccomp.c - the run's seccomp filter: built from a policy table with libseccomp once, in
 * the zygote, and loaded as raw BPF by each run. */
#include "sbx_seccomp.h"
#include "sbx_proto.h"

#include <errno.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define NO_PROC "no process spawning"
#define NO_NET "no network"
#define NO_NS "no namespace or mount changes"
#define NO_PEEK "no reaching into other processes"
#define NO_KERN "no kernel attack surface"
#define FIXED "the sandbox's own plumbing is fixed"
#define HOST_FILES "host files stay unchanged"

/* Default allow: a strategy is numeric code, and the other layers (namespaces, Landlock,
 * rlimits) already confine what an allowed call can reach. This list removes the calls that
 * would widen that reach or attack the kernel. */
static const struct sbx_sc_rule policy[] = {
	{ "execve", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "a strategy runs no programs" },
	{ "execveat", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "a strategy runs no programs" },
	{ "fork", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "one process per run" },
	{ "vfork", SBX_SC_TRAP, SBX_SCM_ALL, NO_PROC, "one process per run" },
	{ "clone", SBX_SC_TRAP, SBX_SCM_CLONE_PROCESS, NO_PROC, "threads may start, processes may not" },
	{ "clone", SBX_SC_TRAP, SBX_SCM_CLONE_NS, NO_NS, "no new namespaces from inside" },
	{ "clone3", SBX_SC_ENOSYS, SBX_SCM_ALL, NO_PROC, "flags sit in memory seccomp cannot read; libc falls back to clone" },
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
	{ "lookup_dcookie", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "not needed" },
	{ "fanotify_init", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "no watching the file system" },
	{ "inotify_init", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "watches see host names Landlock hides; instances are the host's" },
	{ "inotify_init1", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "watches see host names Landlock hides; instances are the host's" },
	{ "inotify_add_watch", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "watches see host names Landlock hides" },
	{ "utimensat", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "utimes", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "utime", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "futimesat", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "Landlock does not cover timestamps" },
	{ "flock", SBX_SC_TRAP, SBX_SCM_ALL, HOST_FILES, "a lock on a shared file is a channel between runs" },
	{ "setuid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setgid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setreuid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setregid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setresuid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setresgid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setgroups", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setfsuid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setfsgid", SBX_SC_TRAP, SBX_SCM_ALL, NO_KERN, "identity is fixed" },
	{ "setrlimit", SBX_SC_TRAP, SBX_SCM_ALL, "limits are fixed", "limits are set before the upload loads" },
	{ "prlimit64", SBX_SC_TRAP, SBX_SCM_SET_LIMIT, "limits are fixed", "reading limits is fine, setting them is not" },
	{ "shmget", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no shared memory" },
	{ "msgget", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no message queues" },
	{ "semget", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no semaphores" },
	{ "mq_open", SBX_SC_TRAP, SBX_SCM_ALL, NO_PEEK, "no message queues" },
	{ "ioctl", SBX_SC_TRAP, SBX_SCM_IOCTL_TTY, "no typing into terminals", "TIOCSTI and TIOCLINUX inject input" },
	{ "close", SBX_SC_EPERM, SBX_SCM_FD_A0, FIXED, "the events channel must stay open" },
	{ "dup2", SBX_SC_EPERM, SBX_SCM_FD_A1, FIXED, "the events channel must not be replaced" },
	{ "dup3", SBX_SC_EPERM, SBX_SCM_FD_A1, FIXED, "the events channel must not be replaced" },
	{ "close_range", SBX_SC_EPERM, SBX_SCM_RANGE_FD, FIXED, "the events channel must stay open" },
	{ "rt_sigaction", SBX_SC_EPERM, SBX_SCM_GUARDED_SIG, FIXED, "the sandbox's signal handlers record refusals" },
};

#define N_POLICY (sizeof(policy) / sizeof(policy[0]))

/* Syscall numbers of the table, resolved when the filter is compiled (in the zygote, inherited
 * by every run), so the SIGSYS handler can name a call without allocating. */
static int policy_nr[N_POLICY];
static int trap_event_fd = -1;

const struct sbx_sc_rule *sbx_seccomp_policy(size_t *n)
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

size_t sbx_seccomp_event(long nr, char *buf, size_t len)
{
	const char *name = "unknown", *rule = "no kernel attack surface";
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

/* Async-signal-safe: formats into a stack buffer, sends one message, makes the call fail. */
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	char buf[SBX_EVENT_MAX];
	size_t len = sbx_seccomp_event(si->si_syscall, buf, sizeof buf);
	ucontext_t *uc = ctx;
	int saved = errno;

	(void)sig;
	if (trap_event_fd >= 0)
		(void)send(trap_event_fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
#if defined(__x86_64__)
	uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#else
	(void)uc;
#endif
	errno = saved;
}

static int add_rule(scmp_filter_ctx ctx, const struct sbx_sc_rule *r, int nr, int event_fd)
{
	uint32_t act = r->action == SBX_SC_TRAP ? SCMP_ACT_TRAP :
		       r->action == SBX_SC_ENOSYS ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ERRNO(EPERM);
	int rc = 0;
	unsigned fd = (unsigned)event_fd;

	switch (r->match) {
	case SBX_SCM_ALL:
		rc = seccomp_rule_add(ctx, act, nr, 0);
		break;
	case SBX_SCM_CLONE_PROCESS:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
		break;
	case SBX_SCM_CLONE_NS: {
		static const unsigned long ns[] = { CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID,
			CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP };
		for (size_t i = 0; i < sizeof ns / sizeof ns[0] && rc == 0; i++)
			rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, ns[i], ns[i]));
		break;
	}
	case SBX_SCM_IOCTL_TTY:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, act, nr, 1,
					      SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX));
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
	case SBX_SCM_SET_LIMIT:
		rc = seccomp_rule_add(ctx, act, nr, 1, SCMP_A2(SCMP_CMP_NE, 0));
		break;
	}
	return rc;
}

/* The filter libseccomp built, read back as raw BPF from an anonymous file. */
static int export_filter(scmp_filter_ctx ctx, struct sbx_seccomp_filter *f)
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
		sbx_seccomp_release(f);
	errno = err;
	return rc;
}

int sbx_seccomp_compile(int event_fd, struct sbx_seccomp_filter *f)
{
	scmp_filter_ctx ctx = NULL;
	int rc = -1, err = EINVAL;

	memset(f, 0, sizeof *f);
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		goto out;
	/* A call from another ABI (int 0x80, x32) would dodge every rule: kill it instead. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) < 0)
		goto out;
	for (size_t i = 0; i < N_POLICY; i++) {
		int nr = seccomp_syscall_resolve_name(policy[i].name);
		policy_nr[i] = nr;
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;  /* not a syscall on this architecture */
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

int sbx_seccomp_install(const struct sbx_seccomp_filter *f, int event_fd)
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
	if (sigaction(SIGSYS, &sa, NULL) < 0)
		return -1;
	/* What libseccomp's seccomp_load does with default attributes: no flags, this thread. */
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

void sbx_seccomp_release(struct sbx_seccomp_filter *f)
{
	free(f->insns);
	memset(f, 0, sizeof *f);
}
