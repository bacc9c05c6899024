/* Helpers shared by the cmd_*.c files: error rendering, data paths. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gpuplan/report/report.h"
#include "gpuplan/util/util.h"

#ifndef GP_DATADIR
#define GP_DATADIR "/usr/local/share/gpuplan"
#endif

int gp_cli_report(const gp_error *err)
{
	char buf[1200];

	fprintf(stderr, "gpuplan: %s\n", gp_error_format(err, buf, sizeof(buf)));
	return err->status ? err->status : GP_EIO;
}

int gp_cli_fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("gpuplan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int gp_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuplan %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'gpuplan help %s'\n", cmd);
	return GP_EUSAGE;
}

static int is_dir_with(const char *dir, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return access(path, R_OK) == 0;
}

const char *gp_cli_datadir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("GPUPLAN_DATADIR");
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	/* Running from the source tree: ./gpuplan next to topologies/. */
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 16);
	if (n > 0) {
		dir[n] = '\0';
		slash = strrchr(dir, '/');
		if (slash) {
			strcpy(slash, "/topologies");
			if (is_dir_with(dir, "example-cluster.yaml"))
				return dir;
		}
	}
	snprintf(dir, sizeof(dir), "%s", GP_DATADIR);
	return dir;
}

const char *gp_cli_default_cluster(void)
{
	static char path[PATH_MAX];

	if (!path[0]) {
		snprintf(path, sizeof(path), "%s/example-cluster.yaml",
			 gp_cli_datadir());
		/* a forgotten -c must not pass unnoticed */
		fprintf(stderr, "gpuplan: no -c CLUSTER: using the %s\n", GP_BUNDLED_CLUSTER_LABEL);
	}
	return path;
}

void gp_cli_gpus_by_model_text(const gp_cluster *c, gp_sbuf *out)
{
	int *counts = gp_xcalloc((size_t)c->catalog.n + 1, sizeof(int));
	int printed = 0, best, m;

	gp_cluster_gpus_by_model(c, counts);
	for (;;) {
		best = -1;
		for (m = 0; m <= c->catalog.n; m++)
			if (counts[m] > 0 && (best < 0 || counts[m] > counts[best]))
				best = m;
		if (best < 0)
			break;
		gp_sbuf_addf(out, "%s%d %s", printed++ ? ", " : "", counts[best],
			     best < c->catalog.n ? c->catalog.models[best].name : "unknown model");
		counts[best] = 0;
	}
	free(counts);
}

int gp_cli_csv_dir(const char *cmd, const char *arg)
{
	static const char *const switches[] = { "on", "off", "yes", "no", "true", "false", NULL };
	const char *const *s;

	for (s = switches; *s; s++)
		if (!strcmp(arg, *s))
			return gp_cli_usage_error(cmd, "--csv wants a folder, and '%s' reads like a switch "
						  "(for a folder of that name write './%s')", arg, arg);
	return GP_OK;
}

int gp_cli_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}

static double meter_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void gp_cli_meter_start(gp_cli_meter *m, const char *cmd)
{
	memset(m, 0, sizeof(*m));
	m->cmd = cmd;
	m->tty = gp_cli_stderr_is_tty();
	m->t0 = meter_now();
	m->last = -1e300;
}

void gp_cli_meter_show(gp_cli_meter *m, size_t done, size_t total, const char *text)
{
	double t = meter_now(), el = t - m->t0;
	char e[32], eta[32];
	int last = done >= total;

	if (!last && t - m->last < (m->tty ? 0.25 : GP_METER_EVERY))
		return;
	m->last = t;
	gp_report_duration(e, sizeof(e), el);
	eta[0] = 0;
	if (done && !last)
		gp_report_duration(eta, sizeof(eta), el / (double)done * (double)(total - done));
	fprintf(stderr, "%s%s: %s (%.0f %%), %s elapsed%s%s%s", m->tty ? "\r" : "", m->cmd, text,
		total ? 100.0 * (double)done / (double)total : 100.0, e, eta[0] ? ", ETA " : "", eta,
		m->tty ? "   " : "\n");
	fflush(stderr);
	m->drawn = 1;
}

void gp_cli_meter_end(gp_cli_meter *m)
{
	if (m->tty && m->drawn)
		fputs("\n", stderr);
	m->drawn = 0;
}

