/* gpuplan's own trace CSV: a header naming any of the columns below, in
 * any order; id, submit and gpus are required, and each row needs a
 * duration or an iteration count.  Every gp_job field has a column, so
 * this is the format to write by hand or convert other traces to.  Empty
 * cells take the default; unknown columns are errors (typos must not pass
 * silently). */
#include <string.h>
#include <strings.h>

#include "gpuplan/model/llm.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/util/util.h"
#include "trace_int.h"

enum {
	C_ID, C_SUBMIT, C_GPUS, C_DURATION, C_ITERATIONS, C_TYPE, C_CLASS,
	C_PRIORITY, C_PS, C_WORKERS, C_GPU_MILLI, C_GPU_MEM, C_CPU_MILLI,
	C_MEM, C_GPU_MODELS, C_ENV, C_MODEL, C_PARAMS, C_LAYERS, C_HIDDEN,
	C_SEQ_LEN, C_TRANSFORMER, C_FLOPS, C_BATCH, C_OPTIMIZER, C_PRECISION,
	C_DEADLINE, C_TP, C_PP, C_CP, C_DP, C_VP, C_EP, C_SHARDING, C_RECOMPUTE,
	C_GLOBAL_BATCH, C_MICRO_BATCH,
};

static const char *const columns[] = {
	"id", "submit", "gpus", "duration", "iterations", "type", "class",
	"priority", "ps", "workers", "gpu_milli", "gpu_mem_mib", "cpu_milli",
	"mem_mib", "gpu_models", "environment", "model", "params", "layers",
	"hidden", "seq_len", "transformer", "flops_per_sample", "batch_size",
	"optimizer", "precision", "deadline", "tp", "pp", "cp", "dp", "vp", "ep",
	"sharding", "recompute", "global_batch", "micro_batch", NULL,
};

static int has(const gp_trace_row *r, int k)
{
	return *gp_trace_get(r, k) != '\0';
}

/* Optional whole number: left untouched when the cell is empty. */
static int opt_long(gp_trace_row *r, int k, long min, long max, long *out)
{
	return has(r, k) ? gp_trace_long(r, k, min, max, out) : GP_OK;
}

/* The same into narrower fields (min..max fits them). */
static int opt_int(gp_trace_row *r, int k, long min, long max, int *out)
{
	long v = *out;
	int rc = opt_long(r, k, min, max, &v);

	*out = (int)v;
	return rc;
}

static int opt_i64(gp_trace_row *r, int k, long min, long max, int64_t *out)
{
	long v = (long)*out;
	int rc = opt_long(r, k, min, max, &v);

	*out = v;
	return rc;
}

static int opt_double(gp_trace_row *r, int k, double min, double max,
		      double *out)
{
	return has(r, k) ? gp_trace_double(r, k, min, max, out) : GP_OK;
}

/* A word from a fixed list (case-insensitive), its index in *out. */
static int opt_word(gp_trace_row *r, int k, const char *const *words,
		    const char *expect, int *out)
{
	const char *s = gp_trace_get(r, k);
	int i;

	if (!*s)
		return GP_OK;
	for (i = 0; words[i]; i++) {
		if (!strcasecmp(s, words[i])) {
			*out = i;
			return GP_OK;
		}
	}
	return gp_trace_bad(r, k, "'%s' must be %s, got '%.40s'", r->names[k],
			    expect, s);
}

static const char *const class_words[] = { "LS", "BE", NULL };
static const char *const opt_words[] = { "sgd", "momentum", "adam", NULL };
static const char *const prec_words[] = { "fp32", "fp16", "bf16", "mixed", NULL };
static const char *const bool_words[] = { "0", "1", "no", "yes", "false", "true", NULL };

/* A type llm row: the model column names a preset; seq_len, precision
 * and the layout columns as in a job file (man gpuplan, "Large-model
 * jobs"); the per-GPU memory from the estimate unless given. */
