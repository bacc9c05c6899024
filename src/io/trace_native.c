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
#include "gpuplan/util/timefmt.h"
#include "gpuplan/util/util.h"
#include "trace_int.h"

enum {
	C_ID, C_SUBMIT, C_GPUS, C_DURATION, C_ITERATIONS, C_TYPE, C_CLASS,
	C_PRIORITY, C_PS, C_WORKERS, C_GPU_MILLI, C_GPU_MEM, C_CPU_MILLI,
	C_MEM, C_GPU_MODELS, C_ENV, C_MODEL, C_PARAMS, C_LAYERS, C_HIDDEN,
	C_SEQ_LEN, C_TRANSFORMER, C_FLOPS, C_BATCH, C_OPTIMIZER, C_PRECISION,
	C_DEADLINE, C_TP, C_PP, C_CP, C_DP, C_VP, C_EP, C_SHARDING, C_RECOMPUTE,
	C_GLOBAL_BATCH, C_MICRO_BATCH, C_REC_START, C_REC_END, C_TIME_LIMIT, C_NODES,
	C_STATE, C_PARTITION, C_ACCOUNT, C_USER, C_QOS, C_GPU_TYPE, C_TENANT,
};

static const char *const columns[] = {
	"id", "submit", "gpus", "duration", "iterations", "type", "class",
	"priority", "ps", "workers", "gpu_milli", "gpu_mem_mib", "cpu_milli",
	"mem_mib", "gpu_models", "environment", "model", "params", "layers",
	"hidden", "seq_len", "transformer", "flops_per_sample", "batch_size",
	"optimizer", "precision", "deadline", "tp", "pp", "cp", "dp", "vp", "ep",
	"sharding", "recompute", "global_batch", "micro_batch", "recorded_start",
	"recorded_end", "time_limit", "nodes", "state", "partition", "account", "user",
	"qos", "gpu_type", "tenant", NULL,
};

/* Whether the trace's times are dates (rebased on the first submit in
 * native_finish) or seconds: the first row says, the others follow. */
typedef struct native_state {
	int dates;              /* 0 not known yet, 1 seconds, 2 dates */
} native_state;

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

/* A point in time: seconds, [D-]HH:MM:SS from the start, or an ISO date
 * (then every point of the trace is a date).  Empty: *out untouched. */
static int opt_point(gp_trace_row *r, int k, double *out)
{
	native_state *st = r->state;
	const char *s = gp_trace_get(r, k);
	int64_t t;
	double d;

	if (!*s)
		return GP_OK;
	if (!gp_time_parse_iso(s, &t)) {
		if (st->dates == 1 || (!st->dates && k != C_SUBMIT))
			return gp_trace_bad(r, k, "'%s' is a date, but 'submit' %s: give every time "
					    "as a date or every time in seconds", r->names[k],
					    st->dates == 1 ? "is in seconds" : "is not");
		st->dates = 2;
		*out = (double)t;
		return GP_OK;
	}
	if (st->dates == 2)
		return gp_trace_bad(r, k, "'%s' must be a date like the other times of this "
				    "trace, got '%.40s'", r->names[k], s);
	if (k == C_SUBMIT)
		st->dates = 1;
	if (!gp_parse_double(s, 0, GP_TRACE_MAX_SECONDS, &d) ||
	    (!gp_time_parse_duration(s, &d) && d <= GP_TRACE_MAX_SECONDS)) {
		*out = d;
		return GP_OK;
	}
	return gp_trace_bad(r, k, "'%s' must be seconds, [D-]HH:MM:SS or a date "
			    "(YYYY-MM-DDTHH:MM:SS), got '%.40s'", r->names[k], s);
}

/* A length of time: seconds or [D-]HH:MM:SS.  Empty: *out untouched. */
static int opt_span(gp_trace_row *r, int k, double *out)
{
	const char *s = gp_trace_get(r, k);
	double d;

	if (!*s)
		return GP_OK;
	if (!gp_parse_double(s, 0, GP_TRACE_MAX_SECONDS, &d) ||
	    (!gp_time_parse_duration(s, &d) && d <= GP_TRACE_MAX_SECONDS)) {
		*out = d;
		return GP_OK;
	}
	return gp_trace_bad(r, k, "'%s' must be seconds in 0..%g or [D-]HH:MM:SS, got '%.40s'",
			    r->names[k], GP_TRACE_MAX_SECONDS, s);
}

