/* The built-in GPU catalog.  Figures are from
 * /work/shared/reference/models-and-failures.md §B.1 (NVLink) and §C
 * (accelerator table) unless a row's comment says otherwise; per-link
 * NVLink rates are line rates per direction, nvlink_nccl_gbs is NCCL's
 * effective per-link constant (src/graph/topo.h). */
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/util/util.h"

/* name, mem GiB, mem BW GB/s, FP16/BF16 TFLOPS, FP32 TFLOPS,
 * NVLink gen, GB/s per link per direction, links, PCIe gen, lanes,
 * (efficiency, alpha, overlap left 0 = defaults), NCCL GB/s per link,
 * TDP W, BF16, vendor */
#define NV(n, mem, bw, f16, f32, nvg, nvl, nvn, pg, nccl, tdp, bf)            \
	{ n, mem, bw, f16, f32, nvg, nvl, nvn, pg, 16, 0, 0, 0, nccl, tdp, bf, \
	  "NVIDIA" }

static const gp_gpu_model builtin[] = {
	/* Kepler: one GK210 = half a K80 board (CUDA lists 2 per board);
	 * no fast FP16, so the FP16 column repeats FP32. */
	NV("K80", 12, 240, 4.37, 4.37, 0, 0, 0, 3, 0, 150, 0),
	/* Pascal: P100 = SXM2 with NVLink1; the PCIe cards are separate. */
	NV("P100", 16, 732, 21.2, 10.6, 1, 20, 4, 3, 18, 300, 0),
	NV("P100-PCIE-16GB", 16, 732, 18.7, 9.3, 0, 0, 0, 3, 0, 250, 0),
	NV("P100-PCIE-12GB", 12, 549, 18.7, 9.3, 0, 0, 0, 3, 0, 250, 0),
	/* Volta */
	NV("V100-SXM2-16GB", 16, 900, 125, 15.7, 2, 25, 6, 3, 20, 300, 0),
	NV("V100-SXM2-32GB", 32, 900, 125, 15.7, 2, 25, 6, 3, 20, 300, 0),
	NV("V100-PCIE-16GB", 16, 900, 112, 14, 0, 0, 0, 3, 0, 250, 0),
	NV("V100-PCIE-32GB", 32, 900, 112, 14, 0, 0, 0, 3, 0, 250, 0),
	NV("V100S-PCIE-32GB", 32, 1134, 130, 16.4, 0, 0, 0, 3, 0, 250, 0),
	/* Turing */
	NV("T4", 16, 320, 65, 8.1, 0, 0, 0, 3, 0, 70, 0),
	/* RTX 2070 / 2080 Ti: habitat-gpu-specs/devices.csv (Habitat, ATC'21),
	 * whose "half" column is the non-tensor FP16 peak; TDPs and the
	 * 2080 Ti's 2-link NVLink2 bridge from the vendor datasheets. */
	NV("RTX-2070", 8, 448, 13.0, 6.5, 0, 0, 0, 3, 0, 175, 0),
	NV("RTX-2080Ti", 11, 616, 23.5, 11.75, 2, 25, 2, 3, 20, 250, 0),
	/* Quadro RTX 6000 (the Sia "quad" platform): vendor datasheet, not
	 * in the reference notes: 16.3 FP32, 130.5 FP16 tensor, 24 GB GDDR6
	 * at 672 GB/s, 2-link NVLink2 bridge (100 GB/s bidirectional). */
	NV("Quadro-RTX-6000", 24, 672, 130.5, 16.3, 2, 25, 2, 3, 20, 295, 0),
	/* Ampere */
	NV("A10", 24, 600, 125, 31.2, 0, 0, 0, 4, 0, 150, 1),
	/* A30 bridge: 200 GB/s bidirectional = 4 NVLink3 links. */
	NV("A30", 24, 933, 165, 10.3, 3, 25, 4, 4, 20, 165, 1),
	NV("A100-SXM4-40GB", 40, 1555, 312, 19.5, 3, 25, 12, 4, 20, 400, 1),
	NV("A100-SXM4-80GB", 80, 2039, 312, 19.5, 3, 25, 12, 4, 20, 400, 1),
	/* PCIe A100/H100: a 600 GB/s bidirectional bridge per pair = 12
	 * links of 25 GB/s per direction. */
	NV("A100-PCIE-40GB", 40, 1555, 312, 19.5, 3, 25, 12, 4, 20, 250, 1),
	NV("A100-PCIE-80GB", 80, 1935, 312, 19.5, 3, 25, 12, 4, 20, 300, 1),
	/* GA10x NVLink (A40, RTX 3090 bridge): 4 links of 14.0625 GB/s, NCCL
	 * SM86 = 12.  A40 and RTX compute figures are vendor datasheets (not
	 * in the reference notes); GeForce tensor FP16 is with FP32
	 * accumulate (half the FP16-accumulate rate). */
	NV("A40", 48, 696, 149.7, 37.4, 3, 14.0625, 4, 4, 12, 300, 1),
	NV("RTX-3090", 24, 936, 71, 35.6, 3, 14.0625, 4, 4, 12, 350, 1),
	/* Ada */
	NV("RTX-4090", 24, 1008, 165.2, 82.6, 0, 0, 0, 4, 0, 450, 1),
	NV("L4", 24, 300, 121, 30.3, 0, 0, 0, 4, 0, 72, 1),
	NV("L40S", 48, 864, 362, 91.6, 0, 0, 0, 4, 0, 350, 1),
	/* Hopper */
	NV("H100-SXM5-80GB", 80, 3350, 989, 67, 4, 25, 18, 5, 20.6, 700, 1),
	NV("H100-PCIE-80GB", 80, 2000, 756, 51, 4, 25, 12, 5, 20.6, 350, 1),
	NV("H800-SXM5-80GB", 80, 3350, 989, 67, 4, 25, 8, 5, 20.6, 700, 1),
	/* H20: reference notes mark it low confidence. */
	NV("H20", 96, 4000, 148, 44, 4, 25, 18, 5, 20.6, 400, 1),
	NV("H200", 141, 4800, 989, 67, 4, 25, 18, 5, 20.6, 700, 1),
	/* Blackwell: 180 GB usable of 192 GB HBM3e. */
	NV("B200", 180, 8000, 2250, 75, 5, 50, 18, 5, 40.1, 1000, 1),
	/* AMD: one GCD of the MI250X OAM (the OAM row halved: the driver and
	 * the device plugin list each GCD as a GPU).  Infinity Fabric GPU
	 * links are stored in the link fields with nvlink_gen 0; MI250X:
	 * 8 links x 100 GB/s bidirectional per OAM, MI300X: 7 x 128. */
	{ "MI250X", 64, 1638.5, 191.5, 23.95, 0, 50, 4, 4, 16, 0, 0, 0, 0,
	  280, 1, "AMD" },
	{ "MI300X", 192, 5300, 1307, 163.4, 0, 64, 7, 5, 16, 0, 0, 0, 0,
	  750, 1, "AMD" },
};

