/* The FGD inflation experiment: policies, task shapes, the run (tasks,
 * nodes, the choice of node and GPUs) and its metrics; the fragmentation
 * measure and the node scores are in fgd_score.c.  See fgd.h for the
 * model and the artifact semantics it follows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fgd_int.h"

static const struct {
	const char *name, *label;
} policy_names[GP_FGD_NPOLICIES] = {
	{ "fgd-random", "Random" },
	{ "fgd-dotprod", "DotProd" },
	{ "fgd-gpu-clustering", "GpuClustering" },
	{ "fgd-gpu-packing", "GpuPacking" },
	{ "fgd-bestfit", "BestFit" },
	{ "fgd", "FGD" },
};

const char *gp_fgd_policy_name(int policy)
{
	return policy >= 0 && policy < GP_FGD_NPOLICIES ? policy_names[policy].name : "?";
}

const char *gp_fgd_policy_label(int policy)
{
	return policy >= 0 && policy < GP_FGD_NPOLICIES ? policy_names[policy].label : "?";
}

int gp_fgd_policy_parse(const char *name)
{
	int i;

	/* The experiment's baselines carry an "fgd-" prefix so that a policy
	 * name means one algorithm across gpuplan (`bestfit` is a placement
	 * policy); the bare names of the FGD artifact stay accepted here. */
	for (i = 0; i < GP_FGD_NPOLICIES; i++)
		if (!strcmp(name, policy_names[i].name) ||
		    (!strncmp(policy_names[i].name, "fgd-", 4) && !strcmp(name, policy_names[i].name + 4)))
			return i;
	return -1;
}


/* indices 0..n-1 sorted by name (names are unique in practice; qsort ties
 * keep no particular order, so break them by index) */
static int cmp_by_name_idx(const void *a, const void *b, void *names)
{
	char *const *nm = names;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	int c = strcmp(nm[x], nm[y]);

	return c ? c : (x > y) - (x < y);
}

static int32_t *sorted_by_name(char **names, size_t n)
{
	int32_t *idx = gp_xmalloc(sizeof(*idx) * (n ? n : 1));
	size_t i;

	for (i = 0; i < n; i++)
		idx[i] = (int32_t)i;
	qsort_r(idx, n, sizeof(*idx), cmp_by_name_idx, names);
	return idx;
}

static int spec_intern(run *r, const char *spec)
{
	const gp_openb_nodes *nd = r->nodes;
	const char *p = spec;
	int i, any = 1;
	uint64_t mask = 0;

	for (i = 0; i < r->nspecs; i++)
		if (!strcmp(r->specs[i], spec))
			return i;
	/* '|'-separated model names; empty parts ignored; no part = any */
	while (*p) {
		const char *e = strchr(p, '|');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len) {
			int m;

			any = 0;
			for (m = 0; m < nd->nmodels; m++)
				if (strlen(nd->models[m]) == len && !memcmp(nd->models[m], p, len))
					mask |= 1ull << m;
		}
		p += len;
		if (*p == '|')
			p++;
	}
	r->specs = gp_xrealloc(r->specs, sizeof(char *) * (size_t)(r->nspecs + 1));
	r->spec_mask = gp_xrealloc(r->spec_mask, sizeof(uint64_t) * (size_t)(r->nspecs + 1));
	r->spec_any = gp_xrealloc(r->spec_any, sizeof(int) * (size_t)(r->nspecs + 1));
	r->specs[r->nspecs] = gp_xstrdup(spec);
	r->spec_mask[r->nspecs] = mask;
	r->spec_any[r->nspecs] = any;
	return r->nspecs++;
}

static int shape_eq(const shape *a, const shape *b)
{
	return a->cpu == b->cpu && a->milli == b->milli && a->ngpu == b->ngpu && a->spec == b->spec;
}

