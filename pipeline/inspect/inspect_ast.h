/* inspect_ast.h - parsing a strategy with the embedded CPython parser and walking its syntax
 * tree from C. Runs only inside the rlimited child of inspect_parse.h: nothing here is run,
 * imported or evaluated from the upload. */
#ifndef INSPECT_AST_H
#define INSPECT_AST_H

#include <cjson/cJSON.h>

/* The walker refuses a tree nested deeper than this: a bounded depth bounds the C stack the walk
 * can use. Real strategies chain hundreds of conditions with & and | (each a level: freqtrade's
 * NostalgiaForInfinityX7 reaches 639), so the bound leaves them room three times over. */
#define INSPECT_MAX_DEPTH 2000
/* VARIANTS may declare at most this many parameter sets. */
#define INSPECT_MAX_VARIANTS 1000
/* At most this many flags are kept; more sets "truncated". */
#define INSPECT_MAX_FLAGS 200

/* Initialises an isolated interpreter (no site, no environment, no signal handlers) for
 * parsing only. Returns 0, or -1 if the interpreter would not start. Call once per process. */
int inspect_ast_init(void);

/* Parses src (NUL-terminated UTF-8 with no NUL inside) and walks the tree. Returns a new object
 * (caller frees): {parsed, syntax_error {line, col, msg} | null, limit (only when the parser or
 * walker hit a limit), has_signals, shape_ok, shape_reason, variants {line, error, params} | null, flags [{code, line, col,
 * detail}],
 * truncated}. col is the parser's 0-based byte offset; syntax_error.col is the parser's 1-based
 * character offset. Returns NULL only when out of memory. */
cJSON *inspect_ast_findings(const char *src);

#endif
