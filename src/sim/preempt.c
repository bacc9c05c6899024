/* Preemption: a job that cannot be placed takes the resources of running
 * jobs it outranks (--preempt class: LS over BE; --preempt priority:
 * strictly higher priority; las: a job of a higher queue).
 *
 * Victim rule, in this order: fewest jobs preempted, then the least work
 * lost (GPU-seconds since the victim's last checkpoint; zero when state is
 * saved on preemption), then the most recently (re)started.  Candidates
 * are ordered by (GPU share held, descending; work lost; start of their
 * current run, latest first; job index, last first), which takes the
 * fewest jobs to cover a need.
 *   A job that stays on one node: for every node holding candidates, the
 *   shortest prefix of that node's candidates (in that order) after which
 *   the node has enough fitting GPUs, host CPU and memory; nodes are tried
 *   by (victims, work lost, latest start descending, node id).
 *   A job that may span nodes: candidates are released in that order
 *   until the free share covers the job and the policy places it.
 * Either way the job's placement still comes from the policy, on the
 * state with those victims released; victims the placement does not
 * touch are put back untouched (tried in the reverse order), the others
 * are interrupted: they go back to their queue with their progress (less
 * the work since their last checkpoint when --checkpoint-interval is
 * set) and pay --preempt-cost when they run again. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

typedef gp_sim_victim victim;
typedef gp_sim_try node_try;

int gp_sim_may_preempt(const sim *s, int32_t by, int32_t v)
{
	const gp_job *a = &s->jl->jobs[by], *b = &s->jl->jobs[v];

	if (s->jst[v] != GP_SIM_JOB_RUNNING)
		return 0;
	if (s->cfg->preempt == GP_SIM_PREEMPT_CLASS)
		return job_class(a) == 0 && job_class(b) == 1;
	if (s->cfg->preempt == GP_SIM_PREEMPT_PRIORITY)
		return b->priority < a->priority;
	return 0;
}

static int outranks(const sim *s, int32_t by, int32_t v, int level)
{
	if (level >= 0)
		return s->jst[v] == GP_SIM_JOB_RUNNING && gp_sim_las_list(s, v) > level;
	return gp_sim_may_preempt(s, by, v);
}

static int victim_cmp(const void *x, const void *y)
{
	const victim *a = x, *b = y;

	if (a->held != b->held)
		return a->held > b->held ? -1 : 1;
	if (a->lost != b->lost)
		return a->lost < b->lost ? -1 : 1;
	if (a->start != b->start)
		return a->start > b->start ? -1 : 1;
	return a->job > b->job ? -1 : a->job < b->job;
}

static int try_cmp(const void *x, const void *y)
{
	const node_try *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	if (a->lost != b->lost)
		return a->lost < b->lost ? -1 : 1;
	if (a->latest != b->latest)
		return a->latest > b->latest ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

static const gp_placement *place_of(const sim *s, int32_t j)
{
	return &s->pool[s->slot[j]];
}

/* Could node alone hold the job now?  (A necessary check; the policy has
 * the last word.) */
static int node_fits(sim *s, int node, const gp_job *job)
{
	const gp_alloc *a = &s->alloc;
	const gp_node *nd = &s->cl->nodes[node];
	int g, n = 0;

	if (!gp_node_eligible(&s->ctx, node, job))
		return 0;
	for (g = 0; g < nd->ngpus; g++)
		n += a->gpu_free_milli[nd->first_gpu + g] >= job->gpu_milli &&
		     a->gpu_free_mem_mib[nd->first_gpu + g] >= job->gpu_mem_mib;
	return n >= job->gpus && a->node_free_cpu_milli[node] >= job->cpu_milli &&
	       a->node_free_mem_mib[node] >= job->mem_mib;
}

static void release(sim *s, int32_t j)
{
	gp_placement_undo(&s->alloc, place_of(s, j));
	s->released_flag[j] = 1;
}

static int restore(sim *s, int32_t j)
{
	if (gp_placement_apply(&s->alloc, place_of(s, j)) != 0)
		return -1;
	s->released_flag[j] = 0;
	return 0;
}

