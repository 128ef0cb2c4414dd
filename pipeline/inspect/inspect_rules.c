/* inspect_rules.c - the red-flag rule table and the name lists behind it (policy as data). */
#include "inspect_rules.h"

#include <stdio.h>
#include <string.h>

#include "pylibs.h"

/* Codes by family: SA1xx imports, SA2xx names and calls, SA3xx dunders and introspection,
 * SA4xx look-ahead hints, SA5xx declarations the audit reads. Keep in step with pipeline/inspect/INSPECT.md. */
static const struct inspect_rule rules[] = {
	{"SA101", "error", "forbidden import",
	 "import of '%s' is not allowed in a strategy: the import itself may succeed, but the sandbox refuses what it reaches (processes, files outside scratch, the network, native code); a strategy needs only df and numeric libraries"},
	{"SA102", "warning", "module not available",
	 "import of '%s': the sandbox has no such module; a strategy may import " DA_PYLIBS_TEXT_SHORT
	 " and math, statistics, datetime, collections, itertools, functools, typing, ..."},
	{"SA103", "warning", "relative import",
	 "relative import '%s': a strategy is one file; import only numeric libraries"},
	{"SA201", "error", "dynamic code",
	 "'%s' runs code built at run time; write the code out as plain Python"},
	{"SA202", "error", "file or console I/O",
	 "'%s' does file or console I/O; a strategy reads only df and returns signals"},
	{"SA203", "error", "reflection by name",
	 "'%s' reaches objects by name; use plain attribute access"},
	{"SA204", "warning", "string expression evaluation",
	 "'.%s()' evaluates an expression held in a string; write the expression in Python"},
	{"SA205", "warning", "library file I/O",
	 "'.%s()' reads or writes files; a strategy reads only df"},
	{"SA301", "error", "sandbox-escape attribute",
	 "attribute '%s' is a classic sandbox escape; a strategy never needs it"},
	{"SA302", "warning", "dunder attribute",
	 "dunder attribute '%s'; use the public API instead"},
	{"SA303", "warning", "dunder name in a string",
	 "string '%s' names a dunder attribute, as used to reach one indirectly; a strategy never needs it"},
	{"SA304", "warning", "format-string method",
	 "'.%s()' can reach attributes through its format string ('{0.__class__}'); use an f-string"},
	{"SA401", "hint", "negative shift",
	 "'%s' with a negative period reads later bars; use shift(n) with n >= 1"},
	{"SA402", "hint", "centred rolling window",
	 "'%s' with center=True uses bars after t; drop center=True"},
	{"SA403", "hint", "backward fill",
	 "'%s' fills a gap from a later bar; use ffill"},
	{"SA404", "hint", "whole-column statistic",
	 "'%s' over the whole column uses future bars at every t; use a rolling or expanding window"},
	{"SA405", "hint", "wrap-around roll",
	 "'%s' wraps the last bars around to the start; use shift"},
	{"SA501", "warning", "malformed VARIANTS",
	 "VARIANTS %s; the audit goes on with TRIALS alone"},
	{"SA502", "error", "bad exit declaration",
	 "%s; the replay refuses the signals until the exit is declared right"},
	{"SA503", "warning", "exit not read",
	 "%s"},
};

/* Standard-library modules a strategy may import: numeric work and pure helpers with no reach
 * outside; the third-party ones are pylibs.h's. */
static const char *const allowed_modules[] = {
	"__future__", "abc", "array", "bisect", "cmath", "collections", "copy", "dataclasses",
	"datetime", "decimal", "enum", "fractions", "functools", "heapq", "itertools", "math",
	"numbers", "operator", "statistics", "typing",
};

/* The frameworks' modules the sandbox provides itself (sandbox/inside/shims), and their
 * submodules it does not: those are named by the run, with what is supported. */
static const char *const framework_modules[] = { "backtesting", "freqtrade", "talib", "technical" };
static const char *const framework_missing[] = {
	"freqtrade.exchange", "freqtrade.freqai", "freqtrade.persistence", "technical.indicators",
	"technical.util",
};

/* Modules that reach the system, other processes, the network, native code or the interpreter's
 * own machinery. Any module whose name starts with '_' (but __future__) is treated alike. */
static const char *const forbidden_modules[] = {
	"asyncio", "atexit", "builtins", "code", "codeop", "concurrent", "copyreg", "ctypes",
	"dbm", "dis", "faulthandler", "fcntl", "ftplib", "gc", "glob", "grp", "http", "imaplib",
	"importlib", "inspect", "io", "linecache", "marshal", "mmap", "multiprocessing", "nt",
	"os", "pathlib", "pickle", "pkgutil", "platform", "poplib", "posix", "pty", "pwd",
	"requests", "resource", "runpy", "select", "selectors", "shelve", "shutil", "signal",
	"smtplib", "socket", "socketserver", "sqlite3", "ssl", "subprocess", "sys", "sysconfig",
	"tarfile", "telnetlib", "tempfile", "termios", "threading", "traceback", "tracemalloc",
	"tty", "types", "urllib", "urllib3", "weakref", "webbrowser", "xmlrpc", "zipfile",
	"zipimport",
};

struct name_code {
	const char *name;
	const char *code;
};

static const struct name_code names[] = {
	{"__builtins__", "SA203"}, {"__import__", "SA201"}, {"breakpoint", "SA202"},
	{"compile", "SA201"}, {"delattr", "SA203"}, {"eval", "SA201"}, {"exec", "SA201"},
	{"getattr", "SA203"}, {"globals", "SA203"}, {"help", "SA202"}, {"input", "SA202"},
	{"locals", "SA203"}, {"open", "SA202"}, {"setattr", "SA203"}, {"vars", "SA203"},
};

