/* Output files written safely (gp_atomic_*) and advisory locks for
 * read-modify-write cycles (gp_lock_*). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpuplan/util/util.h"

enum { MODE_RENAME = 0, MODE_STDOUT, MODE_IN_PLACE };

#define TMP_TAG ".gptmp-"
#define SET_TAG ".gpuplan-set-"

/* Paths naming an already open descriptor: written through, never
 * replaced (their "target" is a pipe, a terminal or the caller's file). */
static int names_descriptor(const char *path)
{
	return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
	       !strncmp(path, "/dev/fd/", 8) || !strncmp(path, "/proc/self/fd/", 14);
}

/* The file a write to path reaches: symbolic links followed (also a
 * dangling one, whose target is then created), but only links of the
 * user or of root.  A link another user owns is refused: in a shared
 * directory (/tmp) anyone can plant one, and this resolution bypasses the
 * kernel's own guard (protected_symlinks), which applies to open(2) only.
 * NULL with err set. */
static char *resolve_links(const char *path, gp_error *err)
{
	char *p = gp_xstrdup(path), buf[PATH_MAX];
	int depth;

	for (depth = 0; depth < 40; depth++) {
		struct stat st;
		ssize_t n;
		char *q;

		if (lstat(p, &st) || !S_ISLNK(st.st_mode))
			return p;
		if (st.st_uid != geteuid() && st.st_uid != 0) {
			gp_error_set(err, GP_EIO, path, 0, 0,
				     "%s is a symbolic link of another user (uid %ld): not followed "
				     "(remove it, or write elsewhere)", p, (long)st.st_uid);
			free(p);
			return NULL;
		}
		n = readlink(p, buf, sizeof(buf) - 1);
		if (n < 0)
			return p;
		buf[n] = '\0';
		q = gp_path_relative_to(p, buf);
		free(p);
		p = q;
	}
	free(p);
	gp_error_set(err, GP_EIO, path, 0, 0, "cannot resolve: %s", strerror(ELOOP));
	return NULL;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return gp_xstrdup(".");
	if (slash == path)
		return gp_xstrdup("/");
	return gp_xstrndup(path, (size_t)(slash - path));
}

/* A process id that no longer runs on this host (a live process, or one
 * of another user, counts as running). */
static int pid_gone(long pid)
{
	return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* The writer's process id in a name "PREFIX<pid>-..." or 0. */
static long name_pid(const char *n, const char *prefix)
{
	size_t pl = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(n, prefix, pl))
		return 0;
	errno = 0;
	pid = strtol(n + pl, &end, 10);
	return errno || pid <= 0 || *end != '-' ? 0 : pid;
}

/* A regular file of this user (never another user's file, nor one
 * through a link: a shared folder holds what anyone puts there). */
static int own_file(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

static int set_recover(const char *path);

/* Tidy dir before a write into it: first complete the output sets
 * killed writers left (their journals ".gpuplan-set-PID-TAG", see
 * gp_atomic_commit_set; a ".part" one was never in place), then remove
 * their temporary files ".NAME.gptmp-PID-XXXXXX".  Only files of this
 * user whose PID no longer runs on this host: a live writer's file, or
 * one of another user, is left alone. */
static void clean_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **found = NULL;
	int i, n = 0, njournals = 0, kept = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *nm = e->d_name, *tag = strstr(nm, TMP_TAG), *end = NULL;
		long pid = name_pid(nm, SET_TAG);
		int journal = pid != 0;

		if (!journal && nm[0] == '.' && tag && tag != nm + 1 && (pid = name_pid(tag, TMP_TAG)))
			end = strchr(tag + 7, '-');
		if (!pid || (!journal && (!end || strlen(end + 1) != 6)) || !pid_gone(pid))
			continue;
		found = gp_xrealloc(found, (size_t)(n + 1) * sizeof(*found));
		/* journals first */
		if (journal) {
			if (njournals < n)
				found[n] = found[njournals];
			found[njournals++] = gp_xasprintf("%s/%s", dir, nm);
		} else {
			found[n] = gp_xasprintf("%s/%s", dir, nm);
		}
		n++;
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		size_t l = strlen(found[i]);

		/* a set that could not be completed keeps its temporaries */
		if (i < njournals && !(l > 5 && !strcmp(found[i] + l - 5, ".part")))
			kept |= set_recover(found[i]);
		else if ((i < njournals || !kept) && own_file(found[i]))
			unlink(found[i]);
		free(found[i]);
	}
	free(found);
}

