/* gpuplan estimate on a `type: llm` job: per-GPU memory of the most
 * loaded pipeline stage with its breakdown, and a layout that fits when
 * this one does not. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "llm_int.h"
#include "gpuplan/model/catalog.h"
#include "gpuplan/util/util.h"

#define GIB 1073741824.0

/* GPU memory the job is checked against: its gpu_model's when it names
 * one the catalog knows, else 80 GiB. */
/* The GPU whose memory the estimate is checked against: the job's first
 * GPU model, or 80 GiB when it names none or one the catalog lacks; `said`
 * tells the reader which of the three it was. */
static double target_gib(const gp_job *j, char *name, size_t n, char *said, size_t said_n)
{
	gp_catalog cat;
	const gp_gpu_model *m = NULL;
	double gib = 80;

	snprintf(name, n, "80 GiB GPU");
	snprintf(said, said_n, "80 GiB (no GPU model named: 80 GiB assumed)");
	if (j->gpu_models) {
		char first[96];
		const char *bar = strchr(j->gpu_models, '|');

		snprintf(first, sizeof(first), "%.*s",
			 (int)(bar ? (size_t)(bar - j->gpu_models) : strlen(j->gpu_models)),
			 j->gpu_models);
		gp_catalog_init_builtin(&cat);
		m = gp_catalog_find(&cat, first);
		if (m) {
			gib = m->mem_gib;
			snprintf(name, n, "%s", m->name);
			snprintf(said, said_n, "the %.0f GiB of one %s", gib, m->name);
		} else {
			snprintf(said, said_n, "80 GiB (GPU model '%s' not in the catalog: 80 GiB assumed)",
				 first);
		}
		gp_catalog_release(&cat);
	}
	return gib;
}

void gp_llm_layout_str(const gp_llm *l, char *buf, size_t n)
{
	snprintf(buf, n, "tp %d, pp %d%s%.0d, cp %d, dp %d%s%.0d, %s, recompute %s", l->tp, l->pp,
		 l->vp > 1 ? " x vp " : "", l->vp > 1 ? l->vp : 0, l->cp, l->dp,
		 l->ep > 1 ? ", ep " : "", l->ep > 1 ? l->ep : 0, gp_llm_shard_name(l->sharding),
		 gp_llm_recompute_name(l->recompute));
}

static json_t *breakdown_json(const gp_llm_mem *m)
{
	json_t *o = json_object();

	json_object_set_new(o, "weights", json_real((m->weights + m->fp8_copy) / GIB));
	json_object_set_new(o, "gradients", json_real(m->grads / GIB));
	json_object_set_new(o, "optimizer", json_real(m->optim / GIB));
	json_object_set_new(o, "fsdp_units", json_real(m->fsdp_units / GIB));
	json_object_set_new(o, "activations", json_real(m->activations / GIB));
	json_object_set_new(o, "embedding_logits", json_real(m->embed_act / GIB));
	json_object_set_new(o, "allowance", json_real(m->allowance / GIB));
	return o;
}

static json_t *layout_json(const gp_llm *l)
{
	json_t *o = json_object();

	json_object_set_new(o, "tp", json_integer(l->tp));
	json_object_set_new(o, "pp", json_integer(l->pp));
	json_object_set_new(o, "vp", json_integer(l->vp));
	json_object_set_new(o, "cp", json_integer(l->cp));
	json_object_set_new(o, "dp", json_integer(l->dp));
	json_object_set_new(o, "ep", json_integer(l->ep));
	json_object_set_new(o, "sp", json_boolean(l->sp));
	json_object_set_new(o, "sharding", json_string(gp_llm_shard_name(l->sharding)));
	json_object_set_new(o, "recompute", json_string(gp_llm_recompute_name(l->recompute)));
	return o;
}

static void row(const char *label, const char *what, double bytes)
{
	printf("  %-18s %-36s %9.2f GiB\n", label, what, bytes / GIB);
}

