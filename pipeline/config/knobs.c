/* knobs.c - prints the knob table (lib/base/config.h) for make: `knobs make` writes the
 * Makefile's defaults and knob lists (build/knobs.mk), `knobs help` the lines of `make help`.
 * Built with libc alone, before any package is installed. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

static const char usage[] =
	"usage: knobs make | knobs help\n"
	"\n"
	"make: the default of every knob as 'NAME ?= value', the list CONFIG_KNOBS (what\n"
	"config.json holds) and KNOBS_READ_<stage> (the knobs each stage reads, from the table's\n"
	"\"read by\" column: the stamps its rule depends on).\n"
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

/* The stages a knob can be read by, in pipeline order: each one's KNOBS_READ_<stage> list of
 * build/knobs.mk, from which the Makefile makes its stamps. A stage missing here has no stamps:
 * a knob it reads would not re-run it (17-knob-readers traces every stage, sealed included). */
static const char *const stages[] = {
	"fingerprint", "inspect", "ledger", "sandbox", "lookahead", "robust", "robust_score", "sealed",
	"sealed_score", "variants", "variants_score", "replay", "stats", "verdict", "narrate", "report",
};

/* Whether the space-separated list holds word. */
static int holds(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

static void print_make(void)
{
	puts("# build/knobs.mk - made by build/knobs from lib/base/config.h; do not edit.");
	for (size_t i = 0; i < SA_K_COUNT; i++) {
		printf("%s ?= ", sa_knobs[i].make);
		print_default(&sa_knobs[i]);
		putchar('\n');
	}
	fputs("CONFIG_KNOBS :=", stdout);
	for (size_t i = 0; i < SA_K_COUNT; i++)
		if (sa_knobs[i].path)
			printf(" %s", sa_knobs[i].make);
	putchar('\n');
	/* each stage's knobs, from the table's "read by" column: its rule depends on their stamps */
	for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++) {
		printf("KNOBS_READ_%s :=", stages[s]);
		for (size_t i = 0; i < SA_K_COUNT; i++)
			if (sa_knobs[i].path && holds(sa_knobs[i].readers, stages[s]))
				printf(" %s", sa_knobs[i].make);
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
