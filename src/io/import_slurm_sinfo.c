/* Import, Slurm: sinfo tables (default and -o formats). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_slurm_int.h"

/* ---- sinfo ---- */

enum { C_NODE, C_GRES, C_USED, C_STATE, C_CPUS, C_AIOT, C_MEM, C_PART, C_SCT, C_SOCK,
       C_CORES, C_THREADS, C_ALLOCMEM, C_COLS };

/* The header line: which column holds what (col_of[C_*], -1 absent). */
static int read_header(slurm_lexer *x, int *col_of, int *ncols, const char *file, gp_error *err)
{
	static const struct {
		const char *head;
		int col;
	} heads[] = {
		{ "NODELIST", C_NODE }, { "HOSTNAMES", C_NODE }, { "NODE_NAME", C_NODE },
		{ "GRES", C_GRES }, { "GRES_USED", C_USED }, { "STATE", C_STATE },
		{ "CPUS", C_CPUS }, { "CPUS(A/I/O/T)", C_AIOT }, { "MEMORY", C_MEM },
		{ "PARTITION", C_PART }, { "S:C:T", C_SCT }, { "SOCKETS", C_SOCK },
		{ "CORES", C_CORES }, { "THREADS", C_THREADS }, { "ALLOCMEM", C_ALLOCMEM },
	};
	slurm_tok t;
	int i, rc;

	for (i = 0; i < C_COLS; i++)
		col_of[i] = -1;
	while ((rc = gp_slurm_lex_tok(x, &t)) == 0 && gp_slurm_lex_next_line(x))
		;
	if (rc < 0)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "sinfo: no header line");
	do {
		size_t k;

		if (*ncols >= 64)
			return gp_error_set(err, GP_EINPUT, file, t.line, t.kcol, "sinfo: too many columns");
		for (k = 0; k < GP_ARRAY_SIZE(heads); k++)
			if (t.vl == strlen(heads[k].head) && !strncasecmp(t.v, heads[k].head, t.vl) &&
			    col_of[heads[k].col] < 0)
				col_of[heads[k].col] = *ncols;
		(*ncols)++;
	} while (gp_slurm_lex_tok(x, &t) > 0);
	if (col_of[C_NODE] < 0)
		return gp_error_set(err, GP_EINPUT, file, t.line, 1,
				    "sinfo: the header names no NODELIST or HOSTNAMES column");
	if (col_of[C_GRES] < 0 && col_of[C_USED] < 0)
		return gp_error_set(err, GP_EINPUT, file, t.line, 1,
				    "sinfo: the header names no GRES or GRES_USED column (use "
				    "sinfo -N -O NodeList,Gres,GresUsed,StateLong,...)");
	return GP_OK;
}

/* A whole number column; a trailing '+' (sinfo's "at least") is dropped. */
static int col_long(const char *file, slurm_tok c, long max, long *v, gp_error *err)
{
	if (c.vl && c.v[c.vl - 1] == '+')
		c.vl--;
	return gp_slurm_tok_long(file, &c, max, v, err);
}

/* n whole numbers in 0..GP_TOPO_MAX_CPUS separated by sep ("4/60/0/64",
 * "2:32:2"); -1 unless the column is exactly that. */
static int cpu_fields(const slurm_tok *c, char sep, int n, long *out)
{
	char buf[32];
	const char *p = c->v, *e = c->v + c->vl;
	int i;

	for (i = 0; i < n; i++) {
		const char *q = p;

		while (q < e && *q != sep)
			q++;
		if (q - p == 0 || (size_t)(q - p) >= sizeof(buf) || (i < n - 1) == (q == e))
			return -1;
		memcpy(buf, p, (size_t)(q - p));
		buf[q - p] = '\0';
		if (gp_parse_long(buf, 0, GP_TOPO_MAX_CPUS, &out[i]))
			return -1;
		p = q + 1;
	}
	return 0;
}

