/* sbi_child.c - one run, inside its own namespaces: the ordered lockdown recipe, then the
 * upload (a live run's loop is sbi_live.c). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbi_child.h"
#include "sbi_zygote.h"
#include "sbi_prefix.h"
#include "sbi_hook.h"
#include "sbi_landlock.h"
#include "sbi_literals.h"
#include "sbx_proto.h"
#include "sbi_seccomp.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "msg.h"
#include "rlimit.h"

extern char **environ;

/* Step 5's fixed limits (the others come from the knobs). */
enum {
	RUN_NPROC = 64,       /* processes and threads of the run's uid; only threads can start */
	RUN_SIGPENDING = 64,  /* signals queued at once */
	RUN_NOFILE_MIN = 16,  /* floor under the NOFILE knob: stdio, the five channels, imports */
};

bool sbi_child_streaming;

void sbi_child_put_raw(const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = write(SBX_FD_RESULT, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		len -= (size_t)w;
	}
}

static void put_result(char tag, const void *buf, size_t len)
{
	if (sbi_child_streaming) {
		char stop[SBX_LIVE_ANSWER_BYTES] = { 0 };
		uint32_t seq = SBX_LIVE_STOP;

		memcpy(stop, &seq, sizeof seq);
		sbi_child_put_raw(stop, sizeof stop);
	}
	sbi_child_put_raw(&tag, 1);
	sbi_child_put_raw(buf, len);
}

/* Reports why setup failed and exits; the upload has not been loaded. */
noreturn void sbi_child_setup_fail(const char *step, const char *why)
{
	char msg[512];
	int len = snprintf(msg, sizeof msg, "sandbox setup failed at %s: %s", step, why);
	put_result(SBX_TAG_ERROR, msg, len > 0 ? (size_t)len : 0);
	_exit(SBX_EXIT_SETUP_FAILED);
}

/* Reads exactly len bytes of descriptor 0. Returns 1, or 0 at its end (for a live run: the
 * driver has no further bar, or hung up mid-bar; either way there is nothing more to decide). */
int sbi_child_read_feed(char *p, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(SBX_FD_PARAMS, p + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		got += (size_t)r;
	}
	return 1;
}

/* Reads exactly len bytes of descriptor 0 into p, or fails the setup. */
static void read_exact(char *p, size_t len)
{
	if (!sbi_child_read_feed(p, len))
		sbi_child_setup_fail("read parameters", "short data pipe");
}

/* The keyword arguments behind the bars: JSON text parsed by the json module (trusted code,
 * before the upload exists), so they arrive as plain data. A new reference to a dict with str
 * keys, or NULL when there are none. */
PyObject *sbi_child_read_params(void)
{
	uint32_t len = 0;
	PyObject *text, *json, *d;

	read_exact((char *)&len, sizeof len);
	if (len == 0)
		return NULL;
	if (len > SBX_PARAMS_MAX)
		sbi_child_setup_fail("read parameters", "too long");
	text = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
	if (!text)
		sbi_child_setup_fail("read parameters", "out of memory");
	read_exact(PyBytes_AS_STRING(text), len);
	json = PyImport_ImportModule("json");
	d = json ? PyObject_CallMethod(json, "loads", "O", text) : NULL;
	Py_XDECREF(json);
	Py_DECREF(text);
	if (!d || !PyDict_Check(d)) {
		PyErr_Clear();
		sbi_child_setup_fail("read parameters", "not a JSON object");
	}
	{
		PyObject *key, *val;
		Py_ssize_t pos = 0;

		while (PyDict_Next(d, &pos, &key, &val))
			if (!PyUnicode_Check(key))
				sbi_child_setup_fail("read parameters", "a key is not a string");
	}
	return d;
}

