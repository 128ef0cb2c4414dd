/* sbi_live.c - a live run, inside its own namespaces (sbx_proto.h, the live replay): the same
 * lockdown as any run, then one loop that answers for each bar as the driver sends it, with the
 * trade's callbacks as its option, on the bars up to it, or (the claimed run) on the whole
 * history analysed once, as the author's backtest saw it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbi_child.h"
#include "sbi_live.h"
#include "sbx_proto.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A live run's bars: SBX_BAR_COLUMNS columns of cap values each, one after another in one
 * allocation of its own (the data zygote's reservation is unmapped: a run maps nothing it was
 * not sent), doubled when full. */
struct live_cols {
	char *p;
	size_t cap;
};

/* What one live run is: its upload, its bars, and the options the driver's window word set. */
struct live_run {
	const struct sbi_zstate *z;
	PyObject *fn, *params, *flush;
	struct live_cols lc;
	size_t n;         /* bars held */
	size_t window;    /* the most bars a decision sees */
	bool calls;       /* the trade's state comes before each bar (SBX_LIVE_CALLS) */
	bool claimed;     /* the whole history analysed once (SBX_LIVE_CLAIMED) */
	PyObject *values; /* the claimed run's values, one a held bar (int8), or NULL */
};

/* Step 1 of a live run: the keyword arguments and the window word; descriptor 0 is kept. */
static void step_live_params(struct live_run *L)
{
	uint32_t window = 0;

	L->params = sbi_child_read_params();
	if (!sbi_child_read_feed((char *)&window, sizeof window))
		sbi_child_setup_fail("read parameters", "short data pipe");
	L->calls = window & SBX_LIVE_CALLS;
	L->claimed = window & SBX_LIVE_CLAIMED;
	window &= ~(SBX_LIVE_CALLS | SBX_LIVE_CLAIMED);
	if (window == 0 || window > SBX_LIVE_WINDOW_MAX)
		sbi_child_setup_fail("read parameters", "a live window out of range");
	L->window = window;
}

/* Moves the n bars of the data zygote's columns into lc, with room for as many again, and
 * unmaps the columns. */