/* Enough for every input of one command; past it files go unnoted. */
#define READ_MAX 256
static struct {
	dev_t dev;
	ino_t ino;
} read_files[READ_MAX];
static int nread_files;

void gp_file_note_read(FILE *fp)
{
	struct stat st;
	int i;

	if (!fp || fp == stdin || fstat(fileno(fp), &st) || !S_ISREG(st.st_mode))
		return;
	for (i = 0; i < nread_files; i++)
		if (read_files[i].dev == st.st_dev && read_files[i].ino == st.st_ino)
			return;
	if (nread_files < READ_MAX) {
		read_files[nread_files].dev = st.st_dev;
		read_files[nread_files++].ino = st.st_ino;
	}
}

int gp_file_was_read(const char *path)
{
	struct stat st;
	int i;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	for (i = 0; i < nread_files; i++)
		if (read_files[i].dev == st.st_dev && read_files[i].ino == st.st_ino)
			return 1;
	return 0;
}

static int open_fail(gp_atomic_file *af, const char *path, const char *what, int e,
		     gp_error *err)
{
	gp_error_set(err, GP_EIO, path, 0, 0, "%s: %s", what, strerror(e));
	free(af->path);
	free(af->tmp_path);
	free(af->target);
	memset(af, 0, sizeof(*af));
	return GP_EIO;
}

int gp_atomic_open(gp_atomic_file *af, const char *path, gp_error *err)
{
	struct stat st;
	char *dir;
	const char *base;
	int fd, exists;

	memset(af, 0, sizeof(*af));
	af->path = gp_xstrdup(path);
	if (!strcmp(path, "-")) {
		af->mode = MODE_STDOUT;
		af->fp = stdout;
		return GP_OK;
	}
	if (names_descriptor(path)) {
		/* the caller's descriptor: written through */
		af->mode = MODE_IN_PLACE;
		af->fp = fopen(path, "w");
		if (!af->fp)
			return open_fail(af, path, "cannot open", errno, err);
		return GP_OK;
	}
	af->target = resolve_links(path, err);
	if (!af->target) {
		/* err says why */
		free(af->path);
		memset(af, 0, sizeof(*af));
		return GP_EIO;
	}
	exists = stat(af->target, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		/* A device, FIFO or socket: write through it (never through a
		 * link put there since the resolution). */
		if (S_ISDIR(st.st_mode))
			return open_fail(af, path, "cannot write", EISDIR, err);
		af->mode = MODE_IN_PLACE;
		fd = open(af->target, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 || !(af->fp = fdopen(fd, "w"))) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			return open_fail(af, path, "cannot open", e, err);
		}
		return GP_OK;
	}
	dir = dir_of(af->target);
	base = strrchr(af->target, '/') ? strrchr(af->target, '/') + 1 : af->target;
	clean_stale(dir);
	af->tmp_path = gp_xasprintf("%s/.%s" TMP_TAG "%ld-XXXXXX", dir, base, (long)getpid());
	free(dir);
	fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		free(af->tmp_path);
		af->tmp_path = NULL;
		return open_fail(af, path, "cannot create", errno, err);
	}
	if (exists) {
		/* Keep the replaced file's permissions, group and (when allowed:
		 * as root or its owner) owner. */
		fchmod(fd, st.st_mode & 07777);
		if (st.st_uid != geteuid() || st.st_gid != getegid())
			if (fchown(fd, st.st_uid, st.st_gid))
				(void)!fchown(fd, (uid_t)-1, st.st_gid);
		fchmod(fd, st.st_mode & 07777); /* chown may clear set-id bits */
	} else {
		/* mkstemp creates 0600; a new file follows the umask. */
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int e = errno;

		close(fd);
		unlink(af->tmp_path);
		return open_fail(af, path, "cannot open", e, err);
	}
	return GP_OK;
}

