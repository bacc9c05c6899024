/* Calibrated step-time profiles: the closed form that `gpuplan calibrate`
 * fits to the Sia placement files, and lookup of the built-in table. */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

double gp_perf_exposed(double compute, double comm, double overlap)
{
	double e = comm - overlap * compute;

	return e > 0 ? e : 0.0;
}

double gp_perf_ctab_compute(const gp_perf_ctab *t, const double *p, double bsz)
{
	int i, last;
	double c1;

	if (!t || t->n <= 0)
		return p[GP_PP_C0] + p[GP_PP_C1] * bsz;
	if (bsz <= t->bsz[0]) {
		/* Below the table: towards the line's intercept, never above
		 * the first point (a smaller batch cannot be slower). */
		double c0 = fmin(fmax(p[GP_PP_C0], 0.0), t->compute[0]);

		if (t->bsz[0] <= 0)
			return t->compute[0];
		return c0 + (t->compute[0] - c0) * fmax(bsz, 0.0) / t->bsz[0];
	}
	last = t->n - 1;
	if (bsz >= t->bsz[last]) {
		/* Beyond it: the line's per-sample cost, or, when the line has
		 * none, the last point's throughput. */
		c1 = p[GP_PP_C1];
		if (c1 > 0)
			return t->compute[last] + c1 * (bsz - t->bsz[last]);
		return t->bsz[last] > 0 ? t->compute[last] * bsz / t->bsz[last]
					: t->compute[last];
	}
	for (i = 1; i < last && t->bsz[i] < bsz; i++)
		;
	/* t->bsz[i-1] < bsz <= t->bsz[i] */
	return t->compute[i - 1] + (t->compute[i] - t->compute[i - 1]) *
					   (bsz - t->bsz[i - 1]) / (t->bsz[i] - t->bsz[i - 1]);
}

/* With k GPUs on the busiest node and K = (k-1)^cexp:
 *   compute = (single-GPU compute - [n > 1] solo) x (1 + contend x K)
 * Communication is a ring all-reduce with two per-step latencies and two
 * volume terms (intra-node, and the slower of intra/inter once the ring
 * leaves a node); the intra-node part slows with k like compute:
 *   comm = (2(n-1)/n x W + (2(n-1) - 2(m-1)) x a_intra) x (1 + ccomm x K)
 *          + 2(m-1) x a_inter. */
double gp_perf_profile_step_tab(const gp_perf_ctab *tab, const double *p, int n,
				int nodes, int per_node, double bsz, double *compute,
				double *comm, double *exposed)
{
	double c = gp_perf_ctab_compute(tab, p, bsz), t = 0, e, slow = 1.0;

	if (n > 1)
		c = fmax(c - p[GP_PP_SOLO], 0.05 * c);
	if (per_node > 1) {
		double k = pow(per_node - 1, p[GP_PP_CEXP]);

		c *= 1.0 + p[GP_PP_CONTEND] * k;
		slow = 1.0 + p[GP_PP_CCOMM] * k;
	}

	if (nodes < 1)
		nodes = 1;
	if (n > 1) {
		double w = p[GP_PP_W_INTRA];
		int inter = 2 * (nodes - 1), intra = 2 * (n - 1) - inter;

		if (nodes > 1)
			w = fmax(w, p[GP_PP_W_INTER]);
		t = (2.0 * (n - 1) / n * w + intra * p[GP_PP_A_INTRA]) * slow +
		    inter * p[GP_PP_A_INTER];
	}
	e = gp_perf_exposed(c, t, p[GP_PP_OVERLAP]);
	if (compute)
		*compute = c;
	if (comm)
		*comm = t;
	if (exposed)
		*exposed = e;
	return c + e;
}

double gp_perf_profile_step(const double *p, int n, int nodes, int per_node,
			    double bsz, double *compute, double *comm, double *exposed)
{
	return gp_perf_profile_step_tab(NULL, p, n, nodes, per_node, bsz, compute, comm,
					exposed);
}

double gp_perf_profile_eval(const gp_perf_profile *pr, int n, int nodes, int per_node,
			    double bsz, double *compute, double *comm, double *exposed)
{
	return gp_perf_profile_step_tab(&pr->ctab, pr->p, n, nodes, per_node, bsz, compute,
					comm, exposed);
}

