/* Internals of the `nvidia-smi topo -m` reader, shared by the driver
 * (snapshot.c), link tokens (snapshot_tokens.c), the header line
 * (snapshot_header.c) and the matrix rows and NIC legend
 * (snapshot_rows.c). */
#ifndef GPUPLAN_IO_SNAPSHOT_INT_H
#define GPUPLAN_IO_SNAPSHOT_INT_H

#include <stddef.h>

#include "gpuplan/model/topo.h"
#include "gpuplan/util/error.h"

enum { AFF_CPU, AFF_NUMA, AFF_GPUNUMA, AFF_KINDS };

/* "CPU Affinity", "NUMA Affinity", "GPU NUMA ID" */
extern const char *const gp_snap_aff_title[AFF_KINDS];

typedef struct snap_line {
	const char *s;
	int len;
	int no;
} snap_line;

typedef struct snap_dev {
	char name[32];
	int is_gpu;
	int col; /* 1-based column of the title in the header */
} snap_dev;

typedef struct snap_parser {
	const char *file;
	gp_error *err;
	snap_line *lines;
	int nlines;
	snap_dev dev[GP_TOPO_MAX_DEVICES];
	int ndev, ngpus;
	int aff_kind[AFF_KINDS], aff_col[AFF_KINDS], naff;
	int perm[GP_TOPO_MAX_DEVICES]; /* header index -> matrix index */
	int row_line[GP_TOPO_MAX_DEVICES];
	int *cell_line, *cell_col; /* by matrix index, ndev*ndev */
	unsigned flags;
	unsigned opts; /* GP_TOPO_STRICT */
} snap_parser;

/* Sets p->err at line_no:col; returns GP_EINPUT. */
int gp_snap_err(snap_parser *p, int line_no, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/* Length of the link token at s (at most n bytes), 0 if none. */
size_t gp_snap_lex_link(const char *s, size_t n, gp_link *out, unsigned *flags);
/* Length of a known-shaped device name at s: GPU<n>, NIC<n>, mlx5_<n>. */
size_t gp_snap_known_dev(const char *s, size_t n);
/* 1 and fills p when ln is the header; 0 when it is not; GP_EINPUT on a
 * header with bad trailing titles. */
int gp_snap_try_header(snap_parser *p, const snap_line *ln);
/* Header index of the device labelling this row, and the label length;
 * -1 if the line does not start with a known label followed by a cell. */
int gp_snap_row_label(const snap_parser *p, const char *s, size_t n, size_t *lablen);
/* The cells and affinity fields of matrix row h into t. */
int gp_snap_parse_row(snap_parser *p, const snap_line *ln, int h, size_t lablen,
		      gp_topo *t);
/* A "NICn: device" legend line into t's NICs; other lines are left alone. */
int gp_snap_legend_line(snap_parser *p, const snap_line *ln, gp_topo *t);

#endif
