/* The built-in GPU catalog: required entries, figures against the
 * reference table (models-and-failures.md §C), lookup rules, put. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/model/catalog.h"
#include "gpuplan/model/job.h"
#include "gpuplan/util/util.h"
#include "testlib.h"

static void test_required_models(void)
{
	static const char *const names[] = {
		"K80", "P100", "V100-SXM2-16GB", "V100-SXM2-32GB", "T4", "A10",
		"A30", "A100-SXM4-40GB", "A100-SXM4-80GB", "A100-PCIE-40GB",
		"A100-PCIE-80GB", "L4", "L40S", "H100-SXM5-80GB",
		"H100-PCIE-80GB", "H200", "B200", "RTX-3090", "RTX-4090",
		"MI250X", "MI300X", "RTX-2080Ti", "Quadro-RTX-6000",
	};
	gp_catalog cat;
	size_t i;

	gp_catalog_init_builtin(&cat);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const gp_gpu_model *m = gp_catalog_find(&cat, names[i]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_STRING_EQUAL(m->name, names[i]);
		CU_ASSERT(m->mem_gib > 0);
		CU_ASSERT(m->fp16_tflops > 0);
		CU_ASSERT(m->fp32_tflops > 0);
		CU_ASSERT(m->mem_bw_gbs > 0);
	}
	gp_catalog_release(&cat);
}

static void test_reference_figures(void)
{
	gp_catalog cat;
	const gp_gpu_model *m;

	gp_catalog_init_builtin(&cat);
	/* §C: A100 80 GB SXM: 312 / 19.5 TFLOPS, 2,039 GB/s, NVLink3 x12;
	 * §B.1: 25 GB/s per link per direction, NCCL 20. */
	m = gp_catalog_find(&cat, "A100-SXM4-80GB");
	CU_ASSERT_DOUBLE_EQUAL(m->fp16_tflops, 312, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->fp32_tflops, 19.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_bw_gbs, 2039, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 80, 1e-9);
	CU_ASSERT_EQUAL(m->nvlink_gen, 3);
	CU_ASSERT_EQUAL(m->nvlink_links, 12);
	CU_ASSERT_DOUBLE_EQUAL(m->nvlink_gbs_per_link * m->nvlink_links, 300, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->nvlink_nccl_gbs, 20, 1e-9);
	/* H100 SXM: 989 / 67, 3,350 GB/s, 18 links (450 GB/s per dir). */
	m = gp_catalog_find(&cat, "H100-SXM5-80GB");
	CU_ASSERT_DOUBLE_EQUAL(m->fp16_tflops, 989, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->nvlink_gbs_per_link * m->nvlink_links, 450, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->nvlink_nccl_gbs, 20.6, 1e-9);
	/* H200: 141 GB at 4,800 GB/s, same compute as H100 SXM. */
	m = gp_catalog_find(&cat, "H200");
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 141, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_bw_gbs, 4800, 1e-9);
	/* B200: 2,250 dense, NVLink5 18 x 50 = 900 GB/s per direction. */
	m = gp_catalog_find(&cat, "B200");
	CU_ASSERT_DOUBLE_EQUAL(m->fp16_tflops, 2250, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->nvlink_gbs_per_link * m->nvlink_links, 900, 1e-9);
	/* V100, T4, P100 have no BF16; K80 is one GK210 (half of 24 GB). */
	CU_ASSERT_EQUAL(gp_catalog_find(&cat, "V100-SXM2-32GB")->bf16, 0);
	CU_ASSERT_EQUAL(gp_catalog_find(&cat, "T4")->bf16, 0);
	CU_ASSERT_EQUAL(gp_catalog_find(&cat, "A10")->bf16, 1);
	m = gp_catalog_find(&cat, "K80");
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 12, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_bw_gbs, 240, 1e-9);
	/* MI300X: 1,307 / 163.4, 192 GB, 5,300 GB/s. */
	m = gp_catalog_find(&cat, "MI300X");
	CU_ASSERT_DOUBLE_EQUAL(m->fp16_tflops, 1307, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 192, 1e-9);
	CU_ASSERT_STRING_EQUAL(m->vendor, "AMD");
	/* RTX 2080 Ti from habitat-gpu-specs/devices.csv: 11 GB, 616 GB/s. */
	m = gp_catalog_find(&cat, "RTX-2080Ti");
	CU_ASSERT_DOUBLE_EQUAL(m->mem_gib, 11, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m->mem_bw_gbs, 616, 1e-9);
	gp_catalog_release(&cat);
}

