/* gpuplan perf on a `type: llm` job: its iteration time on a placement
 * (given with --on, from --policy, else laid out by parallel group on the
 * idle cluster), with MFU, tokens/s per GPU, the terms and the one that
 * bounds it, and where each parallel group went. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "llm_int.h"
#include "gpuplan/perf/llmperf.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/util/util.h"

void gp_perf_fmt_time(double s, char *buf, size_t n)
{
	if (s >= 1)
		snprintf(buf, n, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, n, "%.3f ms", s * 1e3);
	else
		snprintf(buf, n, "%.3f us", s * 1e6);
}

/* The placement of the idle cluster's llm layout into p. */
int gp_perf_llm_place(const gp_cluster *c, const gp_job *j, gp_placement *p, char *why,
		      size_t n)
{
	gp_alloc alloc;
	gp_rng rng;
	gp_policy_ctx ctx;
	gp_explain ex;
	int r;

	if (gp_alloc_init(&alloc, c))
		return -1;
	gp_rng_seed(&rng, 1);
	gp_explain_init(&ex);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = c;
	ctx.alloc = &alloc;
	ctx.rng = &rng;
	ctx.explain = &ex;
	r = gp_policy_find("bestfit")->place(&ctx, j, p);
	snprintf(why, n, "%s", ex.reason);
	gp_explain_release(&ex);
	gp_alloc_release(&alloc);
	return r == GP_PLACED ? 0 : -1;
}

static json_t *group_json(const gp_llm_group *g)
{
	json_t *o = json_object();

	json_object_set_new(o, "size", json_integer(g->size));
	json_object_set_new(o, "nodes", json_integer(g->nodes));
	json_object_set_new(o, "nvlink_domains", json_integer(g->domains));
	json_object_set_new(o, "time_s", json_real(g->time_s));
	json_object_set_new(o, "where", json_string(g->where));
	return o;
}

int gp_perf_llm_report(const gp_cluster *c, const gp_job *j, const gp_placement *p,
		       const char *placement_str, double eta, int json, FILE *o, char **answer)
{
	const gp_llm *l = &j->more->llm;
	gp_llm_perf r;
	gp_error err = GP_ERROR_INIT;
	char lay[160], buf[32];
	int i;

	if (gp_perf_llm_eta(c, j, p, eta, &r, &err))
		return gp_cli_report(&err);
	gp_llm_layout_str(l, lay, sizeof(lay));
	if (answer) {
		gp_perf_fmt_time(r.iter_s, buf, sizeof(buf));
		*answer = gp_xasprintf("Job %s iterates in %s on %d %s GPUs (%.0f tokens/s per GPU, "
				       "MFU %.1f %%), bound by %s; the largest overhead is %s.",
				       j->id ? j->id : "", buf, r.gpus, r.gpu, r.tokens_per_s_per_gpu,
				       r.mfu * 100, gp_llm_term_name(r.bound),
				       gp_llm_term_name(r.overhead));
	}
	if (json) {
		json_t *jo = json_object(), *terms = json_object(), *groups = json_object();
		char *s;

		json_object_set_new(jo, "job", json_string(j->id ? j->id : ""));
		json_object_set_new(jo, "type", json_string("llm"));
		json_object_set_new(jo, "on", json_string(placement_str));
		json_object_set_new(jo, "gpus", json_integer(r.gpus));
		json_object_set_new(jo, "nodes", json_integer(r.nodes));
		json_object_set_new(jo, "gpu_model", json_string(r.gpu));
		json_object_set_new(jo, "layout", json_string(lay));
		json_object_set_new(jo, "iteration_s", json_real(r.iter_s));
		json_object_set_new(jo, "tokens_per_s_per_gpu", json_real(r.tokens_per_s_per_gpu));
		json_object_set_new(jo, "mfu", json_real(r.mfu));
		json_object_set_new(jo, "model_flops", json_real(r.model_flops));
		json_object_set_new(jo, "gemm_peak_tflops", json_real(r.peak_tflops));
		json_object_set_new(jo, "gemm_efficiency", json_real(r.efficiency));
		json_object_set_new(jo, "bound", json_string(gp_llm_term_name(r.bound)));
		json_object_set_new(jo, "largest_overhead", json_string(gp_llm_term_name(r.overhead)));
		for (i = 0; i < GP_LLM_T_COUNT; i++)
			json_object_set_new(terms, gp_llm_term_name(i), json_real(r.term[i]));
		json_object_set_new(jo, "terms_s", terms);
		json_object_set_new(jo, "data_parallel_total_s", json_real(r.dp_total_s));
		if (l->tp > 1)
			json_object_set_new(groups, "tp", group_json(&r.tp));
		if (l->cp > 1)
			json_object_set_new(groups, "cp", group_json(&r.cp));
		if (l->dp > 1)
			json_object_set_new(groups, "dp", group_json(&r.dp));
		if (l->pp > 1)
			json_object_set_new(groups, "pp", group_json(&r.pp));
		if (l->ep > 1)
			json_object_set_new(groups, "ep", group_json(&r.ep));
		json_object_set_new(jo, "groups", groups);
		s = json_dumps(jo, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(8));
		fprintf(o, "%s\n", s);
		free(s);
		json_decref(jo);
		return GP_OK;
	}
	fprintf(o, "job '%s': llm, %s, %d GPUs on %d node%s (%s)\n", j->id ? j->id : "", lay, r.gpus,
		r.nodes, r.nodes == 1 ? "" : "s", r.gpu);
	fprintf(o, "  on          %s\n", placement_str);
	gp_perf_fmt_time(r.iter_s, buf, sizeof(buf));
	fprintf(o, "  iteration   %s  (%.0f tokens/s per GPU, MFU %.1f %%)\n", buf,
		r.tokens_per_s_per_gpu, r.mfu * 100);
	fprintf(o, "  bound by    %s; largest overhead %s\n", gp_llm_term_name(r.bound),
		gp_llm_term_name(r.overhead));
	for (i = 0; i < GP_LLM_T_COUNT; i++) {
		if (r.term[i] <= 0)
			continue;
		gp_perf_fmt_time(r.term[i], buf, sizeof(buf));
		fprintf(o, "  %-17s %12s  %5.1f %%\n", gp_llm_term_name(i), buf,
			100 * r.term[i] / r.iter_s);
	}
	fprintf(o, "  GEMMs at %.0f %% of %.0f TFLOP/s\n", r.efficiency * 100, r.peak_tflops);
	if (l->tp > 1)
		fprintf(o, "  %s\n", r.tp.where);
	if (l->cp > 1)
		fprintf(o, "  %s\n", r.cp.where);
	if (l->ep > 1)
		fprintf(o, "  %s\n", r.ep.where);
	if (l->pp > 1)
		fprintf(o, "  %s\n", r.pp.where);
	if (l->dp > 1) {
		gp_perf_fmt_time(r.dp_total_s, buf, sizeof(buf));
		fprintf(o, "  %s; %s of gradient/parameter traffic\n", r.dp.where, buf);
	}
	return GP_OK;
}
