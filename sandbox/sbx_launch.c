/* sbx_launch.c - the host side's start and stop of a zygote: the sandbox program re-executed in
 * new namespaces, mapped to an unprivileged uid, handed the upload's source. */
#include "sbx.h"
#include "sbx_launch_int.h"
#include "sbx_mirror_int.h"
#include "sbx_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "msg.h"

#define ZYGOTE_START_S 60

/* --- starting the zygote ------------------------------------------------------------------ */

/* The sandbox program sits beside whichever program links this module. Opened here, while
 * every directory on its way may still be passed: the zygote runs it through this descriptor
 * after it has become the sandbox's user, who may not enter the checkout (a clone under a home
 * of mode 0700). Returns the descriptor, or -1 with why in err. */
static int zygote_exe_open(char *err, size_t errlen)
{
	char self[PATH_MAX], exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	struct stat st;
	int fd;

	if (n < 0) {
		sa_fmt(err, errlen, "cannot find the sandbox program: '/proc/self/exe', '%s'", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	if ((size_t)snprintf(exe, sizeof exe, "%s/sandbox", dirname(self)) >= sizeof exe) {
		sa_fmt(err, errlen, "cannot find the sandbox program beside this one: its path is too long");
		return -1;
	}
	fd = open(exe, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		sa_fmt(err, errlen, "cannot find the sandbox program beside this one, '%s'", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* The file itself, unlike the directories on its way, is checked against the sandbox's
	 * user when the zygote runs it: it must be executable by others. */
	if (!S_ISREG(st.st_mode) || !(st.st_mode & S_IXOTH)) {
		sa_fmt(err, errlen, "the sandbox program beside this one is not executable by the "
		       "sandbox's user (mode %04o; it needs o+x)", (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	return fd;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc = -1;
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text))
		rc = 0;
	close(fd);
	return rc;
}

/* The launcher's child cannot become the zygote: says why on stderr and to the driver (the
 * zygote's own failed-start message), so run.json names the step. */
static noreturn void child_fail(int ctrl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static noreturn void child_fail(int ctrl, const char *fmt, ...)
{
	struct sbx_rep rep = { SBX_MAGIC, 0, SBX_REP_FAILED, 0, 0, errno, 0 };
	char text[SBX_START_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	sa_error("zygote: %s", text);
	if (send(ctrl, &rep, sizeof rep, MSG_NOSIGNAL) == (ssize_t)sizeof rep)
		(void)send(ctrl, text, strlen(text), MSG_NOSIGNAL);
	_exit(SBX_EXIT_NO_ZYGOTE);
}

/* Runs in the new namespaces before exec: become uid 0 of the new user namespace (an unused
 * uid outside), die with the driver, and make our mounts private so nothing propagates back. */
static noreturn void zygote_child(int sync_r, int ctrl, int src, int exe, const struct sbx_limits *lim)
{
	char a[7][24], c = 0;
	/* One thread per math library; malloc advises huge pages for its heap (a run's large
	 * arrays fault in 2 MiB pieces) and keeps arrays up to 32 MiB there, never trimming it, so
	 * an array a strategy frees is reused by its next instead of unmapped and faulted in afresh
	 * (a run is short-lived: its memory goes back when it exits); every symbol bound once here,
	 * not lazily by each run (a lazy binding writes a GOT page: a copy-on-write fault per run);
	 * the time zone is UTC, not the host's (the interpreter reads it once, at start). */
	char *argv[10], *envp[] = { "OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1",
		"MKL_NUM_THREADS=1", "LC_ALL=C.UTF-8", "TZ=UTC",
		"GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:"
		"glibc.malloc.trim_threshold=268435456",
		"LD_BIND_NOW=1", NULL };

	if (read(sync_r, &c, 1) != 1 || c != 'g')
		_exit(SBX_EXIT_NO_ZYGOTE);
	if (setresgid(0, 0, 0) < 0 || setgroups(0, NULL) < 0 || setresuid(0, 0, 0) < 0)
		child_fail(ctrl, "user namespace: cannot take the namespace's uid 0, '%s'", strerror(errno));
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		child_fail(ctrl, "mount namespace: cannot make the mounts private, '%s'", strerror(errno));
	(void)sethostname("sandbox", 7);
	/* A proc that shows only this PID namespace; if the host forbids it the old one stays,
	 * and Landlock keeps runs out of /proc either way. */
	(void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	if (fcntl(ctrl, F_SETFD, 0) < 0 || fcntl(src, F_SETFD, 0) < 0)
		child_fail(ctrl, "cannot pass the control channel on, '%s'", strerror(errno));
	snprintf(a[0], sizeof a[0], "%d", ctrl);
	snprintf(a[1], sizeof a[1], "%d", src);
	snprintf(a[2], sizeof a[2], "%d", lim->wall_s);
	snprintf(a[3], sizeof a[3], "%d", lim->cpu_s);
	snprintf(a[4], sizeof a[4], "%d", lim->mem_mb);
	snprintf(a[5], sizeof a[5], "%d", lim->scratch_mb);
	snprintf(a[6], sizeof a[6], "%d", lim->nofile);
	argv[0] = "sandbox";
	argv[1] = "--zygote";
	for (int i = 0; i < 7; i++)
		argv[i + 2] = a[i];
	argv[9] = NULL;
	/* A fresh image: nothing the caller had in memory (market data above all) reaches the
	 * zygote or any run forked from it. Run through the descriptor the driver opened: no
	 * directory on the program's path is looked up again, so none need let this uid pass. */
	execveat(exe, "", argv, envp, AT_EMPTY_PATH);
	child_fail(ctrl, "cannot run the sandbox program as the sandbox's user, '%s'", strerror(errno));
}

static int map_ids(pid_t pid)
{
	char path[64], map[96];
	snprintf(map, sizeof map, "0 %d 1\n%d %d 1\n", SBX_OUTSIDE_UID, SBX_RUN_UID,
		 SBX_OUTSIDE_UID + SBX_RUN_UID);
	snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
	if (write_file(path, map) < 0)
		return -1;
	snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
	return write_file(path, map);
}

/* freqtrade's parameter file for the strategy at path: the path with its ending replaced by
 * .json (Path.with_suffix, as freqtrade's load_params_from_file names it). A fresh string
 * (caller frees), or NULL when out of memory. */
static char *params_path(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t stem = dot && dot > (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);
	char *json = malloc(stem + sizeof ".json");

	if (json) {
		memcpy(json, path, stem);
		memcpy(json + stem, ".json", sizeof ".json");
	}
	return json;
}

/* The parameter file's text for the strategy at path in a fresh buffer (caller frees); NULL
 * with *len 0 when there is none. Returns 0, or -1 with why in err. */
static int params_file(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	char *json = params_path(path);
	enum sa_read_status st;
	int rc = -1;

	*buf = NULL;
	*len = 0;
	if (!json) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	st = sa_read_file(json, SBX_PARAMS_FILE_MAX, buf, len);
	if (st == SA_READ_OK || st == SA_READ_MISSING)
		rc = 0;
	else
		sa_read_strerror(st, json, SBX_PARAMS_FILE_MAX, err, errlen);
	free(json);
	return rc;
}

int sbx_upload_too_big(const char *strategy_path, char *why, size_t whylen)
{
	char *json = params_path(strategy_path);
	struct stat sb;
	int rc = 0;

	if (stat(strategy_path, &sb) == 0 && S_ISREG(sb.st_mode) && (size_t)sb.st_size > SA_STRATEGY_CAP) {
		sa_fmt(why, whylen, "the strategy file is %lld bytes; strategy uploads are capped at %zu "
		       "bytes (%zu MB)", (long long)sb.st_size, SA_STRATEGY_CAP, SA_STRATEGY_CAP >> 20);
		rc = 1;
	} else if (json && stat(json, &sb) == 0 && S_ISREG(sb.st_mode) &&
		   (size_t)sb.st_size > SBX_PARAMS_FILE_MAX) {
		sa_fmt(why, whylen, "the strategy's parameter file is %lld bytes; it is capped at %d "
		       "bytes", (long long)sb.st_size, SBX_PARAMS_FILE_MAX);
		rc = 1;
	}
	free(json);
	return rc;
}

/* A sealed memfd of the source descriptor's framing (sbx_proto.h): the source's length, the
 * source, the parameter file's text. Returns the descriptor, or -1 with why in err. */
static int source_memfd(const char *path, char *err, size_t errlen)
{
	char *buf = NULL, *pbuf = NULL;
	size_t len = 0, plen = 0;
	enum sa_read_status st = sa_read_file(path, SA_STRATEGY_CAP, &buf, &len);
	uint32_t n32;
	int fd = -1;

	if (st != SA_READ_OK) {
		sa_read_strerror(st, path, SA_STRATEGY_CAP, err, errlen);
		goto out;
	}
	if (params_file(path, &pbuf, &plen, err, errlen) < 0)
		goto out;
	n32 = (uint32_t)len;
	fd = memfd_create("strategy", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || write(fd, &n32, sizeof n32) != (ssize_t)sizeof n32 ||
	    write(fd, buf, len) != (ssize_t)len || (plen && write(fd, pbuf, plen) != (ssize_t)plen) ||
	    lseek(fd, 0, SEEK_SET) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
		sa_fmt(err, errlen, "cannot stage the strategy source, '%s'", strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
out:
	free(pbuf);
	free(buf);
	return fd;
}

/* The zygote's read roots (one message, '\n' after each), answered with the directory of their
 * resident copy, made now if no audit made it before. Returns 0, or -1 with why in err. */
static int serve_mirror(int ctrl, char *err, size_t errlen)
{
	struct pollfd pf = { ctrl, POLLIN, 0 };
	char text[SBX_ROOTS_TEXT_MAX + 1], dir[SBX_MIRROR_MAX], why[512] = "";
	const char *roots[64];
	size_t n = 0;
	ssize_t got;

	if (poll(&pf, 1, 1000) != 1 || (got = recv(ctrl, text, sizeof text - 1, 0)) <= 0) {
		sa_fmt(err, errlen, "the sandbox zygote did not start: it named no read roots");
		return -1;
	}
	text[got] = '\0';
	for (char *s = text, *nl; n < sizeof roots / sizeof roots[0] && (nl = strchr(s, '\n')); s = nl + 1) {
		*nl = '\0';
		if (s[0] != '/' || strstr(s, "/.."))
			break;  /* the zygote names absolute paths; anything else is not a root */
		roots[n++] = s;
	}
	if (sbx_mirror_get(roots, n, dir, sizeof dir, why, sizeof why) < 0)
		dir[0] = '\0';
	(void)send(ctrl, dir[0] ? dir : "-", dir[0] ? strlen(dir) : 1, MSG_NOSIGNAL);
	if (!dir[0]) {
		sa_fmt(err, errlen, "the sandbox zygote did not start: %s", why);
		return -1;
	}
	return 0;
}

/* Waits for the zygote's ready message, serving its question for the read roots' resident
 * copy on the way. Returns 0, or -1 with why it did not start in err: the cause it sent, or
 * that it died or stayed silent. */
static int await_ready(int ctrl, bool *shims, char *err, size_t errlen)
{
	struct pollfd pf = { ctrl, POLLIN, 0 };
	struct sbx_rep rep;
	char text[SBX_START_ERROR_MAX + 1];
	ssize_t got;

again:
	if (poll(&pf, 1, ZYGOTE_START_S * 1000) != 1) {
		sa_fmt(err, errlen, "the sandbox zygote did not start: no word from it in %d s", ZYGOTE_START_S);
		return -1;
	}
	got = recv(ctrl, &rep, sizeof rep, 0);
	if (got == (ssize_t)sizeof rep && rep.magic == SBX_MAGIC && rep.kind == SBX_REP_STARTED && rep.id == 0) {
		*shims = rep.wstatus == SBX_READY_SHIMS;
		return 0;
	}
	if (got == (ssize_t)sizeof rep && rep.magic == SBX_MAGIC && rep.kind == SBX_REP_ROOTS && rep.id == 0) {
		if (serve_mirror(ctrl, err, errlen) < 0)
			return -1;
		goto again;
	}
	if (got == (ssize_t)sizeof rep && rep.magic == SBX_MAGIC && rep.kind == SBX_REP_FAILED &&
	    poll(&pf, 1, 1000) == 1 && (got = recv(ctrl, text, sizeof text - 1, 0)) > 0) {
		text[got] = '\0';
		for (ssize_t i = 0; i < got; i++)
			if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] >= 0x7f)
				text[i] = '?';  /* printable ASCII only, into JSON */
		sa_fmt(err, errlen, "the sandbox zygote did not start: %s", text);
		return -1;
	}
	sa_fmt(err, errlen, "the sandbox zygote did not start: it ended without saying why");
	return -1;
}

struct sbx_zygote *sbx_zygote_start(const char *strategy_path, const struct sbx_limits *lim,
				    char *err, size_t errlen)
{
	struct sbx_zygote *z = NULL;
	struct sbx_cgroup cg = { 0 };
	int sv[2] = { -1, -1 }, sync[2] = { -1, -1 }, src = -1, exe = -1;
	pid_t pid = -1;
	bool shims = false;

	if ((exe = zygote_exe_open(err, errlen)) < 0)
		goto fail;
	if ((src = source_memfd(strategy_path, err, errlen)) < 0)
		goto fail;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0 || pipe2(sync, O_CLOEXEC) < 0) {
		sa_fmt(err, errlen, "cannot create the control channel, '%s'", strerror(errno));
		goto fail;
	}
	/* A run that dies while we write its bars must not kill the driver. */
	signal(SIGPIPE, SIG_IGN);
	fflush(NULL);
	pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET |
			     CLONE_NEWIPC | CLONE_NEWUTS | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid < 0) {
		sa_fmt(err, errlen, "cannot create the sandbox namespaces, '%s'", strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		close(sv[0]);
		close(sync[1]);
		zygote_child(sync[0], sv[1], src, exe, lim);
	}
	close(sv[1]);
	sv[1] = -1;
	close(sync[0]);
	sync[0] = -1;
	/* Before the zygote execs: everything it and its runs then map is charged to the cgroup.
	 * Without one (not root, no writable hierarchy) the rlimits still hold; run.json says so. */
	(void)sbx_cgroup_enter(&cg, pid);
	if (map_ids(pid) < 0 || write(sync[1], "g", 1) != 1) {
		sa_fmt(err, errlen, "cannot map the sandbox uid, '%s'", strerror(errno));
		goto fail;
	}
	if (await_ready(sv[0], &shims, err, errlen) < 0)
		goto fail;
	(void)sbx_cgroup_limit(&cg, lim, 1, 0);
	z = calloc(1, sizeof *z);
	if (!z) {
		sa_fmt(err, errlen, "out of memory");
		goto fail;
	}
	*z = (struct sbx_zygote){ .pid = pid, .ctrl = sv[0], .lim = *lim, .next_id = 1, .cg = cg,
				  .entries = shims };
	close(sync[1]);
	close(src);
	close(exe);
	return z;
fail:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	sbx_cgroup_remove(&cg);
	for (int i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (sync[i] >= 0)
			close(sync[i]);
	}
	if (src >= 0)
		close(src);
	if (exe >= 0)
		close(exe);
	return NULL;
}

void sbx_zygote_stop(struct sbx_zygote *z)
{
	if (!z)
		return;
	close(z->ctrl);
	/* The zygote is pid 1 of its namespace: killing it kills every run still inside. */
	kill(z->pid, SIGKILL);
	waitpid(z->pid, NULL, 0);
	sbx_cgroup_remove(&z->cg);
	free(z);
}

const struct sbx_cgroup *sbx_zygote_cgroup(const struct sbx_zygote *z)
{
	return &z->cg;
}