/* Attributes that lead from any object to the interpreter's internals; frame and code
 * attributes are not dunders but lead to the same place. */
static const char *const escape_attrs[] = {
	"__base__", "__bases__", "__builtins__", "__class__", "__closure__", "__code__",
	"__dict__", "__func__", "__getattribute__", "__globals__", "__import__", "__loader__",
	"__mro__", "__reduce__", "__reduce_ex__", "__self__", "__spec__", "__subclasses__",
	"ag_frame", "co_code", "cr_frame", "f_back", "f_builtins", "f_code", "f_globals",
	"f_locals", "gi_code", "gi_frame", "tb_frame", "tb_next",
};

/* Dunders a plain class legitimately touches. */
/* reading a name or a docstring reaches nothing */
static const char *const harmless_dunders[] = {"__doc__", "__init__", "__name__", "__qualname__"};

static const struct name_code methods[] = {
	{"backfill", "SA403"}, {"bfill", "SA403"}, {"eval", "SA204"}, {"format", "SA304"},
	{"format_map", "SA304"}, {"fromfile", "SA205"}, {"genfromtxt", "SA205"},
	{"interpolate", "SA403"}, {"load", "SA205"}, {"loadtxt", "SA205"}, {"memmap", "SA205"},
	{"query", "SA204"}, {"read_clipboard", "SA205"}, {"read_csv", "SA205"},
	{"read_excel", "SA205"}, {"read_feather", "SA205"}, {"read_fwf", "SA205"},
	{"read_hdf", "SA205"}, {"read_html", "SA205"}, {"read_json", "SA205"},
	{"read_orc", "SA205"}, {"read_parquet", "SA205"}, {"read_pickle", "SA205"},
	{"read_sas", "SA205"}, {"read_spss", "SA205"}, {"read_sql", "SA205"},
	{"read_stata", "SA205"}, {"read_table", "SA205"}, {"read_xml", "SA205"},
	{"roll", "SA405"}, {"save", "SA205"}, {"savetxt", "SA205"}, {"savez", "SA205"},
	{"savez_compressed", "SA205"}, {"to_clipboard", "SA205"}, {"to_csv", "SA205"},
	{"to_excel", "SA205"}, {"to_feather", "SA205"}, {"to_hdf", "SA205"},
	{"to_html", "SA205"}, {"to_json", "SA205"}, {"to_parquet", "SA205"},
	{"to_pickle", "SA205"}, {"to_sql", "SA205"}, {"to_stata", "SA205"}, {"to_xml", "SA205"},
	{"tofile", "SA205"},
};

static const char *const reducers[] = {"max", "mean", "median", "min", "quantile", "std", "var"};

static const char *const windows[] = {"ewm", "expanding", "groupby", "resample", "rolling"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static const char *code_of(const struct name_code *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i].name, s) == 0)
			return list[i].code;
	return NULL;
}

const struct inspect_rule *inspect_rule_find(const char *code)
{
	for (size_t i = 0; i < COUNT(rules); i++)
		if (strcmp(rules[i].code, code) == 0)
			return &rules[i];
	return NULL;
}

const struct inspect_rule *inspect_rules(size_t *n)
{
	*n = COUNT(rules);
	return rules;
}

char *inspect_rule_message(const struct inspect_rule *r, const char *detail, char *buf, size_t len)
{
	/* The templates are ours and hold at most one %s, so the format is not attacker-chosen. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(buf, len, r->message, detail ? detail : "");
#pragma GCC diagnostic pop
	return buf;
}

/* One of the third-party libraries the sandbox provides (pylibs.h). */
static bool is_pylib(const char *top)
{
	for (int i = 0; da_pylibs[i].module; i++)
		if (!strcmp(da_pylibs[i].module, top))
			return true;
	return false;
}

const char *inspect_import_code(const char *module)
{
	char top[128];
	size_t n = strcspn(module, ".");
	const char *code = NULL;

	if (n >= sizeof(top))
		n = sizeof(top) - 1;
	memcpy(top, module, n);
	top[n] = '\0';
	if (in_list(allowed_modules, COUNT(allowed_modules), top) || is_pylib(top))
		goto out;
	if (in_list(framework_modules, COUNT(framework_modules), top)) {
		for (size_t i = 0; i < COUNT(framework_missing); i++)
			if (!strncmp(module, framework_missing[i], strlen(framework_missing[i])))
				code = "SA102";
		goto out;
	}
	if (top[0] == '_' || in_list(forbidden_modules, COUNT(forbidden_modules), top))
		code = "SA101";
	else
		code = "SA102";
out:
	return code;
}

const char *inspect_name_code(const char *name)
{
	return code_of(names, COUNT(names), name);
}

const char *inspect_attr_code(const char *attr)
{
	if (in_list(escape_attrs, COUNT(escape_attrs), attr))
		return "SA301";
	if (inspect_is_dunder(attr) && !in_list(harmless_dunders, COUNT(harmless_dunders), attr))
		return "SA302";
	return NULL;
}

const char *inspect_method_code(const char *attr)
{
	return code_of(methods, COUNT(methods), attr);
}

bool inspect_is_dunder(const char *s)
{
	size_t n = strlen(s);

	if (n < 5 || strncmp(s, "__", 2) != 0 || strcmp(s + n - 2, "__") != 0)
		return false;
	if (strcmp(s, "__main__") == 0)
		return false;
	for (size_t i = 2; i < n - 2; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

bool inspect_is_reducer(const char *attr)
{
	return in_list(reducers, COUNT(reducers), attr);
}

bool inspect_is_window(const char *attr)
{
	return in_list(windows, COUNT(windows), attr);
}
