/* sbi_child.c - one run, inside its own namespaces: the ordered lockdown recipe, then the
 * upload. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

/* A live run has begun its stream of decisions (SBX_TAG_LIVE sent): a tagged result after it
 * must first stop the stream (the number SBX_LIVE_STOP). */
static bool live_streaming;

static void put_raw(const void *buf, size_t len)
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
	if (live_streaming) {
		char stop[SBX_LIVE_ANSWER_BYTES] = { 0 };
		uint32_t seq = SBX_LIVE_STOP;

		memcpy(stop, &seq, sizeof seq);
		put_raw(stop, sizeof stop);
	}
	put_raw(&tag, 1);
	put_raw(buf, len);
}

/* Reports why setup failed and exits; the upload has not been loaded. */
static noreturn void setup_fail(const char *step, const char *why)
{
	char msg[512];
	int len = snprintf(msg, sizeof msg, "sandbox setup failed at %s: %s", step, why);
	put_result(SBX_TAG_ERROR, msg, len > 0 ? (size_t)len : 0);
	_exit(SBX_EXIT_SETUP_FAILED);
}

/* Reads exactly len bytes of descriptor 0. Returns 1, or 0 at its end (for a live run: the
 * driver has no further bar, or hung up mid-bar; either way there is nothing more to decide). */
static int read_feed(char *p, size_t len)
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
	if (!read_feed(p, len))
		setup_fail("read parameters", "short data pipe");
}

/* The keyword arguments behind the bars: JSON text parsed by the json module (trusted code,
 * before the upload exists), so they arrive as plain data. A new reference to a dict with str
 * keys, or NULL when there are none. */