/* The artifact's PodResource.Less: CPU, share, GPU count, model string. */
static int shape_less(const run *r, const shape *a, const shape *b)
{
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu;
	if (a->milli != b->milli)
		return a->milli < b->milli;
	if (a->ngpu != b->ngpu)
		return a->ngpu < b->ngpu;
	return strcmp(r->specs[a->spec], r->specs[b->spec]) < 0;
}

/* Decreasing count; equal counts: the "larger" shape first. */
static int cmp_typical(const void *pa, const void *pb, void *rp)
{
	const typical *a = pa, *b = pb;
	const run *r = rp;

	if (a->freq != b->freq)
		return a->freq > b->freq ? -1 : 1;
	if (shape_less(r, &b->s, &a->s))
		return -1;
	if (shape_less(r, &a->s, &b->s))
		return 1;
	return 0;
}

/* Typical tasks of the original trace: shapes by decreasing frequency,
 * taken until they cover POPULARITY_PCT % of tasks, renormalised. */
static void make_typical(run *r)
{
	const gp_openb_pods *pd = r->pods;
	double *cnt = gp_xcalloc((size_t)r->nshapes, sizeof(double));
	double total = 0, expected, cum = 0;
	int i, k, taken = 0, step = 0;
	size_t j;

	for (j = 0; j < pd->n; j++) {
		cnt[r->pod_shape[j]] += 1;
		total += 1;
	}
	r->typ = gp_xcalloc((size_t)r->nshapes, sizeof(typical));
	for (i = 0; i < r->nshapes; i++) {
		r->typ[i].s = r->shapes[i];
		r->typ[i].freq = cnt[i];
	}
	free(cnt);
	qsort_r(r->typ, (size_t)r->nshapes, sizeof(typical), cmp_typical, r);
	expected = (double)POPULARITY_PCT * total / 100.0;
	while (cum < expected) {
		step += 1;
		while (taken < step && taken < r->nshapes) {
			cum += r->typ[taken].freq;
			r->typ[taken].freq = r->typ[taken].freq / total;
			taken++;
		}
		if (taken >= r->nshapes)
			break;
	}
	if (taken >= r->nshapes) {
		r->ntyp = r->nshapes;
		return;
	}
	r->ntyp = taken;
	for (k = 0; k < taken; k++)
		r->typ[k].freq /= cum / total;
}

/* ---- the run ---------------------------------------------------------- */

void gp_fgd_result_init(gp_fgd_result *res)
{
	memset(res, 0, sizeof(*res));
}

void gp_fgd_result_release(gp_fgd_result *res)
{
	if (!res)
		return;
	free(res->events);
	free(res->alloc_pct);
	free(res->frag_pct);
	free(res->frag_ratio_pct);
	free(res->point_measured);
	memset(res, 0, sizeof(*res));
}

static void run_release(run *r)
{
	int i;

	free(r->cpu_left);
	free(r->mem_left);
	free(r->gleft);
	free(r->rank);
	free(r->aff);
	free(r->naff);
	free(r->version);
	free(r->frag_cur);
	free(r->idle_cur);
	for (i = 0; i < r->nspecs; i++)
		free(r->specs[i]);
	free(r->specs);
	free(r->spec_mask);
	free(r->spec_any);
	free(r->pod_shape);
	free(r->shapes);
	free(r->typ);
	free(r->memo);
	free(r->sc_version);
	free(r->sc_score);
	free(r->sc_gpu);
	free(r->feas);
	free(r->scores);
}

static void build_shapes(run *r)
{
	const gp_openb_pods *pd = r->pods;
	size_t j;
	int k;

	r->pod_shape = gp_xmalloc(sizeof(int) * pd->n);
	for (j = 0; j < pd->n; j++) {
		shape s;

		s.cpu = pd->cpu_milli[j] ? pd->cpu_milli[j] : 100;
		s.milli = pd->gpu_milli[j];
		s.ngpu = pd->ngpus[j];
		s.spec = spec_intern(r, pd->gpu_spec[j]);
		/* few distinct shapes (tens to hundreds): linear search is fine */
		for (k = 0; k < r->nshapes; k++)
			if (shape_eq(&r->shapes[k], &s))
				break;
		if (k == r->nshapes) {
			r->shapes = gp_xrealloc(r->shapes, sizeof(shape) * (size_t)(k + 1));
			r->shapes[k] = s;
			r->nshapes++;
		}
		r->pod_shape[j] = k;
	}
}