/* Step 3: no inherited variables, in C and in Python. */
static void step_env(void)
{
	PyObject *os = PyImport_ImportModule("os"), *env, *r;

	clearenv();
	env = os ? PyObject_GetAttrString(os, "environ") : NULL;
	r = env ? PyObject_CallMethod(env, "clear", NULL) : NULL;
	if (!r)
		sbi_child_setup_fail("clear environment", "os.environ.clear failed");
	Py_DECREF(r);
	Py_DECREF(env);
	Py_DECREF(os);
}

#ifndef __SANITIZE_ADDRESS__
static long vm_bytes(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	long pages = 0;
	if (fp) {
		if (fscanf(fp, "%ld", &pages) != 1)
			pages = 0;
		fclose(fp);
	}
	return pages * sysconf(_SC_PAGESIZE);
}
#endif

#ifndef __SANITIZE_ADDRESS__
/* What the run maps when its setup begins (step 5 counts the address space from it), read
 * before /proc is covered. */
static long run_vm;
#endif

/* Step 4a: no /proc. Whichever proc the minimal root holds (the zygote's PID namespace's, or
 * the host's where the host forbids a new one), a pid in it is a fork counter (the full run one
 * number, every later run another) or a host pid: the run's mount namespace covers it with the
 * root's own empty scratch mount point, bound read-only (an inherited mount cannot be
 * unmounted, but it can be covered), so nothing about any process can be read or named through
 * it. A bind, not a new file system: a new one would take a device number of its own, counted
 * out by the kernel as mounts come and go (sandbox/README, What runs share). */
