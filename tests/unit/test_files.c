/* Safe output files and state locks (util/files.c). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpuplan/util/util.h"
#include "testlib.h"

static char dir[64];

static char *in_dir(const char *name)
{
	return gp_xasprintf("%s/%s", dir, name);
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs(text, fp);
	fclose(fp);
}

static int holds(const char *path, const char *text)
{
	char *data;
	size_t len;
	gp_error err = GP_ERROR_INIT;
	int same;

	if (gp_read_file(path, 1 << 20, &data, &len, &err))
		return 0;
	same = len == strlen(text) && !memcmp(data, text, len);
	free(data);
	return same;
}

static int write_all(const char *path, const char *text)
{
	gp_atomic_file af;
	gp_error err = GP_ERROR_INIT;

	if (gp_atomic_open(&af, path, &err))
		return err.status;
	fputs(text, af.fp);
	return gp_atomic_commit(&af, &err);
}

static void test_symlink_followed(void)
{
	char *target = in_dir("target.yaml"), *link = in_dir("link.yaml");
	struct stat st;

	put(target, "old\n");
	CU_ASSERT_EQUAL_FATAL(symlink("target.yaml", link), 0);
	CU_ASSERT_EQUAL(write_all(link, "new\n"), GP_OK);
	CU_ASSERT_EQUAL(lstat(link, &st), 0);
	CU_ASSERT(S_ISLNK(st.st_mode));
	CU_ASSERT(holds(target, "new\n"));
	unlink(link);
	unlink(target);
	free(link);
	free(target);
}

static void test_dangling_symlink_creates_target(void)
{
	char *target = in_dir("later.yaml"), *link = in_dir("dangling.yaml");
	struct stat st;

	CU_ASSERT_EQUAL_FATAL(symlink("later.yaml", link), 0);
	CU_ASSERT_EQUAL(write_all(link, "x\n"), GP_OK);
	CU_ASSERT_EQUAL(lstat(link, &st), 0);
	CU_ASSERT(S_ISLNK(st.st_mode));
	CU_ASSERT(holds(target, "x\n"));
	unlink(link);
	unlink(target);
	free(link);
	free(target);
}

static void test_mode_kept(void)
{
	char *path = in_dir("private.yaml");
	struct stat st;

	put(path, "old\n");
	CU_ASSERT_EQUAL(chmod(path, 0600), 0);
	CU_ASSERT_EQUAL(write_all(path, "new\n"), GP_OK);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	CU_ASSERT(holds(path, "new\n"));
	CU_ASSERT_EQUAL(chmod(path, 0640), 0);
	CU_ASSERT_EQUAL(write_all(path, "newer\n"), GP_OK);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0640);
	unlink(path);
	free(path);
}

static void test_device_written_in_place(void)
{
	struct stat st;
	gp_atomic_file af;
	gp_error err = GP_ERROR_INIT;

	CU_ASSERT_EQUAL(write_all("/dev/null", "discarded\n"), GP_OK);
	CU_ASSERT_EQUAL(stat("/dev/null", &st), 0);
	CU_ASSERT(S_ISCHR(st.st_mode));
	/* "-" is stdout, which commit flushes but never closes */
	CU_ASSERT_EQUAL(gp_atomic_open(&af, "-", &err), GP_OK);
	CU_ASSERT_PTR_EQUAL(af.fp, stdout);
	CU_ASSERT_EQUAL(gp_atomic_commit(&af, &err), GP_OK);
	CU_ASSERT_EQUAL(fflush(stdout), 0);
	/* a directory is refused */
	CU_ASSERT_EQUAL(write_all(dir, "x"), GP_EIO);
}

