/* The options simulate, simulate envs and compare share (the trace, the
 * engine: preemption, checkpoints, las, backfill, tenants, fairshare),
 * the one TRACE operand, and loading a run's cluster and trace.  Apart
 * from simulate's file so that simulate envs uses them without calling
 * back into simulate. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/io/trace.h"
#include "gpuplan/report/sched.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

const gp_opt gp_sim_trace_opts[] = {
	{ .name = "format", .key = GP_OPT_FORMAT, .type = GP_OT_STR, .arg = "F",
	  .help = "trace dialect (default: detected from the header)" },
	{ .name = "limit", .key = GP_OPT_LIMIT, .type = GP_OT_LONG, .arg = "N", .min = 1,
	  .max = 100000000, .what = "a number of jobs", .help = "only the first N jobs by submit time" },
	{ .name = "start", .key = GP_OPT_START, .type = GP_OT_DURATION, .arg = "T", .min = 0,
	  .max = 1e12, .unit = "s", .help = "only jobs submitted at T or later (from trace start)" },
	{ .name = "end", .key = GP_OPT_END, .type = GP_OT_DURATION, .arg = "T", .min = 0,
	  .max = 1e12, .unit = "s", .help = "only jobs submitted before T (from trace start)" },
	{ .name = "skip-bad", .key = GP_OPT_SKIP_BAD, .type = GP_OT_FLAG,
	  .help = "count and skip bad trace rows instead of failing" },
	{ 0 },
};

int gp_cli_one_trace(gp_opt_state *s, const char **trace)
{
	if (s->nargs < 1)
		return gp_opt_bad(s, "expected a TRACE file");
	if (s->nargs > 1)
		return gp_opt_bad(s, "expected one TRACE file, got '%s' too", s->args[1]);
	*trace = s->args[0];
	return GP_OK;
}

int gp_cli_sim_trace_opt(gp_opt_state *s, gp_trace_opts *o)
{
	switch (s->cur->key) {
	case GP_OPT_FORMAT: o->format = s->arg; return 0;
	case GP_OPT_LIMIT: o->limit = (size_t)s->l; return 0;
	case GP_OPT_START:
	case GP_OPT_END:
		*(s->cur->key == GP_OPT_START ? &o->start : &o->end) = s->v;
		/* --end 0 is no end; an empty window is a slip, not a run of
		 * no jobs */
		if (o->end > 0 && o->end <= o->start)
			return gp_opt_bad(s, "--end %g s is not after --start %g s: no job "
					  "is submitted between them", o->end, o->start);
		return 0;
	case GP_OPT_SKIP_BAD: o->skip_bad = 1; return 0;
	default: return -1;
	}
}

#define TIME_OPT(name_, key_, arg_, help_) \
	{ .name = (name_), .key = (key_), .type = GP_OT_DURATION, .arg = (arg_), .min = 0, \
	  .max = 1e12, .unit = "s", .help = (help_) }

