/* The `type: llm` part of a job file: model shape or preset, precision,
 * parallel layout, sharding, recomputation and batches (man gpuplan,
 * "Large-model jobs"). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/model/llm.h"
#include "gpuplan/model/memory.h"
#include "jobspec_int.h"

static const char *const model_keys[] = {
	"preset", "name", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "seq_len",
	"experts", "top_k", "expert_ffn", "mlp", "tied", "bias", "dropout", "flash_attention",
	NULL
};

static const char *const parallel_keys[] = {
	"tp", "pp", "cp", "dp", "vp", "ep", "sp", "dp_shard", NULL
};

/* Keys of the job that only an llm job has. */
const char *const gp_jobspec_llm_keys[] = {
	"parallel", "sharding", "recompute", "global_batch", "micro_batch", NULL
};

static int preset_error(const gp_yaml_doc *doc, const gp_yaml_node *at, const char *name,
			gp_error *err)
{
	gp_sbuf sb;
	const gp_llm_preset *p;
	int n, i, rc;

	p = gp_llm_preset_list(&n);
	gp_sbuf_init(&sb);
	for (i = 0; i < n; i++)
		gp_sbuf_addf(&sb, "%s%s", i ? ", " : "", p[i].name);
	rc = gp_yaml_error(doc, at, err, "unknown model preset '%.40s' (presets: %s)", name, sb.buf);
	gp_sbuf_release(&sb);
	return rc;
}

static int int_key(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key, long min,
		   int32_t *out, gp_error *err)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);
	long x;

	if (!v)
		return GP_OK;
	if (gp_yaml_long(doc, v, key, min, GP_LLM_MAX_DIM, &x, err))
		return GP_EINPUT;
	*out = (int32_t)x;
	return GP_OK;
}

static int bool_key(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key,
		    int8_t *out, gp_error *err)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);
	int b;

	if (!v)
		return GP_OK;
	if (gp_yaml_bool(doc, v, key, &b, err))
		return GP_EINPUT;
	*out = (int8_t)b;
	return GP_OK;
}

static int load_shape(const gp_yaml_doc *doc, const gp_yaml_node *n, gp_llm *l, gp_error *err)
{
	const gp_yaml_node *v;
	const gp_llm_preset *p;
	const char *s;

	if (n->type == GP_YAML_SCALAR) {
		if (gp_yaml_str(doc, n, "model", &s, err))
			return GP_EINPUT;
		if (!(p = gp_llm_preset_find(s)))
			return preset_error(doc, n, s, err);
		*l = p->shape;
		snprintf(l->preset, sizeof(l->preset), "%s", p->name);
		return GP_OK;
	}
	if (gp_yaml_check_keys(doc, n, "model", model_keys, err))
		return GP_EINPUT;
	v = gp_yaml_get(n, "preset");
	if (!v)
		v = gp_yaml_get(n, "name");
	if (v) {
		if (gp_yaml_str(doc, v, "preset", &s, err))
			return GP_EINPUT;
		if ((p = gp_llm_preset_find(s))) {
			*l = p->shape;
			snprintf(l->preset, sizeof(l->preset), "%s", p->name);
		} else if (gp_yaml_get(n, "preset") || !gp_yaml_get(n, "layers")) {
			return preset_error(doc, v, s, err);
		} else {
			snprintf(l->preset, sizeof(l->preset), "%.23s", s);
			l->gated = 1, l->flash = 1;
		}
	} else {
		l->gated = 1, l->flash = 1; /* Llama-style unless said otherwise */
	}
	if (int_key(doc, n, "layers", 1, &l->layers, err) ||
	    int_key(doc, n, "hidden", 1, &l->hidden, err) ||
	    int_key(doc, n, "heads", 1, &l->heads, err) ||
	    int_key(doc, n, "kv_heads", 1, &l->kv_heads, err) ||
	    int_key(doc, n, "ffn", 1, &l->ffn, err) ||
	    int_key(doc, n, "vocab", 1, &l->vocab, err) ||
	    int_key(doc, n, "seq_len", 1, &l->seq_len, err) ||
	    int_key(doc, n, "experts", 1, &l->experts, err) ||
	    int_key(doc, n, "top_k", 1, &l->top_k, err) ||
	    int_key(doc, n, "expert_ffn", 1, &l->expert_ffn, err) ||
	    bool_key(doc, n, "tied", &l->tied, err) || bool_key(doc, n, "bias", &l->bias, err) ||
	    bool_key(doc, n, "dropout", &l->dropout, err) ||
	    bool_key(doc, n, "flash_attention", &l->flash, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(n, "mlp"))) {
		if (gp_yaml_str(doc, v, "mlp", &s, err))
			return GP_EINPUT;
		if (!strcasecmp(s, "swiglu") || !strcasecmp(s, "gated"))
			l->gated = 1;
		else if (!strcasecmp(s, "gelu") || !strcasecmp(s, "relu2"))
			l->gated = 0;
		else
			return gp_yaml_error(doc, v, err, "mlp must be swiglu or gelu, not '%.40s'", s);
		if (gp_yaml_get(n, "preset") && !gp_yaml_get(n, "ffn"))
			l->ffn = 0; /* derived again from the new MLP */
	}
	return GP_OK;
}

