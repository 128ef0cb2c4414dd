/* sbi_zygote.c - the zygote: a warm CPython with numpy and pandas, forking one child per run. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbi_zygote.h"
#include "sbi_prefix.h"
#include "sbx_proto.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "msg.h"
#include "sbi_arena.h"
#include "sbi_hook.h"
#include "sbi_preimport.h"
#include "sbi_pysrc.h"
#include "sbi_root.h"
#include "sbi_shims.h"

/* Paths the runs may read besides sys.path: the shared libraries behind the interpreter and
 * numpy's extension modules, the loader cache, and time zone data. With sys.path they are
 * Landlock's read roots and all the minimal root binds (sbi_root.c). */
static const char *const lib_roots[] = {
	"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64",
	"/etc/ld.so.cache", "/usr/share/zoneinfo",
};

/* Py_InitializeFromConfig with descriptors 0-2 on /dev/null, then put back. The standard
 * streams are made over them at start and keep a mark of what they found: a text stream over a
 * seekable file that is not at its start resets its encoder (one more reference to None). The
 * zygote's are the stage's own (a terminal, a pipe, a log at any offset), so each stage would
 * start an interpreter of its own; over /dev/null every start is alike. A descriptor that was
 * closed stays on /dev/null. */
static PyStatus init_over_null(const PyConfig *cfg)
{
	int saved[3], nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	PyStatus st;

	for (int fd = 0; fd < 3; fd++) {
		saved[fd] = nul >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
		if (nul >= 0)
			(void)dup2(nul, fd);
	}
	st = Py_InitializeFromConfig(cfg);
	for (int fd = 0; fd < 3; fd++)
		if (saved[fd] >= 0) {
			(void)dup2(saved[fd], fd);
			close(saved[fd]);
		}
	if (nul >= 0)
		close(nul);
	return st;
}

static int py_init(void)
{
	PyConfig cfg;
	PyStatus st;
	int rc = -1;

	/* Isolated: no PYTHON* variables, no user site, no current directory on sys.path. */
	PyConfig_InitIsolatedConfig(&cfg);
	cfg.write_bytecode = 0;
	/* One hash seed for every zygote: the sandbox stage's full run and the later stages' runs
	 * come from different zygotes, and with a random seed each would order a set of strings,
	 * and lay out its dicts, its own way (signals that change between runs, a block count that
	 * tells one zygote's runs from another's). Nothing outside the upload feeds its dicts. */
	cfg.use_hash_seed = 1;
	cfg.hash_seed = 0;
	/* Unbuffered, so a run killed mid-way still leaves what it printed. */
	cfg.buffered_stdio = 0;
	cfg.install_signal_handlers = 0;
	cfg.parse_argv = 0;
	st = PyConfig_SetString(&cfg, &cfg.program_name, L"python3");
	if (PyStatus_Exception(st))
		goto out;
	sbi_arena_install();
	st = init_over_null(&cfg);
	if (PyStatus_Exception(st))
		goto out;
	rc = 0;
out:
	PyConfig_Clear(&cfg);
	return rc;
}

/* The pending Python exception as "Type: message" in buf ("" when there is none); the exception
 * is put back, for PyErr_Print. */
static void py_cause(char *buf, size_t len)
{
	PyObject *type, *val, *tb, *name = NULL, *text = NULL;

	buf[0] = '\0';
	PyErr_Fetch(&type, &val, &tb);
	if (!type)
		return;
	PyErr_NormalizeException(&type, &val, &tb);
	name = PyObject_GetAttrString(type, "__name__");
	text = val ? PyObject_Str(val) : NULL;
	snprintf(buf, len, "%s: %s", name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "error",
		 text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : "");
	Py_XDECREF(name);
	Py_XDECREF(text);
	PyErr_Clear();
	PyErr_Restore(type, val, tb);
}

