/* --queue las: Tiresias' discretized two-dimensional least-attained-
 * service discipline (Gu et al., NSDI'19), with the defaults of its
 * simulator (SymbioticLab/Tiresias, `dlas-gpu`); where its rules differ
 * from gpuplan's, options take them: las_preempted_first (a preempted job
 * waits ahead of its queue, the most recently preempted first) and
 * las_demoted_yield (a job just demoted is indexed one rank lower, so the
 * jobs waiting in its new queue may preempt it in the next pass).
 *
 * Attained service = GPUs held x time run (GPU-seconds), counted from the
 * job's arrival or its last promotion, less the time spent restoring
 * after a preemption (--preempt-cost; Tiresias' simulator has no such
 * cost): counted, a restore longer than a quantum demoted a job before it
 * did any work and starvation promotions livelocked.  Queues Q0..Q(K-1) with thresholds
 * T0 < T1 < ...: a job enters Q0; a running job moves down one queue when
 * its attained service reaches the threshold of its queue (an event at
 * that time).  A pass, after every batch that changed something, walks
 * the queues from Q0 (LS jobs' queues before BE jobs'); in each queue the
 * waiting jobs in the order they entered it (arrival, demotion or
 * promotion time, then arrival order).  A job starts when the policy
 * places it; else, with preemption (the default), it takes the resources
 * of running jobs of lower queues (preempt.c's victim rule); else it is
 * skipped and later jobs may start (gang scheduling: all of a job's GPUs
 * or none).  Running jobs of the same or a higher queue are never
 * preempted.  A preempted job keeps its queue and attained service.
 * Starvation (--las-starvation K > 0): a job waiting in a queue below Q0
 * after it ran is promoted to Q0, with its attained service reset, once
 * the time it waited since its last promotion reaches K times the time
 * it ran since then. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* Shapes beyond which a pass does not track dead shapes (memory). */
#define LSH_MAX_SHAPES 4096

/* The Tiresias simulator's dlas-gpu thresholds (GPU-seconds). */
static const double default_thr[] = { 3250, 7200 };

static int las_setup(sim *s)
{
	size_t n = s->n ? s->n : 1, i;
	int k;

	if (s->cfg->las_nthresholds > 0) {
		for (k = 0; k < s->cfg->las_nthresholds; k++)
			s->las.thr[k] = s->cfg->las_thresholds[k];
		s->las.nlevels = s->cfg->las_nthresholds + 1;
	} else {
		for (k = 0; k < 2; k++)
			s->las.thr[k] = default_thr[k];
		s->las.nlevels = 3;
	}
	s->las.level = gp_xcalloc(n, sizeof(*s->las.level));
	s->las.att = gp_xcalloc(n, sizeof(*s->las.att));
	s->las.att_t = gp_xcalloc(n, sizeof(*s->las.att_t));
	s->las.exec = gp_xcalloc(n, sizeof(*s->las.exec));
	s->las.lvl_t = gp_xmalloc(n * sizeof(*s->las.lvl_t));
	s->las.ovh_end = gp_xcalloc(n, sizeof(*s->las.ovh_end));
	s->las.wait_acc = gp_xcalloc(n, sizeof(*s->las.wait_acc));
	s->las.wait_t = gp_xcalloc(n, sizeof(*s->las.wait_t));
	for (i = 0; i < s->n; i++)
		s->las.lvl_t[i] = s->jl->jobs[i].submit;
	if (s->cfg->las_preempted_first && s->cfg->las_preempt) {
		s->las.lfront = gp_xcalloc(n, sizeof(*s->las.lfront));
		s->las.pre_t = gp_xcalloc(n, sizeof(*s->las.pre_t));
	}
	if (s->cfg->las_demoted_yield && s->cfg->las_preempt)
		s->las.jd = gp_xcalloc(n, sizeof(*s->las.jd));
	s->las.las_failed = gp_xcalloc((s->nshapes ? s->nshapes : 1) * NLIST, sizeof(*s->las.las_failed));
	s->las.oleft = gp_xmalloc(n * sizeof(*s->las.oleft));
	s->las.oright = gp_xmalloc(n * sizeof(*s->las.oright));
	for (k = 0; k < NLIST; k++)
		s->las.lhead[k] = s->las.ltail[k] = s->las.lroot[k] = -1;
	/* (with quotas a job that waits says nothing of the next of its
	 * shape: another tenant's may start) */
	if (s->nshapes <= LSH_MAX_SHAPES && !s->cfg->tenants) {
		size_t keys = (s->nshapes ? s->nshapes : 1) * NLIST;

		s->las.lsh_cnt = gp_xcalloc(keys, sizeof(*s->las.lsh_cnt));
		s->las.lsh_head = gp_xmalloc(keys * sizeof(*s->las.lsh_head));
		s->las.lsh_tail = gp_xmalloc(keys * sizeof(*s->las.lsh_tail));
		memset(s->las.lsh_head, 0xff, keys * sizeof(*s->las.lsh_head));
		memset(s->las.lsh_tail, 0xff, keys * sizeof(*s->las.lsh_tail));
		s->las.lsh_present = gp_xmalloc(keys * sizeof(*s->las.lsh_present));
		s->las.lsh_ppos = gp_xmalloc(keys * sizeof(*s->las.lsh_ppos));
		s->las.sprev = gp_xmalloc(n * sizeof(*s->las.sprev));
		s->las.snext = gp_xmalloc(n * sizeof(*s->las.snext));
		s->las.lsh_root = gp_xmalloc(keys * sizeof(*s->las.lsh_root));
		memset(s->las.lsh_root, 0xff, keys * sizeof(*s->las.lsh_root));
		s->las.sleft = gp_xmalloc(n * sizeof(*s->las.sleft));
		s->las.sright = gp_xmalloc(n * sizeof(*s->las.sright));
		GP_GROW(s->las.lsh_heap.v, s->las.lsh_heap.cap, s->nshapes ? s->nshapes : 1);
		s->las.lsh_dead = gp_xmalloc((s->nshapes ? s->nshapes : 1) * sizeof(*s->las.lsh_dead));
	}
	return GP_OK;
}

