/* mail_send.h - one message through libcurl's SMTP: a text and an HTML summary, files attached
 * base64-encoded by curl_mime, sent with retries and backoff. */
#ifndef MAIL_SEND_H
#define MAIL_SEND_H

#include <stdbool.h>
#include <stddef.h>

#include "mail_plan.h"

struct nightly_mail_config {
	const char *url;        /* smtp://host[:port] or smtps://host[:port] */
	const char *from;
	const char *to;         /* one or more addresses, comma-separated */
	const char *user, *password;  /* NULL: no login; never printed */
	const char *ca;         /* a CA bundle for TLS, or NULL for the system's */
	bool starttls;          /* require STARTTLS on smtp:// */
	int retries;            /* attempts after the first */
	long backoff_ms;        /* wait before the first retry; doubles each time */
};

struct nightly_mail_message {
	const char *subject;
	const char *text, *html;  /* NUL-terminated bodies */
	const struct nightly_mail_plan *plan;  /* the attachments: index files and bundles marked attach */
};

struct nightly_mail_result {
	bool ok;
	int attempts;
	long smtp_code;      /* the server's last reply code, 0 when none */
	char reason[512];    /* when not ok: what failed, without credentials */
};

/* Sends msg as configured. Returns 0 when the server accepted it, -1 otherwise; res says how
 * it went either way. A 5xx reply is permanent and not retried; anything else is retried. */
int nightly_mail_send(const struct nightly_mail_config *cfg, const struct nightly_mail_message *msg, struct nightly_mail_result *res);

/* The URL's scheme, host and port only ("smtp://host:25"), so a message never shows a
 * password written into the URL. Writes into buf (always terminated). Returns buf. */
char *nightly_mail_url_public(const char *url, char *buf, size_t len);

/* Reads credentials "user:password" from the first line of path into user and password.
 * Returns 0, or -1 with a message naming the file (never its contents). */
int nightly_mail_read_credentials(const char *path, char *user, size_t ulen, char *password, size_t plen);

#endif
