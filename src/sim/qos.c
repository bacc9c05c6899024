/* Interference and the QoS monitor (qos.h): an interruption source of the
 * engine.  Per GPU the list of jobs on it; per job its GPUs, true
 * utilization, share at start and predicted-time factor. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/sim/qos.h"
#include "gpuplan/util/util.h"

typedef struct ivec {
	int32_t *v;
	size_t n, cap;
} ivec;

struct gp_qos {
	gp_qos_config cfg;
	gp_sim_hooks hooks;
	gp_qos_stats st;
	const gp_joblist *jl;
	size_t n;
	int ngpus;
	int16_t *true_milli;    /* per job */
	int16_t *start_share;   /* share when it (re)started */
	double *tfactor;        /* predicted / true run time */
	double *dur0;           /* run time alone, seen at first start */
	double *deadline;       /* absolute; NAN until known */
	double *speed;
	uint8_t *throttled, *ran, *running;
	ivec *jgpus;            /* per job: its GPUs (global ids) */
	ivec *gjobs;            /* per GPU: its jobs */
	ivec ls;                /* running LS jobs */
	int32_t *ls_pos;
	uint32_t *mark;         /* scratch stamps */
	uint32_t stamp;
	ivec aff;               /* scratch: affected jobs */
	double last_t, busy, run_speed;
	size_t nrun, nslow;
	double speed_time, run_time;
};

void gp_qos_config_init(gp_qos_config *c)
{
	memset(c, 0, sizeof(*c));
	c->slack = 1.5;
	c->step_milli = 100;
	c->min_share = 0.5;
	c->util_error = 8;
	c->time_error = 0.2;
}

static void ivec_push(ivec *v, int32_t x)
{
	GP_GROW(v->v, v->cap, v->n + 1);
	v->v[v->n++] = x;
}

static void ivec_remove(ivec *v, int32_t x)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == x) {
			v->v[i] = v->v[--v->n];
			return;
		}
}

/* Standard normal (Box-Muller), one per call. */
static double normal(gp_rng *r)
{
	double a = gp_rng_double_open(r), b = gp_rng_double_open(r);

	return sqrt(-2 * log(a)) * cos(2 * M_PI * b);
}

gp_qos *gp_qos_new(const gp_qos_config *cfg, const gp_joblist *jobs)
{
	gp_qos *q = gp_xcalloc(1, sizeof(*q));
	size_t n = jobs->n, i, m = n ? n : 1;

	q->cfg = *cfg;
	q->jl = jobs;
	q->n = n;
	q->true_milli = gp_xcalloc(m, sizeof(*q->true_milli));
	q->start_share = gp_xcalloc(m, sizeof(*q->start_share));
	q->tfactor = gp_xcalloc(m, sizeof(*q->tfactor));
	q->dur0 = gp_xcalloc(m, sizeof(*q->dur0));
	q->deadline = gp_xcalloc(m, sizeof(*q->deadline));
	q->speed = gp_xcalloc(m, sizeof(*q->speed));
	q->throttled = gp_xcalloc(m, 1);
	q->ran = gp_xcalloc(m, 1);
	q->running = gp_xcalloc(m, 1);
	q->jgpus = gp_xcalloc(m, sizeof(*q->jgpus));
	q->ls_pos = gp_xcalloc(m, sizeof(*q->ls_pos));
	q->mark = gp_xcalloc(m, sizeof(*q->mark));
	for (i = 0; i < n; i++) {
		/* One stream per job: the same draws whatever the policy. */
		gp_rng r;
		double p = cfg->pred_util ? cfg->pred_util[i] : jobs->jobs[i].gpu_milli / 10.0, u;

		gp_rng_seed_item(&r, cfg->seed, i + 1);
		u = p + cfg->util_error * normal(&r);
		u = u < 1 ? 1 : u > 100 ? 100 : u;
		q->true_milli[i] = (int16_t)lround(u * 10);
		q->tfactor[i] = exp(cfg->time_error * normal(&r));
		q->deadline[i] = NAN;
		q->speed[i] = 1;
	}
	q->hooks.name = "qos";
	q->hooks.ud = q;
	return q;
}

