/* test_fileio.c - the shared library's writes (fileio): atomic writes that fail keep the old
 * file and say why, in the caller's err, never on the terminal (a size limit, a directory that
 * is missing or not one, a refused rename, a read-only directory). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"

/* --- atomic writes that fail --------------------------------------------------------------- */

/* stderr goes to a file between capture_begin and capture_end, which returns the caller's err
 * buffer when the library printed nothing, and "printed: ..." when it printed: the library's
 * errors go back to the caller, in err, never to the terminal. capture_begin fills err with a
 * marker, so a failure that leaves err alone shows as "unset". */
static int saved_stderr = -1;
static char captured[4096];

#define ERR_UNSET "unset"

static void capture_begin(char *err, size_t errlen)
{
	char path[] = "/tmp/sa-test-err-XXXXXX";
	int fd = mkstemp(path);

	snprintf(err, errlen, "%s", ERR_UNSET);

	assert_true(fd >= 0);
	unlink(path);
	fflush(stderr);
	saved_stderr = dup(2);
	assert_true(saved_stderr >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	close(fd);
}

static const char *capture_end(const char *err)
{
	ssize_t n;

	fflush(stderr);
	n = pread(2, captured + 9, sizeof captured - 10, 0);
	assert_int_equal(dup2(saved_stderr, 2), 2);
	close(saved_stderr);
	saved_stderr = -1;
	if (n > 0) {
		memcpy(captured, "printed: ", 9);
		captured[9 + n] = '\0';
	} else {
		snprintf(captured, sizeof captured, "%s", err);
	}
	return captured;
}

/* A scratch directory holding "old" (the file a failed write must leave alone). */
static void scratch_with_old(char dir[64], char old[96])
{
	char err[512];

	strcpy(dir, "/tmp/sa-test-dir-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(old, 96, "%s/old.json", dir);
	assert_int_equal(sa_write_file(old, "old bytes\n", 10, err, sizeof err), 0);
}

/* The target still holds exactly "old bytes\n" and no .tmp file was left beside it. */
static void assert_old_kept(const char *old)
{
	char *buf = NULL, tmp[112];
	size_t len;

	assert_int_equal(sa_read_file(old, 4096, &buf, &len), SA_READ_OK);
	assert_int_equal(len, 10);
	assert_memory_equal(buf, "old bytes\n", 10);
	free(buf);
	snprintf(tmp, sizeof tmp, "%s.tmp", old);
	assert_int_equal(access(tmp, F_OK), -1);
}

static void scratch_remove(const char *dir, const char *old)
{
	unlink(old);
	assert_int_equal(rmdir(dir), 0);
}

/* msg holds a and b, and is a message of the project's style: it starts in lowercase. */
static void assert_says(const char *msg, const char *a, const char *b)
{
	if (!strstr(msg, a) || !strstr(msg, b) || !(msg[0] >= 'a' && msg[0] <= 'z'))
		fail_msg("expected a lowercase message with '%s' and '%s': %s", a, b, msg);
}

/* A file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored): both a big fwrite and a commit whose last
 * buffer cannot be flushed fail with EFBIG; the old file stays whole. Root is no exception. */
static void test_atomic_write_file_size_limit(void **state)
{
	char dir[64], old[96], big[65536], msg1[sizeof captured], err[512];
	struct rlimit was, lim;
	struct sigaction ign = { .sa_handler = SIG_IGN }, prev;
	struct sa_atomic a;
	const char *msg2;
	int rc1, rc2, open_rc, wrote = 0;

	(void)state;
	scratch_with_old(dir, old);
	memset(big, 'x', sizeof big);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
	lim = was;
	lim.rlim_cur = 4096;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &prev), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	/* Nothing may fail an assert under the limit: it would stay on for the later tests. */
	capture_begin(err, sizeof err);
	rc1 = sa_write_file(old, big, sizeof big, err, sizeof err);
	snprintf(msg1, sizeof msg1, "%s", capture_end(err));
	/* Small writes that stay in stdio's buffer until the commit flushes them. */
	open_rc = sa_atomic_open(&a, old, err, sizeof err);
	for (int i = 0; !open_rc && i < 8; i++)
		wrote += (int)fwrite(big, 1, 1000, a.fp);
	capture_begin(err, sizeof err);
	rc2 = open_rc ? 0 : sa_atomic_commit(&a, err, sizeof err);
	msg2 = capture_end(err);
	setrlimit(RLIMIT_FSIZE, &was);
	sigaction(SIGXFSZ, &prev, NULL);

	assert_int_equal(rc1, -1);
	assert_says(msg1, old, strerror(EFBIG));
	assert_int_equal(open_rc, 0);
	assert_int_equal(wrote, 8000);
	assert_int_equal(rc2, -1);
	assert_says(msg2, old, strerror(EFBIG));
	assert_null(a.fp);
	assert_old_kept(old);
	scratch_remove(dir, old);
}

/* A directory that does not exist, and a "directory" that is a file: nothing is written and
 * err says "cannot write 'path': reason". The JSON writer, the copy, the hash and mkdir -p say
 * so the same way. */
static void test_atomic_write_bad_directory(void **state)
{
	char dir[64], old[96], path[160], want[200], hex[65], err[512];
	cJSON *j = sa_json_stage("t", 1);
	const char *msg;
	int rc;

	(void)state;
	scratch_with_old(dir, old);
	snprintf(path, sizeof path, "%s/missing/new.json", dir);
	snprintf(want, sizeof want, "cannot write '%s': ", path);
	capture_begin(err, sizeof err);
	rc = sa_write_file(path, "new\n", 4, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOENT));
	capture_begin(err, sizeof err);
	rc = sa_json_write(path, j, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOENT));
	capture_begin(err, sizeof err);
	rc = sa_copy_file(old, path, 4096, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOENT));
	capture_begin(err, sizeof err);
	rc = sa_sha256_file(path, hex, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	snprintf(want, sizeof want, "cannot read '%s': ", path);
	assert_says(msg, want, strerror(ENOENT));

	snprintf(path, sizeof path, "%s/new.json", old);
	snprintf(want, sizeof want, "cannot write '%s': ", path);
	capture_begin(err, sizeof err);
	rc = sa_write_file(path, "new\n", 4, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, want, strerror(ENOTDIR));
	snprintf(path, sizeof path, "%s/sub", old);
	capture_begin(err, sizeof err);
	rc = sa_mkdirs(path, 0700, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, "cannot create directory", strerror(ENOTDIR));
	cJSON_Delete(j);
	assert_old_kept(old);
	scratch_remove(dir, old);
}

