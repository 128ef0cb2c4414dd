/* sbi_seccomp.h - the run's syscall policy (a table with a reason per entry) and its filter. */
#ifndef SBX_SECCOMP_H
#define SBX_SECCOMP_H

#include <linux/filter.h>
#include <stddef.h>

/* What a policy entry does to a matching call. */
enum sbi_sc_action {
	SBI_SC_ALLOW,   /* on the allowlist (for the calls its match selects) */
	SBI_SC_TRAP,    /* refused with EPERM and recorded as an event (SIGSYS handler); the
			 * filter's default, so an entry only names the rule a refusal reports */
	SBI_SC_ENOSYS,  /* refused silently with ENOSYS, so libc falls back (clone3) */
	SBI_SC_FAKE,    /* trapped like SBI_SC_TRAP, but answered by the SIGSYS handler with values
			 * that are the same in every run (nothing of the host), not recorded */
};

/* Which calls of the syscall an entry matches. */
enum sbi_sc_match {
	SBI_SCM_ALL,
	SBI_SCM_FD_A0,          /* first argument is the events descriptor */
	SBI_SCM_FD_A1,          /* second argument is the events descriptor */
	SBI_SCM_RANGE_FD,       /* close_range covering the events descriptor */
	SBI_SCM_GUARDED_SIG,    /* rt_sigaction on SIGSYS or SIGXFSZ (the sandbox's handlers) */
	SBI_SCM_CLONE_THREAD,   /* clone with CLONE_THREAD and no namespace flag */
	SBI_SCM_NOT_FD_A0,      /* first argument is not the events descriptor */
	SBI_SCM_NOT_FD_A1,      /* second argument is not the events descriptor */
	SBI_SCM_RANGE_NOT_FD,   /* close_range leaving the events descriptor open */
	SBI_SCM_FREE_SIG,       /* rt_sigaction on any signal but SIGSYS and SIGXFSZ */
	SBI_SCM_GET_LIMIT,      /* prlimit64 reading only */
	SBI_SCM_PROT_NO_EXEC,   /* mprotect/pkey_mprotect without PROT_EXEC */
	SBI_SCM_MMAP,           /* mmap without PROT_EXEC, or PROT_EXEC of a file (the loader) */
	SBI_SCM_IOCTL_OK,       /* descriptor flags and terminal queries */
	SBI_SCM_PRCTL_OK,       /* thread names and reading a few process flags */
	SBI_SCM_EXISTS,         /* faccessat2(.., F_OK, AT_EACCESS): whether a name exists, as stat says */
	SBI_SCM_FCNTL_OK,       /* descriptor flags, duplicates and pipe sizes: no locks, leases, notices */
	SBI_SCM_FUTEX_OK,       /* private futexes, and shared waits only */
	SBI_SCM_MADVISE_OK,     /* advice about the caller's own pages only: nothing evicted or read in */
	SBI_SCM_FADVISE_OK,     /* NORMAL, RANDOM, SEQUENTIAL: the open file's own read-ahead window */
};

struct sbi_sc_rule {
	const char *name;          /* syscall name as libseccomp spells it */
	enum sbi_sc_action action;
	enum sbi_sc_match match;
	const char *rule;          /* the named rule an event reports */
	const char *why;           /* why a strategy needs it (allowed) or never does (refused) */
};

/* The policy table, and its length. Borrowed, static. */
const struct sbi_sc_rule *sbi_seccomp_policy(size_t *n);

/* A compiled filter: raw classic BPF, loaded with one seccomp() call. */
struct sbi_seccomp_filter {
	struct sock_filter *insns;  /* owned: release with sbi_seccomp_release */
	unsigned short len;
};

/* Compiles the policy table with libseccomp into f, for the events descriptor event_fd (the
 * number it will have in every run), and resolves the table's syscall numbers for the SIGSYS
 * handler. Runs once, in the zygote, so a run pays for loading the filter, not for building
 * it. Returns 0, or -1 with errno set. */
int sbi_seccomp_compile(int event_fd, struct sbi_seccomp_filter *f);

/* Loads f into the calling thread. Trapped calls fail with EPERM and are reported as one event
 * each on event_fd from a SIGSYS handler; the SBI_SC_FAKE calls are answered by it instead
 * (sysinfo's memory figures are mem_bytes, the run's budget). Needs no_new_privs set first. Must be the last layer
 * installed: it forbids calls the earlier steps make. Returns 0, or -1 with errno set.
 * Allocates nothing. */
int sbi_seccomp_install(const struct sbi_seccomp_filter *f, int event_fd, unsigned long mem_bytes);

/* Frees what f holds and zeroes it. Safe on a zeroed struct. */
void sbi_seccomp_release(struct sbi_seccomp_filter *f);

/* Formats an event message for a trapped syscall number into buf (async-signal-safe). Returns
 * the length written. */
size_t sbi_seccomp_event(long nr, char *buf, size_t len);

#endif
