/* Environment simulation (envs.h): replays the tasks of an environment
 * trace in one mode and measures GPUs reserved, bound and busy.
 *
 * Events are kept in a binary heap ordered by (time, class, sequence);
 * at one time stamp releases (task ends, heartbeat reclaims, idle
 * releases, lifetime ends) come before acquisitions (lifetime starts,
 * task arrivals), and environments blocked on GPUs are retried after the
 * releases, in the order they blocked, before anything new arrives.
 * Each environment serves its own tasks first come first served (a
 * blocked task blocks the environment's later tasks); a notebook trace
 * is serial (a cell starts no earlier than the previous cell's end).
 *
 * Client failures (bind-at-start only changes anything): deaths follow a
 * Poisson process per environment over its lifetime, seeded from (seed,
 * environment index) so that every mode sees the same deaths.  A client
 * that dies at d last sent a heartbeat at start + floor((d - start) / P) P;
 * at that time + timeout every binding of the environment is reclaimed
 * (its running tasks are killed; their remaining work is lost) and the
 * client is back.  Until then the environment starts nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/envs/envs.h"
#include "gpuplan/util/heap.h"
#include "gpuplan/util/util.h"

enum { EV_END = 0, EV_DEATH, EV_RECLAIM, EV_IDLE, EV_STOP, EV_START, EV_ARRIVE };
static const int ev_class[] = { 0, 1, 1, 2, 2, 3, 4 };

enum { ST_NONE = 0, ST_PENDING, ST_RUNNING, ST_DONE, ST_FAILED, ST_KILLED };
#define ST_MASK 0x7
#define ST_FAILED_ONCE 0x8

typedef struct ev {
	double t;
	int32_t kind, id;
	uint32_t gen;
	uint32_t seq;           /* the heap's: pushes of one (time, class) in order */
} ev;

static inline int ev_cmp(const void *ctx, const ev *a, const ev *b)
{
	(void)ctx;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return ev_class[a->kind] - ev_class[b->kind];
}
GP_HEAP_DEFINE(ev_heap, ev, const void *, ev_cmp)

/* Per environment; kept small (the hot loop touches one per event). */
typedef struct er {
	uint32_t first, end;    /* its tasks */
	uint32_t next, head, lo; /* next to arrive; first not started; first not over */
	int32_t running;
	int32_t gpus_running;   /* exclusive modes: GPUs its running tasks use */
	uint32_t idle_gen;
	uint8_t held;           /* exclusive modes: holds its GPUs */
	uint8_t want_hold;      /* lifetime started, GPUs not acquired yet */
	uint8_t blocked;        /* 0, 1 in the wait list, 2 waits for its own memory */
	uint8_t dead, ever, stopped;
} er;

/* Per task: ready time until it starts, then its start time; state. */
typedef struct trt {
	double t;
	uint32_t st;
} trt;

typedef struct sim {
	const gp_envsim_config *cfg;
	const gp_env_trace *tr;
	const gp_env_set *set;
	gp_envsim_result *r;
	gp_envbind *b;
	int exclusive;
	ev_heap heap;
	er *env;
	gp_rng *rng;            /* per environment, when clients fail at random */
	trt *tk;
	size_t *goff;           /* bind mode: task k's GPUs at gbuf + goff[k], or
				   serial traces: env e's at gbuf + goff[e] */
	int *gbuf;
	size_t *hoff;           /* exclusive: env e's held GPUs at hbuf + hoff[e] */
	int *hbuf;
	double *waits, *delays;
	size_t nw;
	int32_t *wl;            /* wait list (ring) */
	size_t wl_cap, wl_head, wl_n;
	int dirty;
	double now, last_t;
	int dead_bound;
	size_t bcap;            /* timeline buckets allocated */
	double *bint;
} sim;

/* ---- heap ---- */

static void push(sim *s, double t, int kind, int id, uint32_t gen)
{
	ev_heap_push(&s->heap, s, (ev){ .t = t, .kind = kind, .id = id, .gen = gen });
}

static ev pop(sim *s)
{
	return ev_heap_pop(&s->heap, s);
}

/* ---- accounting ---- */

