/* The preemption candidate index: running jobs (not stalled) grouped by
 * rank, so that a victim search visits only the jobs it may preempt.
 * A waiting job with threshold t may preempt exactly the indexed jobs of
 * rank > t:
 *   las       rank = the job's list (class x queue), t = the waiting
 *             job's list (the level the victim search is given);
 *   class     rank = class (LS 0, BE 1), t = 0 for LS, no victims for BE;
 *   priority  rank = position of the job's priority among the distinct
 *             priorities of the trace, highest first; t = its own rank.
 * Each rank keeps a dense array of victim records (job, its node when it
 * has one part, start, share held: what a search reads, in one place),
 * a count and the milli-GPUs held; a bitmap skips empty ranks.  The interrupt mechanism keeps it current
 * (start, finish, interruption, stall, share change, las demotion);
 * none of it exists unless preemption can happen.
 *
 * It also keeps what the failure memo of preempt.c needs: per rank, the
 * jobs indexed with it and the demotions out of it (a demotion from rank
 * r makes a new victim for threshold r only). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

static int cmp_int_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x > y ? -1 : x < y;
}

/* Dense ranks of priorities, highest first. */
static void priority_ranks(sim *s)
{
	size_t n = s->n, i, k = 0;
	int *p = gp_xmalloc((n ? n : 1) * sizeof(*p));

	for (i = 0; i < n; i++)
		p[i] = s->jl->jobs[i].priority;
	qsort(p, n, sizeof(*p), cmp_int_desc);
	for (i = 0; i < n; i++)
		if (k == 0 || p[k - 1] != p[i])
			p[k++] = p[i];
	s->pk.prio = gp_xmalloc((n ? n : 1) * sizeof(*s->pk.prio));
	for (i = 0; i < n; i++) {
		size_t lo = 0, hi = k;
		int x = s->jl->jobs[i].priority;

		while (lo < hi) { /* first position with p[pos] <= x */
			size_t mid = (lo + hi) / 2;

			if (p[mid] > x)
				lo = mid + 1;
			else
				hi = mid;
		}
		s->pk.prio[i] = (int32_t)lo;
	}
	s->pk.npk = (int)(k ? k : 1);
	free(p);
}

void gp_sim_pk_setup(sim *s)
{
	const gp_sim_config *c = s->cfg;
	size_t n = s->n ? s->n : 1, nn, i;
	int maxg = 1, k;

	if (c->queue == GP_SIM_LAS ? !c->las_preempt : c->preempt == GP_SIM_PREEMPT_OFF)
		return;
	if (c->queue == GP_SIM_LAS)
		s->pk.npk = NLIST + 1; /* + the rank of jobs demoted into the last list */
	else if (c->preempt == GP_SIM_PREEMPT_CLASS)
		s->pk.npk = NCLASS;
	else
		priority_ranks(s);
	s->pk.rank = gp_xmalloc(n * sizeof(*s->pk.rank));
	for (i = 0; i < n; i++)
		s->pk.rank[i] = -1;
	s->pk.pos = gp_xmalloc(n * sizeof(*s->pk.pos));
	s->pk.mark = gp_xcalloc(n, sizeof(*s->pk.mark));
	s->pk.arr = gp_xcalloc((size_t)s->pk.npk, sizeof(*s->pk.arr));
	s->pk.cap = gp_xcalloc((size_t)s->pk.npk, sizeof(*s->pk.cap));
	s->pk.count = gp_xcalloc((size_t)s->pk.npk, sizeof(*s->pk.count));
	s->pk.milli = gp_xcalloc((size_t)s->pk.npk, sizeof(*s->pk.milli));
	s->pk.demoted = gp_xcalloc((size_t)s->pk.npk, sizeof(*s->pk.demoted));
	s->pk.added = gp_xcalloc((size_t)s->pk.npk, sizeof(*s->pk.added));
	s->pk.used = gp_xcalloc((size_t)(s->pk.npk + 63) / 64, sizeof(*s->pk.used));
	for (k = 0; k < s->cl->nnodes; k++)
		if (s->cl->nodes[k].ngpus > maxg)
			maxg = s->cl->nodes[k].ngpus;
	s->pk.gmilli = gp_xmalloc((size_t)maxg * sizeof(*s->pk.gmilli));
	s->pk.gmem = gp_xmalloc((size_t)maxg * sizeof(*s->pk.gmem));
	nn = s->cl->nnodes ? (size_t)s->cl->nnodes : 1;
	s->pk.mru_prev = gp_xmalloc(nn * sizeof(*s->pk.mru_prev));
	s->pk.mru_next = gp_xmalloc(nn * sizeof(*s->pk.mru_next));
	s->pk.nlast = gp_xmalloc(nn * sizeof(*s->pk.nlast));
	for (i = 0; i < nn; i++) {
		s->pk.mru_prev[i] = -2; /* not listed */
		s->pk.nlast[i] = -INFINITY;
	}
	s->pk.mru = -1;
	s->pk.memo = gp_xcalloc(n, sizeof(*s->pk.memo));
	s->pk.released_flag = gp_xcalloc(n, sizeof(*s->pk.released_flag));
	for (i = 0; i < s->n && !s->pk.ck; i++)
		s->pk.ck = gp_sim_ix_tau(s, (int32_t)i) > 0;
	s->pk.whole = c->hooks[0] == NULL;
	for (i = 0; i < s->n && s->pk.whole; i++)
		s->pk.whole = s->jl->jobs[i].gpus > 0 && s->jl->jobs[i].gpu_milli == GP_MILLI;
}