/* One row's columns onto node nd, unless scontrol show node told of it. */
static int apply_row(gp_inventory *inv, gp_inv_node *nd, slurm_tok *row, const int *col_of,
		     const char *file, gp_error *err)
{
	long v;
	int rc;

	nd->kinds |= 1u << GP_IMPORT_SINFO;
	if ((nd->kinds >> GP_IMPORT_SCONTROL_NODE) & 1)
		return GP_OK;
	if (col_of[C_GRES] >= 0 &&
	    (rc = gp_slurm_apply_gres(inv, nd, &row[col_of[C_GRES]], file, 0, err)))
		return rc;
	if (col_of[C_USED] >= 0 &&
	    (rc = gp_slurm_apply_gres(inv, nd, &row[col_of[C_USED]], file, 1, err)))
		return rc;
	if (col_of[C_STATE] >= 0) {
		slurm_tok *s = &row[col_of[C_STATE]];

		nd->state = gp_slurm_state(s->v, s->vl);
		gp_inv_set_str(&nd->state_text, s->v, s->vl);
	}
	if (col_of[C_PART] >= 0) {
		slurm_tok *p = &row[col_of[C_PART]];
		size_t pl = p->vl && p->v[p->vl - 1] == '*' ? p->vl - 1 : p->vl;

		gp_slurm_add_partition(&nd->partitions, p->v, pl);
	}
	if (col_of[C_CPUS] >= 0) {
		if ((rc = col_long(file, row[col_of[C_CPUS]], GP_TOPO_MAX_CPUS, &v, err)))
			return rc;
		nd->cpus = (int)v;
	}
	if (col_of[C_AIOT] >= 0) {
		slurm_tok *c = &row[col_of[C_AIOT]];
		long aiot[4];

		if (cpu_fields(c, '/', 4, aiot) || aiot[0] > aiot[3])
			return gp_error_set(err, GP_EINPUT, file, c->line, c->vcol,
					    "sinfo: CPUS(A/I/O/T) '%.*s' is not A/I/O/T (whole numbers "
					    "up to %d, allocated at most the total)",
					    (int)(c->vl > 40 ? 40 : c->vl), c->v, GP_TOPO_MAX_CPUS);
		nd->cpus = (int)aiot[3];
		nd->cpu_alloc = (int)aiot[0];
	}
	if (col_of[C_MEM] >= 0) {
		if ((rc = col_long(file, row[col_of[C_MEM]], GP_IMPORT_MAX_MEM_MIB, &v, err)))
			return rc;
		nd->mem_mib = v;
	}
	if (col_of[C_SCT] >= 0) {
		slurm_tok *c = &row[col_of[C_SCT]];
		long sct[3];

		if (cpu_fields(c, ':', 3, sct) || sct[0] * sct[1] * sct[2] > GP_TOPO_MAX_CPUS)
			return gp_error_set(err, GP_EINPUT, file, c->line, c->vcol,
					    "sinfo: S:C:T '%.*s' is not sockets:cores:threads (whole "
					    "numbers, at most %d CPUs in all)",
					    (int)(c->vl > 40 ? 40 : c->vl), c->v, GP_TOPO_MAX_CPUS);
		nd->sockets = (int)sct[0];
		nd->cores_per_socket = (int)sct[1];
		nd->threads_per_core = (int)sct[2];
	}
	return GP_OK;
}

int gp_slurm_read_sinfo(gp_inventory *inv, const char *text, size_t len, const char *file,
			gp_error *err)
{
	slurm_lexer x;
	slurm_tok t, row[64];
	int col_of[C_COLS], ncols = 0, i, rc, rows = 0;

	gp_slurm_lex_init(&x, text, len, 0);
	if ((rc = read_header(&x, col_of, &ncols, file, err)))
		return rc;
	while (gp_slurm_lex_next_line(&x)) {
		const slurm_tok *nl;
		int n = 0;
		gp_hostlist h;
		size_t k;

		while (gp_slurm_lex_tok(&x, &t) > 0) {
			if (n < ncols)
				row[n++] = t;
			else   /* extra words: the last column has spaces */
				row[ncols - 1].vl = (size_t)(t.v + t.vl - row[ncols - 1].v);
		}
		if (n == 0)
			continue;
		if (n < ncols)
			return gp_error_set(err, GP_EINPUT, file, row[0].line,
					    row[n - 1].vcol + (int)row[n - 1].vl,
					    "sinfo: %d column(s), the header has %d", n, ncols);
		rows++;
		nl = &row[col_of[C_NODE]];
		gp_hostlist_init(&h);
		if ((rc = gp_hostlist_expand(nl->v, nl->vl, &h, file, row[0].line, nl->vcol, err)))
			return rc;
		for (k = 0; k < h.n && rc == GP_OK; k++) {
			gp_inv_node *node = gp_inv_node_get(inv, h.names[k], strlen(h.names[k]), file,
							    row[0].line, nl->vcol, err);

			rc = node ? apply_row(inv, node, row, col_of, file, err) : GP_EINPUT;
		}
		gp_hostlist_release(&h);
		if (rc)
			return rc;
	}
	if (!rows)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "sinfo: no rows under the header");
	/* usage and sizes from sinfo are all there is */
	for (i = 0; i < (int)inv->n; i++) {
		gp_inv_node *nd = &inv->nodes[i];

		if (nd->ngpus < 0 && nd->kinds == 1u << GP_IMPORT_SINFO && col_of[C_GRES] >= 0)
			nd->ngpus = 0;
		if (nd->used < 0 && (nd->kinds >> GP_IMPORT_SINFO) & 1 && col_of[C_USED] < 0 &&
		    nd->ngpus > 0 && !((nd->kinds >> GP_IMPORT_SCONTROL_NODE) & 1))
			nd->used = nd->state_text && !strncasecmp(nd->state_text, "alloc", 5) ?
				nd->ngpus : 0;
	}
	return GP_OK;
}
