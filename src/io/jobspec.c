/* Job-spec YAML loader (jobspec.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/jobspec.h"
#include "gpuplan/model/memory.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/util/util.h"
#include "jobspec_int.h"

#define MILLI 1000 /* a whole GPU in milli-GPU */

static const char *const job_keys[] = {
	"name", "type", "gpus", "ps", "workers", "gpu_memory_gib", "model", "dataset",
	"input", "batch_size", "optimizer", "precision", "gpu_model", "class",
	"environment", "gpu_share", "cpus", "memory_gib", "iterations", "duration",
	"priority", "submit", "deadline", "deadline_s", "checkpoint_interval_s",
	"parallel", "sharding", "recompute", "global_batch", "micro_batch", NULL
};

static const char *const model_keys[] = {
	"name", "kind", "parameters", "layers", "hidden", "heads", "seq_len", "vocab",
	"layer_outputs", "layer_list", "flops_per_sample", NULL
};

/* Datasets whose input shape is implied (C, H, W). */
static const struct {
	const char *name;
	int c, h, w;
} datasets[] = {
	{ "imagenet", 3, 224, 224 },
	{ "cifar10", 3, 32, 32 },
	{ "cifar100", 3, 32, 32 },
	{ "coco", 3, 416, 416 },
};

/* s with an optional one-letter unit from letters: the number, in
 * [0, max], times that unit's multiplier. */
static int parse_with_unit(const char *s, const char *letters, const double *mult,
			   double max, double *out)
{
	size_t len = strlen(s);
	const char *u;
	double v;
	char buf[64];

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len + 1);
	u = strchr(letters, buf[len - 1]);
	if (u)
		buf[--len] = '\0';
	if (gp_parse_double(buf, 0, max, &v))
		return -1;
	v *= u ? mult[u - letters] : 1;
	if (v > max) /* the cap holds for the value, not only its digits */
		return -1;
	*out = v;
	return 0;
}

int gp_parse_count(const char *s, double *out)
{
	static const double mult[] = { 1e3, 1e3, 1e6, 1e6, 1e9, 1e9, 1e9, 1e9, 1e12, 1e12 };

	return parse_with_unit(s, "kKmMbBgGtT", mult, 1e16, out);
}

/* "3600", "90m", "2h", "1.5d": seconds. */
static int parse_duration(const char *s, double *out)
{
	static const double mult[] = { 1, 60, 3600, 86400 };
	double v;

	if (parse_with_unit(s, "smhd", mult, 1e12, &v) || v <= 0)
		return -1;
	*out = v;
	return 0;
}

/* Optional keys: *out untouched and *present (when asked) 0 if absent. */
static const gp_yaml_node *get(const gp_yaml_node *map, const char *key, int *present)
{
	const gp_yaml_node *n = gp_yaml_get(map, key);

	if (present)
		*present = n != NULL;
	return n;
}

static int get_long(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key,
		    long min, long max, long *out, int *present, gp_error *err)
{
	const gp_yaml_node *n = get(map, key, present);

	return n ? gp_yaml_long(doc, n, key, min, max, out, err) : GP_OK;
}

static int get_double(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key,
		      double min, double max, double *out, int *present, gp_error *err)
{
	const gp_yaml_node *n = get(map, key, present);

	return n ? gp_yaml_double(doc, n, key, min, max, out, err) : GP_OK;
}

static int get_str(const gp_yaml_doc *doc, const gp_yaml_node *map, const char *key,
		   const char **out, gp_error *err)
{
	const gp_yaml_node *n = gp_yaml_get(map, key);

	*out = NULL;
	if (!n)
		return GP_OK;
	if (gp_yaml_str(doc, n, key, out, err))
		return GP_EINPUT;
	if (!**out || strlen(*out) > 255)
		return gp_yaml_error(doc, n, err, "%s must be a non-empty string of at most 255 characters",
				     key);
	return GP_OK;
}