static void outset_grow(gp_cli_outset *o)
{
	if (o->n < o->cap)
		return;
	o->cap = o->cap ? 2 * o->cap : 8;
	o->paths = gp_xrealloc(o->paths, (size_t)o->cap * sizeof(*o->paths));
	o->data = gp_xrealloc(o->data, (size_t)o->cap * sizeof(*o->data));
	o->len = gp_xrealloc(o->len, (size_t)o->cap * sizeof(*o->len));
	o->fp = gp_xrealloc(o->fp, (size_t)o->cap * sizeof(*o->fp));
}

void gp_cli_outset_take(gp_cli_outset *o, const char *path, gp_sbuf *sb)
{
	outset_grow(o);
	o->paths[o->n] = gp_xstrdup(path);
	o->len[o->n] = sb->len;
	o->data[o->n] = gp_sbuf_detach(sb);
	o->fp[o->n++] = NULL;
}

FILE *gp_cli_outset_add(gp_cli_outset *o, const char *path)
{
	FILE *fp;

	outset_grow(o);
	o->data[o->n] = NULL;
	o->len[o->n] = 0;
	fp = open_memstream(&o->data[o->n], &o->len[o->n]);
	if (!fp) {
		gp_cli_fail(GP_EIO, "%s: cannot buffer output: %s", path, strerror(errno));
		return NULL;
	}
	o->paths[o->n] = gp_xstrdup(path);
	o->fp[o->n++] = fp;
	return fp;
}

int gp_cli_outset_commit(gp_cli_outset *o)
{
	int i, rc = GP_OK;

	for (i = 0; i < o->n; i++) {
		if (!o->fp[i])
			continue;
		if (ferror(o->fp[i]))
			rc = gp_cli_fail(GP_EIO, "%s: cannot render output", o->paths[i]);
		if (fclose(o->fp[i]) && rc == GP_OK)
			rc = gp_cli_fail(GP_EIO, "%s: cannot render output", o->paths[i]);
		o->fp[i] = NULL;
	}
	if (rc == GP_OK)
		rc = gp_cli_write_files(o->paths, o->data, o->len, o->n);
	gp_cli_outset_release(o);
	return rc;
}

void gp_cli_outset_release(gp_cli_outset *o)
{
	int i;

	if (!o)
		return;
	for (i = 0; i < o->n; i++) {
		if (o->fp[i])
			fclose(o->fp[i]);
		free(o->data[i]);
		free(o->paths[i]);
	}
	free(o->paths);
	free(o->data);
	free(o->len);
	free(o->fp);
	memset(o, 0, sizeof(*o));
}

/* GPUPLAN_TEST_KILL_AT=K (tests only): the process kills itself
 * (SIGKILL) at step K of an output set's commit (tests/stress/output-kill.sh). */
static long kill_at = -1, steps;

static void test_step(void)
{
	if (steps++ == kill_at)
		raise(SIGKILL);
}

int gp_cli_not_input(const char *path)
{
	if (strcmp(path, "-") && gp_file_was_read(path))
		return gp_cli_fail(GP_EUSAGE, "%s: is an input of this run; an output "
				   "would replace it (give another output path)", path);
	return GP_OK;
}

int gp_cli_write_files(char *const *paths, char *const *data, const size_t *len, int n)
{
	gp_atomic_file *af = gp_xcalloc((size_t)(n ? n : 1), sizeof(*af));
	gp_error err = GP_ERROR_INIT;
	int i, j, opened = 0, rc = GP_OK;

	/* Refused before anything is written: an output that would replace
	 * a file this run read, or two outputs of one set on one file (the
	 * second would silently replace the first). */
	for (i = 0; i < n; i++) {
		if (!strcmp(paths[i], "-"))
			continue;
		if (gp_cli_not_input(paths[i])) {
			free(af);
			return GP_EUSAGE;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(paths[i], paths[j])) {
				free(af);
				return gp_cli_fail(GP_EUSAGE, "%s: named for two outputs; "
						   "give each its own path", paths[i]);
			}
	}
	for (i = 0; i < n && rc == GP_OK; i++) {
		if (gp_atomic_open(&af[i], paths[i], &err)) {
			rc = gp_cli_report(&err);
			break;
		}
		opened++;
		if (len[i] && fwrite(data[i], 1, len[i], af[i].fp) != len[i]) {
			gp_write_error(&err, paths[i], errno);
			rc = gp_cli_report(&err);
		}
	}
	if (rc != GP_OK) {
		for (i = 0; i < opened; i++)
			gp_atomic_abort(&af[i]);
		free(af);
		return rc;
	}
	/* every file written out and synced before the first rename (a full
	 * file system fails the set, not its second half), and a journal
	 * that completes the set when the run is killed during the renames */
	if (getenv("GPUPLAN_TEST_KILL_AT")) {
		if (gp_parse_long(getenv("GPUPLAN_TEST_KILL_AT"), 0, 1000000, &kill_at) == 0)
			gp_atomic_set_step = test_step;
	}
	if (gp_atomic_commit_set(af, n, &err))
		rc = gp_cli_report(&err);
	free(af);
	return rc;
}

