/* EASY backfill: the blocked head's reservation, the scans behind it
 * (a plain walk, or an index of queued jobs by (shape, class) with a
 * min-tree of run times), and the index's setup. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* Set job j's leaf in its group's min-tree (INFINITY: not queued). */
static void bf_set(sim *s, int32_t j, double v)
{
	int32_t g = s->bf.grp[j];
	double *t = s->bf.tree + s->bf.tree_off[g];
	size_t i = (size_t)s->bf.tree_size[g] + (size_t)s->bf.grp_pos[j];

	t[i] = v;
	for (i /= 2; i >= 1; i /= 2) {
		double m = t[2 * i] < t[2 * i + 1] ? t[2 * i] : t[2 * i + 1];

		if (t[i] == m)
			break;
		t[i] = m;
	}
}

/* First member position >= p of group g that is queued with an estimate
 * <= d; -1 when none. */
static int32_t bf_find(const sim *s, int32_t g, int32_t p, double d)
{
	const double *t = s->bf.tree + s->bf.tree_off[g];
	size_t size = (size_t)s->bf.tree_size[g], i = size + (size_t)p;

	if (p >= s->bf.grp_len[g])
		return -1;
	while (!(t[i] <= d)) {
		while (i & 1) {
			i >>= 1;
			if (i == 0)
				return -1;
		}
		i++;
	}
	while (i < size) {
		i *= 2;
		if (!(t[i] <= d))
			i++;
	}
	return (int32_t)(i - size);
}

