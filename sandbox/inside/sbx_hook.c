/* sbx_hook.c - the audit hook: a policy table of events and the path checks behind it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbx_hook.h"
#include "sbx_proto.h"
#include "sbx_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define NO_PROC SBX_R_NO_PROC
#define NO_NET SBX_R_NO_NET
#define NO_NATIVE SBX_R_NO_NATIVE
#define IN_SCRATCH SBX_R_IN_SCRATCH
#define READS SBX_R_READS
#define FIXED SBX_R_HOOK_FIXED
#define NO_MAP SBX_R_NO_MAP

/* Modules an upload may not import, by top-level name: each is a door to native code, raw
 * memory or new processes (subprocess itself stays: Popen raises its own event, and the
 * _posixsubprocess under it is blocked). Already loaded ones are dropped from sys.modules before the upload
 * loads (sbx_hook_purge_modules), so an import cannot find a cached copy. */
static const struct sbx_hook_block blocked[] = {
	{ "ctypes", NO_NATIVE },
	{ "_ctypes", NO_NATIVE },
	{ "_ctypes_test", NO_NATIVE },
	{ "cffi", NO_NATIVE },
	{ "_cffi_backend", NO_NATIVE },
	{ "_testcapi", NO_NATIVE },
	{ "_testinternalcapi", NO_NATIVE },
	{ "_testmultiphase", NO_NATIVE },
	{ "_xxsubinterpreters", NO_NATIVE },
	{ "_xxinterpchannels", NO_NATIVE },
	{ "mmap", NO_MAP },
	{ "_posixshmem", NO_MAP },
	{ "multiprocessing", NO_PROC },
	{ "_multiprocessing", NO_PROC },
	{ "_posixsubprocess", NO_PROC },
	{ "pty", NO_PROC },
	{ "_winapi", NO_PROC },
};

/* Checked in order; a prefix entry ends in '.'. Events absent here are allowed: imports
 * outside the blocklist, compile and exec of the upload's own code, sys._getframe (pandas uses it for warnings). */
static const struct sbx_hook_rule rules[] = {
	{ "os.system", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.exec", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.spawn", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.posix_spawn", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.fork", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.forkpty", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.startfile", SBX_HOOK_REFUSE, NO_PROC },
	{ "subprocess.Popen", SBX_HOOK_REFUSE, NO_PROC },
	{ "pty.spawn", SBX_HOOK_REFUSE, NO_PROC },
	{ "webbrowser.open", SBX_HOOK_REFUSE, NO_PROC },
	{ "os.kill", SBX_HOOK_REFUSE, SBX_R_NO_SIGNALS },
	{ "os.killpg", SBX_HOOK_REFUSE, SBX_R_NO_SIGNALS },
	{ "signal.pthread_kill", SBX_HOOK_REFUSE, SBX_R_NO_SIGNALS },
	{ "socket.", SBX_HOOK_REFUSE, NO_NET },
	{ "urllib.Request", SBX_HOOK_REFUSE, NO_NET },
	{ "http.client.", SBX_HOOK_REFUSE, NO_NET },
	{ "ftplib.", SBX_HOOK_REFUSE, NO_NET },
	{ "smtplib.", SBX_HOOK_REFUSE, NO_NET },
	{ "imaplib.", SBX_HOOK_REFUSE, NO_NET },
	{ "poplib.", SBX_HOOK_REFUSE, NO_NET },
	{ "nntplib.", SBX_HOOK_REFUSE, NO_NET },
	{ "telnetlib.", SBX_HOOK_REFUSE, NO_NET },
	{ "syslog.", SBX_HOOK_REFUSE, NO_NET },
	{ "ctypes.", SBX_HOOK_REFUSE, NO_NATIVE },
	/* the mmap module is blocklisted, but numpy and pandas keep their own reference to it */
	{ "mmap.__new__", SBX_HOOK_REFUSE, NO_MAP },
	{ "cffi.", SBX_HOOK_REFUSE, NO_NATIVE },
	{ "sys.addaudithook", SBX_HOOK_REFUSE, FIXED },
	{ "sys._current_frames", SBX_HOOK_REFUSE, SBX_R_NO_CLIMB },
	{ "gc.get_objects", SBX_HOOK_REFUSE, SBX_R_NO_CLIMB },
	{ "gc.get_referrers", SBX_HOOK_REFUSE, SBX_R_NO_CLIMB },
	{ "gc.get_referents", SBX_HOOK_REFUSE, SBX_R_NO_CLIMB },
	{ "resource.setrlimit", SBX_HOOK_REFUSE, SBX_R_LIMITS },
	{ "resource.prlimit", SBX_HOOK_REFUSE, SBX_R_LIMITS },
	{ "open", SBX_HOOK_OPEN, NULL },
	{ "import", SBX_HOOK_IMPORT, NULL },
	{ "os.listdir", SBX_HOOK_READ, READS },
	{ "os.scandir", SBX_HOOK_READ, READS },
	{ "os.stat", SBX_HOOK_READ, READS },
	{ "os.symlink", SBX_HOOK_SYMLINK, IN_SCRATCH },
	{ "os.remove", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.rmdir", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.rename", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.link", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.truncate", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.chmod", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.chown", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.chflags", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.mkdir", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.utime", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.setxattr", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "os.removexattr", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "shutil.rmtree", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "shutil.chown", SBX_HOOK_PATHS, IN_SCRATCH },
	{ "sqlite3.connect", SBX_HOOK_PATHS, IN_SCRATCH },
};

