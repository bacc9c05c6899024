/* The quota-binding rule over a cluster (envs.h).
 *
 * Candidate search is O(K log n) whatever the cluster size: for every pool
 * and every task count t < K a max-segment-tree over the pool's GPUs holds
 * ((free memory + 1) << 24 | (2^24 - 1 - position)) for GPUs running t
 * tasks (0 for the others), so the first t whose root reaches the memory
 * need gives the GPU with the fewest tasks, then the most free memory,
 * then the lowest id; ties on the first two are then broken by topology
 * by looking at the GPUs of the nodes already chosen. */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/envs/envs.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/util.h"

#define POS_BITS 24
#define POS_MASK ((1u << POS_BITS) - 1)

typedef struct ptree {
	int n;                  /* GPUs in the pool */
	int size;               /* leaves, a power of two */
	int32_t *gpus;          /* position -> global GPU */
	uint64_t *tree;         /* K trees of 2 * size */
	int32_t *count;         /* GPUs per task count bucket (K) */
} ptree;

typedef struct envb {
	int nbound, cap;
	int *gpu;               /* bound GPUs */
	int *tasks;             /* E's tasks on each */
	int64_t mem;            /* memory of its running tasks */
} envb;

struct gp_envbind {
	const gp_cluster *c;
	const gp_env_set *set;
	int K;
	int ngpus;              /* usable: global ids < ngpus */
	int32_t *load;          /* tasks (or holders) per GPU */
	int64_t *free_mib, *cap_mib;
	int32_t *node;
	uint8_t *mark;          /* 1: chosen for the task being bound; 2: bound
				   to its environment already (no new GPU) */
	int8_t *tl;             /* load bucket the GPU is tracked in, -1 none */
	int busy;               /* GPUs with load > 0 */
	int npools;             /* set pools + 1 (pool 0 = every GPU) */
	ptree *pools;
	int32_t **pos;          /* per pool: global GPU -> position, -1 */
	envb *env;
};

const char *gp_envbind_reason_name(int r)
{
	static const char *const names[] = { "ok", "quota_count", "memory_quota", "no_gpu_under_threshold",
					      "gpu_memory" };

	return r >= 0 && r < GP_EB_REASONS ? names[r] : "?";
}

static uint64_t leaf_value(const gp_envbind *b, int gpu, int pos)
{
	return ((uint64_t)(b->free_mib[gpu] + 1) << POS_BITS) | (uint64_t)(POS_MASK - (uint32_t)pos);
}

static void tree_set(ptree *p, int t, int pos, uint64_t v)
{
	uint64_t *tr = p->tree + (size_t)t * 2 * (size_t)p->size;
	size_t i = (size_t)p->size + (size_t)pos;

	tr[i] = v;
	for (i >>= 1; i >= 1; i >>= 1) {
		uint64_t a = tr[2 * i], c = tr[2 * i + 1];

		tr[i] = a > c ? a : c;
	}
}

/* Take gpu out of the trees (when it is in). */
static void untrack(gp_envbind *b, int gpu)
{
	int p, l = b->tl[gpu];

	if (l < 0)
		return;
	for (p = 0; p < b->npools; p++) {
		int pos = b->pos[p][gpu];

		if (pos >= 0) {
			tree_set(&b->pools[p], l, pos, 0);
			b->pools[p].count[l]--;
		}
	}
	b->tl[gpu] = -1;
}

/* Put gpu in the trees of its current load, unless it is at the
 * threshold or set aside (mark) while a task is being bound. */
static void track(gp_envbind *b, int gpu)
{
	int p, l = b->load[gpu];

	untrack(b, gpu);
	if (l >= b->K || b->mark[gpu])
		return;
	for (p = 0; p < b->npools; p++) {
		int pos = b->pos[p][gpu];

		if (pos >= 0) {
			tree_set(&b->pools[p], l, pos, leaf_value(b, gpu, pos));
			b->pools[p].count[l]++;
		}
	}
	b->tl[gpu] = l;
}