/* The trusted helpers (py/sa_helpers.py), defined before any upload exists, in a dict of their
 * own that becomes z.helpers. They run inside a child after lockdown, so an upload that patches
 * numpy can only lie about its own output, which the driver validates anyway. */
static PyObject *load_helpers(char *why, size_t whylen)
{
	PyObject *d = sbi_pysrc_run("sa_helpers"), *r;

	if (!d) {
		py_cause(why, whylen);
		PyErr_Print();
		return NULL;
	}
	r = PyRun_String("warm()", Py_eval_input, d, d);
	if (!r)
		goto fail;
	Py_DECREF(r);
	/* Also warms both builders of a truncated run's frame, so no run pays their first call. */
	r = PyRun_String("choose_build_cols()", Py_eval_input, d, d);
	if (!r)
		goto fail;
	Py_DECREF(r);
	/* os.stat, os.lstat, os.readlink and os.access raise no audit event of their own: these let the hook
	 * judge the name (the functions under them, posix.*, find only the run's own root). */
	r = PyRun_String("guard_stat()", Py_eval_input, d, d);
	if (!r)
		goto fail;
	Py_DECREF(r);
	return d;
fail:
	py_cause(why, whylen);
	PyErr_Print();
	Py_DECREF(d);
	return NULL;
}

/* The read-only roots: sys.path directories (resolved by py/sa_roots.py) plus lib_roots. */
static int collect_roots(struct sbi_zstate *z)
{
	PyObject *d = sbi_pysrc_run("sa_roots"), *list = NULL;
	size_t n_lib = sizeof lib_roots / sizeof lib_roots[0];
	Py_ssize_t n;
	int rc = -1;

	if (!d || !(list = PyRun_String("roots()", Py_eval_input, d, d)) || !PyList_Check(list))
		goto out;
	n = PyList_Size(list);
	z->roots = calloc((size_t)n + n_lib, sizeof *z->roots);
	if (!z->roots)
		goto out;
	for (Py_ssize_t i = 0; i < n; i++) {
		const char *p = PyUnicode_AsUTF8(PyList_GetItem(list, i));
		if (!p || !(z->roots[z->n_roots++] = strdup(p)))
			goto out;
	}
	for (size_t i = 0; i < n_lib; i++)
		z->roots[z->n_roots++] = lib_roots[i];
	rc = 0;
out:
	if (rc < 0)
		PyErr_Print();
	Py_XDECREF(list);
	Py_XDECREF(d);
	return rc;
}

/* The source descriptor (sbx_proto.h): the source's length, the source, the parameter file's
 * text. Both are kept NUL-terminated in z; anything longer than their caps, or a length that
 * does not fit what was read, is refused. Returns 0 or -1. */
static int read_source(int fd, struct sbi_zstate *z)
{
	const size_t cap = sizeof(uint32_t) + SA_STRATEGY_CAP + SBX_PARAMS_FILE_MAX;
	char *buf = malloc(cap + 2), *params = NULL;
	size_t len = 0, plen;
	uint32_t n32;
	ssize_t got;
	int rc = -1;

	if (!buf)
		goto out;
	while (len <= cap && (got = read(fd, buf + len, cap + 1 - len)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto out;
		len += (size_t)got;
	}
	if (len > cap || len < sizeof n32)
		goto out;
	memcpy(&n32, buf, sizeof n32);
	if (n32 > SA_STRATEGY_CAP || n32 > len - sizeof n32 ||
	    (plen = len - sizeof n32 - n32) > SBX_PARAMS_FILE_MAX || !(params = malloc(plen + 1)))
		goto out;
	memcpy(params, buf + sizeof n32 + n32, plen);
	params[plen] = '\0';
	memmove(buf, buf + sizeof n32, n32);
	buf[n32] = '\0';
	z->src = buf;
	z->src_len = n32;
	z->params_file = params;
	z->params_file_len = plen;
	buf = params = NULL;
	rc = 0;
out:
	free(params);
	free(buf);
	return rc;
}

/* Sends one message with nfd descriptors attached (SCM_RIGHTS). Returns 0, or -1 with errno. */
static int send_fds(int sock, const void *msg, size_t len, const int *fds, int nfd)
{
	union { char buf[CMSG_SPACE(sizeof(int) * SBX_RUN_FDS)]; struct cmsghdr align; } u;
	struct iovec iov = { (void *)msg, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfd > 0) {
		struct cmsghdr *c;
		memset(&u, 0, sizeof u);
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfd);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfd);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfd);
	}
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static void reply(int ctrl, uint32_t id, int kind, int wstatus, int64_t cpu_ms, int err, int pass_fd)
{
	struct sbx_rep rep = { SBX_MAGIC, id, kind, wstatus, cpu_ms, err, 0 };
	(void)send_fds(ctrl, &rep, sizeof rep, &pass_fd, pass_fd >= 0 ? 1 : 0);
}

