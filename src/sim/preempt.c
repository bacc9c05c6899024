/* Preemption: a job that cannot be placed takes the resources of running
 * jobs it outranks (--preempt class: LS over BE; --preempt priority:
 * strictly higher priority; las: a job of a higher queue).
 *
 * Victim rule, in this order: fewest jobs preempted, then the least GPU
 * share taken from them, then the least work lost (GPU-seconds since the
 * victim's last checkpoint; zero when state is saved on preemption), then
 * the most recently (re)started.  Candidates are ordered by (GPU share
 * held, descending; work lost; start of their current run, latest first;
 * job index, last first), which takes the fewest jobs to cover a need.
 *   A job that stays on one node: for every node holding candidates, the
 *   shortest prefix of that node's candidates (in that order) after which
 *   the node has enough fitting GPUs, host CPU and memory, each of them
 *   then swapped for the smallest other candidate that still makes room
 *   (node_trial); nodes are tried by (victims, share, work lost, latest
 *   start descending, node id).
 *   A job that may span nodes: candidates are released in that order
 *   until the free share covers the job and the policy places it.
 * Either way the job's placement still comes from the policy, on the
 * state with those victims released; victims the placement does not
 * touch are put back untouched (tried in the reverse order), the others
 * are interrupted: they go back to their queue with their progress (less
 * the work since their last checkpoint when --checkpoint-interval is
 * set) and pay --preempt-cost when they run again.
 *
 * Cost: candidates come from the index of preemptible jobs by rank
 * (preempt_index.c), never from a scan of all running jobs; node trials
 * work on a copy of one node's free resources (the state is only touched
 * for the node actually used); nodes are visited by a bound on their
 * trial, best first, so usually one node is tried; a spanning job takes
 * its victims from a heap; a failed search is remembered until it could
 * succeed (gp_sim_preempt_for). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

typedef gp_sim_victim victim;
typedef gp_sim_try node_try;

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
	if (a->held != b->held)
		return a->held < b->held ? -1 : 1;
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
static int node_fits(const sim *s, int node, const gp_job *job)
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

/* A victim on trial gives up its GPUs and, with tenants, its quota. */
static void release(sim *s, int32_t j)
{
	gp_placement_undo(&s->alloc, place_of(s, j));
	if (s->cfg->tenants)
		gp_sim_quota_trial(s, j, -1);
	s->pk.released_flag[j] = 1;
}

static int restore(sim *s, int32_t j)
{
	if (gp_placement_apply(&s->alloc, place_of(s, j)) != 0)
		return -1;
	if (s->cfg->tenants)
		gp_sim_quota_trial(s, j, 1);
	s->pk.released_flag[j] = 0;
	return 0;
}

static void restore_all(sim *s, size_t nv)
{
	size_t i;

	for (i = nv; i-- > 0;)
		if (s->pk.released_flag[s->pk.victims[i]] && restore(s, s->pk.victims[i]) != 0)
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
		if (restore(s, s->pk.victims[i]) == 0 && s->cfg->tenants &&
		    !gp_sim_quota_admits(s, s->pk.preemptor, &s->scratch))
			release(s, s->pk.victims[i]); /* the preemptor's quota needs it gone */
	gp_placement_undo(&s->alloc, &s->scratch);
	gp_sim_interrupt_init(&r);
	s->pk.defer = 1; /* the caller starts the preemptor, then requeues */
	r.cause = GP_SIM_CAUSE_PREEMPT;
	r.overhead_s = s->cfg->preempt_cost;
	for (i = 0; i < nv && s->status == GP_OK; i++)
		if (s->pk.released_flag[s->pk.victims[i]]) {
			s->pk.released_flag[s->pk.victims[i]] = 0;
			if (s->cfg->tenants) /* the interruption gives it back */
				gp_sim_quota_trial(s, s->pk.victims[i], 1);
			r.lose = gp_sim_ix_tau(s, s->pk.victims[i]) > 0 ? GP_SIM_LOSE_CHECKPOINT
								   : GP_SIM_LOSE_NOTHING;
			/* Tiresias: a job preempted right after its demotion
			 * stays behind its new queue's waiting jobs. */
			if (s->las.lfront && !(s->las.jd && s->las.jd[s->pk.victims[i]])) {
				s->las.lfront[s->pk.victims[i]] = 1;
				s->las.pre_t[s->pk.victims[i]] = s->last_t;
			}
			gp_sim_ix_interrupt(s, s->pk.victims[i], &r, 1);
		}
	s->pk.defer = 0;
	return s->status == GP_OK;
}

