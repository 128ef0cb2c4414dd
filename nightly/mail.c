/* mail.c - mails one night's index and bundles: a text and an HTML summary, the bundles
 * attached (or, above the size cap, the index alone and the names of what was left out). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "mail_plan.h"
#include "mail_send.h"
#include "msg.h"
#include "text.h"

#define EXIT_NOT_SENT 1

static const char usage_text[] =
	"usage: mail --night-dir DIR --to ADDR[,ADDR...] --from ADDR --url smtp[s]://HOST[:PORT]\n"
	"            [--subject-night NIGHT] [--cap BYTES] [--retries N] [--backoff-ms MS]\n"
	"            [--credentials FILE] [--starttls] [--ca FILE]\n"
	"\n"
	"Sends one message: DIR/index.txt as text, DIR/index.html as HTML, DIR/index.xlsx and\n"
	"DIR/index.html attached, and the bundles the index lists, base64-encoded, worst news\n"
	"first, each while the message stays under the cap (default 10485760 bytes); those that\n"
	"do not fit are named with their place in DIR/bundles.\n"
	"The outcome is written to DIR/mail.json either way.\n"
	"\n"
	"Environment: MAIL_CAP, MAIL_RETRIES (3), MAIL_BACKOFF_MS (2000) as defaults for the options;\n"
	"MAIL_CREDENTIALS (a file holding 'user:password'), else SMTP_USER and\n"
	"SMTP_PASSWORD; SMTP_STARTTLS=1; SMTP_CA. Credentials are never printed.\n"
	"\n"
	"exit: 0 sent; 1 not sent (the reason is printed and in mail.json; nothing else is\n"
	"lost); 2 usage; 3 broken (the night's files could not be read or mail.json not written)\n";

struct args {
	const char *night_dir, *to, *from, *url, *night, *credentials, *ca;
	long long cap;
	long retries, backoff_ms;
	bool starttls;
};

enum { OPT_NIGHT_DIR = 256, OPT_TO, OPT_FROM, OPT_URL, OPT_NIGHT, OPT_CAP, OPT_RETRIES, OPT_BACKOFF,
       OPT_CRED, OPT_STARTTLS, OPT_CA };

static const struct option long_opts[] = {
	{"night-dir", required_argument, NULL, OPT_NIGHT_DIR}, {"to", required_argument, NULL, OPT_TO},
	{"from", required_argument, NULL, OPT_FROM}, {"url", required_argument, NULL, OPT_URL},
	{"subject-night", required_argument, NULL, OPT_NIGHT}, {"cap", required_argument, NULL, OPT_CAP},
	{"retries", required_argument, NULL, OPT_RETRIES},
	{"backoff-ms", required_argument, NULL, OPT_BACKOFF},
	{"credentials", required_argument, NULL, OPT_CRED},
	{"starttls", no_argument, NULL, OPT_STARTTLS}, {"ca", required_argument, NULL, OPT_CA},
	{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
};

static long long parse_num(const char *s, const char *what, long long max)
{
	char *end = NULL;
	long long v = strtoll(s, &end, 10);

	if (!*s || *end || v < 0 || v > max)
		sa_usage_die("%s must be a whole number up to %lld, '%s'", what, max, s);
	return v;
}

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	int c;

	a->cap = env_or("MAIL_CAP", NULL) ? parse_num(getenv("MAIL_CAP"), "MAIL_CAP", 1LL << 40)
					  : MAIL_DEFAULT_CAP;
	a->retries = env_or("MAIL_RETRIES", NULL) ? (long)parse_num(getenv("MAIL_RETRIES"), "MAIL_RETRIES", 20) : 3;
	a->backoff_ms = env_or("MAIL_BACKOFF_MS", NULL)
				? (long)parse_num(getenv("MAIL_BACKOFF_MS"), "MAIL_BACKOFF_MS", 3600000) : 2000;
	a->credentials = env_or("MAIL_CREDENTIALS", NULL);
	a->starttls = strcmp(env_or("SMTP_STARTTLS", "0"), "1") == 0;
	a->ca = env_or("SMTP_CA", NULL);
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_NIGHT_DIR: a->night_dir = optarg; break;
		case OPT_TO: a->to = optarg; break;
		case OPT_FROM: a->from = optarg; break;
		case OPT_URL: a->url = optarg; break;
		case OPT_NIGHT: a->night = optarg; break;
		case OPT_CAP: a->cap = parse_num(optarg, "--cap", 1LL << 40); break;
		case OPT_RETRIES: a->retries = (long)parse_num(optarg, "--retries", 20); break;
		case OPT_BACKOFF: a->backoff_ms = (long)parse_num(optarg, "--backoff-ms", 3600000); break;
		case OPT_CRED: a->credentials = optarg; break;
		case OPT_STARTTLS: a->starttls = true; break;
		case OPT_CA: a->ca = optarg; break;
		case 'h': fputs(usage_text, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument '%s'", argv[optind]);
	if (!a->night_dir || !a->to || !*a->to || !a->from || !*a->from || !a->url || !*a->url)
		sa_usage_die("give --night-dir, --to, --from and --url (MAIL_TO, MAIL_FROM, SMTP_URL)");
	if (strncmp(a->url, "smtp://", 7) != 0 && strncmp(a->url, "smtps://", 8) != 0)
		sa_usage_die("the SMTP URL must start with smtp:// or smtps://");
	if (strpbrk(a->to, "\r\n") || strpbrk(a->from, "\r\n"))
		sa_usage_die("an address holds a line break");
}

/* Size of a file, or -1 when it cannot be read. */
static long long file_size(const char *path)
{
	FILE *fp = fopen(path, "rb");
	long long n = -1;

	if (fp && fseek(fp, 0, SEEK_END) == 0)
		n = ftell(fp);
	if (fp)
		fclose(fp);
	return n;
}

