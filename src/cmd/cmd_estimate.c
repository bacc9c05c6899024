/* gpuplan estimate: the GPU memory a training job needs, with the
 * breakdown of the rule used (memory.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "llm_int.h"
#include "opt.h"
#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/util/util.h"

enum { O_JSON = 1, O_MARGIN };

static const gp_opt estimate_opts[] = {
	{ .name = "memory-margin", .key = O_MARGIN, .type = GP_OT_DOUBLE, .arg = "PCT",
	  .min = 0, .max = GP_MEM_MARGIN_MAX * 100, .what = "a percentage",
	  .help = "add PCT % on top for allocator fragmentation and\n"
		  "buffers (default 0: the formula as it stands;\n"
		  "place and simulate use the formula without margin)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG,
	  .help = "machine-readable output (keys sorted, sizes in bytes)" },
	{ 0 },
};

const gp_cmd_desc gp_desc_estimate = {
	.name = "estimate",
	.synopsis = "[--memory-margin PCT] [--json] JOB.yaml",
	.min_args = 1, .max_args = 1, .operands = "expected one JOB.yaml",
	.about = "Estimate the GPU memory per GPU of the job's model: the layer-output rule for CNNs\n"
		 "(per-layer outputs x batch + parameters + gradients + optimizer state), the\n"
		 "transformer rule (bytes per parameter by optimizer and precision + activations\n"
		 "per layer) otherwise.  batch_size is per GPU.\n",
	.opts = estimate_opts,
};

static const char *rule_name(int rule)
{
	switch (rule) {
	case GP_MEM_RULE_CNN: return "cnn";
	case GP_MEM_RULE_TRANSFORMER: return "transformer";
	default: return "states-only";
	}
}

static int print_json(const gp_job *j, const gp_mem_estimate *e)
{
	json_t *o = json_object(), *bpp = json_object();
	int rc;

	json_object_set_new(o, "job", json_string(j->id));
	json_object_set_new(o, "model", json_string(j->more->model.name));
	json_object_set_new(o, "kind", json_string(gp_model_kind_name(j->more->model.kind)));
	json_object_set_new(o, "parameters", json_integer((json_int_t)llround(j->more->model.params)));
	json_object_set_new(o, "rule", json_string(rule_name(e->rule)));
	json_object_set_new(o, "batch_per_gpu", json_integer(e->batch));
	json_object_set_new(o, "optimizer", json_string(gp_optimizer_name(j->optimizer)));
	json_object_set_new(o, "precision", json_string(gp_precision_name(j->precision)));
	json_object_set_new(bpp, "weights", json_real(e->weight_bpp));
	json_object_set_new(bpp, "gradients", json_real(e->grad_bpp));
	json_object_set_new(bpp, "optimizer", json_real(e->optim_bpp));
	json_object_set_new(o, "bytes_per_param", bpp);
	json_object_set_new(o, "weights_bytes", json_integer((json_int_t)llround(e->weights)));
	json_object_set_new(o, "gradients_bytes", json_integer((json_int_t)llround(e->grads)));
	json_object_set_new(o, "optimizer_bytes", json_integer((json_int_t)llround(e->optim)));
	json_object_set_new(o, "states_bytes", json_integer((json_int_t)llround(e->states)));
	json_object_set_new(o, "activations_bytes",
			    json_integer((json_int_t)llround(e->activations)));
	json_object_set_new(o, "logits_bytes", json_integer((json_int_t)llround(e->logits)));
	json_object_set_new(o, "overhead_bytes", json_integer((json_int_t)llround(e->overhead)));
	json_object_set_new(o, "memory_margin_percent", json_real(e->margin * 100));
	json_object_set_new(o, "total_bytes", json_integer((json_int_t)llround(e->total)));
	json_object_set_new(o, "gpu_memory_mib", json_integer((json_int_t)j->gpu_mem_mib));
	json_object_set_new(o, "gpu_memory_source",
			    json_string(j->gpu_mem_estimated ? "estimate" : "job file"));
	json_object_set_new(o, "note", e->note ? json_string(e->note) : json_null());
	rc = json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	fputc('\n', stdout);
	json_decref(o);
	return rc ? GP_EIO : GP_OK;
}

static void row(const char *label, const char *what, double bpp, double bytes)
{
	char buf[32] = "";

	if (bpp > 0) {
		snprintf(buf, sizeof(buf), "%g B/param", bpp);
		what = buf;
	}
	printf("  %-14s %-28s %9.2f GB\n", label, what, bytes / 1e9);
}

static void print_text(const gp_job *j, const gp_mem_estimate *e)
{
	const gp_model_desc *m = &j->more->model;

	printf("job %s: model %s (%s, %.4g M parameters), batch %d per GPU, %s, %s\n",
	       j->id, m->name[0] ? m->name : "(explicit)", gp_model_kind_name(m->kind), m->params / 1e6,
	       e->batch, gp_optimizer_name(j->optimizer), gp_precision_name(j->precision));
	switch (e->rule) {
	case GP_MEM_RULE_CNN:
		printf("rule: cnn: per-layer outputs x batch + parameters + gradients + optimizer\n");
		break;
	case GP_MEM_RULE_TRANSFORMER:
		printf("rule: transformer: bytes per parameter + activations per layer s*b*h*(34 + 5*a*s/h)\n");
		break;
	default:
		printf("rule: model states only\n");
		break;
	}
	char what[64];

	row("weights", "", e->weight_bpp, e->weights);
	row("gradients", "", e->grad_bpp, e->grads);
	row("optimizer", "", e->optim_bpp, e->optim);
	row("model states", "", e->weight_bpp + e->grad_bpp + e->optim_bpp, e->states);
	if (e->rule == GP_MEM_RULE_CNN) {
		snprintf(what, sizeof(what), "%.0f elem x %d x %g B", m->act_elems, e->batch,
			 e->act_bytes_per_elem);
		row("activations", what, 0, e->activations);
	} else if (e->rule == GP_MEM_RULE_TRANSFORMER) {
		snprintf(what, sizeof(what), "%d layers x %.2f MB", m->layers,
			 e->act_bytes_per_layer / 1e6);
		row("activations", what, 0, e->activations);
	}
	if (e->logits > 0)
		row("logits", "4*s*b*V fp32", 0, e->logits);
	snprintf(what, sizeof(what), "%g %% (--memory-margin)", e->margin * 100);
	row("margin", what, 0, e->overhead);
	row("total per GPU", "", 0, e->total);
	printf("  %-14s %-28s %9.2f GiB\n", "", "", e->total / 1073741824.0);
	if (e->note)
		printf("note: %s\n", e->note);
	if (j->gpu_mem_estimated)
		printf("per-GPU memory used for placement: %lld MiB (this estimate%s)\n",
		       (long long)j->gpu_mem_mib,
		       e->margin > 0 ? " without the margin, which place and simulate take as "
				       "--memory-margin too" : "");
	else
		printf("per-GPU memory used for placement: %lld MiB (gpu_memory_gib in the job file)\n",
		       (long long)j->gpu_mem_mib);
}

int cmd_estimate(int argc, char **argv)
{
	gp_error err = GP_ERROR_INIT;
	gp_opt_state o;
	gp_mem_estimate e;
	gp_job job;
	int json = 0, c, rc;
	double margin = GP_MEM_MARGIN_DEFAULT * 100;
	const char *path;

	gp_opt_begin(&o, &gp_desc_estimate, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_JSON: json = 1; break;
		case O_MARGIN: margin = o.v; break;
		}
	}
	path = o.nargs ? o.args[0] : NULL;
	gp_opt_end(&o);
	if (c < 0)
		return o.status;
	if (gp_jobspec_load(path, &job, &err))
		return gp_cli_report(&err);
	if (job.more->model.params <= 0) {
		rc = gp_cli_fail(GP_EINPUT, "%s: job '%s' names no model to estimate from",
				 path, job.id);
		gp_job_release(&job);
		return rc;
	}
	if (gp_memory_estimate_margin(&job, margin / 100, &e, &err)) {
		gp_job_release(&job);
		return gp_cli_report(&err);
	}
	rc = GP_OK;
	if (e.rule == GP_MEM_RULE_LLM)
		rc = gp_estimate_llm(&job, &e, json);
	else if (json)
		rc = print_json(&job, &e);
	else
		print_text(&job, &e);
	gp_job_release(&job);
	return rc;
}
