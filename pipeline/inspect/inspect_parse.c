/* inspect_parse.c - fork, rlimits and a capped pipe around the parse, so the parser's worst
 * case costs a child process, never the stage. */
#include "inspect_parse.h"
#include "rlimit.h"
#include "inspect_ast.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdnoreturn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Exit codes of the child besides 0. */
enum {
	CHILD_NO_INTERPRETER = 70,
	CHILD_NO_MEMORY = 71,
	CHILD_WRITE_FAILED = 72,
	CHILD_NO_LIMITS = 73,
};

/* Every limit before the interpreter starts: the parser then runs inside them. */
static void limit_child(const struct inspect_limits *lim)
{
	int null = open("/dev/null", O_RDWR);

	/* Python's own complaints would interleave with the stage's messages; the exit status
	 * says all the parent needs. */
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	const struct sa_rlimit limits[] = {
		{ RLIMIT_CPU, "RLIMIT_CPU", lim->cpu_s, (rlim_t)lim->cpu_s + 1 },
		{ RLIMIT_CORE, "RLIMIT_CORE", 0, 0 },
		{ RLIMIT_FSIZE, "RLIMIT_FSIZE", 0, 0 },
#ifndef UNDER_ASAN
		{ RLIMIT_AS, "RLIMIT_AS", (rlim_t)lim->mem_mb << 20, (rlim_t)lim->mem_mb << 20 },
#endif
	};

	/* A parser without its limits is not run: the parent reads this exit as broken. */
	if (sa_rlimits_set(limits, sizeof limits / sizeof limits[0], NULL) < 0)
		_exit(CHILD_NO_LIMITS);
}

static bool write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		s += w;
		n -= (size_t)w;
	}
	return true;
}

/* The child: parse, walk, write the findings, _exit. _exit, not exit: the interpreter is
 * abandoned with the process, and no atexit handler of the parent runs twice. */
static noreturn void run_child(const char *src, int fd, const struct inspect_limits *lim)
{
	cJSON *found;
	char *text;
	int code = 0;

	limit_child(lim);
	if (inspect_ast_init() != 0)
		_exit(CHILD_NO_INTERPRETER);
	found = inspect_ast_findings(src);
	text = found ? cJSON_PrintUnformatted(found) : NULL;
	if (text == NULL)
		code = CHILD_NO_MEMORY;
	else if (!write_all(fd, text, strlen(text)))
		code = CHILD_WRITE_FAILED;
	_exit(code);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads the child's answer until EOF, the cap or the deadline. Returns 0 at EOF, 1 over the
 * cap, 2 past the deadline, -1 on a read error. buf holds *len bytes, NUL-terminated. */
static int read_answer(int fd, char *buf, size_t cap, size_t *len, long deadline)
{
	int rc = -1;

	*len = 0;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		long left = deadline - now_ms();
		ssize_t r;
		int n;

		if (left <= 0) {
			rc = 2;
			goto out;
		}
		n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto out;
		if (n == 0)
			continue;
		r = read(fd, buf + *len, cap + 1 - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto out;
		if (r == 0) {
			rc = 0;
			goto out;
		}
		*len += (size_t)r;
		if (*len > cap) {
			rc = 1;
			goto out;
		}
	}
out:
	buf[*len < cap ? *len : cap] = '\0';
	return rc;
}

static int reap(pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Words for how the child ended, when it did not end well. */
static enum inspect_parse_status judge_exit(int status, const struct inspect_limits *lim,
					    char *err, size_t errlen)
{
	enum inspect_parse_status st = INSPECT_PARSE_LIMIT;

	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL)) {
		snprintf(err, errlen, "the parser ran out of time (%u s of CPU) on this file", lim->cpu_s);
	} else if (WIFSIGNALED(status)) {
		snprintf(err, errlen, "the parser crashed on this file (signal %d), most likely out of memory under the %zu MB limit",
			 WTERMSIG(status), lim->mem_mb);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_NO_MEMORY) {
		snprintf(err, errlen, "the parser ran out of memory (%zu MB) on this file", lim->mem_mb);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_NO_LIMITS) {
		snprintf(err, errlen, "cannot limit the parser, so it was not run");
		st = INSPECT_PARSE_BROKEN;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_NO_INTERPRETER) {
		snprintf(err, errlen, "the embedded Python interpreter would not start");
		st = INSPECT_PARSE_BROKEN;
	} else {
		snprintf(err, errlen, "the parser exited with status %d and no answer",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	return st;
}

/* Accepts only an object with a boolean "parsed" and an array "flags": the child is ours but
 * it has just chewed on hostile input. */
static cJSON *parse_answer(const char *buf, size_t len)
{
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(buf, len, &end, 0);

	if (j == NULL)
		goto out;
	if (!cJSON_IsObject(j) || !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(j, "parsed")) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "flags")) || end != buf + len) {
		cJSON_Delete(j);
		j = NULL;
	}
out:
	return j;
}

enum inspect_parse_status inspect_parse(const char *src, const struct inspect_limits *lim,
					cJSON **out, char *err, size_t errlen)
{
	enum inspect_parse_status st = INSPECT_PARSE_BROKEN;
	int fds[2] = {-1, -1};
	char *buf = NULL;
	size_t len = 0;
	pid_t pid = -1;
	int rd, status;

	*out = NULL;
	buf = malloc(INSPECT_ANSWER_CAP + 1);
	if (buf == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot fork the parser: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(src, fds[1], lim);
	}
	close(fds[1]);
	fds[1] = -1;
	rd = read_answer(fds[0], buf, INSPECT_ANSWER_CAP, &len, now_ms() + (long)lim->wall_s * 1000);
	if (rd != 0)
		kill(pid, SIGKILL);
	status = reap(pid);
	if (rd == 1) {
		st = INSPECT_PARSE_LIMIT;
		snprintf(err, errlen, "the parser's answer was larger than %zu bytes", INSPECT_ANSWER_CAP);
	} else if (rd == 2) {
		st = INSPECT_PARSE_LIMIT;
		snprintf(err, errlen, "the parser took longer than %u s on this file", lim->wall_s);
	} else if (rd < 0) {
		snprintf(err, errlen, "cannot read the parser's answer: %s", strerror(errno));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		st = judge_exit(status, lim, err, errlen);
	} else if ((*out = parse_answer(buf, len)) == NULL) {
		st = INSPECT_PARSE_LIMIT;
		snprintf(err, errlen, "the parser's answer was not valid");
	} else {
		st = INSPECT_PARSE_OK;
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	free(buf);
	return st;
}