static void step_no_proc(void)
{
#ifndef __SANITIZE_ADDRESS__
	run_vm = vm_bytes();
#endif
	if (mount(SBX_SCRATCH, "/proc", NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, "/proc", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0)
		sbi_child_setup_fail("cover /proc", strerror(errno));
}

/* Step 4: a fresh tmpfs per run, sized to the budget, owned by the run's uid, over the minimal
 * root's empty mount point (sbi_root.c; the root itself is read-only). It dies with the run's
 * mount namespace, so nothing a run writes can be seen by the next. */
static void step_scratch(const struct sbi_zstate *z)
{
	char opts[128];

	/* The mount is the budget: a file reaches RLIMIT_FSIZE just as it fills it, and the driver
	 * reads the fill from outside (step_scratch_witness). */
	snprintf(opts, sizeof opts, "size=%dm,nr_inodes=4096,mode=0700,uid=%d,gid=%d",
		 z->lim.scratch_mb, SBX_RUN_UID, SBX_RUN_UID);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		sbi_child_setup_fail("scratch", strerror(errno));
	step_no_proc();
	if (mount("scratch", SBX_SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		sbi_child_setup_fail("scratch", strerror(errno));
	if (chdir(SBX_SCRATCH) < 0)
		sbi_child_setup_fail("scratch", strerror(errno));
}

/* Step 4b: the driver gets a descriptor of the scratch file system, the events channel's first
 * message, so how full it got is read from outside the run (no signal, nothing the upload can
 * mask); then the run keeps none. */
static void step_scratch_witness(void)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { SBX_SCRATCH_MSG, sizeof SBX_SCRATCH_MSG - 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
	struct cmsghdr *c;
	int fd = open(SBX_SCRATCH, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		sbi_child_setup_fail("scratch witness", strerror(errno));
	memset(ctl, 0, sizeof ctl);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	if (sendmsg(SBX_FD_EVENTS, &mh, MSG_NOSIGNAL) < 0)
		sbi_child_setup_fail("scratch witness", strerror(errno));
	close(fd);
}


/* One row of step 5: soft = hard, so nothing inside can raise it again. */
#define FIXED(res, v) { res, #res, (v), (v) }

/* Step 5: every limit or no run (sa_rlimits_set stops at the first refused). CPU at the hard
 * limit is SIGKILL (a pid 1 ignores SIGXCPU); the address space counts from what the warm
 * interpreter already maps. */
static void step_limits(const struct sbi_zstate *z)
{
	rlim_t nofile = (rlim_t)(z->lim.nofile < RUN_NOFILE_MIN ? RUN_NOFILE_MIN : z->lim.nofile);
#ifndef __SANITIZE_ADDRESS__
	rlim_t as = (rlim_t)run_vm + ((rlim_t)z->lim.mem_mb << 20);
#endif
	const struct sa_rlimit limits[] = {
		FIXED(RLIMIT_CORE, 0),
		FIXED(RLIMIT_MEMLOCK, 0),
		FIXED(RLIMIT_MSGQUEUE, 0),
		FIXED(RLIMIT_NPROC, RUN_NPROC),
		/* Queued signals are charged to the uid that made the namespace, root on the host. */
		FIXED(RLIMIT_SIGPENDING, RUN_SIGPENDING),
		FIXED(RLIMIT_FSIZE, (rlim_t)z->lim.scratch_mb << 20),
		FIXED(RLIMIT_NOFILE, nofile),
		FIXED(RLIMIT_CPU, (rlim_t)z->lim.cpu_s),
#ifndef __SANITIZE_ADDRESS__
		/* ASan reserves terabytes of shadow memory; an address-space cap would break it. */
		FIXED(RLIMIT_AS, as),
#endif
	};
	const struct sa_rlimit *refused = NULL;

	if (sa_rlimits_set(limits, sizeof limits / sizeof limits[0], &refused) < 0)
		sbi_child_setup_fail(refused->name, strerror(errno));
}

/* Step 6: drop to an unprivileged uid inside the namespace; switching away from uid 0 clears
 * every capability, so the mount above was the last privileged act. */
static void step_identity(void)
{
	if (setgroups(0, NULL) < 0 || setresgid(SBX_RUN_UID, SBX_RUN_UID, SBX_RUN_UID) < 0 ||
	    setresuid(SBX_RUN_UID, SBX_RUN_UID, SBX_RUN_UID) < 0)
		sbi_child_setup_fail("drop identity", strerror(errno));
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		sbi_child_setup_fail("drop identity", strerror(errno));
}

/* Step 7: nothing exec'd later can gain privileges; Landlock and seccomp require it. */
static void step_no_new_privs(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		sbi_child_setup_fail("no_new_privs", strerror(errno));
}

/* Step 8: the file system as the upload will see it. */
static void step_landlock(const struct sbi_zstate *z)
{
	char err[256];
	if (sbi_landlock_apply(z->roots, z->n_roots, SBX_SCRATCH, err, sizeof err) < 0)
		sbi_child_setup_fail("landlock", err);
}

/* Async-signal-safe: a file grew past the scratch budget; the write fails with EFBIG. */
static void on_sigxfsz(int sig)
{
	static const char ev[] = "file_size\x1fscratch stays within its budget\x1f"
				 "a write went past the scratch file size limit";
	int saved = errno;
	(void)sig;
	(void)send(SBX_FD_EVENTS, ev, sizeof ev - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	errno = saved;
}

/* Step 9: the syscall filter goes last among the kernel layers because it forbids what the
 * steps above needed (mount, setresuid, setrlimit, sigaction on guarded signals). The zygote
 * compiled it; loading it here is one system call. */
static void step_seccomp(const struct sbi_zstate *z)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigxfsz;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXFSZ, &sa, NULL) < 0)
		sbi_child_setup_fail("seccomp", strerror(errno));
	if (sbi_seccomp_install(&z->filter, SBX_FD_EVENTS, (unsigned long)z->lim.mem_mb << 20) < 0)
		sbi_child_setup_fail("seccomp", strerror(errno));
}

/* Step 10: the tripwire, armed from C so nothing in Python ran without it. The blocklisted
 * modules numpy and pandas loaded go first: an import served from sys.modules raises no event. */
static void step_hook(const struct sbi_zstate *z)
{
	if (sbi_hook_purge_modules() < 0)
		sbi_child_setup_fail("audit hook", "could not drop blocklisted modules from sys.modules");
	if (sbi_hook_install(SBX_FD_EVENTS, SBX_SCRATCH, z->roots, z->n_roots) < 0)
		sbi_child_setup_fail("audit hook", "PySys_AddAuditHook failed");
}

/* The upload's error, as text, and the tag it earns. */
noreturn void sbi_child_finish_error(const struct sbi_zstate *z)
{
	PyObject *type, *val, *tb, *describe, *text;
	const char *s;
	char tag = SBX_TAG_ERROR;

	PyErr_Fetch(&type, &val, &tb);
	PyErr_NormalizeException(&type, &val, &tb);
	if (val && tb)
		PyException_SetTraceback(val, tb);
	if (type && PyErr_GivenExceptionMatches(type, PyExc_MemoryError))
		tag = SBX_TAG_MEMORY;
	else if (type && PyErr_GivenExceptionMatches(type, PyDict_GetItemString(z->helpers, "BadOutput")))
		tag = SBX_TAG_BAD;
	describe = PyDict_GetItemString(z->helpers, "describe");
	text = describe && val ? PyObject_CallOneArg(describe, val) : NULL;
	s = text ? PyUnicode_AsUTF8(text) : NULL;
	if (!s)
		s = tag == SBX_TAG_MEMORY ? "MemoryError" : "the strategy failed";
	put_result(tag, s, strlen(s));
	_exit(SBX_EXIT_DONE);
}

static void flush_stdio(const struct sbi_zstate *z)
{
	PyObject *r = PyRun_String("sys.stdout.flush()\nsys.stderr.flush()\n", Py_file_input,
				   z->helpers, z->helpers);
	Py_XDECREF(r);
	PyErr_Clear();
}

bool sbi_child_framework;

/* A framework class's signals(df) (sbi_shims.h), borrowed from g, or NULL when the upload defines
 * none or no shim was loaded; a framework it cannot run ends the run with the shim's sentence. */
static PyObject *framework_signals(const struct sbi_zstate *z, PyObject *g)
{
	PyObject *adapt = PyDict_GetItemString(z->helpers, "adapt"), *fn;

	if (!adapt)
		return NULL;
	fn = PyObject_CallOneArg(adapt, g);
	if (!fn)
		sbi_child_finish_error(z);
	if (fn == Py_None) {
		Py_DECREF(fn);
		return NULL;
	}
	/* kept alive by g, which lives until the run exits */
	if (PyDict_SetItemString(g, "__framework_signals__", fn) < 0)
		sbi_child_finish_error(z);
	Py_DECREF(fn);
	sbi_child_framework = true;
	return fn;
}

/* The upload run as a module in a fresh namespace that holds nothing but builtins, and its
 * signals(df) (or a framework class's, sbi_shims.h): borrowed from that namespace, which lives
 * until the run exits. A strategy with neither ends the run with the sentence that says so. */
PyObject *sbi_child_load_upload(const struct sbi_zstate *z)
{
	PyObject *g = PyDict_New(), *code, *r, *fn;

	if (!g || PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0 ||
	    PyDict_SetItemString(g, "__name__", PyUnicode_FromString("strategy")) < 0)
		sbi_child_finish_error(z);
	code = Py_CompileString(z->src, "strategy.py", Py_file_input);
	if (!code)
		sbi_child_finish_error(z);
	r = PyEval_EvalCode(code, g, g);
	if (!r)
		sbi_child_finish_error(z);
	fn = PyDict_GetItemString(g, "signals");
	if (!fn)
		fn = framework_signals(z, g);
	if (!fn || !PyCallable_Check(fn)) {
		static const char msg[] = "the strategy defines no callable signals(df), and no freqtrade "
					  "IStrategy or backtesting.py Strategy subclass";
		put_result(SBX_TAG_ERROR, msg, sizeof msg - 1);
		_exit(SBX_EXIT_DONE);
	}
	(void)r;  /* kept, as the module's namespace is, for the run's life */
	return fn;
}

/* The parameter combinations the file's backtesting.py optimize() calls searched (the shim's
 * count, sbx_proto.h), 0 when none: read before the values are checked, as whatever it reads
 * may be the upload's. */
static uint32_t declared_search(void)
{
	PyObject *mods = PySys_GetObject("modules");  /* borrowed */
	PyObject *bt = mods && PyDict_Check(mods) ? PyDict_GetItemString(mods, "backtesting") : NULL;
	PyObject *v = bt ? PyObject_GetAttrString(bt, "_declared_search") : NULL;
	uint32_t n = 0;

	/* PyLong_Check reads the type's flags; PyLong_CheckExact would name PyLong_Type, and a
	 * reference from the binary moves the type into it (a copy relocation) */
	if (v && PyLong_Check(v)) {
		long x = PyLong_AsLong(v);
		n = x >= 1 && x <= (long)SBX_SEARCH_MAX ? (uint32_t)x : 0;
	}
	Py_XDECREF(v);
	PyErr_Clear();
	return n;
}

/* A framework run's tag table (sbx_proto.h), as the shim left it (sa_frameworks.TAG_TABLE, bytes),
 * NULL when there is none: a new reference. Sent as it is, whatever it holds: the driver checks
 * it, as it may be the upload's. */
static PyObject *tag_table(void)
{
	PyObject *mods = PySys_GetObject("modules");  /* borrowed */
	PyObject *fw = sbi_child_framework && mods && PyDict_Check(mods) ?
		       PyDict_GetItemString(mods, "sa_frameworks") : NULL;
	PyObject *v = fw ? PyObject_GetAttrString(fw, "TAG_TABLE") : NULL;

	PyErr_Clear();
	if (v && !PyBytes_Check(v)) {
		Py_DECREF(v);
		v = NULL;
	}
	return v;
}

/* z, or a copy of it whose source has the literals params names moved (sbi_literals.h): a
 * neighbourhood set that moves a number written in the file. Trusted code, before the upload
 * is compiled; a set that names a literal the source does not hold ends the run with why. */
static const struct sbi_zstate *moved_literals(const struct sbi_zstate *z, PyObject *params)
{
	static struct sbi_zstate moved;
	char why[256], *src;
	size_t len;
	int rc = sbi_literals_apply(z->src, z->src_len, params, &src, &len, why, sizeof why);

	if (rc < 0) {
		char msg[320];
		int m = snprintf(msg, sizeof msg, "the neighbourhood set could not be written: %s", why);

		put_result(SBX_TAG_ERROR, msg, m > 0 ? (size_t)m : 0);
		_exit(SBX_EXIT_DONE);
	}
	if (rc == 0)
		return z;
	moved = *z;
	moved.src = src;
	moved.src_len = len;
	return &moved;
}

/* Step 11: the upload, then signals() on the whole frame. */
static noreturn void step_run(const struct sbi_zstate *z, PyObject *df, PyObject *params, size_t n)
{
	PyObject *fn, *out = NULL, *conv, *idx, *tags;
	uint32_t search;

	fn = sbi_child_load_upload(moved_literals(z, params));

	/* Held before the upload runs: it may rebind df.index, not the bars' own index. */
	idx = PyObject_GetAttrString(df, "index");
	if (!idx)
		sbi_child_finish_error(z);
	if (params) {
		PyObject *args = PyTuple_Pack(1, df);

		out = args ? PyObject_Call(fn, args, params) : NULL;
		Py_XDECREF(args);
	} else {
		out = PyObject_CallOneArg(fn, df);
	}
	if (!out)
		sbi_child_finish_error(z);
	/* Flushed first: sys.stdout may be the upload's object, and nothing of the upload runs
	 * between the check of the values and their sending. */
	flush_stdio(z);
	search = declared_search();
	tags = tag_table();
	conv = PyDict_GetItemString(z->helpers, "to_int8");
	{
		/* n int8 values (to_int8 checked the length), sent from the array's own buffer */
		PyObject *b = PyObject_CallFunction(conv, "OnOO", out, (Py_ssize_t)n, idx,
						    sbi_child_framework ? Py_True : Py_False);
		Py_buffer v;

		if (!b || PyObject_GetBuffer(b, &v, PyBUF_C_CONTIGUOUS) < 0)
			sbi_child_finish_error(z);
		put_result(SBX_TAG_RESULT, v.buf, (size_t)v.len);
		if (tags && PyBytes_GET_SIZE(tags) > 0)
			sbi_child_put_raw(PyBytes_AS_STRING(tags), (size_t)PyBytes_GET_SIZE(tags));
		if (search)
			sbi_child_put_raw(&search, sizeof search);
		PyBuffer_Release(&v);
		Py_DECREF(b);
	}
	_exit(SBX_EXIT_DONE);
}

/* Step 1: the bars are already in the run's memory (forked from the data zygote); descriptor 0
 * brings only the keyword arguments (*params, NULL for none), then becomes /dev/null. */
static void step_params(PyObject **params)
{
	int devnull;

	*params = sbi_child_read_params();
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || dup2(devnull, SBX_FD_PARAMS) < 0)
		sbi_child_setup_fail("read parameters", strerror(errno));
	close(devnull);
}

/* Step 2 over the data zygote's columns: writable views of exactly n times and of the four
 * price and volume columns up to bar n (writes are copy-on-write, the run's own), over which
 * the frame's block and index are built without a copy. Built here, after the fork, not by the
 * data zygote before it: a frame built there would change the data zygote's interpreter (its
 * collector's counts, its allocator's free lists, where the next object lands) once per run,
 * and a run could count the runs forked before it. */
static PyObject *step_frame_cols(const struct sbi_zstate *z, char *cols, size_t n)
{
	size_t gap = SBX_PREFIX_CAP * SBX_VALUE_BYTES;
	PyObject *build = PyDict_GetItemString(z->helpers, "build_cols");
	PyObject *t = PyMemoryView_FromMemory(cols, (Py_ssize_t)(n * SBX_VALUE_BYTES), PyBUF_WRITE);
	PyObject *px = PyMemoryView_FromMemory(cols + gap, (Py_ssize_t)(4 * gap + n * SBX_VALUE_BYTES),
					       PyBUF_WRITE);
	PyObject *df = build && t && px ?
		PyObject_CallFunction(build, "OOnn", t, px, (Py_ssize_t)n, (Py_ssize_t)SBX_PREFIX_CAP) : NULL;

	Py_XDECREF(t);
	Py_XDECREF(px);
	if (!df) {
		PyErr_Print();
		sbi_child_setup_fail("build frame", "pandas could not build the DataFrame");
	}
	return df;
}

static noreturn void lock_down_and_run(const struct sbi_zstate *z, PyObject *df, PyObject *params,
					size_t n);

void sbi_child_run_cols(const struct sbi_zstate *z, char *cols, size_t n)
{
	PyObject *df, *params;

	step_params(&params);
	df = step_frame_cols(z, cols, n);
	lock_down_and_run(z, df, params, n);
}

/* Steps 3-11, the same for every run; params (or NULL) are the keyword arguments of signals(). */
static void lock_down_and_run(const struct sbi_zstate *z, PyObject *df, PyObject *params, size_t n)
{
	sbi_child_lock_down(z);
	step_run(z, df, params, n);
}

/* Steps 3-10, the same for every run, the live ones too. */
void sbi_child_lock_down(const struct sbi_zstate *z)
{
	step_env();
	step_scratch(z);
	step_scratch_witness();
	step_limits(z);
	step_identity();
	step_no_new_privs();
	step_landlock(z);
	step_seccomp(z);
	step_hook(z);
}

