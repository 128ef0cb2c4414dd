/* nightly_html.c - filling the index template; every value passes through the HTML escaper. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "msg.h"
#include "nightly_html.h"
#include "text.h"

#define ROW_OPEN "<!-- row -->"
#define ROW_CLOSE "<!-- /row -->"

/* Formats a figure, "-" when unknown. */
static void fig(char *buf, size_t len, double x, const char *fmt)
{
	if (isfinite(x))
		snprintf(buf, len, fmt, x);
	else
		snprintf(buf, len, "-");
}

static void count(char *buf, size_t len, long x)
{
	if (x >= 0)
		snprintf(buf, len, "%ld", x);
	else
		snprintf(buf, len, "-");
}

/* Escapes s with a break opportunity (<wbr>) after each '_' and '/', so a long verdict or path
 * wraps between its parts, never inside a word. */
static void escape_breakable(FILE *fp, const char *s)
{
	char part[512];

	while (*s) {
		size_t n = strcspn(s, "_/");

		n += s[n] != '\0';  /* the separator stays with the part before it */
		snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part ? n : sizeof part - 1), s);
		sa_html_escape(fp, part);
		if (s[n - 1] == '_' || s[n - 1] == '/')
			fputs("<wbr>", fp);
		s += n;
	}
}

/* A fraction as a percentage, "-" when unknown. */
static void pct(char *buf, size_t len, double x, bool sign)
{
	if (isfinite(x))
		snprintf(buf, len, sign ? "%+.2f %%" : "%.2f %%", 100 * x);
	else
		snprintf(buf, len, "-");
}

/* Writes the value of a row key; returns 0 when the key is unknown. */
static int row_value(FILE *fp, const struct nightly_row *r, const char *key, size_t klen)
{
	char buf[320];

#define IS(k) (klen == sizeof(k) - 1 && memcmp(key, k, klen) == 0)
	if (IS("name"))
		sa_html_escape(fp, r->name);
	else if (IS("verdict"))
		sa_html_escape(fp, r->verdict);
	else if (IS("verdict_text"))
		escape_breakable(fp, r->verdict);
	else if (IS("gate_verdict"))
		escape_breakable(fp, r->gate_verdict[0] ? r->gate_verdict : "-");
	else if (IS("gates_alone")) {
		/* only where a veto or INCOMPLETE overrode the gates */
		if (r->gate_verdict[0] && strcmp(r->gate_verdict, r->verdict) != 0) {
			fputs("gates alone: ", fp);
			escape_breakable(fp, r->gate_verdict);
		}
	}
	else if (IS("net_return"))
		pct(buf, sizeof buf, r->net_return, true), sa_html_escape(fp, buf);
	else if (IS("max_drawdown"))
		pct(buf, sizeof buf, r->max_drawdown, false), sa_html_escape(fp, buf);
	else if (IS("data")) {
		/* the file's name; its whole path is in index.json and index.xlsx */
		const char *base = strrchr(r->data, '/');

		escape_breakable(fp, r->data[0] ? (base ? base + 1 : r->data) : "-");
		if (r->data_first[0]) {
			fputs("<div class=\"note\">", fp);
			sa_html_escape(fp, r->data_first);
			fputs(" to ", fp);
			sa_html_escape(fp, r->data_last);
			fputs("</div>", fp);
		}
	}
	else if (IS("trades"))
		fig(buf, sizeof buf, r->trades, "%.0f"), sa_html_escape(fp, buf);
	else if (IS("sharpe"))
		fig(buf, sizeof buf, r->sharpe, "%.3f"), sa_html_escape(fp, buf);
	else if (IS("psr"))
		fig(buf, sizeof buf, r->psr, "%.3f"), sa_html_escape(fp, buf);
	else if (IS("dsr"))
		fig(buf, sizeof buf, r->dsr, "%.3f"), sa_html_escape(fp, buf);
	else if (IS("trials"))
		count(buf, sizeof buf, r->trials), sa_html_escape(fp, buf);
	else if (IS("pbo"))
		fig(buf, sizeof buf, r->pbo, "%.2f"), sa_html_escape(fp, buf);
	else if (IS("blocked"))
		count(buf, sizeof buf, r->blocked), sa_html_escape(fp, buf);
	else if (IS("mismatches"))
		count(buf, sizeof buf, r->mismatches), sa_html_escape(fp, buf);
	else if (IS("news")) {
		sa_html_escape(fp, nightly_news_name(r->news));
		if (r->news == NIGHTLY_CHANGED) {
			fputs(": ", fp);
			sa_html_escape(fp, r->change);
		}
	} else if (IS("run"))
		sa_html_escape(fp, r->audited ? "audited" : "reused");
	else if (IS("note"))
		sa_html_escape(fp, r->note);
	else if (IS("ledger"))
		sa_html_escape(fp, r->ledger);
	else if (IS("forward"))
		sa_html_escape(fp, r->forward);
	else if (IS("reason"))
		sa_html_escape(fp, r->reason[0] ? r->reason : "-");
	else if (IS("bundle_link")) {
		if (r->report[0]) {
			fputs("<a href=\"", fp);
			sa_html_escape(fp, r->report);
			fputs("\">report.html</a><br>", fp);
		}
		if (r->bundle[0]) {
			fputs("<a href=\"", fp);
			sa_html_escape(fp, r->bundle);
			fputs("\">", fp);
			escape_breakable(fp, r->bundle);
			fputs("</a>", fp);
		} else {
			fputs("-", fp);
		}
	} else
		return 0;
#undef IS
	return 1;
}

