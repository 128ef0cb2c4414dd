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

/* The error contract. Library code prints nothing: a function that can fail takes the caller's
 * (char *err, size_t errlen) and reports a failure by returning -1 (or NULL, or the failure
 * value its header names), with err holding one NUL-terminated lowercase sentence that names its
 * subject ("cannot write 'x.json': No space left on device"). The caller prints it (a main:
 * sa_die("...: %s", err)) or, in a stage, puts it into the JSON "reason"; `why` is the name the
 * stages give that user-facing reason text. Some do without the buffer: a function whose only failure is running out of memory, or a parser whose -1 means
 * "not this form" (sa_time_parse), returns -1 alone; sa_rlimits_set reports the refused row
 * and errno; sa_csv_table_parse words its failure into the table's position; sa_read_file
 * returns a status, which sa_read_strerror words into the caller's buffer. */

/* Prints "prog: message\n" to stderr and returns -1; for mains. */
int sa_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "prog: warning: message\n" to stderr. */
void sa_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "prog: message\n" and exits SA_EXIT_BROKEN. Only a program's main, or the main body it
 * hands over to (sbx_stage_main), calls this. */
noreturn void sa_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "prog: message\n" and exits SA_EXIT_USAGE, with a hint to run --help. */
noreturn void sa_usage_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Formats into buf (always NUL-terminated, truncated to len). Returns buf. */
char *sa_fmt(char *buf, unsigned long len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