static void bucket_fill(sim *s, double a, double z, int v)
{
	gp_envsim_result *r = s->r;
	size_t i;

	if (z <= a)
		return;
	i = a > r->t0 ? (size_t)((a - r->t0) / r->dt) : 0;
	for (;; i++) {
		double lo = r->t0 + (double)i * r->dt, hi = lo + r->dt;
		double o0 = a > lo ? a : lo, o1 = z < hi ? z : hi;

		if (lo >= z)
			break;
		if (i >= s->bcap) {
			size_t nc = s->bcap * 2, k;

			while (nc <= i)
				nc *= 2;
			r->bucket_max = gp_xrealloc(r->bucket_max, nc * sizeof(*r->bucket_max));
			s->bint = gp_xrealloc(s->bint, nc * sizeof(*s->bint));
			for (k = s->bcap; k < nc; k++) {
				r->bucket_max[k] = 0;
				s->bint[k] = 0;
			}
			s->bcap = nc;
		}
		if (i + 1 > r->nbuckets)
			r->nbuckets = i + 1;
		if (o1 > o0) {
			if (v > r->bucket_max[i])
				r->bucket_max[i] = v;
			s->bint[i] += v * (o1 - o0);
		}
	}
}

static void advance(sim *s, double t)
{
	if (t > s->last_t) {
		int cur = gp_envbind_busy_gpus(s->b);

		s->r->bound_gpu_s += cur * (t - s->last_t);
		s->r->lost_gpu_s += s->dead_bound * (t - s->last_t);
		bucket_fill(s, s->last_t, t, cur);
		s->last_t = t;
	}
	s->now = t;
}

static void note_peak(sim *s)
{
	int cur = gp_envbind_busy_gpus(s->b);

	if (cur > s->r->peak_gpus) {
		s->r->peak_gpus = cur;
		s->r->peak_at = s->now;
	}
}

/* ---- wait list ---- */

static void wl_push(sim *s, int e)
{
	if (s->wl_n == s->wl_cap) {
		size_t nc = s->wl_cap ? s->wl_cap * 2 : 64, i;
		int32_t *n = gp_xmalloc(nc * sizeof(*n));

		for (i = 0; i < s->wl_n; i++)
			n[i] = s->wl[(s->wl_head + i) % s->wl_cap];
		free(s->wl);
		s->wl = n;
		s->wl_cap = nc;
		s->wl_head = 0;
	}
	s->wl[(s->wl_head + s->wl_n++) % s->wl_cap] = e;
	s->env[e].blocked = 1;
}

static int wl_pop(sim *s)
{
	int e = s->wl[s->wl_head];

	s->wl_head = (s->wl_head + 1) % s->wl_cap;
	s->wl_n--;
	return e;
}

/* ---- tasks ---- */

static int *task_gpus(sim *s, size_t k)
{
	return s->gbuf + s->goff[s->tr->serial ? (size_t)s->tr->tasks[k].env : k];
}

static void schedule_next_arrival(sim *s, int e)
{
	er *E = &s->env[e];

	if (E->next < E->end) {
		double t = s->tr->tasks[E->next].start;

		push(s, t > s->now ? t : s->now, EV_ARRIVE, e, 0);
	}
}

static void start_task(sim *s, int e, size_t k)
{
	const gp_env_task *T = &s->tr->tasks[k];
	er *E = &s->env[e];

	if (T->gpus > 0) {
		double w = s->now - s->tk[k].t, d = s->now - T->start;

		s->waits[s->nw] = w > 0 ? w : 0;
		s->delays[s->nw++] = d > 0 ? d : 0;
		if (w > 0)
			s->r->waited++;
	}
	s->tk[k].st = (uint32_t)((s->tk[k].st & ST_FAILED_ONCE) | ST_RUNNING);
	s->tk[k].t = s->now;
	E->running++;
	if (s->exclusive)
		E->gpus_running += T->gpus;
	E->head++;
	E->idle_gen++;
	push(s, s->now + T->duration, EV_END, (int32_t)k, 0);
}

static void fail_task(sim *s, int e, size_t k)
{
	er *E = &s->env[e];

	s->tk[k].st = (uint32_t)((s->tk[k].st & ST_FAILED_ONCE) | ST_FAILED);
	s->r->tasks_failed++;
	E->head++;
	if (s->tr->serial)
		schedule_next_arrival(s, e);
}

static void count_failure(sim *s, size_t k, int reason)
{
	if (!(s->tk[k].st & ST_FAILED_ONCE)) {
		s->tk[k].st |= ST_FAILED_ONCE;
		s->r->bind_failures[reason]++;
	}
}