const gp_opt gp_sim_engine_opts[] = {
	{ .name = "preempt", .key = GP_OPT_PREEMPT, .type = GP_OT_STR, .arg = "MODE",
	  .help = "off (default), class (LS jobs preempt BE jobs) or\n"
		  "priority (jobs preempt strictly lower priorities);\n"
		  "with --queue las, off turns las preemption off" },
	TIME_OPT("preempt-cost", GP_OPT_PREEMPT_COST, "S",
		 "seconds a preempted job spends saving and restoring\n"
		 "its state when it runs again (default 0)"),
	TIME_OPT("checkpoint-interval", GP_OPT_CKPT_INTERVAL, "S",
		 "seconds of work between checkpoints (default 0:\n"
		 "none; a preempted job then keeps all its progress)"),
	TIME_OPT("checkpoint-cost", GP_OPT_CKPT_COST, "S",
		 "seconds each checkpoint pauses a job (default 0)"),
	{ .name = "las-thresholds", .key = GP_OPT_LAS_THRESHOLDS, .type = GP_OT_STR, .arg = "LIST",
	  .help = "las: attained service (GPU-seconds) between the\n"
		  "queues, ascending (default 3250,7200: three queues)" },
	{ .name = "las-starvation", .key = GP_OPT_LAS_STARVATION, .type = GP_OT_DOUBLE, .arg = "K",
	  .min = 0, .max = 1e12, .help = "las: promote a job to the first queue once it waited\n"
					  "K times as long as it ran (default 0: never)" },
	{ .name = "backfill", .key = GP_OPT_BACKFILL, .type = GP_OT_STR, .arg = "easy|slurm",
	  .help = "the backfill queue's rules: easy (default: EASY, one\n"
		  "reservation, the blocked head's GPUs) or slurm\n"
		  "(Slurm's sched/backfill: a reservation of whole nodes\n"
		  "for every waiting job)" },
	TIME_OPT("bf-interval", GP_OPT_BF_INTERVAL, "S",
		 "--backfill slurm: backfill only at cycles every S\n"
		 "seconds, as Slurm's bf_interval (30 s there; default\n"
		 "0: at every scheduling pass)"),
	TIME_OPT("sched-interval", GP_OPT_SCHED_INTERVAL, "S",
		 "jobs start only at scheduling passes every S seconds,\n"
		 "as Slurm's (default 0: whenever GPUs free up or a job\n"
		 "arrives)"),
	{ .name = "las-preempted", .key = GP_OPT_LAS_PREEMPTED, .type = GP_OT_STR, .arg = "entry|first",
	  .help = "las: a preempted job waits by the time it\n"
		  "entered its queue (default) or ahead of the others,\n"
		  "the most recently preempted first (Tiresias)" },
	{ .name = "las-demoted", .key = GP_OPT_LAS_DEMOTED, .type = GP_OT_STR, .arg = "keep|yield",
	  .help = "las: a just-demoted job is preempted only by\n"
		  "earlier queues (default) or also by the jobs waiting\n"
		  "in its new queue (Tiresias)" },
	{ .name = "las-tiresias", .key = GP_OPT_LAS_TIRESIAS, .type = GP_OT_FLAG,
	  .help = "both Tiresias rules: --las-preempted first\n--las-demoted yield" },
	{ .name = "tenants", .key = GP_OPT_TENANTS, .type = GP_OT_STR, .arg = "FILE",
	  .help = "quotas per tenant (the trace's tenant column), with\n"
		  "borrowing and lending in cohorts (gpuplan(1))" },
	{ .name = "default-tenant", .key = GP_OPT_DEFAULT_TENANT, .type = GP_OT_STR, .arg = "NAME",
	  .help = "the tenant of jobs that name none or one the\n"
		  "file lacks (default: such jobs are an error)" },
	{ .name = "tenant-column", .key = GP_OPT_TENANT_COLUMN, .type = GP_OT_STR,
	  .arg = "tenant|vc|account|partition",
	  .help = "the trace column naming a job's tenant (default\n"
		  "tenant: the tenant, VC or environment column)" },
	{ .name = "reclaim", .key = GP_OPT_RECLAIM, .type = GP_OT_STR, .arg = "on|off",
	  .help = "a tenant within its quota preempts the jobs its\n"
		  "cohort runs on GPUs it lent (default on)" },
	{ .name = "within-quota", .key = GP_OPT_WITHIN_QUOTA, .type = GP_OT_STR, .arg = "reclaim|share",
	  .help = "dominant-share: a job within its quota reclaims\n"
		  "whatever the shares (default) or preempts by share\n"
		  "only, as a borrowing job does (gpuplan(1))" },
	TIME_OPT("fairshare-halflife", GP_OPT_FS_HALFLIFE, "S",
		 "fairshare: half-life of past GPU usage (default\n604800: 7 days)"),
	{ .name = "priority-weights", .key = GP_OPT_PRIO_WEIGHTS, .type = GP_OT_STR,
	  .arg = "LIST", .help = "fairshare: age=W,fairshare=W,jobsize=W,qos=W, the\n"
				 "factors' weights (default fairshare=1, others 0)" },
	TIME_OPT("priority-interval", GP_OPT_PRIO_INTERVAL, "S",
		 "fairshare: priorities recomputed every S seconds\n(default 300)"),
	{ 0 },
};

static int parse_thresholds(const char *arg, gp_run_desc *d)
{
	char *copy = gp_xstrdup(arg), *tok, *save = NULL;
	double t[GP_SIM_LAS_MAX_QUEUES - 1];
	int n = 0, rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (n >= GP_SIM_LAS_MAX_QUEUES - 1 || gp_parse_double(tok, 1e-9, 1e15, &v) ||
		    (n && !(v > t[n - 1]))) {
			rc = -1;
			break;
		}
		t[n++] = v;
	}
	free(copy);
	if (rc || !n)
		return -1;
	memcpy(d->las_thresholds, t, (size_t)n * sizeof(t[0]));
	d->las_nthresholds = n;
	return 0;
}