static void build_pool(gp_envbind *b, int p, const int *nodes, int nnodes)
{
	ptree *t = &b->pools[p];
	int i, g, n = 0;

	b->pos[p] = gp_xmalloc((size_t)(b->ngpus ? b->ngpus : 1) * sizeof(int32_t));
	for (g = 0; g < b->ngpus; g++)
		b->pos[p][g] = -1;
	t->gpus = gp_xmalloc((size_t)(b->ngpus ? b->ngpus : 1) * sizeof(int32_t));
	for (i = 0; i < (nodes ? nnodes : b->c->nnodes); i++) {
		const gp_node *nd = &b->c->nodes[nodes ? nodes[i] : i];

		for (g = nd->first_gpu; g < nd->first_gpu + nd->ngpus && g < b->ngpus; g++) {
			b->pos[p][g] = n;
			t->gpus[n++] = g;
		}
	}
	t->n = n;
	for (t->size = 1; t->size < n; t->size *= 2)
		;
	t->tree = gp_xcalloc((size_t)b->K * 2 * (size_t)t->size, sizeof(uint64_t));
	t->count = gp_xcalloc((size_t)b->K, sizeof(int32_t));
}

gp_envbind *gp_envbind_new(const gp_cluster *c, const gp_env_set *set, int threshold, int max_gpus)
{
	gp_envbind *b = gp_xcalloc(1, sizeof(*b));
	gp_alloc a;
	int g, p;

	b->c = c;
	b->set = set;
	b->K = threshold < 1 ? 1 : threshold > GP_ENV_MAX_THRESHOLD ? GP_ENV_MAX_THRESHOLD : threshold;
	b->ngpus = max_gpus > 0 && max_gpus < c->ngpus ? max_gpus : c->ngpus;
	if (b->ngpus > (int)POS_MASK)
		b->ngpus = (int)POS_MASK;
	b->load = gp_xcalloc((size_t)b->ngpus + 1, sizeof(*b->load));
	b->free_mib = gp_xcalloc((size_t)b->ngpus + 1, sizeof(*b->free_mib));
	b->cap_mib = gp_xcalloc((size_t)b->ngpus + 1, sizeof(*b->cap_mib));
	b->node = gp_xcalloc((size_t)b->ngpus + 1, sizeof(*b->node));
	b->mark = gp_xcalloc((size_t)b->ngpus + 1, 1);
	b->tl = gp_xmalloc(((size_t)b->ngpus + 1) * sizeof(*b->tl));
	for (g = 0; g <= b->ngpus; g++)
		b->tl[g] = -1;
	gp_alloc_init(&a, c);
	for (g = 0; g < b->ngpus; g++) {
		b->cap_mib[g] = b->free_mib[g] = gp_alloc_gpu_mem_cap(&a, g);
		b->node[g] = a.gpu_node[g];
	}
	gp_alloc_release(&a);
	b->npools = set->npools + 1;
	b->pools = gp_xcalloc((size_t)b->npools, sizeof(*b->pools));
	b->pos = gp_xcalloc((size_t)b->npools, sizeof(*b->pos));
	build_pool(b, 0, NULL, 0);
	for (p = 0; p < set->npools; p++)
		build_pool(b, p + 1, set->pools[p].nodes, set->pools[p].nnodes);
	for (g = 0; g < b->ngpus; g++)
		track(b, g);
	b->env = gp_xcalloc(set->n ? set->n : 1, sizeof(*b->env));
	return b;
}

void gp_envbind_free(gp_envbind *b)
{
	size_t e;
	int p;

	if (!b)
		return;
	for (p = 0; p < b->npools; p++) {
		free(b->pools[p].gpus);
		free(b->pools[p].tree);
		free(b->pools[p].count);
		free(b->pos[p]);
	}
	for (e = 0; e < b->set->n; e++) {
		free(b->env[e].gpu);
		free(b->env[e].tasks);
	}
	free(b->pools);
	free(b->pos);
	free(b->env);
	free(b->load);
	free(b->free_mib);
	free(b->cap_mib);
	free(b->node);
	free(b->mark);
	free(b->tl);
	free(b);
}