static void test_lookup_rules(void)
{
	gp_catalog cat;

	gp_catalog_init_builtin(&cat);
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "a100_sxm4_80gb")->name, "A100-SXM4-80GB");
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "NVIDIA A100-SXM4-80GB")->name, "A100-SXM4-80GB");
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "Tesla T4")->name, "T4");
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "rtx 4090")->name, "RTX-4090");
	/* openb node-list spellings */
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "V100M32")->name, "V100-SXM2-32GB");
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "V100M16")->name, "V100-SXM2-16GB");
	/* A10 is not A100, and unknown names are NULL */
	CU_ASSERT_STRING_EQUAL(gp_catalog_find(&cat, "A10")->name, "A10");
	CU_ASSERT_PTR_NULL(gp_catalog_find(&cat, "A1000"));
	CU_ASSERT_PTR_NULL(gp_catalog_find(&cat, ""));
	CU_ASSERT_PTR_NULL(gp_catalog_find(&cat, "G2"));
	CU_ASSERT_EQUAL(gp_catalog_index(&cat, "nosuch"), -1);
	CU_ASSERT(gp_catalog_name_eq("H100-SXM5-80GB", "h100 sxm5 80gb"));
	CU_ASSERT(!gp_catalog_name_eq("H100", "H10"));
	gp_catalog_release(&cat);
}

static void test_put(void)
{
	gp_catalog cat;
	gp_gpu_model m;
	int n0, k, i;

	gp_catalog_init_builtin(&cat);
	n0 = cat.n;
	/* Replace an entry in place. */
	m = *gp_catalog_find(&cat, "T4");
	m.mem_gib = 15;
	k = gp_catalog_put(&cat, &m);
	CU_ASSERT_EQUAL(cat.n, n0);
	CU_ASSERT_STRING_EQUAL(cat.models[k].name, "T4");
	CU_ASSERT_DOUBLE_EQUAL(gp_catalog_find(&cat, "t4")->mem_gib, 15, 1e-9);
	/* Add many (forces growth), an alias name becomes its own entry. */
	for (i = 0; i < 40; i++) {
		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "X-%d", i);
		m.mem_gib = i + 1;
		gp_catalog_put(&cat, &m);
	}
	CU_ASSERT_EQUAL(cat.n, n0 + 40);
	CU_ASSERT_DOUBLE_EQUAL(gp_catalog_find(&cat, "X-39")->mem_gib, 40, 1e-9);
	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "V100M32");
	m.mem_gib = 31;
	gp_catalog_put(&cat, &m);
	CU_ASSERT_DOUBLE_EQUAL(gp_catalog_find(&cat, "V100M32")->mem_gib, 31, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(gp_catalog_find(&cat, "V100-SXM2-32GB")->mem_gib, 32, 1e-9);
	gp_catalog_release(&cat);
	gp_catalog_release(&cat); /* idempotent */
	gp_catalog_release(NULL);
}

/* A job's gpu_model admits a family ("V100": every V100 card, not the
 * V100S), aliases (V100M32) and the exact name; a review found "V100"
 * matching no node at all. */
static void test_admits(void)
{
	gp_job j;

	CU_ASSERT_TRUE(gp_catalog_admits("V100", "V100-SXM2-16GB"));
	CU_ASSERT_TRUE(gp_catalog_admits("V100", "V100-PCIE-32GB"));
	CU_ASSERT_FALSE(gp_catalog_admits("V100", "V100S-PCIE-32GB"));
	CU_ASSERT_TRUE(gp_catalog_admits("nvidia a100 80gb", "A100-PCIE-80GB"));
	CU_ASSERT_TRUE(gp_catalog_admits("A100-80GB", "A100-SXM4-80GB"));
	CU_ASSERT_FALSE(gp_catalog_admits("A100-80GB", "A100-SXM4-40GB"));
	CU_ASSERT_TRUE(gp_catalog_admits("V100M32", "V100-SXM2-32GB"));
	CU_ASSERT_FALSE(gp_catalog_admits("V100M32", "V100-SXM2-16GB"));
	CU_ASSERT_TRUE(gp_catalog_admits("h100_sxm5_80gb", "H100-SXM5-80GB"));
	CU_ASSERT_FALSE(gp_catalog_admits("H100", "H800-SXM5-80GB"));
	CU_ASSERT_FALSE(gp_catalog_admits("", "H100-SXM5-80GB"));
	gp_job_init(&j);
	j.gpu_models = gp_xstrdup("T4|V100");
	CU_ASSERT_TRUE(gp_job_accepts_model(&j, "V100-PCIE-16GB"));
	CU_ASSERT_TRUE(gp_job_accepts_model(&j, "T4"));
	CU_ASSERT_FALSE(gp_job_accepts_model(&j, "A100-SXM4-40GB"));
	gp_job_release(&j);
}