int gp_cli_sim_engine_opt(gp_opt_state *s, gp_run_desc *e)
{
	const char *arg = s->arg;

	switch (s->cur->key) {
	case GP_OPT_PREEMPT:
		e->preempt = gp_sim_preempt_parse(arg);
		if (e->preempt < 0)
			return gp_opt_bad(s, "unknown --preempt '%s' (off, class, priority)", arg);
		return 0;
	case GP_OPT_LAS_THRESHOLDS:
		if (parse_thresholds(arg, e))
			return gp_opt_bad(s, "--las-thresholds wants up to %d ascending GPU-seconds "
					  "> 0, comma-separated, got '%s'", GP_SIM_LAS_MAX_QUEUES - 1, arg);
		return 0;
	case GP_OPT_LAS_PREEMPTED:
		if (strcmp(arg, "entry") && strcmp(arg, "first"))
			return gp_opt_bad(s, "unknown --las-preempted '%s' (entry, first)", arg);
		e->las_preempted_first = !strcmp(arg, "first");
		return 0;
	case GP_OPT_LAS_DEMOTED:
		if (strcmp(arg, "keep") && strcmp(arg, "yield"))
			return gp_opt_bad(s, "unknown --las-demoted '%s' (keep, yield)", arg);
		e->las_demoted_yield = !strcmp(arg, "yield");
		return 0;
	case GP_OPT_LAS_TIRESIAS:
		e->las_preempted_first = e->las_demoted_yield = 1;
		return 0;
	case GP_OPT_TENANTS: e->tenants = arg; return 0;
	case GP_OPT_DEFAULT_TENANT: e->default_tenant = arg; return 0;
	case GP_OPT_TENANT_COLUMN:
		e->tenant_key = gp_sim_tenant_key_parse(arg);
		if (e->tenant_key < 0)
			return gp_opt_bad(s, "unknown --tenant-column '%s' (tenant, vc, account, partition)", arg);
		return 0;
	case GP_OPT_RECLAIM:
		if (strcmp(arg, "on") && strcmp(arg, "off"))
			return gp_opt_bad(s, "unknown --reclaim '%s' (on, off)", arg);
		e->reclaim_off = !strcmp(arg, "off");
		return 0;
	case GP_OPT_WITHIN_QUOTA:
		if (strcmp(arg, "reclaim") && strcmp(arg, "share"))
			return gp_opt_bad(s, "unknown --within-quota '%s' (reclaim, share)", arg);
		e->share_within_quota = !strcmp(arg, "share");
		return 0;
	case GP_OPT_PRIO_WEIGHTS:
		if (gp_run_parse_weights(arg, e))
			return gp_opt_bad(s, "--priority-weights wants age=W,fairshare=W,jobsize=W,qos=W "
					  "(W >= 0, any of them), got '%s'", arg);
		return 0;
	case GP_OPT_FS_HALFLIFE:
	case GP_OPT_PRIO_INTERVAL:
		if (!(s->v > 0))
			return gp_opt_bad(s, "--%s wants seconds > 0", s->cur->name);
		*(s->cur->key == GP_OPT_FS_HALFLIFE ? &e->fs_halflife : &e->fs_interval) = s->v;
		return 0;
	case GP_OPT_PREEMPT_COST: e->preempt_cost = s->v; return 0;
	case GP_OPT_CKPT_INTERVAL: e->checkpoint_interval = s->v; return 0;
	case GP_OPT_CKPT_COST: e->checkpoint_cost = s->v; return 0;
	case GP_OPT_LAS_STARVATION: e->las_starvation = s->v; return 0;
	case GP_OPT_SCHED_INTERVAL: e->sched_interval = s->v; return 0;
	case GP_OPT_BF_INTERVAL: e->bf_interval = s->v; return 0;
	case GP_OPT_BACKFILL:
		e->backfill_mode = gp_sim_backfill_parse(arg);
		if (e->backfill_mode < 0)
			return gp_opt_bad(s, "unknown --backfill '%s' (easy, slurm)", arg);
		return 0;
	default: return -1;
	}
}

int gp_cli_run_error(const char *cmd, const gp_error *err)
{
	return err->status == GP_EUSAGE ? gp_cli_usage_error(cmd, "%s", err->msg) : gp_cli_report(err);
}

void gp_cli_sched_of(const gp_run_desc *d, int backfill, int estimates, gp_report_sched *s)
{
	memset(s, 0, sizeof(*s));
	s->sched_interval = d->sched_interval;
	if (backfill) {
		s->backfill = gp_sim_backfill_name(d->backfill_mode);
		s->depth = d->backfill_depth;
		s->bf_interval = d->backfill_mode == GP_SIM_BF_SLURM ? d->bf_interval : 0;
		s->estimates = estimates;
	}
}

int gp_cli_sim_load(const char *cluster_path, const char *trace_path,
		    const gp_trace_opts *o, gp_cluster *c, gp_joblist *jobs)
{
	gp_error err = GP_ERROR_INIT;

	gp_joblist_init(jobs);
	if (gp_cluster_load(cluster_path ? cluster_path : gp_cli_default_cluster(), c, &err))
		return gp_cli_report(&err);
	if (gp_trace_load(trace_path, o, jobs, &err)) {
		gp_cluster_release(c);
		return gp_cli_report(&err);
	}
	for (size_t i = 0; i < jobs->n; i++) {
		int rc = gp_cli_check_job_models(c, &jobs->jobs[i], trace_path);

		if (rc) {
			gp_joblist_release(jobs);
			gp_cluster_release(c);
			return rc;
		}
	}
	return GP_OK;
}