static int llm_row(gp_trace_row *r, gp_job *j)
{
	static const char *const shard_words[] = { "none", "zero1", "zero2", "zero3", "fsdp",
						   "hsdp", NULL };
	static const char *const rc_words[] = { "none", "selective", "full", NULL };
	static const char *const lp_words[] = { "bf16", "fp16", "fp8", NULL };
	static const int cols[] = { C_MODEL, C_TP, C_PP, C_CP, C_DP, C_VP, C_EP, C_SHARDING,
				    C_RECOMPUTE, C_GLOBAL_BATCH, C_MICRO_BATCH, C_PRECISION,
				    C_SEQ_LEN, C_GPUS };
	static const char *const fields[] = { "model", "tp", "pp", "cp", "dp", "vp", "ep",
					      "sharding", "sharding", "global_batch",
					      "micro_batch", "precision", "seq_len", "parallel" };
	const gp_llm_preset *pre = gp_llm_preset_find(gp_trace_get(r, C_MODEL));
	gp_llm *l = &r->more.llm;
	gp_llm_mem m;
	const char *field = "";
	char why[200];
	int rc, v[7] = { 0, 0, 0, 0, 0, 0, 0 }, sh = 0, re = 0, pr = 0, gb = 0, mb = 0;
	size_t i;

	if (!pre)
		return gp_trace_bad(r, C_MODEL, "an llm row names a model preset (gpt3-175b, "
				    "llama3-70b, ...), not '%.40s'", gp_trace_get(r, C_MODEL));
	*l = pre->shape;
	snprintf(l->preset, sizeof(l->preset), "%s", pre->name);
	if ((rc = opt_int(r, C_TP, 1, GP_LLM_MAX_DIM, &v[0])) ||
	    (rc = opt_int(r, C_PP, 1, GP_LLM_MAX_DIM, &v[1])) ||
	    (rc = opt_int(r, C_CP, 1, GP_LLM_MAX_DIM, &v[2])) ||
	    (rc = opt_int(r, C_DP, 1, GP_LLM_MAX_DIM, &v[3])) ||
	    (rc = opt_int(r, C_VP, 1, GP_LLM_MAX_DIM, &v[4])) ||
	    (rc = opt_int(r, C_EP, 1, GP_LLM_MAX_DIM, &v[5])) ||
	    (rc = opt_int(r, C_SEQ_LEN, 1, GP_LLM_MAX_DIM, &v[6])) ||
	    (rc = opt_word(r, C_SHARDING, shard_words, "none, zero1, zero2, zero3, fsdp or hsdp",
			   &sh)) ||
	    (rc = opt_word(r, C_RECOMPUTE, rc_words, "none, selective or full", &re)) ||
	    (rc = opt_word(r, C_PRECISION, lp_words, "bf16, fp16 or fp8 for an llm job", &pr)) ||
	    (rc = opt_int(r, C_GLOBAL_BATCH, 1, GP_LLM_MAX_DIM, &gb)) ||
	    (rc = opt_int(r, C_MICRO_BATCH, 1, GP_LLM_MAX_DIM, &mb)))
		return rc;
	l->tp = v[0], l->pp = v[1], l->cp = v[2], l->dp = v[3], l->vp = v[4], l->ep = v[5];
	if (v[6] > 0)
		l->seq_len = v[6];
	l->sharding = (int8_t)sh;
	l->recompute = (int8_t)re;
	l->precision = (int8_t)pr;
	l->global_batch = gb;
	l->micro_batch = mb;
	l->sp = -1;
	l->moments = 2;
	if (gp_llm_complete(l, j->gpus, why, sizeof(why), &field)) {
		for (i = 0; i < GP_ARRAY_SIZE(fields) && strcmp(fields[i], field); i++)
			;
		return gp_trace_bad(r, i < GP_ARRAY_SIZE(fields) && has(r, cols[i]) ? cols[i] : C_GPUS,
				    "%s", why);
	}
	r->more.model.seq_len = l->seq_len;
	r->more.model.flops_per_sample = gp_llm_model_flops(l) / l->global_batch;
	j->batch_size = l->global_batch;
	if (j->gpu_mem_mib <= 0) {
		gp_llm_memory(l, &m);
		j->gpu_mem_mib = (int64_t)(m.total / 1048576.0) + 1;
		j->gpu_mem_estimated = 1;
	}
	return GP_OK;
}