/* The memo answers as gp_job_accepts_model does, for every catalog model
 * and lists of families, aliases, case and separators, vendor prefixes and
 * the empty name (no GPU model), asked twice (computed, then remembered). */
static void test_accepts_memo(void)
{
	static const char *const lists[] = {
		"T4", "V100", "v100|t4", "A100-80GB", "V100M32", "nvidia a100 80gb|G2",
		"h100_sxm5_80gb", "|T4", "T4|", "A100||H100", "H100|H800", "V100S",
		"Tesla V100", "a100 sxm4 80gb", "MI250X|mi300x|K80", "no-such-gpu",
		"RTX|A", "G3|V100M16|P100", "L40S|L4", "", "|",
	};
	gp_accepts_memo m;
	gp_catalog cat;
	gp_job j;
	char buf[32];
	int pass, k;
	size_t i;

	gp_catalog_init_builtin(&cat);
	gp_accepts_memo_init(&m);
	gp_job_init(&j);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < GP_ARRAY_SIZE(lists); i++)
			for (k = 0; k < cat.n; k++) {
				/* a fresh copy each time: the text is the key */
				char *text = gp_xstrdup(lists[i]);

				j.gpu_models = text;
				CU_ASSERT_EQUAL(gp_job_accepts_model_memo(&m, &j, &cat, k),
						gp_job_accepts_model(&j, cat.models[k].name));
				free(text);
			}
	/* by hand: V100 is a family of the SXM2 card, not of the V100S */
	j.gpu_models = "v100|t4";
	CU_ASSERT_TRUE(gp_job_accepts_model_memo(&m, &j, &cat, gp_catalog_index(&cat, "V100-SXM2-16GB")));
	CU_ASSERT_FALSE(gp_job_accepts_model_memo(&m, &j, &cat, gp_catalog_index(&cat, "V100S-PCIE-32GB")));
	/* one buffer, new text: the old answer must not come back */
	j.gpu_models = buf;
	snprintf(buf, sizeof(buf), "T4");
	CU_ASSERT_TRUE(gp_job_accepts_model_memo(&m, &j, &cat, gp_catalog_index(&cat, "T4")));
	snprintf(buf, sizeof(buf), "P100");
	CU_ASSERT_FALSE(gp_job_accepts_model_memo(&m, &j, &cat, gp_catalog_index(&cat, "T4")));
	/* no list (or an empty one) accepts every model */
	j.gpu_models = NULL;
	CU_ASSERT_TRUE(gp_job_accepts_model_memo(&m, &j, &cat, 0));
	/* past GP_ACCEPTS_MEMO_MAX lists it still answers right */
	for (i = 0; i < GP_ACCEPTS_MEMO_MAX + 8; i++) {
		j.gpu_models = buf;
		snprintf(buf, sizeof(buf), "%s|x%zu", i % 2 ? "T4" : "P100", i);
		CU_ASSERT_EQUAL(gp_job_accepts_model_memo(&m, &j, &cat, gp_catalog_index(&cat, "T4")),
				(int)(i % 2));
	}
	CU_ASSERT_EQUAL(m.n, GP_ACCEPTS_MEMO_MAX);
	gp_accepts_memo_release(&m);
	gp_accepts_memo_release(&m);
	gp_catalog_release(&cat);
}

/* ---- the rules as first written (before they were made cheap), to
 * check that every answer stays ---- */

static const struct {
	const char *alias, *name;
} ref_aliases[] = {
	{ "V100M16", "V100-SXM2-16GB" }, { "V100M32", "V100-SXM2-32GB" },
	{ "V100", "V100-SXM2-16GB" }, { "V100-SXM2", "V100-SXM2-16GB" },
	{ "A100", "A100-SXM4-40GB" }, { "A100-40GB", "A100-SXM4-40GB" },
	{ "A100-80GB", "A100-SXM4-80GB" }, { "A100-80GB-PCIE", "A100-PCIE-80GB" },
	{ "H100", "H100-SXM5-80GB" }, { "H100-80GB-HBM3", "H100-SXM5-80GB" },
	{ "H100-SXM", "H100-SXM5-80GB" }, { "H100-PCIE", "H100-PCIE-80GB" },
	{ "H800", "H800-SXM5-80GB" }, { "H200-SXM", "H200" },
	{ "2080Ti", "RTX-2080Ti" }, { "GeForce-RTX-2080-Ti", "RTX-2080Ti" },
	{ "GeForce-RTX-3090", "RTX-3090" }, { "GeForce-RTX-4090", "RTX-4090" },
	{ "RTX6000", "Quadro-RTX-6000" }, { "Quadro", "Quadro-RTX-6000" },
	{ "Tesla-K80", "K80" },
};

