/* gpuplan calibrate: fit the step-time model to the Sia placement
 * profiles, report the error (all rows, and held out), and optionally
 * write the built-in table src/perf/calibration.c. */
#include <gsl/gsl_errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "gpuplan/io/cluster_yaml.h"
#include "gpuplan/model/cluster.h"
#include "gpuplan/model/job.h"
#include "gpuplan/model/dlmodels.h"
#include "gpuplan/place/policy.h"
#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

enum { O_DATA = 256, O_GAVEL, O_WRITE, O_JSON };

static const gp_opt calibrate_opts[] = {
	{ .name = "data", .key = O_DATA, .type = GP_OT_STR, .arg = "DIR",
	  .help = "directory of the profiles" },
	{ .name = "gavel", .key = O_GAVEL, .type = GP_OT_STR, .arg = "FILE",
	  .help = "also cross-check relative GPU speeds against Gavel's\n"
		  "simulation_throughputs.json, fit K80/P100 corrections\n"
		  "and keep its measured throughputs for the model" },
	{ .name = "write", .key = O_WRITE, .type = GP_OT_STR, .arg = "FILE",
	  .help = "write the fitted table as C source (src/perf/calibration.c)" },
	{ .name = "json", .key = O_JSON, .type = GP_OT_FLAG, .help = "machine-readable report" },
	{ 0 },
};

const gp_cmd_desc gp_desc_calibrate = {
	.name = "calibrate",
	.synopsis = "[--data DIR] [--gavel FILE] [--write FILE] [--json]",
	.min_args = 0, .max_args = 0,
	.about = "Fit the iteration-time model to the Sia placement profiles\n"
		 "(DIR/<model>/placements-<platform>.csv; default tests/data/sia) with\n"
		 "GSL least squares, per DL model and platform.  Reports the step-time\n"
		 "MAPE of the fit on all rows and held out (fit on every other placement,\n"
		 "tested on the rest), per profile and per platform.\n",
	.opts = calibrate_opts,
};

/* Sia platforms: GPU, and the dense FP16 tensor peak (FP32 accumulate)
 * in TFLOPS used to express the ResNet-50 compute rate as an efficiency
 * (vendor datasheets; Turing GeForce accumulates FP32 at half rate). */
static const struct platform {
	const char *name, *gpu;
	double peak_tflops;
	/* The GPU catalog's FP16 and FP32 peaks (src/cluster/catalog.c), which
	 * the model compares with when it scales a profile to another GPU. */
	double cat_fp16, cat_fp32;
} platforms[] = {
	{ "aws", "T4", 65.0, 65.0, 8.1 },          /* g4dn.12xlarge, 4 x T4 per node */
	{ "azure", "V100", 125.0, 125.0, 15.7 },   /* ND40rs_v2, 8 x V100 SXM2 */
	{ "dgx", "A100", 312.0, 312.0, 19.5 },     /* DGX A100, 8 x A100-40GB */
	{ "dgx-ext", "A100", 312.0, 312.0, 19.5 }, /* same machines, more batch sizes */
	{ "quad", "RTX6000", 130.5, 130.5, 16.3 }, /* 4 x Quadro RTX 6000 */
	{ "rtx", "RTX2080Ti", 53.8, 23.5, 11.75 }, /* 8 x RTX 2080 Ti */
};

static const char *const dl_models[] = {
	"bert", "cifar10", "deepspeech2", "gpt_pmp", "imagenet", "ncf", "yolov3",
};

/* ResNet-50 at 224x224: 4.1 GMAC forward, x2 FLOP/MAC, x3 for forward +
 * backward. */
#define RESNET50_TRAIN_FLOP 24.6e9

typedef struct fitted {
	gp_perf_profile pr;
	double mape_train_half;
	double peak_tflops;
} fitted;

/* A platform's fit error: MAPE and held-out MAPE weighted by rows, and
 * the worst profile's. */
