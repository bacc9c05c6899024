/* Gavel's measured throughput matrix (OSDI'20 artifact,
 * scheduler/simulation_throughputs.json): reading it for `calibrate`, and
 * lookups in the built-in copy for the iteration-time model. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/perf/perf.h"
#include "gpuplan/util/util.h"

#define GAVEL_MAX_BYTES (16u << 20)
#define GAVEL_MAX_ENTRIES 4096

const char *const gp_perf_gavel_gpus[GP_GAVEL_NGPU] = { "K80", "P100", "V100" };

void gp_perf_gavel_init(gp_perf_gavel *g)
{
	memset(g, 0, sizeof(*g));
}

void gp_perf_gavel_release(gp_perf_gavel *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->n; i++)
		free((char *)g->e[i].model);
	free(g->e);
	memset(g, 0, sizeof(*g));
}

/* "('ResNet-18 (batch size 16)', 1)" -> model "ResNet-18", batch 16,
 * scale 1; "('A3C', 1)" -> "A3C", 0, 1.  Returns 0 on success. */
static int parse_key(const char *key, char *model, size_t msize, int *batch, int *scale)
{
	static const char tag[] = " (batch size ";
	const char *q, *end, *b;
	double v;
	size_t n;
	char num[32];

	if (strncmp(key, "('", 2))
		return -1;
	key += 2;
	end = strstr(key, "', ");
	if (!end)
		return -1;
	b = strstr(key, tag);
	*batch = 0;
	if (b && b < end) {
		n = (size_t)(end - (b + sizeof(tag) - 1));
		if (n == 0 || n >= sizeof(num) || end[-1] != ')')
			return -1;
		memcpy(num, b + sizeof(tag) - 1, n - 1);
		num[n - 1] = '\0';
		if (gp_parse_double(num, 1, 1 << 30, &v) || v != (int)v)
			return -1;
		*batch = (int)v;
		n = (size_t)(b - key);
	} else {
		n = (size_t)(end - key);
	}
	if (n == 0 || n >= msize)
		return -1;
	memcpy(model, key, n);
	model[n] = '\0';
	q = end + 3;
	n = strlen(q);
	if (n < 2 || n >= sizeof(num) || q[n - 1] != ')')
		return -1;
	memcpy(num, q, n - 1);
	num[n - 1] = '\0';
	if (gp_parse_double(num, 1, 65536, &v) || v != (int)v)
		return -1;
	*scale = (int)v;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const gp_perf_gavel_entry *x = a, *y = b;
	int c = strcmp(x->model, y->model);

	if (c)
		return c;
	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	return x->scale < y->scale ? -1 : x->scale > y->scale;
}

static gp_perf_gavel_entry *entry_for(gp_perf_gavel *g, const char *model, int batch, int scale)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->e[i].batch == batch && g->e[i].scale == scale && !strcmp(g->e[i].model, model))
			return &g->e[i];
	if (g->n >= GAVEL_MAX_ENTRIES)
		return NULL;
	GP_GROW(g->e, g->cap, g->n + 1);
	memset(&g->e[g->n], 0, sizeof(g->e[g->n]));
	g->e[g->n].model = gp_xstrdup(model);
	g->e[g->n].batch = batch;
	g->e[g->n].scale = scale;
	return &g->e[g->n++];
}

