/* One simulation run from its description (run.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/memory.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/run/metrics.h"
#include "gpuplan/run/run.h"
#include "gpuplan/sim/failures.h"
#include "gpuplan/util/util.h"

void gp_run_failures_init(gp_run_failures *f)
{
	memset(f, 0, sizeof(*f));
	f->shape = 1.0;
	f->repair = GP_FAIL_DEFAULT_REPAIR_H;
	f->hb_period = 5.0;
	f->hb_misses = 3;
	f->recovery = GP_RECOVERY_RESTART;
}

int gp_run_failures_on(const gp_run_failures *f)
{
	return f->csv || f->model || f->mtbf_node > 0 || f->mtbf_gpu > 0;
}

void gp_run_desc_init(gp_run_desc *d)
{
	memset(d, 0, sizeof(*d));
	gp_trace_opts_init(&d->topts);
	d->policy = "bestfit";
	d->queue = GP_SIM_FIFO;
	d->seed = 1;
	d->preempt = -1;
	d->mem_margin = -1;
	d->qos.ls_fraction = -1;
	gp_qos_config_init(&d->qos.cfg);
	gp_run_failures_init(&d->fail);
}

void gp_run_desc_engine(const gp_run_desc *d, gp_sim_config *cfg)
{
	int i;

	cfg->queue = d->queue;
	cfg->seed = d->seed;
	cfg->tick = d->tick;
	cfg->backfill_depth = d->backfill_depth;
	/* the backfill queue's rules; the other queues have none */
	cfg->backfill_mode = d->queue == GP_SIM_BACKFILL ? d->backfill_mode : GP_SIM_BF_EASY;
	cfg->preempt_cost = d->preempt_cost;
	cfg->checkpoint_interval = d->checkpoint_interval;
	cfg->checkpoint_cost = d->checkpoint_cost;
	cfg->las_starvation = d->las_starvation;
	cfg->sched_interval = d->sched_interval;
	cfg->bf_interval = d->queue == GP_SIM_BACKFILL && d->backfill_mode == GP_SIM_BF_SLURM
				   ? d->bf_interval : 0;
	cfg->las_preempted_first = d->las_preempted_first;
	cfg->las_demoted_yield = d->las_demoted_yield;
	cfg->las_nthresholds = d->las_nthresholds;
	if (d->fs_halflife > 0)
		cfg->fs_halflife = d->fs_halflife;
	if (d->fs_interval > 0)
		cfg->fs_interval = d->fs_interval;
	if (d->fs_w_set) {
		cfg->fs_w_age = d->fs_w[0];
		cfg->fs_w_fairshare = d->fs_w[1];
		cfg->fs_w_jobsize = d->fs_w[2];
		cfg->fs_w_qos = d->fs_w[3];
	}
	for (i = 0; i < d->las_nthresholds; i++)
		cfg->las_thresholds[i] = d->las_thresholds[i];
	/* las has its own order of who preempts whom; preempt off turns it
	 * off. */
	if (d->queue == GP_SIM_LAS) {
		cfg->las_preempt = d->preempt != GP_SIM_PREEMPT_OFF;
		cfg->preempt = GP_SIM_PREEMPT_OFF;
	} else {
		cfg->preempt = d->preempt > 0 ? d->preempt : GP_SIM_PREEMPT_OFF;
	}
}

int gp_run_parse_weights(const char *s, gp_run_desc *d)
{
	static const char *const names[] = { "age", "fairshare", "jobsize", "qos" };
	double w[4] = { 0, 0, 0, 0 };
	char *copy = gp_xstrdup(s), *tok, *save = NULL;
	int rc = 0, k, seen = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		rc = -1;
		if (!eq)
			break;
		*eq = 0;
		for (k = 0; k < 4; k++)
			if (!strcmp(tok, names[k]) && !(seen & (1 << k)) &&
			    !gp_parse_double(eq + 1, 0, 1e9, &w[k])) {
				seen |= 1 << k;
				rc = 0;
			}
	}
	free(copy);
	if (rc || !seen)
		return -1;
	memcpy(d->fs_w, w, sizeof(w));
	d->fs_w_set = 1;
	return 0;
}

