/* The discrete-event engine (see sim.h for the rules it implements).
 *
 * Memory: per-job arrays are sized once; placements of running jobs live
 * in a pool of gp_placement objects that is swapped with the policy's
 * scratch placement on start, so steady state allocates nothing. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/placement.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

#define NCLASS 2
#define TICK_TARGET 500.0 /* timeline rows aimed at by the auto tick */

typedef struct ev {
	double t;
	uint32_t seq;
	int32_t job;            /* -1: metrics tick */
} ev;

typedef struct order_key {
	double submit;
	size_t idx;
} order_key;

typedef struct sim {
	const gp_sim_config *cfg;
	const gp_cluster *cl;
	const gp_joblist *jl;
	gp_sim_result *res;
	gp_sim_duration_fn dur;
	void *dur_ud;
	size_t n;
	gp_alloc alloc;
	gp_alloc probe_alloc;   /* the idle cluster, for never-placed probes */
	int probe_ready;
	gp_rng rng, probe_rng;
	gp_policy_ctx ctx, probe_ctx;
	gp_placement scratch, probe_place;

	size_t *order;          /* job indices by (submit, index) */
	size_t next_arrival;

	ev *heap;
	size_t nheap, heap_cap;
	uint32_t seq;
	size_t *walk;           /* best-first walk over heap indices */
	size_t walk_cap;

	int32_t *shape;         /* job -> shape id */
	size_t nshapes;
	int8_t *shape_fits;     /* -1 unknown, 0 never, 1 fits the idle cluster */
	uint32_t *shape_waited; /* wait_epoch of the shape's last WAIT */
	uint32_t wait_epoch;    /* bumped whenever resources are freed: in
				 * between they only shrink, so a shape that
				 * waited keeps waiting */
	uint32_t *shape_conflict; /* state version of a reservation conflict */
	uint32_t version;         /* changes whenever the state does */

	double *est;            /* duration estimate (sjf key) */
	int32_t *slot;          /* placement pool slot while running */
	int32_t *prev, *next;   /* class queue links (fifo, backfill) */
	int32_t qhead[NCLASS], qtail[NCLASS];
	int32_t *sjf[NCLASS];   /* binary heaps (sjf) */
	size_t qlen[NCLASS];

	gp_placement *pool;
	int32_t *pool_free;
	size_t npool, nfree;

	int64_t cap_milli, alloc_milli, min_need;
	size_t running, settled;
	double last_t, integral;        /* integral of alloc_milli dt */
	double tick_t, tick_integral;   /* at the previous timeline row */
	int freed;
	int32_t last_head;
	size_t narrived;        /* arrivals since the last pass */

	/* EASY reservation of the blocked head */
	int32_t resv_head;      /* -1 none */
	uint32_t resv_epoch;    /* wait_epoch when it was made */
	double resv_t;
	uint32_t resv_stamp;
	uint32_t *gpu_mark, *node_mark;
	int64_t *spare_cpu, *spare_mem;
	int32_t *released;
	size_t nreleased;

	/* Exact backfill scan index (see bf_scan): queued jobs grouped by
	 * (shape, class), each group in arrival order with a min-tree over
	 * the duration estimates of its queued members. */
	int bf_index;
	int32_t *rank;          /* job -> position in arrival order */
	int32_t *grp;           /* job -> group */
	int32_t *grp_pos;       /* job -> position inside its group */
	int32_t *grp_jobs;      /* group members, arrival order, by grp_off */
	int32_t *grp_rank;      /* their arrival ranks (parallel) */
	size_t *grp_off;        /* group -> first member in grp_jobs */
	int32_t *grp_len;       /* group -> members */
	int32_t *grp_shape;     /* group -> shape */
	size_t *tree_off;       /* group -> its min-tree in tree[] */
	int32_t *tree_size;     /* group -> leaves (a power of two) */
	double *tree;
	int32_t *grp_queued;    /* group -> members in the queue */
	int64_t *grp_need;      /* group -> GPU share of one member, milli */
	int32_t *active[NCLASS];/* groups with queued members, per class */
	int32_t *active_at;     /* group -> index in active[class], -1 none */
	size_t nactive[NCLASS];
	size_t ngroups;

	gp_error *err;
	int status;
} sim;

const char *gp_sim_queue_name(int q)
{
	static const char *const names[] = { "fifo", "sjf", "backfill" };

	return q >= 0 && q < GP_SIM_QUEUES ? names[q] : "?";
}

int gp_sim_queue_parse(const char *s)
{
	int q;

	for (q = 0; q < GP_SIM_QUEUES; q++)
		if (!strcmp(s, gp_sim_queue_name(q)))
			return q;
	return -1;
}

const char *gp_sim_state_name(int state)
{
	static const char *const names[] = { "pending", "completed", "failed", "never_placed" };

	return state >= 0 && state <= GP_SIM_NEVER ? names[state] : "?";
}

int gp_sim_fixed_duration(void *ud, const gp_cluster *c, const gp_job *job,
			  const gp_placement *p, gp_sim_runinfo *out)
{
	(void)ud;
	(void)c;
	(void)p;
	memset(out, 0, sizeof(*out));
	if (!(job->duration >= 0) || !isfinite(job->duration))
		return -1;
	out->duration = job->duration;
	return 0;
}

