/* rlimit.c - a table of resource limits applied in order, all or stop. */
#include "rlimit.h"

int sa_rlimits_set(const struct sa_rlimit *t, size_t n, const struct sa_rlimit **failed)
{
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		struct rlimit rl = { t[i].soft, t[i].hard };
		if (setrlimit(t[i].resource, &rl) < 0) {
			if (failed)
				*failed = &t[i];
			rc = -1;
		}
	}
	return rc;
}