static void live_cols_take(struct live_cols *lc, char *cols, size_t n)
{
	size_t col = SBX_PREFIX_CAP * SBX_VALUE_BYTES;

	lc->cap = n < 2048 ? 4096 : 2 * n;
	lc->p = calloc(SBX_BAR_COLUMNS * lc->cap, SBX_VALUE_BYTES);
	if (!lc->p)
		sbi_child_setup_fail("live columns", "out of memory");
	for (size_t c = 0; c < SBX_BAR_COLUMNS; c++)
		memcpy(lc->p + c * lc->cap * SBX_VALUE_BYTES, cols + c * col, n * SBX_VALUE_BYTES);
	if (munmap(cols, SBX_PREFIX_RESERVE) < 0)
		sbi_child_setup_fail("live columns", strerror(errno));
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

static PyObject *shim_module(void);

/* Whether the pending error is the framework shim's NotSupported: a feature the audit does not
 * run, which ends the run with its sentence as it ends a full run, never a bar taken flat. */
static bool refused(void)
{
	PyObject *fw = shim_module();
	PyObject *ns = fw ? PyDict_GetItemString(PyModule_GetDict(fw), "NotSupported") : NULL;

	return ns && PyErr_ExceptionMatches(ns);
}

/* signals() on one frame of m bars, its whole output checked by to_int8 as a full run's is: a
 * new reference to its m values (int8, a buffer), or NULL when the upload raised or gave a bad output
 * (the exception cleared); the shim's NotSupported ends the run. */
static PyObject *frame_values(const struct live_run *L, PyObject *df, PyObject *idx, Py_ssize_t m)
{
	PyObject *out, *b, *r, *et, *ev, *tb;

	if (L->params) {
		PyObject *args = PyTuple_Pack(1, df);

		out = args ? PyObject_Call(L->fn, args, L->params) : NULL;
		Py_XDECREF(args);
	} else {
		out = PyObject_CallOneArg(L->fn, df);
	}
	PyErr_Fetch(&et, &ev, &tb);  /* the upload's error, kept across the flush */
	r = PyEval_EvalCode(L->flush, L->z->helpers, L->z->helpers);
	Py_XDECREF(r);
	PyErr_Clear();
	PyErr_Restore(et, ev, tb);
	if (!out) {
		if (refused())
			sbi_child_finish_error(L->z);
		PyErr_Clear();
		return NULL;
	}
	b = PyObject_CallFunction(PyDict_GetItemString(L->z->helpers, "to_int8"), "OnOO", out, m, idx,
				  sbi_child_framework ? Py_True : Py_False);
	Py_DECREF(out);
	PyErr_Clear();
	return b;
}

/* Value i of to_int8's m values v (a buffer of int8), or SBX_LIVE_RAISED when v is NULL or not
 * m of them. */
static int8_t value_at(PyObject *v, Py_ssize_t m, Py_ssize_t i)
{
	Py_buffer b;
	int8_t val = SBX_LIVE_RAISED;

	if (!v || PyObject_GetBuffer(v, &b, PyBUF_C_CONTIGUOUS) < 0) {
		PyErr_Clear();
		return val;
	}
	if (b.len == m && i >= 0 && i < m)
		val = ((const int8_t *)b.buf)[i];
	PyBuffer_Release(&b);
	return val;
}

/* The frame of the last bars up to bar n, its index and length; ends the run (finish_error)
 * when it cannot be built. A new reference, with *idx one too. */
static PyObject *frame_at(const struct live_run *L, size_t n, size_t window, PyObject **idx, Py_ssize_t *m)
{
	PyObject *df = live_frame(L->z, &L->lc, n, window);

	if (!df)
		sbi_child_finish_error(L->z);
	*idx = PyObject_GetAttrString(df, "index");
	*m = *idx ? PyObject_Length(*idx) : -1;
	if (*m < 1)
		sbi_child_finish_error(L->z);
	return df;
}

/* The value of decision seq (bar n - 1 of the run's, or for the claimed run held bar seq):
 * the newest bar's value on its window, or the claimed call's value there; SBX_LIVE_RAISED when
 * the upload raised or gave a bad output for it (a live bot whose strategy fails at a bar takes
 * no position on it and goes on to the next). */
static int8_t decide(const struct live_run *L, uint32_t seq)
{
	PyObject *df, *idx, *b;
	Py_ssize_t m;
	int8_t val = SBX_LIVE_RAISED;

	if (L->claimed)
		return value_at(L->values, (Py_ssize_t)L->n, (Py_ssize_t)seq);
	df = frame_at(L, L->n, L->window, &idx, &m);
	b = frame_values(L, df, idx, m);
	val = value_at(b, m, m - 1);
	Py_XDECREF(b);
	Py_DECREF(idx);
	Py_DECREF(df);
	return val;
}

/* The framework shim (sa_frameworks), borrowed from sys.modules, or NULL when none was loaded. */
static PyObject *shim_module(void)
{
	PyObject *mods = PySys_GetObject("modules");

	return mods && PyDict_Check(mods) ? PyDict_GetItemString(mods, "sa_frameworks") : NULL;
}

/* The callbacks' answer (sbx_proto.h, SBX_LIVE_CALL_BYTES) to the trade state st, from the shim
 * (sa_frameworks.answer_calls) on the analysed frame of the last call, cut before the bar, into
 * call. A shim that cannot answer ends the run with its sentence. */
static void live_call(const struct sbi_zstate *z, const char *st, char *call)
{
	PyObject *fw = shim_module();
	PyObject *b = fw ? PyObject_CallMethod(fw, "answer_calls", "y#", st, (Py_ssize_t)SBX_LIVE_TRADE_BYTES) : NULL;

	if (!b)
		sbi_child_finish_error(z);
	if (!PyBytes_Check(b) || PyBytes_Size(b) != SBX_LIVE_CALL_BYTES) {
		PyErr_SetString(PyExc_RuntimeError, "the callbacks gave an answer of the wrong size");
		sbi_child_finish_error(z);
	}
	memcpy(call, PyBytes_AsString(b), SBX_LIVE_CALL_BYTES);
	Py_DECREF(b);
}

/* One answer: the number, the callbacks' answer for the bar when the run has them, the value. */
static void answer(const struct live_run *L, uint32_t seq, const char *call)
{
	char ans[SBX_LIVE_ANSWER_BYTES + SBX_LIVE_CALL_BYTES];
	size_t len = SBX_LIVE_ANSWER_BYTES + (L->calls ? SBX_LIVE_CALL_BYTES : 0);

	memcpy(ans, &seq, sizeof seq);
	if (L->calls)
		memcpy(ans + sizeof seq, call, SBX_LIVE_CALL_BYTES);
	ans[len - 1] = (char)decide(L, seq);
	sbi_child_put_raw(ans, len);
}

/* The claimed run's one call: signals() on every bar held, analysed once as the author's
 * backtest was; a run whose call fails ends with the upload's error, as a full run does. */
static void claim(struct live_run *L)
{
	PyObject *df, *idx;
	Py_ssize_t m;

	df = frame_at(L, L->n, L->n, &idx, &m);
	L->values = frame_values(L, df, idx, m);
	Py_DECREF(idx);
	Py_DECREF(df);
	if (value_at(L->values, (Py_ssize_t)L->n, 0) == SBX_LIVE_RAISED && L->n > 0) {
		PyErr_SetString(PyExc_RuntimeError, "the strategy failed on the whole history");
		sbi_child_finish_error(L->z);
	}
}

/* Asks the shim for the callbacks (sa_frameworks.CALLS) before the upload exists; a run without
 * a framework class ends with why. */
static void want_calls(const struct sbi_zstate *z)
{
	PyObject *fw = shim_module();

	if (!fw)
		PyErr_SetString(PyExc_RuntimeError, "the trade's callbacks were asked of a run without "
				"a framework class");
	if (!fw || PyObject_SetAttrString(fw, "CALLS", Py_True) < 0)
		sbi_child_finish_error(z);
}

/* Step 11 of a live run: the upload loaded once, then a decision for each bar as it comes, the
 * trade's state first when the driver holds the trade (answered by the callbacks on the frame up
 * to the bar before). The claimed run holds every bar already: the bars it is sent are read and
 * set aside, the frame of its one call stands. */
static noreturn void step_run_live(struct live_run *L)
{
	static const char tag = SBX_TAG_LIVE;
	char bar[SBX_LIVE_BAR_BYTES], st[SBX_LIVE_TRADE_BYTES], call[SBX_LIVE_CALL_BYTES] = { 0 };

	L->flush = Py_CompileString("sys.stdout.flush()\nsys.stderr.flush()\n", "<flush>", Py_file_input);
	if (!L->flush)
		sbi_child_finish_error(L->z);
	if (L->calls)
		want_calls(L->z);
	L->fn = sbi_child_load_upload(L->z);
	if (L->claimed)
		claim(L);
	sbi_child_put_raw(&tag, 1);
	sbi_child_streaming = true;
	for (uint32_t seq = 0;; seq++) {
		answer(L, seq, call);
		if (L->calls) {
			if (!sbi_child_read_feed(st, sizeof st))
				break;
			live_call(L->z, st, call);
		}
		if (!sbi_child_read_feed(bar, sizeof bar))
			break;
		if (L->claimed)
			continue;
		if (live_cols_room(&L->lc, L->n) < 0) {
			PyErr_NoMemory();
			sbi_child_finish_error(L->z);
		}
		live_append(&L->lc, L->n++, bar);
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

void sbi_live_run(const struct sbi_zstate *z, char *cols, size_t n)
{
	struct sbi_zstate live = *z;
	struct live_run L = { .z = &live, .n = n };

	step_live_params(&L);
	live_cols_take(&L.lc, cols, n);
	if (!L.claimed)
		mark_live_shim();
	/* Many bars, each held to the wall clock by the driver: the CPU limit is the whole run's. */
	live.lim.cpu_s = SBX_LIVE_CPU_S;
	sbi_child_lock_down(&live);
	step_run_live(&L);
}