/* Spellings seen in traces and on `nvidia-smi` (the Alibaba openb node
 * list, Gavel, Philly, Sia) mapped to catalog names. */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "V100M16", "V100-SXM2-16GB" },
	{ "V100M32", "V100-SXM2-32GB" },
	{ "V100", "V100-SXM2-16GB" },
	{ "V100-SXM2", "V100-SXM2-16GB" },
	{ "A100", "A100-SXM4-40GB" },
	{ "A100-40GB", "A100-SXM4-40GB" },
	{ "A100-80GB", "A100-SXM4-80GB" },
	{ "A100-80GB-PCIE", "A100-PCIE-80GB" },
	{ "H100", "H100-SXM5-80GB" },
	{ "H100-80GB-HBM3", "H100-SXM5-80GB" },
	{ "H100-SXM", "H100-SXM5-80GB" },
	{ "H100-PCIE", "H100-PCIE-80GB" },
	{ "H800", "H800-SXM5-80GB" },
	{ "H200-SXM", "H200" },
	{ "2080Ti", "RTX-2080Ti" },
	{ "GeForce-RTX-2080-Ti", "RTX-2080Ti" },
	{ "GeForce-RTX-3090", "RTX-3090" },
	{ "GeForce-RTX-4090", "RTX-4090" },
	{ "RTX6000", "Quadro-RTX-6000" },
	{ "Quadro", "Quadro-RTX-6000" },
	{ "Tesla-K80", "K80" },
};

/* tolower of the C locale (gpuplan never sets another), without the
 * locale look-up. */
static inline int lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Whether a name starting with c may differ from its bare form (after
 * separators and a vendor prefix): its first letter then says nothing. */
static inline int may_hide(unsigned char c)
{
	c = (unsigned char)lower(c);
	return c == 'n' || c == 't' || c == 'a' || c == '-' || c == '_' || c == ' ';
}

/* Next significant character (lower case), skipping separators. */
static const char *skip_sep(const char *s)
{
	while (*s == '-' || *s == '_' || *s == ' ')
		s++;
	return s;
}

/* After separators, a leading "nvidia", "tesla" or "amd" (any case)
 * followed by a separator is skipped with its separators.  This runs per
 * catalog entry and alias: one prefix can match the first letter. */
