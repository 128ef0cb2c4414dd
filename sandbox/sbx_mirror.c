/* sbx_mirror.c - the read roots copied once into a tmpfs directory named by their content,
 * verified and kept: a page of it is never cold (no disk behind it), so no run can tell
 * whether another run read it, and no run can evict it for another (nothing to evict to). */
#include "sbx_mirror_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "msg.h"

/* Every copy's access time: 2100-01-01. With the host's relatime mount (the flag a mount
 * namespace cannot change on a bind), a read updates a file's access time only when it is
 * not later than its modification or change time or is a day old: never, from a date ahead.
 * So a read leaves no mark another run could stat. */
#define MIRROR_ATIME 4102444800LL
#define MIRROR_MARK ".complete"
#define KEY_HEX 16

struct walk {
	EVP_MD_CTX *md;    /* hashing: every entry fed in; NULL when copying */
	const char *dst;   /* copying: the directory the real paths go beneath */
	char *err;
	size_t errlen;
};

static int walk_fail(struct walk *w, const char *step, const char *path)
{
	sa_fmt(w->err, w->errlen, "read-roots mirror: %s '%s', '%s'", step, path, strerror(errno));
	return -1;
}

/* A directory (or a root that is a file) into the hash: its path, mode, size and both times.
 * A package manager replaces a file by renaming a new one into place, which changes its
 * directory's times; the files themselves are not stat'ed (a walk of every file's times cost
 * 0.6-1.2 s a zygote over the 60 000 entries here; the directories alone cost the figure in
 * sandbox/README). */
static void feed(struct walk *w, const char *path, const struct stat *st, const char *link)
{
	long long f[6] = { (long long)st->st_mode, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
			   (long long)st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec,
			   (long long)st->st_ctim.tv_nsec };
	EVP_DigestUpdate(w->md, path, strlen(path) + 1);
	EVP_DigestUpdate(w->md, f, sizeof f);
	if (link)
		EVP_DigestUpdate(w->md, link, strlen(link) + 1);
}

/* Sets the copy's times: the source's modification time, the access time ahead. */
static int stamp(const char *dst, const struct stat *st)
{
	struct timespec t[2] = { { MIRROR_ATIME, 0 }, st->st_mtim };
	return utimensat(AT_FDCWD, dst, t, AT_SYMLINK_NOFOLLOW);
}

static int copy_reg(struct walk *w, const char *src, const char *dst, const struct stat *st)
{
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), out = -1, rc = -1;
	off_t at = 0;

	if (in < 0)
		return errno == EACCES ? 0 : walk_fail(w, "cannot read", src);  /* not the runs' either */
	if ((out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st->st_mode & 0755)) < 0) {
		walk_fail(w, "cannot create", dst);
		goto out;
	}
	while (at < st->st_size) {
		ssize_t n = sendfile(out, in, &at, (size_t)(st->st_size - at));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			walk_fail(w, "cannot copy", src);
			goto out;
		}
	}
	rc = 0;
out:
	close(in);
	if (out >= 0 && close(out) < 0 && rc == 0)
		rc = walk_fail(w, "cannot write", dst);
	return rc;
}

static int skip_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
}

static int walk_path(struct walk *w, char *path, size_t len);

