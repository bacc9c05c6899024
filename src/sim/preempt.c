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

/* Victim order as a binary heap (first victim on top): a search takes
 * only the first few, so a full sort would be wasted. */
static void sift_down(victim *v, size_t n, size_t i)
{
	for (;;) {
		size_t m = i, l = 2 * i + 1, r = l + 1;
		victim x;

		if (l < n && victim_cmp(&v[l], &v[m]) < 0)
			m = l;
		if (r < n && victim_cmp(&v[r], &v[m]) < 0)
			m = r;
		if (m == i)
			return;
		x = v[i];
		v[i] = v[m];
		v[m] = x;
		i = m;
	}
}

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

/* The candidates after the first TOPK, as a heap (v is reordered). */
static size_t rest_heap(sim *s, victim *v, size_t nc, const victim *top)
{
	size_t i, n = 0;

	if (++s->pk_stamp == 0) {
		memset(s->pk_mark, 0, (s->n ? s->n : 1) * sizeof(*s->pk_mark));
		s->pk_stamp = 1;
	}
	for (i = 0; i < TOPK; i++)
		s->pk_mark[top[i].job] = s->pk_stamp;
	for (i = 0; i < nc; i++)
		if (s->pk_mark[v[i].job] != s->pk_stamp)
			v[n++] = v[i];
	for (i = n / 2; i-- > 0;)
		sift_down(v, n, i);
	return n;
}

/* A job that may span nodes: release in victim order until it fits. */
static int spread(sim *s, const gp_job *job, victim *v, size_t nc)
{
	int64_t free_milli = s->cap_milli - s->alloc_milli;
	victim top[TOPK], x;
	size_t i, nt, n = 0;

	first_victims(v, nc, top, &nt);
	for (i = 0; i < nc; i++) {
		if (i < nt) {
			x = top[i];
		} else {
			if (i == TOPK)
				n = rest_heap(s, v, nc, top);
			x = v[0];
			v[0] = v[--n];
			sift_down(v, n, 0);
		}
		s->victims[i] = x.job;
		release(s, x.job);
		free_milli += x.held;
		if (free_milli >= need_milli(job) && place_now(s, job))
			return commit(s, i + 1);
	}
	restore_all(s, nc);
	return 0;
}

/* Victims on node (a prefix of the node's candidates, in order) that
 * make room; t->count = 0 when none do.  Releases them. */
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

/* The same as node_victims without touching the state: the node's GPUs,
 * host CPU and memory are copied and the victims' parts on it given back
 * to the copy. */
__attribute__((noinline)) static void node_trial(sim *s, const gp_job *job, const victim *v, int node, node_try *t)
{
	const gp_alloc *a = &s->alloc;
	const gp_node *nd = &s->cl->nodes[node];
	int *milli = s->pk_gmilli;
	int64_t *mem = s->pk_gmem, cpu = a->node_free_cpu_milli[node], hmem = a->node_free_mem_mib[node];
	int32_t e;
	int g, fits = 0;

	t->node = node;
	t->count = 0;
	t->lost = 0;
	t->latest = -INFINITY;
	if (!gp_node_eligible(&s->ctx, node, job))
		return;
	for (g = 0; g < nd->ngpus; g++) {
		milli[g] = a->gpu_free_milli[nd->first_gpu + g];
		mem[g] = a->gpu_free_mem_mib[nd->first_gpu + g];
	}
	if (++s->pk_stamp == 0) {
		memset(s->pk_mark, 0, (s->n ? s->n : 1) * sizeof(*s->pk_mark));
		s->pk_stamp = 1;
	}
	for (e = s->node_head[node]; e >= 0 && !fits; e = s->ent_next[e]) {
		const victim *c = &v[s->ent_cand[e]];
		const gp_placement *p = place_of(s, c->job);
		int k, n = 0;

		if (s->pk_mark[c->job] == s->pk_stamp)
			continue;
		s->pk_mark[c->job] = s->pk_stamp;
		for (k = 0; k < p->nparts; k++) {
			const gp_place_part *part = &p->parts[k];

			if (part->node != node)
				continue;
			for (g = 0; g < part->ngpus; g++) {
				milli[part->gpus[g]] += part->milli;
				mem[part->gpus[g]] += part->mem_mib;
			}
			cpu += part->cpu_milli;
			hmem += part->host_mem_mib;
		}
		t->count++;
		t->lost += c->lost;
		if (c->start > t->latest)
			t->latest = c->start;
		for (g = 0; g < nd->ngpus; g++)
			n += milli[g] >= job->gpu_milli && mem[g] >= job->gpu_mem_mib;
		fits = n >= job->gpus && cpu >= job->cpu_milli && hmem >= job->mem_mib;
	}
	if (!fits)
		t->count = 0;
}