static int pool_of(const gp_envbind *b, int env)
{
	return b->set->envs[env].pool + 1;
}

/* Change a GPU's load and free memory, keeping the trees and counters. */
static void gpu_change(gp_envbind *b, int gpu, int dload, int64_t dmem)
{
	untrack(b, gpu);
	if (b->load[gpu] == 0 && dload > 0)
		b->busy++;
	b->load[gpu] += dload;
	if (b->load[gpu] == 0 && dload < 0)
		b->busy--;
	b->free_mib[gpu] += dmem;
	track(b, gpu);
}

static int env_find(const envb *e, int gpu)
{
	int i;

	for (i = 0; i < e->nbound; i++)
		if (e->gpu[i] == gpu)
			return i;
	return -1;
}

static void env_add(envb *e, int gpu)
{
	int i = env_find(e, gpu);

	if (i < 0) {
		if (e->nbound == e->cap) {
			e->cap = e->cap ? e->cap * 2 : 4;
			e->gpu = gp_xrealloc(e->gpu, (size_t)e->cap * sizeof(int));
			e->tasks = gp_xrealloc(e->tasks, (size_t)e->cap * sizeof(int));
		}
		i = e->nbound++;
		e->gpu[i] = gpu;
		e->tasks[i] = 0;
	}
	e->tasks[i]++;
}

static void env_del(envb *e, int gpu)
{
	int i = env_find(e, gpu);

	if (i < 0)
		return;
	if (--e->tasks[i] == 0) {
		e->nbound--;
		e->gpu[i] = e->gpu[e->nbound];
		e->tasks[i] = e->tasks[e->nbound];
	}
}

/* Sum of link expenses from gpu to the chosen GPUs on its node. */
static int expense_to(const gp_envbind *b, int gpu, const int *chosen, int n)
{
	const gp_node *nd = &b->c->nodes[b->node[gpu]];
	const gp_topo_derived *d = b->c->types[nd->type].derived;
	int i, s = 0;

	for (i = 0; i < n; i++)
		if (b->node[chosen[i]] == b->node[gpu] && d && gpu - nd->first_gpu < GP_TOPO_MAX_GPUS &&
		    chosen[i] - nd->first_gpu < GP_TOPO_MAX_GPUS)
			s += d->expense[gpu - nd->first_gpu][chosen[i] - nd->first_gpu];
	return s;
}

/* Best GPU of a node with exactly this load and free memory, in the pool
 * and not chosen yet; -1.  Closest to the chosen ones, then lowest id. */
static int best_on_node(const gp_envbind *b, int p, int node, int load, int64_t free_mib, const int *chosen,
			int n)
{
	const gp_node *nd = &b->c->nodes[node];
	int g, best = -1, bexp = 0;

	for (g = nd->first_gpu; g < nd->first_gpu + nd->ngpus && g < b->ngpus; g++) {
		int x;

		if (b->mark[g] || b->load[g] != load || b->free_mib[g] != free_mib || b->pos[p][g] < 0)
			continue;
		x = expense_to(b, g, chosen, n);
		if (best < 0 || x < bexp) {
			best = g;
			bexp = x;
		}
	}
	return best;
}