/* May j be a victim of this search?  A preemptor its quota refuses
 * takes only its own tenant's jobs (pk.own). */
static inline int own(const sim *s, int32_t j)
{
	return s->pk.own < 0 || s->res->job_tenant[j] == s->pk.own;
}

/* The policy places the preemptor and, with tenants, its quota admits
 * it with the victims' use given back (on another GPU model when the
 * first one's key refuses it). */
static int place_now(sim *s, const gp_job *job)
{
	s->res->policy_calls++;
	return s->cfg->policy->place(&s->ctx, job, &s->scratch) == GP_PLACED &&
	       (!s->cfg->tenants || gp_sim_quota_place_ok(s, &s->ctx, s->pk.preemptor, &s->scratch) > 0);
}

/* Victim order as a binary heap (first victim on top): a search takes
 * only the first few, so a full sort would be wasted.  The order is total
 * (the job breaks ties). */
static inline int victim_order(const void *ctx, const victim *a, const victim *b)
{
	(void)ctx;
	return victim_cmp(a, b);
}
GP_HEAP_DEFINE(victim_heap, victim, const void *, victim_order)

/* The first TOPK candidates in victim order, sorted (a spanning job
 * rarely needs more); *nt of them. */
#define TOPK 8

static void first_victims(const victim *v, size_t nc, victim *top, size_t *nt)
{
	size_t i, k, n = 0;

	for (i = 0; i < nc; i++) {
		if (n == TOPK && victim_cmp(&v[i], &top[TOPK - 1]) >= 0)
			continue;
		k = n < TOPK ? n++ : TOPK - 1;
		for (; k > 0 && victim_cmp(&v[i], &top[k - 1]) < 0; k--)
			top[k] = top[k - 1];
		top[k] = v[i];
	}
	*nt = n;
}

/* The candidates after the first TOPK, as a heap over v (reordered). */
static victim_heap rest_heap(sim *s, victim *v, size_t nc, const victim *top)
{
	victim_heap h = { 0 };
	size_t i, n = 0;

	if (++s->pk.stamp == 0) {
		memset(s->pk.mark, 0, (s->n ? s->n : 1) * sizeof(*s->pk.mark));
		s->pk.stamp = 1;
	}
	for (i = 0; i < TOPK; i++)
		s->pk.mark[top[i].job] = s->pk.stamp;
	for (i = 0; i < nc; i++)
		if (s->pk.mark[v[i].job] != s->pk.stamp)
			v[n++] = v[i];
	h.v = v;
	h.n = h.cap = n;
	victim_heap_heapify(&h, s);
	return h;
}

/* A job that may span nodes: release in victim order until it fits. */
static int spread(sim *s, const gp_job *job, victim *v, size_t nc)
{
	int64_t free_milli = s->cap_milli - s->alloc_milli;
	victim top[TOPK], x;
	victim_heap rest = { 0 };   /* borrows v */
	size_t i, nt;

	first_victims(v, nc, top, &nt);
	for (i = 0; i < nc; i++) {
		if (i < nt) {
			x = top[i];
		} else {
			if (i == TOPK)
				rest = rest_heap(s, v, nc, top);
			x = victim_heap_pop(&rest, s);
		}
		s->pk.victims[i] = x.job;
		release(s, x.job);
		free_milli += x.held;
		if (free_milli >= need_milli(job) && place_now(s, job))
			return commit(s, i + 1);
	}
	restore_all(s, nc);
	return 0;
}

/* The candidates of threshold thr on node, in victim order, into
 * s->pk.nv; *cap = the node's whole free GPUs plus theirs. */