/* gpu_model: one name ("A100-SXM4-80GB", or "V100M16|V100M32") or a list. */
static int load_gpu_models(const gp_yaml_doc *doc, const gp_yaml_node *n, gp_job *job,
			   gp_error *err)
{
	gp_sbuf sb;
	const char *s;
	size_t i;

	if (n->type == GP_YAML_SCALAR) {
		if (gp_yaml_str(doc, n, "gpu_model", &s, err))
			return GP_EINPUT;
		if (!*s)
			return gp_yaml_error(doc, n, err, "gpu_model must not be empty");
		job->gpu_models = gp_xstrdup(s);
		return GP_OK;
	}
	if (n->type != GP_YAML_SEQ || n->n == 0)
		return gp_yaml_error(doc, n, err,
				     "gpu_model must be a GPU model name or a non-empty list of names");
	gp_sbuf_init(&sb);
	for (i = 0; i < n->n; i++) {
		if (gp_yaml_str(doc, n->items[i], "gpu_model entry", &s, err) || !*s ||
		    strchr(s, '|')) {
			gp_sbuf_release(&sb);
			if (err->status)
				return GP_EINPUT;
			return gp_yaml_error(doc, n->items[i], err,
					     "gpu_model entry must be one non-empty model name");
		}
		if (i)
			gp_sbuf_adds(&sb, "|");
		gp_sbuf_adds(&sb, s);
	}
	job->gpu_models = gp_sbuf_detach(&sb);
	return GP_OK;
}

static int parse_kind(const char *s)
{
	if (!strcmp(s, "cnn"))
		return GP_MODEL_CNN;
	if (!strcmp(s, "transformer"))
		return GP_MODEL_TRANSFORMER;
	if (!strcmp(s, "rnn"))
		return GP_MODEL_RNN;
	if (!strcmp(s, "mlp"))
		return GP_MODEL_MLP;
	return -1;
}

static int lookup_model(const gp_yaml_doc *doc, const gp_yaml_node *at, const char *name,
			const gp_dl_model **out, gp_error *err)
{
	const char *hint;

	*out = gp_model_find(name);
	if (*out)
		return GP_OK;
	hint = gp_model_suggest(name);
	if (hint)
		return gp_yaml_error(doc, at, err, "unknown model '%s' (did you mean '%s'?)", name, hint);
	return gp_yaml_error(doc, at, err,
			     "unknown model '%s' (give its parameters, layers and hidden size instead)",
			     name);
}