struct child {
	pid_t pid;
	int pidfd;
	uint32_t id;
};

/* Receives one request and its descriptors. Returns 1 with a request, 0 on hang-up, -1 on a
 * malformed message (its descriptors are closed). */
static int recv_req(int ctrl, struct sbx_req *req, int fds[SBX_RUN_FDS])
{
	union { char buf[CMSG_SPACE(sizeof(int) * SBX_RUN_FDS)]; struct cmsghdr align; } u;
	struct iovec iov = { req, sizeof *req };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof u.buf };
	struct cmsghdr *c;
	ssize_t got;
	int nfd = 0;

	do
		got = recvmsg(ctrl, &msg, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return 0;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			nfd = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			memcpy(fds, CMSG_DATA(c), sizeof(int) * (size_t)(nfd < SBX_RUN_FDS ? nfd : SBX_RUN_FDS));
		}
	if (got != (ssize_t)sizeof *req || (req->magic != SBX_MAGIC && req->magic != SBX_MAGIC_PREFIX) ||
	    nfd != SBX_RUN_FDS ||
	    (msg.msg_flags & MSG_CTRUNC)) {
		for (int i = 0; i < nfd && i < SBX_RUN_FDS; i++)
			close(fds[i]);
		return -1;
	}
	return 1;
}

/* Moves the run's descriptors onto 0..4 without clobbering one another. */
static int place_fds(const int fds[SBX_RUN_FDS])
{
	int high[SBX_RUN_FDS];
	for (int i = 0; i < SBX_RUN_FDS; i++)
		if ((high[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 100)) < 0)
			return -1;
	for (int i = 0; i < SBX_RUN_FDS; i++)
		if (dup2(high[i], i) < 0)
			return -1;
	return 0;
}

/* Serves the driver: each request starts a data zygote (sbi_prefix.c) on the channel it
 * carries, and every run is forked from one of those, so all runs follow one recipe. A request
 * of any other kind is refused. */