const struct sbx_hook_rule *sbx_hook_lookup(const char *event)
{
	static const struct sbx_hook_rule allow = { "", SBX_HOOK_ALLOW, NULL };

	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		size_t len = strlen(rules[i].event);
		bool prefix = rules[i].event[len - 1] == '.';
		if (prefix ? strncmp(event, rules[i].event, len) == 0 : strcmp(event, rules[i].event) == 0)
			return &rules[i];
	}
	return &allow;
}

const char *sbx_hook_blocked(const char *module)
{
	size_t len = strcspn(module, ".");

	for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++)
		if (strlen(blocked[i].module) == len && strncmp(module, blocked[i].module, len) == 0)
			return blocked[i].rule;
	return NULL;
}

static bool under(const char *real, const char *root)
{
	size_t len = strlen(root);
	if (strcmp(root, "/") == 0)
		return true;
	return strncmp(real, root, len) == 0 && (real[len] == '\0' || real[len] == '/');
}

bool sbx_path_within(const char *path, const char *cwd, const char *root)
{
	char joined[PATH_MAX], real[PATH_MAX], *slash;
	bool ok = false;

	if (!path || !*path)
		goto out;
	if (path[0] == '/') {
		if (strlen(path) >= sizeof joined)
			goto out;
		strcpy(joined, path);
	} else if ((size_t)snprintf(joined, sizeof joined, "%s/%s", cwd, path) >= sizeof joined) {
		goto out;
	}
	if (realpath(joined, real)) {
		ok = under(real, root);
		goto out;
	}
	/* Not there yet: judge the directory it would be created in. */
	slash = strrchr(joined, '/');
	if (!slash || strcmp(slash + 1, "..") == 0 || strcmp(slash + 1, ".") == 0)
		goto out;
	*slash = '\0';
	if (!realpath(joined[0] ? joined : "/", real))
		goto out;
	ok = under(real, root);
out:
	return ok;
}

/* What the hook was armed with; set once, before the upload loads. */
static struct {
	int fd;
	char scratch[PATH_MAX];
	char **roots;
	size_t n_roots;
} hk = { -1, "", NULL, 0 };

static void send_event(const char *action, const char *rule, const char *detail)
{
	char buf[SBX_EVENT_MAX];
	int len = snprintf(buf, sizeof buf, "%.63s%c%.63s%c%.255s", action, SBX_EVENT_SEP, rule,
			   SBX_EVENT_SEP, detail);
	if (len > 0)
		(void)send(hk.fd, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1,
			   MSG_DONTWAIT | MSG_NOSIGNAL);
}

static int refuse(const char *event, const char *rule, const char *detail)
{
	send_event(event, rule, detail ? detail : "");
	PyErr_Format(PyExc_PermissionError, "sandbox: %s refused (%s)", event, rule);
	return -1;
}

