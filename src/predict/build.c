/* The execution-time data set (predict.h, gp_pred_build_time): measured
 * single-GPU iteration times of named models on several GPU types, from
 *   Gavel's throughput matrix (simulation_throughputs.json): every job
 *     type at scale factor 1 on K80, P100 and V100, iter_s = 1 / the
 *     isolated throughput;
 *   Sia's placement profiles (placements-<platform>.csv): the rows of one
 *     GPU ("1"), iter_s = step_time, per model directory and platform.
 * Written as a gpuplan predictor CSV (model, batch_size, gpu, seq_len,
 * iter_s, source), sorted, so the file is reproducible. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/predict/predict.h"
#include "gpuplan/util/util.h"

/* Gavel's workers: Google Cloud's PCIe K80, P100 and V100 boards. */
static const char *const gavel_gpu[GP_GAVEL_NGPU] = { "K80", "P100-PCIE-16GB", "V100-PCIE-16GB" };

/* Gavel job types onto profile names (its ResNet-18 trains CIFAR-10). */
static const char *gavel_model(const char *m)
{
	if (!strcmp(m, "ResNet-18"))
		return "resnet18-cifar";
	if (!strcmp(m, "ResNet-50"))
		return "resnet50";
	if (!strcmp(m, "Transformer"))
		return "transformer";
	return m;
}

/* Sia's model directories and platforms. */
static const struct {
	const char *dir, *model;
	int seq;
} sia_models[] = {
	{ "bert", "bert-base", 384 },   /* SQuAD fine-tuning, 384 tokens */
	{ "cifar10", "resnet18-cifar", 0 },
	{ "deepspeech2", "deepspeech2", 0 },
	{ "imagenet", "resnet50", 0 },
	{ "ncf", "ncf", 0 },
	{ "yolov3", "yolov3", 0 },
};
static const struct {
	const char *suffix, *gpu;
} sia_platforms[] = {
	{ "aws", "T4" }, { "azure", "V100-SXM2-32GB" }, { "dgx-ext", "A100-SXM4-40GB" },
	{ "dgx", "A100-SXM4-40GB" }, { "quad", "Quadro-RTX-6000" }, { "rtx", "RTX-2080Ti" },
};

typedef struct trow {
	char model[48], gpu[48], source[16];
	double batch, iter;
	int seq;
} trow;

static int cmp_trow(const void *a, const void *b)
{
	const trow *x = a, *y = b;
	int c;

	if ((c = strcmp(x->model, y->model)) || (c = strcmp(x->gpu, y->gpu)))
		return c;
	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	if ((c = strcmp(x->source, y->source)))
		return c;
	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

int gp_pred_build_time(const char *gavel_json, const char *sia_dir, gp_sbuf *out,
		       size_t *nrows, gp_error *err)
{
	trow *rows = NULL;
	size_t n = 0, cap = 0, i;
	int rc = GP_OK;

	if (gavel_json) {
		gp_perf_gavel g;

		gp_perf_gavel_init(&g);
		if ((rc = gp_perf_gavel_load(gavel_json, &g, err)) != GP_OK)
			return rc;
		for (i = 0; i < g.n; i++) {
			const gp_perf_gavel_entry *e = &g.e[i];
			int k;

			if (e->scale != 1)
				continue;
			for (k = 0; k < GP_GAVEL_NGPU; k++) {
				trow *r;

				if (!(e->thr[k] > 0))
					continue;
				GP_GROW(rows, cap, n + 1);
				r = &rows[n++];
				memset(r, 0, sizeof(*r));
				snprintf(r->model, sizeof(r->model), "%s", gavel_model(e->model));
				snprintf(r->gpu, sizeof(r->gpu), "%s", gavel_gpu[k]);
				snprintf(r->source, sizeof(r->source), "gavel");
				r->batch = e->batch > 0 ? e->batch : 0;
				r->iter = 1.0 / e->thr[k];
			}
		}
		gp_perf_gavel_release(&g);
	}
	if (sia_dir) {
		size_t m, p;

		for (m = 0; m < GP_ARRAY_SIZE(sia_models) && rc == GP_OK; m++) {
			int have_ext = 0;

			for (p = 0; p < GP_ARRAY_SIZE(sia_platforms) && rc == GP_OK; p++) {
				char *path = gp_xasprintf("%s/%s/placements-%s.csv", sia_dir,
							  sia_models[m].dir, sia_platforms[p].suffix);
				gp_perf_dataset ds;
				FILE *fp = fopen(path, "r");
				size_t r;

				/* dgx-ext re-measures dgx with more batch sizes. */
				if (!fp || (!strcmp(sia_platforms[p].suffix, "dgx") && have_ext)) {
					if (fp)
						fclose(fp);
					free(path);
					continue;
				}
				fclose(fp);
				if (!strcmp(sia_platforms[p].suffix, "dgx-ext"))
					have_ext = 1;
				gp_perf_dataset_init(&ds);
				rc = gp_perf_dataset_load(path, &ds, err);
				for (r = 0; rc == GP_OK && r < ds.n; r++) {
					const gp_perf_sample *s = &ds.rows[r];
					trow *t;

					if (s->n != 1 || !(s->step > 0))
						continue;
					GP_GROW(rows, cap, n + 1);
					t = &rows[n++];
					memset(t, 0, sizeof(*t));
					snprintf(t->model, sizeof(t->model), "%s", sia_models[m].model);
					snprintf(t->gpu, sizeof(t->gpu), "%s", sia_platforms[p].gpu);
					snprintf(t->source, sizeof(t->source), "sia");
					t->batch = s->bsz;
					t->iter = s->step;
					t->seq = sia_models[m].seq;
				}
				gp_perf_dataset_release(&ds);
				free(path);
			}
		}
	}
	if (rc == GP_OK) {
		qsort(rows, n, sizeof(*rows), cmp_trow);
		gp_sbuf_adds(out, "model,batch_size,gpu,seq_len,iter_s,source\n");
		for (i = 0; i < n; i++) {
			gp_sbuf_addf(out, "%s,%g,%s,", rows[i].model,
				     rows[i].batch > 0 ? rows[i].batch : 1, rows[i].gpu);
			if (rows[i].seq)
				gp_sbuf_addf(out, "%d", rows[i].seq);
			gp_sbuf_addf(out, ",%.9g,%s\n", rows[i].iter, rows[i].source);
		}
		*nrows = n;
	}
	free(rows);
	return rc;
}