static size_t node_cands(sim *s, int node, int thr, int *cap)
{
	size_t n = 0, i;
	int32_t e;

	*cap = s->alloc.node_free_whole[node];
	for (e = s->ix.nodes.head[node]; e >= 0; e = s->ix.nodes.e[e].next) {
		int32_t j = s->ix.nodes.e[e].job;
		victim c;

		if (s->pk.rank[j] <= thr || !own(s, j))
			continue;
		GP_GROW(s->pk.nv, s->pk.nv_cap, n + 1);
		c.job = j;
		c.node = node;
		c.ngpus = s->ix.nodes.e[e].ngpus;
		c.held = s->ix.held[j];
		c.start = s->ix.seg_t[j];
		c.lost = s->pk.ck ? gp_sim_ix_peek_lost(s, j) : 0;
		*cap += c.ngpus;
		for (i = n++; i > 0 && victim_cmp(&c, &s->pk.nv[i - 1]) < 0; i--)
			s->pk.nv[i] = s->pk.nv[i - 1];
		s->pk.nv[i] = c;
	}
	return n;
}

/* Does node have room for job with the victims c[sel[0..k)] gone?  Works
 * on a copy of the node's free GPUs, host CPU and memory. */
static int trial_fits(sim *s, const gp_job *job, const victim *c, const int32_t *sel, size_t k,
		      int node)
{
	const gp_alloc *a = &s->alloc;
	const gp_node *nd = &s->cl->nodes[node];
	int *milli = s->pk.gmilli;
	int64_t *mem = s->pk.gmem, cpu = a->node_free_cpu_milli[node], hmem = a->node_free_mem_mib[node];
	size_t i;
	int g, cnt = 0;

	for (g = 0; g < nd->ngpus; g++) {
		milli[g] = a->gpu_free_milli[nd->first_gpu + g];
		mem[g] = a->gpu_free_mem_mib[nd->first_gpu + g];
	}
	for (i = 0; i < k; i++) {
		const gp_placement *p = place_of(s, c[sel[i]].job);
		int q;

		for (q = 0; q < p->nparts; q++) {
			const gp_place_part *part = &p->parts[q];

			if (part->node != node)
				continue;
			for (g = 0; g < part->ngpus; g++) {
				milli[part->gpus[g]] += part->milli;
				mem[part->gpus[g]] += part->mem_mib;
			}
			cpu += part->cpu_milli;
			hmem += part->host_mem_mib;
		}
	}
	for (g = 0; g < nd->ngpus; g++)
		cnt += milli[g] >= job->gpu_milli && mem[g] >= job->gpu_mem_mib;
	return cnt >= job->gpus && cpu >= job->cpu_milli && hmem >= job->mem_mib;
}

/* Smaller victims first: share held, then work lost, then latest start. */
static int smaller(const victim *a, const victim *b)
{
	if (a->held != b->held)
		return a->held < b->held;
	if (a->lost != b->lost)
		return a->lost < b->lost;
	if (a->start != b->start)
		return a->start > b->start;
	return a->job > b->job;
}

/* The victims on node for job, as indexes into its candidates c[0..n)
 * (in victim order) in s->pk.sel; t->count = 0 when none make room.
 * The shortest prefix of c gives the fewest jobs; then each of them, the
 * largest first, is swapped for the smallest other candidate (share held,
 * work lost, latest start) that still leaves room: a 1-GPU job takes a
 * 1-GPU victim, not a 4-GPU one that started later. */
