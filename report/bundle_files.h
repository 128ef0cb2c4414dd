/* bundle_files.h - the sorted list of files a bundle holds, their sha256 sums and the zip. */
#ifndef BD_FILES_H
#define BD_FILES_H

#include <stddef.h>

/* Sorted file names (byte order), each a plain name inside the bundle directory. */
struct rpt_list {
	size_t n;
	char **names;
};

/* Lists the regular files of dir that belong in the bundle: everything except dot-files (such
 * as the .dir stamp), *.tmp leftovers, sha256sums.txt and the zip named zipname. Returns 0 and
 * fills *list (release with rpt_list_release), or -1 with err set: dir unreadable, or a name
 * sha256sum could not print plainly (a newline or backslash in it). */
int rpt_list_dir(const char *dir, const char *zipname, struct rpt_list *list, char *err, size_t errlen);
void rpt_list_release(struct rpt_list *list);

/* Writes dir/sha256sums.txt atomically: one "HEX  NAME" line per listed file, in list order,
 * the format `sha256sum -c --strict` checks. Returns 0, or -1 with err set. */
int rpt_write_sums(const char *dir, const struct rpt_list *list, char *err, size_t errlen);

/* The fixed MS-DOS date and time every zip entry carries (2000-01-01 00:00), so the archive
 * does not depend on when or in which time zone it was made. */
#define BD_DOS_DATE ((unsigned)(((2000 - 1980) << 9) | (1 << 5) | 1))
#define BD_DOS_TIME 0u

/* Writes zippath holding prefix/NAME for every listed file and prefix/sha256sums.txt, in sorted
 * order, deflated, with fixed timestamps and permissions (libzip writes to a temporary file and
 * renames, so a reader never sees half a zip). Returns 0, or -1 with err set. */
int rpt_write_zip(const char *dir, const char *zippath, const char *prefix, const struct rpt_list *list,
		 char *err, size_t errlen);

#endif
