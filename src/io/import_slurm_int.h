/* Internals shared by the Slurm readers: the key=value lexer and its
 * helpers (import_slurm.c), GRES strings (import_slurm_gres.c), and the
 * readers of each kind of Slurm text (import_slurm_scontrol.c,
 * import_slurm_conf.c, import_slurm_sinfo.c). */
#ifndef GPUPLAN_IO_IMPORT_SLURM_INT_H
#define GPUPLAN_IO_IMPORT_SLURM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "import_int.h"

/* ---- key=value tokens (import_slurm.c) ---- */

typedef struct slurm_tok {
	const char *k, *v;
	size_t kl, vl;
	int line, kcol, vcol;
} slurm_tok;

typedef struct slurm_lexer {
	const char *s, *end, *p;
	int line;
	const char *bol;        /* start of the current line */
	int comments;           /* '#' starts a comment (config files) */
} slurm_lexer;

void gp_slurm_lex_init(slurm_lexer *x, const char *s, size_t len, int comments);
/* Next token on the current line (0 at end of line, -1 at end of text,
 * after which gp_slurm_lex_next_line must be called). */
int gp_slurm_lex_tok(slurm_lexer *x, slurm_tok *t);
/* Skip to the start of the next line; 0 at end of text. */
int gp_slurm_lex_next_line(slurm_lexer *x);
/* The next token, across line ends; 0 at the end of the text. */
int gp_slurm_lex_next(slurm_lexer *x, slurm_tok *t);
int gp_slurm_keq(const slurm_tok *t, const char *key);
int gp_slurm_tok_err(const char *file, const slurm_tok *t, int at_key, gp_error *err,
		     const char *fmt, const char *what);
/* A whole non-negative integer value. */
int gp_slurm_tok_long(const char *file, const slurm_tok *t, long max, long *out,
		      gp_error *err);
/* Empty, "(null)", "N/A" or "none". */
int gp_slurm_is_null(const char *v, size_t n);
/* Drop the double quotes around a value. */
void gp_slurm_unquote(slurm_tok *t);
/* Add name[0..len) to a comma list unless it is there. */
void gp_slurm_add_partition(char **list, const char *name, size_t len);
/* Slurm's state words -> GP_NODE_UP, GP_NODE_DOWN or GP_NODE_DRAINING. */
int gp_slurm_state(const char *v, size_t n);

/* ---- GRES strings (import_slurm_gres.c) ---- */

typedef struct gres_item {
	char name[32], type[96];
	long count;            /* -1 not given */
	int has_idx;           /* IDX given (possibly N/A: none) */
	uint64_t idx;
	int sock_lo, sock_hi;
} gres_item;

#define MAX_GRES 32

/* Whole GPUs of a GRES list: count, type (first), MIG slices, sockets,
 * indices (when every GPU item has them). */
typedef struct gres_sum {
	int gpus, mixed;
	char type[96];
	char mig[256];
	int sock_lo, sock_hi;
	int idx_known;
	uint64_t idx;
	int any_gpu;
} gres_sum;

/* Parse a GRES list at v[0..n); errors located at col0 + offset. */
int gp_slurm_parse_gres(const char *v, size_t n, const char *file, int line, int col0,
			gres_item *items, int *nitems, gp_error *err);
void gp_slurm_sum_gres(const gres_item *it, int n, gres_sum *s);
/* A Gres= (used 0) or GresUsed= (used 1) value onto node n. */
int gp_slurm_apply_gres(gp_inventory *inv, gp_inv_node *n, const slurm_tok *t,
			const char *file, int used, gp_error *err);
/* gres/gpu=N (and gres/gpu:TYPE=N) of a TRES list; -1 when absent. */
long gp_slurm_tres_gpus(const char *v, size_t n, char *type, size_t tsize);

/* ---- the readers, one a kind of text ---- */

int gp_slurm_read_scontrol_node(gp_inventory *inv, const char *text, size_t len,
				const char *file, gp_error *err);
int gp_slurm_read_scontrol_job(gp_inventory *inv, const char *text, size_t len,
			       const char *file, gp_error *err);
int gp_slurm_read_conf(gp_inventory *inv, const char *text, size_t len, const char *file,
		       gp_error *err);
int gp_slurm_read_gres_conf(gp_inventory *inv, const char *text, size_t len,
			    const char *file, gp_error *err);
int gp_slurm_read_sinfo(gp_inventory *inv, const char *text, size_t len, const char *file,
			gp_error *err);

#endif