static void node_trial(sim *s, const gp_job *job, const victim *c, size_t n, int node, node_try *t)
{
	int32_t *sel;
	size_t i, k = 0, p, q;
	int fits = 0;

	t->node = node;
	t->count = 0;
	t->held = 0;
	t->lost = 0;
	t->latest = -INFINITY;
	if (!gp_node_eligible(&s->ctx, node, job))
		return;
	GP_GROW(s->pk.sel, s->pk.sel_cap, n + 1);
	GP_GROW(s->pk.in, s->pk.in_cap, n + 1);
	sel = s->pk.sel;
	while (k < n && !fits) {
		sel[k] = (int32_t)k;
		k++;
		fits = trial_fits(s, job, c, sel, k, node);
	}
	if (!fits)
		return;
	memset(s->pk.in, 0, n);
	for (i = 0; i < k; i++)
		s->pk.in[i] = 1;
	for (p = 0; p < k; p++) {
		int32_t was = sel[p], best = -1;

		for (q = k; q < n; q++) {
			if (s->pk.in[q] || !smaller(&c[q], &c[was]) ||
			    (best >= 0 && !smaller(&c[q], &c[best])))
				continue;
			sel[p] = (int32_t)q;
			if (trial_fits(s, job, c, sel, k, node))
				best = (int32_t)q;
			sel[p] = was;
		}
		if (best >= 0) {
			sel[p] = best;
			s->pk.in[was] = 0;
			s->pk.in[best] = 1;
		}
	}
	t->count = (int)k;
	for (i = 0; i < k; i++) {
		const victim *v = &c[sel[i]];

		t->held += v->held;
		t->lost += v->lost;
		if (v->start > t->latest)
			t->latest = v->start;
	}
}

/* The victims of node_trial, released into s->pk.victims; t->count = 0 when
 * they do not make room after all. */
static size_t node_victims(sim *s, const gp_job *job, const victim *c, size_t n, int node, node_try *t)
{
	size_t nv = 0, i;

	node_trial(s, job, c, n, node, t);
	for (i = 0; i < (size_t)t->count; i++) {
		s->pk.victims[nv++] = c[s->pk.sel[i]].job;
		release(s, c[s->pk.sel[i]].job);
	}
	if (t->count && !node_fits(s, node, job))
		t->count = 0;
	return nv;
}

/* Trial of node; kept in tries[] (the best first) when it makes room. */
static void try_node(sim *s, const gp_job *job, int thr, int node, size_t *ntries)
{
	node_try t;
	size_t n;
	int cap;

	n = node_cands(s, node, thr, &cap);
	if (!n || (job->gpu_milli >= GP_MILLI && cap < job->gpus))
		return; /* no room even with all its candidates gone */
	node_trial(s, job, s->pk.nv, n, node, &t);
	if (!t.count)
		return;
	s->pk.tries[*ntries] = t;
	if (*ntries && try_cmp(&t, &s->pk.tries[0]) < 0) {
		s->pk.tries[*ntries] = s->pk.tries[0];
		s->pk.tries[0] = t;
	}
	++*ntries;
}

/* The least share any node's victims for job can hold: with whole GPUs
 * only, the GPUs the job lacks on the node with the most whole GPUs free
 * (or one); otherwise nothing. */
static int64_t held_bound(const sim *s, const gp_job *job)
{
	int best = 0, k;

	if (!s->pk.whole)
		return 0;
	for (k = 0; k < s->cl->nnodes; k++)
		if (s->alloc.node_free_whole[k] > best)
			best = s->alloc.node_free_whole[k];
	return (int64_t)GP_MILLI * (job->gpus - best > 1 ? job->gpus - best : 1);
}

/* A job that stays on one node.  Nodes are tried in the order of their
 * trials (try_cmp).  A node's trial is no better than one victim holding
 * the share bound (held_bound), no work lost, started when the latest job
 * indexed on it started: nodes are
 * visited in the order of that time (pk_mru) until the best trial beats
 * it.  Usually that node places the job; only when the policy refuses it
 * are the other nodes tried and sorted. */