static void atomic_free(gp_atomic_file *af)
{
	free(af->path);
	free(af->tmp_path);
	free(af->target);
	memset(af, 0, sizeof(*af));
}

/* fsync a directory so that a rename in it survives a crash; file
 * systems that cannot sync a directory (EINVAL) are fine. */
static int sync_dir(const char *file)
{
	char *dir = dir_of(file);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	free(dir);
	if (fd < 0)
		return 0;
	if (fsync(fd) && errno != EINVAL && errno != EROFS)
		rc = -1;
	close(fd);
	return rc;
}

int gp_write_error(gp_error *err, const char *path, int e)
{
	if (e == ENOSPC || e == EDQUOT)
		return gp_error_set(err, GP_EIO, path, 0, 0,
				    "cannot write: the file system is full (%s); no output was "
				    "replaced", strerror(e));
	return gp_error_set(err, GP_EIO, path, 0, 0, "cannot write: %s", strerror(e ? e : EIO));
}

/* Everything that can fail for want of room (the data, fsync, close),
 * before any rename: errno-like code, 0 when done. */
static int finish(gp_atomic_file *af)
{
	int e = 0;

	if (fflush(af->fp) || ferror(af->fp))
		e = errno ? errno : EIO;
	if (af->mode == MODE_STDOUT) {
		af->fp = NULL;
		return e;
	}
	if (!e && af->mode == MODE_RENAME && fsync(fileno(af->fp)))
		e = errno;
	if (fclose(af->fp) && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	return e;
}

int gp_atomic_flush(gp_atomic_file *af, gp_error *err)
{
	int e;

	if (af->flushed || af->mode == MODE_STDOUT)
		return GP_OK;
	if (!af->fp)
		return gp_error_set(err, GP_EIO, af->path, 0, 0, "not open");
	e = finish(af);
	af->flushed = 1;
	if (e) {
		if (af->mode == MODE_RENAME)
			unlink(af->tmp_path);
		gp_write_error(err, af->path, e);
		atomic_free(af);
		return GP_EIO;
	}
	return GP_OK;
}

int gp_atomic_commit(gp_atomic_file *af, gp_error *err)
{
	int e = 0;

	if (!af->fp && !af->flushed)
		return gp_error_set(err, GP_EIO, af->path, 0, 0, "not open");
	if (!af->flushed)
		e = finish(af);
	if (af->mode == MODE_STDOUT) {
		if (e)
			gp_write_error(err, "-", e);
		atomic_free(af);
		return e ? GP_EIO : GP_OK;
	}
	if (!e && af->mode == MODE_RENAME) {
		if (rename(af->tmp_path, af->target))
			e = errno;
		else if (sync_dir(af->target))
			e = errno;
	}
	if (e) {
		if (af->mode == MODE_RENAME)
			unlink(af->tmp_path);
		gp_write_error(err, af->path, e);
		atomic_free(af);
		return GP_EIO;
	}
	atomic_free(af);
	return GP_OK;
}

void gp_atomic_abort(gp_atomic_file *af)
{
	if (!af || !af->path)
		return;
	if (af->fp && af->mode != MODE_STDOUT)
		fclose(af->fp);
	if (af->mode == MODE_RENAME && af->tmp_path)
		unlink(af->tmp_path);
	atomic_free(af);
}

/* ---- output sets ----
 *
 * A set of files replaced all or nothing, also under kill -9, when its
 * files lie in several folders (--json FILE, --csv DIR, ...).  Every
 * temporary file is complete and synced before anything is renamed, so
 * a set can always be rolled forward.  The journal lists every
 * (temporary, final) pair and every copy of itself; a copy goes into
 * each folder that holds a temporary file of the set, as
 * ".gpuplan-set-PID-TAG" (written as "....part", synced, renamed), the
 * first folder's copy last: its appearance is the commit point.  Then
 * the renames, then the copies are removed, the first folder's last.
 *
 * Recovery (clean_stale, on every gp_atomic_open in a folder) finds a
 * copy of a writer that no longer runs: when the first folder's copy
 * exists, the set was committed and is rolled forward (every temporary
 * file still there is renamed over its final name); when it does not,
 * no rename had begun and the copy is dropped (its temporary files then
 * go as any killed writer's).  Any folder with a temporary file of the
 * set has a copy once the set is committed, so a temporary file is
 * never removed while a journal still needs it. */

#define SET_MAGIC "gpuplan output set 1"
#define SET_MAX_BYTES (64u << 20)

void (*gp_atomic_set_step)(void);

static void set_step(void)
{
	if (gp_atomic_set_step)
		gp_atomic_set_step();
}

/* A journal: NUL-terminated fields: magic, the first folder's copy,
 * then "J" copy ... and "R" temporary final ..., then "end". */
typedef struct set_journal {
	char *buf;
	char *first;
	char **copies, **tmp, **final;
	int ncopies, npairs;
} set_journal;

static void journal_release(set_journal *j)
{
	free(j->buf);
	free(j->copies);
	free(j->tmp);
	free(j->final);
	memset(j, 0, sizeof(*j));
}

/* path names a journal copy: ".../.gpuplan-set-PID-TAG" */
static int is_copy_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && name_pid(b + 1, SET_TAG) && !strchr(b + 1, '/');
}

