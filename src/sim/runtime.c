/* Run times from the performance model, with the best placement's
 * iteration time cached per job shape (computing it searches layouts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/sim/sim.h"
#include "gpuplan/util/util.h"

typedef struct best_entry {
	char *key;
	double best_iter_s;     /* < 0: the model cannot place this shape */
} best_entry;

struct gp_sim_perf {
	const gp_cluster *cluster;
	best_entry *table;      /* open addressing, size a power of two */
	size_t size, used;
};

gp_sim_perf *gp_sim_perf_new(const gp_cluster *c)
{
	gp_sim_perf *p = gp_xcalloc(1, sizeof(*p));

	p->cluster = c;
	p->size = 64;
	p->table = gp_xcalloc(p->size, sizeof(*p->table));
	return p;
}

void gp_sim_perf_free(gp_sim_perf *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->size; i++)
		free(p->table[i].key);
	free(p->table);
	free(p);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static best_entry *slot_for(best_entry *table, size_t size, const char *key)
{
	size_t h = (size_t)str_hash(key) & (size - 1);

	while (table[h].key && strcmp(table[h].key, key))
		h = (h + 1) & (size - 1);
	return &table[h];
}

static void grow(gp_sim_perf *p)
{
	size_t size = p->size * 2, i;
	best_entry *t = gp_xcalloc(size, sizeof(*t));

	for (i = 0; i < p->size; i++)
		if (p->table[i].key)
			*slot_for(t, size, p->table[i].key) = p->table[i];
	free(p->table);
	p->table = t;
	p->size = size;
}

/* Everything the model's answer depends on, except the placement. */
static void shape_key(const gp_job *j, char *buf, size_t size)
{
	const gp_model_desc *m = &j->more->model;

	snprintf(buf, size, "%s|%.17g|%.17g|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%lld|%s",
		 m->name, m->params, m->flops_per_sample, m->layers, m->hidden, m->seq_len,
		 m->is_transformer, j->batch_size, j->precision, j->optimizer, j->gpus, j->type,
		 j->ps, j->workers, (long long)j->gpu_milli, j->gpu_models ? j->gpu_models : "");
}

static double best_iter(gp_sim_perf *p, const gp_job *j)
{
	char key[512];
	best_entry *e;
	gp_placement best, worst;
	gp_perf_iter bi, wi;

	shape_key(j, key, sizeof(key));
	e = slot_for(p->table, p->size, key);
	if (e->key)
		return e->best_iter_s;
	gp_placement_init(&best);
	gp_placement_init(&worst);
	e->key = gp_xstrdup(key);
	e->best_iter_s = gp_perf_best_worst(p->cluster, j, &best, &bi, &worst, &wi, NULL) == GP_OK &&
			 bi.iter_s > 0 ? bi.iter_s : -1;
	gp_placement_release(&best);
	gp_placement_release(&worst);
	if (++p->used * 2 > p->size) {
		double v = e->best_iter_s;

		grow(p);
		return v;
	}
	return e->best_iter_s;
}

int gp_sim_perf_duration(void *ud, const gp_cluster *c, const gp_job *job,
			 const gp_placement *p, gp_sim_runinfo *out)
{
	gp_sim_perf *perf = ud;
	double best, it;

	if (job->duration >= 0 || job->iterations <= 0)
		return gp_sim_fixed_duration(NULL, c, job, p, out);
	memset(out, 0, sizeof(*out));
	best = best_iter(perf, job);
	if (!p) {
		if (best <= 0)
			return -1;
		out->iter_s = out->best_iter_s = best;
		out->duration = (double)job->iterations * best;
		return out->duration <= GP_SIM_MAX_RUN_S ? 0 : -1;
	}
	/* The perf model times a PS-Worker job's placement by its roles: a
	 * parameter server sharing its node with workers on that node, with
	 * them (as place rates the placement), never pushing. */
	it = gp_perf_iteration_time(c, job, p);
	if (!(it > 0))
		return -1;
	out->iter_s = it;
	out->best_iter_s = best > 0 ? best : 0;
	out->duration = (double)job->iterations * it;
	/* iterations x iteration time may not pass the 10^10 s cap on times */
	return out->duration <= GP_SIM_MAX_RUN_S ? 0 : -1;
}