/* j (of list l) joins (+1) or leaves (-1) its list. */
static void shape_count(sim *s, int l, int32_t j, int d)
{
	size_t key, base = (size_t)l * s->nshapes;
	int32_t q;

	if (!s->las.lsh_cnt)
		return;
	key = base + (size_t)s->shape[j];
	if (d > 0) {
		/* into its shape's list, in list order */
		q = gp_sim_ord_pred(s, s->las.sleft, s->las.sright, s->las.lsh_root[key], j);
		s->las.lsh_root[key] = gp_sim_ord_insert(s, s->las.sleft, s->las.sright, s->las.lsh_root[key], j);
		s->las.sprev[j] = q;
		s->las.snext[j] = q >= 0 ? s->las.snext[q] : s->las.lsh_head[key];
		if (s->las.snext[j] >= 0)
			s->las.sprev[s->las.snext[j]] = j;
		else
			s->las.lsh_tail[key] = j;
		if (q >= 0)
			s->las.snext[q] = j;
		else
			s->las.lsh_head[key] = j;
		if (s->las.lsh_cnt[key]++ == 0) {
			s->las.lsh_ppos[key] = s->las.lsh_distinct[l];
			s->las.lsh_present[base + (size_t)s->las.lsh_distinct[l]++] = s->shape[j];
		}
		return;
	}
	s->las.lsh_root[key] = gp_sim_ord_erase(s, s->las.sleft, s->las.sright, s->las.lsh_root[key], j);
	if (s->las.sprev[j] >= 0)
		s->las.snext[s->las.sprev[j]] = s->las.snext[j];
	else
		s->las.lsh_head[key] = s->las.snext[j];
	if (s->las.snext[j] >= 0)
		s->las.sprev[s->las.snext[j]] = s->las.sprev[j];
	else
		s->las.lsh_tail[key] = s->las.sprev[j];
	if (--s->las.lsh_cnt[key] == 0) {
		int32_t last = s->las.lsh_present[base + (size_t)--s->las.lsh_distinct[l]];

		s->las.lsh_present[base + (size_t)s->las.lsh_ppos[key]] = last;
		s->las.lsh_ppos[base + (size_t)last] = s->las.lsh_ppos[key];
	}
}

static void clear_aux(sim *s, int32_t j)
{
	if (s->ix.has_aux[j]) {
		s->ix.has_aux[j] = 0;
		s->ix.nstale++;
	}
}

