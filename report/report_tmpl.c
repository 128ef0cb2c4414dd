/* report_tmpl.c - renders the report template; every value passes through sa_html_escape. */
#include "report_tmpl.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "msg.h"
#include "text.h"

#define TMPL_DEPTH 32

struct tmpl {
	FILE *fp;
	const char *src;
	const cJSON *stack[TMPL_DEPTH];
	int depth;
	char *err;
	size_t errlen;
};

/* A parsed tag: its kind ('{' plain, '#', '^', '/', '!'), name span and where it ends. */
struct tag {
	char kind;
	const char *name;
	size_t namelen;
	const char *start, *end;
};

static int line_of(const struct tmpl *t, const char *p)
{
	int line = 1;
	for (const char *q = t->src; q < p; q++)
		line += *q == '\n';
	return line;
}

/* Finds the next tag at or after p; returns false when there is none. */
static bool next_tag(struct tmpl *t, const char *p, const char *limit, struct tag *tag, int *rc)
{
	const char *open = strstr(p, "{{");
	*rc = 0;
	if (!open || open >= limit)
		return false;
	const char *close = strstr(open + 2, "}}");
	if (!close || close + 2 > limit) {
		sa_fmt(t->err, t->errlen, "line %d: unclosed tag", line_of(t, open));
		*rc = -1;
		return false;
	}
	const char *n = open + 2;
	tag->kind = '{';
	if (*n == '#' || *n == '^' || *n == '/' || *n == '!')
		tag->kind = *n++;
	while (n < close && (*n == ' ' || *n == '\t'))
		n++;
	const char *e = close;
	while (e > n && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	tag->name = n;
	tag->namelen = (size_t)(e - n);
	tag->start = open;
	tag->end = close + 2;
	return true;
}

static const cJSON *lookup_in(const cJSON *obj, const char *name, size_t len)
{
	const cJSON *v = obj;
	const char *p = name, *end = name + len;
	while (v && p < end) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		size_t seg = dot ? (size_t)(dot - p) : (size_t)(end - p);
		char key[128];
		if (seg == 0 || seg >= sizeof key || !cJSON_IsObject(v))
			return NULL;
		memcpy(key, p, seg);
		key[seg] = '\0';
		v = cJSON_GetObjectItemCaseSensitive(v, key);
		p += seg + (dot ? 1 : 0);
	}
	return v;
}

/* Resolves a name against the context stack, innermost first, as mustache does. */
static const cJSON *lookup(const struct tmpl *t, const char *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return t->stack[t->depth - 1];
	for (int i = t->depth - 1; i >= 0; i--) {
		const cJSON *v = lookup_in(t->stack[i], name, len);
		if (v)
			return v;
	}
	return NULL;
}

static bool truthy(const cJSON *v)
{
	if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v))
		return false;
	if (cJSON_IsString(v))
		return v->valuestring && v->valuestring[0];
	if (cJSON_IsNumber(v))
		return v->valuedouble != 0;
	if (cJSON_IsArray(v))
		return cJSON_GetArraySize(v) > 0;
	return true;
}

static void emit_value(struct tmpl *t, const cJSON *v)
{
	if (cJSON_IsString(v) && v->valuestring) {
		sa_html_escape(t->fp, v->valuestring);
	} else if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		fprintf(t->fp, "%.10g", v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		fputs(cJSON_IsTrue(v) ? "true" : "false", t->fp);
	}
}

/* Finds the {{/name}} closing the section opened just before p, skipping nested sections. */
static int find_close(struct tmpl *t, const struct tag *open, const char *limit, struct tag *close)
{
	const char *p = open->end;
	int nest = 0, rc = 0;
	while (next_tag(t, p, limit, close, &rc)) {
		bool same = close->namelen == open->namelen &&
			    memcmp(close->name, open->name, open->namelen) == 0;
		if ((close->kind == '#' || close->kind == '^') && same)
			nest++;
		else if (close->kind == '/' && same && nest-- == 0)
			return 0;
		p = close->end;
	}
	if (rc == 0)
		sa_fmt(t->err, t->errlen, "line %d: section '%.*s' is never closed",
		       line_of(t, open->start), (int)open->namelen, open->name);
	return -1;
}

static int render_span(struct tmpl *t, const char *p, const char *limit);

static int render_with(struct tmpl *t, const cJSON *ctx, const char *p, const char *limit)
{
	int rc = -1;
	if (t->depth >= TMPL_DEPTH) {
		sa_fmt(t->err, t->errlen, "sections nested deeper than %d", TMPL_DEPTH);
		goto out;
	}
	t->stack[t->depth++] = ctx;
	rc = render_span(t, p, limit);
	t->depth--;
out:
	return rc;
}

static int render_section(struct tmpl *t, const struct tag *open, const struct tag *close)
{
	const cJSON *v = lookup(t, open->name, open->namelen);
	const char *body = open->end, *end = close->start;
	int rc = 0;
	if (open->kind == '^')
		return truthy(v) ? 0 : render_span(t, body, end);
	if (!truthy(v))
		return 0;
	if (cJSON_IsArray(v)) {
		const cJSON *item;
		cJSON_ArrayForEach(item, v) {
			rc = render_with(t, item, body, end);
			if (rc)
				break;
		}
	} else if (cJSON_IsObject(v)) {
		rc = render_with(t, v, body, end);
	} else {
		rc = render_span(t, body, end);
	}
	return rc;
}

static int render_span(struct tmpl *t, const char *p, const char *limit)
{
	struct tag tag, close;
	int rc = 0;
	while (next_tag(t, p, limit, &tag, &rc)) {
		fwrite(p, 1, (size_t)(tag.start - p), t->fp);
		p = tag.end;
		if (tag.kind == '!')
			continue;
		if (tag.kind == '/') {
			sa_fmt(t->err, t->errlen, "line %d: '%.*s' closed but not open",
			       line_of(t, tag.start), (int)tag.namelen, tag.name);
			return -1;
		}
		if (tag.kind == '{') {
			emit_value(t, lookup(t, tag.name, tag.namelen));
			continue;
		}
		if (find_close(t, &tag, limit, &close) || render_section(t, &tag, &close))
			return -1;
		p = close.end;
	}
	if (rc == 0)
		fwrite(p, 1, (size_t)(limit - p), t->fp);
	return rc;
}

int rpt_tmpl_render(FILE *fp, const char *tmpl, const cJSON *ctx, char *err, size_t errlen)
{
	struct tmpl t = { .fp = fp, .src = tmpl, .err = err, .errlen = errlen };
	if (errlen)
		err[0] = '\0';
	return render_with(&t, ctx, tmpl, tmpl + strlen(tmpl));
}