/* model: NAME, or a mapping (catalog name with overrides, or explicit). */
static int load_model(const gp_yaml_doc *doc, const gp_yaml_node *n, int in_c, int in_h, int in_w,
		      gp_job *job, gp_error *err)
{
	gp_model_desc *d = &gp_job_more_edit(job)->model;
	const gp_dl_model *m = NULL;
	const gp_yaml_node *v;
	const char *s;
	long l;
	double x;
	int kind_given = 0, seq = 0;

	if (n->type == GP_YAML_SCALAR) {
		if (gp_yaml_str(doc, n, "model", &s, err) || lookup_model(doc, n, s, &m, err))
			return GP_EINPUT;
		gp_model_fill_desc(m, in_h, in_w, 0, d);
		return GP_OK;
	}
	if (gp_yaml_check_keys(doc, n, "model", model_keys, err))
		return GP_EINPUT;
	if (get_long(doc, n, "seq_len", 1, 1 << 24, &l, &kind_given, err))
		return GP_EINPUT;
	if (kind_given)
		seq = (int)l;
	if ((v = gp_yaml_get(n, "name"))) {
		if (gp_yaml_str(doc, v, "model name", &s, err))
			return GP_EINPUT;
		if (gp_model_find(s)) {
			m = gp_model_find(s);
			gp_model_fill_desc(m, in_h, in_w, seq, d);
		} else if (!gp_yaml_get(n, "parameters") && !gp_yaml_get(n, "layer_list")) {
			return lookup_model(doc, v, s, &m, err);
		} else {
			snprintf(d->name, sizeof(d->name), "%s", s);
		}
	}
	if ((v = gp_yaml_get(n, "kind"))) {
		if (gp_yaml_str(doc, v, "kind", &s, err))
			return GP_EINPUT;
		if (parse_kind(s) < 0)
			return gp_yaml_error(doc, v, err,
					     "kind must be cnn, transformer, rnn or mlp, not '%.40s'", s);
		d->kind = parse_kind(s);
		kind_given = 1;
	} else {
		kind_given = 0;
	}
	if ((v = gp_yaml_get(n, "parameters"))) {
		if (gp_yaml_str(doc, v, "parameters", &s, err) || gp_parse_count(s, &x) || x < 1)
			return gp_yaml_error(doc, v, err,
					     "parameters must be a positive count such as 25557032, 340M or 7B");
		d->params = x;
	}
	if ((v = gp_yaml_get(n, "layer_list"))) {
		double lp = 0, lf = 0;

		if (gp_yaml_get(n, "layer_outputs"))
			return gp_yaml_error(doc, v, err, "give either 'layer_outputs' or 'layer_list', not both");
		if (gp_jobspec_layer_list(doc, v, in_c, in_h, in_w, d, &lp, &lf, err))
			return GP_EINPUT;
		if (!gp_yaml_get(n, "parameters"))
			d->params = lp;
		if (!gp_yaml_get(n, "flops_per_sample"))
			d->flops_per_sample = 3 * lf;
		if (!gp_yaml_get(n, "kind"))
			d->kind = GP_MODEL_CNN;
		if (d->params < 1)
			return gp_yaml_error(doc, v, err, "layer_list has no convolution or fully "
					     "connected layer: give 'parameters'");
	}
	if (!m && d->params <= 0)
		return gp_yaml_error(doc, n, err, "model needs a catalog 'name', 'parameters' or a 'layer_list'");
#define OVERRIDE(key, field, max) \
	do { \
		if (get_long(doc, n, key, 1, max, &l, &kind_given, err)) \
			return GP_EINPUT; \
		if (gp_yaml_get(n, key)) \
			d->field = (int)l; \
	} while (0)
	OVERRIDE("layers", layers, 100000);
	OVERRIDE("hidden", hidden, 1 << 20);
	OVERRIDE("heads", heads, 1 << 16);
	OVERRIDE("vocab", vocab, 1 << 24);
#undef OVERRIDE
	if (seq > 0)
		d->seq_len = seq;
	if ((v = gp_yaml_get(n, "layer_outputs"))) {
		size_t i;

		if (v->type != GP_YAML_SEQ || v->n == 0)
			return gp_yaml_error(doc, v, err,
					     "layer_outputs must be a non-empty list of per-sample output sizes");
		d->act_elems = 0;
		for (i = 0; i < v->n; i++) {
			if (gp_yaml_str(doc, v->items[i], "layer output", &s, err) ||
			    gp_parse_count(s, &x) || x < 1)
				return gp_yaml_error(doc, v->items[i], err,
						     "layer output must be a positive element count");
			d->act_elems += x;
		}
	}
	if (get_double(doc, n, "flops_per_sample", 1, 1e21, &x, NULL, err))
		return GP_EINPUT;
	if (gp_yaml_get(n, "flops_per_sample"))
		d->flops_per_sample = x;
	if (!m) {
		/* Explicit model: its kind, unless given, follows from what is known. */
		if (!gp_yaml_get(n, "kind"))
			d->kind = d->act_elems > 0 ? GP_MODEL_CNN :
				  d->hidden > 0 ? GP_MODEL_TRANSFORMER : GP_MODEL_MLP;
		if (d->flops_per_sample <= 0)
			d->flops_per_sample = d->kind == GP_MODEL_TRANSFORMER && d->seq_len > 0 ?
				6.0 * d->params * d->seq_len : 6.0 * d->params;
	}
	d->is_transformer = d->kind == GP_MODEL_TRANSFORMER;
	if (d->is_transformer && d->hidden > 0 && d->seq_len <= 0)
		return gp_yaml_error(doc, n, err, "transformer model needs 'seq_len'");
	return GP_OK;
}