void gp_qos_free(gp_qos *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->n; i++)
		free(q->jgpus[i].v);
	for (i = 0; q->gjobs && i < (size_t)q->ngpus; i++)
		free(q->gjobs[i].v);
	free(q->gjobs);
	free(q->jgpus);
	free(q->true_milli);
	free(q->start_share);
	free(q->tfactor);
	free(q->dur0);
	free(q->deadline);
	free(q->speed);
	free(q->throttled);
	free(q->ran);
	free(q->running);
	free(q->ls.v);
	free(q->ls_pos);
	free(q->mark);
	free(q->aff.v);
	free(q);
}

const gp_qos_stats *gp_qos_stats_of(const gp_qos *q)
{
	return &q->st;
}

int gp_qos_true_milli(const gp_qos *q, size_t j)
{
	return j < q->n ? q->true_milli[j] : 0;
}

static int share_of(gp_sim *s, int32_t j)
{
	const gp_placement *p = gp_sim_placement(s, j);

	return p && p->nparts ? p->parts[0].milli : GP_MILLI;
}

/* Time integrals up to t. */
static void integrate(gp_qos *q, double t)
{
	double dt = t - q->last_t;

	if (dt > 0) {
		q->st.busy_gpu_s += q->busy / GP_MILLI * dt;
		q->speed_time += q->run_speed * dt;
		q->run_time += (double)q->nrun * dt;
		q->st.slowed_job_s += (double)q->nslow * dt;
		q->last_t = t;
	}
}

/* Speed of job j on GPU g: its share of what g's jobs get (qos.h). */
static double gpu_speed(gp_qos *q, gp_sim *s, int g, int32_t j)
{
	const ivec *v = &q->gjobs[g];
	double got_j = 0, left = GP_MILLI, miss = 0, d;
	size_t i;

	for (i = 0; i < v->n; i++) {
		int32_t k = v->v[i];
		double u = q->true_milli[k], sh = share_of(s, k), got = u < sh ? u : sh;

		left -= got;
		if (k == j)
			got_j = got;
		if (!q->throttled[k])
			miss += u - got;
	}
	d = q->true_milli[j] - got_j;
	if (d > 0 && !q->throttled[j] && miss > 0 && left > 0)
		got_j += left >= miss ? d : left * d / miss;
	return got_j / q->true_milli[j];
}

static void set_speed(gp_qos *q, gp_sim *s, int32_t j, double v)
{
	double old = q->speed[j];
	int ng = (int)q->jgpus[j].n;

	if (v > 1)
		v = 1;
	if (v < 1e-3)
		v = 1e-3;
	if (fabs(v - old) < 1e-12)
		return;
	q->busy += (v - old) * q->true_milli[j] * ng;
	q->run_speed += v - old;
	q->nslow += (v < 1) - (old < 1);
	q->speed[j] = v;
	gp_sim_set_speed(s, j, v);
}

/* Recompute the speed of the jobs in aff and of every job sharing a GPU
 * with one of them; aff is emptied. */
static void recompute(gp_qos *q, gp_sim *s)
{
	size_t a, i, k, nseed = q->aff.n, nout;

	q->stamp++;
	/* The seeds stay at the front; the jobs to recompute follow. */
	for (a = 0; a < nseed; a++) {
		int32_t j = q->aff.v[a];
		const ivec *gl = &q->jgpus[j];

		for (i = 0; i < gl->n; i++) {
			const ivec *v = &q->gjobs[gl->v[i]];

			for (k = 0; k < v->n; k++)
				if (q->mark[v->v[k]] != q->stamp) {
					q->mark[v->v[k]] = q->stamp;
					ivec_push(&q->aff, v->v[k]);
				}
		}
	}
	nout = q->aff.n;
	for (a = nseed; a < nout; a++) {
		int32_t j = q->aff.v[a];
		const ivec *gl = &q->jgpus[j];
		double v = 1;

		if (!q->running[j])
			continue;
		for (i = 0; i < gl->n; i++) {
			double x = gpu_speed(q, s, gl->v[i], j);

			if (x < v)
				v = x;
		}
		set_speed(q, s, j, v);
	}
	q->aff.n = 0;
}

static int qos_begin(void *ud, gp_sim *s)
{
	gp_qos *q = ud;
	const gp_cluster *c = gp_sim_cluster(s);
	int i;

	q->ngpus = 0;
	for (i = 0; i < c->nnodes; i++)
		q->ngpus += c->nodes[i].ngpus;
	q->gjobs = gp_xcalloc(q->ngpus ? (size_t)q->ngpus : 1, sizeof(*q->gjobs));
	q->last_t = gp_sim_now(s);
	if (q->cfg.tick > 0)
		return gp_sim_at(s, &q->hooks, q->last_t + q->cfg.tick, 0, 1);
	return GP_OK;
}