void gp_sim_config_init(gp_sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->queue = GP_SIM_FIFO;
}

void gp_sim_result_init(gp_sim_result *r)
{
	memset(r, 0, sizeof(*r));
}

void gp_sim_result_release(gp_sim_result *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

/* ---- event heap: (time, sequence) ---- */

static int ev_less(const ev *a, const ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void heap_push(sim *s, double t, int32_t job)
{
	size_t i;
	ev e;

	GP_GROW(s->heap, s->heap_cap, s->nheap + 1);
	e.t = t;
	e.seq = s->seq++;
	e.job = job;
	i = s->nheap++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!ev_less(&e, &s->heap[parent]))
			break;
		s->heap[i] = s->heap[parent];
		i = parent;
	}
	s->heap[i] = e;
}

static ev heap_pop(sim *s)
{
	ev top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0, n = s->nheap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!ev_less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

/* ---- job shapes: jobs that ask for the same thing share a probe ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t shape_hash(const gp_job *j)
{
	uint64_t h = 1469598103934665603ULL;
	const char *p;

	h = mix(h, (uint64_t)(int64_t)j->gpus);
	h = mix(h, (uint64_t)(int64_t)j->gpu_milli);
	h = mix(h, (uint64_t)j->gpu_mem_mib);
	h = mix(h, (uint64_t)j->cpu_milli);
	h = mix(h, (uint64_t)j->mem_mib);
	h = mix(h, (uint64_t)(int64_t)j->type);
	h = mix(h, (uint64_t)(int64_t)j->ps);
	h = mix(h, (uint64_t)(int64_t)j->workers);
	for (p = j->gpu_models ? j->gpu_models : ""; *p; p++)
		h = mix(h, (unsigned char)*p);
	for (p = j->environment ? j->environment : ""; *p; p++)
		h = mix(h, (unsigned char)*p);
	return h;
}

static int str_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int shape_eq(const gp_job *a, const gp_job *b)
{
	return a->gpus == b->gpus && a->gpu_milli == b->gpu_milli &&
	       a->gpu_mem_mib == b->gpu_mem_mib && a->cpu_milli == b->cpu_milli &&
	       a->mem_mib == b->mem_mib && a->type == b->type && a->ps == b->ps &&
	       a->workers == b->workers && str_eq(a->gpu_models, b->gpu_models) &&
	       str_eq(a->environment, b->environment);
}

static void assign_shapes(sim *s)
{
	size_t size = 16, i;
	int32_t *table, *rep;
	const gp_job *jobs = s->jl->jobs;

	while (size < 2 * s->n)
		size *= 2;
	table = gp_xmalloc(size * sizeof(*table));
	memset(table, 0xff, size * sizeof(*table));
	rep = gp_xmalloc((s->n ? s->n : 1) * sizeof(*rep));
	for (i = 0; i < s->n; i++) {
		size_t h = (size_t)shape_hash(&jobs[i]) & (size - 1);

		while (table[h] >= 0 && !shape_eq(&jobs[rep[table[h]]], &jobs[i]))
			h = (h + 1) & (size - 1);
		if (table[h] < 0) {
			rep[s->nshapes] = (int32_t)i;
			table[h] = (int32_t)s->nshapes++;
		}
		s->shape[i] = table[h];
	}
	free(table);
	free(rep);
	s->shape_fits = gp_xmalloc((s->nshapes ? s->nshapes : 1) * sizeof(*s->shape_fits));
	memset(s->shape_fits, 0xff, (s->nshapes ? s->nshapes : 1) * sizeof(*s->shape_fits));
	s->shape_waited = gp_xcalloc(s->nshapes ? s->nshapes : 1, sizeof(*s->shape_waited));
	s->shape_conflict = gp_xcalloc(s->nshapes ? s->nshapes : 1, sizeof(*s->shape_conflict));
}

static int64_t need_milli(const gp_job *j)
{
	return (int64_t)j->gpus * (int64_t)j->gpu_milli;
}

/* ---- queues ---- */

static int job_class(const gp_job *j)
{
	return j->klass == GP_CLASS_LS ? 0 : 1;
}

static int sjf_less(const sim *s, int32_t a, int32_t b)
{
	const gp_job *ja = &s->jl->jobs[a], *jb = &s->jl->jobs[b];

	if (s->est[a] != s->est[b])
		return s->est[a] < s->est[b];
	if (ja->submit != jb->submit)
		return ja->submit < jb->submit;
	return a < b;
}

/* ---- exact backfill scan index ---- */

/* Set job j's leaf in its group's min-tree (INFINITY: not queued). */
static void bf_set(sim *s, int32_t j, double v)
{
	int32_t g = s->grp[j];
	double *t = s->tree + s->tree_off[g];
	size_t i = (size_t)s->tree_size[g] + (size_t)s->grp_pos[j];

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
	const double *t = s->tree + s->tree_off[g];
	size_t size = (size_t)s->tree_size[g], i = size + (size_t)p;

	if (p >= s->grp_len[g])
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
	const int32_t *rk = s->grp_rank + s->grp_off[g];
	int32_t lo = 0, hi = s->grp_len[g];

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
	int32_t g = s->grp[j];

	bf_set(s, j, s->est[j]);
	if (s->grp_queued[g]++ == 0) {
		s->active_at[g] = (int32_t)s->nactive[k];
		s->active[k][s->nactive[k]++] = g;
	}
}

static void bf_dequeue(sim *s, int32_t j, int k)
{
	int32_t g = s->grp[j];

	bf_set(s, j, INFINITY);
	if (--s->grp_queued[g] == 0) {
		int32_t last = s->active[k][--s->nactive[k]];

		s->active[k][s->active_at[g]] = last;
		s->active_at[last] = s->active_at[g];
		s->active_at[g] = -1;
	}
}

static void enqueue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	s->qlen[k]++;
	if (s->cfg->queue == GP_SIM_SJF) {
		int32_t *h = s->sjf[k];
		size_t i = s->qlen[k] - 1;

		while (i > 0 && sjf_less(s, j, h[(i - 1) / 2])) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = j;
		return;
	}
	if (s->bf_index)
		bf_enqueue(s, j, k);
	s->prev[j] = s->qtail[k];
	s->next[j] = -1;
	if (s->qtail[k] >= 0)
		s->next[s->qtail[k]] = j;
	else
		s->qhead[k] = j;
	s->qtail[k] = j;
}

