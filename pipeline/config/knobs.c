/* knobs.c - prints the knob table (lib/config.h) for make: `knobs make` writes the
 * Makefile's defaults and knob lists (build/knobs.mk), `knobs help` the lines of `make help`.
 * Built with libc alone, before any package is installed. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

static const char usage[] =
	"usage: knobs make | knobs help\n"
	"\n"
	"make: the default of every knob as 'NAME ?= value', and the lists CONFIG_KNOBS (what\n"
	"config.json holds), KNOB_GROUPS and KNOBS_<group> (what each stamp file covers).\n"
	"help: one line a knob, with its range and default.\n"
	"\n"
	"exit: 0 printed; 2 bad command line\n";

/* The default as make should see it: "cores" is resolved here, once per build tree. */
static void print_default(const struct sa_knob *r)
{
	if (!strcmp(r->def, "cores")) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		printf("%ld", n > 0 ? n : 1);
		return;
	}
	fputs(r->def, stdout);
}

/* The group of a path ("costs" of "costs.fee_bps"; the key itself at the top level). */
static int group_len(const char *path)
{
	const char *dot = strchr(path, '.');

	return dot ? (int)(dot - path) : (int)strlen(path);
}

static int seen_group(size_t upto, const char *path)
{
	for (size_t j = 0; j < upto; j++)
		if (sa_knobs[j].path && group_len(sa_knobs[j].path) == group_len(path) &&
		    !strncmp(sa_knobs[j].path, path, (size_t)group_len(path)))
			return 1;
	return 0;
}

static void print_make(void)
{
	puts("# build/knobs.mk - made by build/knobs from lib/config.h; do not edit.");
	for (size_t i = 0; i < SA_K_COUNT; i++) {
		printf("%s ?= ", sa_knobs[i].make);
		print_default(&sa_knobs[i]);
		putchar('\n');
	}
	fputs("CONFIG_KNOBS :=", stdout);
	for (size_t i = 0; i < SA_K_COUNT; i++)
		if (sa_knobs[i].path)
			printf(" %s", sa_knobs[i].make);
	fputs("\nKNOB_GROUPS :=", stdout);
	for (size_t i = 0; i < SA_K_COUNT; i++)
		if (sa_knobs[i].path && !seen_group(i, sa_knobs[i].path))
			printf(" %.*s", group_len(sa_knobs[i].path), sa_knobs[i].path);
	putchar('\n');
	for (size_t i = 0; i < SA_K_COUNT; i++) {
		const char *p = sa_knobs[i].path;

		if (!p || seen_group(i, p))
			continue;
		printf("KNOBS_%.*s :=", group_len(p), p);
		for (size_t j = i; j < SA_K_COUNT; j++)
			if (sa_knobs[j].path && group_len(sa_knobs[j].path) == group_len(p) &&
			    !strncmp(sa_knobs[j].path, p, (size_t)group_len(p)))
				printf(" %s", sa_knobs[j].make);
		putchar('\n');
	}
}

static void print_help(void)
{
	for (size_t i = 0; i < SA_K_COUNT; i++) {
		const struct sa_knob *r = &sa_knobs[i];

		printf("  %-16s %s", r->make, r->help);
		if (r->type == SA_KNOB_INT || r->type == SA_KNOB_NUM)
			printf(" [%.15g..%.15g]", r->lo, r->hi);
		if (*r->def)
			printf(" (%s)", r->def);
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "make"))
		print_make();
	else if (argc == 2 && !strcmp(argv[1], "help"))
		print_help();
	else if (argc == 2 && !strcmp(argv[1], "--help"))
		fputs(usage, stdout);
	else {
		fputs(usage, stderr);
		return 2;
	}
	return fflush(stdout) ? 3 : 0;
}
