/* gpuplan whatif: capacity planning sweeps over a spec's axes, in worker
 * processes, resumable from SQLite, sliced for Slurm (or any batch
 * system), with the cheapest configuration that meets an SLO. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/report/report.h"
#include "gpuplan/util/util.h"
#include "gpuplan/whatif/answer.h"
#include "gpuplan/whatif/spec.h"
#include "gpuplan/whatif/store.h"
#include "gpuplan/whatif/sweep.h"

#define MAX_WORKERS 256
#define MAX_SBATCH_OPTS 32

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct sweep {
	const gp_whatif_spec *spec;
	const gp_cluster *base;
	gp_whatif_results rs;
	gp_whatif_store *db;
	char fingerprint[17];
	int status;             /* first store error */
	gp_error err;
	/* progress */
	int show;               /* 0 none, 1 terminal, 2 plain lines */
	size_t done, total;     /* runs of this invocation */
	double t0, last_draw;
} sweep;

static void draw(sweep *w, int final)
{
	double t = now(), el = t - w->t0;
	char eta[32] = "", elapsed[32];

	if (!w->show || !w->total)
		return;
	/* without a terminal: one line at most every few seconds, and the last */
	if (!final && t - w->last_draw < (w->show == 2 ? GP_METER_EVERY : 0.25))
		return;
	w->last_draw = t;
	gp_report_duration(elapsed, sizeof(elapsed), el);
	if (w->done && w->done < w->total)
		gp_report_duration(eta, sizeof(eta), el / (double)w->done * (double)(w->total - w->done));
	fprintf(stderr, "%swhatif: %zu/%zu runs (%3.0f %%), %s elapsed%s%s%s", w->show == 1 ? "\r" : "",
		w->done, w->total, 100.0 * (double)w->done / (double)w->total, elapsed,
		eta[0] ? ", ETA " : "", eta, w->show == 1 ? "   " : "\n");
	if (w->show == 1 && final)
		fputs("\n", stderr);
	fflush(stderr);
}

static void on_done(void *ud, size_t run, const gp_whatif_result *res)
{
	sweep *w = ud;

	gp_whatif_results_put(&w->rs, run, res);
	if (w->db && w->status == GP_OK) {
		gp_whatif_config c;
		gp_whatif_shape sh;

		gp_whatif_config_of(w->spec, run / w->spec->nseeds, &c);
		gp_whatif_shape_of(w->spec, w->base, &c, &sh);
		w->status = gp_whatif_store_put(w->db, w->spec, w->fingerprint, GP_VERSION, run, res,
						sh.cost, &w->err);
	}
	w->done++;
	draw(w, 0);
}

/* "I/N" */
static int parse_slice(const char *s, long *i, long *n)
{
	const char *slash = strchr(s, '/');
	char a[32];

	if (!slash || (size_t)(slash - s) >= sizeof(a))
		return -1;
	snprintf(a, sizeof(a), "%.*s", (int)(slash - s), s);
	if (gp_parse_long(a, 1, 1000000, i) || gp_parse_long(slash + 1, 1, 1000000, n) || *i > *n)
		return -1;
	return 0;
}

/* Quote for sh: 'a'\''b'. */
static void sh_quote(gp_sbuf *sb, const char *s)
{
	gp_sbuf_adds(sb, "'");
	for (; *s; s++) {
		if (*s == '\'')
			gp_sbuf_adds(sb, "'\\''");
		else
			gp_sbuf_add(sb, s, 1);
	}
	gp_sbuf_adds(sb, "'");
}

static char *abs_path(const char *p)
{
	char *r = realpath(p, NULL);

	return r ? r : gp_xstrdup(p);
}