static void qos_started(void *ud, gp_sim *s, int32_t j)
{
	gp_qos *q = ud;
	const gp_placement *p = gp_sim_placement(s, j);
	const gp_cluster *c = gp_sim_cluster(s);
	const gp_job *job = &q->jl->jobs[j];
	double now = gp_sim_now(s);
	int i, g;

	integrate(q, now);
	q->jgpus[j].n = 0;
	for (i = 0; p && i < p->nparts; i++)
		for (g = 0; g < p->parts[i].ngpus; g++)
			ivec_push(&q->jgpus[j], c->nodes[p->parts[i].node].first_gpu + p->parts[i].gpus[g]);
	if (!q->jgpus[j].n)
		return;
	for (i = 0; i < (int)q->jgpus[j].n; i++)
		ivec_push(&q->gjobs[q->jgpus[j].v[i]], j);
	if (!q->ran[j]) {
		const gp_sim_job *rec = gp_sim_record(s, j);

		q->ran[j] = 1;
		q->dur0[j] = rec->finish > now ? rec->finish - now : 0;
		if (job->klass == GP_CLASS_LS)
			q->deadline[j] = job->more->deadline > 0 ? job->submit + job->more->deadline :
					 now + q->dur0[j] * q->tfactor[j] * q->cfg.slack;
		q->st.util_jobs++;
		q->st.util_mae_pp += fabs((q->cfg.pred_util ? q->cfg.pred_util[j] :
					   job->gpu_milli / 10.0) - q->true_milli[j] / 10.0);
	}
	q->start_share[j] = (int16_t)share_of(s, j);
	q->running[j] = 1;
	q->throttled[j] = 0;
	q->speed[j] = 1;
	q->nrun++;
	q->run_speed += 1;
	q->busy += (double)q->true_milli[j] * (double)q->jgpus[j].n;
	if (job->klass == GP_CLASS_LS) {
		q->ls_pos[j] = (int32_t)q->ls.n;
		ivec_push(&q->ls, j);
	}
	ivec_push(&q->aff, j);
	recompute(q, s);
}

static void qos_stopped(void *ud, gp_sim *s, int32_t j, int finished)
{
	gp_qos *q = ud;
	const gp_job *job = &q->jl->jobs[j];
	ivec *gl = &q->jgpus[j];
	size_t i;

	if (!q->running[j])
		return;
	integrate(q, gp_sim_now(s));
	q->running[j] = 0;
	q->nrun--;
	q->run_speed -= q->speed[j];
	q->nslow -= q->speed[j] < 1;
	q->busy -= q->speed[j] * q->true_milli[j] * (double)gl->n;
	q->speed[j] = 1;
	if (job->klass == GP_CLASS_LS) {
		int32_t last = q->ls.v[--q->ls.n];

		q->ls.v[q->ls_pos[j]] = last;
		q->ls_pos[last] = q->ls_pos[j];
		if (finished) {
			q->st.ls_done++;
			q->st.ls_deadline_given += job->more->deadline > 0;
			if (gp_sim_record(s, j)->finish > q->deadline[j] + 1e-9)
				q->st.ls_violations++;
		}
	}
	for (i = 0; i < gl->n; i++)
		ivec_remove(&q->gjobs[gl->v[i]], j);
	/* The jobs it shared GPUs with may speed up. */
	for (i = 0; i < gl->n; i++) {
		const ivec *v = &q->gjobs[gl->v[i]];
		size_t k;

		for (k = 0; k < v->n; k++)
			ivec_push(&q->aff, v->v[k]);
	}
	gl->n = 0;
	recompute(q, s);
}

static int cmp_share_desc(const void *a, const void *b)
{
	const int32_t *x = a, *y = b;

	/* x[1] is the share; ties to the lower job id. */
	return x[1] != y[1] ? y[1] - x[1] : x[0] - y[0];
}

/* Free `need` milli on GPU g from its BE jobs (qos.h).  Returns what is
 * still missing (0 when done). */
