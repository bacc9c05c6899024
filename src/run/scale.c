/* --scale-durations (scale.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"
#include "gpuplan/run/scale.h"

/* Best iteration time per job shape; small open-addressing table. */
typedef struct shape_entry {
	char *key;
	double iter_s;          /* < 0: the model cannot place the shape */
} shape_entry;

typedef struct shape_cache {
	shape_entry *t;
	size_t size, used;
} shape_cache;

struct gp_scale {
	const gp_joblist *jobs;
	gp_job *shadow;         /* jobs[i] with the default model filled in
				 * (shallow copies: strings belong to jobs) */
	gp_pool *more;          /* the shadows' `more` with that model */
	double *t_ref;          /* per job; 0 = keep the recorded duration */
	const gp_cluster *bound;
	shape_cache best;       /* best iteration time on the bound cluster */
	gp_sim_perf *perf;      /* iteration-based jobs on the bound cluster */
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void cache_init(shape_cache *c)
{
	c->size = 64;
	c->used = 0;
	c->t = gp_xcalloc(c->size, sizeof(*c->t));
}

static void cache_release(shape_cache *c)
{
	size_t i;

	for (i = 0; c->t && i < c->size; i++)
		free(c->t[i].key);
	free(c->t);
	c->t = NULL;
}

static shape_entry *slot(shape_entry *t, size_t size, const char *key)
{
	size_t h = (size_t)str_hash(key) & (size - 1);

	while (t[h].key && strcmp(t[h].key, key))
		h = (h + 1) & (size - 1);
	return &t[h];
}

static void shape_key(const gp_job *j, char *buf, size_t size)
{
	const gp_model_desc *m = &j->more->model;

	snprintf(buf, size, "%s|%.17g|%.17g|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%s", m->name, m->params,
		 m->flops_per_sample, m->layers, m->hidden, m->seq_len, j->batch_size, j->precision,
		 j->optimizer, j->gpus, j->type, j->ps, j->workers, j->gpu_milli,
		 j->gpu_models ? j->gpu_models : "");
}

/* Best modelled iteration time of j on the idle cluster c, cached. */
static double best_iter(shape_cache *cache, const gp_cluster *c, const gp_job *j)
{
	char key[512];
	shape_entry *e;
	gp_placement best, worst;
	gp_perf_iter bi, wi;
	double v;

	shape_key(j, key, sizeof(key));
	e = slot(cache->t, cache->size, key);
	if (e->key)
		return e->iter_s;
	gp_placement_init(&best);
	gp_placement_init(&worst);
	v = gp_perf_best_worst(c, j, &best, &bi, &worst, &wi, NULL) == GP_OK && bi.iter_s > 0 ?
		    bi.iter_s : -1;
	gp_placement_release(&best);
	gp_placement_release(&worst);
	e->key = gp_xstrdup(key);
	e->iter_s = v;
	if (++cache->used * 2 > cache->size) {
		size_t size = cache->size * 2, i;
		shape_entry *t = gp_xcalloc(size, sizeof(*t));

		for (i = 0; i < cache->size; i++)
			if (cache->t[i].key)
				*slot(t, size, cache->t[i].key) = cache->t[i];
		free(cache->t);
		cache->t = t;
		cache->size = size;
	}
	return v;
}

/* ---- the reference cluster ---- */

/* 8 GPUs of model m, NVLink all-to-all or one PCIe switch, 4 NICs. */
static char *gpu_ref_yaml(const gp_gpu_model *m, const char *tech, int nodes)
{
	gp_sbuf sb;
	int i, k;
	char gg[16];

	if (m->nvlink_links > 0)
		snprintf(gg, sizeof(gg), "NV%d", m->nvlink_links);
	else
		snprintf(gg, sizeof(gg), "PIX");
	gp_sbuf_init(&sb);
	gp_sbuf_addf(&sb, "name: scale-reference\nnode_types:\n  ref:\n    gpu_model: %s\n"
			  "    cpus: 64\n    gpus:\n", m->name);
	for (i = 0; i < 8; i++)
		gp_sbuf_addf(&sb, "      - {id: GPU%d, cpus: %s, numa: %d}\n", i, i < 4 ? "0-31" : "32-63",
			     i < 4 ? 0 : 1);
	gp_sbuf_adds(&sb, "    nics:\n");
	for (i = 0; i < 4; i++)
		gp_sbuf_addf(&sb, "      - {id: NIC%d, device: mlx5_%d}\n", i, i);
	gp_sbuf_adds(&sb, "    devices: [GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6, GPU7, NIC0, NIC1, NIC2, NIC3]\n"
			  "    links:\n");
	for (i = 0; i < 12; i++) {
		gp_sbuf_adds(&sb, "      - [");
		for (k = 0; k < 12; k++) {
			const char *l;

			if (i == k)
				l = "X";
			else if (i < 8 && k < 8)
				l = gg;
			else if ((i >= 8) != (k >= 8) && (i < 8 ? i / 2 == k - 8 : k / 2 == i - 8))
				l = "PIX";
			else if ((i < 4 || (i >= 8 && i < 10)) == (k < 4 || (k >= 8 && k < 10)))
				l = "PXB";
			else
				l = "SYS";
			gp_sbuf_addf(&sb, "%s%s", k ? ", " : "", l);
		}
		gp_sbuf_adds(&sb, "]\n");
	}
	gp_sbuf_addf(&sb, "fabric:\n  - {name: ref-leaf, tech: %s}\nnodes:\n"
			  "  - {name: ref, type: ref, switch: ref-leaf, count: %d}\n", tech, nodes);
	return gp_sbuf_detach(&sb);
}

/* Servers of node type t of cluster base on one leaf of tech. */
static int type_ref_cluster(const char *base_path, const char *type, int tech, int nodes,
			    gp_cluster *out, gp_error *err)
{
	int st = gp_cluster_load(base_path, out, err), i, t, sw;

	if (st)
		return st;
	t = gp_cluster_find_type(out, type);
	for (i = 0; i < out->nnodes; i++)
		gp_cluster_node_release(&out->nodes[i]);
	out->nnodes = 0;
	sw = gp_cluster_add_switch(out, "scale-reference-leaf", -1, tech);
	for (i = 0; i < nodes; i++) {
		char name[64];

		snprintf(name, sizeof(name), "scale-reference-%d", i);
		gp_cluster_add_node(out, name, t, sw);
	}
	st = gp_cluster_finish(out, err);
	if (st)
		gp_cluster_release(out);
	return st;
}

static int build_ref(const char *ref, const gp_cluster *cluster, int nodes_needed_gpus,
		     gp_cluster *out, gp_error *err)
{
	char name[128];
	const char *colon = strchr(ref, ':');
	int tech = -1, t, st;

	snprintf(name, sizeof(name), "%.*s", (int)(colon ? (size_t)(colon - ref) : strlen(ref)), ref);
	if (colon) {
		tech = gp_fabric_tech_parse(colon + 1);
		if (tech <= 0)
			return gp_error_set(err, GP_EUSAGE, "", 0, 0,
					    "--scale-durations: unknown fabric technology '%s' in '%s' "
					    "(ib-edr, ib-hdr, ib-ndr, roce-100, eth-10, eth-25, eth-100, ...)",
					    colon + 1, ref);
	}
	t = gp_cluster_find_type(cluster, name);
	if (t >= 0) {
		int per = cluster->types[t].topo.ngpus > 0 ? cluster->types[t].topo.ngpus : 1, i;

		if (tech < 0) {
			for (i = 0; i < cluster->nnodes && cluster->nodes[i].type != t; i++)
				;
			tech = i < cluster->nnodes && cluster->nodes[i].tech > 0 ? cluster->nodes[i].tech :
				gp_fabric_tech_parse(GP_SCALE_DEFAULT_TECH);
		}
		if (!cluster->path || !strcmp(cluster->path, "<builtin>"))
			return gp_error_set(err, GP_EUSAGE, "", 0, 0,
					    "--scale-durations: node type '%s' needs a cluster file", name);
		return type_ref_cluster(cluster->path, name, tech, (nodes_needed_gpus + per - 1) / per,
					out, err);
	} else {
		gp_catalog cat;
		const gp_gpu_model *m;
		char *yaml;

		gp_catalog_init_builtin(&cat);
		m = gp_catalog_find(&cat, name);
		if (!m)
			m = gp_catalog_find(&cluster->catalog, name);
		if (!m) {
			gp_catalog_release(&cat);
			return gp_error_set(err, GP_EUSAGE, "", 0, 0,
					    "--scale-durations: '%s' is neither a GPU model of the catalog "
					    "nor a node type of the cluster (e.g. V100-SXM2-16GB:ib-edr)", name);
		}
		if (tech < 0)
			tech = gp_fabric_tech_parse(GP_SCALE_DEFAULT_TECH);
		yaml = gpu_ref_yaml(m, gp_fabric_tech_name(tech), (nodes_needed_gpus + 7) / 8);
		gp_catalog_release(&cat);
		st = gp_cluster_parse(yaml, strlen(yaml), "<scale-reference>", out, err);
		free(yaml);
		return st;
	}
}

/* ---- the object ---- */

static void fill_default(gp_job *j, const gp_dl_model *m, gp_pool *pool)
{
	const gp_model_desc *d = &j->more->model;

	if (!d->name[0] && !(d->params > 0) && !(d->flops_per_sample > 0)) {
		gp_job_more more = *j->more;

		gp_model_fill_desc(m, 0, 0, 0, &more.model);
		j->more = gp_pool_intern_mem(pool, &more, sizeof(more));
	}
	if (j->batch_size <= 0)
		j->batch_size = GP_SCALE_DEFAULT_BATCH;
}

gp_scale *gp_scale_new(const char *ref, const char *model, const gp_cluster *cluster,
		       const gp_joblist *jobs, gp_error *err)
{
	const gp_dl_model *m = gp_model_find(model ? model : GP_SCALE_DEFAULT_MODEL);
	gp_scale *sc;
	gp_cluster rc;
	shape_cache refc;
	size_t i;
	int maxg = 1;

	if (!m) {
		const char *s = gp_model_suggest(model);

		gp_error_set(err, GP_EUSAGE, "", 0, 0, "--scale-model: unknown DL model '%s'%s%s%s", model,
			     s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
		return NULL;
	}
	for (i = 0; i < jobs->n; i++)
		if (jobs->jobs[i].gpus > maxg)
			maxg = jobs->jobs[i].gpus;
	if (maxg > 4096)
		maxg = 4096;
	if (build_ref(ref, cluster, maxg, &rc, err))
		return NULL;
	sc = gp_xcalloc(1, sizeof(*sc));
	sc->jobs = jobs;
	sc->more = gp_pool_new();
	sc->shadow = gp_xmalloc((jobs->n ? jobs->n : 1) * sizeof(*sc->shadow));
	sc->t_ref = gp_xcalloc(jobs->n ? jobs->n : 1, sizeof(double));
	cache_init(&refc);
	for (i = 0; i < jobs->n; i++) {
		gp_job *j = &sc->shadow[i];

		*j = jobs->jobs[i];
		if (!(j->duration >= 0))
			continue;
		fill_default(j, m, sc->more);
		/* The reference has no GPU-model constraint to meet. */
		j->gpu_models = NULL;
		sc->t_ref[i] = best_iter(&refc, &rc, j);
		if (!(sc->t_ref[i] > 0))
			sc->t_ref[i] = 0;
		j->gpu_models = jobs->jobs[i].gpu_models;
	}
	cache_release(&refc);
	gp_cluster_release(&rc);
	cache_init(&sc->best);
	return sc;
}

void gp_scale_free(gp_scale *sc)
{
	if (!sc)
		return;
	cache_release(&sc->best);
	gp_sim_perf_free(sc->perf);
	free(sc->shadow);
	gp_pool_free(sc->more);
	free(sc->t_ref);
	free(sc);
}

void gp_scale_bind(gp_scale *sc, const gp_cluster *c)
{
	cache_release(&sc->best);
	cache_init(&sc->best);
	gp_sim_perf_free(sc->perf);
	sc->perf = gp_sim_perf_new(c);
	sc->bound = c;
}

int gp_scale_duration(void *ud, const gp_cluster *c, const gp_job *job, const gp_placement *p,
		      gp_sim_runinfo *out)
{
	gp_scale *sc = ud;
	size_t i;
	const gp_job *j;
	double best, it;

	if (sc->bound != c)
		gp_scale_bind(sc, c);
	if (job < sc->jobs->jobs || job >= sc->jobs->jobs + sc->jobs->n)
		return gp_sim_perf_duration(sc->perf, c, job, p, out);
	i = (size_t)(job - sc->jobs->jobs);
	if (!(job->duration >= 0))
		return gp_sim_perf_duration(sc->perf, c, job, p, out);
	if (!(sc->t_ref[i] > 0))
		return gp_sim_fixed_duration(NULL, c, job, p, out);
	j = &sc->shadow[i];
	memset(out, 0, sizeof(*out));
	best = best_iter(&sc->best, c, j);
	if (!p) {
		/* A lower bound of the real run time (backfill relies on it). */
		out->duration = best > 0 ? job->duration * best / sc->t_ref[i] : job->duration;
		out->iter_s = out->best_iter_s = best > 0 ? best : 0;
		return 0;
	}
	it = gp_perf_iteration_time(c, j, p);
	if (!(it > 0))
		return gp_sim_fixed_duration(NULL, c, job, p, out);
	out->duration = job->duration * it / sc->t_ref[i];
	out->iter_s = it;
	out->best_iter_s = best > 0 ? best : 0;
	return 0;
}