/* First member position of group g that arrived after rank r. */
static int32_t bf_after(const sim *s, int32_t g, int32_t r)
{
	const int32_t *rk = s->bf.grp_rank + s->bf.grp_off[g];
	int32_t lo = 0, hi = s->bf.grp_len[g];

	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;

		if (rk[mid] <= r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void bf_enqueue(sim *s, int32_t j, int k)
{
	int32_t g = s->bf.grp[j];

	bf_set(s, j, s->est[j]);
	if (s->bf.grp_queued[g]++ == 0) {
		s->bf.active_at[g] = (int32_t)s->bf.nactive[k];
		s->bf.active[k][s->bf.nactive[k]++] = g;
	}
}

static void bf_dequeue(sim *s, int32_t j, int k)
{
	int32_t g = s->bf.grp[j];

	bf_set(s, j, INFINITY);
	if (--s->bf.grp_queued[g] == 0) {
		int32_t last = s->bf.active[k][--s->bf.nactive[k]];

		s->bf.active[k][s->bf.active_at[g]] = last;
		s->bf.active_at[last] = s->bf.active_at[g];
		s->bf.active_at[g] = -1;
	}
}

static void reserve(sim *s, int32_t head)
{
	const gp_job *job = &s->jl->jobs[head];
	size_t nwalk = 0, r, nlim = 0, ilim = 0;
	int64_t freed_milli = 0;
	double group_t = 0, earliest = -INFINITY;
	int have_group = 0, found = 0, i, g;
	gp_rng rng0;

	/* Same head, and since its reservation no job started or ended (only
	 * arrivals; no interruption source could move anything): the walk
	 * below would undo the same jobs and ask the policy the same
	 * questions, so the reservation, its marks and its spare host
	 * resources stand. */
	if (s->bf.resv_keep && s->bf.resv_head == head && s->bf.resv_alloc == s->alloc_version)
		return;
	rng0 = s->probe.rng;

	/* Nothing was freed since this head got its last reservation, only
	 * more jobs started: it cannot start before that time now. */
	if (s->bf.resv_head == head && s->bf.resv_epoch == s->wait_epoch)
		earliest = s->bf.resv_t;
	s->bf.resv_head = head;
	s->bf.resv_epoch = s->wait_epoch;
	s->bf.resv_t = INFINITY;
	s->bf.resv_stamp++;
	s->bf.nreleased = 0;
	GP_GROW(s->walk, s->walk_cap, s->heap.n + 1);
	if (s->heap.n && earliest < INFINITY)
		s->walk[nwalk++] = 0;
	if (s->bf.limits)
		nlim = gp_sim_expected_ends(s);
	s->probe.ctx.alloc = &s->alloc;
	for (;;) {
		long e;
		double et;
		int32_t ej;

		if (s->bf.limits) {
			e = ilim < nlim ? (long)ilim : -1;
			et = e >= 0 ? s->bf.lim_end[ilim].t : 0;
			ej = e >= 0 ? s->bf.lim_end[ilim++].job : -1;
		} else {
			e = gp_sim_walk_next(s, &nwalk);
			et = e >= 0 ? s->heap.v[e].t : 0;
			ej = e >= 0 ? s->heap.v[e].job : -1;
		}
		if (e < 0 || !have_group || et != group_t) {
			if (have_group && group_t >= earliest &&
			    need_milli(job) <= s->cap_milli - s->alloc_milli + freed_milli) {
				s->res->policy_calls++;
				if (s->cfg->policy->place(&s->probe.ctx, job, &s->probe.place) == GP_PLACED) {
					/* with tenants, where its quota admits it
					 * (a GPU model's key that refuses it lets
					 * the walk go on: another model may free) */
					found = !s->cfg->tenants ? 1
								 : gp_sim_quota_place_ok(s, &s->probe.ctx, head,
											 &s->probe.place);
					if (found >= 0)
						break;
					found = 0;
				}
			}
			if (e < 0)
				break;
			group_t = et;
			have_group = 1;
		}
		s->bf.released[s->bf.nreleased++] = ej;
		gp_placement_undo(&s->alloc, &s->pool[s->slot[ej]]);
		freed_milli += need_milli(&s->jl->jobs[ej]);
	}
	s->probe.ctx.alloc = &s->probe.alloc;
	/* With tenants the reservation holds the head's quota from its
	 * start. */
	if (s->cfg->tenants) {
		gp_sim_quota_plan_reset(s);
		if (found)
			gp_sim_quota_plan_hold(s, head, &s->probe.place, group_t, INFINITY);
	}
	if (found) {
		s->bf.resv_t = group_t;
		for (i = 0; i < s->probe.place.nparts; i++) {
			const gp_place_part *part = &s->probe.place.parts[i];
			int node = part->node, first = s->cl->nodes[node].first_gpu;

			if (s->bf.node_mark[node] != s->bf.resv_stamp) {
				s->bf.node_mark[node] = s->bf.resv_stamp;
				s->bf.spare_cpu[node] = s->alloc.node_free_cpu_milli[node];
				s->bf.spare_mem[node] = s->alloc.node_free_mem_mib[node];
			}
			s->bf.spare_cpu[node] -= part->cpu_milli;
			s->bf.spare_mem[node] -= part->host_mem_mib;
			for (g = 0; g < part->ngpus; g++)
				s->bf.gpu_mark[first + part->gpus[g]] = s->bf.resv_stamp;
		}
	}
	for (r = s->bf.nreleased; r-- > 0;)
		if (gp_placement_apply(&s->alloc, &s->pool[s->slot[s->bf.released[r]]]) != 0) {
			s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						 "internal error: cannot restore a running job");
			return;
		}
	/* Not when the policy drew random numbers: asking again would draw
	 * the next ones. */
	s->bf.resv_alloc = s->alloc_version;
	s->bf.resv_keep = !s->ix.on && !memcmp(&rng0, &s->probe.rng, sizeof(rng0));
}

/* May j (placed in s->scratch, running until end) start without delaying
 * the reservation?  Takes the head's spare host resources when yes. */
static int respects_reservation(sim *s, double end)
{
	int i, g;

	if (end <= s->bf.resv_t)
		return 1;
	for (i = 0; i < s->scratch.nparts; i++) {
		const gp_place_part *part = &s->scratch.parts[i];
		int node = part->node, first = s->cl->nodes[node].first_gpu;

		for (g = 0; g < part->ngpus; g++)
			if (s->bf.gpu_mark[first + part->gpus[g]] == s->bf.resv_stamp)
				return 0;
		if (s->bf.node_mark[node] == s->bf.resv_stamp &&
		    (part->cpu_milli > s->bf.spare_cpu[node] || part->host_mem_mib > s->bf.spare_mem[node]))
			return 0;
	}
	for (i = 0; i < s->scratch.nparts; i++) {
		const gp_place_part *part = &s->scratch.parts[i];

		if (s->bf.node_mark[part->node] == s->bf.resv_stamp) {
			s->bf.spare_cpu[part->node] -= part->cpu_milli;
			s->bf.spare_mem[part->node] -= part->host_mem_mib;
		}
	}
	return 1;
}

static void backfill_one(sim *s, int32_t j)
{
	gp_sim_runinfo ri;
	int32_t sh = s->shape[j];
	double end;

	/* The state has not changed since this shape was placed on the
	 * reservation: the policy would do it again for a job this long. */
	if (s->shape_conflict[sh] == s->version && s->last_t + s->est[j] > s->bf.resv_t)
		return;
	if (!gp_sim_try_place(s, j) || gp_sim_job_runinfo(s, j, &ri) != 0)
		return;
	end = s->last_t + gp_sim_planned_run(s, j, ri.duration);
	/* still running when the reservation starts: its quota too */
	if (s->cfg->tenants && end > s->bf.resv_t &&
	    !gp_sim_quota_plan_admits(s, j, &s->scratch, s->last_t, end))
		return;
	if (!respects_reservation(s, end)) {
		s->shape_conflict[sh] = s->version;
		return;
	}
	if (gp_sim_start_job(s, j, &ri) == GP_OK)
		s->res->backfilled++;
}

/* The plain walk over the queue behind the head (also the bounded
 * --backfill-depth approximation). */
static void bf_walk(sim *s, int32_t head, int hk)
{
	size_t examined = 0;
	int32_t j, nxt;
	int k;

	for (k = hk; k < NCLASS && s->status == GP_OK; k++) {
		for (j = k == hk ? s->next[head] : s->qhead[k]; j >= 0 && s->status == GP_OK; j = nxt) {
			nxt = s->next[j];
			if (s->cap_milli - s->alloc_milli < s->min_need)
				return;
			if (s->cfg->backfill_depth && ++examined > s->cfg->backfill_depth)
				return;
			backfill_one(s, j);
		}
	}
}

/* The same scan as bf_walk with depth 0 -- the same jobs in the same
 * order reach backfill_one, which makes the same policy calls -- except
 * that jobs backfill_one would pass over without asking the policy are
 * never visited: those of shapes that already waited in this pass or ask
 * for more than is free, and, while the state is unchanged since their
 * shape's placement hit the reservation, those too long to finish before
 * it.  Each step takes the earliest candidate over the groups with queued
 * members, so a pass costs O(groups x log n) per job it looks at instead
 * of O(queue). */
static void bf_scan(sim *s, int32_t head, int hk)
{
	int k;

	for (k = hk; k < NCLASS && s->status == GP_OK; k++) {
		int32_t r = k == hk ? s->rank[head] : -1;

		while (s->status == GP_OK) {
			int64_t free_milli = s->cap_milli - s->alloc_milli;
			int32_t best = -1, best_rank = INT32_MAX;
			double slack;
			size_t a;

			if (free_milli < s->min_need)
				return;
			/* A superset of the estimates with last_t + est <= resv_t
			 * (backfill_one checks the exact condition). */
			slack = s->bf.resv_t - s->last_t +
				(fabs(s->bf.resv_t) + fabs(s->last_t)) * 4 * DBL_EPSILON;
			for (a = 0; a < s->bf.nactive[k]; a++) {
				int32_t g = s->bf.active[k][a], sh = s->bf.grp_shape[g], p, j;

				if (s->shape_waited[sh] == s->wait_epoch || s->bf.grp_need[g] > free_milli)
					continue;
				p = bf_find(s, g, bf_after(s, g, r),
					    s->shape_conflict[sh] == s->version ? slack : DBL_MAX);
				if (p < 0)
					continue;
				j = s->bf.grp_jobs[s->bf.grp_off[g] + (size_t)p];
				if (s->rank[j] < best_rank) {
					best_rank = s->rank[j];
					best = j;
				}
			}
			if (best < 0)
				break;
			r = best_rank;
			backfill_one(s, best);
		}
	}
}

/* The index pays when the queue holds many jobs per group. */
static int use_index(const sim *s, int hk)
{
	size_t groups = 0, queued = 0;
	int k;

	if (s->cfg->backfill_scan == GP_SIM_SCAN_INDEX)
		return 1;
	if (s->cfg->backfill_scan == GP_SIM_SCAN_WALK)
		return 0;
	for (k = hk; k < NCLASS; k++) {
		groups += s->bf.nactive[k];
		queued += s->qlen[k];
	}
	return queued > 64 && groups * 16 < queued;
}

/* Groups of queued jobs for bf_scan: (shape, class) pairs, members in
 * arrival order, one min-tree each. */
static void bf_setup(sim *s)
{
	size_t n = s->n, i, off = 0, toff = 0, g;
	int32_t *gmap = gp_xmalloc(2 * (s->nshapes ? s->nshapes : 1) * sizeof(*gmap));
	int k;

	s->bf.index = 1;
	memset(gmap, 0xff, 2 * (s->nshapes ? s->nshapes : 1) * sizeof(*gmap));
	s->bf.grp = gp_xmalloc((n ? n : 1) * sizeof(*s->bf.grp));
	s->bf.grp_pos = gp_xmalloc((n ? n : 1) * sizeof(*s->bf.grp_pos));
	s->bf.grp_jobs = gp_xmalloc((n ? n : 1) * sizeof(*s->bf.grp_jobs));
	s->bf.grp_rank = gp_xmalloc((n ? n : 1) * sizeof(*s->bf.grp_rank));
	s->bf.grp_len = gp_xcalloc(n ? n : 1, sizeof(*s->bf.grp_len));
	for (i = 0; i < n; i++) {
		int32_t j = (int32_t)s->order[i];
		size_t key = 2 * (size_t)s->shape[j] + (size_t)job_class(&s->jl->jobs[j]);

		if (gmap[key] < 0)
			gmap[key] = (int32_t)s->bf.ngroups++;
		s->bf.grp[j] = gmap[key];
		s->bf.grp_pos[j] = s->bf.grp_len[gmap[key]]++;
	}
	free(gmap);
	g = s->bf.ngroups ? s->bf.ngroups : 1;
	s->bf.grp_off = gp_xmalloc(g * sizeof(*s->bf.grp_off));
	s->bf.grp_shape = gp_xmalloc(g * sizeof(*s->bf.grp_shape));
	s->bf.grp_need = gp_xmalloc(g * sizeof(*s->bf.grp_need));
	s->bf.tree_off = gp_xmalloc(g * sizeof(*s->bf.tree_off));
	s->bf.tree_size = gp_xmalloc(g * sizeof(*s->bf.tree_size));
	s->bf.grp_queued = gp_xcalloc(g, sizeof(*s->bf.grp_queued));
	s->bf.active_at = gp_xmalloc(g * sizeof(*s->bf.active_at));
	for (k = 0; k < NCLASS; k++)
		s->bf.active[k] = gp_xmalloc(g * sizeof(*s->bf.active[k]));
	for (g = 0; g < s->bf.ngroups; g++) {
		int32_t size = 1;

		while (size < s->bf.grp_len[g])
			size *= 2;
		s->bf.grp_off[g] = off;
		off += (size_t)s->bf.grp_len[g];
		s->bf.tree_off[g] = toff;
		s->bf.tree_size[g] = size;
		toff += 2 * (size_t)size;
		s->bf.active_at[g] = -1;
	}
	s->bf.tree = gp_xmalloc((toff ? toff : 1) * sizeof(*s->bf.tree));
	for (i = 0; i < toff; i++)
		s->bf.tree[i] = INFINITY;
	for (i = 0; i < n; i++) {
		int32_t j = (int32_t)s->order[i], gi = s->bf.grp[j];
		size_t at = s->bf.grp_off[gi] + (size_t)s->bf.grp_pos[j];

		s->bf.grp_jobs[at] = j;
		s->bf.grp_rank[at] = (int32_t)i;
		s->bf.grp_shape[gi] = s->shape[j];
		s->bf.grp_need[gi] = need_milli(&s->jl->jobs[j]);
	}
}

static void bf_teardown(sim *s)
{
	int k;

	gp_sim_sbf_free(s);
	free(s->bf.grp);
	free(s->bf.grp_pos);
	free(s->bf.grp_jobs);
	free(s->bf.grp_rank);
	free(s->bf.grp_len);
	free(s->bf.grp_off);
	free(s->bf.grp_shape);
	free(s->bf.grp_need);
	free(s->bf.tree_off);
	free(s->bf.tree_size);
	free(s->bf.tree);
	free(s->bf.grp_queued);
	free(s->bf.active_at);
	for (k = 0; k < NCLASS; k++)
		free(s->bf.active[k]);
	free(s->bf.lim_end);
	free(s->bf.released);
	free(s->bf.gpu_mark);
	free(s->bf.node_mark);
	free(s->bf.spare_cpu);
	free(s->bf.spare_mem);
}

static int32_t quota_holder(sim *s, int32_t head);

/* Preemption victims are back in the queue: the pass starts over from its
 * head, as the engine's does; the reservation holder then, -1: none. */
static int32_t start_over(sim *s)
{
	gp_sim_runinfo ri;
	int32_t h;

	while (s->status == GP_OK) {
		gp_sim_flush_requeue(s);
		if ((h = gp_sim_combined_head(s)) < 0)
			return -1;
		if (!gp_sim_try_place(s, h) && !(s->cfg->preempt && gp_sim_preempt_for(s, h, -1)) &&
		    !(gp_sim_quota_may_reclaim(s, h) && gp_sim_quota_reclaim(s, h)))
			return quota_holder(s, h);
		if (gp_sim_job_runinfo(s, h, &ri) == 0)
			gp_sim_start_job(s, h, &ri);
	}
	return -1;
}

/* With tenants the reservation goes to the first waiting job its quota
 * admits, or that may reclaim (Slurm's default, assoc_limit_continue: a
 * job held by its association's limits neither reserves nor blocks).  Jobs before it
 * that the quota refuses are passed over; one that the quota admits and
 * that fits starts, as it would at the head, and the first that does not
 * fit stands for the head: it preempts (--preempt) or reclaims as the
 * head would, and reserves only when that fails.  -1: none is left. */
static int32_t quota_holder(sim *s, int32_t head)
{
	int32_t j = head, nxt;
	int k = job_class(&s->jl->jobs[head]);
	gp_sim_runinfo ri;

	for (; k < NCLASS && s->status == GP_OK; k++)
		for (j = j == head ? head : s->qhead[k]; j >= 0 && s->status == GP_OK; j = nxt) {
			nxt = s->next[j];
			/* the head was tried by the pass; a job within its
			 * quota that the cohort refuses may still reclaim */
			if ((!gp_sim_quota_plan_admits(s, j, NULL, -INFINITY, -INFINITY) ||
			     (j == head && gp_sim_quota_refused(s, j))) &&
			    !gp_sim_quota_may_reclaim(s, j))
				continue;
			if (j == head)
				return j;
			if (!gp_sim_try_place(s, j)) {
				if (gp_sim_quota_refused(s, j) && !gp_sim_quota_may_reclaim(s, j))
					continue;
				if (!(s->cfg->preempt && gp_sim_preempt_for(s, j, -1)) &&
				    !(gp_sim_quota_may_reclaim(s, j) && gp_sim_quota_reclaim(s, j)))
					return j;
			}
			if (gp_sim_job_runinfo(s, j, &ri) == 0)
				gp_sim_start_job(s, j, &ri);
			if (s->ix.on && s->pk.ndeferred)
				return start_over(s);
		}
	return -1;
}

/* The head is blocked: reserve its start and backfill behind it (EASY),
 * or plan every waiting job as Slurm does (backfill_slurm.c). */
static void backfill(sim *s, int32_t head)
{
	int hk;

	if (s->cfg->backfill_mode == GP_SIM_BF_SLURM) {
		/* only at Slurm's backfill cycles, when they are given */
		if (s->cfg->bf_interval <= 0 || s->bf_due)
			gp_sim_backfill_slurm(s, head);
		return;
	}
	if (s->cfg->tenants && (head = quota_holder(s, head)) < 0)
		return;
	reserve(s, head);
	if (s->status != GP_OK)
		return;
	hk = job_class(&s->jl->jobs[head]);
	if (s->bf.index && use_index(s, hk))
		bf_scan(s, head, hk);
	else
		bf_walk(s, head, hk);
}

/* Backfill plans with the time limits when the trace gives them, as
 * Slurm does; an exact scan (no depth) uses the index. */
static int bf_disc_setup(sim *s)
{
	size_t i, nn = s->cl->nnodes ? (size_t)s->cl->nnodes : 1;

	s->bf.resv_head = -1;
	s->bf.released = gp_xmalloc((s->n ? s->n : 1) * sizeof(*s->bf.released));
	s->bf.gpu_mark = gp_xcalloc(s->cl->ngpus ? (size_t)s->cl->ngpus : 1, sizeof(*s->bf.gpu_mark));
	s->bf.node_mark = gp_xcalloc(nn, sizeof(*s->bf.node_mark));
	s->bf.spare_cpu = gp_xcalloc(nn, sizeof(*s->bf.spare_cpu));
	s->bf.spare_mem = gp_xcalloc(nn, sizeof(*s->bf.spare_mem));
	if (!s->cfg->backfill_depth && s->cfg->backfill_mode != GP_SIM_BF_SLURM)
		bf_setup(s);
	for (i = 0; i < s->n && !s->bf.limits; i++)
		s->bf.limits = s->jl->jobs[i].hist && s->jl->jobs[i].hist->time_limit > 0;
	return GP_OK;
}

static void bf_arrival(sim *s, int32_t j)
{
	const gp_job *job = &s->jl->jobs[j];

	if (s->bf.limits && job->hist && job->hist->time_limit > 0)
		s->est[j] = job->hist->time_limit;
	if (s->bf.index)
		bf_enqueue(s, j, job_class(&s->jl->jobs[j]));
	gp_sim_fifo_arrival(s, j);
}

static void bf_requeue(sim *s, int32_t j)
{
	if (s->bf.index)
		bf_enqueue(s, j, job_class(&s->jl->jobs[j]));
	gp_sim_fifo_requeue(s, j);
}

static void bf_leave(sim *s, int32_t j)
{
	if (s->bf.index)
		bf_dequeue(s, j, job_class(&s->jl->jobs[j]));
	gp_sim_fifo_leave(s, j);
}

const gp_sim_discipline gp_sim_disc_backfill = {
	.name = "backfill",
	.flags = GP_SIM_DISC_ARRIVALS,
	.setup = bf_disc_setup,
	.teardown = bf_teardown,
	.on_arrival = bf_arrival,
	.on_requeue = bf_requeue,
	.on_leave = bf_leave,
	.pick_next = gp_sim_fifo_head,
	.on_blocked = backfill,
};