/* A directory's entries in name order (so the hash does not depend on the file system's). */
static int walk_dir(struct walk *w, char *path, size_t len)
{
	struct dirent **names = NULL;
	int n = scandir(path, &names, skip_dots, alphasort), rc = 0;

	if (n < 0)
		return errno == EACCES ? 0 : walk_fail(w, "cannot list", path);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(names[i]->d_name);
		unsigned char type = names[i]->d_type;
		if (rc == 0 && w->md && type != DT_DIR && type != DT_UNKNOWN) {
			/* a file or link by its name and kind: its directory's times say it changed */
			EVP_DigestUpdate(w->md, names[i]->d_name, l + 1);
			EVP_DigestUpdate(w->md, &type, 1);
		} else if (rc == 0 && len + 1 + l < PATH_MAX) {
			path[len] = '/';
			memcpy(path + len + 1, names[i]->d_name, l + 1);
			rc = walk_path(w, path, len + 1 + l);
			path[len] = '\0';
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* One entry: hashed, or copied beneath w->dst (directories, regular files, links; nothing
 * else is a read root's). */
static int walk_path(struct walk *w, char *path, size_t len)
{
	char dst[PATH_MAX], link[PATH_MAX];
	struct stat st;
	ssize_t t = -1;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : walk_fail(w, "cannot stat", path);
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return 0;
	if (S_ISLNK(st.st_mode) && (t = readlink(path, link, sizeof link - 1)) < 0)
		return walk_fail(w, "cannot read the link", path);
	if (t >= 0)
		link[t] = '\0';
	if (w->md) {
		feed(w, path, &st, t >= 0 ? link : NULL);
		return S_ISDIR(st.st_mode) ? walk_dir(w, path, len) : 0;
	}
	if (snprintf(dst, sizeof dst, "%s%s", w->dst, path) >= (int)sizeof dst) {
		errno = ENAMETOOLONG;
		return walk_fail(w, "cannot name the copy of", path);
	}
	if (S_ISDIR(st.st_mode)) {
		if (mkdir(dst, (st.st_mode & 0755) | 0700) < 0 && errno != EEXIST)
			return walk_fail(w, "cannot make", dst);
		if (walk_dir(w, path, len) < 0)
			return -1;
	} else if (S_ISREG(st.st_mode)) {
		if (copy_reg(w, path, dst, &st) < 0)
			return -1;
	} else if (symlink(link, dst) < 0) {
		return walk_fail(w, "cannot make the link", dst);
	}
	return stamp(dst, &st) < 0 && errno != ENOENT ? walk_fail(w, "cannot stamp", dst) : 0;
}

/* The roots' real paths, sorted, a root inside another left out (it is copied with it). */
static size_t real_roots(const char *const *roots, size_t n, char **real)
{
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if ((real[m] = realpath(roots[i], NULL)))
			m++;
	for (size_t i = 0; i < m; i++)
		for (size_t j = i + 1; j < m; j++)
			if (strcmp(real[j], real[i]) < 0) {
				char *x = real[i];
				real[i] = real[j];
				real[j] = x;
			}
	for (size_t i = 0; i < m; i++) {
		size_t l = k ? strlen(real[k - 1]) : 0;
		if (k && strncmp(real[i], real[k - 1], l) == 0 && (real[i][l] == '/' || real[i][l] == '\0'))
			free(real[i]);
		else
			real[k++] = real[i];
	}
	return k;
}

static int hash_roots(char *const *real, size_t m, char hex[65], char *err, size_t errlen)
{
	struct walk w = { .md = EVP_MD_CTX_new(), .err = err, .errlen = errlen };
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	int rc = -1;

	if (!w.md || !EVP_DigestInit_ex(w.md, EVP_sha256(), NULL)) {
		sa_fmt(err, errlen, "read-roots mirror: no sha256");
		goto out;
	}
	for (size_t i = 0; i < m; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s", real[i]);
		if (walk_path(&w, path, strlen(path)) < 0)
			goto out;
	}
	if (!EVP_DigestFinal_ex(w.md, md, &len) || len != 32) {
		sa_fmt(err, errlen, "read-roots mirror: no sha256");
		goto out;
	}
	for (unsigned i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	rc = 0;
out:
	EVP_MD_CTX_free(w.md);
	return rc;
}

/* Whether dir is a finished mirror of this content, made by this user and writable by no
 * one else. */
static int verified(const char *dir, const char *hex)
{
	char mark[PATH_MAX], got[65] = "";
	struct stat st;
	FILE *f;

	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return 0;
	if (snprintf(mark, sizeof mark, "%s/%s", dir, MIRROR_MARK) >= (int)sizeof mark)
		return 0;
	if (lstat(mark, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || !(f = fopen(mark, "r")))
		return 0;
	if (!fgets(got, sizeof got, f))
		got[0] = '\0';
	fclose(f);
	return strcmp(got, hex) == 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* mkdir -p, the directories on the way to a root (their modes do not matter: runs see only
 * the roots, bound at their own paths). */
static int make_dirs(const char *path)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s", path);
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		if (!(*s = c))
			return 0;
	}
}

/* Copies every root beneath a fresh directory, marks it finished, and renames it into place. */
static int build(char *const *real, size_t m, const char *dir, const char *hex, char *err, size_t errlen)
{
	char tmp[PATH_MAX], mark[PATH_MAX];
	struct walk w = { .dst = tmp, .err = err, .errlen = errlen };
	int rc = -1, fd;

	if (snprintf(tmp, sizeof tmp, "%s.tmp-%d", dir, (int)getpid()) >= (int)sizeof tmp ||
	    mkdir(tmp, 0755) < 0) {
		walk_fail(&w, "cannot make", tmp);
		return -1;
	}
	for (size_t i = 0; i < m; i++) {
		char path[PATH_MAX], parent[PATH_MAX];
		snprintf(path, sizeof path, "%s", real[i]);
		if (snprintf(parent, sizeof parent, "%s%s", tmp, real[i]) >= (int)sizeof parent) {
			errno = ENAMETOOLONG;
			walk_fail(&w, "cannot name the copy of", real[i]);
			goto out;
		}
		*strrchr(parent, '/') = '\0';
		if (make_dirs(parent) < 0 || walk_path(&w, path, strlen(path)) < 0)
			goto out;
	}
	if (snprintf(mark, sizeof mark, "%s/%s", tmp, MIRROR_MARK) >= (int)sizeof mark ||
	    (fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0 ||
	    write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex) || close(fd) < 0) {
		walk_fail(&w, "cannot mark", tmp);
		goto out;
	}
	if (chmod(tmp, 0755) < 0 || rename(tmp, dir) < 0) {
		walk_fail(&w, "cannot put in place", dir);
		goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		(void)nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}

int sbx_mirror_get(const char *const *roots, size_t n, char *dir, size_t dirlen, char *err, size_t errlen)
{
	char *real[64], hex[65], lock[PATH_MAX];
	size_t m;
	int rc = -1, lk = -1;

	dir[0] = '\0';
	if (n > sizeof real / sizeof real[0]) {
		sa_fmt(err, errlen, "read-roots mirror: too many read roots (%zu)", n);
		return -1;
	}
	m = real_roots(roots, n, real);
	if (hash_roots(real, m, hex, err, errlen) < 0)
		goto out;
	if ((size_t)snprintf(dir, dirlen, "%s/strataudit-roots-%.*s", SBX_MIRROR_PARENT, KEY_HEX, hex) >= dirlen) {
		sa_fmt(err, errlen, "read-roots mirror: the name is too long");
		goto out;
	}
	if (verified(dir, hex)) {
		rc = 0;
		goto out;
	}
	/* One builder at a time for one content (a second audit waits, then finds it made). */
	if (snprintf(lock, sizeof lock, "%s.lock", dir) >= (int)sizeof lock ||
	    (lk = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0 || flock(lk, LOCK_EX) < 0) {
		sa_fmt(err, errlen, "read-roots mirror: cannot lock '%s', '%s'", lock, strerror(errno));
		goto out;
	}
	if (verified(dir, hex) || (build(real, m, dir, hex, err, errlen) == 0 && verified(dir, hex)))
		rc = 0;
	else if (!err[0])
		sa_fmt(err, errlen, "read-roots mirror: '%s' is there but not a finished copy of this content", dir);
out:
	if (lk >= 0)
		close(lk);
	for (size_t i = 0; i < m && i < n; i++)
		free(real[i]);
	if (rc < 0)
		dir[0] = '\0';
	return rc;
}