/* A new GPU for env: -1 with *why_reason set when none. */
static int pick_new(gp_envbind *b, int env, int K, int64_t need, const int *chosen, int n, int *why_reason)
{
	int p = pool_of(b, env), t, i, g;
	ptree *pt = &b->pools[p];
	uint64_t want = (uint64_t)(need + 1) << POS_BITS, v = 0;
	const envb *e = &b->env[env];
	int any_under = 0, found_t = -1;

	for (t = 0; t < K && t < b->K; t++) {
		const uint64_t *tr = pt->tree + (size_t)t * 2 * (size_t)pt->size;

		if (!tr[1])
			continue;
		any_under = 1;
		if (tr[1] >= want) {
			size_t k = 1;

			while (k < (size_t)pt->size)
				k = tr[2 * k] >= tr[2 * k + 1] ? 2 * k : 2 * k + 1;
			v = tr[k];
			found_t = t;
			break;
		}
	}
	if (found_t < 0) {
		*why_reason = any_under ? GP_EB_GPU_MEMORY : GP_EB_NO_GPU_UNDER_THRESHOLD;
		return -1;
	}
	g = pt->gpus[POS_MASK - (uint32_t)(v & POS_MASK)];
	/* topology among equals: nodes of the GPUs chosen for this task, then
	 * nodes where env already has GPUs */
	for (i = 0; i < n; i++) {
		int h = best_on_node(b, p, b->node[chosen[i]], found_t, b->free_mib[g], chosen, n);

		if (h >= 0)
			return h;
	}
	for (i = 0; i < e->nbound; i++) {
		int h = best_on_node(b, p, b->node[e->gpu[i]], found_t, b->free_mib[g], chosen, n);

		if (h >= 0)
			return h;
	}
	return g;
}

/* Reuse one of env's bound GPUs: fewest tasks, most free memory, lowest id. */
static int pick_reuse(const gp_envbind *b, int env, int64_t need)
{
	const envb *e = &b->env[env];
	int i, best = -1;

	for (i = 0; i < e->nbound; i++) {
		int g = e->gpu[i];

		if (b->mark[g] == 1 || b->free_mib[g] < need)
			continue;
		if (best < 0 || b->load[g] < b->load[best] ||
		    (b->load[g] == b->load[best] &&
		     (b->free_mib[g] > b->free_mib[best] || (b->free_mib[g] == b->free_mib[best] && g < best))))
			best = g;
	}
	return best;
}

static double gib(int64_t mib)
{
	return (double)mib / 1024.0;
}

int64_t gp_envbind_task_mem(const gp_envbind *b, int env, int ngpus, int64_t mem_mib)
{
	const gp_env *E = &b->set->envs[env];

	if (mem_mib > 0 || E->quota_gpus <= 0 || ngpus <= 0)
		return mem_mib > 0 ? mem_mib : 0;
	return E->quota_mem_mib / E->quota_gpus * ngpus;
}