typedef struct platform_error {
	double mape, heldout, worst, worst_heldout, rows;
} platform_error;

static platform_error platform_error_of(const fitted *f, int n, const char *platform)
{
	platform_error e = { 0, 0, 0, 0, 0 };
	double sum = 0, hsum = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(f[i].pr.platform, platform))
			continue;
		sum += f[i].pr.mape * f[i].pr.rows;
		hsum += f[i].pr.mape_heldout * f[i].pr.rows;
		e.rows += f[i].pr.rows;
		e.worst = fmax(e.worst, f[i].pr.mape);
		e.worst_heldout = fmax(e.worst_heldout, f[i].pr.mape_heldout);
	}
	if (e.rows > 0) {
		e.mape = sum / e.rows;
		e.heldout = hsum / e.rows;
	}
	return e;
}

static double median(double *v, int n)
{
	if (n == 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), gp_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int fit_one(const char *path, fitted *out, gp_error *err)
{
	gp_perf_dataset d;
	unsigned char *mask;
	double half[GP_PP_NPARAMS];
	gp_perf_ctab half_tab;
	int st, nf;

	gp_perf_dataset_init(&d);
	st = gp_perf_dataset_load(path, &d, err);
	if (st)
		return st;
	st = gp_perf_ctab_build(&d, NULL, &out->pr.ctab, err);
	if (!st)
		st = gp_perf_fit(&d, NULL, &out->pr.ctab, out->pr.p, &out->pr.nfit, err);
	if (!st) {
		gp_perf_kcompute_build(&d, NULL, &out->pr.ctab, out->pr.kcompute);
		out->pr.rows = (int)d.n;
		out->pr.mape = gp_perf_mape(&d, NULL, 1, &out->pr.ctab, out->pr.p);
		/* Held out: the table too comes from the training half only;
		 * a batch size it lacks is interpolated (perf.h). */
		mask = gp_xmalloc(d.n);
		gp_perf_split_half(&d, mask);
		st = gp_perf_ctab_build(&d, mask, &half_tab, err);
		if (!st)
			st = gp_perf_fit(&d, mask, &half_tab, half, &nf, err);
		if (!st) {
			out->pr.mape_heldout = gp_perf_mape(&d, mask, 0, &half_tab, half);
			out->mape_train_half = gp_perf_mape(&d, mask, 1, &half_tab, half);
		}
		free(mask);
	}
	gp_perf_dataset_release(&d);
	return st;
}

/* ---- Gavel cross-check ---- */

/* Gavel's worker machines (Azure NC, NCv2, NCv3): one GPU each here. */
static const char gavel_cluster_yaml[] =
	"name: gavel-workers\n"
	"node_types:\n"
	"  k80: {gpu_model: K80, gpus: [{id: GPU0, cpus: [0], numa: 0}], links: [[X]]}\n"
	"  p100: {gpu_model: P100-PCIE-16GB, gpus: [{id: GPU0, cpus: [0], numa: 0}], links: [[X]]}\n"
	"  v100: {gpu_model: V100-PCIE-16GB, gpus: [{id: GPU0, cpus: [0], numa: 0}], links: [[X]]}\n"
	"nodes:\n"
	"  - {name: k80, type: k80}\n"
	"  - {name: p100, type: p100}\n"
	"  - {name: v100, type: v100}\n";

/* Gavel job types the model knows (catalog names; the rest it cannot
 * estimate without Gavel's own figures). */
static const struct {
	const char *gavel, *catalog;
} gavel_models[] = {
	{ "ResNet-18", "resnet18-cifar" },
	{ "ResNet-50", "resnet50" },
	{ "Transformer", "transformer" },
};

typedef struct xrow {
	const gp_perf_gavel_entry *e;
	int cnn;
	double meas[GP_GAVEL_NGPU], pred[GP_GAVEL_NGPU]; /* speed / V100's */
	double v100_pred_thr;                             /* iterations/s */
} xrow;

typedef struct xcheck {
	xrow *rows;
	int n;
	gp_perf_gavel_speed speed[2]; /* K80, P100 */
	double err_before[2][2], err_after[2][2]; /* [gpu][cnn]: mean |%| */
	int count[2][2];
	double v100_abs_err[2]; /* [cnn] mean |%| of iterations/s on V100 */
	int v100_count[2];
} xcheck;

static int gavel_crosscheck(const gp_perf_gavel *g, xcheck *x, gp_error *err)
{
	gp_cluster c;
	double logsum[2][2] = { { 0 } };
	int st, i, k, gi, cnn;

	memset(x, 0, sizeof(*x));
	gp_cluster_init(&c);
	st = gp_cluster_parse(gavel_cluster_yaml, sizeof(gavel_cluster_yaml) - 1,
			      "gavel-workers.yaml", &c, err);
	if (st)
		return st;
	x->rows = gp_xcalloc(g->n ? g->n : 1, sizeof(*x->rows));
	for (i = 0; i < (int)g->n; i++) {
		const gp_perf_gavel_entry *e = &g->e[i];
		const gp_dl_model *dm = NULL;
		double t[GP_GAVEL_NGPU];
		xrow *r = &x->rows[x->n];
		gp_job j;

		if (e->scale != 1 || !(e->thr[GP_GAVEL_V100] > 0))
			continue;
		for (k = 0; k < (int)GP_ARRAY_SIZE(gavel_models); k++)
			if (!strcmp(e->model, gavel_models[k].gavel))
				dm = gp_model_find(gavel_models[k].catalog);
		if (!dm)
			continue;
		gp_job_init(&j);
		gp_model_fill_desc(dm, 0, 0, 0, &gp_job_more_edit(&j)->model);
		j.id = gp_xstrdup(e->model);
		j.gpus = 1;
		j.batch_size = e->batch;
		j.type = GP_JOB_SINGLE_CARD;
		j.precision = GP_PREC_FP32; /* Gavel's PyTorch jobs train in FP32 */
		st = GP_OK;
		for (gi = 0; gi < GP_GAVEL_NGPU && !st; gi++) {
			gp_placement p;
			gp_perf_iter it;

			gp_placement_init(&p);
			gp_placement_add(&p, gi)->gpus[0] = 0;
			p.parts[0].ngpus = 1;
			st = gp_perf_iteration_opts(&c, &j, &p, GP_PERF_NO_GAVEL, &it, err);
			t[gi] = it.iter_s;
			gp_placement_release(&p);
		}
		r->cnn = j.more->model.kind == GP_MODEL_CNN && !j.more->model.is_transformer;
		gp_job_release(&j);
		if (st)
			break;
		r->e = e;
		for (gi = 0; gi < GP_GAVEL_NGPU; gi++) {
			r->meas[gi] = e->thr[gi] / e->thr[GP_GAVEL_V100];
			r->pred[gi] = t[GP_GAVEL_V100] / t[gi];
		}
		r->v100_pred_thr = 1.0 / t[GP_GAVEL_V100];
		x->v100_abs_err[r->cnn] += 100 * fabs(r->v100_pred_thr / e->thr[GP_GAVEL_V100] - 1);
		x->v100_count[r->cnn]++;
		for (gi = 0; gi < 2; gi++)
			if (r->meas[gi] > 0) {
				logsum[gi][r->cnn] += log(r->meas[gi] / r->pred[gi]);
				x->count[gi][r->cnn]++;
			}
		x->n++;
	}
	gp_cluster_release(&c);
	if (st)
		return st;
	/* The correction is the geometric mean of measured over predicted
	 * relative speed: least squares on log ratios. */
	for (gi = 0; gi < 2; gi++) {
		x->speed[gi].gpu = gp_perf_gavel_gpus[gi];
		for (cnn = 0; cnn < 2; cnn++) {
			double f = x->count[gi][cnn] ? exp(logsum[gi][cnn] / x->count[gi][cnn]) : 1.0;

			if (cnn)
				x->speed[gi].cnn = f;
			else
				x->speed[gi].other = f;
		}
	}
	for (i = 0; i < x->n; i++) {
		const xrow *r = &x->rows[i];

		for (gi = 0; gi < 2; gi++) {
			double f = r->cnn ? x->speed[gi].cnn : x->speed[gi].other;

			if (!(r->meas[gi] > 0))
				continue;
			x->err_before[gi][r->cnn] += 100 * fabs(r->pred[gi] / r->meas[gi] - 1);
			x->err_after[gi][r->cnn] += 100 * fabs(f * r->pred[gi] / r->meas[gi] - 1);
		}
	}
	for (gi = 0; gi < 2; gi++)
		for (cnn = 0; cnn < 2; cnn++)
			if (x->count[gi][cnn]) {
				x->err_before[gi][cnn] /= x->count[gi][cnn];
				x->err_after[gi][cnn] /= x->count[gi][cnn];
			}
	for (cnn = 0; cnn < 2; cnn++)
		if (x->v100_count[cnn])
			x->v100_abs_err[cnn] /= x->v100_count[cnn];
	return GP_OK;
}

static void print_crosscheck(const xcheck *x)
{
	int i, gi, cnn;

	printf("\nGavel cross-check: speed relative to V100 at 1 GPU (measured / model)\n");
	printf("%-28s %15s %15s %13s\n", "job type", "K80", "P100", "V100 it/s");
	for (i = 0; i < x->n; i++) {
		const xrow *r = &x->rows[i];
		char name[64];

		if (r->e->batch)
			snprintf(name, sizeof(name), "%s (batch %d)", r->e->model, r->e->batch);
		else
			snprintf(name, sizeof(name), "%s", r->e->model);
		printf("%-28s %6.3f / %6.3f %6.3f / %6.3f %6.2f / %5.2f\n", name, r->meas[0],
		       r->pred[0], r->meas[1], r->pred[1], r->e->thr[GP_GAVEL_V100],
		       r->v100_pred_thr);
	}
	printf("\n%-8s %-6s %5s %14s %14s %10s\n", "gpu", "models", "rows", "error% before",
	       "error% after", "correction");
	for (gi = 0; gi < 2; gi++)
		for (cnn = 1; cnn >= 0; cnn--)
			if (x->count[gi][cnn])
				printf("%-8s %-6s %5d %14.1f %14.1f %10.3f\n", gp_perf_gavel_gpus[gi],
				       cnn ? "cnn" : "other", x->count[gi][cnn], x->err_before[gi][cnn],
				       x->err_after[gi][cnn],
				       cnn ? x->speed[gi].cnn : x->speed[gi].other);
	for (cnn = 1; cnn >= 0; cnn--)
		if (x->v100_count[cnn])
			printf("V100 iterations/s, %s: mean error %.1f %% over %d job types\n",
			       cnn ? "cnn" : "other", x->v100_abs_err[cnn], x->v100_count[cnn]);
}

static json_t *json_crosscheck(const xcheck *x)
{
	json_t *o = json_object(), *rows = json_array(), *gpus = json_object();
	int i, gi, cnn;

	for (i = 0; i < x->n; i++) {
		const xrow *r = &x->rows[i];
		json_t *jr = json_object();

		json_object_set_new(jr, "model", json_string(r->e->model));
		json_object_set_new(jr, "batch", json_integer(r->e->batch));
		for (gi = 0; gi < 2; gi++) {
			json_t *v = json_object();

			json_object_set_new(v, "measured", json_real(r->meas[gi]));
			json_object_set_new(v, "model", json_real(r->pred[gi]));
			json_object_set_new(jr, gi ? "p100_vs_v100" : "k80_vs_v100", v);
		}
		json_object_set_new(jr, "v100_measured_its", json_real(r->e->thr[GP_GAVEL_V100]));
		json_object_set_new(jr, "v100_model_its", json_real(r->v100_pred_thr));
		json_array_append_new(rows, jr);
	}
	for (gi = 0; gi < 2; gi++) {
		json_t *g = json_object();

		for (cnn = 0; cnn < 2; cnn++) {
			json_t *v = json_object();

			json_object_set_new(v, "rows", json_integer(x->count[gi][cnn]));
			json_object_set_new(v, "error_before", json_real(x->err_before[gi][cnn]));
			json_object_set_new(v, "error_after", json_real(x->err_after[gi][cnn]));
			json_object_set_new(v, "correction",
					    json_real(cnn ? x->speed[gi].cnn : x->speed[gi].other));
			json_object_set_new(g, cnn ? "cnn" : "other", v);
		}
		json_object_set_new(gpus, gp_perf_gavel_gpus[gi], g);
	}
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "gpus", gpus);
	return o;
}