int gp_cli_old_mode(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) &&
		    (argv[i][n + 2] == '\0' || argv[i][n + 2] == '='))
			return 1;
	return 0;
}

long gp_cli_parse_seeds(const char *spec, unsigned long long *out, long cap)
{
	char *copy = gp_xstrdup(spec), *tok, *save = NULL;
	long n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok + 1, '-');
		long a, b, k;

		if (dash)
			*dash = '\0';
		if (gp_parse_long(tok, 0, 2147483647L, &a) ||
		    (dash && gp_parse_long(dash + 1, 0, 2147483647L, &b)))
			goto bad;
		if (!dash)
			b = a;
		if (b < a || b - a >= cap - n)
			goto bad;
		for (k = a; k <= b; k++)
			out[n++] = (unsigned long long)k;
	}
	free(copy);
	return n ? n : -1;
bad:
	free(copy);
	return -1;
}

int gp_cli_check_job_models(const gp_cluster *c, const gp_job *j, const char *file)
{
	char bad[96], hint[96], where[64] = "", mean[128] = "";

	if (!gp_job_unknown_model(j, &c->catalog, bad, sizeof(bad), hint, sizeof(hint)))
		return GP_OK;
	if (j->line > 0)
		snprintf(where, sizeof(where), ":%lld:1", (long long)j->line);
	if (hint[0])
		snprintf(mean, sizeof(mean), " (did you mean '%s'?)", hint);
	return gp_cli_fail(GP_EINPUT, "%s%s: job '%s': gpu_model '%s' is not a GPU model of %s%s%s%s",
			   file, where, j->id, bad, c->name ? "cluster '" : "the cluster",
			   c->name ? c->name : "", c->name ? "'" : "", mean);
}

/* Folders gp_cli_make_dirs made, newest last: removed at exit when they
 * are still empty (a run that failed leaves no empty output folder; one
 * that wrote into them keeps them, as rmdir takes only an empty one). */
static char **made_dirs;
static size_t nmade;

static void remove_empty_made_dirs(void)
{
	while (nmade) {
		nmade--;
		(void)rmdir(made_dirs[nmade]);
		free(made_dirs[nmade]);
	}
	free(made_dirs);
	made_dirs = NULL;
}

int gp_cli_make_dirs(const char *dir)
{
	struct stat st;
	char *p = gp_xstrdup(dir), *s;
	int rc = GP_OK;

	/* Each prefix ending before a '/', then the whole path. */
	for (s = p + 1; rc == GP_OK; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) == 0) {
			if (!made_dirs)
				atexit(remove_empty_made_dirs);
			made_dirs = gp_xrealloc(made_dirs, (nmade + 1) * sizeof(*made_dirs));
			made_dirs[nmade++] = gp_xstrdup(p);
		} else if (!(errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode))) {
			rc = gp_cli_fail(GP_EIO, "%s: cannot create directory: %s", p,
					 errno == EEXIST ? "a file is in the way" : strerror(errno));
		}
		*s = c;
		if (c == '\0')
			break;
	}
	if (rc == GP_OK && access(dir, W_OK | X_OK) != 0)
		rc = gp_cli_fail(GP_EIO, "%s: directory is not writable: %s", dir, strerror(errno));
	free(p);
	return rc;
}

int gp_cli_make_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int rc;

	if (!strcmp(path, "-") || !slash || slash == path)
		return GP_OK;
	dir = gp_xstrndup(path, (size_t)(slash - path));
	rc = gp_cli_make_dirs(dir);
	free(dir);
	return rc;
}

void gp_cli_memory_setup(void)
{
#ifdef M_MMAP_THRESHOLD
	/* Big blocks (a trace's job array, a YAML file's child lists) are
	 * mapped and given back, and grow by remapping: glibc's moving
	 * threshold would put them on the heap once a big block was freed,
	 * where growing copies them and leaves the old copy resident (peak
	 * RSS of a job file 14.5x -> 12.7x its size). */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
