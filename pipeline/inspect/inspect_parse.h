/* inspect_parse.h - running the parse of an upload in a forked child under rlimits, so a parser
 * bomb (deep nesting, huge literals) becomes a clear finding instead of a crash of the stage. */
#ifndef INSPECT_PARSE_H
#define INSPECT_PARSE_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* Limits on the parsing child. */
struct inspect_limits {
	unsigned cpu_s;   /* CPU seconds (RLIMIT_CPU) */
	unsigned wall_s;  /* wall-clock seconds the parent waits before killing the child */
	size_t mem_mb;    /* address space (RLIMIT_AS); not applied under ASan, which reserves
			     terabytes of shadow memory up front */
};

#define INSPECT_LIMITS_DEFAULT {.cpu_s = 5, .wall_s = 20, .mem_mb = 512}

/* The child's answer is capped: INSPECT_MAX_FLAGS flags and a few fields never come close. */
#define INSPECT_ANSWER_CAP ((size_t)1024 * 1024)

enum inspect_parse_status {
	INSPECT_PARSE_OK = 0,   /* *out holds the findings of inspect_ast_findings */
	INSPECT_PARSE_LIMIT,    /* the file made the parser hit a limit or crash: a finding */
	INSPECT_PARSE_BROKEN,   /* the tool could not work (no fork, no interpreter) */
};

/* Parses src (NUL-terminated, no NUL inside) in a child under lim, reading its findings back
 * through a pipe (capped). On INSPECT_PARSE_OK, *out is a new object (caller frees); otherwise
 * *out is NULL and err says why in words for the report. Never exits. */
enum inspect_parse_status inspect_parse(const char *src, const struct inspect_limits *lim,
					cJSON **out, char *err, size_t errlen);

#endif
