/* Import, Slurm: GRES strings (gpu:a100:4(S:0-1),gpu:1(IDX:0-1,3)) and
 * TRES GPU counts onto inventory nodes. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_slurm_int.h"

/* ---- GRES strings: gpu:a100:4(S:0-1),gpu:1(IDX:0-1,3),mps:400 ---- */

/* A GPU count in Slurm's text, held to 0..2^20 (no node has more), so
 * that sums stay defined whatever the text says. */
#define TRES_MAX (1L << 20)

static long gpu_count(const char *s)
{
	long v = strtol(s, NULL, 10);

	return v < 0 ? 0 : v > TRES_MAX ? TRES_MAX : v;
}

static int gp_slurm_is_mig_type(const char *t)
{
	/* "1g.10gb", "a100_3g.20gb", "mig-2g.20gb" */
	const char *p = strstr(t, "g.");

	return p && p > t && isdigit((unsigned char)p[-1]) && strstr(p, "gb");
}

/* Where a GRES item's text is, for error locations. */
typedef struct gres_at {
	const char *v;         /* the whole GRES list */
	const char *file;
	int line, col0;        /* v[0]'s column */
	gp_error *err;
} gres_at;

/* The head of item v[s..paren): NAME[:TYPE...][:COUNT] (fields split at
 * ':'; "(null)" and "no_consume" are no type). */
static int gres_head(const gres_at *g, size_t s, size_t paren, size_t e, gres_item *it)
{
	const char *v = g->v, *f[8];
	size_t fl[8] = {0}, q, fs = s, tl = 0;
	int nf = 0, last, i;

	for (q = s; q <= paren; q++)
		if (q == paren || v[q] == ':') {
			if (nf < 8) {
				f[nf] = v + fs;
				fl[nf] = q - fs;
				nf++;
			}
			fs = q + 1;
		}
	if (fl[0] == 0 || fl[0] >= sizeof(it->name))
		return gp_error_set(g->err, GP_EINPUT, g->file, g->line, g->col0 + (int)s,
				    "GRES: bad name in '%.*s'", (int)(e - s), v + s);
	memcpy(it->name, f[0], fl[0]);
	last = nf - 1;
	if (last >= 1 && fl[last] > 0 && isdigit((unsigned char)f[last][0])) {
		char num[32], *endp;
		double d;

		if (fl[last] >= sizeof(num))
			return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
					    g->col0 + (int)(f[last] - v), "GRES: bad count");
		memcpy(num, f[last], fl[last]);
		num[fl[last]] = '\0';
		d = strtod(num, &endp);
		/* K, M, G, T, P suffixes (powers of 1024, as Slurm reads them)
		 * only for countable non-GPU GRES */
		if (*endp && !strcmp(it->name, "gpu"))
			return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
					    g->col0 + (int)(f[last] - v),
					    "GRES: bad GPU count '%s'", num);
		if (*endp) {
			const char *units = "KMGTP", *u = endp[1] ? NULL : strchr(units, toupper((unsigned char)*endp));

			if (!u)
				return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
						    g->col0 + (int)(f[last] - v),
						    "GRES: bad count '%s'", num);
			d = ldexp(d, 10 * (int)(u - units + 1));
		}
		/* a count past 2^50 is no count any node has (and would not fit a long) */
		if (!(d >= 0 && d <= 0x1p50) || d != floor(d))
			return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
					    g->col0 + (int)(f[last] - v),
					    "GRES: count '%s' is not a whole number in 0..2^50", num);
		/* a GPU count is summed into an int: past 2^20 it is no node's */
		if (!strcmp(it->name, "gpu") && d > TRES_MAX)
			return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
					    g->col0 + (int)(f[last] - v),
					    "GRES: GPU count '%s' is more than any node has (at most %ld)", num,
					    TRES_MAX);
		it->count = (long)d;
		last--;
	} else if (!strcmp(it->name, "gpu") && last >= 1 &&
		   !(fl[last] == 6 && !memcmp(f[last], "(null)", 6)) &&
		   paren == e) {
		/* "gpu:a100" without a count and without detail */
		return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
				    g->col0 + (int)(f[last] - v),
				    "GRES: 'gpu:%.*s' has no count", (int)fl[last], f[last]);
	}
	for (i = 1; i <= last; i++) {
		if ((fl[i] == 6 && !memcmp(f[i], "(null)", 6)) ||
		    (fl[i] == 10 && !memcmp(f[i], "no_consume", 10)) || fl[i] == 0)
			continue;
		if (tl + fl[i] + 2 >= sizeof(it->type))
			break;
		if (tl)
			it->type[tl++] = ':';
		memcpy(it->type + tl, f[i], fl[i]);
		tl += fl[i];
	}
	return GP_OK;
}

