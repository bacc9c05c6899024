/* Job-level predictions (predict.h): the three predictors applied to one
 * job on one GPU model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuplan/model/memory.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

void gp_pred_models_init(gp_pred_models *m)
{
	gp_catalog cat;
	const gp_gpu_model *g;

	memset(m, 0, sizeof(*m));
	gp_catalog_init_builtin(&cat);
	g = gp_catalog_find(&cat, GP_PRED_UTIL_GPU);
	if (g) {
		gp_pred_hw_of(g, &m->ref);
		m->ref_gpu = *g;
	}
	gp_catalog_release(&cat);
}

void gp_pred_models_release(gp_pred_models *m)
{
	if (!m)
		return;
	gp_predictor_free(m->util);
	gp_predictor_free(m->mem);
	gp_predictor_free(m->time);
	m->util = m->mem = m->time = NULL;
}

int gp_pred_models_load_file(gp_pred_models *m, const char *path, gp_error *err)
{
	gp_predictor *p, **slot;
	int rc = gp_predictor_load(path, &p, err);

	if (rc != GP_OK)
		return rc;
	switch (gp_predictor_target(p)) {
	case GP_PRED_UTIL: slot = &m->util; break;
	case GP_PRED_MEM: slot = &m->mem; break;
	default: slot = &m->time; break;
	}
	gp_predictor_free(*slot);
	*slot = p;
	return GP_OK;
}

int gp_pred_models_load(gp_pred_models *m, const char *dir, gp_error *err)
{
	static const char *const files[] = { "util.json", "memory.json", "time.json" };
	size_t i;
	int found = 0, rc;

	for (i = 0; i < GP_ARRAY_SIZE(files); i++) {
		char *path = gp_xasprintf("%s/%s", dir, files[i]);

		if (access(path, R_OK) == 0) {
			found++;
			rc = gp_pred_models_load_file(m, path, err);
			if (rc != GP_OK) {
				free(path);
				return rc;
			}
		}
		free(path);
	}
	if (!found)
		return gp_error_set(err, GP_EIO, dir, 0, 0,
				    "no predictor models here (util.json, memory.json, time.json)");
	return GP_OK;
}

int gp_pred_ops_in_domain(const gp_pred_ops *o)
{
	return o->count[GP_OP_CONV2D] == 0 && o->count[GP_OP_MATMUL] == 0 &&
	       o->count[GP_OP_RNN] == 0 && o->count[GP_OP_EMBED] == 0;
}

/* The analytic estimate (memory.h) plus the CUDA context, or 0. */
static double analytic_mib(const gp_job *j, const gp_pred_ops *ops)
{
	gp_mem_estimate e;
	gp_job tmp = *j;
	gp_job_more more = *j->more;

	if (more.model.params <= 0)
		more.model.params = ops->params;
	tmp.more = &more;
	if (tmp.batch_size <= 0)
		tmp.batch_size = ops->default_batch > 0 ? ops->default_batch : 1;
	if (gp_memory_estimate(&tmp, &e, NULL) != GP_OK)
		return 0;
	return e.total / 1048576.0 + GP_PRED_CONTEXT_MIB;
}

const char *gp_pred_time_source_name(int s)
{
	return s == GP_PRED_TIME_NET ? "predictor" : s == GP_PRED_TIME_PERF ? "perf-model" : "none";
}

/* The iteration time: the predictor's, unless it leaves the perf model's
 * band (GP_PRED_PERF_BAND); the perf model's when there is no predictor. */
static void time_on(const gp_pred_models *m, const gp_job *j, const gp_gpu_model *gpu,
		    const double *x, gp_pred_job *out)
{
	gp_perf_iter it;

	if (m->time)
		out->net_iter_s = gp_predictor_run(m->time, x);
	if (gp_perf_single_gpu(gpu, j, &it, NULL) == GP_OK && it.iter_s > 0 && isfinite(it.iter_s))
		out->perf_iter_s = it.iter_s;
	if (out->net_iter_s > 0 && (!(out->perf_iter_s > 0) ||
	    (out->net_iter_s <= out->perf_iter_s * GP_PRED_PERF_BAND &&
	     out->net_iter_s * GP_PRED_PERF_BAND >= out->perf_iter_s))) {
		out->iter_s = out->net_iter_s;
		out->time_source = GP_PRED_TIME_NET;
	} else if (out->perf_iter_s > 0) {
		out->iter_s = out->perf_iter_s;
		out->time_source = GP_PRED_TIME_PERF;
	}
	if (j->iterations > 0)
		out->time_s = out->iter_s * (double)j->iterations;
}

int gp_pred_job_on(const gp_pred_models *m, const gp_job *j, const gp_pred_ops *ops,
		   const gp_gpu_model *gpu, gp_pred_job *out)
{
	double x[GP_PRED_NFEAT], xr[GP_PRED_NFEAT];
	gp_pred_hw hw;

	memset(out, 0, sizeof(*out));
	if (!ops)
		return -1;
	gp_pred_hw_of(gpu, &hw);
	gp_pred_features(ops, j->batch_size, &hw, x);
	out->ok = 1;
	time_on(m, j, gpu, x, out);
	gp_pred_features(ops, j->batch_size, &m->ref, xr);
	out->in_domain = gp_pred_ops_in_domain(ops);
	if (m->mem) {
		out->mem_mib = gp_predictor_run(m->mem, xr);
		if (!out->in_domain) {
			double a = analytic_mib(j, ops);

			if (a > out->mem_mib) {
				out->mem_mib = a;
				out->mem_analytic = 1;
			}
		}
	}
	if (m->util) {
		double u;

		u = gp_predictor_run(m->util, xr) / 100;
		if (out->iter_s > 0 && m->ref.sms > 0 && m->ref_gpu.name[0]) {
			/* The reference time from the same rule as iter_s. */
			gp_pred_job rt;
			double k;

			memset(&rt, 0, sizeof(rt));
			time_on(m, j, &m->ref_gpu, xr, &rt);
			k = rt.iter_s > 0 ? out->iter_s / rt.iter_s : 0;

			if (k > 0 && isfinite(k))
				u = k * u / (k * u + 1 - u);
		}
		out->util = 100 * u;
	}
	return 0;
}