static int load_input(const gp_yaml_doc *doc, const gp_yaml_node *n, int *c, int *h, int *w,
		      gp_error *err)
{
	long v[3];
	size_t i;

	if (n->type != GP_YAML_SEQ || n->n != 3)
		return gp_yaml_error(doc, n, err, "input must be a list [channels, height, width]");
	for (i = 0; i < 3; i++)
		if (gp_yaml_long(doc, n->items[i], i ? "input size" : "input channels", 1,
				 i ? 16384 : 4096, &v[i], err))
			return GP_EINPUT;
	*c = (int)v[0];
	*h = (int)v[1];
	*w = (int)v[2];
	return GP_OK;
}

/* `ps: 0`: no parameter server, the source document's definition of a Ring-AllReduce
 * job: every GPU is a worker.  The GPU count comes from `gpus` or
 * `workers` (equal when both are given); *gpus_node gets it and
 * *workers_node is cleared, so the roles need no split. */
static int ps_zero(const gp_yaml_doc *doc, const gp_yaml_node *map, const gp_yaml_node *ps_node,
		   const gp_yaml_node **gpus_node, const gp_yaml_node **workers_node,
		   gp_error *err)
{
	const gp_yaml_node *t = gp_yaml_get(map, "type");
	long gpus = 0, workers = 0;

	if (t && t->type == GP_YAML_SCALAR && gp_job_type_parse(t->scalar) == GP_JOB_PS_WORKER) {
		gp_yaml_error(doc, ps_node, err, "a ps-worker job needs at least 1 parameter server");
		return GP_EINPUT;
	}
	if (*gpus_node && gp_yaml_long(doc, *gpus_node, "gpus", 1, GP_JOBSPEC_MAX_GPUS, &gpus, err))
		return GP_EINPUT;
	if (*workers_node &&
	    gp_yaml_long(doc, *workers_node, "workers", 1, GP_JOBSPEC_MAX_GPUS, &workers, err))
		return GP_EINPUT;
	if (*gpus_node && *workers_node && gpus != workers) {
		gp_yaml_error(doc, *workers_node, err,
			      "with ps: 0 every GPU is a worker, but workers is %ld and gpus %ld",
			      workers, gpus);
		return GP_EINPUT;
	}
	if (!*gpus_node)
		*gpus_node = *workers_node;
	*workers_node = NULL;
	if (!t) /* no type: workers alone say it (one worker: a single card) */
		*workers_node = *gpus_node;
	return GP_OK;
}