/* The scheduler's record of the job, when the row gives any of it. */
static int hist_cols(gp_trace_row *r)
{
	gp_job_hist *h = &r->hist;
	int k, rc;

	for (k = C_REC_START; k <= C_GPU_TYPE; k++)
		if (has(r, k))
			break;
	if (k > C_GPU_TYPE)
		return GP_OK;
	memset(h, 0, sizeof(*h));
	h->recorded_start = h->recorded_end = -1;
	r->has_hist = 1;
	if ((rc = opt_point(r, C_REC_START, &h->recorded_start)) ||
	    (rc = opt_point(r, C_REC_END, &h->recorded_end)) ||
	    (rc = opt_span(r, C_TIME_LIMIT, &h->time_limit)) ||
	    (rc = opt_int(r, C_NODES, 0, 1L << 24, &h->nodes)))
		return rc;
	if (h->recorded_end >= 0 && h->recorded_start >= 0 && h->recorded_end < h->recorded_start)
		return gp_trace_bad(r, C_REC_END, "'recorded_end' is before 'recorded_start'");
	h->state = has(r, C_STATE) ? gp_trace_intern(r, gp_trace_get(r, C_STATE)) : NULL;
	h->partition = has(r, C_PARTITION) ? gp_trace_intern(r, gp_trace_get(r, C_PARTITION)) : NULL;
	h->account = has(r, C_ACCOUNT) ? gp_trace_intern(r, gp_trace_get(r, C_ACCOUNT)) : NULL;
	h->user = has(r, C_USER) ? gp_trace_intern(r, gp_trace_get(r, C_USER)) : NULL;
	h->qos = has(r, C_QOS) ? gp_trace_intern(r, gp_trace_get(r, C_QOS)) : NULL;
	h->gpu_type = has(r, C_GPU_TYPE) ? gp_trace_intern(r, gp_trace_get(r, C_GPU_TYPE)) : NULL;
	return GP_OK;
}

/* Dates become seconds from the first submit. */
static void native_finish(void *state, gp_joblist *l, gp_trace_stats *st)
{
	native_state *ns = state;
	double t0 = 0;
	size_t i;

	if (ns->dates != 2)
		return;
	for (i = 0; i < l->n; i++)
		if (i == 0 || l->jobs[i].submit < t0)
			t0 = l->jobs[i].submit;
	for (i = 0; i < l->n; i++) {
		gp_job_hist *h = (gp_job_hist *)l->jobs[i].hist;

		l->jobs[i].submit -= t0;
		if (h && h->recorded_start >= 0)
			h->recorded_start -= t0;
		if (h && h->recorded_end >= 0)
			h->recorded_end -= t0;
	}
	st->epoch = t0;
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
	double submit = 0, duration = -1;
	int i;
	int rc, b = -1, klass = j->klass, milli = j->gpu_milli, opt = j->optimizer;
	int prec = j->precision;

	if ((rc = gp_trace_strdup(r, C_ID, &j->id)) ||
	    (rc = (has(r, C_SUBMIT) ? opt_point(r, C_SUBMIT, &submit)
				    : gp_trace_double(r, C_SUBMIT, 0, GP_TRACE_MAX_SECONDS, &submit))) ||
	    (rc = gp_trace_long(r, C_GPUS, 0, GP_TRACE_MAX_GPUS, &gpus)) ||
	    (rc = opt_span(r, C_DURATION, &duration)) ||
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
	    (rc = opt_span(r, C_DEADLINE, &r->more.deadline)) ||
	    (rc = hist_cols(r)))
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
	/* a tenant column names the environment too (quotas) */
	if (has(r, C_TENANT) || has(r, C_ENV))
		j->environment = gp_trace_intern(r, gp_trace_get(r, has(r, C_TENANT) ? C_TENANT : C_ENV));

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
	.state_size = sizeof(native_state),
	.row = native_row,
	.finish = native_finish,
};
