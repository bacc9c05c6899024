/* Reader for `nvidia-smi topo -m` / `-mp` snapshot text and the small
 * lexers the inline node types of a cluster YAML share with it. */
#ifndef GPUPLAN_IO_SNAPSHOT_H
#define GPUPLAN_IO_SNAPSHOT_H

#include <stddef.h>

#include "gpuplan/model/topo.h"
#include "gpuplan/util/error.h"

/* Parse snapshot text (len bytes, need not be NUL-terminated).  filename
 * is used in errors (FILE:LINE:COL); on failure t is left released.
 *
 * A matrix whose present rows are complete and form a prefix of the
 * header's devices, cut off right after a complete row (end of file, a
 * blank line or the legend follows), is accepted as a partial view: only
 * the devices with a row are kept, GP_TOPO_F_TRUNCATED is set and t->cut
 * says what was dropped.  With GP_TOPO_STRICT it is an error located at
 * the first missing row.  A missing row before a present one (a gap) and a
 * row cut mid-way are always errors. */
enum { GP_TOPO_STRICT = 1u << 0 };

int gp_topo_parse(const char *text, size_t len, const char *filename,
		  gp_topo *t, gp_error *err);
int gp_topo_parse_ex(const char *text, size_t len, const char *filename,
		     unsigned opts, gp_topo *t, gp_error *err);
int gp_topo_load(const char *path, gp_topo *t, gp_error *err);
int gp_topo_load_ex(const char *path, unsigned opts, gp_topo *t, gp_error *err);

/* One line describing a truncated import ("matrix truncated after row
 * GPU3; imported 4 of 16 GPUs and 0 of 10 NICs (dropped GPU4..GPU15,
 * mlx5_0..mlx5_9)") into buf; "" when t is not truncated.  Returns buf. */
const char *gp_topo_cut_describe(const gp_topo *t, char *buf, size_t size);

/* Parse one link cell: X, NV<k> (1..99), PIX, PXB, PHB, NODE, SYS or the
 * old SOC (read as SYS).  Whole string; 0 on success, -1 otherwise. */
int gp_link_parse(const char *tok, gp_link *out);
/* "0-19,40-59", "4,6,8": a sorted, de-duplicated CPU (or NUMA) list,
 * numbers < GP_TOPO_MAX_CPUS.  "" gives an empty list.  Returns 0 or -1
 * (then *out is NULL). */
int gp_cpulist_parse(const char *s, size_t len, int **out, int *n);

/* `nvidia-smi topo -p2p r` (or w, n, a, p): the GPU x GPU matrix of peer
 * access.  *out (ngpus x ngpus, caller frees) gets 1 for OK and X, 0 for
 * NS, CNS, GNS, TNS, DR and U.  The matrix must name GPU0..GPU<ngpus-1>
 * exactly; errors carry FILE:LINE:COL (GP_EINPUT) or GP_EIO. */
int gp_p2p_load(const char *path, int ngpus, uint8_t **out, gp_error *err);

/* Caps for snapshot files. */
#define GP_TOPO_MAX_FILE (1024 * 1024)
#define GP_TOPO_MAX_LINE 16384

#endif