/* tmp is a temporary file of final: "DIR/.BASE.gptmp-..." for final
 * "DIR/BASE", both absolute */
static int is_tmp_of(const char *tmp, const char *final)
{
	const char *fb = strrchr(final, '/');
	size_t dl, bl;

	if (tmp[0] != '/' || !fb)
		return 0;
	dl = (size_t)(fb - final) + 1;
	bl = strlen(fb + 1);
	return bl && !strncmp(tmp, final, dl) && tmp[dl] == '.' && !strncmp(tmp + dl + 1, fb + 1, bl) &&
	       !strncmp(tmp + dl + 1 + bl, TMP_TAG, 7) && !strchr(tmp + dl, '/');
}

/* The NUL-terminated field at *at of buf, or NULL past the end. */
static char *field(char *buf, size_t len, size_t *at)
{
	char *f = buf + *at;

	if (*at >= len || !memchr(f, 0, len - *at))
		return NULL;
	*at += strlen(f) + 1;
	return f;
}

static void push(char ***v, int n, char *s)
{
	*v = gp_xrealloc(*v, (size_t)(n + 1) * sizeof(**v));
	(*v)[n] = s;
}

/* Parse a journal read whole into j (which then owns buf); -1 when it
 * is not one. */
static int journal_parse(set_journal *j, char *buf, size_t len)
{
	size_t at = 0;
	char *f;

	memset(j, 0, sizeof(*j));
	j->buf = buf;
	f = field(buf, len, &at);
	if (!f || strcmp(f, SET_MAGIC) || !(j->first = field(buf, len, &at)) ||
	    !is_copy_name(j->first))
		return -1;
	while ((f = field(buf, len, &at)) && strcmp(f, "end")) {
		char *a = field(buf, len, &at), *b;

		if (!a)
			return -1;
		if (!strcmp(f, "J") && is_copy_name(a)) {
			push(&j->copies, j->ncopies++, a);
			continue;
		}
		b = field(buf, len, &at);
		if (strcmp(f, "R") || !b || !is_tmp_of(a, b))
			return -1;
		push(&j->tmp, j->npairs, a);
		push(&j->final, j->npairs++, b);
	}
	return f && at == len ? 0 : -1;
}

/* A journal's bytes: only this user's own (one planted in a shared
 * folder by another user must not rename anything). */
static char *read_journal(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char *buf = NULL;
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    st.st_size > 0 && (size_t)st.st_size <= SET_MAX_BYTES) {
		*len = (size_t)st.st_size;
		buf = gp_xmalloc(*len);
		if (gp_read_all(fd, buf, *len)) {
			free(buf);
			buf = NULL;
		}
	}
	close(fd);
	return buf;
}

