/* The 'gpu_models' block of a cluster file: models added to the built-in
 * catalog or replacing an entry (part of the cluster loader). */
#include <stdio.h>
#include <string.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/model/catalog.h"
#include "gpuplan/model/cluster.h"
#include "cluster_int.h"

static const char *const model_keys[] = {
	"base", "vendor", "mem_gib", "mem_bw_gbs", "mem_bw_gbyte_s", "fp16_tflops", "fp32_tflops",
	"nvlink_gen", "nvlink_gbs_per_link", "nvlink_gbyte_s_per_link", "nvlink_links",
	"nvlink_nccl_gbs", "nvlink_nccl_gbyte_s",
	"pcie_gen", "pcie_lanes", "tdp_w", "bf16", "efficiency", "alpha_us",
	"overlap", NULL
};

static int opt_double(loader *L, const gp_yaml_node *map, const char *key,
		      const char *owner, double min, double max, double *out)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);

	if (!v)
		return GP_OK;
	return gp_yaml_double(&L->doc, v, gp_cy_what(L, "%s '%s'", owner, key), min,
			      max, out, L->err);
}

static int opt_double_unit(loader *L, const gp_yaml_node *map, const char *key,
			   const char *unit_name, const char *owner, double min, double max,
			   double *out)
{
	const gp_yaml_node *v;
	const char *name;

	if (gp_cy_unit_key(L, map, key, unit_name, owner, &v, &name))
		return GP_EINPUT;
	if (!v)
		return GP_OK;
	return gp_yaml_double(&L->doc, v, gp_cy_what(L, "%s '%s'", owner, name), min, max, out, L->err);
}

static int opt_int(loader *L, const gp_yaml_node *map, const char *key,
		   const char *owner, long min, long max, int *out)
{
	const gp_yaml_node *v = gp_yaml_get(map, key);
	long x;

	if (!v)
		return GP_OK;
	if (gp_yaml_long(&L->doc, v, gp_cy_what(L, "%s '%s'", owner, key), min, max,
			 &x, L->err))
		return GP_EINPUT;
	*out = (int)x;
	return GP_OK;
}

static int load_model(loader *L, const gp_yaml_node *key,
		      const gp_yaml_node *v)
{
	gp_catalog *cat = &L->c->catalog;
	const gp_gpu_model *from = NULL;
	const gp_yaml_node *base = gp_yaml_get(v, "base");
	char owner[96];
	gp_gpu_model m;
	const char *name, *s;

	if (gp_cy_get_name(L, key, "GPU model name", &name))
		return GP_EINPUT;
	if (strlen(name) >= sizeof(m.name))
		return gp_yaml_error(&L->doc, key, L->err,
				     "GPU model name '%s' is longer than %zu characters",
				     name, sizeof(m.name) - 1);
	snprintf(owner, sizeof(owner), "gpu_models.%s", name);
	if (gp_yaml_check_keys(&L->doc, v, owner, model_keys, L->err))
		return GP_EINPUT;
	if (base) {
		if (gp_yaml_str(&L->doc, base, gp_cy_what(L, "%s 'base'", owner), &s, L->err))
			return GP_EINPUT;
		from = gp_catalog_find(cat, s);
		if (!from)
			return gp_yaml_error(&L->doc, base, L->err,
					     "%s: unknown base model '%s'", owner, s);
	} else {
		from = gp_catalog_find(cat, name);
	}
	if (from) {
		m = *from;
	} else {
		memset(&m, 0, sizeof(m));
		m.pcie_gen = 4;
		m.pcie_lanes = 16;
		if (!gp_yaml_get(v, "mem_gib") || !gp_yaml_get(v, "fp16_tflops"))
			return gp_yaml_error(&L->doc, key, L->err,
					     "%s: a new GPU model needs 'mem_gib' and 'fp16_tflops' (or a 'base')",
					     owner);
	}
	snprintf(m.name, sizeof(m.name), "%s", name);
	if (gp_yaml_get(v, "vendor")) {
		if (gp_yaml_str(&L->doc, gp_yaml_get(v, "vendor"),
				gp_cy_what(L, "%s 'vendor'", owner), &s, L->err))
			return GP_EINPUT;
		snprintf(m.vendor, sizeof(m.vendor), "%s", s);
	}
	if (opt_double(L, v, "mem_gib", owner, 0.001, 1e5, &m.mem_gib) ||
	    opt_double_unit(L, v, "mem_bw_gbs", "mem_bw_gbyte_s", owner, 0, 1e6, &m.mem_bw_gbs) ||
	    opt_double(L, v, "fp16_tflops", owner, 0.001, 1e6, &m.fp16_tflops) ||
	    opt_double(L, v, "fp32_tflops", owner, 0, 1e6, &m.fp32_tflops) ||
	    opt_int(L, v, "nvlink_gen", owner, 0, 9, &m.nvlink_gen) ||
	    opt_double_unit(L, v, "nvlink_gbs_per_link", "nvlink_gbyte_s_per_link", owner, 0, 1e4,
			    &m.nvlink_gbs_per_link) ||
	    opt_int(L, v, "nvlink_links", owner, 0, 64, &m.nvlink_links) ||
	    opt_double_unit(L, v, "nvlink_nccl_gbs", "nvlink_nccl_gbyte_s", owner, 0, 1e4,
			    &m.nvlink_nccl_gbs) ||
	    opt_int(L, v, "pcie_gen", owner, 1, 7, &m.pcie_gen) ||
	    opt_int(L, v, "pcie_lanes", owner, 1, 32, &m.pcie_lanes) ||
	    opt_int(L, v, "tdp_w", owner, 0, 100000, &m.tdp_w) ||
	    opt_double(L, v, "efficiency", owner, 0, 1, &m.efficiency) ||
	    opt_double(L, v, "alpha_us", owner, 0, 1e6, &m.alpha_us) ||
	    opt_double(L, v, "overlap", owner, 0, 1, &m.overlap))
		return GP_EINPUT;
	if (gp_yaml_get(v, "bf16") &&
	    gp_yaml_bool(&L->doc, gp_yaml_get(v, "bf16"),
			 gp_cy_what(L, "%s 'bf16'", owner), &m.bf16, L->err))
		return GP_EINPUT;
	gp_catalog_put(cat, &m);
	return GP_OK;
}

int gp_cy_load_models(loader *L, const gp_yaml_node *map)
{
	size_t i;

	if (gp_yaml_expect(&L->doc, map, GP_YAML_MAP, "'gpu_models'", L->err))
		return GP_EINPUT;
	for (i = 0; i < map->n; i++)
		if (load_model(L, map->keys[i], map->items[i]))
			return GP_EINPUT;
	return GP_OK;
}