static int enum_key(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key,
		    int (*parse)(const char *), const char *choices, int8_t *out, gp_error *err)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);
	const char *s;

	if (!v)
		return GP_OK;
	if (gp_yaml_str(doc, v, key, &s, err))
		return GP_EINPUT;
	if (parse(s) < 0)
		return gp_yaml_error(doc, v, err, "%s must be %s, not '%.40s'", key, choices, s);
	*out = (int8_t)parse(s);
	return GP_OK;
}

/* Where an error about `field` points: its own node when given. */
static const gp_yaml_node *field_node(const gp_yaml_node *map, const char *field)
{
	const gp_yaml_node *par = gp_yaml_get(map, "parallel"), *mod = gp_yaml_get(map, "model");
	const gp_yaml_node *v;

	if (par && par->type == GP_YAML_MAP && (v = gp_yaml_get(par, field)))
		return v;
	if (mod && mod->type == GP_YAML_MAP && (v = gp_yaml_get(mod, field)))
		return v;
	if (!strcmp(field, "model") || !strcmp(field, "heads") || !strcmp(field, "kv_heads") ||
	    !strcmp(field, "experts") || !strcmp(field, "top_k"))
		return mod ? mod : map;
	if ((v = gp_yaml_get(map, field)))
		return v;
	if (!strcmp(field, "parallel") && gp_yaml_get(map, "gpus"))
		return gp_yaml_get(map, "gpus");
	return par ? par : map;
}

int gp_jobspec_llm(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job, int gpus_given,
		   gp_error *err)
{
	const gp_yaml_node *v, *par;
	gp_llm l;
	gp_model_desc *d;
	gp_llm_params P;
	const char *field = "";
	char why[200];
	long x;

	memset(&l, 0, sizeof(l));
	if (!(v = gp_yaml_get(map, "model")))
		return gp_yaml_error(doc, map, err, "an llm job needs a 'model' (a preset such as "
				     "llama3-70b, or layers, hidden, heads, ...)");
	if (load_shape(doc, v, &l, err))
		return GP_EINPUT;
	l.sp = -1;
	l.moments = job->optimizer == GP_OPT_SGD ? 0 : job->optimizer == GP_OPT_MOMENTUM ? 1 : 2;
	if (enum_key(doc, map, "precision", gp_llm_prec_parse, "bf16, fp16 or fp8", &l.precision,
		     err) ||
	    enum_key(doc, map, "sharding", gp_llm_shard_parse,
		     "none, zero1, zero2, zero3, fsdp or hsdp", &l.sharding, err) ||
	    enum_key(doc, map, "recompute", gp_llm_recompute_parse, "none, selective or full",
		     &l.recompute, err) ||
	    int_key(doc, map, "global_batch", 1, &l.global_batch, err) ||
	    int_key(doc, map, "micro_batch", 1, &l.micro_batch, err))
		return GP_EINPUT;
	if ((par = gp_yaml_get(map, "parallel"))) {
		if (gp_yaml_check_keys(doc, par, "parallel", parallel_keys, err) ||
		    int_key(doc, par, "tp", 1, &l.tp, err) || int_key(doc, par, "pp", 1, &l.pp, err) ||
		    int_key(doc, par, "cp", 1, &l.cp, err) || int_key(doc, par, "dp", 1, &l.dp, err) ||
		    int_key(doc, par, "vp", 1, &l.vp, err) || int_key(doc, par, "ep", 1, &l.ep, err) ||
		    int_key(doc, par, "dp_shard", 1, &l.shard_group, err) ||
		    bool_key(doc, par, "sp", &l.sp, err))
			return GP_EINPUT;
		if (gp_yaml_get(par, "dp_shard") && l.sharding != GP_SHARD_HSDP)
			return gp_yaml_error(doc, gp_yaml_get(par, "dp_shard"), err,
					     "dp_shard is the shard group of sharding: hsdp");
	}
	if (!gpus_given) {
		/* every size given: the GPUs follow */
		x = (long)(l.tp ? l.tp : 1) * (l.pp ? l.pp : 1) * (l.cp ? l.cp : 1) * l.dp;
		if (l.dp <= 0 || x > GP_JOBSPEC_MAX_GPUS)
			return gp_yaml_error(doc, map, err, "job '%s' has no 'gpus' (give it, or dp in "
					     "'parallel')", job->id);
		job->gpus = (int)x;
	}
	if (gp_llm_complete(&l, job->gpus, why, sizeof(why), &field))
		return gp_yaml_error(doc, field_node(map, field), err, "%s", why);
	d = &gp_job_more_edit(job)->model;
	gp_job_more_edit(job)->llm = l;
	gp_llm_params_count(&l, &P);
	snprintf(d->name, sizeof(d->name), "%s", l.preset);
	d->kind = GP_MODEL_TRANSFORMER;
	d->is_transformer = 1;
	d->params = P.total;
	d->layers = l.layers;
	d->hidden = l.hidden;
	d->heads = l.heads;
	d->vocab = l.vocab;
	d->seq_len = l.seq_len;
	d->flops_per_sample = gp_llm_model_flops(&l) / l.global_batch;
	job->batch_size = l.global_batch;
	job->precision = l.precision == GP_LLM_FP16 ? GP_PREC_FP16 : GP_PREC_BF16;
	return GP_OK;
}