static void serve(int ctrl, const struct sbi_zstate *z)
{
	struct child kids[SBX_MAX_JOBS];
	struct pollfd pf[SBX_MAX_JOBS + 1];
	size_t nk = 0;

	for (;;) {
		pf[0] = (struct pollfd){ ctrl, POLLIN, 0 };
		for (size_t i = 0; i < nk; i++)
			pf[i + 1] = (struct pollfd){ kids[i].pidfd, POLLIN, 0 };
		if (poll(pf, nk + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; i < nk; i++) {
			struct rusage ru;
			int st = 0;
			if (!(pf[i + 1].revents & (POLLIN | POLLHUP)))
				continue;
			if (wait4(kids[i].pid, &st, 0, &ru) != kids[i].pid)
				continue;
			reply(ctrl, kids[i].id, SBX_REP_EXITED, st,
			      (int64_t)ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 +
			      (int64_t)ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000, 0, -1);
			close(kids[i].pidfd);
			kids[i].pid = 0;
		}
		/* compact after the loop so pf indexes stay valid above */
		size_t w = 0;
		for (size_t i = 0; i < nk; i++)
			if (kids[i].pid)
				kids[w++] = kids[i];
		nk = w;
		if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			struct sbx_req req;
			int fds[SBX_RUN_FDS], r = recv_req(ctrl, &req, fds);
			if (r == 0)
				break;
			if (r < 0)
				continue;
			if (nk == SBX_MAX_JOBS) {
				reply(ctrl, req.id, SBX_REP_FAILED, 0, 0, EAGAIN, -1);
			} else if (req.magic != SBX_MAGIC_PREFIX) {
				reply(ctrl, req.id, SBX_REP_FAILED, 0, 0, EINVAL, -1);
			} else if (sbi_prefix_start(z, fds[0], &kids[nk].pid, &kids[nk].pidfd) < 0) {
				reply(ctrl, req.id, SBX_REP_FAILED, 0, 0, errno, -1);
			} else {
				kids[nk].id = req.id;
				reply(ctrl, req.id, SBX_REP_STARTED, 0, 0, 0, kids[nk].pidfd);
				nk++;
			}
			for (int i = 0; i < SBX_RUN_FDS; i++)
				close(fds[i]);
		}
	}
	/* The driver is gone: nothing may outlive it. */
	for (size_t i = 0; i < nk; i++) {
		kill(kids[i].pid, SIGKILL);
		waitpid(kids[i].pid, NULL, 0);
	}
}

void sbi_zygote_reply(int ctrl, uint32_t id, int kind, int wstatus, int64_t cpu_ms, int err, int pass_fd)
{
	reply(ctrl, id, kind, wstatus, cpu_ms, err, pass_fd);
}

int sbi_zygote_place_fds(const int fds[SBX_RUN_FDS])
{
	return place_fds(fds);
}

pid_t sbi_zygote_fork(unsigned long ns, int *pidfd)
{
	pid_t pid;
	int err;

	fflush(NULL);
	PyOS_BeforeFork();
	/* with namespaces, the raw call: glibc's clone() wants a stack of its own */
	pid = ns ? (pid_t)syscall(SYS_clone, ns | SIGCHLD, NULL, NULL, NULL, 0) : fork();
	if (pid == 0) {
		PyOS_AfterFork_Child();
		return 0;
	}
	err = errno;
	PyOS_AfterFork_Parent();
	if (pid < 0) {
		errno = err;
		return -1;
	}
	if ((*pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0) {
		err = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		errno = err;
		return -1;
	}
	return pid;
}

/* Sends the driver the read roots and takes back the directory of their resident copy
 * (sbx_mirror.c, made on the host: a tmpfs directory the zygote's mount namespace shares).
 * Returns 0 with mirror set, or -1. */
static int ask_mirror(int ctrl, const struct sbi_zstate *z, char *mirror, size_t len)
{
	char text[SBX_ROOTS_TEXT_MAX];
	struct pollfd pf = { ctrl, POLLIN, 0 };
	size_t at = 0;
	ssize_t got;

	for (size_t i = 0; i < z->n_roots; i++) {
		size_t l = strlen(z->roots[i]);
		if (at + l + 1 > sizeof text)
			return -1;
		memcpy(text + at, z->roots[i], l);
		at += l;
		text[at++] = '\n';
	}
	reply(ctrl, 0, SBX_REP_ROOTS, 0, 0, 0, -1);
	if (send(ctrl, text, at, MSG_NOSIGNAL) != (ssize_t)at || poll(&pf, 1, -1) != 1 ||
	    (got = recv(ctrl, mirror, len - 1, 0)) <= 0)
		return -1;
	mirror[got] = '\0';
	return mirror[0] == '/' ? 0 : -1;
}

/* Locks in memory every page of every file the zygote has mapped from outside the read roots'
 * resident copy (on device mirror): this program itself and the locale's files, which the
 * loader and libc map before anything else runs. A run touching a page of them for the first
 * time so finds it resident and never reads it from disk, whoever read it before. Locks are
 * the zygote's (a fork does not inherit them) and last as long as it does, which is as long
 * as any of its runs; they fit in the default RLIMIT_MEMLOCK (8 MiB). Returns 0, or -1 with
 * errno set. */
static int lock_mapped_files(dev_t mirror)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[PATH_MAX + 128];
	int rc = 0;

	if (!f)
		return -1;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		unsigned maj, min;
		char perms[8];
		int path_at = 0;

		if (sscanf(line, "%lx-%lx %7s %*s %x:%x %*s %n", &lo, &hi, perms, &maj, &min, &path_at) < 5 ||
		    !path_at || line[path_at] != '/' || perms[0] != 'r' || makedev(maj, min) == mirror)
			continue;
		rc = mlock((void *)lo, hi - lo);
	}
	fclose(f);
	return rc;
}