/* Writes the value of a page key; returns 0 when the key is unknown. */
static int page_value(FILE *fp, const struct nightly_index *ix, const char *key, size_t klen)
{
	char buf[512];

	if (klen == 7 && memcmp(key, "summary", 7) == 0)
		sa_html_escape(fp, nightly_index_summary(ix, buf, sizeof buf));
	else
		return 0;
	return 1;
}

/* Copies tpl[0..len) to fp, replacing each {{key}} with the row's (when r) or the page's value. */
static void render(FILE *fp, const char *tpl, size_t len, const struct nightly_index *ix,
		   const struct nightly_row *r)
{
	const char *p = tpl, *end = tpl + len;

	while (p < end) {
		const char *open = memmem(p, (size_t)(end - p), "{{", 2), *close;

		if (!open) {
			fwrite(p, 1, (size_t)(end - p), fp);
			break;
		}
		fwrite(p, 1, (size_t)(open - p), fp);
		close = memmem(open + 2, (size_t)(end - open - 2), "}}", 2);
		if (!close) {
			fwrite(open, 1, (size_t)(end - open), fp);
			break;
		}
		if (!(r && row_value(fp, r, open + 2, (size_t)(close - open - 2))))
			page_value(fp, ix, open + 2, (size_t)(close - open - 2));
		p = close + 2;
	}
}

int nightly_html_write(const struct nightly_index *ix, const char *tpl, size_t len, const char *path)
{
	const char *ro = memmem(tpl, len, ROW_OPEN, strlen(ROW_OPEN)), *rc = NULL, *body, *after;
	struct sa_atomic a = {0};
	char err[1024];

	if (ro)
		rc = memmem(ro, len - (size_t)(ro - tpl), ROW_CLOSE, strlen(ROW_CLOSE));
	if (!ro || !rc)
		return sa_error("the index template has no '%s' ... '%s' block", ROW_OPEN, ROW_CLOSE);
	body = ro + strlen(ROW_OPEN);
	after = rc + strlen(ROW_CLOSE);
	if (sa_atomic_open(&a, path, err, sizeof err) != 0)
		return sa_error("%s", err);
	render(a.fp, tpl, (size_t)(ro - tpl), ix, NULL);
	for (size_t i = 0; i < ix->n; i++)
		render(a.fp, body, (size_t)(rc - body), ix, &ix->rows[i]);
	render(a.fp, after, len - (size_t)(after - tpl), ix, NULL);
	if (sa_atomic_commit(&a, err, sizeof err) != 0)
		return sa_error("%s", err);
	return 0;
}