static void write_gavel(FILE *fp, const gp_perf_gavel *g, const xcheck *x)
{
	size_t i;
	int k;

	fprintf(fp, "\n/* Gavel's isolated throughputs (iterations/s) on K80, P100, V100, on one\n"
		    " * server and spread over servers, from `calibrate --gavel`; see\n"
		    " * tests/data/gavel/SOURCES.md. */\n"
		    "const gp_perf_gavel_entry gp_perf_gavel_table[] = {\n");
	for (i = 0; i < (g ? g->n : 0); i++) {
		const gp_perf_gavel_entry *e = &g->e[i];

		fprintf(fp, "\t{ \"%s\", %d, %d, {", e->model, e->batch, e->scale);
		for (k = 0; k < GP_GAVEL_NGPU; k++)
			fprintf(fp, " %.6g%s", e->thr[k], k + 1 < GP_GAVEL_NGPU ? "," : " ");
		fprintf(fp, "}, {");
		for (k = 0; k < GP_GAVEL_NGPU; k++)
			fprintf(fp, " %.6g%s", e->thr_spread[k], k + 1 < GP_GAVEL_NGPU ? "," : " ");
		fprintf(fp, "} },\n");
	}
	if (!g || g->n == 0)
		fprintf(fp, "\t{ NULL, 0, 0, { 0 }, { 0 } },\n");
	fprintf(fp, "};\nconst int gp_perf_gavel_n = %d;\n\n", g ? (int)g->n : 0);
	fprintf(fp, "/* Efficiency corrections of the FLOPs estimate on K80 and P100 (V100 =\n"
		    " * 1): geometric means of Gavel's measured over the model's speed\n"
		    " * relative to V100, for CNN and other models. */\n"
		    "const gp_perf_gavel_speed gp_perf_gavel_speeds[] = {\n");
	for (k = 0; k < (x ? 2 : 0); k++)
		fprintf(fp, "\t{ \"%s\", %.4f, %.4f },\n", x->speed[k].gpu, x->speed[k].cnn,
			x->speed[k].other);
	if (!x)
		fprintf(fp, "\t{ NULL, 1, 1 },\n");
	fprintf(fp, "};\nconst int gp_perf_ngavel_speeds = %d;\n", x ? 2 : 0);
}