static int write_slurm(const char *spec_path, const gp_whatif_spec *s, const char *dir, long slices,
		       char **opts, int nopts)
{
	char *exe = realpath("/proc/self/exe", NULL), *spec_abs, *dir_abs, *path;
	gp_sbuf sb;
	int i, rc;

	/* a folder this run made is removed again when the script cannot
	 * be written */
	if (gp_cli_make_dirs(dir)) {
		free(exe);
		return GP_EIO;
	}
	if (slices <= 0)
		slices = s->nruns_needed < 64 ? (long)s->nruns_needed : 64;
	if (slices > (long)s->nruns_needed)
		slices = (long)s->nruns_needed;
	spec_abs = abs_path(spec_path);
	dir_abs = abs_path(dir);
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, "#!/bin/sh\n");
	gp_sbuf_adds(&sb, "#SBATCH --job-name=gpuplan-whatif\n");
	gp_sbuf_addf(&sb, "#SBATCH --array=1-%ld\n", slices);
	gp_sbuf_adds(&sb, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
	gp_sbuf_addf(&sb, "#SBATCH --output=%s/slice-%%a.log\n", dir_abs);
	for (i = 0; i < nopts; i++)
		gp_sbuf_addf(&sb, "#SBATCH %s\n", opts[i]);
	gp_sbuf_addf(&sb,
		     "# Written by 'gpuplan whatif --slurm': %zu runs of %s in %ld slices.\n"
		     "# Submit:  sbatch %s/whatif.sbatch\n"
		     "# Then:    gpuplan whatif merge %s/part-*.sqlite -o all.sqlite\n"
		     "#          gpuplan whatif %s --db all.sqlite\n"
		     "set -eu\n",
		     s->nruns_needed, spec_abs, slices, dir_abs, dir_abs, spec_abs);
	gp_sbuf_adds(&sb, "exec ");
	sh_quote(&sb, exe ? exe : "gpuplan");
	gp_sbuf_adds(&sb, " whatif ");
	sh_quote(&sb, spec_abs);
	gp_sbuf_addf(&sb, " --slice \"${SLURM_ARRAY_TASK_ID}/%ld\" -j \"${SLURM_CPUS_PER_TASK:-1}\" --quiet --db ",
		     slices);
	sh_quote(&sb, dir_abs);
	gp_sbuf_adds(&sb, "\"/part-${SLURM_ARRAY_TASK_ID}.sqlite\"\n");
	path = gp_xasprintf("%s/whatif.sbatch", dir);
	rc = gp_cli_write_files(&path, &sb.buf, &sb.len, 1);
	if (rc == GP_OK) {
		chmod(path, 0755);
		printf("wrote %s: a job array of %ld tasks over %zu runs\n"
		       "submit:  sbatch %s\n"
		       "then:    gpuplan whatif merge %s/part-*.sqlite -o all.sqlite\n"
		       "         gpuplan whatif %s --db all.sqlite\n",
		       path, slices, s->nruns_needed, path, dir, spec_path);
	}
	free(path);
	gp_sbuf_release(&sb);
	free(exe);
	free(spec_abs);
	free(dir_abs);
	return rc;
}

enum { O_DB = 1, O_SEARCH, O_SLICE, O_JSON, O_CSV, O_SVG, O_METRIC, O_MAX, O_PROGRESS, O_QUIET,
       O_SLURM, O_SLICES, O_SBOPT, O_HTML, O_OUTPUT };

static const gp_opt merge_opts[] = {
	{ .name = "output", .sc = 'o', .key = O_OUTPUT, .type = GP_OT_STR, .arg = "OUT",
	  .help = "the database the runs go to (created if absent)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_whatif_merge = {
	.name = "whatif merge", .cmd = "whatif",
	.synopsis = "DB... -o OUT",
	.min_args = 0, .max_args = -1,
	.about = "Add the runs of every DB (the parts of a sliced sweep) to OUT.\n",
	.opts = merge_opts,
};

static int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	gp_whatif_store *st;
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	size_t total_add = 0, total_dup = 0;
	int i, c, n, rc;

	gp_opt_begin(&o, &gp_desc_whatif_merge, argc, argv);
	while ((c = gp_opt_next(&o)) > 0)
		if (c == O_OUTPUT)
			out = o.arg;
	n = o.nargs;
	if (c < 0) {
		gp_opt_end(&o);
		return o.status;
	}
	if (!out) {
		gp_opt_end(&o);
		return gp_cli_usage_error("whatif", "merge: give the output database with -o OUT");
	}
	if (!n) {
		gp_opt_end(&o);
		return gp_cli_usage_error("whatif", "merge: give the databases to merge");
	}
	if (gp_whatif_store_open(out, &st, &err)) {
		gp_opt_end(&o);
		return gp_cli_report(&err);
	}
	rc = GP_OK;
	for (i = 0; i < n && rc == GP_OK; i++) {
		size_t added, dup;
		char *a, *b;

		a = abs_path(o.args[i]);
		b = abs_path(out);
		if (!strcmp(a, b)) {
			free(a);
			free(b);
			continue;
		}
		free(a);
		free(b);
		if (gp_whatif_store_merge(st, o.args[i], &added, &dup, &err))
			rc = gp_cli_report(&err);
		total_add += added;
		total_dup += dup;
	}
	gp_opt_end(&o);
	if (gp_whatif_store_close(st, &err) && rc == GP_OK)
		rc = gp_cli_report(&err);
	if (rc == GP_OK)
		printf("merged %d database%s into %s: %zu runs added, %zu already there\n", n,
		       n == 1 ? "" : "s", out, total_add, total_dup);
	return rc;
}

