/* msg.c - the one message style, and die() for main only. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"

static const char *prog = "strataudit";

void sa_set_prog(const char *name)
{
	const char *slash;

	if (!name)
		return;
	for (slash = name; *name; name++)
		if (*name == '/')
			slash = name + 1;
	prog = slash;
}

const char *sa_prog(void)
{
	return prog;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", prog, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int sa_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	return -1;
}

void sa_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

noreturn void sa_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(SA_EXIT_BROKEN);
}

noreturn void sa_usage_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: (hint: '%s --help' shows the usage)\n", prog, prog);
	exit(SA_EXIT_USAGE);
}

char *sa_fmt(char *buf, unsigned long len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return buf;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}
