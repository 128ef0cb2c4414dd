/* bundle.c - seals an audit directory: sha256sums.txt over its files, and NAME.zip of it all. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle_files.h"
#include "msg.h"

static const char usage[] =
	"usage: bundle --dir out/NAME --name NAME\n"
	"\n"
	"Writes DIR/sha256sums.txt over every file in DIR (not dot-files, *.tmp, the sums\n"
	"themselves or the zip), in the format 'sha256sum -c --strict' checks, then DIR/NAME.zip\n"
	"holding NAME/<file> for all of them plus the sums, sorted, with fixed timestamps, so the\n"
	"same files always give the same zip.\n"
	"\n"
	"exit codes: 0 bundle written, 2 bad command line, 3 the bundle could not be written\n";

static void parse_args(int argc, char **argv, const char **dir, const char **name)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': *dir = optarg; break;
		case 'n': *name = optarg; break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (!*dir || !*name)
		sa_usage_die("--dir and --name are required");
	if (!(*name)[0] || (*name)[0] == '.' || strpbrk(*name, "/\\\n"))
		sa_usage_die("the name must be a plain file name, '%s'", *name);
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *name = NULL;
	char zipname[1024], zippath[4096], err[1024];
	struct rpt_list list;
	sa_set_prog("bundle");
	parse_args(argc, argv, &dir, &name);
	sa_fmt(zipname, sizeof zipname, "%s.zip", name);
	sa_fmt(zippath, sizeof zippath, "%s/%s", dir, zipname);
	if (rpt_list_dir(dir, zipname, &list, err, sizeof err) || rpt_write_sums(dir, &list, err, sizeof err) ||
	    rpt_write_zip(dir, zippath, name, &list, err, sizeof err))
		sa_die("%s", err);
	rpt_list_release(&list);
	return SA_EXIT_OK;
}