static void drop_held(sim *s, int e)
{
	er *E = &s->env[e];
	const gp_env *G = &s->set->envs[e];

	if (!E->held)
		return;
	gp_envbind_drop(s->b, G->quota_gpus, s->hbuf + s->hoff[e]);
	E->held = 0;
	s->dirty = 1;
}

static void maybe_idle(sim *s, int e)
{
	er *E = &s->env[e];

	if (s->cfg->mode == GP_ENVSIM_IDLE && E->held && E->running == 0)
		push(s, s->now + s->cfg->idle_timeout_s, EV_IDLE, e, ++E->idle_gen);
}

/* Serve env e's pending tasks in order until one must wait. */
static void try_env(sim *s, int e)
{
	er *E = &s->env[e];
	const gp_env *G = &s->set->envs[e];
	gp_envbind_why why;

	if (E->dead || E->blocked)
		return;
	if (s->exclusive && !E->held && G->quota_gpus > 0) {
		int need = E->want_hold;

		if (!need && E->head < E->next && s->tr->tasks[E->head].gpus > 0)
			need = 1;
		if (need) {
			if (gp_envbind_acquire(s->b, e, G->quota_gpus, s->hbuf + s->hoff[e], &why) == GP_OK) {
				E->held = 1;
				E->want_hold = 0;
				s->r->bind_operations += (size_t)G->quota_gpus;
				if (E->ever)
					s->r->rebinds++;
				E->ever = 1;
				note_peak(s);
			} else {
				if (E->head < E->next && s->tr->tasks[E->head].gpus > 0) {
					count_failure(s, E->head, why.reason);
					if (s->cfg->fail_on_bind_failure) {
						fail_task(s, e, E->head);
						try_env(s, e);
						return;
					}
				}
				wl_push(s, e);
				return;
			}
		}
	}
	while (E->head < E->next) {
		size_t k = E->head;
		const gp_env_task *T = &s->tr->tasks[k];

		if (T->gpus == 0 || s->exclusive) {
			/* the held GPUs run one task each at a time (they are the
			 * environment's alone: threshold 1), so a task waits for
			 * its own environment's tasks, and one larger than the
			 * quota never runs */
			if (T->gpus > G->quota_gpus) {
				count_failure(s, k, GP_EB_QUOTA_COUNT);
				fail_task(s, e, k);
				continue;
			}
			if (T->gpus > 0 && !E->held)
				break; /* released meanwhile (cannot happen inside one call) */
			if (E->gpus_running + T->gpus > G->quota_gpus)
				break; /* goes on when one of its tasks ends */
			start_task(s, e, k);
			continue;
		}
		{
			int before = gp_envbind_env_nbound(s->b, e);

			if (gp_envbind_task(s->b, e, T->gpus, T->mem_mib, task_gpus(s, k), &why) == GP_OK) {
				int after = gp_envbind_env_nbound(s->b, e);

				s->r->bind_operations += (size_t)(after - before);
				if (before == 0) {
					if (E->ever)
						s->r->rebinds++;
					E->ever = 1;
				}
				start_task(s, e, k);
				note_peak(s);
				continue;
			}
		}
		count_failure(s, k, why.reason);
		if (why.permanent || s->cfg->fail_on_bind_failure) {
			fail_task(s, e, k);
			continue;
		}
		if (why.reason == GP_EB_MEMORY_QUOTA)
			E->blocked = 2;
		else
			wl_push(s, e);
		return;
	}
	maybe_idle(s, e);
}

/* Can the blocked env e possibly go on now?  Cheap filters only. */
static int may_go(sim *s, int e)
{
	er *E = &s->env[e];
	const gp_env *G = &s->set->envs[e];
	const gp_env_task *T;

	if (s->exclusive)
		return gp_envbind_can_acquire(s->b, e, G->quota_gpus);
	if (E->head >= E->next)
		return 1;
	T = &s->tr->tasks[E->head];
	if (gp_envbind_env_nbound(s->b, e) < G->quota_gpus)
		return gp_envbind_can_new(s->b, e, T->gpus ? (gp_envbind_task_mem(s->b, e, T->gpus, T->mem_mib) +
							      T->gpus - 1) / T->gpus : 0);
	return 1;
}

static void retry(sim *s)
{
	size_t n = s->wl_n, i;

	s->dirty = 0;
	s->r->retries++;
	for (i = 0; i < n; i++) {
		int e = wl_pop(s);

		if (s->env[e].blocked != 1)
			continue;
		if (s->env[e].dead || !may_go(s, e)) {
			wl_push(s, e);
			continue;
		}
		s->env[e].blocked = 0;
		try_env(s, e);
	}
}