static void set_aux(sim *s, int32_t j, double t)
{
	clear_aux(s, j);
	s->ix.has_aux[j] = 1;
	s->ix.aux_seq[j] = s->heap.seq;
	gp_sim_heap_push(s, t, EV_CODE(EV_DISC, j));
}

/* A running job's next demotion, if any: its restore overhead still to
 * pay, then its service to the threshold. */
static void plan_demotion(sim *s, int32_t j)
{
	double g = (double)s->ix.held[j] / GP_MILLI, t;

	if (s->las.level[j] >= s->las.nlevels - 1 || !(g > 0))
		return;
	t = s->last_t + (s->las.thr[s->las.level[j]] - s->las.att[j]) / g;
	if (s->las.ovh_end[j] > s->last_t)
		t += s->las.ovh_end[j] - s->last_t;
	set_aux(s, j, t > s->last_t ? t : s->last_t);
}

static void las_started(sim *s, int32_t j, int from_queue)
{
	if (from_queue && s->las.exec[j] > 0)
		s->las.wait_acc[j] += s->last_t - s->las.wait_t[j];
	clear_aux(s, j);
	if (s->las.lfront)
		s->las.lfront[j] = 0;
	s->las.att_t[j] = s->last_t;
	s->las.ovh_end[j] = s->last_t + s->ix.ovh[j]; /* restoring is no service */
	s->las.run_milli[gp_sim_las_list(s, j)] += s->ix.held[j];
	plan_demotion(s, j);
}

/* Attained service (GPUs x time run, less the restore overhead at the
 * start of the run) and run time up to now. */
static void account(sim *s, int32_t j)
{
	double dt = s->last_t - s->las.att_t[j], o = 0;

	if (s->las.ovh_end[j] > s->las.att_t[j])
		o = (s->las.ovh_end[j] < s->last_t ? s->las.ovh_end[j] : s->last_t) - s->las.att_t[j];
	if (dt > 0) {
		s->las.att[j] += (double)s->ix.held[j] / GP_MILLI * (dt - o);
		s->las.exec[j] += dt;
	}
	s->las.att_t[j] = s->last_t;
}

/* j is no longer just demoted. */
static void jd_clear(sim *s, int32_t j)
{
	if (s->las.jd && s->las.jd[j]) {
		s->las.jd[j] = 0;
		s->las.jd_milli[gp_sim_las_list(s, j)] -= s->ix.held[j];
	}
}

/* After the pass: the jobs demoted before it are indexed at their list's
 * rank again (Tiresias lets its new queue's waiting jobs take their GPUs
 * only in the pass right after the demotion). */
static void jd_settle(sim *s)
{
	size_t i;

	for (i = 0; i < s->las.njd; i++) {
		int32_t j = s->las.jd_list[i];

		if (!s->las.jd[j])
			continue;
		jd_clear(s, j);
		if (s->pk.rank && s->pk.rank[j] >= 0) {
			gp_sim_pk_remove(s, j);
			gp_sim_pk_add(s, j);
		}
	}
	s->las.njd = 0;
}

static void las_stopped(sim *s, int32_t j)
{
	jd_clear(s, j);
	account(s, j);
	s->las.run_milli[gp_sim_las_list(s, j)] -= s->ix.held[j];
	clear_aux(s, j);
}

static void las_queued(sim *s, int32_t j)
{
	double k = s->cfg->las_starvation, due;

	s->las.wait_t[j] = s->last_t;
	if (!(k > 0) || s->las.level[j] == 0 || !(s->las.exec[j] > 0))
		return;
	due = s->last_t + k * s->las.exec[j] - s->las.wait_acc[j];
	set_aux(s, j, due > s->last_t ? due : s->last_t);
}

