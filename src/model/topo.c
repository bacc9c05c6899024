/* One node's intra-node topology: names of link levels and quirks, the
 * lifetime of a gp_topo, and the checks and derived fields every source
 * (snapshot reader, inline node types, openb node lists) shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"

static const char *const level_names[GP_LINK_LEVELS] = {
	"X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS",
};

const char *gp_link_level_name(int level)
{
	if (level < 0 || level >= GP_LINK_LEVELS)
		return "?";
	return level_names[level];
}

static const char *const flag_names[GP_TOPO_F_COUNT] = {
	"no-numa-column", "old-soc", "pcie-only", "raw-nic-names",
	"empty-affinity", "crlf", "glued-cells", "extra-field",
	"nic-legend-partial", "no-cpu-column", "numa-list", "text-around",
	"misaligned", "truncated",
};

const char *gp_topo_flag_name(unsigned bit)
{
	unsigned i;

	for (i = 0; i < GP_TOPO_F_COUNT; i++)
		if (bit == 1u << i)
			return flag_names[i];
	return NULL;
}

const char *gp_link_format(gp_link l, char *buf, size_t size)
{
	if (l.level == GP_LINK_NV)
		snprintf(buf, size, "NV%u", (unsigned)l.nvlinks);
	else
		snprintf(buf, size, "%s", gp_link_level_name(l.level));
	return buf;
}

/* ---- gp_topo lifetime ---- */

void gp_topo_init(gp_topo *t)
{
	memset(t, 0, sizeof(*t));
}

void gp_topo_release(gp_topo *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->ngpus && t->gpus; i++)
		free(t->gpus[i].cpus);
	free(t->gpus);
	free(t->nics);
	free(t->links);
	free(t->p2p);
	free(t->source);
	gp_topo_init(t);
}

int gp_topo_alloc(gp_topo *t, int ngpus, int nnics, gp_error *err)
{
	int i, j, n;

	gp_topo_release(t);
	if (ngpus < 1 || ngpus > GP_TOPO_MAX_GPUS)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "%d GPUs: a node type needs 1 to %d", ngpus,
				    GP_TOPO_MAX_GPUS);
	if (nnics < 0 || ngpus + nnics > GP_TOPO_MAX_DEVICES)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "%d devices: more than the %d-device limit",
				    ngpus + nnics, GP_TOPO_MAX_DEVICES);
	n = ngpus + nnics;
	t->ngpus = ngpus;
	t->nnics = nnics;
	t->gpus = gp_xcalloc((size_t)ngpus, sizeof(*t->gpus));
	t->nics = gp_xcalloc(nnics ? (size_t)nnics : 1, sizeof(*t->nics));
	t->links = gp_xcalloc((size_t)n * (size_t)n, sizeof(*t->links));
	for (i = 0; i < ngpus; i++) {
		snprintf(t->gpus[i].id, sizeof(t->gpus[i].id), "GPU%d", i);
		t->gpus[i].numa = -1;
		t->gpus[i].gpu_numa_id = -1;
	}
	for (i = 0; i < nnics; i++) {
		snprintf(t->nics[i].id, sizeof(t->nics[i].id), "NIC%d", i);
		t->nics[i].numa = -1;
		t->nics[i].card = -1;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			t->links[(size_t)i * (size_t)n + (size_t)j].level =
				i == j ? GP_LINK_X : GP_LINK_SYS;
	return GP_OK;
}

static const char *dev_id(const gp_topo *t, int d)
{
	return d < t->ngpus ? t->gpus[d].id : t->nics[d - t->ngpus].id;
}

int gp_topo_check(const gp_topo *t, int *row, int *col, gp_error *err)
{
	int n = t->ngpus + t->nnics, a, b;
	char b1[16], b2[16];

	for (a = 0; a < n; a++) {
		gp_link d = gp_topo_link(t, a, a);

		if (d.level != GP_LINK_X) {
			*row = *col = a;
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "diagonal cell of '%s' is '%s', expected 'X'",
					    dev_id(t, a), gp_link_format(d, b1, sizeof(b1)));
		}
	}
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			gp_link x = gp_topo_link(t, a, b), y = gp_topo_link(t, b, a);

			if (a == b)
				continue;
			if (x.level == GP_LINK_X) {
				*row = a;
				*col = b;
				return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
						    "'X' (self) off the diagonal between '%s' and '%s'",
						    dev_id(t, a), dev_id(t, b));
			}
			if (b < a && (x.level != y.level || x.nvlinks != y.nvlinks)) {
				*row = a;
				*col = b;
				return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
						    "asymmetric matrix: %s->%s is '%s' but %s->%s is '%s'",
						    dev_id(t, a), dev_id(t, b),
						    gp_link_format(x, b1, sizeof(b1)),
						    dev_id(t, b), dev_id(t, a),
						    gp_link_format(y, b2, sizeof(b2)));
			}
		}
	return GP_OK;
}

void gp_topo_finish(gp_topo *t)
{
	int j, g;

	for (j = 0; j < t->nnics; j++) {
		int nic = t->ngpus + j, best = GP_LINK_LEVELS, numa = -1;

		for (g = 0; g < t->ngpus; g++) {
			gp_link l = gp_topo_link(t, g, nic);
			int lv = l.level == GP_LINK_NV ? GP_LINK_PIX : l.level;

			if (lv > GP_LINK_NODE)
				continue;
			if (lv < best) {
				best = lv;
				numa = t->gpus[g].numa;
			} else if (lv == best && numa != t->gpus[g].numa) {
				numa = -1; /* contradicting data: leave unknown */
			}
		}
		t->nics[j].numa = numa;
	}
}
