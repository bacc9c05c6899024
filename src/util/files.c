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

/* Remove temporary files that killed writers left beside base: named
 * ".BASE.gptmp-PID-XXXXXX", PID no longer running on this host.  A live
 * writer's file (or one of another user's process) is left alone. */
static void clean_stale(const char *dir, const char *base)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t bl = strlen(base);

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		char *end, *full;
		long pid;

		if (n[0] != '.' || strncmp(n + 1, base, bl) || strncmp(n + 1 + bl, TMP_TAG, 7))
			continue;
		errno = 0;
		pid = strtol(n + 1 + bl + 7, &end, 10);
		if (errno || pid <= 0 || *end != '-' || strlen(end + 1) != 6)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		full = gp_xasprintf("%s/%s", dir, n);
		unlink(full);
		free(full);
	}
	closedir(d);
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
	clean_stale(dir, base);
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