const char *gp_run_preempt_name(const gp_run *r)
{
	if (r->cfg.queue == GP_SIM_LAS)
		return r->cfg.las_preempt ? "las" : NULL;
	return r->cfg.preempt ? gp_sim_preempt_name(r->cfg.preempt) : NULL;
}

static int add_hook(gp_sim_config *cfg, const gp_sim_hooks *h, gp_error *err)
{
	int k;

	for (k = 0; k < GP_SIM_MAX_HOOKS; k++)
		if (!cfg->hooks[k]) {
			cfg->hooks[k] = h;
			cfg->hooks[k + 1] = NULL;
			return GP_OK;
		}
	return gp_error_set(err, GP_EIO, "", 0, 0, "too many interruption sources");
}

/* Whether the run changes the jobs (then they are kept to be put back). */
static int edits_jobs(const gp_run *r)
{
	const gp_run_desc *d = r->d;

	return d->mem_margin >= 0 || d->qos.ls_fraction >= 0 || d->qos.exclusive || d->qos.on ||
	       r->predicted;
}

/* Jobs that name a model but give no GPU memory get the estimate plus the
 * margin. */
static int size_memory(gp_run *r, gp_error *err)
{
	gp_joblist *jobs = r->jobs;
	size_t i;

	for (i = 0; i < jobs->n; i++) {
		gp_job *j = &jobs->jobs[i];
		gp_error e = GP_ERROR_INIT;

		if (gp_memory_apply_margin(j, r->d->mem_margin, 1, &e))
			return gp_error_set(err, GP_EINPUT, "", 0, 0, "%s: job '%s': %s",
					    jobs->source ? jobs->source : "trace", j->id ? j->id : "?",
					    e.msg);
		r->mem_sized += j->gpu_mem_estimated != 0;
	}
	return GP_OK;
}

/* The failure hook: the list and model files loaded, the settings given
 * winning over the model file's. */
static int setup_failures(gp_run *r, gp_error *err)
{
	const gp_run_failures *f = &r->d->fail;
	double mtbf_node = f->mtbf_node, mtbf_gpu = f->mtbf_gpu, shape = f->shape;
	gp_fail_model m;

	if (!gp_run_failures_on(f))
		return GP_OK;
	gp_failsim_config_init(&r->fcfg, f->seed_set ? f->seed : r->d->seed);
	if (f->model) {
		if (gp_fail_model_load(f->model, &m, err))
			return err->status;
		if (m.unit == GP_FAIL_NODE && !(mtbf_node > 0))
			mtbf_node = m.mtbf_h;
		if (m.unit == GP_FAIL_GPU && !(mtbf_gpu > 0))
			mtbf_gpu = m.mtbf_h;
		if (!f->shape_set)
			shape = m.shape;
	}
	if (f->csv) {
		if (gp_fail_csv_load(f->csv, r->cluster, &r->list, err))
			return err->status;
		r->fcfg.file = &r->list;
	}
	r->fcfg.gen.mtbf_node_h = mtbf_node;
	r->fcfg.gen.mtbf_gpu_h = mtbf_gpu;
	r->fcfg.gen.shape = shape;
	r->fcfg.gen.repair_h = f->repair;
	r->fcfg.gen.start_new = f->start_new;
	r->fcfg.hb.period_s = f->hb_period;
	r->fcfg.hb.misses = f->hb_misses;
	r->fcfg.recovery = f->recovery;
	r->fcfg.restart_cost = f->restart_cost;
	r->fs = gp_failsim_new(&r->fcfg, r->cluster, r->jobs->n);
	return add_hook(&r->cfg, gp_failsim_hooks(r->fs), err);
}

static void whole_gpus(gp_joblist *jobs)
{
	size_t i;

	for (i = 0; i < jobs->n; i++)
		if (jobs->jobs[i].gpus > 0)
			jobs->jobs[i].gpu_milli = GP_MILLI;
}