/* type, gpus, ps and workers: the job's training type and GPU count. */
static int load_shape(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job,
                      gp_error *err)
{
	const gp_yaml_node *v, *gpus_node, *ps_node, *workers_node;
	const char *s;
	long ps = 0, workers = 0, gpus = 0;

	gpus_node = gp_yaml_get(map, "gpus");
	ps_node = gp_yaml_get(map, "ps");
	workers_node = gp_yaml_get(map, "workers");
	if (ps_node && gp_yaml_long(doc, ps_node, "ps", 0, GP_JOBSPEC_MAX_GPUS, &ps, err))
		return GP_EINPUT;
	if (ps_node && ps == 0 &&
	    ps_zero(doc, map, ps_node, &gpus_node, &workers_node, err) != GP_OK)
		return GP_EINPUT;
	if (ps_node && ps == 0)
		ps_node = NULL;
	ps = 0;
	if (!(v = gp_yaml_get(map, "type"))) {
		/* The source document's rule: the type follows from the roles.  Parameter
		 * servers make a PS-Worker job; workers alone (or as many as
		 * the GPUs) a Ring-AllReduce one, one worker a single card;
		 * one GPU is a single card.  Several GPUs and no roles could be
		 * single-node or ring-allreduce: that needs `type`. */
		if (gpus_node && gp_yaml_long(doc, gpus_node, "gpus", 1, GP_JOBSPEC_MAX_GPUS, &gpus, err))
			return GP_EINPUT;
		if (workers_node &&
		    gp_yaml_long(doc, workers_node, "workers", 1, GP_JOBSPEC_MAX_GPUS, &workers, err))
			return GP_EINPUT;
		if (ps_node) {
			job->type = GP_JOB_PS_WORKER;
		} else if (workers_node && (!gpus_node || gpus == workers)) {
			job->type = workers == 1 ? GP_JOB_SINGLE_CARD : GP_JOB_RING_ALLREDUCE;
			if (!gpus_node) {
				gpus = workers;
				gpus_node = workers_node;
			}
			workers_node = NULL; /* all GPUs are workers: no roles to split */
			workers = 0;
		} else if (workers_node) {
			job->type = GP_JOB_PS_WORKER;
		} else if (gpus_node && gpus == 1) {
			job->type = GP_JOB_SINGLE_CARD;
		} else if (gpus_node) {
			gp_yaml_error(doc, map, err,
				      "job '%s' has no 'type': %ld GPUs without 'ps'/'workers' could be "
				      "single-node or ring-allreduce; say which", job->id, gpus);
			return GP_EINPUT;
		} else {
			gp_yaml_error(doc, map, err,
				      "job '%s' has no 'type' (single-card, single-node, ring-allreduce or "
				      "ps-worker) and no 'gpus', 'ps' or 'workers' to derive it from", job->id);
			return GP_EINPUT;
		}
	} else {
		if (gp_yaml_str(doc, v, "type", &s, err))
			return GP_EINPUT;
		job->type = gp_job_type_parse(s);
		if (job->type < 0) {
			gp_yaml_error(doc, v, err,
				      "type must be single-card, single-node, ring-allreduce, ps-worker or llm, not '%.40s'",
				      s);
			return GP_EINPUT;
		}
	}

	if (gpus_node && gp_yaml_long(doc, gpus_node, "gpus", 1, GP_JOBSPEC_MAX_GPUS, &gpus, err))
		return GP_EINPUT;
	if ((ps_node || workers_node) && job->type != GP_JOB_PS_WORKER) {
		gp_yaml_error(doc, ps_node ? ps_node : workers_node, err,
			      "'ps' and 'workers' are only for type ps-worker");
		return GP_EINPUT;
	}
	if (ps_node && gp_yaml_long(doc, ps_node, "ps", 1, GP_JOBSPEC_MAX_GPUS, &ps, err))
		return GP_EINPUT;
	if (workers_node &&
	    gp_yaml_long(doc, workers_node, "workers", 1, GP_JOBSPEC_MAX_GPUS, &workers, err))
		return GP_EINPUT;
	if (!gpus_node && job->type == GP_JOB_LLM) {
		gpus = 0; /* from the parallel sizes (gp_jobspec_llm) */
	} else if (!gpus_node) {
		if (ps_node && workers_node) {
			gpus = ps + workers;
		} else {
			gp_yaml_error(doc, map, err, "job '%s' has no 'gpus'", job->id);
			return GP_EINPUT;
		}
	}
	if (ps_node && workers_node && ps + workers != gpus) {
		gp_yaml_error(doc, gpus_node, err,
			      "gpus is %ld but ps + workers = %ld + %ld = %ld", gpus, ps, workers,
			      ps + workers);
		return GP_EINPUT;
	}
	if ((ps_node != NULL) != (workers_node != NULL)) {
		/* One of the two given: the other is the rest of the GPUs. */
		if ((ps_node ? ps : workers) >= gpus) {
			gp_yaml_error(doc, ps_node ? ps_node : workers_node, err,
				      "%s (%ld) leaves no GPU of %ld for the %s", ps_node ? "ps" : "workers",
				      ps_node ? ps : workers, gpus, ps_node ? "workers" : "parameter servers");
			return GP_EINPUT;
		}
		if (ps_node)
			workers = gpus - ps;
		else
			ps = gpus - workers;
	}
	if (job->type == GP_JOB_SINGLE_CARD && gpus != 1) {
		gp_yaml_error(doc, gpus_node ? gpus_node : map, err, "a single-card job uses 1 GPU, not %ld", gpus);
		return GP_EINPUT;
	}
	if ((job->type == GP_JOB_RING_ALLREDUCE || job->type == GP_JOB_PS_WORKER) && gpus < 2) {
		gp_yaml_error(doc, gpus_node ? gpus_node : map, err, "a %s job needs at least 2 GPUs",
			      gp_job_type_name(job->type));
		return GP_EINPUT;
	}
	job->gpus = (int)gpus;
	job->ps = (int)ps;
	job->workers = (int)workers;
	return GP_OK;
}

