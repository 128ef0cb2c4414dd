/* mail_send.c - building the MIME message with curl_mime and delivering it over SMTP. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fileio.h"
#include "mail_send.h"
#include "msg.h"

char *nightly_mail_url_public(const char *url, char *buf, size_t len)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL;

	snprintf(buf, len, "the SMTP server");
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
		goto out;
	curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	curl_url_get(u, CURLUPART_HOST, &host, 0);
	curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
	if (scheme && host)
		snprintf(buf, len, "%s://%s%s%s", scheme, host, port ? ":" : "", port ? port : "");
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return buf;
}

int nightly_mail_read_credentials(const char *path, char *user, size_t ulen, char *password, size_t plen)
{
	char *buf = NULL, *colon, *eol;
	size_t len;
	int rc = -1;
	enum sa_read_status st = sa_read_file(path, 4096, &buf, &len);

	if (st != SA_READ_OK) {
		char msg[512];

		sa_error("%s", sa_read_strerror(st, path, 4096, msg, sizeof msg));
		goto out;
	}
	eol = strpbrk(buf, "\r\n");
	if (eol)
		*eol = '\0';
	colon = strchr(buf, ':');
	if (!colon || colon == buf || strlen(buf) >= ulen + plen) {
		sa_error("the credentials file holds no 'user:password' line, '%s'", path);
		goto out;
	}
	*colon = '\0';
	snprintf(user, ulen, "%s", buf);
	snprintf(password, plen, "%s", colon + 1);
	rc = 0;
out:
	if (buf)
		memset(buf, 0, len);
	free(buf);
	return rc;
}

/* Adds a text body part (quoted-printable, so long HTML lines survive SMTP's line limit). */
static int add_body(curl_mime *alt, const char *data, const char *type)
{
	curl_mimepart *part = curl_mime_addpart(alt);

	return !part || curl_mime_data(part, data, CURL_ZERO_TERMINATED) != CURLE_OK ||
	       curl_mime_type(part, type) != CURLE_OK ||
	       curl_mime_encoder(part, "quoted-printable") != CURLE_OK ? -1 : 0;
}

/* Adds one file, base64-encoded by curl, as an attachment named name. */
static int add_file(curl_mime *mime, const struct nightly_mail_file *f, const char *type)
{
	curl_mimepart *part = curl_mime_addpart(mime);

	return !part || curl_mime_filedata(part, f->path) != CURLE_OK ||
	       curl_mime_filename(part, f->name) != CURLE_OK || curl_mime_type(part, type) != CURLE_OK ||
	       curl_mime_encoder(part, "base64") != CURLE_OK ? -1 : 0;
}

static const char *type_of(const char *name)
{
	size_t n = strlen(name);

	if (n > 5 && strcmp(name + n - 5, ".xlsx") == 0)
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
	if (n > 5 && strcmp(name + n - 5, ".html") == 0)
		return "text/html";
	return "application/zip";
}

/* The whole message: multipart/mixed of (text | html alternative) and the attachments. */
static curl_mime *build_mime(CURL *curl, const struct nightly_mail_message *msg)
{
	curl_mime *mime = curl_mime_init(curl), *alt = curl_mime_init(curl);
	curl_mimepart *part;
	const struct nightly_mail_plan *p = msg->plan;

	if (!mime || !alt || add_body(alt, msg->text, "text/plain; charset=utf-8") ||
	    add_body(alt, msg->html, "text/html; charset=utf-8"))
		goto fail;
	part = curl_mime_addpart(mime);
	if (!part || curl_mime_subparts(part, alt) != CURLE_OK)
		goto fail;
	alt = NULL; /* now owned by mime */
	if (curl_mime_type(part, "multipart/alternative") != CURLE_OK)
		goto fail;
	for (size_t i = 0; i < 2; i++)
		if (p->index[i].attach && add_file(mime, &p->index[i], type_of(p->index[i].name)))
			goto fail;
	for (size_t i = 0; i < p->n; i++)
		if (p->bundles[i].attach && add_file(mime, &p->bundles[i], "application/zip"))
			goto fail;
	return mime;
fail:
	curl_mime_free(alt);
	curl_mime_free(mime);
	return NULL;
}