static const char *skip_vendor(const char *s)
{
	const char *p;
	size_t i;

	s = skip_sep(s);
	switch (lower((unsigned char)*s)) {
	case 'n':
		p = "nvidia";
		break;
	case 't':
		p = "tesla";
		break;
	case 'a':
		p = "amd";
		break;
	default:
		return s;
	}
	for (i = 1; p[i]; i++)
		if (lower((unsigned char)s[i]) != p[i])
			return s; /* stops at the end of s too */
	if (s[i] != ' ' && s[i] != '-' && s[i] != '_')
		return s;
	return skip_sep(s + i);
}

/* gp_catalog_name_eq of names whose vendor prefix is skipped already. */
static int name_eq_bare(const char *a, const char *b)
{
	for (;;) {
		a = skip_sep(a);
		b = skip_sep(b);
		if (!*a || !*b)
			return !*a && !*b;
		if (lower((unsigned char)*a) != lower((unsigned char)*b))
			return 0;
		a++;
		b++;
	}
}

/* name_eq_bare(skip_vendor(full), bare), most names ruled out by their
 * first letter. */
static int bare_eq(const char *full, const char *bare)
{
	if (!may_hide((unsigned char)*full) && lower((unsigned char)*full) != lower((unsigned char)*bare))
		return 0;
	return name_eq_bare(skip_vendor(full), bare);
}

int gp_catalog_name_eq(const char *a, const char *b)
{
	return name_eq_bare(skip_vendor(a), skip_vendor(b));
}

/* The length of the word at s (up to a separator or the end). */
static size_t word_len(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != '-' && s[n] != '_' && s[n] != ' ')
		n++;
	return n;
}

/* Whether two words are the same, case ignored, on their first 31
 * characters. */
static int word_eq(const char *a, size_t la, const char *b, size_t lb)
{
	size_t i;

	if (la > 31)
		la = 31;
	if (lb > 31)
		lb = 31;
	if (la != lb)
		return 0;
	for (i = 0; i < la; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* Whether every word of want is, in order, a word of name (vendor
 * prefixes skipped already): "V100" is a family of V100-SXM2-16GB and
 * V100-PCIE-32GB (not of V100S-PCIE-32GB). */
static int family_bare(const char *a, const char *b)
{
	int words = 0;

	for (;;) {
		size_t la;
		int found = 0;

		a = skip_sep(a);
		if (!*a)
			break;
		la = word_len(a);
		words++;
		while (!found) {
			size_t lb;

			b = skip_sep(b);
			if (!*b)
				return 0;
			lb = word_len(b);
			found = word_eq(a, la, b, lb);
			b += lb;
		}
		a += la;
	}
	return words > 0;
}

int gp_catalog_admits(const char *want, const char *name)
{
	const char *w = skip_vendor(want), *n = skip_vendor(name);
	size_t i;

	if (name_eq_bare(w, n) || family_bare(w, n))
		return 1;
	for (i = 0; i < GP_ARRAY_SIZE(aliases); i++) {
		const char *a = aliases[i].alias;

		if (bare_eq(a, w))
			return name_eq_bare(skip_vendor(aliases[i].name), n);
	}
	return 0;
}

static int find_exact(const gp_catalog *cat, const char *name)
{
	int i;

	name = skip_vendor(name);
	for (i = 0; i < cat->n; i++) {
		const char *m = cat->models[i].name;

		if (bare_eq(m, name))
			return i;
	}
	return -1;
}

int gp_catalog_index(const gp_catalog *cat, const char *name)
{
	size_t i;
	int k;

	if (!cat || !name || !*name)
		return -1;
	k = find_exact(cat, name);
	if (k >= 0)
		return k;
	name = skip_vendor(name);
	for (i = 0; i < GP_ARRAY_SIZE(aliases); i++) {
		const char *a = aliases[i].alias;

		if (bare_eq(a, name))
			return find_exact(cat, aliases[i].name);
	}
	return -1;
}

const gp_gpu_model *gp_catalog_find(const gp_catalog *cat, const char *name)
{
	int k = gp_catalog_index(cat, name);

	return k < 0 ? NULL : &cat->models[k];
}

void gp_catalog_init_builtin(gp_catalog *cat)
{
	cat->n = (int)GP_ARRAY_SIZE(builtin);
	cat->cap = cat->n + 8;
	cat->models = gp_xcalloc((size_t)cat->cap, sizeof(*cat->models));
	memcpy(cat->models, builtin, sizeof(builtin));
}

void gp_catalog_release(gp_catalog *cat)
{
	if (!cat)
		return;
	free(cat->models);
	cat->models = NULL;
	cat->n = cat->cap = 0;
}

int gp_catalog_put(gp_catalog *cat, const gp_gpu_model *m)
{
	size_t cap = (size_t)cat->cap;
	int k = find_exact(cat, m->name);

	if (k >= 0) {
		cat->models[k] = *m;
		return k;
	}
	GP_GROW(cat->models, cap, (size_t)cat->n + 1);
	cat->cap = (int)cap;
	cat->models[cat->n] = *m;
	return cat->n++;
}