/* Fills the plan's files from index.json (its rows are already worst news first). */
static int plan_from_index(struct nightly_mail_plan *p, const cJSON *ix, const char *dir)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(ix, "rows"), *r;
	static const char *const index_names[2] = {"index.xlsx", "index.html"};

	for (size_t i = 0; i < 2; i++) {
		sa_fmt(p->index[i].path, sizeof p->index[i].path, "%s/%s", dir, index_names[i]);
		snprintf(p->index[i].name, sizeof p->index[i].name, "%s", index_names[i]);
		p->index[i].size = file_size(p->index[i].path);
	}
	p->bundles = calloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof *p->bundles);
	if (!p->bundles)
		return sa_error("out of memory");
	cJSON_ArrayForEach(r, rows) {
		const char *b = sa_json_str(r, "bundle", NULL), *slash;
		struct nightly_mail_file *f = &p->bundles[p->n];

		/* only a plain "bundles/NAME.zip" from our own index is ever opened */
		if (!b || strncmp(b, "bundles/", 8) != 0 || strstr(b, "..") || strchr(b + 8, '/'))
			continue;
		slash = strrchr(b, '/');
		sa_fmt(f->path, sizeof f->path, "%s/%s", dir, b);
		snprintf(f->name, sizeof f->name, "%s", slash + 1);
		f->size = file_size(f->path);
		if (f->size >= 0)
			p->n++;
	}
	return 0;
}

/* A copy of s with every bare LF as CRLF, so the quoted-printable encoder keeps line breaks
 * as line breaks. Caller frees; NULL when out of memory. */