static int32_t queue_head(const sim *s, int k)
{
	if (s->cfg->queue == GP_SIM_SJF)
		return s->qlen[k] ? s->sjf[k][0] : -1;
	return s->qhead[k];
}

/* Remove j; under sjf only the head is ever removed. */
static void dequeue(sim *s, int32_t j)
{
	int k = job_class(&s->jl->jobs[j]);

	if (s->cfg->queue == GP_SIM_SJF) {
		int32_t *h = s->sjf[k], last;
		size_t i = 0, n = --s->qlen[k];

		last = h[n];
		for (;;) {
			size_t c = 2 * i + 1;

			if (c >= n)
				break;
			if (c + 1 < n && sjf_less(s, h[c + 1], h[c]))
				c++;
			if (!sjf_less(s, h[c], last))
				break;
			h[i] = h[c];
			i = c;
		}
		if (n)
			h[i] = last;
		return;
	}
	if (s->bf_index)
		bf_dequeue(s, j, k);
	s->qlen[k]--;
	if (s->prev[j] >= 0)
		s->next[s->prev[j]] = s->next[j];
	else
		s->qhead[k] = s->next[j];
	if (s->next[j] >= 0)
		s->prev[s->next[j]] = s->prev[j];
	else
		s->qtail[k] = s->prev[j];
}

static int32_t combined_head(const sim *s)
{
	int32_t h = queue_head(s, 0);

	return h >= 0 ? h : queue_head(s, 1);
}

/* ---- job life ---- */

static void settle(sim *s, int32_t j, int state)
{
	s->res->jobs[j].state = (uint8_t)state;
	s->settled++;
	if (state == GP_SIM_FAILED)
		s->res->failed++;
	else if (state == GP_SIM_NEVER)
		s->res->never_placed++;
	else
		s->res->completed++;
}

static int fits_idle_cluster(sim *s, int32_t j)
{
	int32_t sh = s->shape[j];

	if (s->shape_fits[sh] < 0) {
		if (!s->probe_ready) {
			if (gp_alloc_init(&s->probe_alloc, s->cl) != GP_OK) {
				s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
							 "cannot set up the cluster state");
				return 0;
			}
			s->probe_ready = 1;
		}
		s->res->policy_calls++;
		s->shape_fits[sh] = s->cfg->policy->place(&s->probe_ctx, &s->jl->jobs[j],
							  &s->probe_place) == GP_PLACED;
	}
	return s->shape_fits[sh];
}

static void arrive(sim *s, int32_t j)
{
	const gp_job *job = &s->jl->jobs[j];
	gp_sim_runinfo ri;

	if (!fits_idle_cluster(s, j)) {
		settle(s, j, GP_SIM_NEVER);
		return;
	}
	if (s->dur(s->dur_ud, s->cl, job, NULL, &ri) != 0 || !isfinite(ri.duration) ||
	    ri.duration < 0) {
		settle(s, j, GP_SIM_FAILED);
		return;
	}
	s->est[j] = ri.duration;
	enqueue(s, j);
	s->narrived++;
}

/* Start j now on the placement in s->scratch. */
static int start_job(sim *s, int32_t j, const gp_sim_runinfo *ri)
{
	gp_sim_job *rec = &s->res->jobs[j];
	const gp_job *job = &s->jl->jobs[j];
	gp_placement tmp;
	int32_t slot;
	int i, lo = -1;

	if (gp_placement_apply(&s->alloc, &s->scratch) != 0)
		return s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						"policy '%s' proposed a placement for job '%s' that does not fit",
						s->cfg->policy->name, job->id ? job->id : "?");
	if (!s->nfree) {
		size_t cap = s->npool ? 2 * s->npool : 64, x;

		s->pool = gp_xrealloc(s->pool, cap * sizeof(*s->pool));
		s->pool_free = gp_xrealloc(s->pool_free, cap * sizeof(*s->pool_free));
		for (x = cap; x-- > s->npool;) {
			gp_placement_init(&s->pool[x]);
			s->pool_free[s->nfree++] = (int32_t)x;
		}
		s->npool = cap;
	}
	slot = s->pool_free[--s->nfree];
	tmp = s->pool[slot];
	s->pool[slot] = s->scratch;
	s->scratch = tmp;
	s->slot[j] = slot;
	for (i = 0; i < s->pool[slot].nparts; i++)
		if (lo < 0 || s->pool[slot].parts[i].node < lo)
			lo = s->pool[slot].parts[i].node;
	rec->start = s->last_t;
	rec->finish = s->last_t + ri->duration;
	rec->iter_s = ri->iter_s;
	rec->slowdown = ri->best_iter_s > 0 && ri->iter_s > 0 ? ri->iter_s / ri->best_iter_s : 0;
	rec->nodes = s->pool[slot].nparts;
	rec->first_node = lo;
	s->alloc_milli += need_milli(job);
	s->version++;
	s->running++;
	if (s->running > s->res->peak_running)
		s->res->peak_running = s->running;
	heap_push(s, rec->finish, j);
	dequeue(s, j);
	return GP_OK;
}