static void las_event(sim *s, int32_t j)
{
	if (s->ix.jst[j] == GP_SIM_JOB_RUNNING) {
		/* Demotion: the event is at the time the threshold is reached. */
		account(s, j);
		s->las.run_milli[gp_sim_las_list(s, j)] -= s->ix.held[j];
		jd_clear(s, j);
		s->las.level[j]++;
		if (s->las.jd) {
			s->las.jd[j] = 1;
			s->las.jd_milli[gp_sim_las_list(s, j)] += s->ix.held[j];
			GP_GROW(s->las.jd_list, s->las.jd_cap, s->las.njd + 1);
			s->las.jd_list[s->las.njd++] = j;
		}
		gp_sim_pk_demoted(s, j);
		s->las.lvl_t[j] = s->last_t;
		s->las.run_milli[gp_sim_las_list(s, j)] += s->ix.held[j];
		s->res->las_demotions++;
		plan_demotion(s, j);
	} else if (s->ix.jst[j] == GP_SIM_JOB_QUEUED) {
		/* Promotion of a starving job to Q0. */
		gp_sim_dequeue(s, j);
		s->las.level[j] = 0;
		s->las.att[j] = s->las.exec[j] = s->las.wait_acc[j] = 0;
		s->las.lvl_t[j] = s->last_t;
		if (s->las.lfront)
			s->las.lfront[j] = 0; /* Tiresias appends it to Q0 */
		gp_sim_enqueue(s, j);
		s->res->las_promotions++;
	}
	s->dirty = 1;
}

/* Milli held by running jobs of lists after l. */
static int64_t below(const sim *s, int l)
{
	int64_t m = 0;
	int k;

	for (k = l + 1; k < NCLASS * s->las.nlevels; k++)
		m += s->las.run_milli[k];
	return m;
}

/* One waiting job j of list l: start it by placement or, failing that,
 * by preemption.  1: it left the queue (started, or failed for good);
 * 0: it waits; -1: nothing more can start in this pass. */
static int visit(sim *s, int l, int32_t j, int preempt)
{
	int64_t free_milli = s->cap_milli - s->alloc_milli;
	int64_t low = preempt ? below(s, l) + (s->las.jd ? s->las.jd_milli[l] : 0) : 0;
	uint32_t *failed = &s->las.las_failed[(size_t)s->shape[j] * NLIST + (size_t)l];
	gp_sim_runinfo ri;
	int ok;

	if (free_milli + low < s->min_need)
		return -1;
	ok = gp_sim_try_place(s, j);
	if (!ok && preempt && *failed != s->las.pass_stamp && free_milli + low >= need_milli(&s->jl->jobs[j])) {
		ok = gp_sim_preempt_for(s, j, l);
		/* Later jobs of this shape and queue would fail too: the pass
		 * only fills the state up. */
		if (!ok && !s->cfg->tenants)
			*failed = s->las.pass_stamp;
	}
	if (ok && gp_sim_job_runinfo(s, j, &ri) == 0)
		gp_sim_start_job(s, j, &ri);
	if (s->pk.ndeferred)
		gp_sim_flush_requeue(s);
	return ok;
}

/* Jobs in list order (a total order: arrival breaks ties). */
static inline int las_cmp(const sim *s, const gp_sim_qitem *a, const gp_sim_qitem *b)
{
	return gp_sim_las_before(s, a->job, b->job) ? -1 : a->job != b->job;
}
GP_HEAP_FUNCS(jheap, gp_sim_jheap, gp_sim_qitem, const sim *, las_cmp)

/* List l job by job, in list order. */
static int pass_plain(sim *s, int l, int preempt)
{
	int32_t j, nxt;

	for (j = s->las.lhead[l]; j >= 0 && s->status == GP_OK; j = nxt) {
		nxt = s->next[j]; /* victims go to later lists */
		if (visit(s, l, j, preempt) < 0)
			return -1;
	}
	return 0;
}

/* The same visits, skipping the jobs that cannot start.  A job that
 * waits leaves its shape unable to start until something is freed
 * (wait_epoch): the later jobs of that shape in l would fail without a
 * policy call or a search (try_place's wait memo, las_failed, or no
 * room: the pass only fills the state up).  So each shape's jobs are
 * followed in their own list, merged in list order; a shape that fails
 * drops out and comes back, from the next of its jobs after the current
 * one, when a preemption freed something. */
