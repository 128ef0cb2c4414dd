/* narrate_llm.c - narration of a verdict summary by an OpenAI-compatible chat endpoint. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "config.h"
#include "jsonio.h"
#include "text.h"
#include "narrate_llm.h"

#define LLM_REPLY_CAP ((size_t)64 * 1024)
#define LLM_TIMEOUT_S 30

static const char prompt[] =
	"You explain a trading-strategy audit to a person with no statistics. Rewrite the summary "
	"below in three to six plain sentences. Keep the verdict word exactly as given, keep every "
	"number you use exactly as given, invent nothing, give no investment advice, and end with "
	"the caveat that a passing audit is a reason to forward-test small, never a promise of "
	"profit. Plain text only.";

int nr_llm_from_config(const cJSON *config, struct nr_llm *llm)
{
	char err[256];

	llm->timeout_s = LLM_TIMEOUT_S;
	llm->key = getenv("LLM_API_KEY");
	if (sa_config_str(config, SA_K_NARRATE_URL, &llm->url, err, sizeof err) < 0 ||
	    sa_config_str(config, SA_K_NARRATE_MODEL, &llm->model, err, sizeof err) < 0)
		return -1;
	return *llm->url && llm->key && *llm->key ? 0 : -1;
}

char *nr_llm_request(const cJSON *facts, const char *model)
{
	cJSON *body = cJSON_CreateObject(), *msgs, *m;
	char *facts_text = cJSON_PrintUnformatted(facts), *out = NULL;

	if (!body || !facts_text)
		goto out;
	cJSON_AddStringToObject(body, "model", model);
	cJSON_AddNumberToObject(body, "temperature", 0);
	msgs = cJSON_AddArrayToObject(body, "messages");
	m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "system");
	cJSON_AddStringToObject(m, "content", prompt);
	cJSON_AddItemToArray(msgs, m);
	m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", "user");
	cJSON_AddStringToObject(m, "content", facts_text);
	cJSON_AddItemToArray(msgs, m);
	out = cJSON_PrintUnformatted(body);
out:
	free(facts_text);
	cJSON_Delete(body);
	return out;
}

int nr_llm_accept(const char *response, size_t len, const char *verdict, char *out, size_t outlen)
{
	cJSON *r = cJSON_ParseWithLength(response, len);
	const cJSON *choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "choices"), 0);
	const char *text = sa_json_str(cJSON_GetObjectItemCaseSensitive(choice, "message"), "content", NULL);
	size_t n;
	int rc = -1;

	if (!text)
		goto out;
	n = strlen(text);
	/* The narrator may reword, never redecide: the verdict word must survive, and nothing that
	 * a report could mistake for markup may come back. */
	if (n < 40 || n > 1500 || n >= outlen || !sa_utf8_valid(text, n, NULL) ||
	    strpbrk(text, "<>`") || !strstr(text, verdict))
		goto out;
	memcpy(out, text, n + 1);
	rc = 0;
out:
	cJSON_Delete(r);
	return rc;
}

struct reply {
	char *buf;
	size_t len;
	bool toobig;
};

static size_t on_data(char *data, size_t size, size_t nmemb, void *userdata)
{
	struct reply *r = userdata;
	size_t n = size * nmemb;
	char *grown;

	if (r->len + n > LLM_REPLY_CAP) {
		r->toobig = true;
		return 0;
	}
	grown = realloc(r->buf, r->len + n + 1);
	if (!grown)
		return 0;
	r->buf = grown;
	memcpy(r->buf + r->len, data, n);
	r->len += n;
	r->buf[r->len] = '\0';
	return n;
}

static char *endpoint(const char *url)
{
	size_t n = strlen(url);
	const char *tail = "/chat/completions";
	char *full = malloc(n + strlen(tail) + 1);

	if (!full)
		return NULL;
	strcpy(full, url);
	while (n > 0 && full[n - 1] == '/')
		full[--n] = '\0';
	if (n < strlen(tail) || strcmp(full + n - strlen(tail), tail) != 0)
		strcat(full, tail);
	return full;
}

int nr_llm_narrate(const struct nr_llm *llm, const cJSON *facts, const char *verdict, char *out,
		   size_t outlen)
{
	CURL *curl = NULL;
	struct curl_slist *hdr = NULL;
	struct reply reply = { NULL, 0, false };
	char *body = nr_llm_request(facts, llm->model), *url = endpoint(llm->url), *auth = NULL;
	long status = 0;
	int rc = -1;

	auth = malloc(strlen(llm->key) + 32);
	curl = curl_easy_init();
	if (!body || !url || !auth || !curl)
		goto out;
	sprintf(auth, "Authorization: Bearer %s", llm->key);
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	hdr = curl_slist_append(hdr, auth);
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, llm->timeout_s);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	if (curl_easy_perform(curl) != CURLE_OK)
		goto out;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200 || !reply.buf)
		goto out;
	rc = nr_llm_accept(reply.buf, reply.len, verdict, out, outlen);
out:
	curl_slist_free_all(hdr);
	curl_easy_cleanup(curl);
	free(reply.buf);
	free(auth);
	free(url);
	free(body);
	return rc;
}