int gp_envbind_task(gp_envbind *b, int env, int ngpus, int64_t mem_mib, int *out, gp_envbind_why *why)
{
	const gp_env *E = &b->set->envs[env];
	envb *e = &b->env[env];
	int64_t per;
	int k, reason = GP_EB_OK, bound_after;

	mem_mib = gp_envbind_task_mem(b, env, ngpus, mem_mib);
	per = ngpus > 0 ? (mem_mib + ngpus - 1) / ngpus : 0;

	memset(why, 0, sizeof(*why));
	if (ngpus > E->quota_gpus) {
		why->reason = GP_EB_QUOTA_COUNT;
		why->permanent = 1;
		snprintf(why->msg, sizeof(why->msg), "task needs %d GPUs, environment '%s' may bind %d (quota count)",
			 ngpus, E->name, E->quota_gpus);
		return GP_NO;
	}
	if (mem_mib > E->quota_mem_mib || e->mem + mem_mib > E->quota_mem_mib) {
		why->reason = GP_EB_MEMORY_QUOTA;
		why->permanent = mem_mib > E->quota_mem_mib;
		snprintf(why->msg, sizeof(why->msg),
			 "task needs %.3g GiB of GPU memory, environment '%s' has %.3g of its %.3g GiB quota left (memory quota)",
			 gib(mem_mib), E->name, gib(E->quota_mem_mib - e->mem), gib(E->quota_mem_mib));
		return GP_NO;
	}
	/* E's GPUs are no candidates for a new binding */
	for (k = 0; k < e->nbound; k++) {
		b->mark[e->gpu[k]] = 2;
		untrack(b, e->gpu[k]);
	}
	bound_after = e->nbound;
	for (k = 0; k < ngpus; k++) {
		int g, fresh = bound_after < E->quota_gpus;

		if (fresh) {
			g = pick_new(b, env, b->K, per, out, k, &reason);
			if (g >= 0)
				bound_after++;
			else if (reason == GP_EB_NO_GPU_UNDER_THRESHOLD)
				/* Below quota, but too few other GPUs under the
				 * threshold: the document's branch mixes in the
				 * environment's own least-loaded GPUs. */
				g = pick_reuse(b, env, per);
		} else {
			g = pick_reuse(b, env, per);
			if (g < 0)
				reason = GP_EB_GPU_MEMORY;
		}
		if (g < 0) {
			int i;

			for (i = 0; i < k; i++) {
				b->mark[out[i]] = 0;
				env_del(e, out[i]);
				gpu_change(b, out[i], -1, per);
			}
			for (i = 0; i < e->nbound; i++) {
				b->mark[e->gpu[i]] = 0;
				track(b, e->gpu[i]);
			}
			why->reason = reason;
			if (reason == GP_EB_NO_GPU_UNDER_THRESHOLD)
				snprintf(why->msg, sizeof(why->msg),
					 "environment '%s' has %d of %d GPUs bound and no other GPU %s%s runs fewer than %d tasks",
					 E->name, e->nbound, E->quota_gpus, E->pool >= 0 ? "of pool " : "in the cluster",
					 E->pool >= 0 ? b->set->pools[E->pool].spec : "", b->K);
			else if (fresh)
				snprintf(why->msg, sizeof(why->msg),
					 "environment '%s': no GPU under the threshold of %d tasks has %.3g GiB free",
					 E->name, b->K, gib(per));
			else
				snprintf(why->msg, sizeof(why->msg),
					 "environment '%s' is at its quota of %d GPUs and none of them has %.3g GiB free",
					 E->name, E->quota_gpus, gib(per));
			return GP_NO;
		}
		b->mark[g] = 1;
		gpu_change(b, g, +1, -per);
		env_add(e, g);
		out[k] = g;
	}
	for (k = 0; k < e->nbound; k++) {
		b->mark[e->gpu[k]] = 0;
		track(b, e->gpu[k]);
	}
	e->mem += mem_mib;
	return GP_OK;
}

void gp_envbind_release(gp_envbind *b, int env, int ngpus, const int *gpus, int64_t mem_mib)
{
	envb *e = &b->env[env];
	int64_t per;
	int k;

	mem_mib = gp_envbind_task_mem(b, env, ngpus, mem_mib);
	per = ngpus > 0 ? (mem_mib + ngpus - 1) / ngpus : 0;

	for (k = 0; k < ngpus; k++) {
		env_del(e, gpus[k]);
		gpu_change(b, gpus[k], -1, per);
	}
	e->mem -= mem_mib;
}