static int pass_shapes(sim *s, int l, int preempt)
{
	size_t base = (size_t)l * s->nshapes, nd = 0, i;
	gp_sim_jheap *h = &s->las.lsh_heap;
	uint32_t epoch = s->wait_epoch;
	int k;

	h->n = 0;
	for (k = 0; k < s->las.lsh_distinct[l]; k++)
		jheap_push(h, s, (gp_sim_qitem){ s->las.lsh_head[base + (size_t)s->las.lsh_present[base + (size_t)k]], 0 });
	while (h->n && s->status == GP_OK) {
		int32_t j = jheap_pop(h, s).job, nx = s->las.snext[j];
		int r = visit(s, l, j, preempt);

		if (r < 0)
			return -1;
		if (nx >= 0) {
			if (r)
				jheap_push(h, s, (gp_sim_qitem){ nx, 0 });
			else
				s->las.lsh_dead[nd++] = nx;
		}
		if (s->wait_epoch != epoch) {
			epoch = s->wait_epoch;
			for (i = 0; i < nd; i++) {
				int32_t c = s->las.lsh_dead[i];

				while (c >= 0 && gp_sim_las_before(s, c, j))
					c = s->las.snext[c];
				if (c >= 0)
					jheap_push(h, s, (gp_sim_qitem){ c, 0 });
			}
			nd = 0;
		}
	}
	return 0;
}

static void las_pass(sim *s)
{
	int l, preempt = s->cfg->las_preempt;

	if (!s->dirty)
		return;
	s->dirty = 0;
	s->version++;
	s->las.pass_stamp++;
	for (l = 0; l < NCLASS * s->las.nlevels && s->status == GP_OK; l++)
		if ((s->las.lsh_cnt ? pass_shapes(s, l, preempt) : pass_plain(s, l, preempt)) < 0)
			break; /* nothing more can start in this pass */
	if (s->las.njd)
		jd_settle(s);
	s->dirty = 0; /* its own preemptions were seen by this pass */
}

/* ---- the queues: one list per (class, queue) in list order, with an
 * ordered index each (order.c) ---- */

static void las_arrival(sim *s, int32_t j)
{
	int l = gp_sim_las_list(s, j);
	int32_t p = gp_sim_ord_pred(s, s->las.oleft, s->las.oright, s->las.lroot[l], j);

	gp_sim_list_link_after(s, &s->las.lhead[l], &s->las.ltail[l], p, j);
	s->las.lroot[l] = gp_sim_ord_insert(s, s->las.oleft, s->las.oright, s->las.lroot[l], j);
	shape_count(s, l, j, 1);
}

static void las_leave(sim *s, int32_t j)
{
	int l = gp_sim_las_list(s, j);

	gp_sim_list_unlink(s, &s->las.lhead[l], &s->las.ltail[l], j);
	s->las.lroot[l] = gp_sim_ord_erase(s, s->las.oleft, s->las.oright, s->las.lroot[l], j);
	shape_count(s, l, j, -1);
}

static int32_t las_head(const sim *s, int k)
{
	int l;

	for (l = k * s->las.nlevels; l < (k + 1) * s->las.nlevels; l++)
		if (s->las.lhead[l] >= 0)
			return s->las.lhead[l];
	return -1;
}

static void las_teardown(sim *s)
{
	free(s->las.level);
	free(s->las.att);
	free(s->las.att_t);
	free(s->las.exec);
	free(s->las.lvl_t);
	free(s->las.lfront);
	free(s->las.pre_t);
	free(s->las.jd);
	free(s->las.jd_list);
	free(s->las.ovh_end);
	free(s->las.wait_acc);
	free(s->las.wait_t);
	free(s->las.las_failed);
	free(s->las.lsh_cnt);
	free(s->las.lsh_head);
	free(s->las.lsh_tail);
	free(s->las.sprev);
	free(s->las.snext);
	free(s->las.lsh_present);
	free(s->las.lsh_ppos);
	free(s->las.lsh_heap.v);
	free(s->las.lsh_root);
	free(s->las.sleft);
	free(s->las.sright);
	free(s->las.oleft);
	free(s->las.oright);
	free(s->las.lsh_dead);
}

const gp_sim_discipline gp_sim_disc_las = {
	.name = "las",
	.flags = GP_SIM_DISC_INTERRUPTS | GP_SIM_DISC_FIXED_SHARES,
	.setup = las_setup,
	.teardown = las_teardown,
	.on_arrival = las_arrival,
	.on_leave = las_leave,
	.pick_next = las_head,
	.pass = las_pass,
	.on_start = las_started,
	.on_stop = las_stopped,
	.on_wait = las_queued,
	.on_event = las_event,
};