static void finish_job(sim *s, int32_t j)
{
	int32_t slot = s->slot[j];

	gp_placement_undo(&s->alloc, &s->pool[slot]);
	s->pool_free[s->nfree++] = slot;
	s->slot[j] = -1;
	s->alloc_milli -= need_milli(&s->jl->jobs[j]);
	s->version++;
	s->wait_epoch++;
	s->running--;
	s->freed = 1;
	if (s->res->jobs[j].finish > s->res->last_finish)
		s->res->last_finish = s->res->jobs[j].finish;
	settle(s, j, GP_SIM_DONE);
}

/* Ask the policy to place j on the current state (into s->scratch). */
static int try_place(sim *s, int32_t j)
{
	const gp_job *job = &s->jl->jobs[j];

	if (need_milli(job) > s->cap_milli - s->alloc_milli)
		return 0;
	if (s->shape_waited[s->shape[j]] == s->wait_epoch)
		return 0;
	s->res->policy_calls++;
	if (s->cfg->policy->place(&s->ctx, job, &s->scratch) == GP_PLACED)
		return 1;
	/* Until something is freed the same shape waits again. */
	s->shape_waited[s->shape[j]] = s->wait_epoch;
	return 0;
}

/* Run time of j on s->scratch; a job without one fails. */
static int runinfo(sim *s, int32_t j, gp_sim_runinfo *ri)
{
	if (s->dur(s->dur_ud, s->cl, &s->jl->jobs[j], &s->scratch, ri) != 0 ||
	    !isfinite(ri->duration) || ri->duration < 0) {
		dequeue(s, j);
		settle(s, j, GP_SIM_FAILED);
		return -1;
	}
	return 0;
}

/* ---- EASY reservation ---- */

/* Next finish event in (time, seq) order from a best-first walk over the
 * heap array; -1 when none is left.  Ticks are skipped. */
static long walk_next(sim *s, size_t *nwalk)
{
	while (*nwalk) {
		size_t i = s->walk[0], n = --(*nwalk), k, c, last = s->walk[n];
		size_t kids[2];

		/* pop min */
		for (k = 0;;) {
			c = 2 * k + 1;
			if (c >= n)
				break;
			if (c + 1 < n && ev_less(&s->heap[s->walk[c + 1]], &s->heap[s->walk[c]]))
				c++;
			if (!ev_less(&s->heap[s->walk[c]], &s->heap[last]))
				break;
			s->walk[k] = s->walk[c];
			k = c;
		}
		if (n)
			s->walk[k] = last;
		kids[0] = 2 * i + 1;
		kids[1] = 2 * i + 2;
		for (c = 0; c < 2; c++) {
			size_t x = kids[c], m;

			if (x >= s->nheap)
				continue;
			m = (*nwalk)++;
			while (m > 0 && ev_less(&s->heap[x], &s->heap[s->walk[(m - 1) / 2]])) {
				s->walk[m] = s->walk[(m - 1) / 2];
				m = (m - 1) / 2;
			}
			s->walk[m] = x;
		}
		if (s->heap[i].job >= 0)
			return (long)i;
	}
	return -1;
}