/* The rename is refused (the target is a non-empty directory): the directory is untouched and
 * the .tmp file is removed. */
static void test_atomic_write_rename_refused(void **state)
{
	char dir[64], old[96], target[112], tmp[120], err[512];
	const char *msg;
	int rc;

	(void)state;
	scratch_with_old(dir, old);
	snprintf(target, sizeof target, "%s/target", dir);
	assert_int_equal(mkdir(target, 0700), 0);
	snprintf(tmp, sizeof tmp, "%s/target/old.json", dir);
	assert_int_equal(rename(old, tmp), 0);
	capture_begin(err, sizeof err);
	rc = sa_write_file(target, "new\n", 4, err, sizeof err);
	msg = capture_end(err);
	assert_int_equal(rc, -1);
	assert_says(msg, "cannot rename", strerror(EISDIR));
	assert_old_kept(tmp);
	snprintf(tmp, sizeof tmp, "%s.tmp", target);
	assert_int_equal(access(tmp, F_OK), -1);
	snprintf(tmp, sizeof tmp, "%s/target/old.json", dir);
	assert_int_equal(rename(tmp, old), 0);
	assert_int_equal(rmdir(target), 0);
	scratch_remove(dir, old);
}

/* A read-only directory. chmod 555 does not stop root, so as root the directory is made a
 * read-only bind mount in a mount namespace of this test process's own; where that cannot be
 * done the test is skipped, saying why. */
static void test_atomic_write_read_only_dir(void **state)
{
	char dir[64], old[96], err[512], want[128];
	const char *msg, *why = NULL;
	int rc;

	(void)state;
	scratch_with_old(dir, old);
	if (geteuid() != 0) {
		assert_int_equal(chmod(dir, 0555), 0);
	} else if (unshare(CLONE_NEWNS) != 0) {
		why = "unshare(CLONE_NEWNS)";
	} else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		why = "making / private";
	} else if (mount(dir, dir, NULL, MS_BIND, NULL) != 0 ||
		   mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
		why = "a read-only bind mount";
	}
	if (why) {
		fprintf(stderr, "# skipped: as root a read-only directory needs %s, which failed: %s\n",
			why, strerror(errno));
		umount2(dir, MNT_DETACH);
		scratch_remove(dir, old);
		skip();
	}
	capture_begin(err, sizeof err);
	rc = sa_write_file(old, "new bytes\n", 10, err, sizeof err);
	msg = capture_end(err);
	if (geteuid() != 0)
		chmod(dir, 0700);
	else
		assert_int_equal(umount2(dir, 0), 0);
	assert_int_equal(rc, -1);
	snprintf(want, sizeof want, "cannot write '%s': ", old);
	assert_says(msg, want, strerror(geteuid() != 0 ? EACCES : EROFS));
	assert_old_kept(old);
	scratch_remove(dir, old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomic_write_file_size_limit),
		cmocka_unit_test(test_atomic_write_bad_directory),
		cmocka_unit_test(test_atomic_write_rename_refused),
		cmocka_unit_test(test_atomic_write_read_only_dir),
	};

	return cmocka_run_group_tests_name("fileio", tests, NULL, NULL);
}