static void end_task(sim *s, size_t k, int killed)
{
	const gp_env_task *T = &s->tr->tasks[k];
	int e = T->env;
	er *E = &s->env[e];
	double run = s->now - s->tk[k].t;

	if (!s->exclusive && T->gpus > 0) {
		int before = gp_envbind_env_nbound(s->b, e);

		gp_envbind_release(s->b, e, T->gpus, task_gpus(s, k), T->mem_mib);
		if (E->dead)
			s->dead_bound -= before - gp_envbind_env_nbound(s->b, e);
		s->dirty = 1;
	}
	s->r->busy_gpu_s += T->gpus * run;
	s->r->weighted_busy_gpu_s += T->gpus * run * T->util;
	s->tk[k].st = (uint32_t)((s->tk[k].st & ST_FAILED_ONCE) | (killed ? ST_KILLED : ST_DONE));
	if (killed)
		s->r->tasks_killed++;
	else
		s->r->tasks_completed++;
	E->running--;
	if (s->exclusive)
		E->gpus_running -= T->gpus;
	while (E->lo < E->head && (s->tk[E->lo].st & ST_MASK) >= ST_DONE)
		E->lo++;
	if (s->tr->serial)
		schedule_next_arrival(s, e);
	if (s->exclusive && E->stopped && E->running == 0 && E->head >= E->end)
		drop_held(s, e);
	if (E->blocked == 2)
		E->blocked = 0;
	if (!E->blocked) {
		if (E->head < E->next)
			try_env(s, e);
		else
			maybe_idle(s, e);
	}
}

static double exp_draw(gp_rng *r, double rate_per_s)
{
	double u = gp_rng_double(r);

	return -log1p(-u) / rate_per_s;
}

static void next_death(sim *s, int e, double from)
{
	const gp_env *G = &s->set->envs[e];
	double rate = s->cfg->client_failures_per_hour / 3600.0, t;

	if (rate <= 0 || s->cfg->ndeaths)
		return;
	t = from + exp_draw(&s->rng[e], rate);
	if (t < G->stop)
		push(s, t, EV_DEATH, e, 0);
}

static void on_death(sim *s, int e)
{
	const gp_env *G = &s->set->envs[e];
	er *E = &s->env[e];
	double P = s->cfg->hb_period_s, last, at;

	s->r->client_failures++;
	if (s->cfg->mode != GP_ENVSIM_BIND || E->dead) {
		next_death(s, e, s->now);
		return;
	}
	last = s->now >= G->start ? G->start + floor((s->now - G->start) / P) * P : s->now;
	if (last > s->now)
		last = s->now;
	at = gp_envbind_reclaim_at(last, s->cfg->hb_timeout_s);
	if (at < s->now)
		at = s->now;
	E->dead = 1;
	s->dead_bound += gp_envbind_env_nbound(s->b, e);
	push(s, at, EV_RECLAIM, e, 0);
}

static void on_reclaim(sim *s, int e)
{
	er *E = &s->env[e];
	size_t k;
	int nb = gp_envbind_env_nbound(s->b, e);

	s->r->reclaims++;
	s->r->reclaimed_by_heartbeat += (size_t)nb;
	for (k = E->lo; k < E->head; k++)
		if ((s->tk[k].st & ST_MASK) == ST_RUNNING)
			end_task(s, k, 1);
	s->dead_bound -= gp_envbind_env_nbound(s->b, e);
	s->dead_bound = s->dead_bound < 0 ? 0 : s->dead_bound;
	E->dead = 0;
	s->dirty = 1;
	if (!E->blocked)
		try_env(s, e);
	next_death(s, e, s->now);
}

/* ---- setup ---- */

/* The run's state, sized for the trace: tasks, environments and the GPU
 * lists of bind mode (per task, or per environment in a serial trace) or
 * of the exclusive modes (per environment). */