static int run_search(sweep *w, gp_whatif_pool *pool, const gp_whatif_dim *dim, size_t max_runs,
		      int *stopped, size_t *probed)
{
	const gp_whatif_spec *s = w->spec;
	gp_whatif_search se;
	size_t nsc = gp_whatif_nscenarios(s);
	size_t n = dim->n, nlines = gp_whatif_dim_lines(s, dim), cap, np, i, k, t;
	size_t *line, *idx, *runs;
	size_t workers = (size_t)gp_whatif_pool_workers(pool), nrun;
	int rc = GP_OK;

	gp_whatif_search_init(&se, nlines, n, gp_whatif_dim_up(s, dim));
	line = gp_xmalloc(nlines * workers * sizeof(size_t) + sizeof(size_t));
	idx = gp_xmalloc(nlines * workers * sizeof(size_t) + sizeof(size_t));
	runs = gp_xmalloc(nlines * workers * nsc * s->nseeds * sizeof(size_t) + sizeof(size_t));
	*probed = 0;
	for (;;) {
		size_t active = 0, per_line;

		for (i = 0; i < nlines; i++)
			active += se.hi[i] - se.lo[i] > 1;
		if (!active)
			break;
		per_line = workers / (active * s->nseeds * nsc);
		if (per_line < 1)
			per_line = 1;
		cap = nlines * (per_line < workers ? per_line : workers);
		np = gp_whatif_search_next(&se, per_line, cap, line, idx);
		if (!np)
			break;
		nrun = 0;
		for (i = 0; i < np; i++)
			for (t = 0; t < nsc; t++) {
				size_t cfg = gp_whatif_scenario_config(s, gp_whatif_dim_config(s, dim, line[i],
											       idx[i]), t);

				for (k = 0; k < gp_whatif_seeds_of(s, cfg); k++)
					if (!gp_whatif_results_get(&w->rs, cfg * s->nseeds + k))
						runs[nrun++] = cfg * s->nseeds + k;
			}
		if (max_runs && w->done + nrun > max_runs) {
			nrun = max_runs > w->done ? max_runs - w->done : 0;
			*stopped = 1;
		}
		w->total = w->done + nrun;
		if (nrun && (rc = gp_whatif_pool_run(pool, runs, nrun, on_done, w, &interrupted, stopped,
						     &w->err)))
			break;
		if (*stopped || w->status)
			break;
		for (i = 0; i < np; i++) {
			size_t cfg = gp_whatif_dim_config(s, dim, line[i], idx[i]);

			gp_whatif_search_set(&se, line[i], idx[i], gp_whatif_meets_all(&w->rs, cfg) == 1);
			(*probed)++;
		}
	}
	free(line);
	free(idx);
	free(runs);
	gp_whatif_search_release(&se);
	return rc;
}

/* The command line of a sweep. */
typedef struct wopts {
	const char *spec, *db_path, *csv_path, *svg_path, *slurm_dir, *html_path;
	char *sbopts[MAX_SBATCH_OPTS];
	int nsbopts, json, search, show, metric;
	long workers, slice_i, slice_n, slices;
	size_t max_runs;
} wopts;

