/* Failure inputs of `simulate`: the failure list (`--failures FILE.csv`),
 * the failure-model file that `failures fit` writes and `--failure-model`
 * reads, and the lifetime tables `failures fit` reads (the OLCF Titan GPU
 * residency summary, or any CSV with the same columns). */
#ifndef GPUPLAN_IO_FAILURES_H
#define GPUPLAN_IO_FAILURES_H

#include <stddef.h>
#include <stdint.h>

#include "gpuplan/model/cluster.h"
#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

#define GP_FAIL_MAX_FILE (256u << 20)
#define GP_FAIL_MAX_ROWS 10000000

enum gp_fail_kind { GP_FAIL_NODE = 0, GP_FAIL_GPU, GP_FAIL_LINK, GP_FAIL_KINDS };
const char *gp_fail_kind_name(int kind);

/* One failure: a whole node, one GPU of it, or the node's network link
 * (the node keeps computing but cannot talk to other nodes). */
typedef struct gp_fail_event {
	double time;            /* seconds from trace start */
	double repair_s;        /* seconds until it is back; < 0 never */
	int32_t node;
	int16_t gpu;            /* local GPU index, -1 for node and link */
	uint8_t kind;           /* enum gp_fail_kind */
	uint8_t generated;      /* 0 from a file, 1 from the generator */
	int64_t line;           /* line in its file, 0 when generated */
} gp_fail_event;

typedef struct gp_fail_list {
	gp_fail_event *ev;      /* sorted by (time, line) */
	size_t n, cap;
	char *source;
} gp_fail_list;

void gp_fail_list_init(gp_fail_list *l);
void gp_fail_list_release(gp_fail_list *l);

/* Read a failure list: header `time_s,node,gpu,kind,repair_s` (columns in
 * any order; `#` lines and blank lines skipped); `gpu` empty = the whole
 * node, `kind` node|gpu|link (empty: gpu when a GPU is named, else node),
 * `repair_s` empty = never back.  Located errors (FILE:LINE:COL,
 * GP_EINPUT) for unknown nodes and GPUs, negative or non-finite numbers,
 * a kind that contradicts the gpu column. */
int gp_fail_csv_load(const char *path, const gp_cluster *c, gp_fail_list *out,
		     gp_error *err);
int gp_fail_csv_parse(const char *text, size_t len, const char *filename,
		      const gp_cluster *c, gp_fail_list *out, gp_error *err);

/* ---- failure model files ---- */

/* A fitted time-to-failure distribution per unit (GPU or node): Weibull
 * with shape k and scale l; mean = l Gamma(1 + 1/k). */
typedef struct gp_fail_model {
	int unit;               /* GP_FAIL_GPU or GP_FAIL_NODE */
	double shape;
	double scale_h;
	double mtbf_h;
	char batch[32];         /* which group of the source it describes */
	char source[256];
	size_t units, failures;
} gp_fail_model;

/* Render as the YAML `failures fit` writes (a `failure_model:` map). */
void gp_fail_model_format(const gp_fail_model *m, gp_sbuf *out);
/* Read one; located errors for unknown keys and values out of range. */
int gp_fail_model_load(const char *path, gp_fail_model *m, gp_error *err);

/* ---- lifetime tables ---- */

/* Per-unit lifetimes: the Titan summary (`gc_summary_loc.csv`: columns
 * time, dead, batch) or any CSV naming a time column (`time` or `time_s`,
 * seconds), a failure column (`dead` or `failed`: TRUE/FALSE, true/false,
 * 1/0) and optionally a group column (`batch` or `group`). */
typedef struct gp_lifetimes {
	double *t;              /* seconds in service */
	unsigned char *failed;
	int *group;             /* index into groups, -1 without a group column */
	size_t n, cap;
	char **groups;          /* in order of first appearance */
	int ngroups;
	size_t skipped;         /* rows with a zero lifetime (no exposure) */
	char *source;
} gp_lifetimes;

void gp_lifetimes_init(gp_lifetimes *l);
void gp_lifetimes_release(gp_lifetimes *l);
int gp_lifetimes_load(const char *path, gp_lifetimes *out, gp_error *err);

#endif