/* Why the zygote cannot start, told the driver on ctrl (a SBX_REP_FAILED reply, then the text as
 * one message) so it reaches run.json's reason, and printed as well. Returns -1. */
static int start_fail(int ctrl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int start_fail(int ctrl, const char *fmt, ...)
{
	char text[SBX_START_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	sa_error("zygote: %s", text);
	reply(ctrl, 0, SBX_REP_FAILED, 0, 0, 0, -1);
	(void)send(ctrl, text, strlen(text), MSG_NOSIGNAL);
	return -1;
}

int sbi_zygote_main(int ctrl_fd, int src_fd, const struct sbx_limits *lim)
{
	struct sbi_zstate z = { .lim = *lim };
	char why[SBX_START_ERROR_MAX - 64];
	struct stat mirror;
	int rc = 1, shims;

	if (read_source(src_fd, &z) < 0) {
		start_fail(ctrl_fd, "cannot read the strategy source");
		goto out;
	}
	close(src_fd);
	if (py_init() < 0) {
		start_fail(ctrl_fd, "cannot initialise python");
		goto out;
	}
	if (!(z.helpers = load_helpers(why, sizeof why))) {
		start_fail(ctrl_fd, "cannot import numpy and pandas: %s", why[0] ? why : "no detail");
		goto out;
	}
	(void)sbi_preimport(z.src, z.src_len);
	/* The framework shims are trusted code like numpy: imported here, before any upload. */
	if ((shims = sbi_shims_load(z.helpers, z.src, z.src_len, z.params_file, z.params_file_len)) < 0) {
		start_fail(ctrl_fd, "cannot load the framework shims (freqtrade, talib, backtesting)");
		goto out;
	}
	/* Once here, so the runs fork from a module table without them (each run checks again). */
	if (sbi_hook_purge_modules() < 0) {
		start_fail(ctrl_fd, "cannot drop the blocklisted modules from sys.modules");
		goto out;
	}
	if (collect_roots(&z) < 0) {
		start_fail(ctrl_fd, "cannot list the interpreter's read-only roots");
		goto out;
	}
	/* Once here, after the imports and before any run: every data zygote and run inherits a
	 * root that holds the read roots (so a lazy import still finds its files) and nothing else
	 * of the host. */
	/* the roots are their resident copies already (sbi_zygote_resident) */
	if (stat(lib_roots[0], &mirror) < 0 ||
	    sbi_root_enter(z.roots, z.n_roots, "", SBX_SCRATCH, why, sizeof why) < 0) {
		start_fail(ctrl_fd, "%s", why);
		goto out;
	}
	if (lock_mapped_files(mirror.st_dev) < 0) {
		start_fail(ctrl_fd, "cannot lock the interpreter's mapped files in memory, '%s'", strerror(errno));
		goto out;
	}
	/* Built once here rather than in every run: libseccomp's compilation costs a run
	 * milliseconds and hundreds of copy-on-write faults; the result is the same for all. */
	if (sbi_seccomp_compile(SBX_FD_EVENTS, &z.filter) < 0) {
		start_fail(ctrl_fd, "cannot compile the seccomp filter, '%s'", strerror(errno));
		goto out;
	}
	/* Every object so far moves to the permanent generation: a run's collections then never
	 * walk (and copy-on-write) the warm interpreter's pages. */
	Py_XDECREF(PyRun_String("freeze()", Py_eval_input, z.helpers, z.helpers));
	sbi_heap_align();
	/* said before any upload runs: the driver then takes a framework run's entry values */
	reply(ctrl_fd, 0, SBX_REP_STARTED, shims > 0 ? SBX_READY_SHIMS : 0, 0, 0, -1);
	serve(ctrl_fd, &z);
	rc = 0;
out:
	sbi_seccomp_release(&z.filter);
	return rc;
}

/* Binds each root's resident copy (beneath mirror) over the root, in this mount namespace. */
static int bind_copies(const struct sbi_zstate *z, const char *mirror)
{
	for (size_t i = 0; i < z->n_roots; i++) {
		char src[PATH_MAX], *real = realpath(z->roots[i], NULL);
		int n;

		if (!real)
			continue;  /* a root the host does not have: Landlock and the root leave it out */
		n = snprintf(src, sizeof src, "%s%s", mirror, real);
		if (n < 0 || n >= (int)sizeof src || mount(src, real, NULL, MS_BIND, NULL) < 0) {
			free(real);
			return -1;
		}
		free(real);
	}
	return 0;
}

/* Turns address-space randomisation off for the next image (and every process it forks).
 * CPython's type attribute cache files a lookup under bits 3-14 of the name's address, and each
 * slot holds a reference to its name (to None while empty); sets and dicts keyed by an object
 * hash its address. So which names stay alive, how many references None has and the order a
 * set of types is walked in all follow the low bits of where the interpreter's objects lie:
 * its arenas (on a 2 MiB boundary, sbi_arena.c) and the static objects of libpython and of
 * every extension module. From the host's disk the loader's mappings of a large library start
 * on a 2 MiB boundary; from the resident copy (tmpfs, no huge pages) on any page, a different
 * one each start, and so would the count of live blocks a run can read. With no randomisation
 * every zygote lays out its memory alike, whichever stage starts it. Returns 0, or -1 with
 * errno set. */
static int fixed_layout(void)
{
	int p = personality(0xffffffff);
	return p < 0 || personality((unsigned long)p | ADDR_NO_RANDOMIZE) < 0 ? -1 : 0;
}

int sbi_zygote_resident(int ctrl_fd, char **argv)
{
	struct sbi_zstate z = { 0 };
	char mirror[SBX_MIRROR_MAX];

	if (py_init() < 0) {
		start_fail(ctrl_fd, "cannot initialise python");
		return 1;
	}
	if (collect_roots(&z) < 0) {
		start_fail(ctrl_fd, "cannot list the interpreter's read-only roots");
		return 1;
	}
	if (ask_mirror(ctrl_fd, &z, mirror, sizeof mirror) < 0) {
		start_fail(ctrl_fd, "no resident copy of the read roots");
		return 1;
	}
	if (bind_copies(&z, mirror) < 0) {
		start_fail(ctrl_fd, "cannot bind the read roots' resident copy, '%s'", strerror(errno));
		return 1;
	}
	if (fixed_layout() < 0) {
		start_fail(ctrl_fd, "cannot fix the zygote's memory layout, '%s'", strerror(errno));
		return 1;
	}
	/* The same descriptors (not close-on-exec), limits and environment: a new image over the
	 * copies. */
	argv[1] = SBI_ZYGOTE_RESIDENT;
	execve("/proc/self/exe", argv, environ);
	start_fail(ctrl_fd, "cannot run the zygote again, '%s'", strerror(errno));
	return 1;
}