/* Classes (ls_fraction), predicted shares, whole GPUs, and the
 * interference / QoS hook. */
static int setup_qos(gp_run *r, gp_error *err)
{
	const gp_run_qos *q = &r->d->qos;
	gp_joblist *jobs = r->jobs;
	gp_qos_config qc;
	size_t i;

	if (q->ls_fraction >= 0) {
		gp_rng g;

		gp_rng_seed_stream(&g, r->cfg.seed, GP_RNG_STREAM_CLASSES);
		for (i = 0; i < jobs->n; i++)
			jobs->jobs[i].klass = gp_rng_double(&g) <
					      q->ls_fraction ? GP_CLASS_LS : GP_CLASS_BE;
	}
	if (!q->on && !r->predicted) {
		if (q->exclusive)
			whole_gpus(jobs);
		return GP_OK;
	}
	if (r->cfg.queue == GP_SIM_LAS && q->cfg.tick > 0)
		return gp_error_set(err, GP_EUSAGE, "", 0, 0, "the QoS monitor does not go with las");
	if (gp_pred_models_load(&r->models, q->models_dir ? q->models_dir : "", err) != GP_OK ||
	    gp_pred_plan_build(&r->plan, &r->models, r->cluster, jobs, err) != GP_OK)
		return err->status;
	if (r->predicted)
		gp_pred_plan_apply(&r->plan, jobs);
	if (q->exclusive)
		whole_gpus(jobs);
	qc = q->cfg;
	qc.seed = r->cfg.seed;
	qc.pred_util = r->plan.pred_util;
	r->q = gp_qos_new(&qc, jobs);
	return add_hook(&r->cfg, gp_qos_hooks(r->q), err);
}

/* ---- bounds: settings whose cost grows without limit ----
 *
 * A setting is refused (GP_EUSAGE) when the run it describes would not end
 * in reasonable time or memory, judged from the run itself: the jobs'
 * work, GPUs and nodes, and the span of the trace. */
#define MAX_CHECKPOINTS_PER_JOB 1e6
#define MAX_FAILURES_PER_JOB 1e5
#define MAX_TICKS 1e6          /* QoS monitor rounds */

static int max_node_gpus(const gp_cluster *c)
{
	int i, m = 1;

	for (i = 0; i < c->nnodes; i++)
		if (c->nodes[i].ngpus > m)
			m = c->nodes[i].ngpus;
	return m;
}

/* Seconds from the first submission to the last job's end if it ran at
 * once: the least the run lasts. */
static double trace_span(const gp_joblist *jobs)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < jobs->n; i++) {
		const gp_job *j = &jobs->jobs[i];

		if (j->submit < lo)
			lo = j->submit;
		if (j->submit + (j->duration > 0 ? j->duration : 0) > hi)
			hi = j->submit + (j->duration > 0 ? j->duration : 0);
	}
	return jobs->n ? hi - lo : 0;
}

/* Expected failures job j sees before it finishes, at lambda failures per
 * second of its run: each costs a recovery; with a restart the work since
 * the last checkpoint (segments of L seconds) is lost, so a segment takes
 * expm1(lambda L) failures on average (exponential failures). */
static double failures_to_finish(double lambda, double work, double tau, int recovery)
{
	double L;

	if (recovery != GP_RECOVERY_RESTART)
		return lambda * work;
	L = tau > 0 && tau < work ? tau : work;
	return work / L * expm1(lambda * L);
}