static char *crlf(const char *s)
{
	size_t n = 0;
	char *out, *o;

	for (const char *p = s; *p; p++)
		n += *p == '\n' ? 2 : 1;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	o = out;
	for (const char *p = s; *p; p++) {
		if (*p == '\n' && (p == s || p[-1] != '\r'))
			*o++ = '\r';
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

/* Whether the plan attaches the bundle the recipient sees as name. */
static bool bundle_attached(const struct nightly_mail_plan *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->bundles[i].attach && strcmp(p->bundles[i].name, name) == 0)
			return true;
	return false;
}

/* The text part: index.txt, what was left out, and each attachment's sha256. */
static char *text_part(const char *index_txt, const struct nightly_mail_plan *p, const cJSON *ix)
{
	size_t len = strlen(index_txt) + 512 + (p->n + 1) * 400;
	char *t = malloc(len);
	const cJSON *r;

	if (!t)
		return NULL;
	snprintf(t, len, "%s", index_txt);
	nightly_mail_plan_left_out_text(p, t, len);
	if (p->attached == 0)
		return t;
	snprintf(t + strlen(t), len - strlen(t), "\nAttached bundles (sha256):\n");
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(ix, "rows")) {
		const char *sha = sa_json_str(r, "bundle_sha256", NULL), *b = sa_json_str(r, "bundle", NULL);
		const char *name = b ? b + (strncmp(b, "bundles/", 8) ? 0 : 8) : NULL;

		if (sha && name && bundle_attached(p, name))
			snprintf(t + strlen(t), len - strlen(t), "  %s  %s\n", sha, name);
	}
	return t;
}

/* The HTML part: index.html with the left-out note before </body>. */
static char *html_part(const char *index_html, const struct nightly_mail_plan *p)
{
	size_t len = strlen(index_html) + 512 + (p->n + 1) * 400;
	char *h = malloc(len), *note = malloc(len);
	const char *body_end = strstr(index_html, "</body>");
	FILE *fp = NULL;
	size_t head = body_end ? (size_t)(body_end - index_html) : strlen(index_html);

	if (!h || !note)
		goto fail;
	note[0] = '\0';
	nightly_mail_plan_left_out_text(p, note, len);
	fp = fmemopen(h, len, "w");
	if (!fp)
		goto fail;
	fwrite(index_html, 1, head, fp);
	if (note[0]) {
		fputs("<pre>", fp);
		sa_html_escape(fp, note);
		fputs("</pre>\n", fp);
	}
	fputs(index_html + head, fp);
	fclose(fp);
	free(note);
	return h;
fail:
	free(h);
	free(note);
	return NULL;
}

/* Reads DIR/name (capped) or prints why not. */
static char *read_night_file(const char *dir, const char *name)
{
	char path[4096], msg[512], *buf = NULL;
	size_t len;
	enum sa_read_status st;

	sa_fmt(path, sizeof path, "%s/%s", dir, name);
	st = sa_read_file(path, SA_JSON_CAP, &buf, &len);
	if (st != SA_READ_OK)
		sa_error("%s (hint: run the night's index step first)", sa_read_strerror(st, path, SA_JSON_CAP, msg, sizeof msg));
	return buf;
}

/* The outcome, kept beside the night's results. */
static int write_result(const char *dir, const struct nightly_mail_plan *p, const struct nightly_mail_result *res,
			const struct args *a)
{
	cJSON *o = sa_json_stage("mail", 1), *att, *left;
	char path[4096], where[256], err[1024];
	int rc;

	cJSON_AddBoolToObject(o, "ok", res->ok);
	if (!res->ok)
		cJSON_AddStringToObject(o, "reason", res->reason);
	cJSON_AddStringToObject(o, "to", a->to);
	cJSON_AddStringToObject(o, "server", nightly_mail_url_public(a->url, where, sizeof where));
	cJSON_AddNumberToObject(o, "attempts", res->attempts);
	cJSON_AddNumberToObject(o, "smtp_code", (double)res->smtp_code);
	cJSON_AddNumberToObject(o, "cap", (double)p->cap);
	cJSON_AddNumberToObject(o, "estimated_size", (double)nightly_mail_plan_size(p));
	att = cJSON_AddArrayToObject(o, "attached");
	left = cJSON_AddArrayToObject(o, "left_out");
	for (size_t i = 0; i < 2; i++)
		if (p->index[i].attach)
			cJSON_AddItemToArray(att, cJSON_CreateString(p->index[i].name));
	for (size_t i = 0; i < p->n; i++)
		cJSON_AddItemToArray(p->bundles[i].attach ? att : left, cJSON_CreateString(p->bundles[i].name));
	rc = sa_json_write(sa_fmt(path, sizeof path, "%s/mail.json", dir), o, err, sizeof err);
	if (rc)
		sa_error("%s", err);
	cJSON_Delete(o);
	return rc;
}