int gp_estimate_llm(const gp_job *j, const gp_mem_estimate *e, int json)
{
	const gp_llm *l = &j->more->llm;
	const gp_llm_mem *m = &e->llm;
	gp_llm_params P;
	gp_llm sug;
	gp_llm_mem sm;
	char tname[64], tsaid[192], lay[160], what[96];
	double cap = target_gib(j, tname, sizeof(tname), tsaid, sizeof(tsaid)), total = e->total;
	int fit = total <= cap * GIB, have_sug = 0;

	gp_llm_params_count(l, &P);
	if (!fit)
		have_sug = !gp_llm_suggest(l, j->gpus, 8, cap, &sug, &sm);
	gp_llm_layout_str(l, lay, sizeof(lay));
	if (json) {
		json_t *o = json_object();
		int rc;

		json_object_set_new(o, "job", json_string(j->id));
		json_object_set_new(o, "type", json_string("llm"));
		json_object_set_new(o, "model", json_string(l->preset));
		json_object_set_new(o, "parameters", json_real(P.total));
		json_object_set_new(o, "active_parameters", json_real(P.active));
		json_object_set_new(o, "gpus", json_integer(j->gpus));
		json_object_set_new(o, "precision", json_string(gp_llm_prec_name(l->precision)));
		json_object_set_new(o, "layout", layout_json(l));
		json_object_set_new(o, "microbatches", json_integer(m->microbatches));
		json_object_set_new(o, "stage", json_string(m->stage ? "last" : "first"));
		json_object_set_new(o, "parameters_per_gpu", json_real(m->params_local));
		json_object_set_new(o, "shard_ranks", json_real(m->shard_ranks));
		json_object_set_new(o, "activation_layers_in_flight", json_real(m->inflight));
		json_object_set_new(o, "activation_bytes_per_layer", json_real(m->act_layer));
		json_object_set_new(o, "memory_gib_per_gpu", json_real(total / GIB));
		json_object_set_new(o, "memory_breakdown_gib", breakdown_json(m));
		json_object_set_new(o, "memory_margin_percent", json_real(e->margin * 100));
		json_object_set_new(o, "gpu_memory_mib", json_integer((json_int_t)j->gpu_mem_mib));
		json_object_set_new(o, "checked_against", json_string(tname));
		json_object_set_new(o, "checked_against_gib", json_real(cap));
		json_object_set_new(o, "fits", json_boolean(fit));
		if (have_sug) {
			json_t *s = layout_json(&sug);

			json_object_set_new(s, "memory_gib_per_gpu", json_real(sm.total / GIB));
			json_object_set_new(o, "suggestion", s);
		} else {
			json_object_set_new(o, "suggestion", json_null());
		}
		rc = json_dumpf(o, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(o);
		return rc ? GP_EIO : GP_OK;
	}
	printf("job %s: llm %s (%.4g B parameters%s), %d GPUs, %s\n", j->id,
	       l->preset[0] ? l->preset : "(inline)", P.total / 1e9,
	       l->experts > 0 ? ", MoE" : "", j->gpus, gp_llm_prec_name(l->precision));
	printf("layout: %s; %d micro-batches of %d\n", lay, m->microbatches, l->micro_batch);
	printf("most loaded: %s pipeline stage, %.4g B parameters on each GPU, states sharded over "
	       "%g ranks\n", m->stage ? "last" : "first", m->params_local / 1e9, m->shard_ranks);
	snprintf(what, sizeof(what), "%.3g B/param", (m->weights + m->fp8_copy) / m->params_local);
	row("weights", what, m->weights + m->fp8_copy);
	snprintf(what, sizeof(what), "%.3g B/param", m->grads / m->params_local);
	row("gradients", what, m->grads);
	snprintf(what, sizeof(what), "%.3g B/param", m->optim / m->params_local);
	row("optimizer", what, m->optim);
	if (m->fsdp_units > 0)
		row("unsharded units", "2 layers of params and grads", m->fsdp_units);
	snprintf(what, sizeof(what), "%.1f MiB/layer x %.4g layers", m->act_layer / 1048576.0,
		 m->inflight);
	row("activations", what, m->activations);
	if (m->embed_act > 0)
		row(m->stage || l->pp == 1 ? "logits" : "embedding", m->stage || l->pp == 1 ?
	    "fp32 logits and final norm" : "input dropout masks", m->embed_act);
	snprintf(what, sizeof(what), "%g GiB + %g GiB per parallel group", GP_LLM_ALLOW_FIXED_GIB,
		 GP_LLM_ALLOW_GROUP_GIB);
	row("allowance", what, m->allowance);
	if (e->margin > 0) {
		snprintf(what, sizeof(what), "%g %% (--memory-margin)", e->margin * 100);
		row("margin", what, e->total - m->total);
	}
	row("total per GPU", "", total);
	printf("%s in %s\n", fit ? "fits" : "does NOT fit", tsaid);
	if (!fit && have_sug) {
		gp_llm_layout_str(&sug, lay, sizeof(lay));
		printf("suggested layout: %s: %.2f GiB per GPU\n", lay, sm.total / GIB);
	} else if (!fit) {
		printf("no layout of %d GPUs fits: use more GPUs\n", j->gpus);
	}
	return GP_OK;
}