static void write_ctab(FILE *fp, const gp_perf_ctab *t)
{
	int k;

	if (t->n == 0) {
		fprintf(fp, "\t  { 0, { 0 }, { 0 } },\n");
		return;
	}
	fprintf(fp, "\t  { %d,\n\t    {", t->n);
	for (k = 0; k < t->n; k++)
		fprintf(fp, " %.6g%s", t->bsz[k], k + 1 < t->n ? "," : " ");
	fprintf(fp, "},\n\t    {");
	for (k = 0; k < t->n; k++)
		fprintf(fp, " %.6g%s", t->compute[k], k + 1 < t->n ? "," : " ");
	fprintf(fp, "} },\n");
}

static void write_c(FILE *fp, const fitted *f, int n, const gp_perf_gavel *g, const xcheck *x)
{
	size_t pi;
	int i, k;

	fprintf(fp, "/* Calibrated step-time profiles: GENERATED by `gpuplan calibrate --write`\n"
		    " * from tests/data/sia (Sia placement profiles, see its SOURCES.md).\n"
		    " * Do not edit by hand; rerun the command.  Parameters, in order:\n"
		    " * c0 s, c1 s/sample, a_intra s/step, W_intra s, a_inter s/step,\n"
		    " * W_inter s, overlap, contend, solo s, contention exponent, comm\n"
		    " * contention (see GP_PP_* and gp_perf_profile_step_tab in perf.h);\n"
		    " * then the single-GPU compute table (local batch sizes, seconds), the\n"
		    " * GPU's catalog FP16 and FP32 peaks, and the measured compute with k\n"
		    " * GPUs on a node over one GPU's, k = 1..8 (gp_perf_profile.kcompute). */\n"
		    "#include \"gpuplan/perf/perf.h\"\n\n"
		    "const gp_perf_profile gp_perf_profiles[] = {\n");
	for (i = 0; i < n; i++) {
		fprintf(fp, "\t{ \"%s\", \"%s\", \"%s\",\n\t  {", f[i].pr.dl_model,
			f[i].pr.platform, f[i].pr.gpu);
		for (k = 0; k < GP_PP_NPARAMS; k++)
			fprintf(fp, " %.6g%s", f[i].pr.p[k], k + 1 < GP_PP_NPARAMS ? "," : " ");
		fprintf(fp, "},\n\t  %d, %d, %.2f, %.2f,\n", f[i].pr.nfit, f[i].pr.rows,
			f[i].pr.mape, f[i].pr.mape_heldout);
		write_ctab(fp, &f[i].pr.ctab);
		fprintf(fp, "\t  %.6g, %.6g,\n\t  {", f[i].pr.peak_tflops, f[i].pr.peak_fp32_tflops);
		for (k = 0; k < GP_PERF_KMAX; k++)
			fprintf(fp, " %.6g%s", f[i].pr.kcompute[k], k + 1 < GP_PERF_KMAX ? "," : " ");
		fprintf(fp, "} },\n");
	}
	fprintf(fp, "};\nconst int gp_perf_nprofiles = %d;\n\n", n);
	fprintf(fp, "/* Per GPU: ResNet-50 (imagenet) samples/s x %.3g FLOP over the FP16\n"
		    " * tensor peak; medians over DL models of the intra-node step latency\n"
		    " * (framework overhead, reported, not used for link latency) and of\n"
		    " * the overlap. */\n"
		    "const gp_perf_gpu_calib gp_perf_gpu_calibs[] = {\n",
		RESNET50_TRAIN_FLOP);
	k = 0;
	for (pi = 0; pi < GP_ARRAY_SIZE(platforms); pi++) {
		double al[16], ov[16], eff = 0;
		int na = 0, j;

		/* One row per GPU: its first platform. */
		for (j = 0; j < (int)pi; j++)
			if (!strcmp(platforms[j].gpu, platforms[pi].gpu))
				break;
		if (j < (int)pi)
			continue;
		for (i = 0; i < n; i++) {
			if (strcmp(f[i].pr.platform, platforms[pi].name))
				continue;
			if (na < 16 && f[i].pr.nfit > 2) {
				al[na] = f[i].pr.p[GP_PP_A_INTRA] * 1e6;
				ov[na++] = f[i].pr.p[GP_PP_OVERLAP];
			}
			if (!strcmp(f[i].pr.dl_model, "imagenet") && f[i].pr.p[GP_PP_C1] > 0)
				eff = RESNET50_TRAIN_FLOP / f[i].pr.p[GP_PP_C1] /
				      (platforms[pi].peak_tflops * 1e12);
		}
		fprintf(fp, "\t{ \"%s\", %.4f, %.6g, %.4f },\n", platforms[pi].gpu, eff,
			median(al, na), na ? median(ov, na) : GP_PERF_DEFAULT_OVERLAP);
		k++;
	}
	fprintf(fp, "};\nconst int gp_perf_ngpu_calibs = %d;\n", k);
	write_gavel(fp, g, x);
}

