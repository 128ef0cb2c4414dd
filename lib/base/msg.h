/* msg.h - the one message style: "prog: lowercase message, 'subject'". */
#ifndef SA_MSG_H
#define SA_MSG_H

#include <stdnoreturn.h>

/* Exit codes every program shares. A negative finding is not a failure:
 * a stage that wrote its JSON (even with "ok": false) exits SA_EXIT_OK. */
enum {
	SA_EXIT_OK = 0,       /* output written (the finding is in the JSON) */
	SA_EXIT_USAGE = 2,    /* bad command line; nothing written */
	SA_EXIT_BROKEN = 3,   /* the tool itself could not work (cannot write output, out of memory) */
};

/* Sets the program name used as the prefix of every message. Borrowed: the string must outlive
 * the program (argv[0] or a literal). */
void sa_set_prog(const char *name);
const char *sa_prog(void);

/* Library code prints nothing: it records why it failed and returns -1, `return sa_fail(...)`.
 * The record is the calling thread's, replaced by the next failure; sa_cause() reads it ("" when
 * there is none) and sa_cause_clear() empties it. A caller that puts the failure into a JSON
 * "reason" quotes sa_cause(); the printing helpers below add it themselves. */
int sa_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *sa_cause(void);
void sa_cause_clear(void);

/* Prints "prog: message\n" to stderr and returns -1; for mains. When a library failure was
 * recorded and not yet printed, the line ends ": cause" and the record is emptied. */
int sa_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "prog: warning: message\n" to stderr. */
void sa_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "prog: message\n" (with the recorded cause, as sa_error) and exits SA_EXIT_BROKEN.
 * Only main() calls this. */
noreturn void sa_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "prog: message\n" and exits SA_EXIT_USAGE, with a hint to run --help. */
noreturn void sa_usage_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Formats into buf (always NUL-terminated, truncated to len). Returns buf. */
char *sa_fmt(char *buf, unsigned long len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