/* Roll forward (or drop) the journal at path of a writer that is gone:
 * 1 when a committed set could not be completed (its journal and
 * temporary files stay for the next try), else 0. */
static int set_recover(const char *path)
{
	set_journal j;
	size_t len;
	char *buf = read_journal(path, &len);
	int i, failed = 0;

	if (!buf)
		return 0;
	if (journal_parse(&j, buf, len)) {
		journal_release(&j);
		return 0;
	}
	if (access(j.first, F_OK) != 0 && errno == ENOENT) {
		/* not committed: no rename had begun, and none will */
		unlink(path);
		journal_release(&j);
		return 0;
	}
	for (i = 0; i < j.npairs; i++)
		if (own_file(j.tmp[i]) && rename(j.tmp[i], j.final[i]) != 0 && errno != ENOENT)
			failed = 1;
	for (i = 0; i < j.npairs; i++)
		sync_dir(j.final[i]);
	if (!failed) {
		/* the first folder's copy last: while it exists, the set
		 * counts as committed */
		for (i = 0; i < j.ncopies; i++)
			if (strcmp(j.copies[i], j.first))
				unlink(j.copies[i]);
		unlink(j.first);
	}
	journal_release(&j);
	return failed;
}

/* The absolute form of a file's folder and its name, for a journal that
 * a process with another working directory may read. */
static char *abs_in_dir(const char *absdir, const char *file)
{
	const char *slash = strrchr(file, '/');

	return gp_xasprintf("%s/%s", strcmp(absdir, "/") ? absdir : "", slash ? slash + 1 : file);
}

static void add_field(gp_sbuf *sb, const char *s)
{
	gp_sbuf_add(sb, s, strlen(s) + 1);
}

/* Write journal body into every folder's copy (the first folder's last);
 * on failure the copies made are removed and errno says why. */
static int journal_write(const gp_sbuf *body, char *const *copies, int ncopies)
{
	int i, k;

	for (k = 0; k < ncopies; k++) {
		const char *c = copies[(k + 1) % ncopies]; /* copies[0] last */
		char *part = gp_xasprintf("%s.part", c);
		int fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		int e = 0;

		if (fd < 0)
			e = errno;
		else if (gp_write_all(fd, body->buf, body->len) || fsync(fd))
			e = errno ? errno : EIO;
		if (fd >= 0 && close(fd) && !e)
			e = errno;
		if (!e) {
			set_step();
			if (rename(part, c) || sync_dir(c))
				e = errno;
		}
		if (e) {
			unlink(part);
			free(part);
			for (i = 0; i < k; i++)
				unlink(copies[(i + 1) % ncopies]);
			errno = e;
			return -1;
		}
		free(part);
	}
	return 0;
}

/* Every file of the set settled: after a failure before the commit
 * point all are aborted (their temporary files removed); after the
 * commit point the renamed ones are done, and a temporary file that
 * could not be renamed stays for the journal. */
static int set_finish(gp_atomic_file *af, int n, int rc, int committed, gp_error *err)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!af[i].path)
			continue;
		if (af[i].mode == MODE_RENAME && committed)
			atomic_free(&af[i]);
		else if (rc == GP_OK && af[i].mode != MODE_RENAME)
			rc = gp_atomic_commit(&af[i], err); /* stdout or in place */
		else
			gp_atomic_abort(&af[i]);
	}
	return rc;
}