/* np.round(x, d) as the artifact's pandas scripts apply it */
static double round_dec(double x, double scale)
{
	return rint(x * scale) / scale;
}

static void make_curves(gp_fgd_result *res, const gp_fgd_event *ev, size_t n)
{
	int np = res->npoints, x;
	double *arr = gp_xmalloc(sizeof(double) * (n ? n : 1));
	double prev_a = 0, prev_f = 0, prev_r = 0;
	size_t i;

	for (i = 0; i < n; i++)
		arr[i] = rint((double)ev[i].arrived_milli / (double)res->total_gpus / 10.0);
	for (x = 0; x < np; x++) {
		double sa = 0, sf = 0, sr = 0;
		size_t cnt = 0;
		int pass;

		for (pass = 0; pass < 2 && !cnt; pass++) {
			for (i = 0; i < n; i++) {
				int hit = pass == 0 ? arr[i] == (double)x
						    : arr[i] >= (double)(x - 1) && arr[i] <= (double)(x + 1);

				if (!hit)
					continue;
				sa += round_dec((double)ev[i].used_milli / (double)res->total_gpus / 10.0, 100);
				/* the artifact logs these with two decimals */
				sf += round_dec(ev[i].frag_milli, 100);
				sr += ev[i].idle_milli > 0 ? round_dec(100.0 * ev[i].frag_milli / ev[i].idle_milli, 100) : 0;
				cnt++;
			}
		}
		if (cnt) {
			prev_a = round_dec(sa / (double)cnt, 100);
			prev_f = round_dec(100.0 * (sf / (double)cnt) / 1000.0 / (double)res->total_gpus, 100);
			prev_r = sr / (double)cnt;
			res->point_measured[x] = 1;
		}
		res->alloc_pct[x] = prev_a;
		res->frag_pct[x] = prev_f;
		res->frag_ratio_pct[x] = prev_r;
	}
	free(arr);
}

/* The task list the run replays: the (shuffled) trace, thinned or grown
 * to the inflation target as the artifact does.  tasks[i] is a pod index,
 * copies[i] -1 for the original or the copy number of an inflated one. */
typedef struct task_list {
	int32_t *tasks, *copies;
	size_t n, cap;
} task_list;

/* Deflate: drop the k-th remaining task (the artifact's order-keeping
 * slice delete) until under the target; a Fenwick tree over the remaining
 * flags finds the k-th in O(log n), so a million drops stay fast. */
static void deflate_tasks(run *r, task_list *tl, int64_t *pod_total, double target)
{
	const gp_openb_pods *pods = r->pods;
	/* cppcheck-suppress duplicateAssignExpression ; m stays, alive counts down */
	size_t m = tl->n, alive = tl->n, x, pos, step, top = 1;
	int32_t *bit = gp_xcalloc(m + 1, sizeof(int32_t));
	unsigned char *gone = gp_xcalloc(m + 1, 1);

	for (x = 1; x <= m; x++) {
		bit[x]++;
		if (x + (x & -x) <= m)
			bit[x + (x & -x)] += bit[x];
	}
	while (top * 2 <= m)
		top *= 2;
	while ((double)*pod_total > target && alive > 0) {
		int32_t rem = gp_gorand_intn(&r->rng, (int)alive) + 1, p;

		for (pos = 0, step = top; step; step >>= 1)
			if (pos + step <= m && bit[pos + step] < rem) {
				pos += step;
				rem -= bit[pos];
			}
		/* tasks[pos] is the k-th remaining one */
		gone[pos] = 1;
		for (x = pos + 1; x <= m; x += x & -x)
			bit[x]--;
		alive--;
		p = tl->tasks[pos];
		*pod_total -= (int64_t)pods->gpu_milli[p] * pods->ngpus[p];
	}
	for (x = 0, tl->n = 0; x < m; x++)
		if (!gone[x]) {
			tl->tasks[tl->n] = tl->tasks[x];
			tl->copies[tl->n++] = tl->copies[x];
		}
	free(bit);
	free(gone);
}