static void reserve(sim *s, int32_t head)
{
	const gp_job *job = &s->jl->jobs[head];
	size_t nwalk = 0, r;
	int64_t freed_milli = 0;
	double group_t = 0, earliest = -INFINITY;
	int have_group = 0, found = 0, i, g;

	/* Nothing was freed since this head got its last reservation, only
	 * more jobs started: it cannot start before that time now. */
	if (s->resv_head == head && s->resv_epoch == s->wait_epoch)
		earliest = s->resv_t;
	s->resv_head = head;
	s->resv_epoch = s->wait_epoch;
	s->resv_t = INFINITY;
	s->resv_stamp++;
	s->nreleased = 0;
	GP_GROW(s->walk, s->walk_cap, s->nheap + 1);
	if (s->nheap && earliest < INFINITY)
		s->walk[nwalk++] = 0;
	s->probe_ctx.alloc = &s->alloc;
	for (;;) {
		long e = walk_next(s, &nwalk);

		if (e < 0 || !have_group || s->heap[e].t != group_t) {
			if (have_group && group_t >= earliest &&
			    need_milli(job) <= s->cap_milli - s->alloc_milli + freed_milli) {
				s->res->policy_calls++;
				if (s->cfg->policy->place(&s->probe_ctx, job, &s->probe_place) == GP_PLACED) {
					found = 1;
					break;
				}
			}
			if (e < 0)
				break;
			group_t = s->heap[e].t;
			have_group = 1;
		}
		s->released[s->nreleased++] = s->heap[e].job;
		gp_placement_undo(&s->alloc, &s->pool[s->slot[s->heap[e].job]]);
		freed_milli += need_milli(&s->jl->jobs[s->heap[e].job]);
	}
	s->probe_ctx.alloc = &s->probe_alloc;
	if (found) {
		s->resv_t = group_t;
		for (i = 0; i < s->probe_place.nparts; i++) {
			const gp_place_part *part = &s->probe_place.parts[i];
			int node = part->node, first = s->cl->nodes[node].first_gpu;

			if (s->node_mark[node] != s->resv_stamp) {
				s->node_mark[node] = s->resv_stamp;
				s->spare_cpu[node] = s->alloc.node_free_cpu_milli[node];
				s->spare_mem[node] = s->alloc.node_free_mem_mib[node];
			}
			s->spare_cpu[node] -= part->cpu_milli;
			s->spare_mem[node] -= part->host_mem_mib;
			for (g = 0; g < part->ngpus; g++)
				s->gpu_mark[first + part->gpus[g]] = s->resv_stamp;
		}
	}
	for (r = s->nreleased; r-- > 0;)
		if (gp_placement_apply(&s->alloc, &s->pool[s->slot[s->released[r]]]) != 0) {
			s->status = gp_error_set(s->err, GP_EIO, NULL, 0, 0,
						 "internal error: cannot restore a running job");
			return;
		}
}

/* May j (placed in s->scratch, running until end) start without delaying
 * the reservation?  Takes the head's spare host resources when yes. */
static int respects_reservation(sim *s, double end)
{
	int i, g;

	if (end <= s->resv_t)
		return 1;
	for (i = 0; i < s->scratch.nparts; i++) {
		const gp_place_part *part = &s->scratch.parts[i];
		int node = part->node, first = s->cl->nodes[node].first_gpu;

		for (g = 0; g < part->ngpus; g++)
			if (s->gpu_mark[first + part->gpus[g]] == s->resv_stamp)
				return 0;
		if (s->node_mark[node] == s->resv_stamp &&
		    (part->cpu_milli > s->spare_cpu[node] || part->host_mem_mib > s->spare_mem[node]))
			return 0;
	}
	for (i = 0; i < s->scratch.nparts; i++) {
		const gp_place_part *part = &s->scratch.parts[i];

		if (s->node_mark[part->node] == s->resv_stamp) {
			s->spare_cpu[part->node] -= part->cpu_milli;
			s->spare_mem[part->node] -= part->host_mem_mib;
		}
	}
	return 1;
}

static void backfill_one(sim *s, int32_t j)
{
	gp_sim_runinfo ri;
	int32_t sh = s->shape[j];

	/* The state has not changed since this shape was placed on the
	 * reservation: the policy would do it again for a job this long. */
	if (s->shape_conflict[sh] == s->version && s->last_t + s->est[j] > s->resv_t)
		return;
	if (!try_place(s, j) || runinfo(s, j, &ri) != 0)
		return;
	if (!respects_reservation(s, s->last_t + ri.duration)) {
		s->shape_conflict[sh] = s->version;
		return;
	}
	if (start_job(s, j, &ri) == GP_OK)
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
			slack = s->resv_t - s->last_t +
				(fabs(s->resv_t) + fabs(s->last_t)) * 4 * DBL_EPSILON;
			for (a = 0; a < s->nactive[k]; a++) {
				int32_t g = s->active[k][a], sh = s->grp_shape[g], p, j;

				if (s->shape_waited[sh] == s->wait_epoch || s->grp_need[g] > free_milli)
					continue;
				p = bf_find(s, g, bf_after(s, g, r),
					    s->shape_conflict[sh] == s->version ? slack : DBL_MAX);
				if (p < 0)
					continue;
				j = s->grp_jobs[s->grp_off[g] + (size_t)p];
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
		groups += s->nactive[k];
		queued += s->qlen[k];
	}
	return queued > 64 && groups * 16 < queued;
}

/* ---- the scheduling pass ---- */

static void schedule(sim *s)
{
	int32_t head = combined_head(s), j;
	int k, hk;
	gp_sim_runinfo ri;

	s->version++;
	if (!s->freed && head == s->last_head && head >= 0 &&
	    (s->cfg->queue != GP_SIM_BACKFILL || !s->narrived)) {
		/* Nothing was freed and the blocked head is the same: it
		 * still cannot start, nor (fifo, sjf) can anything behind it;
		 * under backfill a batch without arrivals (a tick) changes
		 * nothing either. */
		s->narrived = 0;
		return;
	}
	s->freed = 0;
	s->narrived = 0;
	for (k = 0; k < NCLASS; k++) {
		while ((j = queue_head(s, k)) >= 0 && s->status == GP_OK) {
			if (!try_place(s, j)) {
				s->last_head = j;
				goto blocked;
			}
			if (runinfo(s, j, &ri) == 0)
				start_job(s, j, &ri);
		}
	}
	s->last_head = -1;
	return;
blocked:
	if (s->cfg->queue != GP_SIM_BACKFILL || s->status != GP_OK)
		return;
	head = s->last_head;
	reserve(s, head);
	if (s->status != GP_OK)
		return;
	hk = job_class(&s->jl->jobs[head]);
	if (s->bf_index && use_index(s, hk))
		bf_scan(s, head, hk);
	else
		bf_walk(s, head, hk);
}