static PyObject *read_params(void)
{
	uint32_t len = 0;
	PyObject *text, *json, *d;

	read_exact((char *)&len, sizeof len);
	if (len == 0)
		return NULL;
	if (len > SBX_PARAMS_MAX)
		setup_fail("read parameters", "too long");
	text = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
	if (!text)
		setup_fail("read parameters", "out of memory");
	read_exact(PyBytes_AS_STRING(text), len);
	json = PyImport_ImportModule("json");
	d = json ? PyObject_CallMethod(json, "loads", "O", text) : NULL;
	Py_XDECREF(json);
	Py_DECREF(text);
	if (!d || !PyDict_Check(d)) {
		PyErr_Clear();
		setup_fail("read parameters", "not a JSON object");
	}
	{
		PyObject *key, *val;
		Py_ssize_t pos = 0;

		while (PyDict_Next(d, &pos, &key, &val))
			if (!PyUnicode_Check(key))
				setup_fail("read parameters", "a key is not a string");
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
		setup_fail("clear environment", "os.environ.clear failed");
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
		setup_fail("cover /proc", strerror(errno));
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
		setup_fail("scratch", strerror(errno));
	step_no_proc();
	if (mount("scratch", SBX_SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		setup_fail("scratch", strerror(errno));
	if (chdir(SBX_SCRATCH) < 0)
		setup_fail("scratch", strerror(errno));
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
		setup_fail("scratch witness", strerror(errno));
	memset(ctl, 0, sizeof ctl);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	if (sendmsg(SBX_FD_EVENTS, &mh, MSG_NOSIGNAL) < 0)
		setup_fail("scratch witness", strerror(errno));
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
		setup_fail(refused->name, strerror(errno));
}

/* Step 6: drop to an unprivileged uid inside the namespace; switching away from uid 0 clears
 * every capability, so the mount above was the last privileged act. */
static void step_identity(void)
{
	if (setgroups(0, NULL) < 0 || setresgid(SBX_RUN_UID, SBX_RUN_UID, SBX_RUN_UID) < 0 ||
	    setresuid(SBX_RUN_UID, SBX_RUN_UID, SBX_RUN_UID) < 0)
		setup_fail("drop identity", strerror(errno));
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		setup_fail("drop identity", strerror(errno));
}

/* Step 7: nothing exec'd later can gain privileges; Landlock and seccomp require it. */
static void step_no_new_privs(void)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		setup_fail("no_new_privs", strerror(errno));
}

/* Step 8: the file system as the upload will see it. */
static void step_landlock(const struct sbi_zstate *z)
{
	char err[256];
	if (sbi_landlock_apply(z->roots, z->n_roots, SBX_SCRATCH, err, sizeof err) < 0)
		setup_fail("landlock", err);
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
		setup_fail("seccomp", strerror(errno));
	if (sbi_seccomp_install(&z->filter, SBX_FD_EVENTS, (unsigned long)z->lim.mem_mb << 20) < 0)
		setup_fail("seccomp", strerror(errno));
}

/* Step 10: the tripwire, armed from C so nothing in Python ran without it. The blocklisted
 * modules numpy and pandas loaded go first: an import served from sys.modules raises no event. */
static void step_hook(const struct sbi_zstate *z)
{
	if (sbi_hook_purge_modules() < 0)
		setup_fail("audit hook", "could not drop blocklisted modules from sys.modules");
	if (sbi_hook_install(SBX_FD_EVENTS, SBX_SCRATCH, z->roots, z->n_roots) < 0)
		setup_fail("audit hook", "PySys_AddAuditHook failed");
}

/* The upload's error, as text, and the tag it earns. */
static noreturn void finish_error(const struct sbi_zstate *z)
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

/* Whether the run's signals(df) is a framework class's (framework_signals): its values may also
 * carry events, up to SBX_SIGNAL_EVENTS_MAX (sbx_proto.h). */
static bool framework_run;

/* A framework class's signals(df) (sbi_shims.h), borrowed from g, or NULL when the upload defines
 * none or no shim was loaded; a framework it cannot run ends the run with the shim's sentence. */
static PyObject *framework_signals(const struct sbi_zstate *z, PyObject *g)
{
	PyObject *adapt = PyDict_GetItemString(z->helpers, "adapt"), *fn;

	if (!adapt)
		return NULL;
	fn = PyObject_CallOneArg(adapt, g);
	if (!fn)
		finish_error(z);
	if (fn == Py_None) {
		Py_DECREF(fn);
		return NULL;
	}
	/* kept alive by g, which lives until the run exits */
	if (PyDict_SetItemString(g, "__framework_signals__", fn) < 0)
		finish_error(z);
	Py_DECREF(fn);
	framework_run = true;
	return fn;
}

/* The upload run as a module in a fresh namespace that holds nothing but builtins, and its
 * signals(df) (or a framework class's, sbi_shims.h): borrowed from that namespace, which lives
 * until the run exits. A strategy with neither ends the run with the sentence that says so. */
static PyObject *load_upload(const struct sbi_zstate *z)
{
	PyObject *g = PyDict_New(), *code, *r, *fn;

	if (!g || PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0 ||
	    PyDict_SetItemString(g, "__name__", PyUnicode_FromString("strategy")) < 0)
		finish_error(z);
	code = Py_CompileString(z->src, "strategy.py", Py_file_input);
	if (!code)
		finish_error(z);
	r = PyEval_EvalCode(code, g, g);
	if (!r)
		finish_error(z);
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
	PyObject *fw = framework_run && mods && PyDict_Check(mods) ?
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

	fn = load_upload(moved_literals(z, params));

	/* Held before the upload runs: it may rebind df.index, not the bars' own index. */
	idx = PyObject_GetAttrString(df, "index");
	if (!idx)
		finish_error(z);
	if (params) {
		PyObject *args = PyTuple_Pack(1, df);

		out = args ? PyObject_Call(fn, args, params) : NULL;
		Py_XDECREF(args);
	} else {
		out = PyObject_CallOneArg(fn, df);
	}
	if (!out)
		finish_error(z);
	/* Flushed first: sys.stdout may be the upload's object, and nothing of the upload runs
	 * between the check of the values and their sending. */
	flush_stdio(z);
	search = declared_search();
	tags = tag_table();
	conv = PyDict_GetItemString(z->helpers, "to_int8");
	{
		/* n int8 values (to_int8 checked the length), sent from the array's own buffer */
		PyObject *b = PyObject_CallFunction(conv, "OnOO", out, (Py_ssize_t)n, idx,
						    framework_run ? Py_True : Py_False);
		Py_buffer v;

		if (!b || PyObject_GetBuffer(b, &v, PyBUF_C_CONTIGUOUS) < 0)
			finish_error(z);
		put_result(SBX_TAG_RESULT, v.buf, (size_t)v.len);
		if (tags && PyBytes_GET_SIZE(tags) > 0)
			put_raw(PyBytes_AS_STRING(tags), (size_t)PyBytes_GET_SIZE(tags));
		if (search)
			put_raw(&search, sizeof search);
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

	*params = read_params();
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || dup2(devnull, SBX_FD_PARAMS) < 0)
		setup_fail("read parameters", strerror(errno));
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
		setup_fail("build frame", "pandas could not build the DataFrame");
	}
	return df;
}

static noreturn void lock_down_and_run(const struct sbi_zstate *z, PyObject *df, PyObject *params,
					size_t n);
static void lock_down(const struct sbi_zstate *z);

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
	lock_down(z);
	step_run(z, df, params, n);
}