/* Inflate: random copies (drawn over the pods sorted by name) until the
 * next one would pass the target. */
static int inflate_tasks(run *r, task_list *tl, int64_t *pod_total, double target, gp_error *err)
{
	const gp_openb_pods *pods = r->pods;
	size_t np = pods->n;
	int32_t *byname = sorted_by_name(pods->names, np), k = 0;

	for (;;) {
		int32_t p = byname[gp_gorand_intn(&r->rng, (int)np)];

		/* the artifact compares with the per-GPU share here */
		if ((double)(*pod_total + pods->gpu_milli[p]) > target)
			break;
		*pod_total += (int64_t)pods->gpu_milli[p] * pods->ngpus[p];
		if (tl->n == tl->cap) {
			tl->cap *= 2;
			tl->tasks = gp_xrealloc(tl->tasks, sizeof(int32_t) * tl->cap);
			tl->copies = gp_xrealloc(tl->copies, sizeof(int32_t) * tl->cap);
		}
		if (tl->n >= (size_t)GP_OPENB_MAX_PODS * 16) {
			free(byname);
			return gp_error_set(err, GP_EINPUT, pods->path, 1, 1,
					    "inflation needs more than %d tasks (cap)",
					    GP_OPENB_MAX_PODS * 16);
		}
		tl->tasks[tl->n] = p;
		tl->copies[tl->n] = k++;
		tl->n++;
	}
	free(byname);
	return GP_OK;
}

/* The artifact's random stream: seed, one Int(), pod shuffle, inflation
 * draws (the node permutation follows in init_nodes). */
static int make_tasks(run *r, const gp_fgd_opts *opts, int64_t total_milli, task_list *tl,
		      gp_error *err)
{
	const gp_openb_pods *pods = r->pods;
	size_t np = pods->n, j;
	int32_t *order;
	int64_t pod_total = 0;
	int rc = GP_OK;

	gp_gorand_seed(&r->rng, opts->seed);
	(void)gp_gorand_int63(&r->rng);
	order = sorted_by_name(pods->names, np);
	if (opts->shuffle)
		gp_gorand_shuffle_idx(&r->rng, order, (int)np);
	for (j = 0; j < np; j++)
		pod_total += (int64_t)pods->gpu_milli[j] * pods->ngpus[j];
	tl->cap = np + 16;
	tl->tasks = gp_xmalloc(sizeof(int32_t) * tl->cap);
	tl->copies = gp_xmalloc(sizeof(int32_t) * tl->cap);
	for (j = 0; j < np; j++) {
		tl->tasks[j] = order[j];
		tl->copies[j] = -1;
	}
	tl->n = np;
	free(order);
	if (opts->inflate > 0) {
		double target = opts->inflate * (double)total_milli;

		if ((double)pod_total > target)
			deflate_tasks(r, tl, &pod_total, target);
		else if ((double)pod_total < target && pod_total == 0)
			/* nothing drawn would ever add demand */
			rc = gp_error_set(err, GP_EINPUT, pods->path, 1, 1,
					  "no task asks for a GPU (num_gpu x gpu_milli is 0 on every row): "
					  "there is nothing to inflate");
		else if ((double)pod_total < target)
			rc = inflate_tasks(r, tl, &pod_total, target, err);
	}
	return rc;
}

/* Node state arrays, the random name-prefix ranks and the FGD score
 * cache (when it fits in memory). */
