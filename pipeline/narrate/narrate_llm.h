/* narrate_llm.h - narration of a verdict summary by an OpenAI-compatible chat endpoint. */
#ifndef SA_NARRATE_LLM_H
#define SA_NARRATE_LLM_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Where to ask; all borrowed. url is a chat-completions endpoint, or a base ending in /v1 to
 * which "/chat/completions" is added. */
struct nr_llm {
	const char *url, *key, *model;
	long timeout_s;
};

/* Fills *llm from config.json (borrowed): narration.url and narration.model (NARRATE_URL,
 * NARRATE_MODEL), so the endpoint is fingerprinted like every knob; the key, a secret kept out
 * of the bundle, from the environment (LLM_API_KEY). Returns 0 when both URL and key are set
 * and non-empty, -1 otherwise (narration is off). */
int nr_llm_from_config(const cJSON *config, struct nr_llm *llm);

/* Builds the request body from the compact numbers of a verdict (facts: the decision, the
 * gates and the summary from the numbers; never the upload). Caller frees the string. Returns
 * NULL on out-of-memory. */
char *nr_llm_request(const cJSON *facts, const char *model);

/* Takes the narrated text out of a chat-completions response, if it is acceptable: valid UTF-8,
 * 40 to 1500 bytes, no markup, and naming the verdict word exactly as decided. Returns 0 and
 * copies it into out, or -1 (out untouched). */
int nr_llm_accept(const char *response, size_t len, const char *verdict, char *out, size_t outlen);

/* Asks the endpoint to reword the summary in facts; the answer must name the verdict word as
 * decided. Returns 0 with the text in out, or -1 on any failure (network, HTTP status,
 * timeout, an unacceptable answer); then out is untouched. */
int nr_llm_narrate(const struct nr_llm *llm, const cJSON *facts, const char *verdict, char *out,
		   size_t outlen);

#endif
