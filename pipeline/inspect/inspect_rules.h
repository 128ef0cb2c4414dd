/* inspect_rules.h - the red-flag rule table of the inspect stage: stable codes, severities,
 * messages, and the name lists the rules test against. Pure data and lookups; no Python. */
#ifndef INSPECT_RULES_H
#define INSPECT_RULES_H

#include <stdbool.h>
#include <stddef.h>

/* One rule. The code is stable across versions (reports and people refer to it); the message
 * template holds at most one %s, filled with the offending name. */
struct inspect_rule {
	const char *code;
	const char *severity;  /* "error": the sandbox will refuse it; "warning"; "hint": look-ahead */
	const char *title;     /* a few words, for the rule table in INSPECT.md and the report */
	const char *message;
};

/* The rule with this code, or NULL. Borrowed from a static table. */
const struct inspect_rule *inspect_rule_find(const char *code);

/* The whole table, in code order; *n gets its length. Borrowed. */
const struct inspect_rule *inspect_rules(size_t *n);

/* Formats the rule's message with detail into buf (always NUL-terminated). Returns buf. */
char *inspect_rule_message(const struct inspect_rule *r, const char *detail, char *buf, size_t len);

/* The code for importing module (a dotted name, as written): "SA101" forbidden, "SA102" outside
 * the numeric allowlist, or NULL when allowed. Judged on the first dotted component. */
const char *inspect_import_code(const char *module);

/* The code for a use of a bare name (eval, open, getattr, ...), or NULL. */
const char *inspect_name_code(const char *name);

/* The code for an attribute access .attr: a sandbox-escape dunder or frame attribute, another
 * dunder, or NULL. */
const char *inspect_attr_code(const char *attr);

/* The code for a call of a method .attr(...) judged by its name alone (format, query, read_csv,
 * bfill, ...), or NULL. Calls whose arguments matter are judged by the walker. */
const char *inspect_method_code(const char *attr);

/* True if s is a whole dunder identifier such as "__class__" (not "__main__"). */
bool inspect_is_dunder(const char *s);

/* True if attr is a whole-sample reducer (mean, std, min, max, ...) for the normalisation hint. */
bool inspect_is_reducer(const char *attr);

/* True if attr makes a moving window (rolling, expanding, ewm, ...), so a reducer on it is not a
 * whole-column statistic. */
bool inspect_is_window(const char *attr);

#endif