/* The profiles found in dir: one fit a (platform, model) pair, in
 * platform-major order, so that gp_perf_profile_find meets a GPU's main
 * platform (dgx) before its variant (dgx-ext). */
static int fit_all(const char *dir, fitted *f, int *n, gp_error *err)
{
	size_t pi, mi;
	int st;

	for (pi = 0; pi < GP_ARRAY_SIZE(platforms); pi++) {
		for (mi = 0; mi < GP_ARRAY_SIZE(dl_models); mi++) {
			char *path = gp_xasprintf("%s/%s/placements-%s.csv", dir, dl_models[mi],
						  platforms[pi].name);
			FILE *probe = fopen(path, "r");

			if (!probe) {
				free(path);
				continue;
			}
			fclose(probe);
			f[*n].pr.dl_model = dl_models[mi];
			f[*n].pr.platform = platforms[pi].name;
			f[*n].pr.gpu = platforms[pi].gpu;
			f[*n].peak_tflops = platforms[pi].peak_tflops;
			f[*n].pr.peak_tflops = platforms[pi].cat_fp16;
			f[*n].pr.peak_fp32_tflops = platforms[pi].cat_fp32;
			st = fit_one(path, &f[*n], err);
			free(path);
			if (st)
				return st;
			(*n)++;
		}
	}
	return GP_OK;
}