/* Steps 3-10, the same for every run, the live ones too. */
static void lock_down(const struct sbi_zstate *z)
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

/* The live replay (sbx_proto.h): descriptor 0 stays the driver's, bringing one bar after each
 * answer. */

/* Whether the driver sends the trade it holds before each bar (SBX_LIVE_CALLS). */
static bool live_calls;

/* Step 1 of a live run: the keyword arguments and the window; descriptor 0 is kept. */
static size_t step_live_params(PyObject **params)
{
	uint32_t window = 0;

	*params = read_params();
	read_exact((char *)&window, sizeof window);
	live_calls = window & SBX_LIVE_CALLS;
	window &= ~SBX_LIVE_CALLS;
	if (window == 0 || window > SBX_LIVE_WINDOW_MAX)
		setup_fail("read parameters", "a live window out of range");
	return window;
}

/* A live run's bars: SBX_BAR_COLUMNS columns of cap values each, one after another in one
 * allocation of its own (the data zygote's reservation is unmapped: a run maps nothing it was
 * not sent), doubled when full. */
struct live_cols {
	char *p;
	size_t cap;
};

/* Moves the n bars of the data zygote's columns into lc, with room for as many again, and
 * unmaps the columns. */
static void live_cols_take(struct live_cols *lc, char *cols, size_t n)
{
	size_t col = SBX_PREFIX_CAP * SBX_VALUE_BYTES;

	lc->cap = n < 2048 ? 4096 : 2 * n;
	lc->p = calloc(SBX_BAR_COLUMNS * lc->cap, SBX_VALUE_BYTES);
	if (!lc->p)
		setup_fail("live columns", "out of memory");
	for (size_t c = 0; c < SBX_BAR_COLUMNS; c++)
		memcpy(lc->p + c * lc->cap * SBX_VALUE_BYTES, cols + c * col, n * SBX_VALUE_BYTES);
	if (munmap(cols, SBX_PREFIX_RESERVE) < 0)
		setup_fail("live columns", strerror(errno));
}

/* Room for bar n: doubles lc when it is full. Returns 0, or -1 out of memory. */
static int live_cols_room(struct live_cols *lc, size_t n)
{
	size_t cap = 2 * lc->cap;
	char *p;

	if (n < lc->cap)
		return 0;
	if (!(p = calloc(SBX_BAR_COLUMNS * cap, SBX_VALUE_BYTES)))
		return -1;
	for (size_t c = 0; c < SBX_BAR_COLUMNS; c++)
		memcpy(p + c * cap * SBX_VALUE_BYTES, lc->p + c * lc->cap * SBX_VALUE_BYTES, n * SBX_VALUE_BYTES);
	free(lc->p);
	lc->p = p;
	lc->cap = cap;
	return 0;
}

/* The frame of the last bars up to bar n (at most window of them), a copy of its own
 * (sa_helpers.build_live), so what a call writes into its frame never reaches the columns or the
 * next call's frame. A new reference, or NULL with the exception set. */
static PyObject *live_frame(const struct sbi_zstate *z, const struct live_cols *lc, size_t n, size_t window)
{
	char *cols = lc->p;
	size_t gap = lc->cap * SBX_VALUE_BYTES, lo = n > window ? n - window : 0, m = n - lo;
	PyObject *build = PyDict_GetItemString(z->helpers, "build_live");
	PyObject *t = PyMemoryView_FromMemory(cols + lo * SBX_VALUE_BYTES, (Py_ssize_t)(m * SBX_VALUE_BYTES),
					      PyBUF_READ);
	PyObject *px = PyMemoryView_FromMemory(cols + gap + lo * SBX_VALUE_BYTES,
					       (Py_ssize_t)(4 * gap + m * SBX_VALUE_BYTES), PyBUF_READ);
	PyObject *df = build && t && px ?
		PyObject_CallFunction(build, "OOnn", t, px, (Py_ssize_t)m, (Py_ssize_t)lc->cap) : NULL;

	Py_XDECREF(t);
	Py_XDECREF(px);
	return df;
}

/* Appends one bar of the feed (time in seconds, then the five prices and volume) as bar n of the
 * columns, the time in nanoseconds as the data zygote holds it. */