static int init_nodes(run *r, const gp_fgd_opts *opts)
{
	const gp_openb_nodes *nodes = r->nodes;
	int nn = r->nn, i, use_cache;
	int32_t *node_sorted = sorted_by_name(nodes->names, (size_t)nn);
	int32_t *perm = gp_xmalloc(sizeof(int32_t) * (size_t)(nn ? nn : 1));

	/* Ten draws happen in the artifact between the inflation and the node
	 * permutation: the start-up of the scheduler's ten informers (each
	 * reflector draws a random watch timeout).  Replaying them makes the
	 * seed-42 FGD run match the artifact decision for decision. */
	for (i = 0; i < ARTIFACT_INFORMER_DRAWS; i++)
		(void)gp_gorand_int63(&r->rng);
	gp_gorand_perm(&r->rng, perm, nn);

	r->cpu_left = gp_xmalloc(sizeof(int64_t) * (size_t)nn);
	r->mem_left = gp_xmalloc(sizeof(int64_t) * (size_t)nn);
	r->gleft = gp_xmalloc(sizeof(int16_t) * (size_t)nn * G);
	r->rank = gp_xmalloc(sizeof(int) * (size_t)nn);
	r->aff = gp_xcalloc((size_t)nn * NAFF, sizeof(int));
	r->naff = gp_xcalloc((size_t)nn, sizeof(int));
	r->version = gp_xcalloc((size_t)nn, sizeof(uint32_t));
	r->frag_cur = gp_xmalloc(sizeof(double) * (size_t)nn);
	r->idle_cur = gp_xmalloc(sizeof(double) * (size_t)nn);
	r->feas = gp_xmalloc(sizeof(int) * (size_t)nn);
	r->scores = gp_xmalloc(sizeof(int64_t) * (size_t)nn);
	for (i = 0; i < nn; i++) {
		int k;

		r->rank[node_sorted[i]] = perm[i];
		r->cpu_left[i] = nodes->cpu_milli[i];
		r->mem_left[i] = nodes->mem_mib[i];
		for (k = 0; k < G; k++)
			r->gleft[(size_t)i * G + k] = k < nodes->ngpus[i] ? MILLI : 0;
		gp_fgd_node_refresh(r, i);
	}
	free(perm);
	free(node_sorted);
	use_cache = opts->policy == GP_FGD_FGD && (size_t)nn * (size_t)r->nshapes <= (16u << 20);
	if (use_cache) {
		r->sc_version = gp_xcalloc((size_t)nn * (size_t)r->nshapes, sizeof(uint32_t));
		r->sc_score = gp_xmalloc(sizeof(int) * (size_t)nn * (size_t)r->nshapes);
		r->sc_gpu = gp_xmalloc((size_t)nn * (size_t)r->nshapes);
	}
	return use_cache;
}

/* Raw score of node n for shape si under the run's policy (the FGD score
 * memoised per node version when use_cache). */
static int64_t node_score(run *r, int n, int si, int k, int rnd, int use_cache)
{
	const shape *s = &r->shapes[si];
	int gpu;

	switch (r->policy) {
	case GP_FGD_RANDOM:
		return k == rnd ? SCORE_MAX : 0;
	case GP_FGD_DOTPROD:
		return gp_fgd_dotprod_score(r, n, s);
	case GP_FGD_GPU_CLUSTERING:
		return gp_fgd_clustering_score(r, n, s);
	case GP_FGD_GPU_PACKING:
		return gp_fgd_packing_score(r, n, s);
	case GP_FGD_BESTFIT:
		return gp_fgd_bestfit_raw(r, n, s);
	case GP_FGD_FGD:
		if (use_cache) {
			size_t ci = (size_t)n * (size_t)r->nshapes + (size_t)si;

			if (r->sc_version[ci] != r->version[n] + 1) {
				r->sc_score[ci] = gp_fgd_score(r, n, s, &gpu);
				r->sc_gpu[ci] = (int8_t)gpu;
				r->sc_version[ci] = r->version[n] + 1;
			}
			return r->sc_score[ci];
		}
		return gp_fgd_score(r, n, s, &gpu);
	}
	return 0;
}