static json_t *profile_json(const fitted *f)
{
	json_t *o = json_object(), *pa = json_array();
	int k;

	for (k = 0; k < GP_PP_NPARAMS; k++)
		json_array_append_new(pa, json_real(f->pr.p[k]));
	json_object_set_new(o, "model", json_string(f->pr.dl_model));
	json_object_set_new(o, "platform", json_string(f->pr.platform));
	json_object_set_new(o, "gpu", json_string(f->pr.gpu));
	json_object_set_new(o, "rows", json_integer(f->pr.rows));
	json_object_set_new(o, "params_fitted", json_integer(f->pr.nfit));
	json_object_set_new(o, "params", pa);
	pa = json_array();
	for (k = 0; k < f->pr.ctab.n; k++)
		json_array_append_new(pa, json_pack("[f,f]", f->pr.ctab.bsz[k], f->pr.ctab.compute[k]));
	json_object_set_new(o, "compute_table", pa);
	pa = json_array();
	for (k = 0; k < GP_PERF_KMAX; k++)
		json_array_append_new(pa, json_real(f->pr.kcompute[k]));
	json_object_set_new(o, "compute_per_node_ratio", pa);
	json_object_set_new(o, "mape", json_real(f->pr.mape));
	json_object_set_new(o, "mape_heldout", json_real(f->pr.mape_heldout));
	json_object_set_new(o, "mape_train_half", json_real(f->mape_train_half));
	return o;
}