static void sim_alloc(sim *s, const gp_envsim_config *cfg, const gp_env_trace *tr,
		      gp_envsim_result *r)
{
	size_t i, ne = tr->envs.n, nt = tr->ntasks, gsum = 0, hsum = 0, ngt = 0;

	memset(s, 0, sizeof(*s));
	gp_envsim_result_init(r);
	s->cfg = cfg;
	s->tr = tr;
	s->set = &tr->envs;
	s->r = r;
	s->exclusive = cfg->mode != GP_ENVSIM_BIND;
	r->mode = cfg->mode;
	r->idle_timeout_s = cfg->idle_timeout_s;
	r->threshold = s->exclusive ? 1 : cfg->threshold;
	s->b = gp_envbind_new(cfg->cluster, s->set, r->threshold, cfg->max_gpus);
	s->env = gp_xcalloc(ne ? ne : 1, sizeof(*s->env));
	s->tk = gp_xcalloc(nt ? nt : 1, sizeof(*s->tk));
	if (cfg->client_failures_per_hour > 0)
		s->rng = gp_xmalloc((ne ? ne : 1) * sizeof(*s->rng));
	r->envs = ne;
	r->tasks = nt;
	for (i = 0; i < nt; i++)
		if (tr->tasks[i].gpus > 0)
			ngt++;
	r->gpu_tasks = ngt;
	r->cpu_only_tasks = nt - ngt;
	s->waits = gp_xmalloc((ngt ? ngt : 1) * sizeof(double));
	s->delays = gp_xmalloc((ngt ? ngt : 1) * sizeof(double));
	if (!s->exclusive) {
		/* one running task per environment in a serial trace */
		size_t n = tr->serial ? ne : nt;

		s->goff = gp_xmalloc((n + 1) * sizeof(*s->goff));
		for (i = 0; i < n; i++) {
			s->goff[i] = gsum;
			gsum += (size_t)(tr->serial ? tr->envs.envs[i].quota_gpus : tr->tasks[i].gpus);
		}
		s->goff[n] = gsum;
		s->gbuf = gp_xmalloc((gsum ? gsum : 1) * sizeof(int));
	} else {
		s->hoff = gp_xmalloc((ne + 1) * sizeof(*s->hoff));
		for (i = 0; i < ne; i++) {
			s->hoff[i] = hsum;
			hsum += (size_t)tr->envs.envs[i].quota_gpus;
		}
		s->hbuf = gp_xmalloc((hsum ? hsum : 1) * sizeof(int));
	}
}

/* Each environment's task range (tasks are grouped by environment), its
 * client RNG, reserved GPU-seconds and first events; the deaths the
 * configuration forces. */
static void seed_events(sim *s)
{
	const gp_envsim_config *cfg = s->cfg;
	const gp_env_trace *tr = s->tr;
	size_t i, ne = tr->envs.n, nt = tr->ntasks;

	for (i = 0; i < nt; i++) {
		er *E = &s->env[tr->tasks[i].env];

		if (!E->end)
			E->first = E->next = E->head = E->lo = (uint32_t)i;
		E->end = (uint32_t)(i + 1);
	}
	for (i = 0; i < ne; i++) {
		const gp_env *G = &tr->envs.envs[i];
		er *E = &s->env[i];

		if (s->rng)
			gp_rng_seed_item(&s->rng[i], cfg->seed, i);
		if (G->quota_gpus > 0)
			s->r->envs_with_gpus++;
		s->r->reserved_gpu_s += gp_env_reserved_gpu_seconds(G);
		if (s->exclusive && G->quota_gpus > 0) {
			push(s, G->start, EV_START, (int)i, 0);
			push(s, G->stop, EV_STOP, (int)i, 0);
		}
		if (E->end > E->first)
			push(s, tr->tasks[E->first].start, EV_ARRIVE, (int)i, 0);
		next_death(s, (int)i, G->start);
	}
	for (i = 0; i < cfg->ndeaths; i++)
		if (cfg->death_env[i] >= 0 && (size_t)cfg->death_env[i] < ne)
			push(s, cfg->death_at[i], EV_DEATH, cfg->death_env[i], 0);
}

/* The timeline: from the first task or environment start to the last
 * end, in cfg->timeline_points buckets (2000 by default). */
static void set_timeline(sim *s)
{
	const gp_env_trace *tr = s->tr;
	gp_envsim_result *r = s->r;
	double t0 = INFINITY, t1 = -INFINITY;
	size_t i;

	for (i = 0; i < tr->ntasks; i++) {
		const gp_env_task *T = &tr->tasks[i];

		if (T->start < t0)
			t0 = T->start;
		if (T->start + T->duration > t1)
			t1 = T->start + T->duration;
	}
	for (i = 0; i < tr->envs.n; i++) {
		if (tr->envs.envs[i].start < t0)
			t0 = tr->envs.envs[i].start;
		if (tr->envs.envs[i].stop > t1)
			t1 = tr->envs.envs[i].stop;
	}
	if (!isfinite(t0)) {
		t0 = 0;
		t1 = 1;
	}
	r->t0 = t0;
	r->first_t = t0;
	r->dt = t1 > t0 ? (t1 - t0) / (double)(s->cfg->timeline_points ? s->cfg->timeline_points : 2000)
			: 1;
	s->bcap = 16;
	r->bucket_max = gp_xcalloc(s->bcap, sizeof(*r->bucket_max));
	s->bint = gp_xcalloc(s->bcap, sizeof(*s->bint));
	s->last_t = s->now = t0;
}