static const gp_opt whatif_opts[] = {
	{ .name = "jobs", .sc = 'j', .key = 'j', .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = MAX_WORKERS, .what = "a number of worker processes",
	  .help = "worker processes (default: the number of CPUs)" },
	{ .name = "db", .key = O_DB, .type = GP_OT_STR, .arg = "FILE",
	  .help = "store runs in SQLite FILE; runs already there are\n"
		  "not run again (resume), the report covers them too" },
	{ .name = "search", .key = O_SEARCH, .type = GP_OT_FLAG,
	  .help = "bisect the add_nodes (else remove_nodes) counts for\n"
		  "the cheapest that meets the SLO instead of running\n"
		  "every count (meeting it must be monotone in the count);\n"
		  "else a quota.T axis for T's smallest quota that meets\n"
		  "a tenant SLO on T alone (a bound on other tenants or\n"
		  "on every job is refused: not monotone in T's quota)" },
	{ .name = "slice", .key = O_SLICE, .type = GP_OT_STR, .arg = "I/N",
	  .help = "run only slice I of N (1 <= I <= N) of the grid" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "print JSON (runs, best, slo) instead of the table" },
	{ .name = "csv", .key = O_CSV, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write one row per run to FILE" },
	{ .name = "svg", .key = O_SVG, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write a plot of the metric against the swept axis" },
	{ .name = "html", .key = O_HTML, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write one page: the answer, the plot and the table" },
	{ .name = "metric", .key = O_METRIC, .type = GP_OT_STR, .arg = "M",
	  .help = "metric shown first and plotted (default: the SLO's)" },
	{ .name = "max-runs", .key = O_MAX, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = 1e15, .help = "run at most N new runs, then stop (resume later)" },
	{ .name = "progress", .key = O_PROGRESS, .type = GP_OT_FLAG,
	  .help = "show progress (runs done, ETA) even when not a terminal" },
	{ .name = "quiet", .key = O_QUIET, .type = GP_OT_FLAG, .help = "never show progress" },
	{ .name = "slurm", .key = O_SLURM, .type = GP_OT_STR, .arg = "DIR",
	  .help = "write DIR/whatif.sbatch, a Slurm job array whose task\n"
		  "I runs --slice I/N into DIR/part-I.sqlite" },
	{ .name = "slices", .key = O_SLICES, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = 1000000, .help = "array tasks for --slurm (default: min(runs, 64))" },
	{ .name = "sbatch-option", .key = O_SBOPT, .type = GP_OT_STR, .arg = "O",
	  .help = "extra '#SBATCH O' line (repeatable), e.g. '--time=1:00:00'" },
	{ 0 },
};

static const gp_cmd_desc *const whatif_subs[] = { &gp_desc_whatif_merge, NULL };

const gp_cmd_desc gp_desc_whatif = {
	.name = "whatif",
	.synopsis = "SPEC [-j N] [--db FILE] [--search] [--slice I/N]\n"
		    "  [--json] [--csv FILE] [--svg FILE] [--metric M]\n"
		    "  [--max-runs N] [--progress | --quiet] [--html FILE]\n"
		    "SPEC --slurm DIR [--slices N] [--sbatch-option OPT]...\n"
		    "merge DB... -o OUT",
	.min_args = 1, .max_args = 1, .operands = "expected one SPEC file",
	.about = "Run the configurations of a what-if SPEC (a base cluster or a list of\n"
		 "clusters to choose from, traces, axes such as added nodes, fabric, queue\n"
		 "and policy, seeds, and an SLO) and print every configuration's metrics\n"
		 "and the cheapest one that meets the SLO in every seed.  Exit 1 when no\n"
		 "configuration meets it.\n"
		 "Axes over tenants split a fleet among teams: quota.T: [8, 16],\n"
		 "weight.T: [1, 2], split: {total: 512, tenants: [a, b], step: 64,\n"
		 "min: 64}; slo: {tenant_p90_wait: 1h} bounds every tenant's p90 queue\n"
		 "delay (or per tenant: {a: 30m, '*': 2h}).  --search with quota.T and\n"
		 "slo: {tenant_p90_wait: {T: 1h}} finds T's smallest quota that meets it,\n"
		 "and shows the quota just under it failing.  See gpuplan(1).\n",
	.opts = whatif_opts,
	.subs = whatif_subs,
};

static int whatif_opt(wopts *o, gp_opt_state *s, int c)
{
	const char *arg = s->arg;

	switch (c) {
	case 'j': o->workers = s->l; return 0;
	case O_DB: o->db_path = arg; return 0;
	case O_SEARCH: o->search = 1; return 0;
	case O_SLICE:
		if (parse_slice(arg, &o->slice_i, &o->slice_n))
			return gp_opt_bad(s, "--slice wants I/N with 1 <= I <= N, got '%s'", arg);
		return 0;
	case O_JSON: o->json = 1; return 0;
	case O_CSV: o->csv_path = arg; return 0;
	case O_SVG: o->svg_path = arg; return 0;
	case O_HTML: o->html_path = arg; return 0;
	case O_METRIC:
		o->metric = gp_metric_find(arg);
		if (o->metric < 0)
			return gp_opt_bad(s, "unknown metric '%s' (one of %s)", arg, gp_metric_names());
		return 0;
	case O_MAX: o->max_runs = (size_t)s->l; return 0;
	case O_PROGRESS: o->show = 1; return 0;
	case O_QUIET: o->show = 0; return 0;
	case O_SLURM: o->slurm_dir = arg; return 0;
	case O_SLICES: o->slices = s->l; return 0;
	case O_SBOPT:
		if (o->nsbopts >= MAX_SBATCH_OPTS)
			return gp_opt_bad(s, "at most %d --sbatch-option", MAX_SBATCH_OPTS);
		if (strchr(arg, '\n'))
			return gp_opt_bad(s, "--sbatch-option must be one line");
		o->sbopts[o->nsbopts++] = (char *)arg;
		return 0;
	}
	return 0;
}

/* > 0 an exit code, 0 go on. */
static int parse_opts(int argc, char **argv, wopts *o)
{
	gp_opt_state s;
	int c = 0, rc = 0;

	gp_opt_begin(&s, &gp_desc_whatif, argc, argv);
	while (rc == 0 && (c = gp_opt_next(&s)) > 0)
		rc = whatif_opt(o, &s, c);
	if (rc == 0 && c < 0)
		rc = s.status;
	if (rc == 0)
		o->spec = s.args[0];
	gp_opt_end(&s);
	if (rc)
		return rc;
	if (o->slice_n && o->search)
		return gp_cli_usage_error("whatif", "--search cannot be split into slices: slices run "
					  "the grid; merge them, then ask with --search --db");
	if (o->slurm_dir && (o->slice_n || o->search || o->json))
		return gp_cli_usage_error("whatif", "--slurm only writes the job script: give it "
					  "without --slice, --search and --json");
	return 0;
}

/* What a sweep did besides its results. */
typedef struct wstate {
	int stopped;
	gp_whatif_dim dim;      /* the searched one, with --search */
	size_t found, other, probed;
} wstate;

/* The runs of this invocation (all of the slice not yet in the database,
 * at most --max-runs), in worker processes; search: round by round. */
static int run_sweep(const wopts *o, const gp_whatif_spec *spec, sweep *w, wstate *st)
{
	gp_whatif_pool *pool;
	size_t *runs = NULL, i, nrun;
	long workers = o->workers;
	struct sigaction sa, old_int, old_term;
	int rc = GP_OK, st2 = 0;

	if (!o->search) {
		runs = gp_xmalloc((spec->nruns ? spec->nruns : 1) * sizeof(*runs));
		for (i = nrun = 0; i < spec->nruns; i++) {
			if (o->slice_n && (long)(i % (size_t)o->slice_n) != o->slice_i - 1)
				continue;
			if (gp_whatif_run_needed(spec, i) && !gp_whatif_results_get(&w->rs, i))
				runs[nrun++] = i;
		}
		if (o->max_runs && nrun > o->max_runs) {
			nrun = o->max_runs;
			st->stopped = 1;
		}
		w->total = nrun;
	} else {
		nrun = 1; /* decided round by round */
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (nrun) {
		if ((long)nrun < workers && !o->search)
			workers = (long)nrun;
		pool = gp_whatif_pool_new(spec, (int)workers, &w->err);
		if (!pool) {
			rc = gp_cli_report(&w->err);
		} else {
			if (o->search)
				rc = run_search(w, pool, &st->dim, o->max_runs, &st->stopped, &st->probed);
			else
				rc = gp_whatif_pool_run(pool, runs, nrun, on_done, w, &interrupted, &st2,
							&w->err);
			if (rc != GP_OK)
				rc = gp_cli_report(&w->err);
			gp_whatif_pool_free(pool);
		}
		if (st2)
			st->stopped = 1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(runs);
	return rc;
}

/* The --html page's inputs, as the text report's head names them. */
static void html_page(const wopts *o, const gp_whatif_spec *spec, const sweep *w,
		      const gp_cluster *base, long best, const wstate *st, gp_sbuf *out)
{
	const char *names[8];
	char *v[8], *title, vb[1024];
	gp_sbuf tr;
	size_t n = 0, t;
	const char *b = strrchr(o->spec, '/');

	names[n] = "what-if";
	v[n++] = gp_xstrdup(o->spec);
	gp_sbuf_init(&tr);
	for (t = 0; t < spec->nvalues[GP_AX_CLUSTER]; t++)
		gp_sbuf_addf(&tr, "%s%s (%d nodes, %d GPUs)", t ? "; " : "",
			     gp_whatif_cluster_path(spec, &(gp_whatif_config){ .v[GP_AX_CLUSTER] = t }),
			     base[t].nnodes, base[t].ngpus);
	names[n] = t > 1 ? "clusters" : "cluster";
	v[n++] = gp_sbuf_detach(&tr);
	gp_sbuf_init(&tr);
	for (t = 0; t < spec->ntraces; t++)
		gp_sbuf_addf(&tr, "%s%s", t ? "; " : "", spec->traces[t]);
	names[n] = spec->ntraces > 1 ? "traces" : "trace";
	v[n++] = gp_sbuf_detach(&tr);
	if (gp_whatif_has_slo(spec)) {
		names[n] = "SLO";
		v[n++] = gp_xasprintf("%s%s", gp_whatif_slo_text(spec, vb, sizeof(vb)),
				      spec->nseeds > 1 ? " in every seed" : "");
	}
	if (spec->scenario_named) {
		int a;

		gp_sbuf_init(&tr);
		for (a = 0; a < GP_AX_COUNT; a++)
			if (spec->scenario[a] && spec->nvalues[a] > 1)
				gp_sbuf_addf(&tr, "%s%s", tr.len ? ", " : "", gp_whatif_axis_names[a]);
		gp_sbuf_adds(&tr, " (the SLO must hold at every value)");
		names[n] = "scenario";
		v[n++] = gp_sbuf_detach(&tr);
	}
	names[n] = "runs";
	if (spec->nruns_needed < spec->nruns)
		v[n++] = gp_xasprintf("%zu configurations x %zu seeds; %zu without randomness run "
				      "once: %zu runs", spec->nconfigs, spec->nseeds,
				      spec->nconfigs - spec->nrandom, spec->nruns_needed);
	else
		v[n++] = gp_xasprintf("%zu configuration%s x %zu seed%s", spec->nconfigs,
				      spec->nconfigs == 1 ? "" : "s", spec->nseeds,
				      spec->nseeds == 1 ? "" : "s");
	/* a search runs a few of them: the table below holds those alone */
	if (o->search) {
		names[n] = "search";
		v[n++] = gp_xasprintf("%s by bisection: %zu of %zu %s probed per line",
				      gp_whatif_dim_name(spec, &st->dim),
				      st->probed / gp_whatif_dim_lines(spec, &st->dim), st->dim.n,
				      st->dim.taxis >= 0 ? "values" : "counts");
	}
	title = gp_xasprintf("gpuplan whatif: %s", b && b[1] ? b + 1 : o->spec);
	gp_whatif_answer_html(&w->rs, base, best, o->metric, title, names, (const char *const *)v, n, out);
	free(title);
	for (t = 0; t < n; t++)
		free(v[t]);
}

/* --csv, --svg and --html: all or none. */
static int write_files(const wopts *o, const gp_whatif_spec *spec, const sweep *w,
		       const gp_cluster *base, long best, const wstate *st)
{
	gp_cli_outset outs;
	FILE *fp;
	gp_sbuf sb;

	memset(&outs, 0, sizeof(outs));
	if (o->csv_path && (fp = gp_cli_outset_add(&outs, o->csv_path))) {
		gp_sbuf_init(&sb);
		gp_whatif_answer_csv(&w->rs, base, &sb);
		fwrite(sb.buf, 1, sb.len, fp);
		gp_sbuf_release(&sb);
	}
	if (o->svg_path && (fp = gp_cli_outset_add(&outs, o->svg_path))) {
		gp_sbuf_init(&sb);
		gp_whatif_answer_svg(&w->rs, best, o->metric, &sb);
		fwrite(sb.buf, 1, sb.len, fp);
		gp_sbuf_release(&sb);
	}
	if (o->html_path) {
		gp_sbuf_init(&sb);
		html_page(o, spec, w, base, best, st, &sb);
		gp_cli_outset_take(&outs, o->html_path, &sb);
	}
	return gp_cli_outset_commit(&outs);
}

/* The backfill rules (when a backfill queue is swept) and the pass
 * interval of every run; the traces decide backfill's estimates. */
static void spec_sched(const gp_whatif_spec *spec, gp_report_sched *sd)
{
	size_t q;
	int bf = 0;

	for (q = 0; q < spec->nqueues; q++)
		bf |= gp_sim_queue_parse(spec->queues[q]) == GP_SIM_BACKFILL;
	gp_cli_sched_of(&spec->run, bf, GP_REPORT_EST_PER_TRACE, sd);
	sd->backfill_of_several = spec->nqueues > 1;
}

/* The value of the searched tenant axis in configuration cfg. */
static double dim_value(const gp_whatif_spec *spec, const gp_whatif_dim *d, size_t cfg)
{
	return spec->taxes[d->taxis].values[gp_whatif_dim_index(spec, d, cfg)];
}

/* The check of a quota search's answer: it meets the SLO, the next
 * smaller value does not, both run. */
static void search_check_text(const gp_whatif_spec *spec, const sweep *w, long best,
			      const wstate *st)
{
	const char *name = gp_whatif_dim_name(spec, &st->dim);
	long below;
	int v = gp_whatif_search_verify(&w->rs, &st->dim, best, &below);

	if (best < 0)
		printf("checked  no %s listed meets the SLO (the largest, %.12g, was run)\n", name,
		       spec->taxes[st->dim.taxis].values[st->dim.n - 1]);
	else if (below < 0)
		printf("checked  %s=%.12g meets the SLO; it is the smallest listed\n", name,
		       dim_value(spec, &st->dim, (size_t)best));
	else
		printf("checked  %s=%.12g meets the SLO, %s=%.12g %s\n", name,
		       dim_value(spec, &st->dim, (size_t)best), name,
		       dim_value(spec, &st->dim, (size_t)below),
		       v > 0 ? "does not (both run)" : v == 0 ? "meets it too" : "was not run");
}

static json_t *search_check_json(const gp_whatif_spec *spec, const sweep *w, long best,
				 const wstate *st)
{
	long below;
	int v;
	json_t *o;

	if (best < 0 || st->stopped)
		return json_null();
	v = gp_whatif_search_verify(&w->rs, &st->dim, best, &below);
	o = json_object();
	json_object_set_new(o, "found", json_real(dim_value(spec, &st->dim, (size_t)best)));
	json_object_set_new(o, "below", below < 0 ? json_null() :
					json_real(dim_value(spec, &st->dim, (size_t)below)));
	json_object_set_new(o, "below_meets_slo", below < 0 || v < 0 ? json_null() : json_boolean(!v));
	return o;
}

static void print_json(const wopts *o, const gp_whatif_spec *spec, const sweep *w,
		       const gp_cluster *base, long best, const wstate *st)
{
	json_t *j = gp_whatif_answer_json(&w->rs, base, best), *sw = json_object();
	gp_report_sched sd;

	json_object_set_new(sw, "configurations", json_integer((json_int_t)spec->nconfigs));
	json_object_set_new(sw, "seeds", json_integer((json_int_t)spec->nseeds));
	json_object_set_new(sw, "runs_total", json_integer((json_int_t)spec->nruns_needed));
	json_object_set_new(sw, "configurations_random", json_integer((json_int_t)spec->nrandom));
	json_object_set_new(sw, "runs_now", json_integer((json_int_t)w->done));
	json_object_set_new(sw, "runs_from_db", json_integer((json_int_t)st->found));
	json_object_set_new(sw, "complete", json_boolean(!st->stopped));
	json_object_set_new(sw, "search", o->search ? json_string(gp_whatif_dim_name(spec, &st->dim)) :
						       json_null());
	if (o->search && st->dim.taxis >= 0)
		json_object_set_new(sw, "search_check", search_check_json(spec, w, best, st));
	json_object_set_new(j, "sweep", sw);
	spec_sched(spec, &sd);
	gp_report_sched_json(&sd, j);
	json_dumpf(j, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	fputs("\n", stdout);
	json_decref(j);
}

static void print_text(const wopts *o, const gp_whatif_spec *spec, const sweep *w,
		       const gp_cluster *base, long best, const wstate *st)
{
	gp_report_sched sd;
	gp_sbuf sb;
	size_t t;

	printf("what-if  %s\n", o->spec);
	for (t = 0; t < spec->nvalues[GP_AX_CLUSTER]; t++)
		printf("%s%s (%d nodes, %d GPUs)\n", t ? "         " : "cluster  ",
		       gp_whatif_cluster_path(spec, &(gp_whatif_config){ .v[GP_AX_CLUSTER] = t }),
		       base[t].nnodes, base[t].ngpus);
	for (t = 0; t < spec->ntraces; t++)
		printf("%s%s\n", t ? "         " : "trace    ", spec->traces[t]);
	if (spec->run.scale_ref)
		printf("scale    durations as measured on %s (model %s for jobs without one)\n",
		       spec->run.scale_ref, spec->run.scale_model ? spec->run.scale_model : "resnet50");
	spec_sched(spec, &sd);
	gp_sbuf_init(&sb);
	gp_report_sched_line(&sd, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
	if (gp_whatif_has_slo(spec)) {
		char v[1024];

		printf("slo      %s%s\n", gp_whatif_slo_text(spec, v, sizeof(v)),
		       spec->nseeds > 1 ? " in every seed" : "");
	}
	printf("runs     %zu configuration%s x %zu seed%s", spec->nconfigs, spec->nconfigs == 1 ? "" : "s",
	       spec->nseeds, spec->nseeds == 1 ? "" : "s");
	if (spec->nruns_needed < spec->nruns)
		printf(" (%zu without randomness run once: %zu runs)", spec->nconfigs - spec->nrandom,
		       spec->nruns_needed);
	printf(": %zu run now, %zu from the database\n", w->done, st->found);
	if (spec->scenario_named) {
		int a, first = 1;

		printf("scenario ");
		for (a = 0; a < GP_AX_COUNT; a++)
			if (spec->scenario[a] && spec->nvalues[a] > 1) {
				printf("%s%s", first ? "" : ", ", gp_whatif_axis_names[a]);
				first = 0;
			}
		printf(": the SLO must hold at every value (a robust choice)\n");
	}
	if (o->search)
		printf("search   %s by bisection: %zu of %zu %s probed per line\n",
		       gp_whatif_dim_name(spec, &st->dim), st->probed / gp_whatif_dim_lines(spec, &st->dim),
		       st->dim.n, st->dim.taxis >= 0 ? "values" : "counts");
	if (o->search && st->dim.taxis >= 0 && !st->stopped)
		search_check_text(spec, w, best, st);
	if (st->other)
		printf("database %zu runs of other inputs ignored (another spec, cluster or trace "
		       "file, or gpuplan version)\n", st->other);
	if (st->stopped)
		printf("stopped  after %zu new runs (--max-runs); run again to continue\n", w->done);
	printf("\n");
	gp_sbuf_init(&sb);
	gp_whatif_answer_text(&w->rs, base, best, o->metric, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	gp_sbuf_release(&sb);
}

/* Results, database, the runs, and the answer. */
static int sweep_and_answer(const wopts *o, const gp_whatif_spec *spec, const gp_cluster *base,
			    wstate *st)
{
	gp_error err = GP_ERROR_INIT;
	sweep w;
	long best;
	int rc;

	memset(&w, 0, sizeof(w));
	w.spec = spec;
	w.base = base;
	gp_whatif_results_init(&w.rs, spec);
	if (gp_whatif_fingerprint(spec, GP_VERSION, w.fingerprint, &err)) {
		rc = gp_cli_report(&err);
		goto out;
	}
	if (o->db_path && (gp_whatif_store_open(o->db_path, &w.db, &err) ||
			   gp_whatif_store_load(w.db, spec, w.fingerprint, &w.rs, &st->found, &st->other,
						&err))) {
		rc = gp_cli_report(&err);
		goto out;
	}
	w.show = o->show;
	if (w.show < 0)
		w.show = gp_cli_stderr_is_tty();
	else if (w.show == 1 && !gp_cli_stderr_is_tty())
		w.show = 2;
	w.t0 = now();
	rc = run_sweep(o, spec, &w, st);
	draw(&w, 1);
	if (w.status && rc == GP_OK)
		rc = gp_cli_report(&w.err);
	if (w.db && gp_whatif_store_close(w.db, &err) && rc == GP_OK)
		rc = gp_cli_report(&err);
	w.db = NULL;
	if (rc != GP_OK)
		goto out;
	if (interrupted) {
		fprintf(stderr, "gpuplan: whatif: interrupted after %zu new runs%s\n", w.done,
			o->db_path ? "; they are stored: run the same command to resume" : "");
		rc = 130;
		goto out;
	}
	if (o->slice_n) {
		printf("slice %ld/%ld: %zu runs done now, %zu found in the database\n", o->slice_i,
		       o->slice_n, w.done, st->found);
		goto out;
	}
	/* A stopped sweep has no answer yet: a cheaper configuration may be
	 * among the runs still to do. */
	best = st->stopped ? GP_WHATIF_BEST_UNKNOWN :
	       o->search ? gp_whatif_best_along(&w.rs, base, &st->dim) : gp_whatif_best(&w.rs, base);
	if ((rc = write_files(o, spec, &w, base, best, st)) != GP_OK)
		goto out;
	if (o->json)
		print_json(o, spec, &w, base, best, st);
	else
		print_text(o, spec, &w, base, best, st);
	rc = gp_whatif_has_slo(spec) && best < 0 && !st->stopped ? GP_NO : GP_OK;
out:
	gp_whatif_store_close(w.db, NULL);
	gp_whatif_results_release(&w.rs);
	return rc;
}

int cmd_whatif(int argc, char **argv)
{
	wopts o;
	wstate st;
	gp_whatif_spec spec;
	gp_cluster *base;       /* one per cluster of the axis */
	gp_error err = GP_ERROR_INIT;
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	memset(&o, 0, sizeof(o));
	o.show = -1;
	o.metric = -1;
	if ((rc = parse_opts(argc, argv, &o)) != 0)
		return rc;
	if (gp_whatif_spec_load(o.spec, &spec, &err))
		return gp_cli_report(&err);
	if (!spec.run.qos.models_dir)
		spec.run.qos.models_dir = gp_xstrdup(gp_cli_models_dir());
	base = gp_xcalloc(spec.nvalues[GP_AX_CLUSTER], sizeof(*base));
	if (gp_whatif_bases_load(&spec, base, &err)) {
		free(base);
		gp_whatif_spec_release(&spec);
		return gp_cli_report(&err);
	}
	memset(&st, 0, sizeof(st));
	/* Seeds that change nothing would multiply the runs for nothing. */
	if (spec.nruns_needed < spec.nruns && !spec.nrandom)
		fprintf(stderr, "gpuplan: whatif: no configuration draws a random number (no random "
			"policy, no failures drawn without failure_seed, no QoS errors): the seeds change "
			"nothing, each runs once (%zu runs instead of %zu)\n", spec.nruns_needed,
			spec.nruns);
	else if (spec.nruns_needed < spec.nruns)
		fprintf(stderr, "gpuplan: whatif: %zu of %zu configurations draw no random number (no "
			"random policy, no failures drawn without failure_seed, no QoS errors): they run "
			"their first seed only (%zu runs instead of %zu)\n",
			spec.nconfigs - spec.nrandom, spec.nconfigs, spec.nruns_needed, spec.nruns);
	if (gp_whatif_spec_check_bases(&spec, base, &err)) {
		rc = gp_cli_report(&err);
	} else if (o.slurm_dir) {
		rc = write_slurm(o.spec, &spec, o.slurm_dir, o.slices, o.sbopts, o.nsbopts);
	} else if (o.search && gp_whatif_search_pick(&spec, &st.dim, &err)) {
		rc = err.status == GP_EUSAGE ? gp_cli_usage_error("whatif", "%s", err.msg) :
					       gp_cli_report(&err);
	} else if ((o.csv_path && gp_cli_make_parent(o.csv_path)) ||
		   (o.svg_path && gp_cli_make_parent(o.svg_path)) ||
		   (o.html_path && gp_cli_make_parent(o.html_path))) {
		/* a bad output path is found before the first run, not after */
		rc = GP_EIO;
	} else {
		if (!o.workers) {
			long n = sysconf(_SC_NPROCESSORS_ONLN);

			o.workers = n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
		}
		rc = sweep_and_answer(&o, &spec, base, &st);
	}
	gp_whatif_bases_release(&spec, base);
	free(base);
	gp_whatif_spec_release(&spec);
	return rc;
}