/* gpu_share, dataset, input and model. */
static int load_model_part(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job,
                           gp_error *err)
{
	const gp_yaml_node *v;
	const char *s;
	long l;
	int in_c = 0, in_h = 0, in_w = 0;

	if ((v = gp_yaml_get(map, "gpu_share"))) {
		if (gp_yaml_long(doc, v, "gpu_share (milli-GPU)", 1, MILLI, &l, err))
			return GP_EINPUT;
		if (l < MILLI && job->gpus > 1) {
			gp_yaml_error(doc, v, err, "a GPU share below 1000 is only for 1-GPU jobs");
			return GP_EINPUT;
		}
		job->gpu_milli = (int)l;
	}

	if ((v = gp_yaml_get(map, "dataset"))) {
		size_t i;

		if (get_str(doc, map, "dataset", &s, err))
			return GP_EINPUT;
		snprintf(gp_job_more_edit(job)->model.dataset, sizeof(job->more->model.dataset), "%s",
			 s);
		for (i = 0; i < GP_ARRAY_SIZE(datasets); i++)
			if (!strcasecmp(s, datasets[i].name)) {
				in_c = datasets[i].c;
				in_h = datasets[i].h;
				in_w = datasets[i].w;
			}
	}
	if ((v = gp_yaml_get(map, "input")) && load_input(doc, v, &in_c, &in_h, &in_w, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(map, "model")) && job->type != GP_JOB_LLM) {
		char dataset[32];
		const gp_model_desc *d;

		memcpy(dataset, job->more->model.dataset, sizeof(dataset));
		if (load_model(doc, v, in_c, in_h, in_w, job, err))
			return GP_EINPUT;
		memcpy(gp_job_more_edit(job)->model.dataset, dataset, sizeof(dataset));
		if (in_c > 0)
			gp_job_more_edit(job)->model.input_c = in_c;
		d = &job->more->model;
		if (d->kind == GP_MODEL_CNN && (in_h > 0 || in_w > 0) &&
		    (in_h < 32 || in_w < 32) && d->act_elems <= 0 && gp_model_find(d->name) &&
		    gp_model_find(d->name)->arch != GP_ARCH_NONE) {
			gp_yaml_error(doc, gp_yaml_get(map, gp_yaml_get(map, "input") ? "input" : "dataset"),
				      err, "input %dx%d is too small for model '%s' (at least 32x32)",
				      in_h, in_w, d->name);
			return GP_EINPUT;
		}
	}
	return GP_OK;
}

/* Batch, optimizer, precision, constraints, class, host share, length,
 * priority and times. */