/* Adds "Name: value" to the header list; returns 0 or -1. */
static int add_header(struct curl_slist **h, const char *name, const char *value)
{
	char line[1024];
	struct curl_slist *n;

	snprintf(line, sizeof line, "%s: %s", name, value);
	/* a header value never carries a line break: it would start a header of its own */
	line[strcspn(line, "\r\n")] = '\0';
	n = curl_slist_append(*h, line);
	if (!n)
		return -1;
	*h = n;
	return 0;
}

/* The recipients as a curl list, split on commas and trimmed. */
static struct curl_slist *recipients(const char *to)
{
	struct curl_slist *list = NULL, *n;
	char *copy = strdup(to), *save = NULL, *tok;

	if (!copy)
		return NULL;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		tok[strcspn(tok, " \t")] = '\0';
		if (!*tok)
			continue;
		n = curl_slist_append(list, tok);
		if (!n) {
			curl_slist_free_all(list);
			list = NULL;
			break;
		}
		list = n;
	}
	free(copy);
	return list;
}

/* The Date header is the one place the clock belongs: it is part of sending, not of a file. */
static void date_header(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%a, %d %b %Y %H:%M:%S +0000", &tm);
}

/* One attempt. Returns the curl result; *code gets the server's last reply code. */
static CURLcode attempt(const struct nightly_mail_config *cfg, const struct nightly_mail_message *msg, long *code,
			char *errbuf)
{
	CURL *curl = curl_easy_init();
	curl_mime *mime = NULL;
	struct curl_slist *hdr = NULL, *rcpt = NULL;
	char date[64];
	CURLcode res = CURLE_OUT_OF_MEMORY;

	*code = 0;
	errbuf[0] = '\0';
	if (!curl)
		goto out;
	rcpt = recipients(cfg->to);
	mime = build_mime(curl, msg);
	date_header(date, sizeof date);
	if (!rcpt || !mime || add_header(&hdr, "Subject", msg->subject) || add_header(&hdr, "From", cfg->from) ||
	    add_header(&hdr, "To", cfg->to) || add_header(&hdr, "Date", date))
		goto out;
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_URL, cfg->url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, cfg->from);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(curl, CURLOPT_MIMEPOST, mime);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 600L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (cfg->starttls)
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (cfg->ca)
		curl_easy_setopt(curl, CURLOPT_CAINFO, cfg->ca);
	if (cfg->user) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, cfg->user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, cfg->password ? cfg->password : "");
	}
	res = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
out:
	curl_slist_free_all(hdr);
	curl_slist_free_all(rcpt);
	curl_mime_free(mime);
	curl_easy_cleanup(curl);
	return res;
}

/* Sleeps ms milliseconds. */
static void pause_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

int nightly_mail_send(const struct nightly_mail_config *cfg, const struct nightly_mail_message *msg, struct nightly_mail_result *res)
{
	char errbuf[CURL_ERROR_SIZE], where[256];
	long wait = cfg->backoff_ms;
	CURLcode c = CURLE_OK;

	memset(res, 0, sizeof *res);
	for (int i = 0; i <= cfg->retries; i++) {
		if (i > 0) {
			pause_ms(wait);
			wait *= 2;
		}
		res->attempts = i + 1;
		c = attempt(cfg, msg, &res->smtp_code, errbuf);
		if (c == CURLE_OK) {
			res->ok = true;
			return 0;
		}
		if (res->smtp_code >= 500 && res->smtp_code < 600)
			break; /* a permanent refusal: asking again gets the same answer */
	}
	nightly_mail_url_public(cfg->url, where, sizeof where);
	if (res->smtp_code >= 500 && res->smtp_code < 600)
		sa_fmt(res->reason, sizeof res->reason, "%s refused the message with %ld (%s)", where,
		       res->smtp_code, errbuf[0] ? errbuf : curl_easy_strerror(c));
	else
		sa_fmt(res->reason, sizeof res->reason, "could not deliver to %s after %d attempts: %s", where,
		       res->attempts, errbuf[0] ? errbuf : curl_easy_strerror(c));
	return -1;
}