static void test_stale_temporaries(void)
{
	char *path = in_dir("out.yaml"), *dead, *live;
	pid_t pid = fork();

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0); /* pid is now free */
	dead = gp_xasprintf("%s/.out.yaml.gptmp-%ld-abcdef", dir, (long)pid);
	live = gp_xasprintf("%s/.out.yaml.gptmp-%ld-ghijkl", dir, (long)getppid());
	put(dead, "half");
	put(live, "being written");
	CU_ASSERT_EQUAL(write_all(path, "whole\n"), GP_OK);
	CU_ASSERT_NOT_EQUAL(access(dead, F_OK), 0);
	CU_ASSERT_EQUAL(access(live, F_OK), 0);
	CU_ASSERT(holds(path, "whole\n"));
	unlink(live);
	unlink(path);
	free(dead);
	free(live);
	free(path);
}

static void test_lock_excludes(void)
{
	char *path = in_dir("state.yaml"), *data;
	gp_lock a, b;
	gp_error err = GP_ERROR_INIT;
	size_t len;

	put(path, "allocations: []\n");
	CU_ASSERT_EQUAL_FATAL(gp_lock_file(path, 1, &a, &err), GP_OK);
	/* another open file description waits, then gives up */
	CU_ASSERT_EQUAL(gp_lock_file(path, 0.05, &b, &err), GP_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "locked"));
	CU_ASSERT_EQUAL(gp_lock_read(&a, path, 1 << 20, &data, &len, &err), GP_OK);
	CU_ASSERT_EQUAL(len, 16);
	free(data);
	/* the holder replaces the file: the next locker gets the new one */
	CU_ASSERT_EQUAL(write_all(path, "allocations: []\ndown: []\n"), GP_OK);
	gp_unlock_file(&a);
	CU_ASSERT_EQUAL_FATAL(gp_lock_file(path, 1, &b, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_lock_read(&b, path, 1 << 20, &data, &len, &err), GP_OK);
	CU_ASSERT_EQUAL(len, 25);
	free(data);
	gp_unlock_file(&b);
	gp_unlock_file(&b); /* twice is harmless */
	CU_ASSERT_EQUAL(gp_lock_file("/nonexistent/state.yaml", 1, &b, &err), GP_EINPUT);
	unlink(path);
	free(path);
}

/* Text as every reader takes it: a BOM dropped, a NUL or control byte an
 * error at its line and column (tab, CR and LF are text). */
static void test_text_bytes(void)
{
	static const struct {
		const char *text;
		size_t len;
		int line, col;
		const char *what;
	} bad[] = {
		{ "a,b\nc\0d\n", 8, 2, 2, "a NUL byte" },
		{ "a,b\n\nxy\x01z", 9, 3, 3, "control byte (0x01)" },
		{ "\x7f", 1, 1, 1, "control byte (0x7f)" },
		{ "k: v\n  w\x1b[0m\n", 13, 2, 4, "control byte (0x1b)" },
	};
	char *path = in_dir("text.csv"), *data;
	gp_error err = GP_ERROR_INIT;
	size_t i, len;
	FILE *fp;

	CU_ASSERT_EQUAL(gp_text_bad_byte("a\tb\r\nc\xc3\xa9", 8), 8);
	CU_ASSERT_EQUAL(gp_text_check("a\tb\r\n", 5, "f", 1, &err), GP_OK);
	CU_ASSERT_EQUAL(gp_text_bom("\xef\xbb\xbfx", 4), 3);
	CU_ASSERT_EQUAL(gp_text_bom("\xef\xbb", 2), 0);
	for (i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		CU_ASSERT_EQUAL(gp_text_check(bad[i].text, bad[i].len, "f", 1, &err), GP_EINPUT);
		CU_ASSERT_EQUAL(err.line, bad[i].line);
		CU_ASSERT_EQUAL(err.col, bad[i].col);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, bad[i].what));
		/* the same through a file (a BOM before it moves no column) */
		fp = fopen(path, "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
		fwrite("\xef\xbb\xbf", 1, 3, fp);
		fwrite(bad[i].text, 1, bad[i].len, fp);
		fclose(fp);
		CU_ASSERT_EQUAL(gp_read_file(path, 1 << 20, &data, &len, &err), GP_EINPUT);
		CU_ASSERT_EQUAL(err.line, bad[i].line);
		CU_ASSERT_EQUAL(err.col, bad[i].col);
	}
	/* a text that starts line 10 of its file */
	CU_ASSERT_EQUAL(gp_text_check("x\ny\0", 4, "f", 10, &err), GP_EINPUT);
	CU_ASSERT_EQUAL(err.line, 11);
	put(path, "\xef\xbb\xbfid,gpus\r\n1,\t8\n");
	CU_ASSERT_EQUAL_FATAL(gp_read_file(path, 1 << 20, &data, &len, &err), GP_OK);
	CU_ASSERT_EQUAL(len, 14);
	CU_ASSERT_STRING_EQUAL(data, "id,gpus\r\n1,\t8\n");
	free(data);
	unlink(path);
	free(path);
}