/* The node for pod p (shape si): the filter, then the highest score
 * (BestFit's rescaled to 0..100), ties to the smallest random rank; -1
 * when no node fits. */
static int choose_node(run *r, size_t p, int si, int use_cache)
{
	const shape *s = &r->shapes[si];
	int nf = 0, chosen = -1, best_rank = 0, n, k, rnd = -1;
	int64_t best = 0, lo = INT64_MAX, hi = INT64_MIN;

	for (n = 0; n < r->nn; n++)
		if (gp_fgd_node_fits(r, n, p, s))
			r->feas[nf++] = n;
	if (nf <= 1)
		return nf ? r->feas[0] : -1;
	if (r->policy == GP_FGD_RANDOM)
		rnd = gp_gorand_intn(&r->rng, nf);
	for (k = 0; k < nf; k++) {
		int64_t sc = node_score(r, r->feas[k], si, k, rnd, use_cache);

		r->scores[k] = sc;
		if (sc < lo)
			lo = sc;
		if (sc > hi)
			hi = sc;
	}
	for (k = 0; k < nf; k++) {
		int64_t sc = r->scores[k];

		if (r->policy == GP_FGD_BESTFIT)
			sc = hi == lo ? 0 : (sc - lo) * SCORE_MAX / (hi - lo);
		n = r->feas[k];
		if (chosen < 0 || sc > best || (sc == best && r->rank[n] < best_rank)) {
			chosen = n;
			best = sc;
			best_rank = r->rank[n];
		}
	}
	return chosen;
}

/* Put pod p (shape si) on node n: the GPUs by the policy's in-node rule,
 * then CPU, memory and affinity counts.  Returns the GPU mask taken. */
static unsigned take_node(run *r, int n, size_t p, int si, int use_cache)
{
	const gp_openb_nodes *nodes = r->nodes;
	const shape *s = &r->shapes[si];
	int16_t *g = r->gleft + (size_t)n * G;
	int a = affinity_class(s), gsel = -1, i;
	unsigned mask = 0;

	if (s->milli > 0) {
		if (!is_share(s)) {
			mask = gp_fgd_exclusive_gpus(r, n, s);
		} else if (r->policy == GP_FGD_FGD) {
			if (use_cache && r->sc_version[(size_t)n * (size_t)r->nshapes + (size_t)si] ==
						 r->version[n] + 1)
				gsel = r->sc_gpu[(size_t)n * (size_t)r->nshapes + (size_t)si];
			else
				(void)gp_fgd_score(r, n, s, &gsel);
		} else if (r->policy == GP_FGD_RANDOM) {
			int cnt = 0;

			for (i = 0; i < nodes->ngpus[n]; i++)
				if (g[i] >= s->milli && gp_gorand_intn(&r->rng, ++cnt) == 0)
					gsel = i;
		} else {
			/* best fit inside the node: the least free GPU that fits */
			for (i = 0; i < nodes->ngpus[n]; i++)
				if (g[i] >= s->milli && (gsel < 0 || g[i] < g[gsel]))
					gsel = i;
		}
		if (gsel >= 0)
			mask = 1u << gsel;
		for (i = 0; i < nodes->ngpus[n]; i++)
			if (mask & (1u << i))
				g[i] = (int16_t)(g[i] - s->milli);
	}
	r->cpu_left[n] -= r->pods->cpu_milli[p];
	r->mem_left[n] -= r->pods->mem_mib[p];
	if (a >= 0 && r->aff[(size_t)n * NAFF + a]++ == 0)
		r->naff[n]++;
	gp_fgd_node_refresh(r, n);
	return mask;
}