int gp_perf_gavel_load(const char *path, gp_perf_gavel *g, gp_error *err)
{
	static const char *const workers[] = { "k80", "p100", "v100" };
	char *data = NULL;
	size_t len;
	json_t *root;
	json_error_t je;
	int st, w, spread, seen = 0;

	gp_perf_gavel_release(g);
	st = gp_read_file(path, GAVEL_MAX_BYTES, &data, &len, err);
	if (st)
		return st;
	root = json_loadb(data, len, 0, &je);
	free(data);
	if (!root)
		return gp_error_set(err, GP_EINPUT, path, je.line, je.column, "%s", je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return gp_error_set(err, GP_EINPUT, path, 1, 1,
				    "expected an object of worker types (k80, p100, v100, ...)");
	}
	for (w = 0; w < GP_GAVEL_NGPU; w++) {
		for (spread = 0; spread < 2; spread++) {
			char name[32];
			const char *key;
			json_t *jobs = NULL, *val;

			snprintf(name, sizeof(name), "%s%s", workers[w], spread ? "_unconsolidated" : "");
			jobs = json_object_get(root, name);
			if (!jobs)
				continue;
			if (!json_is_object(jobs)) {
				st = gp_error_set(err, GP_EINPUT, path, 0, 0,
						  "worker type '%s' is not an object", name);
				goto out;
			}
			seen++;
			json_object_foreach(jobs, key, val) {
				char model[64];
				int batch, scale;
				json_t *iso = json_is_object(val) ? json_object_get(val, "null") : NULL;
				gp_perf_gavel_entry *e;

				if (parse_key(key, model, sizeof(model), &batch, &scale)) {
					st = gp_error_set(err, GP_EINPUT, path, 0, 0,
							  "%s: bad job key \"%.60s\" (want \"('TYPE', SCALE)\")",
							  name, key);
					goto out;
				}
				if (!iso || json_is_null(iso))
					continue; /* only co-location figures */
				if (!json_is_number(iso) || json_number_value(iso) < 0) {
					st = gp_error_set(err, GP_EINPUT, path, 0, 0,
							  "%s: \"%.60s\": isolated throughput is not a number >= 0",
							  name, key);
					goto out;
				}
				e = entry_for(g, model, batch, scale);
				if (!e) {
					st = gp_error_set(err, GP_EINPUT, path, 0, 0,
							  "more than %d job types", GAVEL_MAX_ENTRIES);
					goto out;
				}
				if (spread)
					e->thr_spread[w] = json_number_value(iso);
				else
					e->thr[w] = json_number_value(iso);
			}
		}
	}
	if (!seen || g->n == 0) {
		st = gp_error_set(err, GP_EINPUT, path, 1, 1,
				  "no k80, p100 or v100 throughputs");
		goto out;
	}
	qsort(g->e, g->n, sizeof(*g->e), cmp_entry);
out:
	json_decref(root);
	if (st)
		gp_perf_gavel_release(g);
	return st;
}

/* Gavel's job types and the catalog models they train (Gavel's workloads:
 * ResNet-18 on CIFAR-10, ResNet-50 on ImageNet, the Transformer on
 * Multi30k). */
static const struct {
	const char *catalog, *gavel;
} gavel_alias[] = {
	{ "resnet18-cifar", "ResNet-18" },
	{ "resnet50", "ResNet-50" },
	{ "transformer", "Transformer" },
};

/* Gavel's model name for a job model name: "resnet18-cifar" -> "ResNet-18",
 * "resnet50" -> "ResNet-50", "transformer" -> "Transformer"; other names
 * as they are. */
static const char *gavel_name(const char *dl_model)
{
	size_t i;

	for (i = 0; i < GP_ARRAY_SIZE(gavel_alias); i++)
		if (!strcasecmp(dl_model, gavel_alias[i].catalog))
			return gavel_alias[i].gavel;
	return dl_model;
}

const gp_perf_gavel_entry *gp_perf_gavel_find(const gp_perf_gavel_entry *t, int n,
					      const char *dl_model, int batch, int scale)
{
	const char *name;
	int i;

	if (!dl_model || !*dl_model)
		return NULL;
	name = gavel_name(dl_model);
	for (i = 0; i < n; i++)
		if (t[i].batch == batch && t[i].scale == scale && !strcasecmp(t[i].model, name))
			return &t[i];
	return NULL;
}

int gp_perf_gavel_gpu(const char *gpu_name)
{
	int i;

	for (i = 0; i < GP_GAVEL_NGPU; i++)
		if (gp_perf_gpu_matches(gpu_name, gp_perf_gavel_gpus[i]))
			return i;
	return -1;
}