static int one_node(sim *s, const gp_job *job, int thr)
{
	node_try *tries;
	size_t ntries = 0, i, n, nv;
	int32_t node;
	int64_t lb;
	int ok = 0, cap;

	GP_GROW(s->pk.tries, s->pk.tries_cap, (size_t)s->cl->nnodes + 1);
	tries = s->pk.tries;
	lb = held_bound(s, job);
	for (node = s->pk.mru; node >= 0; node = s->pk.mru_next[node]) {
		if (ntries) {
			node_try b = { -1, 1, lb, 0, s->pk.nlast[node] };

			if (try_cmp(&tries[0], &b) < 0)
				break;
		}
		try_node(s, job, thr, node, &ntries);
	}
	for (i = 0; !ok && s->status == GP_OK; i++) {
		node_try t;

		if (i == 1) { /* the first was refused: all the others, in order */
			for (; node >= 0; node = s->pk.mru_next[node])
				try_node(s, job, thr, node, &ntries);
			qsort(tries + 1, ntries - 1, sizeof(*tries), try_cmp);
		}
		if (i >= ntries)
			break;
		n = node_cands(s, tries[i].node, thr, &cap);
		nv = node_victims(s, job, s->pk.nv, n, tries[i].node, &t);
		if (t.count && place_now(s, job))
			ok = commit(s, nv);
		else
			restore_all(s, nv);
	}
	return ok;
}

/* The indexed jobs of ranks above thr. */
__attribute__((noinline)) static size_t candidates(sim *s, int thr)
{
	size_t nc = 0;
	int r;

	for (r = gp_sim_pk_next_rank(s, thr + 1); r >= 0; r = gp_sim_pk_next_rank(s, r + 1)) {
		memcpy(s->pk.vict + nc, s->pk.arr[r], s->pk.count[r] * sizeof(*s->pk.vict));
		nc += s->pk.count[r];
	}
	if (s->pk.own >= 0) {
		size_t i, k = 0;

		for (i = 0; i < nc; i++)
			if (own(s, s->pk.vict[i].job))
				s->pk.vict[k++] = s->pk.vict[i];
		nc = k;
	}
	return nc;
}

/* The search proper; 0 when no victims make room. */
static int search(sim *s, const gp_job *job, int thr)
{
	int64_t cand_milli = 0;
	size_t i, nc = 0;
	int r;

	for (r = gp_sim_pk_next_rank(s, thr + 1); r >= 0; r = gp_sim_pk_next_rank(s, r + 1)) {
		nc += s->pk.count[r];
		cand_milli += s->pk.milli[r];
	}
	if (!nc || s->cap_milli - s->alloc_milli + cand_milli < need_milli(job))
		return 0;
	GP_GROW(s->pk.victims, s->pk.victims_cap, nc + 1);
	if (job->type != GP_JOB_RING_ALLREDUCE && job->type != GP_JOB_PS_WORKER &&
	    job->type != GP_JOB_LLM)
		return one_node(s, job, thr);
	GP_GROW(s->pk.vict, s->pk.vict_cap, nc + 1);
	nc = candidates(s, thr);
	for (i = 0; i < nc; i++)
		s->pk.vict[i].lost = s->pk.ck ? gp_sim_ix_peek_lost(s, s->pk.vict[i].job) : 0;
	return spread(s, job, s->pk.vict, nc);
}

/* A failed search fails again until something is freed (wait_epoch) or
 * a new victim appears (a job started or demoted into a rank above the
 * threshold): in between the state with all victims released only
 * shrinks, and the policy never places on less what it refused on more
 * (the assumption of the wait memo too). */
int gp_sim_preempt_for(sim *s, int32_t head, int level)
{
	gp_sim_pk_memo *m;
	uint32_t ver;
	int thr, ok;

	if (!s->ix.on || !s->pk.rank || s->status != GP_OK)
		return 0;
	thr = gp_sim_pk_threshold(s, head, level);
	m = &s->pk.memo[head];
	ver = gp_sim_pk_version(s, thr);
	if (m->thr == thr + 1 && m->epoch == s->wait_epoch && m->ver == ver)
		return 0;
	s->pk.preemptor = head;
	/* Kueue: a workload its quota refuses preempts only lower-priority
	 * workloads of its own ClusterQueue (withinClusterQueue) */
	s->pk.own = s->cfg->tenants && !gp_sim_quota_plan_admits(s, head, NULL, -INFINITY, -INFINITY)
			    ? s->res->job_tenant[head] : -1;
	ok = search(s, &s->jl->jobs[head], thr);
	if (!ok && s->status == GP_OK) {
		m->thr = thr + 1;
		m->epoch = s->wait_epoch;
		m->ver = ver;
	}
	return ok;
}
