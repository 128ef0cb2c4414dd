/* sbx_seccomp.h - the run's syscall policy (a table with a reason per entry) and its filter. */
#ifndef SBX_SECCOMP_H
#define SBX_SECCOMP_H

#include <stddef.h>

/* What a policy entry does to a matching call. */
enum sbx_sc_action {
	SBX_SC_TRAP,    /* refused with EPERM and recorded as an event (SIGSYS handler) */
	SBX_SC_ENOSYS,  /* refused silently with ENOSYS, so libc falls back (clone3) */
	SBX_SC_EPERM,   /* refused silently with EPERM (noise a program may probe) */
};

/* Which calls of the syscall an entry matches. */
enum sbx_sc_match {
	SBX_SCM_ALL,
	SBX_SCM_CLONE_PROCESS,  /* clone without CLONE_THREAD: a new process */
	SBX_SCM_CLONE_NS,       /* clone asking for any new namespace */
	SBX_SCM_IOCTL_TTY,      /* TIOCSTI / TIOCLINUX: typing into a terminal */
	SBX_SCM_FD_A0,          /* first argument is the events descriptor */
	SBX_SCM_FD_A1,          /* second argument is the events descriptor */
	SBX_SCM_RANGE_FD,       /* close_range covering the events descriptor */
	SBX_SCM_GUARDED_SIG,    /* rt_sigaction on SIGSYS or SIGXFSZ (the sandbox's handlers) */
	SBX_SCM_SET_LIMIT,      /* prlimit64 with a new limit */
};

struct sbx_sc_rule {
	const char *name;          /* syscall name as libseccomp spells it */
	enum sbx_sc_action action;
	enum sbx_sc_match match;
	const char *rule;          /* the named rule an event reports */
	const char *why;           /* why a strategy never needs it */
};

/* The policy table, and its length. Borrowed, static. */
const struct sbx_sc_rule *sbx_seccomp_policy(size_t *n);

/* Loads the filter into the calling thread (no_new_privs is set by libseccomp). Trapped calls
 * fail with EPERM and are reported as one event each on event_fd from a SIGSYS handler. Must be
 * the last layer installed: it forbids calls the earlier steps make. Returns 0, or -1 with
 * errno set. Allocates only before the filter is loaded. */
int sbx_seccomp_install(int event_fd);

/* Formats an event message for a trapped syscall number into buf (async-signal-safe). Returns
 * the length written. */
size_t sbx_seccomp_event(long nr, char *buf, size_t len);

#endif