double gp_perf_profile_compute(const gp_perf_profile *pr, int n, int per_node, double bsz)
{
	double c = gp_perf_ctab_compute(&pr->ctab, pr->p, bsz);
	int k, i;

	if (n <= 1)
		return c;
	/* k: index of per_node GPUs on a node in kcompute. */
	k = per_node < 1 ? 0 : per_node > GP_PERF_KMAX ? GP_PERF_KMAX - 1 : per_node - 1;
	for (i = k; i >= 0; i--)
		if (pr->kcompute[i] > 0)
			return c * pr->kcompute[i];
	for (i = k + 1; i < GP_PERF_KMAX; i++)
		if (pr->kcompute[i] > 0)
			return c * pr->kcompute[i];
	/* No multi-GPU rows: the fitted form (its compute does not depend
	 * on the number of nodes). */
	gp_perf_profile_eval(pr, n, 1, per_node, bsz, &c, NULL, NULL);
	return c;
}

/* Upper-case alphanumerics only: "Quadro RTX 6000" -> "QUADRORTX6000". */
static void squash(const char *s, char *out, size_t size)
{
	size_t k = 0;

	for (; *s && k + 1 < size; s++)
		if (isalnum((unsigned char)*s))
			out[k++] = (char)toupper((unsigned char)*s);
	out[k] = '\0';
}

/* GPU keys of the profile table and the spellings that mean them. */
static const struct {
	const char *key, *alias;
} gpu_alias[] = {
	{ "RTX6000", "QUADRORTX6000" },
	{ "RTX2080TI", "GEFORCERTX2080TI" },
};

int gp_perf_gpu_matches(const char *name, const char *key)
{
	char n[64], k[64];
	size_t i, kl;

	if (!name || !key)
		return 0;
	squash(name, n, sizeof(n));
	squash(key, k, sizeof(k));
	for (i = 0; i < GP_ARRAY_SIZE(gpu_alias); i++)
		if (!strcmp(n, gpu_alias[i].alias) || !strncmp(n, gpu_alias[i].alias,
								 strlen(gpu_alias[i].alias))) {
			squash(gpu_alias[i].key, n, sizeof(n));
			break;
		}
	kl = strlen(k);
	/* "A100SXM440GB" is an A100; "A1000" is not.  The character after
	 * the key must not continue the model number. */
	if (kl == 0 || strncmp(n, k, kl))
		return 0;
	return !isdigit((unsigned char)n[kl]);
}

/* DL model names of the Sia profiles and what jobs call them. */
static const struct {
	const char *name, *alias;
} dl_alias[] = {
	{ "imagenet", "resnet50" },   { "imagenet", "resnet-50" },
	{ "cifar10", "resnet18" },    { "cifar10", "resnet-18" },
	{ "cifar10", "resnet18-cifar" },
	{ "bert", "bert-base" },      { "deepspeech2", "deepspeech" },
	{ "yolov3", "yolo" },         { "gpt_pmp", "gpt" },
	{ "ncf", "neumf" },
};

static const char *canonical_dl(const char *name)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(dl_alias); i++)
		if (!strcasecmp(name, dl_alias[i].alias))
			return dl_alias[i].name;
	return name;
}

const gp_perf_profile *gp_perf_profile_nearest(const char *dl_model, double peak, int fp32)
{
	const gp_perf_profile *best = NULL;
	double bestd = 0;
	const char *dl;
	int i;

	if (!dl_model || !*dl_model || !(peak > 0))
		return NULL;
	dl = canonical_dl(dl_model);
	for (i = 0; i < gp_perf_nprofiles; i++) {
		const gp_perf_profile *pr = &gp_perf_profiles[i];
		double ref = fp32 ? pr->peak_fp32_tflops : pr->peak_tflops, d;

		if (strcasecmp(pr->dl_model, dl) || !(ref > 0) || pr->ctab.n == 0)
			continue;
		d = fabs(log(ref / peak));
		if (!best || d < bestd - 1e-12)
			best = pr, bestd = d;
	}
	return best;
}

const gp_perf_profile *gp_perf_profile_find(const char *dl_model, const char *gpu_name)
{
	const char *dl;
	int i;

	if (!dl_model || !*dl_model || !gpu_name)
		return NULL;
	dl = canonical_dl(dl_model);
	/* The first entry wins: the table lists the main platform of a GPU
	 * (dgx) before its variants (dgx-ext). */
	for (i = 0; i < gp_perf_nprofiles; i++)
		if (!strcasecmp(gp_perf_profiles[i].dl_model, dl) &&
		    gp_perf_gpu_matches(gpu_name, gp_perf_profiles[i].gpu))
			return &gp_perf_profiles[i];
	return NULL;
}

const gp_perf_gpu_calib *gp_perf_gpu_calib_find(const char *gpu_name)
{
	int i;

	for (i = 0; i < gp_perf_ngpu_calibs; i++)
		if (gp_perf_gpu_matches(gpu_name, gp_perf_gpu_calibs[i].gpu))
			return &gp_perf_gpu_calibs[i];
	return NULL;
}
