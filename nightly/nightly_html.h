/* nightly_html.h - the night's index.html, from templates/nightly.html. */
#ifndef NIGHTLY_HTML_H
#define NIGHTLY_HTML_H

#include <stddef.h>

#include "nightly_index.h"

/* Renders ix through the template text tpl (len bytes) into the file path, atomically. In the
 * template, {{key}} is replaced by the HTML-escaped value and the block between "<!-- row -->"
 * and "<!-- /row -->" is repeated per row. An unknown key renders as nothing. Returns 0, or -1
 * with a message printed (a template without the row markers is an error). */
int nightly_html_write(const struct nightly_index *ix, const char *tpl, size_t len, const char *path);

#endif