int gp_atomic_commit_set(gp_atomic_file *af, int n, gp_error *err)
{
	char **dirs = NULL, **copies = NULL, tag[48];
	int *ix = gp_xcalloc((size_t)(n ? n : 1), sizeof(*ix));
	int i, k, ndirs = 0, renames = 0, rc = GP_OK, e = 0;
	const char *bad = NULL;
	struct timespec now;
	gp_sbuf body;

	for (i = 0; i < n; i++)
		renames += af[i].mode == MODE_RENAME;
	for (i = 0; i < n && rc == GP_OK; i++)
		if (gp_atomic_flush(&af[i], err))
			rc = GP_EIO;
	if (renames < 2 || rc != GP_OK) {
		/* one rename is all or nothing by itself */
		free(ix);
		for (i = 0; i < n; i++) {
			if (rc == GP_OK && gp_atomic_commit(&af[i], err))
				rc = GP_EIO;
			else if (rc != GP_OK)
				gp_atomic_abort(&af[i]);
		}
		return rc;
	}
	/* every folder of the set once, absolute, in order of first use */
	for (i = 0; i < n && rc == GP_OK; i++) {
		char *d, *r;

		if (af[i].mode != MODE_RENAME)
			continue;
		d = dir_of(af[i].tmp_path);
		r = realpath(d, NULL);
		free(d);
		if (!r) {
			rc = gp_error_set(err, GP_EIO, af[i].path, 0, 0, "cannot resolve its folder: %s",
					  strerror(errno));
			break;
		}
		for (k = 0; k < ndirs && strcmp(dirs[k], r); k++)
			;
		ix[i] = k;
		if (k < ndirs) {
			free(r);
			continue;
		}
		dirs = gp_xrealloc(dirs, (size_t)(ndirs + 1) * sizeof(*dirs));
		dirs[ndirs++] = r;
	}
	if (rc != GP_OK)
		goto out;
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(tag, sizeof(tag), SET_TAG "%ld-%lx%09ld", (long)getpid(), (unsigned long)now.tv_sec,
		 (long)now.tv_nsec);
	copies = gp_xcalloc((size_t)ndirs, sizeof(*copies));
	for (k = 0; k < ndirs; k++)
		copies[k] = abs_in_dir(dirs[k], tag);
	gp_sbuf_init(&body);
	add_field(&body, SET_MAGIC);
	add_field(&body, copies[0]);
	for (k = 0; k < ndirs; k++) {
		add_field(&body, "J");
		add_field(&body, copies[k]);
	}
	for (i = 0; i < n; i++) {
		char *t, *f;

		if (af[i].mode != MODE_RENAME)
			continue;
		t = abs_in_dir(dirs[ix[i]], af[i].tmp_path);
		f = abs_in_dir(dirs[ix[i]], af[i].target);
		add_field(&body, "R");
		add_field(&body, t);
		add_field(&body, f);
		free(t);
		free(f);
	}
	add_field(&body, "end");
	k = journal_write(&body, copies, ndirs);
	gp_sbuf_release(&body);
	if (k) {
		rc = gp_write_error(err, af[0].path, errno);
		goto out;
	}
	/* committed: from here on the set is rolled forward, by this
	 * process or by the next writer into one of its folders */
	for (i = 0; i < n; i++) {
		if (af[i].mode != MODE_RENAME)
			continue;
		set_step();
		if (rename(af[i].tmp_path, af[i].target) && !e) {
			e = errno;
			bad = af[i].path;
		}
	}
	for (k = 0; k < ndirs && !e; k++)
		if (sync_dir(copies[k]))
			e = errno;
	if (e) {
		/* the journals stay: a later writer completes the set */
		rc = gp_error_set(err, GP_EIO, bad ? bad : af[0].path, 0, 0,
				  "cannot replace: %s; the rest of the output set is written by the "
				  "next gpuplan that writes into its folder", strerror(e));
	} else {
		/* the first folder's copy last, as in recovery */
		for (k = 1; k <= ndirs; k++) {
			set_step();
			unlink(copies[k % ndirs]);
		}
	}
	rc = set_finish(af, n, rc, 1, err);
	goto done;
out:
	rc = set_finish(af, n, rc, 0, err);
done:
	for (k = 0; k < ndirs; k++) {
		free(dirs[k]);
		if (copies)
			free(copies[k]);
	}
	free(dirs);
	free(copies);
	free(ix);
	return rc;
}

/* ---- locks ---- */