/* A link another user planted (in a shared directory: /tmp) is never
 * followed: neither replaced through by an output nor used to create the
 * target of a new state.  Needs root to give a link away (lchown); the
 * user's own links are followed (test_symlink_followed and the dangling
 * ones above and below). */
static void test_foreign_symlink_refused(void)
{
	char *target = in_dir("victim.conf"), *link = in_dir("planted.yaml");
	char *gone = in_dir("never-made.conf"), *dlink = in_dir("planted-state.yaml");
	char *own = in_dir("own-state.yaml"), *made = in_dir("made-state.yaml");
	gp_error err = GP_ERROR_INIT;
	gp_txn t;
	struct stat st;

	/* the user's dangling link as a new --state: the target is created */
	CU_ASSERT_EQUAL_FATAL(symlink("made-state.yaml", own), 0);
	CU_ASSERT_EQUAL(gp_txn_begin(&t, own, 1, 5, 1 << 20, NULL, NULL, &err), GP_OK);
	gp_txn_abort(&t);
	CU_ASSERT_EQUAL(lstat(made, &st), 0);
	CU_ASSERT(S_ISREG(st.st_mode));
	if (geteuid() != 0) {
		fprintf(stderr, "files/foreign_symlink: not root, links cannot be given away: skipped\n");
		goto out;
	}
	put(target, "root:x:0:0\n");
	CU_ASSERT_EQUAL_FATAL(symlink(target, link), 0);
	CU_ASSERT_EQUAL_FATAL(lchown(link, 4242, 4242), 0);
	CU_ASSERT_EQUAL(write_all(link, "owned\n"), GP_EIO);
	CU_ASSERT(holds(target, "root:x:0:0\n"));
	CU_ASSERT_EQUAL(lstat(link, &st), 0);
	CU_ASSERT(S_ISLNK(st.st_mode));
	{
		gp_atomic_file af;

		CU_ASSERT_EQUAL(gp_atomic_open(&af, link, &err), GP_EIO);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "symbolic link of another user (uid 4242)"));
	}
	/* a dangling one: no file made where it points */
	CU_ASSERT_EQUAL_FATAL(symlink(gone, dlink), 0);
	CU_ASSERT_EQUAL_FATAL(lchown(dlink, 4242, 4242), 0);
	CU_ASSERT_EQUAL(gp_txn_begin(&t, dlink, 1, 5, 1 << 20, NULL, NULL, &err), GP_EIO);
	CU_ASSERT_NOT_EQUAL(access(gone, F_OK), 0);
	CU_ASSERT_EQUAL(write_all(dlink, "x\n"), GP_EIO);
	CU_ASSERT_NOT_EQUAL(access(gone, F_OK), 0);
	/* a link to a device is no way around it */
	unlink(link);
	CU_ASSERT_EQUAL_FATAL(symlink("/dev/null", link), 0);
	CU_ASSERT_EQUAL_FATAL(lchown(link, 4242, 4242), 0);
	CU_ASSERT_EQUAL(write_all(link, "x\n"), GP_EIO);
	/* root's own links are followed */
	CU_ASSERT_EQUAL_FATAL(lchown(link, 0, 0), 0);
	CU_ASSERT_EQUAL(write_all(link, "x\n"), GP_OK);
