/* bundle_files.c - lists a bundle directory, writes its sha256sums.txt and its zip (libzip). */
#include "bundle_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#include "fileio.h"
#include "msg.h"
#include "stagefile.h"

#define SUMS "sha256sums.txt"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether name belongs in the bundle; symlinks and directories never do, nor narration.json: a
 * language model's words lie beside the bundle, never among what is hashed. */
static bool wanted(const char *dir, const char *name, const char *zipname)
{
	char path[4096];
	struct stat st;
	if (name[0] == '.' || ends_with(name, ".tmp") || strcmp(name, SUMS) == 0 ||
	    strcmp(name, zipname) == 0 || strcmp(name, sa_sfiles[SA_SF_NARRATION].name) == 0)
		return false;
	sa_fmt(path, sizeof path, "%s/%s", dir, name);
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int push(struct rpt_list *list, size_t *cap, const char *name)
{
	if (list->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		char **p = realloc(list->names, ncap * sizeof *p);
		if (!p)
			return -1;
		list->names = p;
		*cap = ncap;
	}
	if (!(list->names[list->n] = strdup(name)))
		return -1;
	list->n++;
	return 0;
}

int rpt_list_dir(const char *dir, const char *zipname, struct rpt_list *list, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	int rc = -1;
	memset(list, 0, sizeof *list);
	if (!d) {
		sa_fmt(err, errlen, "cannot read '%s': %s", dir, strerror(errno));
		goto out;
	}
	while ((e = readdir(d))) {
		if (!wanted(dir, e->d_name, zipname))
			continue;
		if (strpbrk(e->d_name, "\n\\")) {
			sa_fmt(err, errlen, "a file name holds a newline or backslash, in '%s'", dir);
			goto out;
		}
		if (push(list, &cap, e->d_name)) {
			sa_fmt(err, errlen, "out of memory");
			goto out;
		}
	}
	qsort(list->names, list->n, sizeof *list->names, cmp_names);
	rc = 0;
out:
	if (d)
		closedir(d);
	if (rc)
		rpt_list_release(list);
	return rc;
}

void rpt_list_release(struct rpt_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->names[i]);
	free(list->names);
	memset(list, 0, sizeof *list);
}

int rpt_write_sums(const char *dir, const struct rpt_list *list, char *err, size_t errlen)
{
	char path[4096], hex[65];
	struct sa_atomic a = { 0 };
	int rc = -1;
	if (sa_atomic_open(&a, sa_fmt(path, sizeof path, "%s/%s", dir, SUMS), err, errlen))
		goto out;
	for (size_t i = 0; i < list->n; i++) {
		if (sa_sha256_file(sa_fmt(path, sizeof path, "%s/%s", dir, list->names[i]), hex, err,
				   errlen)) {
			sa_atomic_abort(&a);
			goto out;
		}
		fprintf(a.fp, "%s  %s\n", hex, list->names[i]);
	}
	if (sa_atomic_commit(&a, err, errlen))
		goto out;
	rc = 0;
out:
	return rc;
}

/* Adds dir/name as prefix/name with the fixed time and mode. */
static int add_entry(zip_t *z, const char *dir, const char *prefix, const char *name, char *err, size_t errlen)
{
	char path[4096], entry[4096];
	zip_source_t *src = zip_source_file(z, sa_fmt(path, sizeof path, "%s/%s", dir, name), 0, -1);
	zip_int64_t idx = -1;
	if (src)
		idx = zip_file_add(z, sa_fmt(entry, sizeof entry, "%s/%s", prefix, name), src, ZIP_FL_ENC_UTF_8);
	if (idx < 0) {
		zip_source_free(src);
		sa_fmt(err, errlen, "cannot add '%s' to the zip: %s", path, zip_strerror(z));
		return -1;
	}
	/* regular file, rw-r--r--, as made on Unix: no trace of the local umask or clock; deflate's
	 * default level: at 100 000 bars level 9 took 3.6 s for a 1 % smaller zip (tests/bench/NOTES.md) */
	if (zip_file_set_dostime(z, (zip_uint64_t)idx, BD_DOS_TIME, BD_DOS_DATE, 0) ||
	    zip_file_set_external_attributes(z, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX, (zip_uint32_t)0100644 << 16) ||
	    zip_set_file_compression(z, (zip_uint64_t)idx, ZIP_CM_DEFLATE, 6)) {
		sa_fmt(err, errlen, "cannot set the attributes of '%s': %s", entry, zip_strerror(z));
		return -1;
	}
	return 0;
}

int rpt_write_zip(const char *dir, const char *zippath, const char *prefix, const struct rpt_list *list,
		 char *err, size_t errlen)
{
	int zerr = 0, rc = -1;
	bool sums_done = false;
	zip_t *z = zip_open(zippath, ZIP_CREATE | ZIP_TRUNCATE, &zerr);
	if (!z) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, zerr);
		sa_fmt(err, errlen, "cannot create '%s': %s", zippath, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		goto out;
	}
	for (size_t i = 0; i <= list->n; i++) {
		/* sha256sums.txt takes its sorted place among the other names */
		if (!sums_done && (i == list->n || strcmp(SUMS, list->names[i]) < 0)) {
			if (add_entry(z, dir, prefix, SUMS, err, errlen))
				goto out;
			sums_done = true;
		}
		if (i < list->n && add_entry(z, dir, prefix, list->names[i], err, errlen))
			goto out;
	}
	if (zip_close(z)) {
		sa_fmt(err, errlen, "cannot write '%s': %s", zippath, zip_strerror(z));
		goto out;
	}
	z = NULL;
	rc = 0;
out:
	if (z)
		zip_discard(z);
	return rc;
}