static void on_event(sim *s, ev e)
{
	/* e.id is a task for EV_END, an environment otherwise */
	er *E = e.kind == EV_END ? NULL : &s->env[e.id];

	switch (e.kind) {
	case EV_END:
		if ((s->tk[e.id].st & ST_MASK) == ST_RUNNING)
			end_task(s, (size_t)e.id, 0);
		break;
	case EV_DEATH:
		on_death(s, e.id);
		break;
	case EV_RECLAIM:
		on_reclaim(s, e.id);
		break;
	case EV_IDLE:
		if (e.gen == E->idle_gen && E->held && E->running == 0)
			drop_held(s, e.id);
		break;
	case EV_STOP:
		E->stopped = 1;
		E->want_hold = 0;
		if (E->running == 0 && E->head >= E->end)
			drop_held(s, e.id);
		break;
	case EV_START:
		if (!E->held && !E->stopped) {
			E->want_hold = 1;
			if (!E->blocked)
				try_env(s, e.id);
		}
		break;
	case EV_ARRIVE: {
		uint32_t k = E->next++;

		s->tk[k].st = ST_PENDING;
		s->tk[k].t = s->now;
		if (!s->tr->serial)
			schedule_next_arrival(s, e.id);
		/* its environment waits for GPUs to hold: so does it */
		if (E->blocked == 1 && s->exclusive && !E->held && E->head == k &&
		    s->tr->tasks[k].gpus > 0)
			count_failure(s, k, GP_EB_NO_GPU_UNDER_THRESHOLD);
		if (!E->blocked)
			try_env(s, e.id);
		break;
	}
	}
}

/* Tasks never bound, the wait and delay distributions, bucket means. */
static void collect(sim *s)
{
	gp_envsim_result *r = s->r;
	size_t i, ne = s->tr->envs.n;

	r->last_t = s->last_t;
	for (i = 0; i < ne; i++)
		r->tasks_unbound += s->env[i].next - s->env[i].head;
	for (i = 0; i < ne; i++)
		r->tasks_unbound += s->env[i].end - s->env[i].next; /* never arrived (behind a blocked cell) */
	gp_dist_of(s->waits, s->nw, &r->wait_s);
	gp_dist_of(s->delays, s->nw, &r->delay_s);
	r->bucket_mean = gp_xcalloc(r->nbuckets ? r->nbuckets : 1, sizeof(double));
	for (i = 0; i < r->nbuckets; i++)
		r->bucket_mean[i] = s->bint[i] / r->dt;
}

static void sim_free(sim *s)
{
	gp_envbind_free(s->b);
	ev_heap_release(&s->heap);
	free(s->env);
	free(s->tk);
	free(s->rng);
	free(s->goff);
	free(s->gbuf);
	free(s->hoff);
	free(s->hbuf);
	free(s->waits);
	free(s->delays);
	free(s->wl);
	free(s->bint);
}

int gp_envsim_run(const gp_envsim_config *cfg, const gp_env_trace *tr, gp_envsim_result *r, gp_error *err)
{
	sim s;

	if (!cfg->cluster || cfg->threshold < 1 || cfg->threshold > GP_ENV_MAX_THRESHOLD ||
	    !(cfg->hb_period_s > 0) || cfg->hb_timeout_s < 0 || cfg->idle_timeout_s < 0 ||
	    cfg->client_failures_per_hour < 0)
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0, "bad environment simulation settings");
	sim_alloc(&s, cfg, tr, r);
	seed_events(&s);
	set_timeline(&s);
	for (;;) {
		ev e;

		if (s.dirty && (!s.heap.n || s.heap.v[0].t > s.now || ev_class[s.heap.v[0].kind] >= 3))
			retry(&s);
		if (!s.heap.n)
			break;
		e = pop(&s);
		r->events++;
		advance(&s, e.t);
		on_event(&s, e);
	}
	collect(&s);
	sim_free(&s);
	return GP_OK;
}