int gp_lock_file(const char *path, double timeout_s, gp_lock *lk, gp_error *err)
{
	struct timespec start, now, nap;
	long wait_ns = 1000000;

	lk->fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct stat a, b;
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return gp_error_set(err, errno == ENOENT ? GP_EINPUT : GP_EIO, path, 0, 0,
					    "cannot open: %s", strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			/* A writer may have renamed a new file over path while we
			 * waited: the lock must be on the file path names now. */
			if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				lk->fd = fd;
				return GP_OK;
			}
			close(fd);
			continue;
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;

			close(fd);
			return gp_error_set(err, GP_EIO, path, 0, 0, "cannot lock: %s", strerror(e));
		}
		close(fd);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 >
		    timeout_s)
			return gp_error_set(err, GP_EIO, path, 0, 0,
					    "still locked by another gpuplan after %g s", timeout_s);
		nap.tv_sec = 0;
		nap.tv_nsec = wait_ns;
		nanosleep(&nap, NULL);
		if (wait_ns < 20000000)
			wait_ns += wait_ns / 2;
	}
}

int gp_lock_read(const gp_lock *lk, const char *path, size_t max_bytes, char **data,
		 size_t *len, gp_error *err)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;

	for (;;) {
		ssize_t got;

		GP_GROW(buf, cap, n + 65536 + 1);
		got = pread(lk->fd, buf + n, cap - n - 1, (off_t)n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return gp_error_set(err, GP_EIO, path, 0, 0, "read error: %s", strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max_bytes) {
			free(buf);
			return gp_error_set(err, GP_EINPUT, path, 0, 0,
					    "file is larger than the %zu-byte limit", max_bytes);
		}
	}
	buf[n] = '\0';
	if (gp_text_take(buf, &n, path, err)) {
		free(buf);
		return GP_EINPUT;
	}
	*data = buf;
	*len = n;
	return GP_OK;
}

void gp_unlock_file(gp_lock *lk)
{
	if (!lk || lk->fd < 0)
		return;
	close(lk->fd); /* releases the flock */
	lk->fd = -1;
}

/* ---- the read-modify-write transaction ---- */

int gp_txn_begin(gp_txn *t, const char *path, int create, double timeout_s, size_t max_bytes,
		 char **data, size_t *len, gp_error *err)
{
	struct stat st;
	int rc;

	memset(t, 0, sizeof(*t));
	t->lk.fd = -1;
	if (create && stat(path, &st) != 0 && errno == ENOENT) {
		/* No O_EXCL: through a dangling link (the user's: another's is
		 * refused) it creates the target, and of two creators racing the
		 * second just opens the first's file. */
		char *target = resolve_links(path, err);
		int fd;

		if (!target)
			return GP_EIO;
		fd = open(target, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
		free(target);
		if (fd < 0)
			return gp_error_set(err, GP_EIO, path, 0, 0, "cannot create: %s",
					    strerror(errno));
		close(fd);
		t->created = 1;
	}
	if ((rc = gp_lock_file(path, timeout_s, &t->lk, err)))
		return rc;
	if (data && (rc = gp_lock_read(&t->lk, path, max_bytes, data, len, err))) {
		gp_unlock_file(&t->lk);
		return rc;
	}
	t->path = gp_xstrdup(path);
	return GP_OK;
}

int gp_txn_commit(gp_txn *t, int (*write)(FILE *fp, void *ud), void *ud, gp_error *err)
{
	gp_atomic_file af;
	int rc;

	if ((rc = gp_atomic_open(&af, t->path, err)) == GP_OK) {
		errno = 0;
		if (write(af.fp, ud) || ferror(af.fp)) {
			int e = errno;

			gp_atomic_abort(&af);
			rc = gp_write_error(err, t->path, e);
		} else {
			rc = gp_atomic_commit(&af, err);
		}
	}
	gp_txn_abort(t);
	return rc;
}

void gp_txn_abort(gp_txn *t)
{
	if (!t || !t->path) /* never begun, or over (a zeroed struct is neither) */
		return;
	gp_unlock_file(&t->lk);
	free(t->path);
	t->path = NULL;
}

int gp_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int gp_read_all(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t k = read(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}
