/* Internals of gpuplan topo show (cmd_topo_show.c, cmd_topo_node.c). */
#ifndef GPUPLAN_TOPO_SHOW_INT_H
#define GPUPLAN_TOPO_SHOW_INT_H

#include <jansson.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/util.h"

static inline void gp_ts_sb_reset(gp_sbuf *sb)
{
	sb->len = 0;
	sb->buf[0] = '\0';
}

static inline const char *gp_ts_model_name(const gp_cluster *c, int m)
{
	return m >= 0 ? c->catalog.models[m].name : "unknown";
}

/* Node k of c: text on standard output, or the JSON object. */
void gp_topo_node_text(const gp_cluster *c, int k);
json_t *gp_topo_node_json(const gp_cluster *c, int k);

#endif