/* Profiles, per-platform errors and the Gavel cross-check (x, NULL
 * without --gavel) as JSON on stdout. */
static void print_json(const fitted *f, int n, const xcheck *x)
{
	json_t *root = json_object(), *arr = json_array(), *plat = json_object();
	size_t pi;
	char *s;
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, profile_json(&f[i]));
	for (pi = 0; pi < GP_ARRAY_SIZE(platforms); pi++) {
		platform_error e = platform_error_of(f, n, platforms[pi].name);
		json_t *o;

		if (e.rows == 0)
			continue;
		o = json_object();
		json_object_set_new(o, "mape", json_real(e.mape));
		json_object_set_new(o, "mape_heldout", json_real(e.heldout));
		json_object_set_new(o, "worst_mape", json_real(e.worst));
		json_object_set_new(o, "worst_mape_heldout", json_real(e.worst_heldout));
		json_object_set_new(plat, platforms[pi].name, o);
	}
	json_object_set_new(root, "profiles", arr);
	json_object_set_new(root, "platforms", plat);
	if (x)
		json_object_set_new(root, "gavel", json_crosscheck(x));
	s = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	puts(s);
	free(s);
	json_decref(root);
}

/* The same as tables. */
static void print_table(const fitted *f, int n, const xcheck *x)
{
	size_t pi;
	int i;

	printf("%-12s %-8s %-10s %5s %4s %8s %9s\n", "model", "platform", "gpu", "rows",
	       "fit", "mape%", "heldout%");
	for (i = 0; i < n; i++)
		printf("%-12s %-8s %-10s %5d %4d %8.2f %9.2f\n", f[i].pr.dl_model,
		       f[i].pr.platform, f[i].pr.gpu, f[i].pr.rows, f[i].pr.nfit,
		       f[i].pr.mape, f[i].pr.mape_heldout);
	printf("\n%-8s %14s %17s %10s %13s\n", "platform", "mape% (rows)",
	       "heldout% (rows)", "worst%", "worst held%");
	for (pi = 0; pi < GP_ARRAY_SIZE(platforms); pi++) {
		platform_error e = platform_error_of(f, n, platforms[pi].name);

		if (e.rows > 0)
			printf("%-8s %14.2f %17.2f %10.2f %13.2f\n", platforms[pi].name,
			       e.mape, e.heldout, e.worst, e.worst_heldout);
	}
	if (x)
		print_crosscheck(x);
}

