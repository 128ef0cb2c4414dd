/* sbi_hook.c - the audit hook: a policy table of events and the path checks behind it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbi_hook.h"
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
 * loads (sbi_hook_purge_modules), so an import cannot find a cached copy. */
static const struct sbi_hook_block blocked[] = {
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
static const struct sbi_hook_rule rules[] = {
	{ "os.system", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.exec", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.spawn", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.posix_spawn", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.fork", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.forkpty", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.startfile", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "subprocess.Popen", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "pty.spawn", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "webbrowser.open", SBI_HOOK_REFUSE, NO_PROC, { 0, 0 } },
	{ "os.kill", SBI_HOOK_REFUSE, SBX_R_NO_SIGNALS, { 0, 0 } },
	{ "os.killpg", SBI_HOOK_REFUSE, SBX_R_NO_SIGNALS, { 0, 0 } },
	{ "signal.pthread_kill", SBI_HOOK_REFUSE, SBX_R_NO_SIGNALS, { 0, 0 } },
	{ "socket.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "urllib.Request", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "http.client.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "ftplib.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "smtplib.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "imaplib.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "poplib.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "nntplib.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "telnetlib.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "syslog.", SBI_HOOK_REFUSE, NO_NET, { 0, 0 } },
	{ "ctypes.", SBI_HOOK_REFUSE, NO_NATIVE, { 0, 0 } },
	/* the mmap module is blocklisted, but numpy and pandas keep their own reference to it */
	{ "mmap.__new__", SBI_HOOK_REFUSE, NO_MAP, { 0, 0 } },
	{ "cffi.", SBI_HOOK_REFUSE, NO_NATIVE, { 0, 0 } },
	{ "sys.addaudithook", SBI_HOOK_REFUSE, FIXED, { 0, 0 } },
	{ "sys._current_frames", SBI_HOOK_REFUSE, SBX_R_NO_CLIMB, { 0, 0 } },
	{ "gc.get_objects", SBI_HOOK_REFUSE, SBX_R_NO_CLIMB, { 0, 0 } },
	{ "gc.get_referrers", SBI_HOOK_REFUSE, SBX_R_NO_CLIMB, { 0, 0 } },
	{ "gc.get_referents", SBI_HOOK_REFUSE, SBX_R_NO_CLIMB, { 0, 0 } },
	{ "resource.setrlimit", SBI_HOOK_REFUSE, SBX_R_LIMITS, { 0, 0 } },
	{ "resource.prlimit", SBI_HOOK_REFUSE, SBX_R_LIMITS, { 0, 0 } },
	{ "open", SBI_HOOK_OPEN, NULL, { 0, 0 } },
	{ "import", SBI_HOOK_IMPORT, NULL, { 0, 0 } },
	/* None names the working directory; the audit events' own argument order places dir_fd */
	{ "os.listdir", SBI_HOOK_READ, READS, { 0, 0 } },
	{ "os.scandir", SBI_HOOK_READ, READS, { 0, 0 } },
	{ "os.chdir", SBI_HOOK_READ, READS, { 0, 0 } },
	/* raised by the guards of os.stat, os.lstat, os.readlink, os.access (guard_stat in
	 * py/sa_helpers.py, armed by sbi_zygote.c): path, dir_fd */
	{ "os.stat", SBI_HOOK_READ, READS, { 2, 0 } },
	{ "os.readlink", SBI_HOOK_READ, READS, { 2, 0 } },
	{ "os.access", SBI_HOOK_READ, READS, { 2, 0 } },
	{ "os.symlink", SBI_HOOK_SYMLINK, IN_SCRATCH, { 0, 3 } },
	{ "os.remove", SBI_HOOK_PATHS, IN_SCRATCH, { 2, 0 } },
	{ "os.rmdir", SBI_HOOK_PATHS, IN_SCRATCH, { 2, 0 } },
	{ "os.rename", SBI_HOOK_PATHS, IN_SCRATCH, { 3, 4 } },
	{ "os.link", SBI_HOOK_PATHS, IN_SCRATCH, { 3, 4 } },
	{ "os.truncate", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
	{ "os.chmod", SBI_HOOK_PATHS, IN_SCRATCH, { 3, 0 } },
	{ "os.chown", SBI_HOOK_PATHS, IN_SCRATCH, { 4, 0 } },
	{ "os.chflags", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
	{ "os.mkdir", SBI_HOOK_PATHS, IN_SCRATCH, { 3, 0 } },
	{ "os.utime", SBI_HOOK_PATHS, IN_SCRATCH, { 4, 0 } },
	{ "os.setxattr", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
	{ "os.removexattr", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
	{ "shutil.rmtree", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
	{ "shutil.chown", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
	{ "sqlite3.connect", SBI_HOOK_PATHS, IN_SCRATCH, { 0, 0 } },
};

const struct sbi_hook_rule *sbi_hook_lookup(const char *event)
{
	static const struct sbi_hook_rule allow = { "", SBI_HOOK_ALLOW, NULL, { 0, 0 } };

	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		size_t len = strlen(rules[i].event);
		bool prefix = rules[i].event[len - 1] == '.';
		if (prefix ? strncmp(event, rules[i].event, len) == 0 : strcmp(event, rules[i].event) == 0)
			return &rules[i];
	}
	return &allow;
}

const char *sbi_hook_blocked(const char *module)
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

bool sbi_path_within(const char *path, const char *cwd, const char *root)
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
	dev_t scratch_dev;  /* the file system scratch is */
	char scratch[PATH_MAX];
	char **roots;
	size_t n_roots;
} hk = { -1, 0, "", NULL, 0 };

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
	return sbi_path_within(path, cwd, hk.scratch);
}

/* The name itself, not what a symlink there points to: its directory resolved, then the last
 * component as written. */
static bool link_within(const char *path, const char *cwd, const char *root)
{
	char joined[PATH_MAX], dir[PATH_MAX], *slash;

	if ((size_t)snprintf(joined, sizeof joined, "%s%s%s", path[0] == '/' ? "" : cwd,
			     path[0] == '/' ? "" : "/", path) >= sizeof joined)
		return false;
	slash = strrchr(joined, '/');
	if (!slash || slash[1] == '\0' || strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0)
		return sbi_path_within(path, cwd, root);
	*slash = '\0';
	if (!realpath(joined[0] ? joined : "/", dir) ||
	    (size_t)snprintf(joined, sizeof joined, "%s/%s", strcmp(dir, "/") ? dir : "", slash + 1) >= sizeof joined)
		return false;
	return under(joined, root);
}

/* Whether path is within scratch or a read root, by the test within (names resolved from the
 * working directory). */
static bool in_roots(const char *path, bool (*within)(const char *, const char *, const char *))
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, hk.scratch);
	if (within(path, cwd, hk.scratch))
		return true;
	for (size_t i = 0; i < hk.n_roots; i++)
		if (within(path, cwd, hk.roots[i]))
			return true;
	return false;
}

static bool readable(const char *path)
{
	return in_roots(path, sbi_path_within);
}

/* A symlink itself (readlink) must sit in scratch or a read root, wherever it points. */
static bool link_readable(const char *path)
{
	return in_roots(path, link_within);
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

/* True when some component of the name is "..". */
static bool climbs(const char *p)
{
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += len;
		p += strspn(p, "/");
	}
	return false;
}

enum where { FROM_CWD, IN_SCRATCH_DIR, REFUSED };

/* Where a name of path argument which (0 or 1) is resolved from. A relative name given with a
 * directory descriptor is resolved from that directory, which the hook cannot name: it stays in
 * scratch only when the directory is on scratch's file system and the name never climbs
 * ("..", shutil.rmtree's own walk of a tree in scratch); any other is refused, so a decoy
 * in the working directory cannot stand in for what the descriptor reaches. */
static enum where resolved_from(const struct sbi_hook_rule *r, int which, PyObject *args, const char *path)
{
	unsigned at = r->dir_fd[which];
	PyObject *o;
	long fd;
	struct stat st;

	if (at == 0 || path[0] == '/' || (Py_ssize_t)at > PyTuple_Size(args))
		return FROM_CWD;
	o = PyTuple_GetItem(args, (Py_ssize_t)at - 1);
	if (!o || o == Py_None || !PyLong_Check(o))
		return FROM_CWD;
	fd = PyLong_AsLong(o);
	if (fd == -1 && PyErr_Occurred()) {
		PyErr_Clear();
		return REFUSED;
	}
	if (fd == -1 || fd == AT_FDCWD)
		return FROM_CWD;
	if (fd < 0 || fd > INT_MAX || fstat((int)fd, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_dev != hk.scratch_dev || climbs(path))
		return REFUSED;
	return IN_SCRATCH_DIR;
}

/* "import" (module, filename, ...): the module's top-level name against the blocklist. */
static int check_import(PyObject *args)
{
	PyObject *m = PyTuple_Check(args) && PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL;
	const char *name = m && PyUnicode_Check(m) ? PyUnicode_AsUTF8(m) : NULL;
	const char *rule = name ? sbi_hook_blocked(name) : NULL;

	PyErr_Clear();
	return rule ? refuse("import", rule, name) : 0;
}

/* A read of a name (listing, stat, readlink, chdir) must stay where open() may read; None means
 * the working directory, a descriptor was judged when it was opened. */
static int check_read(const char *event, const struct sbi_hook_rule *r, PyObject *args)
{
	PyObject *o = PyTuple_Check(args) && PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : NULL;
	char path[PATH_MAX];
	enum where from;

	struct stat st;

	if (o && PyLong_Check(o))
		return 0;
	if (!o || o == Py_None)
		strcpy(path, ".");
	else if (!arg_path(o, path, sizeof path))
		return refuse(event, r->rule, "unreadable path argument");
	from = resolved_from(r, 0, args, path);
	if (from == REFUSED)
		return refuse(event, SBX_R_PLAIN_NAMES, path);
	if (from == IN_SCRATCH_DIR)
		return 0;
	/* A name that is not there fails anyway and tells no more than a refusal would; linecache
	 * and the import system stat such names on every sys.path entry. */
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return 0;
	if (strcmp(event, "os.readlink") == 0)
		return link_readable(path) ? 0 : refuse(event, r->rule, path);
	return readable(path) ? 0 : refuse(event, r->rule, path);
}

static int check_paths(const char *event, const struct sbi_hook_rule *r, PyObject *args)
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
		switch (resolved_from(r, (int)i, args, path)) {
		case REFUSED:
			return refuse(event, SBX_R_PLAIN_NAMES, path);
		case IN_SCRATCH_DIR:
			break;
		case FROM_CWD:
			if (!in_scratch(path))
				return refuse(event, r->rule, path);
			break;
		}
	}
	return 0;
}

static int check_symlink(const char *event, const struct sbi_hook_rule *r, PyObject *args)
{
	char src[PATH_MAX], dst[PATH_MAX], target[PATH_MAX * 2], *slash;

	if (!PyTuple_Check(args) || PyTuple_Size(args) < 2 ||
	    !arg_path(PyTuple_GetItem(args, 0), src, sizeof src) ||
	    !arg_path(PyTuple_GetItem(args, 1), dst, sizeof dst))
		return refuse(event, r->rule, "unreadable path argument");
	switch (resolved_from(r, 1, args, dst)) {
	case REFUSED:
		return refuse(event, SBX_R_PLAIN_NAMES, dst);
	case IN_SCRATCH_DIR:
		/* the link sits in a scratch directory the hook cannot name: its text must not climb */
		return climbs(src) || (src[0] == '/' && !in_scratch(src)) ? refuse(event, r->rule, src) : 0;
	case FROM_CWD:
		break;
	}
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
	const struct sbi_hook_rule *r = sbi_hook_lookup(event);
	(void)data;

	switch (r->kind) {
	case SBI_HOOK_ALLOW:
		return 0;
	case SBI_HOOK_REFUSE: {
		PyObject *s = args ? PyObject_Repr(args) : NULL;
		const char *d = s ? PyUnicode_AsUTF8(s) : NULL;
		int rc;
		PyErr_Clear();
		rc = refuse(event, r->rule, d ? d : "");
		Py_XDECREF(s);
		return rc;
	}
	case SBI_HOOK_OPEN:
		return check_open(args);
	case SBI_HOOK_PATHS:
		return check_paths(event, r, args);
	case SBI_HOOK_SYMLINK:
		return check_symlink(event, r, args);
	case SBI_HOOK_IMPORT:
		return check_import(args);
	case SBI_HOOK_READ:
		return check_read(event, r, args);
	}
	return 0;
}

int sbi_hook_purge_modules(void)
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
		if (name && sbi_hook_blocked(name) && PyList_Append(doomed, key) < 0)
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

int sbi_hook_install(int event_fd, const char *scratch, const char *const *read_roots, size_t n)
{
	struct stat st;
	int rc = -1;

	hk.fd = event_fd;
	snprintf(hk.scratch, sizeof hk.scratch, "%s", scratch);
	if (stat(scratch, &st) < 0)
		goto out;
	hk.scratch_dev = st.st_dev;
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