/* Each node's candidates (entries linked per node, in candidate order);
 * the nodes touched are marked with pstamp and listed in tries[].node;
 * pcap[node] = its whole free GPUs plus the candidates' GPUs on it. */
__attribute__((noinline)) static size_t index_nodes(sim *s, const victim *v, size_t nc)
{
	size_t i, ne = 0, nn = 0;
	int k;

	s->pstamp++;
	for (i = 0; i < nc; i++)
		ne += v[i].node >= 0 ? 1 : (size_t)place_of(s, v[i].job)->nparts;
	GP_GROW(s->ent_cand, s->ent_cap, ne + 1);
	s->ent_next = gp_xrealloc(s->ent_next, s->ent_cap * sizeof(*s->ent_next));
	GP_GROW(s->tries, s->tries_cap, ne + 1);
	ne = 0;
	for (i = nc; i-- > 0;) {
		const gp_placement *p = v[i].node >= 0 ? NULL : place_of(s, v[i].job);
		int np = p ? p->nparts : 1;

		for (k = 0; k < np; k++) {
			int node = p ? p->parts[k].node : v[i].node;

			if (s->pmark[node] != s->pstamp) {
				s->pmark[node] = s->pstamp;
				s->node_head[node] = -1;
				s->pcap[node] = s->alloc.node_free_whole[node];
				s->pk_nstart[node] = v[i].start;
				s->tries[nn++].node = node;
			}
			s->pcap[node] += p ? p->parts[k].ngpus : v[i].ngpus;
			if (v[i].start > s->pk_nstart[node])
				s->pk_nstart[node] = v[i].start;
			s->ent_cand[ne] = (int32_t)i;
			s->ent_next[ne] = s->node_head[node];
			s->node_head[node] = (int32_t)ne++;
		}
	}
	return nn;
}

/* Order a node's short candidate list by the victim rule. */
__attribute__((noinline)) static void sort_node(sim *s, const victim *v, int node)
{
	int32_t e, m, b, x;

	for (e = s->node_head[node]; e >= 0; e = s->ent_next[e]) {
		for (m = e, b = s->ent_next[e]; b >= 0; b = s->ent_next[b])
			if (victim_cmp(&v[s->ent_cand[b]], &v[s->ent_cand[m]]) < 0)
				m = b;
		x = s->ent_cand[e];
		s->ent_cand[e] = s->ent_cand[m];
		s->ent_cand[m] = x;
	}
}

/* The best try node could give: one victim, no work lost, the latest
 * start of its candidates. */
static node_try bound(const sim *s, int node)
{
	node_try b;

	b.node = node;
	b.count = 1;
	b.lost = 0;
	b.latest = s->pk_nstart[node];
	return b;
}