int cmd_calibrate(int argc, char **argv)
{
	const char *dir = "tests/data/sia", *out = NULL, *gavel_path = NULL;
	gp_perf_gavel gavel;
	xcheck xc;
	int json = 0, c, n = 0, st;
	gp_opt_state o;
	fitted *f;
	gp_error err = GP_ERROR_INIT;

	gsl_set_error_handler_off();
	gp_opt_begin(&o, &gp_desc_calibrate, argc, argv);
	while ((c = gp_opt_next(&o)) > 0) {
		switch (c) {
		case O_GAVEL: gavel_path = o.arg; break;
		case O_DATA: dir = o.arg; break;
		case O_WRITE: out = o.arg; break;
		case O_JSON: json = 1; break;
		}
	}
	gp_opt_end(&o);
	if (c < 0)
		return o.status;

	f = gp_xcalloc(GP_ARRAY_SIZE(platforms) * GP_ARRAY_SIZE(dl_models), sizeof(*f));
	st = fit_all(dir, f, &n, &err);
	if (!st && n == 0)
		st = gp_error_set(&err, GP_EINPUT, dir, 0, 0, "no placements-*.csv profiles found");
	gp_perf_gavel_init(&gavel);
	memset(&xc, 0, sizeof(xc));
	if (!st && gavel_path) {
		st = gp_perf_gavel_load(gavel_path, &gavel, &err);
		if (!st)
			st = gavel_crosscheck(&gavel, &xc, &err);
	}
	if (st) {
		free(f);
		free(xc.rows);
		gp_perf_gavel_release(&gavel);
		return gp_cli_report(&err);
	}

	if (json)
		print_json(f, n, gavel_path ? &xc : NULL);
	else
		print_table(f, n, gavel_path ? &xc : NULL);

	if (out) {
		gp_atomic_file af;

		if ((st = gp_cli_not_input(out)) != GP_OK)
			goto done;
		if (gp_atomic_open(&af, out, &err)) {
			st = gp_cli_report(&err);
			goto done;
		}
		write_c(af.fp, f, n, gavel_path ? &gavel : NULL, gavel_path ? &xc : NULL);
		if (gp_atomic_commit(&af, &err))
			st = gp_cli_report(&err);
	}
done:
	free(f);
	free(xc.rows);
	gp_perf_gavel_release(&gavel);
	return st;
}