static const char *ref_skip_sep(const char *s)
{
	while (*s == '-' || *s == '_' || *s == ' ')
		s++;
	return s;
}

static const char *ref_skip_vendor(const char *s)
{
	static const char *const prefixes[] = { "nvidia", "tesla", "amd" };
	size_t i, n;

	s = ref_skip_sep(s);
	for (i = 0; i < GP_ARRAY_SIZE(prefixes); i++) {
		n = strlen(prefixes[i]);
		if (!strncasecmp(s, prefixes[i], n) && (s[n] == ' ' || s[n] == '-' || s[n] == '_'))
			return ref_skip_sep(s + n);
	}
	return s;
}

static int ref_name_eq(const char *a, const char *b)
{
	a = ref_skip_vendor(a);
	b = ref_skip_vendor(b);
	for (;;) {
		a = ref_skip_sep(a);
		b = ref_skip_sep(b);
		if (!*a || !*b)
			return !*a && !*b;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
		a++;
		b++;
	}
}

static int ref_next_word(const char **s, char *w)
{
	size_t n = 0;

	*s = ref_skip_sep(*s);
	if (!**s)
		return 0;
	for (; **s && **s != '-' && **s != '_' && **s != ' '; (*s)++)
		if (n < 31)
			w[n++] = (char)tolower((unsigned char)**s);
	w[n] = '\0';
	return 1;
}

static int ref_family(const char *want, const char *name)
{
	const char *a = ref_skip_vendor(want), *b = ref_skip_vendor(name);
	char wa[32], wb[32];
	int words = 0;

	while (ref_next_word(&a, wa)) {
		int found = 0;

		words++;
		while (!found && ref_next_word(&b, wb))
			found = !strcmp(wa, wb);
		if (!found)
			return 0;
	}
	return words > 0;
}

static int ref_admits(const char *want, const char *name)
{
	size_t i;

	if (ref_name_eq(want, name) || ref_family(want, name))
		return 1;
	for (i = 0; i < GP_ARRAY_SIZE(ref_aliases); i++)
		if (ref_name_eq(ref_aliases[i].alias, want))
			return ref_name_eq(ref_aliases[i].name, name);
	return 0;
}

static int ref_index(const gp_catalog *cat, const char *name)
{
	size_t i;
	int k;

	if (!name || !*name)
		return -1;
	for (k = 0; k < cat->n; k++)
		if (ref_name_eq(cat->models[k].name, name))
			return k;
	for (i = 0; i < GP_ARRAY_SIZE(ref_aliases); i++)
		if (ref_name_eq(ref_aliases[i].alias, name))
			for (k = 0; k < cat->n; k++)
				if (ref_name_eq(cat->models[k].name, ref_aliases[i].name))
					return k;
	return -1;
}

static int ref_accepts(const char *list, const char *model_name)
{
	const char *p, *bar;
	char want[96];

	if (!list || !*list)
		return 1;
	for (p = list; *p; p = bar + 1) {
		bar = strchr(p, '|');
		if (!bar)
			bar = p + strlen(p);
		snprintf(want, sizeof(want), "%.*s", (int)(bar - p), p);
		if (ref_admits(want, model_name))
			return 1;
		if (!*bar)
			break;
	}
	return 0;
}

/* Names, families, aliases, case, separators, vendor prefixes (with and
 * without a separator after them), words over 31 characters, entries
 * over 95, the empty name. */
static const char *const admit_names[] = {
	"T4", "V100", "v100", "A100-80GB", "V100M32", "nvidia a100 80gb", "G2", "h100_sxm5_80gb",
	"H100", "H800", "V100S", "Tesla V100", "a100 sxm4 80gb", "MI250X", "mi300x", "K80",
	"no-such-gpu", "RTX", "A", "G3", "V100M16", "P100", "L40S", "L4", "", " ", "-_ -",
	"NVIDIA-Tesla-V100", "nvidia", "nvidia-", "NVIDIAV100", "NVIDIA_A100", "Tesla-K80",
	"tesla_k80", "TESLA K80", "teslak80", "amd mi250x", "AMD-MI300X", "amdmi300x", "amd",
	"a", "n", "t", "nv", "tes", "A10", "a100", "A100 PCIE", "PCIE", "sxm4 80gb", "80GB",
	"  V100  ", "--v100--", "V100-SXM2-16GB-EXTRA", "v100_sxm2_16gb", "V100-SXM2-16GB",
	"RTX 2080 ti", "2080ti", "GeForce RTX 3090", "geforce_rtx_4090", "quadro", "RTX6000",
	"H100 80GB HBM3", "h100-pcie", "H200 SXM", "B200", "A100-80GB-PCIE", "a10 0",
	"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJ", "abcdefghijklmnopqrstuvwxyzabcdeXYZ",
	"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDE", "V100 abcdefghijklmnopqrstuvwxyzabcdefghij 16GB",
	"nvidia\tv100", "\xc3\x84" "100", "A100\xe2\x80\x91" "80GB",
	"abcdefghijklmnopqrstuvwxyzabcdQ 1", "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDR",
};