/* Credentials from the file, else the environment; never echoed anywhere. */
static int load_credentials(const struct args *a, struct nightly_mail_config *cfg, char *user, size_t ulen,
			    char *pass, size_t plen)
{
	if (a->credentials) {
		if (nightly_mail_read_credentials(a->credentials, user, ulen, pass, plen) != 0)
			return -1;
		cfg->user = user;
		cfg->password = pass;
	} else if (env_or("SMTP_USER", NULL)) {
		cfg->user = getenv("SMTP_USER");
		cfg->password = env_or("SMTP_PASSWORD", "");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = {0};
	struct nightly_mail_plan plan = {0};
	struct nightly_mail_config cfg = {0};
	struct nightly_mail_result res = {0};
	struct nightly_mail_message msg = {0};
	char err[512], path[4096], subject[768], user[256] = "", pass[512] = "";
	char *txt = NULL, *html = NULL, *text = NULL, *hpart = NULL;
	cJSON *ix = NULL;
	int rc = SA_EXIT_BROKEN;

	sa_set_prog("mail");
	parse_args(argc, argv, &a);
	ix = sa_json_read(sa_fmt(path, sizeof path, "%s/index.json", a.night_dir), SA_JSON_CAP, err, sizeof err);
	if (!ix) {
		sa_error("%s (hint: run the night's index step first)", err);
		goto out;
	}
	txt = read_night_file(a.night_dir, "index.txt");
	html = read_night_file(a.night_dir, "index.html");
	plan.cap = a.cap;
	if (!txt || !html || plan_from_index(&plan, ix, a.night_dir) != 0)
		goto out;
	plan.text_size = (long long)strlen(txt);
	plan.html_size = (long long)strlen(html);
	nightly_mail_plan_decide(&plan);
	text = text_part(txt, &plan, ix);
	hpart = html_part(html, &plan);
	if (text && hpart) {
		char *t = crlf(text), *h = crlf(hpart);

		free(text);
		free(hpart);
		text = t;
		hpart = h;
	}
	if (!text || !hpart) {
		sa_error("out of memory");
		goto out;
	}
	sa_fmt(subject, sizeof subject, "strataudit night%s%s: %s", a.night ? " " : "", a.night ? a.night : "",
	       sa_json_str(ix, "summary", "index"));
	cfg = (struct nightly_mail_config){.url = a.url, .from = a.from, .to = a.to, .ca = a.ca,
				   .starttls = a.starttls, .retries = (int)a.retries, .backoff_ms = a.backoff_ms};
	if (load_credentials(&a, &cfg, user, sizeof user, pass, sizeof pass) != 0)
		goto out;
	msg = (struct nightly_mail_message){.subject = subject, .text = text, .html = hpart, .plan = &plan};
	nightly_mail_send(&cfg, &msg, &res);
	if (write_result(a.night_dir, &plan, &res, &a) != 0)
		goto out;
	if (!res.ok) {
		sa_error("the night's mail was not sent: %s; the results stay in '%s'", res.reason, a.night_dir);
		rc = EXIT_NOT_SENT;
		goto out;
	}
	printf("mail: sent to %s (%zu of %zu bundles attached%s)\n", a.to, plan.attached, plan.n,
	       plan.over_cap ? ", the rest over the cap" : "");
	rc = SA_EXIT_OK;
out:
	memset(pass, 0, sizeof pass);
	nightly_mail_plan_release(&plan);
	cJSON_Delete(ix);
	free(txt);
	free(html);
	free(text);
	free(hpart);
	return rc;
}