static void restore_all(sim *s, size_t nv)
{
	size_t i;

	for (i = nv; i-- > 0;)
		if (s->released_flag[s->victims[i]] && restore(s, s->victims[i]) != 0)
			s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						 "internal error: cannot restore a running job");
}

/* The policy placed the job into s->scratch with victims[0..nv) released:
 * put back those the placement leaves room for, interrupt the others. */
static int commit(sim *s, size_t nv)
{
	gp_sim_interrupt r;
	size_t i;

	if (gp_placement_apply(&s->alloc, &s->scratch) != 0) {
		restore_all(s, nv);
		return 0;
	}
	for (i = nv; i-- > 0;)
		restore(s, s->victims[i]);
	gp_placement_undo(&s->alloc, &s->scratch);
	gp_sim_interrupt_init(&r);
	s->defer = 1; /* the caller starts the preemptor, then requeues */
	r.cause = GP_SIM_CAUSE_PREEMPT;
	r.overhead_s = s->cfg->preempt_cost;
	for (i = 0; i < nv && s->status == GP_OK; i++)
		if (s->released_flag[s->victims[i]]) {
			s->released_flag[s->victims[i]] = 0;
			r.lose = gp_sim_ix_tau(s, s->victims[i]) > 0 ? GP_SIM_LOSE_CHECKPOINT
								   : GP_SIM_LOSE_NOTHING;
			gp_sim_ix_interrupt(s, s->victims[i], &r, 1);
		}
	s->defer = 0;
	return s->status == GP_OK;
}

static int place_now(sim *s, const gp_job *job)
{
	s->res->policy_calls++;
	return s->cfg->policy->place(&s->ctx, job, &s->scratch) == GP_PLACED;
}

/* A job that may span nodes: release in victim order until it fits. */
static int spread(sim *s, const gp_job *job, const victim *v, size_t nc)
{
	int64_t free_milli = s->cap_milli - s->alloc_milli;
	size_t i;

	for (i = 0; i < nc; i++) {
		s->victims[i] = v[i].job;
		release(s, v[i].job);
		free_milli += v[i].held;
		if (free_milli >= need_milli(job) && place_now(s, job))
			return commit(s, i + 1);
	}
	restore_all(s, nc);
	return 0;
}

/* Victims on node (a prefix of the node's candidates, in order) that
 * make room; t->count = 0 when none do. */
static size_t node_victims(sim *s, const gp_job *job, const victim *v, int node, node_try *t)
{
	size_t nv = 0;
	int32_t e;
	int fits = 0;

	t->node = node;
	t->count = 0;
	t->lost = 0;
	t->latest = -INFINITY;
	for (e = s->node_head[node]; e >= 0 && !fits; e = s->ent_next[e]) {
		const victim *c = &v[s->ent_cand[e]];

		if (s->released_flag[c->job])
			continue; /* a part on this node listed twice */
		s->victims[nv++] = c->job;
		release(s, c->job);
		t->count++;
		t->lost += c->lost;
		if (c->start > t->latest)
			t->latest = c->start;
		fits = node_fits(s, node, job);
	}
	if (!fits)
		t->count = 0;
	return nv;
}

/* Each node's candidates in victim order (entries linked per node); the
 * nodes touched are marked with pstamp and listed in tries[].node. */
static size_t index_nodes(sim *s, const victim *v, size_t nc)
{
	size_t i, ne = 0, nn = 0;
	int k;

	s->pstamp++;
	for (i = 0; i < nc; i++)
		ne += (size_t)place_of(s, v[i].job)->nparts;
	GP_GROW(s->ent_cand, s->ent_cap, ne + 1);
	s->ent_next = gp_xrealloc(s->ent_next, s->ent_cap * sizeof(*s->ent_next));
	GP_GROW(s->tries, s->tries_cap, ne + 1);
	/* Backwards, pushing on the front: each node's list ends up in
	 * victim order. */
	ne = 0;
	for (i = nc; i-- > 0;) {
		const gp_placement *p = place_of(s, v[i].job);

		for (k = 0; k < p->nparts; k++) {
			int node = p->parts[k].node;

			if (s->pmark[node] != s->pstamp) {
				s->pmark[node] = s->pstamp;
				s->node_head[node] = -1;
				s->tries[nn++].node = node;
			}
			s->ent_cand[ne] = (int32_t)i;
			s->ent_next[ne] = s->node_head[node];
			s->node_head[node] = (int32_t)ne++;
		}
	}
	/* Candidates come unsorted (sorting all of them costs more than the
	 * search): order each node's short list by the victim rule. */
	for (i = 0; i < nn; i++) {
		int32_t e, m, b, x;

		for (e = s->node_head[s->tries[i].node]; e >= 0; e = s->ent_next[e]) {
			for (m = e, b = s->ent_next[e]; b >= 0; b = s->ent_next[b])
				if (victim_cmp(&v[s->ent_cand[b]], &v[s->ent_cand[m]]) < 0)
					m = b;
			x = s->ent_cand[e];
			s->ent_cand[e] = s->ent_cand[m];
			s->ent_cand[m] = x;
		}
	}
	return nn;
}