out:
	unlink(link);
	unlink(dlink);
	unlink(target);
	unlink(own);
	unlink(made);
	free(target);
	free(link);
	free(gone);
	free(dlink);
	free(own);
	free(made);
}

/* An output set in two folders (d1/a; d2/b, d2/c) whose writer dies at
 * step `stop` of its commit: d2's journal copy put in place (0), d1's,
 * the commit point (1), the renames (2-4), the copies removed (5-6).
 * Stopped before step 1 nothing was replaced; from step 2 on a later
 * write into either folder completes the set first. */
static int set_stop = -1, set_steps;

static void set_die(void)
{
	if (set_steps++ == set_stop)
		_exit(9);
}

static int hidden_files(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	while (dp && (e = readdir(dp)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (dp)
		closedir(dp);
	return n;
}

static void test_set_killed(void)
{
	char *d1 = in_dir("d1"), *d2 = in_dir("d2"), *p[3], *later;
	int stop, i;

	mkdir(d1, 0777);
	mkdir(d2, 0777);
	p[0] = gp_xasprintf("%s/a", d1);
	p[1] = gp_xasprintf("%s/b", d2);
	p[2] = gp_xasprintf("%s/c", d2);
	for (stop = 0; stop <= 7; stop++) {
		const char *want = stop < 2 ? "old" : "new";
		pid_t pid;
		int st = 0;

		for (i = 0; i < 3; i++)
			put(p[i], "old");
		pid = fork();
		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0) {
			gp_atomic_file af[3];
			gp_error err = GP_ERROR_INIT;

			set_stop = stop;
			gp_atomic_set_step = set_die;
			for (i = 0; i < 3; i++) {
				if (gp_atomic_open(&af[i], p[i], &err))
					_exit(1);
				fputs("new", af[i].fp);
			}
			_exit(gp_atomic_commit_set(af, 3, &err) ? 1 : 0);
		}
		waitpid(pid, &st, 0);
		CU_ASSERT_EQUAL(WEXITSTATUS(st), stop < 7 ? 9 : 0);
		/* a later write into one folder, the other in turn */
		later = gp_xasprintf("%s/later", stop % 2 ? d1 : d2);
		CU_ASSERT_EQUAL(write_all(later, "x"), GP_OK);
		unlink(later);
		for (i = 0; i < 3; i++)
			CU_ASSERT(holds(p[i], want));
		CU_ASSERT_EQUAL(hidden_files(stop % 2 ? d1 : d2), 0);
		free(later);
		/* the other folder tidied too when written into */
		later = gp_xasprintf("%s/later", stop % 2 ? d2 : d1);
		CU_ASSERT_EQUAL(write_all(later, "x"), GP_OK);
		unlink(later);
		free(later);
		CU_ASSERT_EQUAL(hidden_files(d1) + hidden_files(d2), 0);
	}
	for (i = 0; i < 3; i++) {
		unlink(p[i]);
		free(p[i]);
	}
	rmdir(d1);
	rmdir(d2);
	free(d1);
	free(d2);
}

/* A journal of a gone writer at journal: its own copy, one pair. */
static void put_journal(const char *journal, const char *tmp, const char *final)
{
	const char *f[] = { "gpuplan output set 1", journal, "J", journal, "R", tmp, final, "end" };
	FILE *fp = fopen(journal, "w");
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	for (i = 0; i < sizeof(f) / sizeof(*f); i++)
		fwrite(f[i], 1, strlen(f[i]) + 1, fp);
	fclose(fp);
}

static long gone_pid(void)
{
	pid_t pid = fork();

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return (long)pid;
}

/* A set that cannot be completed yet (its final name is a folder now)
 * keeps its journal and temporary file, and is completed by a later
 * write once it can be. */
static void test_set_kept(void)
{
	long pid = gone_pid();
	char *final = in_dir("busy"), *later = in_dir("later");
	char *tmp = gp_xasprintf("%s/.busy.gptmp-%ld-abcdef", dir, pid);
	char *journal = gp_xasprintf("%s/.gpuplan-set-%ld-1", dir, pid);

	CU_ASSERT_EQUAL(mkdir(final, 0777), 0);
	put(tmp, "new");
	put_journal(journal, tmp, final);
	CU_ASSERT_EQUAL(write_all(later, "x"), GP_OK);
	CU_ASSERT_EQUAL(access(journal, F_OK), 0);
	CU_ASSERT_EQUAL(access(tmp, F_OK), 0);
	rmdir(final);
	CU_ASSERT_EQUAL(write_all(later, "x"), GP_OK);
	CU_ASSERT(holds(final, "new"));
	CU_ASSERT_NOT_EQUAL(access(journal, F_OK), 0);
	CU_ASSERT_NOT_EQUAL(access(tmp, F_OK), 0);
	unlink(later);
	unlink(final);
	free(final);
	free(later);
	free(tmp);
	free(journal);
}

/* A journal planted by another user (or one that is not a journal)
 * renames nothing: a root run writing into a shared folder must not
 * move a file of theirs over one of its own. */
static void test_set_foreign_journal(void)
{
	char *victim = in_dir("victim"), *later = in_dir("later");
	long pid = gone_pid();
	char *tmp = gp_xasprintf("%s/.victim.gptmp-%ld-abcdef", dir, pid);
	char *journal = gp_xasprintf("%s/.gpuplan-set-%ld-1", dir, pid);

	put(victim, "mine");
	put(tmp, "theirs");
	put_journal(journal, tmp, victim);
	if (geteuid() == 0 && chown(journal, 4242, 4242) == 0 && chown(tmp, 4242, 4242) == 0) {
		CU_ASSERT_EQUAL(write_all(later, "x"), GP_OK);
		CU_ASSERT(holds(victim, "mine"));
		CU_ASSERT_EQUAL(access(journal, F_OK), 0);
		CU_ASSERT_EQUAL(access(tmp, F_OK), 0);
	}
	/* the same journal of the user's own is rolled forward */
	CU_ASSERT_EQUAL(chown(journal, geteuid(), getegid()), 0);
	CU_ASSERT_EQUAL(chown(tmp, geteuid(), getegid()), 0);
	CU_ASSERT_EQUAL(write_all(later, "x"), GP_OK);
	CU_ASSERT(holds(victim, "theirs"));
	CU_ASSERT_NOT_EQUAL(access(journal, F_OK), 0);
	unlink(later);
	unlink(victim);
	free(victim);
	free(tmp);
	free(journal);
	free(later);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("files");

	strcpy(dir, "/tmp/gpfilesXXXXXX");
	if (!mkdtemp(dir))
		abort();
	gp_test_add(s, "symlink_followed", test_symlink_followed);
	gp_test_add(s, "dangling_symlink", test_dangling_symlink_creates_target);
	gp_test_add(s, "mode_kept", test_mode_kept);
	gp_test_add(s, "device_in_place", test_device_written_in_place);
	gp_test_add(s, "stale_temporaries", test_stale_temporaries);
	gp_test_add(s, "lock", test_lock_excludes);
	gp_test_add(s, "text_bytes", test_text_bytes);
	gp_test_add(s, "foreign_symlink", test_foreign_symlink_refused);
	gp_test_add(s, "set_killed", test_set_killed);
	gp_test_add(s, "set_foreign_journal", test_set_foreign_journal);
	gp_test_add(s, "set_kept", test_set_kept);
}

int main(int argc, char **argv)
{
	int rc = gp_test_main(argc, argv, register_tests);

	rmdir(dir);
	return rc;
}