static int check_bounds(const gp_run *r, gp_error *err)
{
	const gp_run_desc *d = r->d;
	const gp_joblist *jobs = r->jobs;
	double span = trace_span(jobs), mtbf_n = 0, mtbf_g = 0;
	double ck_n = 0, ck_tau = 0, fj_n = 0, fj_lambda = 0;
	const gp_job *ck = NULL, *fj = NULL;
	int per_node = max_node_gpus(r->cluster), fj_nodes = 0, fj_ck = 0;
	size_t i;

	/* --tick is bounded by the engine (GP_SIM_MAX_SAMPLES rows) */
	if (d->qos.on && d->qos.cfg.tick > 0 && span / d->qos.cfg.tick > MAX_TICKS)
		return gp_error_set(err, GP_EUSAGE, "", 0, 0,
				    "--qos-tick %g s: the trace spans at least %.0f s, %.3g monitor rounds; at most %.0f: give at least %.3g s",
				    d->qos.cfg.tick, span, span / d->qos.cfg.tick, MAX_TICKS, span / MAX_TICKS);
	if (r->fs) {
		mtbf_n = r->fcfg.gen.mtbf_node_h * 3600;
		mtbf_g = r->fcfg.gen.mtbf_gpu_h * 3600;
	}
	/* the job each bound binds first: most checkpoints, most failures */
	for (i = 0; i < jobs->n; i++) {
		const gp_job *j = &jobs->jobs[i];
		double work = j->duration, tau, lambda = 0, n;
		int nodes;

		if (!(work > 0) || j->gpus <= 0)
			continue;
		tau = j->more && j->more->checkpoint_interval > 0 ? j->more->checkpoint_interval
								  : d->checkpoint_interval;
		if (tau > 0 && (!ck || work / tau > ck_n)) {
			ck = j;
			ck_n = work / tau;
			ck_tau = tau;
		}
		nodes = (j->gpus + per_node - 1) / per_node;
		if (mtbf_n > 0)
			lambda += nodes / mtbf_n;
		if (mtbf_g > 0)
			lambda += j->gpus / mtbf_g;
		if (!(lambda > 0))
			continue;
		n = failures_to_finish(lambda, work, tau, d->fail.recovery);
		if (!fj || !(n <= fj_n)) {
			fj = j;
			fj_n = n;
			fj_lambda = lambda;
			fj_nodes = nodes;
			fj_ck = tau > 0;
		}
	}
	if (ck && ck_n > MAX_CHECKPOINTS_PER_JOB)
		return gp_error_set(err, GP_EUSAGE, "", 0, 0,
				    "checkpoint interval %g s: job '%s' (%.0f s of work) would write %.3g checkpoints; at most %.0f per job: give at least %.3g s",
				    ck_tau, ck->id, ck->duration, ck_n, MAX_CHECKPOINTS_PER_JOB,
				    ck->duration / MAX_CHECKPOINTS_PER_JOB);
	if (fj && !(fj_n <= MAX_FAILURES_PER_JOB)) {
		char now[96], times[32];

		if (isfinite(fj_n))
			snprintf(times, sizeof(times), "about %.3g times", fj_n);
		else
			snprintf(times, sizeof(times), "more than 1e308 times");
		if (mtbf_n > 0 && mtbf_g > 0)
			snprintf(now, sizeof(now), "now --mtbf-node %g h and --mtbf-gpu %g h", mtbf_n / 3600,
				 mtbf_g / 3600);
		else
			snprintf(now, sizeof(now), "now %g h per %s", (mtbf_n > 0 ? mtbf_n : mtbf_g) / 3600,
				 mtbf_n > 0 ? "node" : "GPU");
		return gp_error_set(err, GP_EUSAGE, "", 0, 0,
				    "failure rate: job '%s' (%d GPU(s) on %d node(s), %.0f s of work) would fail %s before it finishes (%.3g failures per hour of its run, recovery %s%s); at most %.0f per job: raise the MTBF (%s)",
				    fj->id, fj->gpus, fj_nodes, fj->duration, times, fj_lambda * 3600,
				    gp_recovery_name(d->fail.recovery),
				    d->fail.recovery == GP_RECOVERY_RESTART && !fj_ck ? ", no checkpoints" : "",
				    MAX_FAILURES_PER_JOB, now);
	}
	return GP_OK;
}

