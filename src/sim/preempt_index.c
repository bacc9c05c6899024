/* The preemption candidate index: running jobs (not stalled) grouped by
 * rank, so that a victim search visits only the jobs it may preempt.
 * A waiting job with threshold t may preempt exactly the indexed jobs of
 * rank > t:
 *   las       rank = the job's list (class x queue), t = the waiting
 *             job's list (gp_sim_preempt_for's level);
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
	s->pk_prio = gp_xmalloc((n ? n : 1) * sizeof(*s->pk_prio));
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
		s->pk_prio[i] = (int32_t)lo;
	}
	s->npk = (int)(k ? k : 1);
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
		s->npk = NLIST + 1; /* + the rank of jobs demoted into the last list */
	else if (c->preempt == GP_SIM_PREEMPT_CLASS)
		s->npk = NCLASS;
	else
		priority_ranks(s);
	s->pk_rank = gp_xmalloc(n * sizeof(*s->pk_rank));
	for (i = 0; i < n; i++)
		s->pk_rank[i] = -1;
	s->pk_pos = gp_xmalloc(n * sizeof(*s->pk_pos));
	s->pk_mark = gp_xcalloc(n, sizeof(*s->pk_mark));
	s->pk_arr = gp_xcalloc((size_t)s->npk, sizeof(*s->pk_arr));
	s->pk_cap = gp_xcalloc((size_t)s->npk, sizeof(*s->pk_cap));
	s->pk_count = gp_xcalloc((size_t)s->npk, sizeof(*s->pk_count));
	s->pk_milli = gp_xcalloc((size_t)s->npk, sizeof(*s->pk_milli));
	s->pk_demoted = gp_xcalloc((size_t)s->npk, sizeof(*s->pk_demoted));
	s->pk_added = gp_xcalloc((size_t)s->npk, sizeof(*s->pk_added));
	s->pk_used = gp_xcalloc((size_t)(s->npk + 63) / 64, sizeof(*s->pk_used));
	for (k = 0; k < s->cl->nnodes; k++)
		if (s->cl->nodes[k].ngpus > maxg)
			maxg = s->cl->nodes[k].ngpus;
	s->pk_gmilli = gp_xmalloc((size_t)maxg * sizeof(*s->pk_gmilli));
	s->pk_gmem = gp_xmalloc((size_t)maxg * sizeof(*s->pk_gmem));
	nn = s->cl->nnodes ? (size_t)s->cl->nnodes : 1;
	s->pk_mru_prev = gp_xmalloc(nn * sizeof(*s->pk_mru_prev));
	s->pk_mru_next = gp_xmalloc(nn * sizeof(*s->pk_mru_next));
	s->pk_nlast = gp_xmalloc(nn * sizeof(*s->pk_nlast));
	for (i = 0; i < nn; i++) {
		s->pk_mru_prev[i] = -2; /* not listed */
		s->pk_nlast[i] = -INFINITY;
	}
	s->pk_mru = -1;
	s->pk_memo = gp_xcalloc(n, sizeof(*s->pk_memo));
	for (i = 0; i < s->n && !s->pk_ck; i++)
		s->pk_ck = gp_sim_ix_tau(s, (int32_t)i) > 0;
	s->pk_whole = c->hooks[0] == NULL;
	for (i = 0; i < s->n && s->pk_whole; i++)
		s->pk_whole = s->jl->jobs[i].gpus > 0 && s->jl->jobs[i].gpu_milli == GP_MILLI;
}

void gp_sim_pk_teardown(sim *s)
{
	int k;

	free(s->pk_prio);
	free(s->pk_rank);
	free(s->pk_pos);
	free(s->pk_mark);
	for (k = 0; s->pk_arr && k < s->npk; k++)
		free(s->pk_arr[k]);
	free(s->pk_arr);
	free(s->pk_cap);
	free(s->pk_count);
	free(s->pk_milli);
	free(s->pk_demoted);
	free(s->pk_added);
	free(s->pk_used);
	free(s->pk_gmilli);
	free(s->pk_gmem);
	free(s->pk_mru_prev);
	free(s->pk_mru_next);
	free(s->pk_nlast);
	free(s->pk_nv);
	free(s->pk_sel);
	free(s->pk_in);
	free(s->pk_memo);
}