static void live_append(const struct live_cols *lc, size_t n, const char *bar)
{
	int64_t t;

	memcpy(&t, bar, sizeof t);
	if (__builtin_mul_overflow(t, (int64_t)1000000000, &t))
		t = INT64_MIN;
	memcpy(lc->p + n * SBX_VALUE_BYTES, &t, sizeof t);
	for (size_t c = 1; c < SBX_BAR_COLUMNS; c++)
		memcpy(lc->p + (c * lc->cap + n) * SBX_VALUE_BYTES, bar + c * SBX_VALUE_BYTES, SBX_VALUE_BYTES);
}

/* signals() on one frame, its whole output checked by to_int8 as a full run's is: the newest
 * bar's value, or SBX_LIVE_RAISED when the upload raised or gave a bad output for this bar (a
 * live bot whose strategy fails at a bar takes no position on it and goes on to the next). */
static int8_t live_value(const struct sbi_zstate *z, PyObject *fn, PyObject *params, PyObject *flush,
			 PyObject *df, PyObject *idx, Py_ssize_t m)
{
	PyObject *out, *b, *r;
	Py_buffer v;
	int8_t val = SBX_LIVE_RAISED;

	if (params) {
		PyObject *args = PyTuple_Pack(1, df);

		out = args ? PyObject_Call(fn, args, params) : NULL;
		Py_XDECREF(args);
	} else {
		out = PyObject_CallOneArg(fn, df);
	}
	r = PyEval_EvalCode(flush, z->helpers, z->helpers);
	Py_XDECREF(r);
	if (!out) {
		PyErr_Clear();
		return val;
	}
	b = PyObject_CallFunction(PyDict_GetItemString(z->helpers, "to_int8"), "OnOO", out, m, idx,
				  framework_run ? Py_True : Py_False);
	if (b && PyObject_GetBuffer(b, &v, PyBUF_C_CONTIGUOUS) == 0) {
		if (v.len == m)
			val = ((const int8_t *)v.buf)[m - 1];
		PyBuffer_Release(&v);
	}
	PyErr_Clear();
	Py_XDECREF(b);
	Py_DECREF(out);
	return val;
}

/* One decision: the frame of the last bars up to bar n, the upload's value for its newest bar,
 * answered with its number. Ends the run (finish_error) only when the frame cannot be built. */
static void live_decide(const struct sbi_zstate *z, PyObject *fn, PyObject *params, PyObject *flush,
			const struct live_cols *lc, size_t n, size_t window, uint32_t seq)
{
	PyObject *df = live_frame(z, lc, n, window), *idx;
	Py_ssize_t m;
	char ans[SBX_LIVE_ANSWER_BYTES];

	if (!df)
		finish_error(z);
	idx = PyObject_GetAttrString(df, "index");
	m = idx ? PyObject_Length(idx) : -1;
	if (m < 1)
		finish_error(z);
	memcpy(ans, &seq, sizeof seq);
	ans[sizeof seq] = (char)live_value(z, fn, params, flush, df, idx, m);
	Py_DECREF(idx);
	Py_DECREF(df);
	put_raw(ans, sizeof ans);
}

/* Step 11 of a live run: the upload loaded once, then a decision for each bar as it comes. */
static noreturn void step_run_live(const struct sbi_zstate *z, struct live_cols *lc, size_t n, size_t window,
				   PyObject *params)
{
	PyObject *fn, *flush;
	static const char tag = SBX_TAG_LIVE;
	char bar[SBX_LIVE_BAR_BYTES];

	flush = Py_CompileString("sys.stdout.flush()\nsys.stderr.flush()\n", "<flush>", Py_file_input);
	if (!flush)
		finish_error(z);
	fn = load_upload(z);
	put_raw(&tag, 1);
	live_streaming = true;
	for (uint32_t seq = 0;; seq++) {
		live_decide(z, fn, params, flush, lc, n, window, seq);
		if (!read_feed(bar, sizeof bar))
			break;
		if (live_cols_room(lc, n) < 0) {
			PyErr_NoMemory();
			finish_error(z);
		}
		live_append(lc, n++, bar);
	}
	_exit(SBX_EXIT_DONE);
}

/* The framework shim (sa_frameworks), borrowed from sys.modules, or NULL when none was loaded. */
static PyObject *shim_module(void)
{
	PyObject *mods = PySys_GetObject("modules");

	return mods && PyDict_Check(mods) ? PyDict_GetItemString(mods, "sa_frameworks") : NULL;
}

/* The callbacks' answer (sbx_proto.h, SBX_LIVE_CALL_BYTES) to the trade state st, from the shim
 * (sa_frameworks.answer_calls) on the frame of the last decision, into call. A shim that cannot
 * answer ends the run with its sentence. */