int gp_run_prepare(gp_run *r, const gp_run_desc *d, const gp_cluster *c, gp_joblist *jobs,
		   gp_sim_perf *perf, gp_scale *scale, gp_error *err)
{
	int st;

	memset(r, 0, sizeof(*r));
	gp_tenants_init(&r->tenants);
	r->d = d;
	r->cluster = c;
	r->jobs = jobs;
	gp_pred_models_init(&r->models);
	gp_pred_plan_init(&r->plan);
	gp_fail_list_init(&r->list);
	gp_sim_config_init(&r->cfg);
	r->cfg.cluster = c;
	r->cfg.policy = gp_policy_find(d->policy);
	if (!r->cfg.policy)
		return gp_error_set(err, GP_EUSAGE, "", 0, 0, "unknown policy '%s'", d->policy);
	r->predicted = (r->cfg.policy->flags & GP_POLICY_PREDICTED) != 0;
	if (edits_jobs(r) && jobs->n) {
		r->saved = gp_xmalloc(jobs->n * sizeof(*r->saved));
		memcpy(r->saved, jobs->jobs, jobs->n * sizeof(*r->saved));
	}
	if (d->mem_margin >= 0 && (st = size_memory(r, err)))
		return st;
	if ((st = setup_failures(r, err)))
		return st;
	gp_run_desc_engine(d, &r->cfg);
	if (d->tenants_set || d->tenants || (c->has_tenants && c->path)) {
		/* --tenants, else the cluster file's own tenants: section */
		if (!d->tenants_set &&
		    (st = gp_tenants_load(d->tenants ? d->tenants : c->path, &r->tenants, err)))
			return st;
		r->cfg.tenants = d->tenants_set ? d->tenants_set : &r->tenants;
		r->cfg.default_tenant = d->default_tenant;
		r->cfg.reclaim_off = d->reclaim_off;
		r->cfg.share_within_quota = d->share_within_quota;
		r->cfg.tenant_key = d->tenant_key;
	}
	r->perf = perf;
	if (!r->perf) {
		r->perf = gp_sim_perf_new(c);
		r->own_perf = 1;
	}
	r->cfg.duration = gp_sim_perf_duration;
	r->cfg.duration_ud = r->perf;
	if ((st = setup_qos(r, err)))
		return st;
	r->scale = scale;
	if (!r->scale && d->scale_ref) {
		r->scale = gp_scale_new(d->scale_ref, d->scale_model, c, jobs, err);
		if (!r->scale)
			return err->status;
		r->own_scale = 1;
	}
	if (r->scale) {
		r->cfg.duration = gp_scale_duration;
		r->cfg.duration_ud = r->scale;
	}
	r->cfg.progress = d->progress;
	r->cfg.progress_ud = d->progress_ud;
	return check_bounds(r, err);
}

int gp_run_exec(gp_run *r, gp_error *err)
{
	int st = gp_sim_run(&r->cfg, r->jobs, &r->res, err);

	r->ran = st == GP_OK;
	return st;
}

void gp_run_metrics(const gp_run *r, double *m)
{
	gp_metrics_of(r->jobs, &r->res, m);
	if (r->fs) {
		gp_failsim_summary fs;

		gp_failsim_summarize(r->fs, r->jobs, &r->res, &fs);
		m[GP_M_LOST_GPU_H] = fs.lost_gpu_hours;
		m[GP_M_GOODPUT] = fs.goodput;
	}
}

void gp_run_release(gp_run *r)
{
	if (!r)
		return;
	if (r->ran)
		gp_sim_result_release(&r->res);
	gp_qos_free(r->q);
	gp_pred_plan_release(&r->plan);
	gp_pred_models_release(&r->models);
	gp_failsim_free(r->fs);
	gp_fail_list_release(&r->list);
	if (r->own_perf)
		gp_sim_perf_free(r->perf);
	if (r->own_scale)
		gp_scale_free(r->scale);
	if (r->saved) {
		memcpy(r->jobs->jobs, r->saved, r->jobs->n * sizeof(*r->saved));
		free(r->saved);
	}
	gp_tenants_release(&r->tenants);
	memset(r, 0, sizeof(*r));
}
