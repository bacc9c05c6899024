/* Predictions for a whole job list (predict.h, gp_pred_plan). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/alloc.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

void gp_pred_plan_init(gp_pred_plan *pl)
{
	memset(pl, 0, sizeof(*pl));
	pl->ref = -1;
}

void gp_pred_plan_release(gp_pred_plan *pl)
{
	if (!pl)
		return;
	free(pl->pred_milli);
	free(pl->pred_mem);
	free(pl->pred_util);
	free(pl->req_milli);
	free(pl->req_mem);
	free(pl->has);
	free((void *)pl->iter);
	free((void *)pl->milli);
	free(pl->rows);
	gp_pred_plan_init(pl);
}

/* Jobs that predict the same: same model, batch and input. */
typedef struct key {
	const gp_job *j;
	size_t row;
} key;

static int same(const gp_job *a, const gp_job *b)
{
	const gp_model_desc *x = &a->more->model, *y = &b->more->model;

	return !strcmp(x->name, y->name) && a->batch_size == b->batch_size &&
	       x->input_h == y->input_h && x->input_w == y->input_w &&
	       x->seq_len == y->seq_len && x->params == y->params &&
	       x->layers == y->layers;
}

/* A row per distinct job: ncat iteration times, the reference model's
 * utilization, memory, a flag, then ncat shares. */
#define ROW(pl) ((size_t)(2 * (pl)->ncat + 3))

/* The share a predicted utilization u (percent) asks for: ceil to 10
 * milli, within 10..1000. */
static double share_of(double u)
{
	int k = (int)ceil(u - 1e-9) * 10;

	return k < 10 ? 10 : k > GP_MILLI ? GP_MILLI : k;
}

int gp_pred_plan_build(gp_pred_plan *pl, const gp_pred_models *m, const gp_cluster *c,
		       const gp_joblist *jobs, gp_error *err)
{
	int *counts, k, best = -1;
	size_t i, n = jobs->n, nkeys = 0, kcap = 0, rcap = 0;
	key *keys = NULL;
	size_t *job_row;

	gp_pred_plan_release(pl);
	pl->n = n;
	pl->ncat = c->catalog.n;
	counts = gp_xcalloc((size_t)c->catalog.n + 1, sizeof(*counts));
	gp_cluster_gpus_by_model(c, counts);
	for (k = 0; k < c->catalog.n; k++)
		if (counts[k] > 0 && (best < 0 || counts[k] > counts[best]))
			best = k;
	free(counts);
	pl->ref = best;
	pl->pred_milli = gp_xcalloc(n ? n : 1, sizeof(*pl->pred_milli));
	pl->pred_mem = gp_xcalloc(n ? n : 1, sizeof(*pl->pred_mem));
	pl->pred_util = gp_xcalloc(n ? n : 1, sizeof(*pl->pred_util));
	pl->req_milli = gp_xcalloc(n ? n : 1, sizeof(*pl->req_milli));
	pl->req_mem = gp_xcalloc(n ? n : 1, sizeof(*pl->req_mem));
	pl->has = gp_xcalloc(n ? n : 1, 1);
	pl->iter = gp_xcalloc(n ? n : 1, sizeof(*pl->iter));
	pl->milli = gp_xcalloc(n ? n : 1, sizeof(*pl->milli));
	job_row = gp_xcalloc(n ? n : 1, sizeof(*job_row));
	for (i = 0; i < n; i++) {
		const gp_job *j = &jobs->jobs[i];
		gp_pred_ops ops;
		gp_pred_job pj;
		size_t r;

		pl->req_milli[i] = j->gpu_milli;
		pl->req_mem[i] = j->gpu_mem_mib;
		pl->pred_milli[i] = j->gpu_milli;
		pl->pred_mem[i] = j->gpu_mem_mib;
		pl->pred_util[i] = j->gpu_milli / 10.0;
		job_row[i] = (size_t)-1;
		if (best < 0 || !m->util || !m->mem)
			continue;
		for (r = 0; r < nkeys; r++)
			if (same(keys[r].j, j))
				break;
		if (r == nkeys) {
			if (gp_pred_ops_of_desc(&j->more->model, &ops) != 0 ||
			    (!j->more->model.name[0] && j->more->model.params <= 0))
				continue;
			GP_GROW(keys, kcap, nkeys + 1);
			keys[nkeys].j = j;
			keys[nkeys].row = pl->nrows;
			GP_GROW(pl->rows, rcap, (pl->nrows + 1) * ROW(pl));
			{
				double *row = pl->rows + pl->nrows * ROW(pl);

				for (k = 0; k < pl->ncat; k++) {
					gp_pred_job_on(m, j, &ops, &c->catalog.models[k], &pj);
					row[k] = pj.iter_s;
					row[pl->ncat + 3 + k] = share_of(pj.util);
				}
				gp_pred_job_on(m, j, &ops, &c->catalog.models[best], &pj);
				row[pl->ncat] = pj.util;
				row[pl->ncat + 1] = pj.mem_mib;
				row[pl->ncat + 2] = 1;
			}
			pl->nrows++;
			nkeys++;
		}
		job_row[i] = keys[r].row;
	}
	/* Pointers only now: rows may have moved while growing. */
	for (i = 0; i < n; i++) {
		const double *row;
		double u;

		if (job_row[i] == (size_t)-1)
			continue;
		row = pl->rows + job_row[i] * ROW(pl);
		u = row[pl->ncat];
		pl->has[i] = 1;
		pl->with_profile++;
		pl->iter[i] = m->time ? row : NULL;
		pl->milli[i] = row + pl->ncat + 3;
		pl->pred_util[i] = u;
		pl->pred_milli[i] = (int)share_of(u);
		pl->pred_mem[i] = (int64_t)ceil(row[pl->ncat + 1]);
	}
	free(job_row);
	free(keys);
	(void)err;
	return GP_OK;
}

void gp_pred_plan_apply(const gp_pred_plan *pl, gp_joblist *jobs)
{
	size_t i;

	for (i = 0; i < pl->n && i < jobs->n; i++) {
		gp_job *j = &jobs->jobs[i];

		if (!pl->has[i])
			continue;
		j->gpu_milli = pl->pred_milli[i];
		j->gpu_mem_mib = pl->pred_mem[i];
		j->pred_iter_s = pl->iter[i];
		j->pred_milli = pl->milli[i];
	}
}