static int load_training(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job,
                         gp_error *err)
{
	const gp_yaml_node *v;
	const char *s;
	long l;
	double x, deadline, ckpt;
	int have;

	if (job->type == GP_JOB_LLM && (v = gp_yaml_get(map, "batch_size")))
		return gp_yaml_error(doc, v, err, "an llm job gives global_batch and micro_batch, "
				     "not batch_size");
	if (get_long(doc, map, "batch_size", 1, 1 << 24, &l, &have, err))
		return GP_EINPUT;
	if (have)
		job->batch_size = (int)l;
	if ((v = gp_yaml_get(map, "optimizer"))) {
		if (gp_yaml_str(doc, v, "optimizer", &s, err))
			return GP_EINPUT;
		if (gp_optimizer_parse(s) < 0) {
			gp_yaml_error(doc, v, err, "optimizer must be sgd, momentum or adam, not '%.40s'", s);
			return GP_EINPUT;
		}
		job->optimizer = gp_optimizer_parse(s);
	}
	if ((v = gp_yaml_get(map, "precision")) && job->type != GP_JOB_LLM) {
		if (gp_yaml_str(doc, v, "precision", &s, err))
			return GP_EINPUT;
		if (gp_precision_parse(s) < 0) {
			gp_yaml_error(doc, v, err,
				      "precision must be fp32, fp16, bf16 or mixed, not '%.40s'", s);
			return GP_EINPUT;
		}
		job->precision = gp_precision_parse(s);
	}
	if ((v = gp_yaml_get(map, "gpu_model")) && load_gpu_models(doc, v, job, err))
		return GP_EINPUT;
	if ((v = gp_yaml_get(map, "class"))) {
		if (gp_yaml_str(doc, v, "class", &s, err))
			return GP_EINPUT;
		if (!strcasecmp(s, "LS"))
			job->klass = GP_CLASS_LS;
		else if (!strcasecmp(s, "BE"))
			job->klass = GP_CLASS_BE;
		else {
			gp_yaml_error(doc, v, err, "class must be LS or BE, not '%.40s'", s);
			return GP_EINPUT;
		}
	}
	if (get_str(doc, map, "environment", &s, err))
		return GP_EINPUT;
	if (s)
		job->environment = gp_xstrdup(s);
	if (get_double(doc, map, "cpus", 0.001, 65536, &x, &have, err))
		return GP_EINPUT;
	if (have)
		job->cpu_milli = llround(x * 1000.0);
	if (get_double(doc, map, "memory_gib", 0.001, 1 << 24, &x, &have, err))
		return GP_EINPUT;
	if (have)
		job->mem_mib = llround(x * 1024.0);
	if (get_long(doc, map, "iterations", 1, 1000000000000L, &l, &have, err))
		return GP_EINPUT;
	if (have)
		job->iterations = l;
	if ((v = gp_yaml_get(map, "duration"))) {
		if (have) {
			gp_yaml_error(doc, v, err, "give either 'iterations' or 'duration', not both");
			return GP_EINPUT;
		}
		if (gp_yaml_str(doc, v, "duration", &s, err) || parse_duration(s, &job->duration)) {
			gp_yaml_error(doc, v, err,
				      "duration must be a positive time such as 3600, 90m, 2h or 1d");
			return GP_EINPUT;
		}
	}
	if (get_long(doc, map, "priority", -1000000, 1000000, &l, &have, err))
		return GP_EINPUT;
	if (have)
		job->priority = (int)l;
	if (get_double(doc, map, "submit", 0, 1e12, &job->submit, NULL, err) ||
	    get_double(doc, map, "deadline", 0, 1e12, &deadline, &have, err))
		return GP_EINPUT;
	if (have)
		gp_job_more_edit(job)->deadline = deadline;
	/* deadline_s: the QoS monitor's spelling, same meaning */
	if (get_double(doc, map, "deadline_s", 0, 1e12, &deadline, &have, err))
		return GP_EINPUT;
	if (have)
		gp_job_more_edit(job)->deadline = deadline;
	if (get_double(doc, map, "checkpoint_interval_s", 0, 1e12, &ckpt, &have, err))
		return GP_EINPUT;
	if (have)
		gp_job_more_edit(job)->checkpoint_interval = ckpt;
	return GP_OK;
}