static int one_node(sim *s, const gp_job *job, const victim *v, size_t nc)
{
	node_try *tries;
	size_t ntries = 0, nn, i, nv;
	int ok = 0;

	nn = index_nodes(s, v, nc);
	tries = s->tries;
	for (i = 0; i < nn; i++) {
		node_try t;

		nv = node_victims(s, job, v, tries[i].node, &t);
		restore_all(s, nv);
		if (t.count)
			tries[ntries++] = t;
	}
	qsort(tries, ntries, sizeof(*tries), try_cmp);
	for (i = 0; i < ntries && !ok && s->status == GP_OK; i++) {
		node_try t;

		nv = node_victims(s, job, v, tries[i].node, &t);
		if (t.count && place_now(s, job))
			ok = commit(s, nv);
		else
			restore_all(s, nv);
	}
	return ok;
}

/* A job that stays on one node: is there a node where free GPUs plus
 * those of candidates could hold it?  (Before sorting candidates.) */
static int some_node_could(sim *s, const gp_job *job, const victim *v, size_t nc)
{
	size_t i;
	int k, ok = 0;

	if (job->gpu_milli < GP_MILLI)
		return 1; /* shares: no cheap bound */
	s->pstamp++;
	for (i = 0; i < nc && !ok; i++) {
		const gp_placement *p = place_of(s, v[i].job);

		for (k = 0; k < p->nparts && !ok; k++) {
			int node = p->parts[k].node;

			if (s->pmark[node] != s->pstamp) {
				s->pmark[node] = s->pstamp;
				s->pcap[node] = s->alloc.node_free_whole[node];
			}
			s->pcap[node] += p->parts[k].ngpus;
			ok = s->pcap[node] >= job->gpus;
		}
	}
	return ok;
}

int gp_sim_preempt_for(sim *s, int32_t head, int level)
{
	const gp_job *job = &s->jl->jobs[head];
	int64_t cand_milli = 0;
	victim *v;
	size_t i, nc = 0;
	int ok, spans;

	if (!s->ix || s->status != GP_OK)
		return 0;
	GP_GROW(s->vict, s->vict_cap, s->nrun + 1);
	GP_GROW(s->victims, s->victims_cap, s->nrun + 1);
	v = s->vict;
	for (i = 0; i < s->nrun; i++) {
		int32_t c = s->run_list[i];

		if (!outranks(s, head, c, level))
			continue;
		v[nc].job = c;
		v[nc].held = s->held[c];
		v[nc].start = s->seg_t[c];
		cand_milli += s->held[c];
		nc++;
	}
	if (!nc || s->cap_milli - s->alloc_milli + cand_milli < need_milli(job))
		return 0;
	spans = job->type == GP_JOB_RING_ALLREDUCE || job->type == GP_JOB_PS_WORKER;
	if (!spans && !some_node_could(s, job, v, nc))
		return 0;
	for (i = 0; i < nc; i++)
		v[i].lost = gp_sim_ix_peek_lost(s, v[i].job);
	if (spans) /* one_node orders each node's candidates itself */
		qsort(v, nc, sizeof(*v), victim_cmp);
	if (spans)
		ok = spread(s, job, v, nc);
	else
		ok = one_node(s, job, v, nc);
	return ok;
}