/* Heap of nodes, best bound on top. */
static void node_sift(sim *s, size_t n, size_t i)
{
	int32_t *h = s->pk_nodes;

	for (;;) {
		size_t m = i, l = 2 * i + 1, r = l + 1;
		int32_t x;
		node_try a, b;

		if (l < n) {
			a = bound(s, h[l]);
			b = bound(s, h[m]);
			if (try_cmp(&a, &b) < 0)
				m = l;
		}
		if (r < n) {
			a = bound(s, h[r]);
			b = bound(s, h[m]);
			if (try_cmp(&a, &b) < 0)
				m = r;
		}
		if (m == i)
			return;
		x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

/* Trial of one node; kept in tries[] when it makes room. */
static void try_node(sim *s, const gp_job *job, const victim *v, int node, size_t *ntries)
{
	node_try t;

	sort_node(s, v, node);
	node_trial(s, job, v, node, &t);
	if (t.count)
		s->tries[(*ntries)++] = t;
}

/* A job that stays on one node.  Nodes are tried in the order of their
 * trials (try_cmp).  Usually the first one places the job, so the nodes
 * are visited by their bound, best first, and the visit stops at a bound
 * worse than the best trial; only when the policy refuses that node are
 * the others tried and sorted. */
static int one_node(sim *s, const gp_job *job, victim *v, size_t nc)
{
	node_try *tries;
	size_t ntries = 0, nn, nh = 0, i, nv;
	int whole = job->gpu_milli >= GP_MILLI, could = !whole, ok = 0;

	nn = index_nodes(s, v, nc);
	tries = s->tries;
	/* Could free GPUs plus those of candidates hold it anywhere?  (No
	 * cheap bound for shares.) */
	for (i = 0; i < nn && !could; i++)
		could = s->pcap[tries[i].node] >= job->gpus;
	if (!could)
		return 0;
	for (i = 0; i < nc; i++)
		v[i].lost = s->pk_ck ? gp_sim_ix_peek_lost(s, v[i].job) : 0;
	for (i = 0; i < nn; i++)
		if (!whole || s->pcap[tries[i].node] >= job->gpus)
			s->pk_nodes[nh++] = tries[i].node; /* else no room even with all its candidates gone */
	for (i = nh / 2; i-- > 0;)
		node_sift(s, nh, i);
	while (nh) {
		node_try b = bound(s, s->pk_nodes[0]);

		if (ntries && try_cmp(&tries[0], &b) < 0)
			break;
		s->pk_nodes[0] = s->pk_nodes[--nh];
		node_sift(s, nh, 0);
		try_node(s, job, v, b.node, &ntries);
		if (ntries > 1 && try_cmp(&tries[ntries - 1], &tries[0]) < 0) {
			node_try x = tries[0];

			tries[0] = tries[ntries - 1];
			tries[ntries - 1] = x;
		}
	}
	for (i = 0; !ok && s->status == GP_OK; i++) {
		node_try t;

		if (i == 1) { /* the first was refused: all the others, in order */
			while (nh)
				try_node(s, job, v, s->pk_nodes[--nh], &ntries);
			qsort(tries + 1, ntries - 1, sizeof(*tries), try_cmp);
		}
		if (i >= ntries)
			break;
		nv = node_victims(s, job, v, tries[i].node, &t);
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
		memcpy(s->vict + nc, s->pk_arr[r], s->pk_count[r] * sizeof(*s->vict));
		nc += s->pk_count[r];
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
		nc += s->pk_count[r];
		cand_milli += s->pk_milli[r];
	}
	if (!nc || s->cap_milli - s->alloc_milli + cand_milli < need_milli(job))
		return 0;
	GP_GROW(s->vict, s->vict_cap, nc + 1);
	GP_GROW(s->victims, s->victims_cap, nc + 1);
	nc = candidates(s, thr);
	if (job->type != GP_JOB_RING_ALLREDUCE && job->type != GP_JOB_PS_WORKER)
		return one_node(s, job, s->vict, nc);
	for (i = 0; i < nc; i++)
		s->vict[i].lost = s->pk_ck ? gp_sim_ix_peek_lost(s, s->vict[i].job) : 0;
	return spread(s, job, s->vict, nc);
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

	if (!s->ix || !s->pk_rank || s->status != GP_OK)
		return 0;
	thr = gp_sim_pk_threshold(s, head, level);
	m = &s->pk_memo[head];
	ver = gp_sim_pk_version(s, thr);
	if (m->thr == thr + 1 && m->epoch == s->wait_epoch && m->ver == ver)
		return 0;
	ok = search(s, &s->jl->jobs[head], thr);
	if (!ok && s->status == GP_OK) {
		m->thr = thr + 1;
		m->epoch = s->wait_epoch;
		m->ver = ver;
	}
	return ok;
}