/* A path argument as a C string into buf; false for descriptors and None. Never raises. */
static bool arg_path(PyObject *o, char *buf, size_t len)
{
	PyObject *fs = NULL;
	bool ok = false;

	if (!o || o == Py_None || PyLong_Check(o))
		goto out;
	if (!PyUnicode_FSConverter(o, &fs)) {
		PyErr_Clear();
		goto out;
	}
	if ((size_t)PyBytes_GET_SIZE(fs) >= len || strlen(PyBytes_AS_STRING(fs)) != (size_t)PyBytes_GET_SIZE(fs))
		goto out;
	memcpy(buf, PyBytes_AS_STRING(fs), (size_t)PyBytes_GET_SIZE(fs) + 1);
	ok = true;
out:
	Py_XDECREF(fs);
	return ok;
}

static bool in_scratch(const char *path)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, hk.scratch);
	return sbx_path_within(path, cwd, hk.scratch);
}

static bool readable(const char *path)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, hk.scratch);
	if (sbx_path_within(path, cwd, hk.scratch))
		return true;
	for (size_t i = 0; i < hk.n_roots; i++)
		if (sbx_path_within(path, cwd, hk.roots[i]))
			return true;
	return false;
}

static bool open_writes(PyObject *args)
{
	PyObject *mode = PyTuple_Size(args) > 1 ? PyTuple_GetItem(args, 1) : NULL;
	PyObject *flags = PyTuple_Size(args) > 2 ? PyTuple_GetItem(args, 2) : NULL;
	bool w = false;

	if (mode && PyUnicode_Check(mode)) {
		const char *m = PyUnicode_AsUTF8(mode);
		w = m && strpbrk(m, "wax+") != NULL;
	}
	if (flags && PyLong_Check(flags)) {
		long f = PyLong_AsLong(flags);
		w = w || (f & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0;
	}
	PyErr_Clear();
	return w;
}

static int check_open(PyObject *args)
{
	char path[PATH_MAX];
	if (!PyTuple_Check(args) || PyTuple_Size(args) < 1 || !arg_path(PyTuple_GetItem(args, 0), path, sizeof path))
		return 0;
	if (open_writes(args))
		return in_scratch(path) ? 0 : refuse("open", IN_SCRATCH, path);
	return readable(path) ? 0 : refuse("open", READS, path);
}

/* "import" (module, filename, ...): the module's top-level name against the blocklist. */
static int check_import(PyObject *args)
{
	PyObject *m = PyTuple_Check(args) && PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL;
	const char *name = m && PyUnicode_Check(m) ? PyUnicode_AsUTF8(m) : NULL;
	const char *rule = name ? sbx_hook_blocked(name) : NULL;

	PyErr_Clear();
	return rule ? refuse("import", rule, name) : 0;
}

/* A read of a name (listing, stat) must stay where open() may read; None means the current
 * directory, a descriptor was judged when it was opened. */
static int check_read(const char *event, const struct sbx_hook_rule *r, PyObject *args)
{
	PyObject *o = PyTuple_Check(args) && PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL;
	char path[PATH_MAX];

	struct stat st;

	if (!o || o == Py_None || PyLong_Check(o))
		return 0;
	if (!arg_path(o, path, sizeof path))
		return refuse(event, r->rule, "unreadable path argument");
	/* A name that is not there fails anyway and tells no more than a refusal would; linecache
	 * and the import system stat such names on every sys.path entry. */
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return 0;
	return readable(path) ? 0 : refuse(event, r->rule, path);
}

static int check_paths(const char *event, const struct sbx_hook_rule *r, PyObject *args)
{
	char path[PATH_MAX];
	Py_ssize_t n = PyTuple_Check(args) ? PyTuple_Size(args) : 0;
	int count = strcmp(event, "os.rename") == 0 || strcmp(event, "os.link") == 0 ? 2 : 1;

	for (Py_ssize_t i = 0; i < n && i < count; i++) {
		PyObject *o = PyTuple_GetItem(args, i);
		if (o && PyLong_Check(o))
			continue;  /* an open descriptor: Landlock judged it when it was opened */
		if (!arg_path(o, path, sizeof path))
			return refuse(event, r->rule, "unreadable path argument");
		if (!in_scratch(path))
			return refuse(event, r->rule, path);
	}
	return 0;
}

static int check_symlink(const char *event, const struct sbx_hook_rule *r, PyObject *args)
{
	char src[PATH_MAX], dst[PATH_MAX], target[PATH_MAX * 2], *slash;

	if (!PyTuple_Check(args) || PyTuple_Size(args) < 2 ||
	    !arg_path(PyTuple_GetItem(args, 0), src, sizeof src) ||
	    !arg_path(PyTuple_GetItem(args, 1), dst, sizeof dst))
		return refuse(event, r->rule, "unreadable path argument");
	if (!in_scratch(dst))
		return refuse(event, r->rule, dst);
	/* The link's text is resolved from the directory the link sits in. */
	if (src[0] == '/') {
		snprintf(target, sizeof target, "%s", src);
	} else {
		slash = strrchr(dst, '/');
		if (slash)
			snprintf(target, sizeof target, "%.*s/%s", (int)(slash - dst), dst, src);
		else
			snprintf(target, sizeof target, "%s", src);
	}
	return in_scratch(target) ? 0 : refuse(event, r->rule, src);
}

static int hook(const char *event, PyObject *args, void *data)
{
	const struct sbx_hook_rule *r = sbx_hook_lookup(event);
	(void)data;

	switch (r->kind) {
	case SBX_HOOK_ALLOW:
		return 0;
	case SBX_HOOK_REFUSE: {
		PyObject *s = args ? PyObject_Repr(args) : NULL;
		const char *d = s ? PyUnicode_AsUTF8(s) : NULL;
		int rc;
		PyErr_Clear();
		rc = refuse(event, r->rule, d ? d : "");
		Py_XDECREF(s);
		return rc;
	}
	case SBX_HOOK_OPEN:
		return check_open(args);
	case SBX_HOOK_PATHS:
		return check_paths(event, r, args);
	case SBX_HOOK_SYMLINK:
		return check_symlink(event, r, args);
	case SBX_HOOK_IMPORT:
		return check_import(args);
	case SBX_HOOK_READ:
		return check_read(event, r, args);
	}
	return 0;
}

int sbx_hook_purge_modules(void)
{
	PyObject *mods = PySys_GetObject("modules");  /* borrowed */
	PyObject *key, *val, *doomed = PyList_New(0);
	Py_ssize_t pos = 0;
	int rc = -1;

	if (!mods || !PyDict_Check(mods) || !doomed)
		goto out;
	/* Walked with borrowed references, so the run writes nothing to the warm interpreter's
	 * pages (no copy-on-write) for the thousand modules it keeps; only matches are held. */
	while (PyDict_Next(mods, &pos, &key, &val)) {
		const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
		if (name && sbx_hook_blocked(name) && PyList_Append(doomed, key) < 0)
			goto out;
	}
	for (Py_ssize_t i = 0; i < PyList_GET_SIZE(doomed); i++)
		if (PyDict_DelItem(mods, PyList_GET_ITEM(doomed, i)) < 0)
			goto out;
	rc = 0;
out:
	Py_XDECREF(doomed);
	PyErr_Clear();
	return rc;
}

int sbx_hook_install(int event_fd, const char *scratch, const char *const *read_roots, size_t n)
{
	int rc = -1;

	hk.fd = event_fd;
	snprintf(hk.scratch, sizeof hk.scratch, "%s", scratch);
	hk.roots = calloc(n ? n : 1, sizeof *hk.roots);
	if (!hk.roots)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char real[PATH_MAX];
		hk.roots[i] = strdup(realpath(read_roots[i], real) ? real : read_roots[i]);
		if (!hk.roots[i])
			goto out;
		hk.n_roots++;
	}
	if (PySys_AddAuditHook(hook, NULL) < 0) {
		PyErr_Clear();
		goto out;
	}
	rc = 0;
out:
	return rc;
}