static int take_from_be(gp_qos *q, gp_sim *s, int g, int need)
{
	const ivec *v = &q->gjobs[g];
	int32_t be[2 * 64];
	size_t i, nb = 0;

	for (i = 0; i < v->n && nb < 64; i++) {
		int32_t k = v->v[i];

		if (q->jl->jobs[k].klass == GP_CLASS_BE) {
			be[2 * nb] = k;
			be[2 * nb + 1] = share_of(s, k);
			nb++;
		}
	}
	/* cppcheck-suppress uninitvar ; only the nb filled pairs are sorted */
	qsort(be, nb, 2 * sizeof(int32_t), cmp_share_desc);
	for (i = 0; i < nb && need > 0; i++) {
		int32_t k = be[2 * i];
		int sh = be[2 * i + 1];
		int floor_ = (int)ceil(q->cfg.min_share * q->start_share[k]);

		if (sh - need >= floor_ && sh - need >= 1) {
			if (gp_sim_set_share(s, k, sh - need) == GP_OK) {
				q->st.cuts++;
				ivec_push(&q->aff, k);
				need = 0;
			}
		} else {
			gp_sim_interrupt r;

			/* The document's BE job saves its execution state when
			 * stopped and resumes from it, as a preempted one does:
			 * nothing lost, the preemption cost to save and restore. */
			gp_sim_interrupt_init(&r);
			r.cause = GP_SIM_CAUSE_QOS;
			r.lose = GP_SIM_LOSE_NOTHING;
			r.overhead_s = gp_sim_config_of(s)->preempt_cost;
			if (gp_sim_interrupt_job(s, k, &r) == GP_OK) {
				q->st.be_stops++;
				need -= sh;
			}
		}
	}
	return need > 0 ? need : 0;
}

static void raise_share(gp_qos *q, gp_sim *s, int32_t j)
{
	const gp_alloc *a = gp_sim_alloc(s);
	int cur = share_of(s, j), want = cur + q->cfg.step_milli;
	size_t i;

	if (cur >= GP_MILLI) {
		q->st.raise_blocked++;
		return;
	}
	if (want > GP_MILLI)
		want = GP_MILLI;
	for (i = 0; i < q->jgpus[j].n; i++) {
		int g = q->jgpus[j].v[i], need = want - cur - a->gpu_free_milli[g];

		if (need > 0 && take_from_be(q, s, g, need) > 0)
			want = cur + a->gpu_free_milli[g];   /* what this GPU allows */
	}
	if (want > cur && gp_sim_set_share(s, j, want) == GP_OK)
		q->st.raises++;
	else
		q->st.raise_blocked++;
	ivec_push(&q->aff, j);
}

static int qos_event(void *ud, gp_sim *s, int64_t arg)
{
	gp_qos *q = ud;
	double now = gp_sim_now(s);
	size_t i, nls;
	int32_t *ls;

	(void)arg;
	integrate(q, now);
	nls = q->ls.n;
	if (nls) {
		/* Actions stop BE jobs only, never LS ones: a copy is safe. */
		ls = gp_xmalloc(nls * sizeof(*ls));
		memcpy(ls, q->ls.v, nls * sizeof(*ls));
		for (i = 0; i < nls; i++) {
			int32_t j = ls[i];
			double left;

			if (!q->running[j])
				continue;
			q->st.checks++;
			left = (1 - gp_sim_work_done(s, j)) * q->dur0[j] * q->tfactor[j];
			if (now + left > q->deadline[j]) {
				q->st.at_risk++;
				q->throttled[j] = 0;
				raise_share(q, s, j);
			} else if (q->true_milli[j] > share_of(s, j)) {
				if (!q->throttled[j]) {
					q->throttled[j] = 1;
					q->st.throttles++;
					ivec_push(&q->aff, j);
				}
			} else if (q->throttled[j]) {
				q->throttled[j] = 0;
				ivec_push(&q->aff, j);
			}
		}
		free(ls);
		recompute(q, s);
	}
	return gp_sim_at(s, &q->hooks, now + q->cfg.tick, 0, 1);
}

static int qos_end(void *ud, gp_sim *s)
{
	gp_qos *q = ud;

	integrate(q, gp_sim_now(s));
	if (q->st.util_jobs)
		q->st.util_mae_pp /= (double)q->st.util_jobs;
	q->st.mean_speed = q->run_time > 0 ? q->speed_time / q->run_time : 1;
	return GP_OK;
}

const gp_sim_hooks *gp_qos_hooks(gp_qos *q)
{
	q->hooks.begin = qos_begin;
	q->hooks.started = qos_started;
	q->hooks.stopped = qos_stopped;
	q->hooks.event = q->cfg.tick > 0 ? qos_event : NULL;
	q->hooks.end = qos_end;
	return &q->hooks;
}