/* The details after the head, v[paren..e): (S:0-1) (IDX:0-1,3) (IDX:N/A)
 * (CNT:1); nothing else may follow. */
static int gres_details(const gres_at *g, size_t paren, size_t e, gres_item *it)
{
	const char *v = g->v;

	while (paren < e && v[paren] == '(') {
		size_t close = paren + 1, body;

		while (close < e && v[close] != ')')
			close++;
		if (close >= e)
			return gp_error_set(g->err, GP_EINPUT, g->file, g->line, g->col0 + (int)paren,
					    "GRES: '(' without ')'");
		body = paren + 1;
		if (close - body > 4 && !memcmp(v + body, "IDX:", 4)) {
			int *ids = NULL, nid = 0, i;

			it->has_idx = 1;
			if (!(close - body == 7 && !memcmp(v + body + 4, "N/A", 3))) {
				if (gp_cpulist_parse(v + body + 4, close - body - 4, &ids, &nid))
					return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
							    g->col0 + (int)body + 4,
							    "GRES: bad index list '%.*s'",
							    (int)(close - body - 4), v + body + 4);
				for (i = 0; i < nid; i++) {
					if (ids[i] >= 64) {
						int bad = ids[i];

						free(ids);
						return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
								    g->col0 + (int)body + 4,
								    "GRES: GPU index %d too large", bad);
					}
					it->idx |= 1ull << ids[i];
				}
				free(ids);
			}
		} else if (close - body > 2 && !memcmp(v + body, "S:", 2)) {
			int *ids = NULL, nid = 0;

			if (gp_cpulist_parse(v + body + 2, close - body - 2, &ids, &nid) ||
			    nid == 0) {
				free(ids);
				return gp_error_set(g->err, GP_EINPUT, g->file, g->line,
						    g->col0 + (int)body + 2,
						    "GRES: bad socket list '%.*s'",
						    (int)(close - body - 2), v + body + 2);
			}
			it->sock_lo = ids[0];
			it->sock_hi = ids[nid - 1];
			free(ids);
		} else if (close - body > 4 && !memcmp(v + body, "CNT:", 4)) {
			it->count = gpu_count(v + body + 4);
		}
		paren = close + 1;
	}
	if (paren != e)
		return gp_error_set(g->err, GP_EINPUT, g->file, g->line, g->col0 + (int)paren,
				    "GRES: unexpected text '%.*s'", (int)(e - paren), v + paren);
	return GP_OK;
}

/* Parse a GRES list at v[0..n); errors located at col0 + offset. */
int gp_slurm_parse_gres(const char *v, size_t n, const char *file, int line, int col0,
			gres_item *items, int *nitems, gp_error *err)
{
	gres_at g = { v, file, line, col0, err };
	size_t p = 0;
	int rc;

	*nitems = 0;
	if (gp_slurm_is_null(v, n))
		return GP_OK;
	while (p < n) {
		size_t s = p, e, paren;
		int depth = 0;
		gres_item *it;

		while (p < n && (depth || v[p] != ',')) {
			if (v[p] == '(')
				depth++;
			else if (v[p] == ')')
				depth--;
			p++;
		}
		e = p;
		if (p < n)
			p++;
		if (e == s)
			return gp_error_set(err, GP_EINPUT, file, line, col0 + (int)s,
					    "GRES: empty item");
		if (*nitems >= MAX_GRES)
			return gp_error_set(err, GP_EINPUT, file, line, col0 + (int)s,
					    "GRES: more than %d items", MAX_GRES);
		it = &items[(*nitems)++];
		memset(it, 0, sizeof(*it));
		it->count = -1;
		it->sock_lo = it->sock_hi = -1;
		/* head fields before '(' split at ':'; "(null)" as a field is
		 * not a parenthesis */
		paren = s;
		while (paren < e && !(v[paren] == '(' && !(e - paren >= 6 && !memcmp(v + paren, "(null)", 6))))
			paren++;
		if ((rc = gres_head(&g, s, paren, e, it)) || (rc = gres_details(&g, paren, e, it)))
			return rc;
		if (it->has_idx && it->count < 0)
			it->count = __builtin_popcountll(it->idx);
	}
	return GP_OK;
}