static int native_row(gp_trace_row *r, gp_job *j)
{
	long gpus, iters = 0;
	double submit, duration = -1;
	int i;
	int rc, b = -1, klass = j->klass, milli = j->gpu_milli, opt = j->optimizer;
	int prec = j->precision;

	if ((rc = gp_trace_strdup(r, C_ID, &j->id)) ||
	    (rc = gp_trace_double(r, C_SUBMIT, 0, GP_TRACE_MAX_SECONDS, &submit)) ||
	    (rc = gp_trace_long(r, C_GPUS, 0, GP_TRACE_MAX_GPUS, &gpus)) ||
	    (rc = opt_double(r, C_DURATION, 0, GP_TRACE_MAX_SECONDS, &duration)) ||
	    (rc = opt_long(r, C_ITERATIONS, 1, 1000000000000000L, &iters)))
		return rc;
	if (duration < 0 && iters == 0)
		return gp_trace_bad(r, -1, "job '%.40s' needs a 'duration' or 'iterations'",
				    j->id);
	j->submit = submit;
	j->gpus = (int)gpus;
	j->duration = duration;
	j->iterations = iters;
	gp_trace_default_type(j);

	if (has(r, C_TYPE)) {
		int t = gp_job_type_parse(gp_trace_get(r, C_TYPE));

		if (t < 0)
			return gp_trace_bad(r, C_TYPE,
					    "'type' must be one of %s, %s, %s, %s, %s; got '%.40s'",
					    gp_job_type_name(GP_JOB_SINGLE_CARD),
					    gp_job_type_name(GP_JOB_SINGLE_NODE),
					    gp_job_type_name(GP_JOB_RING_ALLREDUCE),
					    gp_job_type_name(GP_JOB_PS_WORKER),
					    gp_job_type_name(GP_JOB_LLM),
					    gp_trace_get(r, C_TYPE));
		j->type = t;
	}
	/* The catalog first, so that explicit shape columns override it. */
	if ((rc = gp_trace_model_name(r, C_MODEL, gp_trace_get(r, C_MODEL))))
		return rc;
	if ((rc = opt_word(r, C_CLASS, class_words, "LS or BE", &klass)) ||
	    (rc = opt_int(r, C_PRIORITY, -1000000, 1000000, &j->priority)) ||
	    (rc = opt_int(r, C_PS, 0, GP_TRACE_MAX_GPUS, &j->ps)) ||
	    (rc = opt_int(r, C_WORKERS, 0, GP_TRACE_MAX_GPUS, &j->workers)) ||
	    (rc = opt_int(r, C_GPU_MILLI, 1, 1000, &milli)) ||
	    (rc = opt_i64(r, C_GPU_MEM, 0, 1L << 40, &j->gpu_mem_mib)) ||
	    (rc = opt_i64(r, C_CPU_MILLI, 0, 1L << 40, &j->cpu_milli)) ||
	    (rc = opt_i64(r, C_MEM, 0, 1L << 40, &j->mem_mib)) ||
	    (rc = opt_double(r, C_PARAMS, 0, 1e15, &r->more.model.params)) ||
	    (rc = opt_int(r, C_LAYERS, 0, 1000000, &r->more.model.layers)) ||
	    (rc = opt_int(r, C_HIDDEN, 0, 10000000, &r->more.model.hidden)) ||
	    (rc = opt_int(r, C_SEQ_LEN, 0, 100000000, &r->more.model.seq_len)) ||
	    (rc = opt_word(r, C_TRANSFORMER, bool_words, "0, 1, no, yes, false or true", &b)) ||
	    (rc = opt_double(r, C_FLOPS, 0, 1e30, &r->more.model.flops_per_sample)) ||
	    (rc = opt_int(r, C_BATCH, 0, 1L << 30, &j->batch_size)) ||
	    (rc = opt_word(r, C_OPTIMIZER, opt_words, "sgd, momentum or adam", &opt)) ||
	    (j->type != GP_JOB_LLM &&
	     (rc = opt_word(r, C_PRECISION, prec_words, "fp32, fp16, bf16 or mixed", &prec))) ||
	    (rc = opt_double(r, C_DEADLINE, 0, GP_TRACE_MAX_SECONDS, &r->more.deadline)))
		return rc;
	j->klass = (int8_t)klass;
	j->gpu_milli = (int16_t)milli;
	j->optimizer = (int8_t)opt;
	j->precision = (int8_t)prec;
	if (b >= 0)
		r->more.model.is_transformer = b & 1;
	if (has(r, C_PARAMS) || has(r, C_LAYERS) || has(r, C_HIDDEN) ||
	    has(r, C_SEQ_LEN) || has(r, C_TRANSFORMER))
		r->more.model.flops_per_sample = has(r, C_FLOPS) ? r->more.model.flops_per_sample : 0;
	if (has(r, C_GPU_MODELS) &&
	    (rc = gp_trace_gpu_models(r, C_GPU_MODELS, gp_trace_get(r, C_GPU_MODELS), j)))
		return rc;
	if (has(r, C_ENV))
		j->environment = gp_trace_intern(r, gp_trace_get(r, C_ENV));

	/* Requests that no policy could honour. */
	if (j->gpu_milli < 1000 && j->gpus != 1)
		return gp_trace_bad(r, C_GPU_MILLI,
				    "a shared GPU ('gpu_milli' %d < 1000) needs 'gpus' = 1, not %d",
				    j->gpu_milli, j->gpus);
	if (j->type == GP_JOB_SINGLE_CARD && j->gpus > 1)
		return gp_trace_bad(r, C_TYPE, "a %s job has one GPU, not %d",
				    gp_job_type_name(j->type), j->gpus);
	if (j->type == GP_JOB_PS_WORKER && (j->ps < 1 || j->workers < 1))
		return gp_trace_bad(r, C_TYPE, "a %s job needs 'ps' and 'workers' of at least 1",
				    gp_job_type_name(j->type));
	/* the same rules as the job YAML loader */
	if (j->type == GP_JOB_PS_WORKER && j->ps + j->workers != j->gpus)
		return gp_trace_bad(r, C_GPUS, "gpus is %d but ps + workers = %d + %d = %d",
				    j->gpus, j->ps, j->workers, j->ps + j->workers);
	if (j->type != GP_JOB_PS_WORKER && (j->ps > 0 || j->workers > 0))
		return gp_trace_bad(r, has(r, C_PS) && j->ps > 0 ? C_PS : C_WORKERS,
				    "'ps' and 'workers' are only for type %s",
				    gp_job_type_name(GP_JOB_PS_WORKER));
	if ((j->type == GP_JOB_RING_ALLREDUCE || j->type == GP_JOB_PS_WORKER) && j->gpus < 2)
		return gp_trace_bad(r, C_GPUS, "a %s job needs at least 2 GPUs, not %d",
				    gp_job_type_name(j->type), j->gpus);
	if (j->gpus == 0 && j->cpu_milli == 0)
		return gp_trace_bad(r, C_GPUS, "a job with no GPU needs 'cpu_milli'");
	if (j->type == GP_JOB_LLM)
		return llm_row(r, j);
	for (i = C_TP; i <= C_MICRO_BATCH; i++)
		if (has(r, i))
			return gp_trace_bad(r, i, "'%s' is for type llm rows", r->names[i]);
	return GP_OK;
}

const gp_trace_dialect gp_trace_native = {
	.name = "gpuplan",
	.summary = "gpuplan CSV: id,submit,gpus,duration|iterations and any other gp_job column (seconds)",
	.sep = ',',
	.columns = columns,
	.header = 1,
	.required = (1u << C_ID) | (1u << C_SUBMIT) | (1u << C_GPUS),
	.strict_header = 1,
	.own_ids = 1,
	.row = native_row,
};