static int rank_of(const sim *s, int32_t j)
{
	if (s->cfg->queue == GP_SIM_LAS)
		return gp_sim_las_list(s, j) + (s->jd && s->jd[j]);
	if (s->cfg->preempt == GP_SIM_PREEMPT_CLASS)
		return job_class(&s->jl->jobs[j]);
	return s->pk_prio[j];
}

int gp_sim_pk_threshold(const sim *s, int32_t head, int level)
{
	if (level >= 0)
		return level;
	if (s->cfg->preempt == GP_SIM_PREEMPT_CLASS)
		return job_class(&s->jl->jobs[head]) == 0 ? 0 : s->npk;
	return s->pk_prio[head];
}

int gp_sim_pk_next_rank(const sim *s, int r)
{
	while (r < s->npk) {
		uint64_t w = s->pk_used[r / 64] >> (r % 64);

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
	uint32_t v = thr >= 0 && thr < s->npk ? s->pk_demoted[thr] : 0;
	int r;

	for (r = thr + 1 > 0 ? thr + 1 : 0; r < s->npk; r++)
		v += s->pk_added[r];
	return v;
}

/* node had a job indexed that started at t: the latest such time first
 * in pk_mru (times only grow, so moving it to the front keeps the order;
 * a demoted job keeps its old start and moves nothing). */
static void node_touch(sim *s, int node, double t)
{
	if (!(t > s->pk_nlast[node]) && s->pk_mru_prev[node] != -2)
		return;
	if (t > s->pk_nlast[node])
		s->pk_nlast[node] = t;
	if (s->pk_mru == node)
		return;
	if (s->pk_mru_prev[node] != -2) {
		s->pk_mru_next[s->pk_mru_prev[node]] = s->pk_mru_next[node];
		if (s->pk_mru_next[node] >= 0)
			s->pk_mru_prev[s->pk_mru_next[node]] = s->pk_mru_prev[node];
	}
	s->pk_mru_prev[node] = -1;
	s->pk_mru_next[node] = s->pk_mru;
	if (s->pk_mru >= 0)
		s->pk_mru_prev[s->pk_mru] = node;
	s->pk_mru = node;
}

void gp_sim_pk_add(sim *s, int32_t j)
{
	const gp_placement *p;
	gp_sim_victim *e;
	int r, k;

	if (!s->pk_rank || s->pk_rank[j] >= 0)
		return;
	r = rank_of(s, j);
	p = &s->pool[s->slot[j]];
	GP_GROW(s->pk_arr[r], s->pk_cap[r], s->pk_count[r] + 1);
	s->pk_rank[j] = r;
	s->pk_pos[j] = (int32_t)s->pk_count[r];
	e = &s->pk_arr[r][s->pk_count[r]++];
	e->job = j;
	e->node = p->nparts == 1 ? p->parts[0].node : -1;
	e->ngpus = p->nparts == 1 ? p->parts[0].ngpus : 0;
	e->lost = 0;
	e->start = s->seg_t[j];
	e->held = s->held[j];
	for (k = 0; k < p->nparts; k++)
		node_touch(s, p->parts[k].node, s->seg_t[j]);
	s->pk_added[r]++;
	s->pk_milli[r] += s->held[j];
	s->pk_used[r / 64] |= (uint64_t)1 << (r % 64);
}

void gp_sim_pk_remove(sim *s, int32_t j)
{
	gp_sim_victim *a;
	int r;

	if (!s->pk_rank || s->pk_rank[j] < 0)
		return;
	r = s->pk_rank[j];
	a = s->pk_arr[r];
	a[s->pk_pos[j]] = a[--s->pk_count[r]];
	s->pk_pos[a[s->pk_pos[j]].job] = s->pk_pos[j];
	s->pk_rank[j] = -1;
	s->pk_milli[r] -= s->held[j];
	if (s->pk_count[r] == 0)
		s->pk_used[r / 64] &= ~((uint64_t)1 << (r % 64));
}

/* j's rank went up by a las demotion: it is a victim for one more
 * threshold, its old rank. */
void gp_sim_pk_demoted(sim *s, int32_t j)
{
	int old;

	if (!s->pk_rank || s->pk_rank[j] < 0)
		return;
	old = s->pk_rank[j];
	gp_sim_pk_remove(s, j);
	gp_sim_pk_add(s, j);
	if (s->pk_rank[j] > old)
		s->pk_demoted[old]++;
}