/* The cheap rules answer as the first ones did: gp_catalog_admits over
 * every pair of those names and the catalog's, gp_catalog_index on each,
 * and gp_job_accepts_model on lists of them (and of entries over 95
 * characters, where only the first 95 count) for every catalog model. */
static void test_admits_same(void)
{
	static const char *const lists[] = {
		"v100|t4", "nvidia a100 80gb|G2", "|T4", "T4|", "A100||H100", "H100|H800",
		"MI250X|mi300x|K80", "RTX|A", "G3|V100M16|P100", "L40S|L4", "|", "||",
		"tesla k80|amd mi300x", "nvidia|tesla|amd", "x|y|z|V100S-PCIE-32GB",
	};
	gp_catalog cat;
	char names[GP_ARRAY_SIZE(admit_names) + 64][64], list[160];
	int nn = 0, k, a, b, same = 0, yes = 0;
	size_t i;
	gp_job j;

	gp_catalog_init_builtin(&cat);
	for (i = 0; i < GP_ARRAY_SIZE(admit_names); i++)
		snprintf(names[nn++], sizeof(names[0]), "%s", admit_names[i]);
	for (k = 0; k < cat.n; k++)
		snprintf(names[nn++], sizeof(names[0]), "%s", cat.models[k].name);
	for (a = 0; a < nn; a++) {
		CU_ASSERT_EQUAL(gp_catalog_index(&cat, names[a]), ref_index(&cat, names[a]));
		for (b = 0; b < nn; b++) {
			int want = ref_admits(names[a], names[b]);

			same += gp_catalog_admits(names[a], names[b]) == want;
			yes += want;
			CU_ASSERT_EQUAL(gp_catalog_admits(names[a], names[b]), want);
			CU_ASSERT_EQUAL(gp_catalog_name_eq(names[a], names[b]), ref_name_eq(names[a], names[b]));
		}
	}
	CU_ASSERT_EQUAL(same, nn * nn);
	CU_ASSERT(yes > nn); /* not only a name admitting itself */
	gp_job_init(&j);
	for (i = 0; i < GP_ARRAY_SIZE(lists) + (size_t)nn + 2; i++) {
		if (i < GP_ARRAY_SIZE(lists))
			snprintf(list, sizeof(list), "%s", lists[i]);
		else if (i < GP_ARRAY_SIZE(lists) + (size_t)nn)
			snprintf(list, sizeof(list), "%s|%s", names[i - GP_ARRAY_SIZE(lists)], names[(i * 7) % (size_t)nn]);
		else /* 96 characters: the S is cut off, leaving the V100 family */
			snprintf(list, sizeof(list), "%s|V100%91sS", i % 2 ? "x" : "T4", "");
		j.gpu_models = list;
		for (k = 0; k < cat.n; k++)
			CU_ASSERT_EQUAL(gp_job_accepts_model(&j, cat.models[k].name), ref_accepts(list, cat.models[k].name));
	}
	j.gpu_models = list;
	CU_ASSERT_TRUE(gp_job_accepts_model(&j, "V100-SXM2-16GB")); /* by hand: the cut entry */
	gp_catalog_release(&cat);
}

static void register_tests(void)
{
	CU_pSuite s = gp_test_suite("catalog");

	gp_test_add(s, "required models", test_required_models);
	gp_test_add(s, "reference figures", test_reference_figures);
	gp_test_add(s, "lookup rules", test_lookup_rules);
	gp_test_add(s, "put", test_put);
	gp_test_add(s, "admits", test_admits);
	gp_test_add(s, "accepts memo", test_accepts_memo);
	gp_test_add(s, "admits: the same answers as the first rules", test_admits_same);
}

int main(int argc, char **argv)
{
	return gp_test_main(argc, argv, register_tests);
}
