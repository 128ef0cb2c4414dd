/* report_tmpl.h - a small logic-less template language whose every inserted value is escaped. */
#ifndef RPT_TMPL_H
#define RPT_TMPL_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

/*
 * The language (a subset of mustache, with no way to insert raw markup):
 *   {{name}}            the value of name, HTML-escaped; a dotted path walks objects; "." is the
 *                       current item; a missing name or null renders nothing
 *   {{#name}}..{{/name}} an array repeats the block once per element (the element becomes the
 *                       current item); an object renders it once inside that object; any other
 *                       truthy value renders it once; false, null, 0, "" and [] skip it
 *   {{^name}}..{{/name}} renders the block only when name is falsy as above
 *   {{! text}}          a comment
 */

/* Renders the NUL-terminated template tmpl with the context ctx (borrowed) onto fp.
 * Returns 0, or -1 with err set (an unclosed tag or section, a section closed out of order, or
 * nesting deeper than the limit); fp may hold partial output then, so callers write through an
 * atomic file and abort it on failure. */
int rpt_tmpl_render(FILE *fp, const char *tmpl, const cJSON *ctx, char *err, size_t errlen);

#endif