void gp_slurm_sum_gres(const gres_item *it, int n, gres_sum *s)
{
	int i, idx_all = 1;

	memset(s, 0, sizeof(*s));
	s->sock_lo = s->sock_hi = -1;
	for (i = 0; i < n; i++) {
		if (strcmp(it[i].name, "gpu"))
			continue;
		s->any_gpu = 1;
		if (it[i].type[0] && gp_slurm_is_mig_type(it[i].type)) {
			size_t l = strlen(s->mig);

			snprintf(s->mig + l, sizeof(s->mig) - l, "%s%s=%ld", l ? "," : "",
				 it[i].type, it[i].count < 0 ? 0 : it[i].count);
			continue;
		}
		if (it[i].count > 0)
			s->gpus += (int)it[i].count;
		if (it[i].type[0]) {
			if (!s->type[0])
				snprintf(s->type, sizeof(s->type), "%s", it[i].type);
			else if (strcmp(s->type, it[i].type) && it[i].count > 0)
				s->mixed = 1;
		}
		if (it[i].sock_lo >= 0) {
			if (s->sock_lo < 0 || it[i].sock_lo < s->sock_lo)
				s->sock_lo = it[i].sock_lo;
			if (it[i].sock_hi > s->sock_hi)
				s->sock_hi = it[i].sock_hi;
		}
		if (it[i].has_idx)
			s->idx |= it[i].idx;
		else if (it[i].count != 0)
			idx_all = 0;
	}
	s->idx_known = s->any_gpu && idx_all;
}

int gp_slurm_apply_gres(gp_inventory *inv, gp_inv_node *n, const slurm_tok *t, const char *file,
			int used, gp_error *err)
{
	gres_item it[MAX_GRES];
	gres_sum s;
	int ni, rc;

	if ((rc = gp_slurm_parse_gres(t->v, t->vl, file, t->line, t->vcol, it, &ni, err)))
		return rc;
	gp_slurm_sum_gres(it, ni, &s);
	if (!used) {
		n->ngpus = s.gpus;
		if (s.type[0])
			gp_inv_set_str(&n->gpu_type, s.type, strlen(s.type));
		if (s.mixed && !n->mixed_types) {
			n->mixed_types = 1;
			gp_inv_warn(inv, file, t->line,
				    "node '%s' has GPUs of several types (%.*s); imported as %d x %s",
				    n->name, (int)t->vl, t->v, s.gpus, s.type);
		}
		if (s.mig[0])
			gp_inv_set_str(&n->mig, s.mig, strlen(s.mig));
		n->gpu_sock_lo = s.sock_lo;
		n->gpu_sock_hi = s.sock_hi;
	} else {
		n->used = s.gpus;
		n->used_idx = s.idx_known;
		n->used_mask = s.idx;
		n->used_file = file;
		n->used_line = t->line;
		n->used_col = t->vcol;
	}
	return GP_OK;
}

/* gres/gpu=N (and gres/gpu:TYPE=N) of a TRES list; -1 when absent. */
long gp_slurm_tres_gpus(const char *v, size_t n, char *type, size_t tsize)
{
	size_t p = 0;
	long total = -1, typed = -1;

	while (p < n) {
		size_t s = p, e;
		const char *eq;

		while (p < n && v[p] != ',')
			p++;
		e = p++;
		eq = memchr(v + s, '=', e - s);
		if (!eq)
			continue;
		if ((size_t)(eq - (v + s)) == 8 && !memcmp(v + s, "gres/gpu", 8))
			total = gpu_count(eq + 1);
		else if ((size_t)(eq - (v + s)) > 9 && !memcmp(v + s, "gres/gpu:", 9)) {
			size_t tl = (size_t)(eq - (v + s)) - 9;

			if (typed < 0)
				typed = 0;
			typed += gpu_count(eq + 1);
			if (typed > TRES_MAX)
				typed = TRES_MAX;
			/* test the type alone: v is not cut after it */
			if (type && !type[0] && tl < tsize) {
				memcpy(type, v + s + 9, tl);
				type[tl] = '\0';
				if (gp_slurm_is_mig_type(type))
					type[0] = '\0';
			}
		}
	}
	return total >= 0 ? total : typed;
}