static void live_call(const struct sbi_zstate *z, const char *st, char *call)
{
	PyObject *fw = shim_module();
	PyObject *b = fw ? PyObject_CallMethod(fw, "answer_calls", "y#", st, (Py_ssize_t)SBX_LIVE_TRADE_BYTES) : NULL;

	if (!b)
		finish_error(z);
	if (!PyBytes_Check(b) || PyBytes_Size(b) != SBX_LIVE_CALL_BYTES) {
		PyErr_SetString(PyExc_RuntimeError, "the callbacks gave an answer of the wrong size");
		finish_error(z);
	}
	memcpy(call, PyBytes_AsString(b), SBX_LIVE_CALL_BYTES);
	Py_DECREF(b);
}

/* One decision of a run with callbacks: the number, the callbacks' answer for the bar (call),
 * then the value, as live_decide's. */
static void live_decide_calls(const struct sbi_zstate *z, PyObject *fn, PyObject *params, PyObject *flush,
			      const struct live_cols *lc, size_t n, size_t window, uint32_t seq,
			      const char *call)
{
	PyObject *df = live_frame(z, lc, n, window), *idx;
	Py_ssize_t m;
	char ans[SBX_LIVE_ANSWER_BYTES + SBX_LIVE_CALL_BYTES];

	if (!df)
		finish_error(z);
	idx = PyObject_GetAttrString(df, "index");
	m = idx ? PyObject_Length(idx) : -1;
	if (m < 1)
		finish_error(z);
	memcpy(ans, &seq, sizeof seq);
	memcpy(ans + sizeof seq, call, SBX_LIVE_CALL_BYTES);
	ans[sizeof ans - 1] = (char)live_value(z, fn, params, flush, df, idx, m);
	Py_DECREF(idx);
	Py_DECREF(df);
	put_raw(ans, sizeof ans);
}

/* Step 11 of a live run whose driver holds the trade (SBX_LIVE_CALLS): before each bar the trade
 * state, answered by the callbacks on the frame up to the bar before, then the bar and its
 * decision. */
static noreturn void step_run_live_calls(const struct sbi_zstate *z, struct live_cols *lc, size_t n,
					 size_t window, PyObject *params)
{
	PyObject *fn, *flush, *fw = shim_module();
	static const char tag = SBX_TAG_LIVE;
	char bar[SBX_LIVE_BAR_BYTES], st[SBX_LIVE_TRADE_BYTES], call[SBX_LIVE_CALL_BYTES] = { 0 };

	flush = Py_CompileString("sys.stdout.flush()\nsys.stderr.flush()\n", "<flush>", Py_file_input);
	if (!fw)
		PyErr_SetString(PyExc_RuntimeError, "the trade's callbacks were asked of a run without "
				"a framework class");
	if (!flush || !fw || PyObject_SetAttrString(fw, "CALLS", Py_True) < 0)
		finish_error(z);
	fn = load_upload(z);
	put_raw(&tag, 1);
	live_streaming = true;
	for (uint32_t seq = 0;; seq++) {
		live_decide_calls(z, fn, params, flush, lc, n, window, seq, call);
		if (!read_feed(st, sizeof st))
			break;
		live_call(z, st, call);
		if (!read_feed(bar, sizeof bar))
			break;
		if (live_cols_room(lc, n) < 0) {
			PyErr_NoMemory();
			finish_error(z);
		}
		live_append(lc, n++, bar);
	}
	_exit(SBX_EXIT_DONE);
}

/* Tells the framework shim, when one is loaded, that this run is a live one (sa_frameworks.LIVE),
 * before the upload exists. */
static void mark_live_shim(void)
{
	PyObject *fw = shim_module();

	if (fw && PyObject_SetAttrString(fw, "LIVE", Py_True) < 0)
		PyErr_Clear();
}

void sbi_child_run_live(const struct sbi_zstate *z, char *cols, size_t n)
{
	struct sbi_zstate live = *z;
	struct live_cols lc;
	PyObject *params;
	size_t window = step_live_params(&params);

	live_cols_take(&lc, cols, n);
	mark_live_shim();
	/* Many bars, each held to the wall clock by the driver: the CPU limit is the whole run's. */
	live.lim.cpu_s = SBX_LIVE_CPU_S;
	lock_down(&live);
	if (live_calls)
		step_run_live_calls(&live, &lc, n, window, params);
	step_run_live(&live, &lc, n, window, params);
}