void gp_sim_pk_teardown(sim *s)
{
	int k;

	free(s->pk.prio);
	free(s->pk.rank);
	free(s->pk.pos);
	free(s->pk.mark);
	for (k = 0; s->pk.arr && k < s->pk.npk; k++)
		free(s->pk.arr[k]);
	free(s->pk.arr);
	free(s->pk.cap);
	free(s->pk.count);
	free(s->pk.milli);
	free(s->pk.demoted);
	free(s->pk.added);
	free(s->pk.used);
	free(s->pk.gmilli);
	free(s->pk.gmem);
	free(s->pk.mru_prev);
	free(s->pk.mru_next);
	free(s->pk.nlast);
	free(s->pk.nv);
	free(s->pk.sel);
	free(s->pk.in);
	free(s->pk.memo);
	free(s->pk.released_flag);
	free(s->pk.vict);
	free(s->pk.tries);
	free(s->pk.victims);
	free(s->pk.deferred);
}

static int rank_of(const sim *s, int32_t j)
{
	if (s->cfg->queue == GP_SIM_LAS)
		return gp_sim_las_list(s, j) + (s->las.jd && s->las.jd[j]);
	if (s->cfg->preempt == GP_SIM_PREEMPT_CLASS)
		return job_class(&s->jl->jobs[j]);
	return s->pk.prio[j];
}

int gp_sim_pk_threshold(const sim *s, int32_t head, int level)
{
	if (level >= 0)
		return level;
	if (s->cfg->preempt == GP_SIM_PREEMPT_CLASS)
		return job_class(&s->jl->jobs[head]) == 0 ? 0 : s->pk.npk;
	return s->pk.prio[head];
}

int gp_sim_pk_next_rank(const sim *s, int r)
{
	while (r < s->pk.npk) {
		uint64_t w = s->pk.used[r / 64] >> (r % 64);

		if (w)
			return r + __builtin_ctzll(w);
		r = (r / 64 + 1) * 64;
	}
	return -1;
}

/* Changes since which a failed search for threshold thr may succeed,
 * besides frees (wait_epoch): new victims. */
uint32_t gp_sim_pk_version(const sim *s, int thr)
{
	uint32_t v = thr >= 0 && thr < s->pk.npk ? s->pk.demoted[thr] : 0;
	int r;

	for (r = thr + 1 > 0 ? thr + 1 : 0; r < s->pk.npk; r++)
		v += s->pk.added[r];
	return v;
}

/* node had a job indexed that started at t: the latest such time first
 * in pk_mru (times only grow, so moving it to the front keeps the order;
 * a demoted job keeps its old start and moves nothing). */
static void node_touch(sim *s, int node, double t)
{
	if (!(t > s->pk.nlast[node]) && s->pk.mru_prev[node] != -2)
		return;
	if (t > s->pk.nlast[node])
		s->pk.nlast[node] = t;
	if (s->pk.mru == node)
		return;
	if (s->pk.mru_prev[node] != -2) {
		s->pk.mru_next[s->pk.mru_prev[node]] = s->pk.mru_next[node];
		if (s->pk.mru_next[node] >= 0)
			s->pk.mru_prev[s->pk.mru_next[node]] = s->pk.mru_prev[node];
	}
	s->pk.mru_prev[node] = -1;
	s->pk.mru_next[node] = s->pk.mru;
	if (s->pk.mru >= 0)
		s->pk.mru_prev[s->pk.mru] = node;
	s->pk.mru = node;
}

void gp_sim_pk_add(sim *s, int32_t j)
{
	const gp_placement *p;
	gp_sim_victim *e;
	int r, k;

	if (!s->pk.rank || s->pk.rank[j] >= 0)
		return;
	r = rank_of(s, j);
	p = &s->pool[s->slot[j]];
	GP_GROW(s->pk.arr[r], s->pk.cap[r], s->pk.count[r] + 1);
	s->pk.rank[j] = r;
	s->pk.pos[j] = (int32_t)s->pk.count[r];
	e = &s->pk.arr[r][s->pk.count[r]++];
	e->job = j;
	e->node = p->nparts == 1 ? p->parts[0].node : -1;
	e->ngpus = p->nparts == 1 ? p->parts[0].ngpus : 0;
	e->lost = 0;
	e->start = s->ix.seg_t[j];
	e->held = s->ix.held[j];
	for (k = 0; k < p->nparts; k++)
		node_touch(s, p->parts[k].node, s->ix.seg_t[j]);
	s->pk.added[r]++;
	s->pk.milli[r] += s->ix.held[j];
	s->pk.used[r / 64] |= (uint64_t)1 << (r % 64);
}

void gp_sim_pk_remove(sim *s, int32_t j)
{
	gp_sim_victim *a;
	int r;

	if (!s->pk.rank || s->pk.rank[j] < 0)
		return;
	r = s->pk.rank[j];
	a = s->pk.arr[r];
	a[s->pk.pos[j]] = a[--s->pk.count[r]];
	s->pk.pos[a[s->pk.pos[j]].job] = s->pk.pos[j];
	s->pk.rank[j] = -1;
	s->pk.milli[r] -= s->ix.held[j];
	if (s->pk.count[r] == 0)
		s->pk.used[r / 64] &= ~((uint64_t)1 << (r % 64));
}

/* j's rank went up by a las demotion: it is a victim for one more
 * threshold, its old rank. */
void gp_sim_pk_demoted(sim *s, int32_t j)
{
	int old;

	if (!s->pk.rank || s->pk.rank[j] < 0)
		return;
	old = s->pk.rank[j];
	gp_sim_pk_remove(s, j);
	gp_sim_pk_add(s, j);
	if (s->pk.rank[j] > old)
		s->pk.demoted[old]++;
}