int gp_fgd_run(const gp_openb_nodes *nodes, const gp_openb_pods *pods,
		 const gp_fgd_opts *opts, gp_fgd_result *res, gp_error *err)
{
	run r;
	int nn = nodes->n, i, n, use_cache, rc;
	size_t j, ntasks;
	int64_t total_milli = 0, used = 0, arrived = 0;
	task_list tl = { 0 };
	gp_fgd_event *ev;

	gp_fgd_result_init(res);
	if (opts->policy < 0 || opts->policy >= GP_FGD_NPOLICIES)
		return gp_error_set(err, GP_EUSAGE, "", 0, 0, "unknown sharing policy %d", opts->policy);
	if (!(opts->inflate <= GP_FGD_MAX_INFLATE))
		return gp_error_set(err, GP_EUSAGE, "", 0, 0, "inflation %g is above the cap %g",
				    opts->inflate, GP_FGD_MAX_INFLATE);
	memset(&r, 0, sizeof(r));
	r.nodes = nodes;
	r.pods = pods;
	r.policy = opts->policy;
	r.nn = nn;
	for (i = 0; i < nn; i++)
		total_milli += (int64_t)nodes->ngpus[i] * MILLI;
	if (total_milli == 0)
		return gp_error_set(err, GP_EINPUT, nodes->path, 1, 1,
				    "the cluster has no GPUs ('gpu' is 0 on every node)");

	build_shapes(&r);
	make_typical(&r);
	if ((rc = make_tasks(&r, opts, total_milli, &tl, err))) {
		free(tl.tasks);
		free(tl.copies);
		run_release(&r);
		return rc;
	}
	ntasks = tl.n;
	use_cache = init_nodes(&r, opts);

	ev = gp_xmalloc(sizeof(*ev) * (ntasks ? ntasks : 1));
	for (j = 0; j < ntasks; j++) {
		size_t p = (size_t)tl.tasks[j];
		int si = r.pod_shape[p], chosen;
		const shape *s = &r.shapes[si];
		unsigned mask = 0;
		double f = 0, id = 0;

		arrived += (int64_t)s->milli * s->ngpu;
		chosen = choose_node(&r, p, si, use_cache);
		if (chosen >= 0) {
			mask = take_node(&r, chosen, p, si, use_cache);
			used += (int64_t)s->milli * s->ngpu;
			res->scheduled++;
		} else {
			res->failed++;
		}
		ev[j].pod = (int32_t)p;
		ev[j].copy = tl.copies[j];
		ev[j].node = chosen;
		ev[j].gpus = (uint8_t)mask;
		ev[j].used_milli = used;
		ev[j].arrived_milli = arrived;
		for (n = 0; n < nn; n++) {
			f += r.frag_cur[n];
			id += r.idle_cur[n];
		}
		ev[j].frag_milli = f;
		ev[j].idle_milli = id;
	}

	res->policy = opts->policy;
	res->seed = opts->seed;
	res->inflate = opts->inflate;
	res->total_milli = total_milli;
	res->total_gpus = (int)(total_milli / MILLI);
	res->ntasks = ntasks;
	res->ntypical = (size_t)r.ntyp;
	res->used_milli = used;
	res->arrived_milli = arrived;
	res->frag_milli = ntasks ? ev[ntasks - 1].frag_milli : 0;
	{
		double top = opts->inflate > 0 ? opts->inflate : (double)arrived / (double)total_milli;

		res->npoints = (int)floor(top * 100.0 + 1e-9) + 1;
	}
	res->alloc_pct = gp_xcalloc((size_t)res->npoints, sizeof(double));
	res->frag_pct = gp_xcalloc((size_t)res->npoints, sizeof(double));
	res->frag_ratio_pct = gp_xcalloc((size_t)res->npoints, sizeof(double));
	res->point_measured = gp_xcalloc((size_t)res->npoints, 1);
	make_curves(res, ev, ntasks);
	if (opts->record)
		res->events = ev;
	else
		free(ev);
	free(tl.tasks);
	free(tl.copies);
	run_release(&r);
	return GP_OK;
}