int gp_envbind_apply(gp_envbind *b, int env, int ngpus, const int *gpus, int64_t mem_mib, char *msg,
		     size_t msz)
{
	int64_t per;
	int k, p = pool_of(b, env);

	mem_mib = gp_envbind_task_mem(b, env, ngpus, mem_mib);
	per = ngpus > 0 ? (mem_mib + ngpus - 1) / ngpus : 0;

	for (k = 0; k < ngpus; k++) {
		int g = gpus[k];

		if (g >= b->ngpus || b->pos[p][g] < 0) {
			snprintf(msg, msz, "GPU %d of node '%s' is not in the pool of environment '%s'",
				 g - b->c->nodes[b->node[g < b->ngpus ? g : 0]].first_gpu,
				 b->c->nodes[b->node[g < b->ngpus ? g : 0]].name, b->set->envs[env].name);
			return GP_NO;
		}
		if (b->free_mib[g] < per) {
			snprintf(msg, msz, "GPU %d of node '%s' has %lld MiB free, the task needs %lld",
				 g - b->c->nodes[b->node[g]].first_gpu, b->c->nodes[b->node[g]].name,
				 (long long)b->free_mib[g], (long long)per);
			return GP_NO;
		}
	}
	for (k = 0; k < ngpus; k++) {
		gpu_change(b, gpus[k], +1, -per);
		env_add(&b->env[env], gpus[k]);
	}
	b->env[env].mem += mem_mib;
	return GP_OK;
}

int gp_envbind_acquire(gp_envbind *b, int env, int q, int *out, gp_envbind_why *why)
{
	int k, reason = GP_EB_OK;

	memset(why, 0, sizeof(*why));
	for (k = 0; k < q; k++) {
		int g = pick_new(b, env, 1, 0, out, k, &reason);

		if (g < 0) {
			int i;

			for (i = 0; i < k; i++) {
				b->mark[out[i]] = 0;
				gpu_change(b, out[i], -1, 0);
			}
			why->reason = reason == GP_EB_GPU_MEMORY ? GP_EB_GPU_MEMORY : GP_EB_NO_GPU_UNDER_THRESHOLD;
			snprintf(why->msg, sizeof(why->msg), "environment '%s' needs %d free GPUs, %d are free",
				 b->set->envs[env].name, q, b->pools[pool_of(b, env)].count[0]);
			return GP_NO;
		}
		b->mark[g] = 1;
		gpu_change(b, g, +1, 0);
		out[k] = g;
	}
	for (k = 0; k < q; k++) {
		b->mark[out[k]] = 0;
		track(b, out[k]);
	}
	return GP_OK;
}

void gp_envbind_drop(gp_envbind *b, int q, const int *gpus)
{
	int k;

	for (k = 0; k < q; k++)
		gpu_change(b, gpus[k], -1, 0);
}

int gp_envbind_can_acquire(const gp_envbind *b, int env, int q)
{
	return b->pools[pool_of(b, env)].count[0] >= q;
}

int gp_envbind_can_new(const gp_envbind *b, int env, int64_t need)
{
	const ptree *pt = &b->pools[pool_of(b, env)];
	uint64_t want = (uint64_t)(need + 1) << POS_BITS;
	int t;

	for (t = 0; t < b->K; t++)
		if (pt->tree[(size_t)t * 2 * (size_t)pt->size + 1] >= want)
			return 1;
	return 0;
}

int gp_envbind_ngpus(const gp_envbind *b)
{
	return b->ngpus;
}

int gp_envbind_gpu_tasks(const gp_envbind *b, int gpu)
{
	return b->load[gpu];
}

int64_t gp_envbind_gpu_free_mib(const gp_envbind *b, int gpu)
{
	return b->free_mib[gpu];
}

int gp_envbind_busy_gpus(const gp_envbind *b)
{
	return b->busy;
}

int gp_envbind_env_nbound(const gp_envbind *b, int env)
{
	return b->env[env].nbound;
}

int gp_envbind_env_bound(const gp_envbind *b, int env, const int **gpus, const int **tasks)
{
	*gpus = b->env[env].gpu;
	*tasks = b->env[env].tasks;
	return b->env[env].nbound;
}

int64_t gp_envbind_env_mem(const gp_envbind *b, int env)
{
	return b->env[env].mem;
}

int gp_envbind_threshold(const gp_envbind *b)
{
	return b->K;
}

double gp_envbind_reclaim_at(double last, double timeout)
{
	return last + timeout;
}

int gp_envbind_reclaim_due(double last, double timeout, double now)
{
	return now >= gp_envbind_reclaim_at(last, timeout);
}