/* gpu_memory_gib, or the source document's estimate from the model. */
static int load_gpu_memory(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job,
                           gp_error *err)
{
	const gp_yaml_node *v;
	double x;
	int have_mem;

	v = gp_yaml_get(map, "gpu_memory_gib");
	have_mem = v != NULL;
	if (have_mem) {
		if (gp_yaml_double(doc, v, "gpu_memory_gib", 0.001, 16384, &x, err))
			return GP_EINPUT;
		job->gpu_mem_mib = llround(x * 1024.0);
	} else if (gp_yaml_get(map, "model")) {
		gp_mem_estimate est;

		if (gp_memory_estimate(job, &est, err)) {
			char msg[sizeof(err->msg)];

			memcpy(msg, err->msg, sizeof(msg));
			gp_yaml_error(doc, gp_yaml_get(map, "model"), err, "%s", msg);
			return GP_EINPUT;
		}
		job->gpu_mem_mib = (int64_t)ceil(est.total / 1048576.0);
		job->gpu_mem_estimated = 1;
	} else {
		gp_yaml_error(doc, map, err,
			      "job '%s' has neither 'gpu_memory_gib' nor a 'model' to estimate it from",
			      job->id);
		return GP_EINPUT;
	}
	return GP_OK;
}

int gp_jobspec_from_yaml(const gp_yaml_doc *doc, const gp_yaml_node *map, gp_job *job,
			 gp_error *err)
{
	const char *s;

	gp_job_init(job);
	job->line = map ? map->line : 0;
	if (!map)
		return gp_error_set(err, GP_EINPUT, doc->path, 1, 1, "empty job file");
	if (map->type == GP_YAML_MAP && gp_yaml_get(map, "jobs") && !gp_yaml_get(map, "name")) {
		gp_yaml_error(doc, map, err, "a list of jobs ('jobs:'), not one job: "
			      "'place --batch FILE' reads lists");
		goto fail;
	}
	if (gp_yaml_check_keys(doc, map, "job", job_keys, err))
		goto fail;
	if (!gp_yaml_get(map, "name")) {
		gp_yaml_error(doc, map, err, "job has no 'name'");
		goto fail;
	}
	if (get_str(doc, map, "name", &s, err))
		goto fail;
	job->id = gp_xstrdup(s);
	if (load_shape(doc, map, job, err) || load_model_part(doc, map, job, err) ||
	    load_training(doc, map, job, err))
		goto fail;
	if (job->type == GP_JOB_LLM) {
		if (gp_jobspec_llm(doc, map, job, gp_yaml_get(map, "gpus") != NULL, err))
			goto fail;
	} else {
		int i;

		for (i = 0; gp_jobspec_llm_keys[i]; i++)
			if (gp_yaml_get(map, gp_jobspec_llm_keys[i])) {
				gp_yaml_error(doc, gp_yaml_get(map, gp_jobspec_llm_keys[i]), err,
					      "'%s' is for type llm jobs", gp_jobspec_llm_keys[i]);
				goto fail;
			}
	}
	if (load_gpu_memory(doc, map, job, err))
		goto fail;
	return GP_OK;
fail:
	gp_job_release(job);
	return err->status ? err->status : GP_EINPUT;
}

/* Root keys kept of a job file: all up to the first one that is not a job
 * key, which gp_jobspec_from_yaml reports (the rest cannot change that
 * but by a YAML error, still found), and 'name' and 'jobs', which it
 * looks for first (memory: a file of many unknown keys). */
static int keep_job_key(void *ud, const char *key)
{
	int *bad = ud, i;

	if (!strcmp(key, "name") || !strcmp(key, "jobs"))
		return 1;
	if (*bad)
		return 0;
	for (i = 0; job_keys[i] && strcmp(job_keys[i], key); i++)
		;
	*bad = !job_keys[i];
	return 1;
}

int gp_jobspec_load(const char *path, gp_job *job, gp_error *err)
{
	gp_yaml_doc doc;
	int rc, bad = 0;

	gp_job_init(job);
	gp_yaml_doc_init(&doc);
	rc = gp_yaml_load_streams(path, GP_JOBSPEC_MAX_FILE, 0, NULL, NULL, keep_job_key, &bad,
				  &doc, err);
	if (rc == GP_OK)
		rc = gp_jobspec_from_yaml(&doc, doc.root, job, err);
	gp_yaml_doc_release(&doc);
	return rc;
}