/* ---- timeline ---- */

static void sample(sim *s, double t)
{
	gp_sim_result *r = s->res;
	gp_sim_sample *row;
	double span = t - s->tick_t;

	GP_GROW(r->samples, r->samples_cap, r->nsamples + 1);
	row = &r->samples[r->nsamples++];
	memset(row, 0, sizeof(*row));
	row->t = t;
	if (span > 0 && s->cap_milli > 0)
		row->utilization = (s->integral - s->tick_integral) / ((double)s->cap_milli * span);
	else
		row->utilization = s->cap_milli > 0 ? (double)s->alloc_milli / (double)s->cap_milli : 0;
	row->allocated_milli = s->alloc_milli;
	row->queued_ls = (int32_t)s->qlen[0];
	row->queued_be = (int32_t)s->qlen[1];
	row->running = (int32_t)s->running;
	s->tick_t = t;
	s->tick_integral = s->integral;
}

/* 1, 2 or 5 times a power of ten, at least x. */
static double nice_step(double x)
{
	double p, f;

	if (!(x > 0) || !isfinite(x))
		return 1;
	p = pow(10, floor(log10(x)));
	f = x / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

static int cmp_order(const void *a, const void *b)
{
	const order_key *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Groups of queued jobs for bf_scan: (shape, class) pairs, members in
 * arrival order, one min-tree each. */
static void bf_setup(sim *s)
{
	size_t n = s->n, i, off = 0, toff = 0, g;
	int32_t *gmap = gp_xmalloc(2 * (s->nshapes ? s->nshapes : 1) * sizeof(*gmap));
	int k;

	s->bf_index = 1;
	memset(gmap, 0xff, 2 * (s->nshapes ? s->nshapes : 1) * sizeof(*gmap));
	s->rank = gp_xmalloc((n ? n : 1) * sizeof(*s->rank));
	s->grp = gp_xmalloc((n ? n : 1) * sizeof(*s->grp));
	s->grp_pos = gp_xmalloc((n ? n : 1) * sizeof(*s->grp_pos));
	s->grp_jobs = gp_xmalloc((n ? n : 1) * sizeof(*s->grp_jobs));
	s->grp_rank = gp_xmalloc((n ? n : 1) * sizeof(*s->grp_rank));
	s->grp_len = gp_xcalloc(n ? n : 1, sizeof(*s->grp_len));
	for (i = 0; i < n; i++) {
		int32_t j = (int32_t)s->order[i];
		size_t key = 2 * (size_t)s->shape[j] + (size_t)job_class(&s->jl->jobs[j]);

		s->rank[j] = (int32_t)i;
		if (gmap[key] < 0)
			gmap[key] = (int32_t)s->ngroups++;
		s->grp[j] = gmap[key];
		s->grp_pos[j] = s->grp_len[gmap[key]]++;
	}
	free(gmap);
	g = s->ngroups ? s->ngroups : 1;
	s->grp_off = gp_xmalloc(g * sizeof(*s->grp_off));
	s->grp_shape = gp_xmalloc(g * sizeof(*s->grp_shape));
	s->grp_need = gp_xmalloc(g * sizeof(*s->grp_need));
	s->tree_off = gp_xmalloc(g * sizeof(*s->tree_off));
	s->tree_size = gp_xmalloc(g * sizeof(*s->tree_size));
	s->grp_queued = gp_xcalloc(g, sizeof(*s->grp_queued));
	s->active_at = gp_xmalloc(g * sizeof(*s->active_at));
	for (k = 0; k < NCLASS; k++)
		s->active[k] = gp_xmalloc(g * sizeof(*s->active[k]));
	for (g = 0; g < s->ngroups; g++) {
		int32_t size = 1;

		while (size < s->grp_len[g])
			size *= 2;
		s->grp_off[g] = off;
		off += (size_t)s->grp_len[g];
		s->tree_off[g] = toff;
		s->tree_size[g] = size;
		toff += 2 * (size_t)size;
		s->active_at[g] = -1;
	}
	s->tree = gp_xmalloc((toff ? toff : 1) * sizeof(*s->tree));
	for (i = 0; i < toff; i++)
		s->tree[i] = INFINITY;
	for (i = 0; i < n; i++) {
		int32_t j = (int32_t)s->order[i], gi = s->grp[j];
		size_t at = s->grp_off[gi] + (size_t)s->grp_pos[j];

		s->grp_jobs[at] = j;
		s->grp_rank[at] = (int32_t)i;
		s->grp_shape[gi] = s->shape[j];
		s->grp_need[gi] = need_milli(&s->jl->jobs[j]);
	}
}

static void bf_teardown(sim *s)
{
	int k;

	free(s->rank);
	free(s->grp);
	free(s->grp_pos);
	free(s->grp_jobs);
	free(s->grp_rank);
	free(s->grp_len);
	free(s->grp_off);
	free(s->grp_shape);
	free(s->grp_need);
	free(s->tree_off);
	free(s->tree_size);
	free(s->tree);
	free(s->grp_queued);
	free(s->active_at);
	for (k = 0; k < NCLASS; k++)
		free(s->active[k]);
}

static int setup(sim *s)
{
	const gp_joblist *jl = s->jl;
	size_t n = jl->n, i;
	order_key *keys;
	double horizon = 0;
	int k;

	for (i = 0; i < n; i++)
		if (!isfinite(jl->jobs[i].submit))
			return gp_error_set(s->err, GP_EINPUT, jl->source, (int)jl->jobs[i].line, 0,
					    "job '%s' has no finite submit time",
					    jl->jobs[i].id ? jl->jobs[i].id : "?");
	if (gp_alloc_init(&s->alloc, s->cl) != GP_OK)
		return gp_error_set(s->err, GP_EIO, NULL, 0, 0, "cannot set up the cluster state");
	keys = gp_xmalloc((n ? n : 1) * sizeof(*keys));
	for (i = 0; i < n; i++) {
		keys[i].submit = jl->jobs[i].submit;
		keys[i].idx = i;
	}
	qsort(keys, n, sizeof(*keys), cmp_order);
	s->order = gp_xmalloc((n ? n : 1) * sizeof(*s->order));
	for (i = 0; i < n; i++)
		s->order[i] = keys[i].idx;
	free(keys);

	s->res->njobs = n;
	s->res->jobs = gp_xmalloc((n ? n : 1) * sizeof(*s->res->jobs));
	s->shape = gp_xmalloc((n ? n : 1) * sizeof(*s->shape));
	s->est = gp_xcalloc(n ? n : 1, sizeof(*s->est));
	s->slot = gp_xmalloc((n ? n : 1) * sizeof(*s->slot));
	s->prev = gp_xmalloc((n ? n : 1) * sizeof(*s->prev));
	s->next = gp_xmalloc((n ? n : 1) * sizeof(*s->next));
	s->released = gp_xmalloc((n ? n : 1) * sizeof(*s->released));
	if (s->cfg->queue == GP_SIM_SJF)
		for (k = 0; k < NCLASS; k++)
			s->sjf[k] = gp_xmalloc((n ? n : 1) * sizeof(*s->sjf[k]));
	for (k = 0; k < NCLASS; k++)
		s->qhead[k] = s->qtail[k] = -1;
	s->min_need = INT64_MAX;
	for (i = 0; i < n; i++) {
		gp_sim_job *rec = &s->res->jobs[i];
		const gp_job *job = &jl->jobs[i];

		memset(rec, 0, sizeof(*rec));
		rec->start = rec->finish = -1;
		rec->first_node = -1;
		s->slot[i] = -1;
		s->prev[i] = s->next[i] = -1;
		if (need_milli(job) > 0 && need_milli(job) < s->min_need)
			s->min_need = need_milli(job);
		if (job->duration > 0 && job->submit + job->duration > horizon)
			horizon = job->submit + job->duration;
	}
	if (s->min_need == INT64_MAX)
		s->min_need = 0;
	assign_shapes(s);
	if (s->cfg->queue == GP_SIM_BACKFILL && !s->cfg->backfill_depth)
		bf_setup(s);
	s->gpu_mark = gp_xcalloc(s->cl->ngpus ? (size_t)s->cl->ngpus : 1, sizeof(*s->gpu_mark));
	s->node_mark = gp_xcalloc(s->cl->nnodes ? (size_t)s->cl->nnodes : 1, sizeof(*s->node_mark));
	s->spare_cpu = gp_xcalloc(s->cl->nnodes ? (size_t)s->cl->nnodes : 1, sizeof(*s->spare_cpu));
	s->spare_mem = gp_xcalloc(s->cl->nnodes ? (size_t)s->cl->nnodes : 1, sizeof(*s->spare_mem));

	s->res->first_submit = n ? jl->jobs[s->order[0]].submit : 0;
	s->res->last_finish = s->res->first_submit;
	s->res->ngpus = s->cl->ngpus;
	s->cap_milli = (int64_t)s->cl->ngpus * GP_MILLI;
	s->last_t = s->tick_t = s->res->first_submit;
	if (s->cfg->tick > 0)
		s->res->tick = s->cfg->tick;
	else
		s->res->tick = nice_step((horizon - s->res->first_submit) / TICK_TARGET);
	s->last_head = -1;
	s->resv_head = -1;
	s->wait_epoch = 1;
	gp_rng_seed(&s->rng, s->cfg->seed);
	gp_rng_seed(&s->probe_rng, s->cfg->seed ^ 0x5eed5eed5eed5eedULL);
	s->ctx.cluster = s->cl;
	s->ctx.alloc = &s->alloc;
	s->ctx.rng = &s->rng;
	s->probe_ctx.cluster = s->cl;
	s->probe_ctx.alloc = &s->probe_alloc;
	s->probe_ctx.rng = &s->probe_rng;
	/* Per-node-type policy tables, built once (shared: never in use twice). */
	s->ctx.cache = s->probe_ctx.cache = gp_place_cache_new(s->cl);
	gp_placement_init(&s->scratch);
	gp_placement_init(&s->probe_place);
	if (n)
		heap_push(s, s->res->first_submit + s->res->tick, -1);
	return GP_OK;
}

static void teardown(sim *s)
{
	size_t i;
	int k;

	for (i = 0; i < s->npool; i++)
		gp_placement_release(&s->pool[i]);
	free(s->pool);
	free(s->pool_free);
	gp_placement_release(&s->scratch);
	gp_placement_release(&s->probe_place);
	gp_alloc_release(&s->alloc);
	gp_place_cache_free(s->ctx.cache);
	if (s->probe_ready)
		gp_alloc_release(&s->probe_alloc);
	free(s->order);
	free(s->heap);
	free(s->walk);
	free(s->shape);
	free(s->shape_fits);
	free(s->shape_waited);
	free(s->shape_conflict);
	free(s->est);
	free(s->slot);
	free(s->prev);
	free(s->next);
	for (k = 0; k < NCLASS; k++)
		free(s->sjf[k]);
	free(s->released);
	free(s->gpu_mark);
	free(s->node_mark);
	free(s->spare_cpu);
	free(s->spare_mem);
	bf_teardown(s);
}

static void drain_stuck(sim *s)
{
	/* Nothing runs and nothing will arrive: whatever still queues can
	 * never start (the policy refused it on what is the idle cluster). */
	while (s->status == GP_OK && s->running == 0 && s->next_arrival == s->n) {
		int32_t h = combined_head(s);

		if (h < 0)
			break;
		dequeue(s, h);
		settle(s, h, GP_SIM_NEVER);
		s->freed = 1;
		schedule(s);
	}
}

int gp_sim_run(const gp_sim_config *cfg, const gp_joblist *jobs,
	       gp_sim_result *out, gp_error *err)
{
	sim s;
	size_t i, last_progress = 0;
	int status;

	gp_sim_result_init(out);
	if (!cfg || !cfg->cluster || !cfg->policy || cfg->queue < 0 || cfg->queue >= GP_SIM_QUEUES ||
	    !(cfg->tick >= 0) || !isfinite(cfg->tick))
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0, "bad simulator configuration");
	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.cl = cfg->cluster;
	s.jl = jobs;
	s.n = jobs->n;
	s.res = out;
	s.err = err;
	s.dur = cfg->duration ? cfg->duration : gp_sim_fixed_duration;
	s.dur_ud = cfg->duration_ud;
	status = setup(&s);
	if (status != GP_OK) {
		teardown(&s);
		gp_sim_result_release(out);
		return status;
	}
	while (s.status == GP_OK) {
		double t_arr = s.next_arrival < s.n ? jobs->jobs[s.order[s.next_arrival]].submit : INFINITY;
		double t_ev = s.nheap ? s.heap[0].t : INFINITY;
		double t = t_arr < t_ev ? t_arr : t_ev;
		int ticked = 0;

		if (t == INFINITY)
			break;
		s.integral += (double)s.alloc_milli * (t - s.last_t);
		s.last_t = t;
		while (s.nheap && s.heap[0].t == t) {
			ev e = heap_pop(&s);

			if (e.job < 0)
				ticked = 1;
			else
				finish_job(&s, e.job);
		}
		while (s.next_arrival < s.n && jobs->jobs[s.order[s.next_arrival]].submit == t)
			arrive(&s, (int32_t)s.order[s.next_arrival++]);
		if (s.status != GP_OK)
			break;
		schedule(&s);
		drain_stuck(&s);
		out->batches++;
		if (s.qlen[0] + s.qlen[1] > out->peak_queued)
			out->peak_queued = s.qlen[0] + s.qlen[1];
		if (ticked) {
			if (out->nsamples >= GP_SIM_MAX_SAMPLES) {
				s.status = gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
							"a metrics tick of %g s gives more than %d timeline "
							"rows; use a longer tick", out->tick, GP_SIM_MAX_SAMPLES);
				break;
			}
			sample(&s, t);
			if (s.running || s.next_arrival < s.n || s.qlen[0] || s.qlen[1])
				heap_push(&s, t + out->tick, -1);
		}
		if (cfg->progress && s.settled - last_progress >= 4096) {
			last_progress = s.settled;
			cfg->progress(cfg->progress_ud, s.settled, s.n);
		}
	}
	status = s.status;
	if (status == GP_OK) {
		if (out->last_finish > s.tick_t || out->nsamples == 0) {
			s.integral += (double)s.alloc_milli * (out->last_finish - s.last_t);
			if (out->last_finish > s.last_t)
				s.last_t = out->last_finish;
			sample(&s, out->last_finish > s.tick_t ? out->last_finish : s.tick_t);
		}
		out->makespan = out->last_finish - out->first_submit;
		for (i = 0; i < s.n; i++) {
			const gp_sim_job *rec = &out->jobs[i];

			if (rec->state == GP_SIM_DONE)
				out->alloc_gpu_seconds += (double)need_milli(&jobs->jobs[i]) / GP_MILLI *
							  (rec->finish - rec->start);
		}
		if (out->makespan > 0 && out->ngpus > 0)
			out->gpu_utilization = out->alloc_gpu_seconds / ((double)out->ngpus * out->makespan);
		if (cfg->progress)
			cfg->progress(cfg->progress_ud, s.settled, s.n);
	}
	teardown(&s);
	if (status != GP_OK)
		gp_sim_result_release(out);
	return status;
}
