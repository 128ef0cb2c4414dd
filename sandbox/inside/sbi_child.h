/* sbi_child.h - inside the namespaces: what a run child's recipe (sbi_child.c) gives the live
 * run's loop (sbi_live.c): the result channel, the feed, the lockdown and the upload. */
#ifndef SBI_CHILD_H
#define SBI_CHILD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>

#include "sbi_zygote.h"

/* A live run has begun its stream of decisions (SBX_TAG_LIVE sent): a tagged result after it
 * first stops the stream (the number SBX_LIVE_STOP). */
extern bool sbi_child_streaming;

/* The run's signals(df) is a framework class's: its values may also carry events, up to
 * SBX_SIGNAL_EVENTS_MAX (sbx_proto.h). Set by sbi_child_load_upload. */
extern bool sbi_child_framework;

/* Writes len bytes of buf to the result descriptor, as far as it takes them. */
void sbi_child_put_raw(const void *buf, size_t len);

/* Reports why setup failed and exits; the upload has not been loaded. */
noreturn void sbi_child_setup_fail(const char *step, const char *why);

/* Reads exactly len bytes of descriptor 0. Returns 1, or 0 at its end (for a live run: the
 * driver has no further bar, or hung up mid-bar; either way there is nothing more to decide). */
int sbi_child_read_feed(char *p, size_t len);

/* The keyword arguments of signals() from descriptor 0 (JSON text, parsed by trusted code): a
 * new reference to a dict with str keys, or NULL when there are none. Fails the setup on a bad
 * one. */
PyObject *sbi_child_read_params(void);

/* Sends the pending Python error as the run's tagged result (error, bad output or memory) and
 * exits. */
noreturn void sbi_child_finish_error(const struct sbi_zstate *z);

/* Runs the upload as a module and returns its signals(df), or a framework class's: borrowed
 * from the module's namespace, which lives until the run exits. Ends the run when there is
 * none. */
PyObject *sbi_child_load_upload(const struct sbi_zstate *z);

/* Steps 3-10 of the recipe, the same for every run, the live ones too. Fails the setup when a
 * step cannot be taken. */
void sbi_child_lock_down(const struct sbi_zstate *z);

#endif
