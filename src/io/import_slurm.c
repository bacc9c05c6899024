/* Import: Slurm text (scontrol show node/job, slurm.conf, gres.conf,
 * sinfo).  Every value keeps its line and column for errors. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_int.h"

/* ---- key=value tokens ---- */

typedef struct tok {
	const char *k, *v;
	size_t kl, vl;
	int line, kcol, vcol;
} tok;

typedef struct lexer {
	const char *s, *end, *p;
	int line;
	const char *bol;        /* start of the current line */
	int comments;           /* '#' starts a comment (config files) */
} lexer;

static void lex_init(lexer *x, const char *s, size_t len, int comments)
{
	x->s = x->p = x->bol = s;
	x->end = s + len;
	x->line = 1;
	x->comments = comments;
}

/* Next token on the current line (0 at end of line, -1 at end of text,
 * after which lex_next_line must be called). */
static int lex_tok(lexer *x, tok *t)
{
	const char *p = x->p, *w;

	while (p < x->end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	if (p >= x->end || *p == '\n' || (x->comments && *p == '#')) {
		x->p = p;
		return p >= x->end ? -1 : 0;
	}
	w = p;
	if (x->comments) {
		/* quoted values: Key="a b" */
		int q = 0;

		while (p < x->end && *p != '\n' && (q || (*p != ' ' && *p != '\t' && *p != '\r'))) {
			if (*p == '"')
				q = !q;
			p++;
		}
	} else {
		while (p < x->end && *p != '\n' && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
	}
	t->line = x->line;
	t->kcol = (int)(w - x->bol) + 1;
	t->k = w;
	{
		const char *eq = memchr(w, '=', (size_t)(p - w));

		if (eq) {
			t->kl = (size_t)(eq - w);
			t->v = eq + 1;
			t->vl = (size_t)(p - eq - 1);
			t->vcol = t->kcol + (int)t->kl + 1;
		} else {
			t->kl = 0;
			t->v = w;
			t->vl = (size_t)(p - w);
			t->vcol = t->kcol;
		}
	}
	x->p = p;
	return 1;
}

/* Skip to the start of the next line; 0 at end of text. */
static int lex_next_line(lexer *x)
{
	const char *e = memchr(x->p, '\n', (size_t)(x->end - x->p));

	if (!e) {
		x->p = x->end;
		return 0;
	}
	x->p = x->bol = e + 1;
	x->line++;
	return x->p < x->end;
}

static int keq(const tok *t, const char *key)
{
	return t->kl == strlen(key) && !strncasecmp(t->k, key, t->kl);
}

static int tok_err(const char *file, const tok *t, int at_key, gp_error *err, const char *fmt,
		   const char *what)
{
	return gp_error_set(err, GP_EINPUT, file, t->line, at_key ? t->kcol : t->vcol, fmt,
			    what);
}

/* A whole non-negative integer value. */
static int tok_long(const char *file, const tok *t, long max, long *out, gp_error *err)
{
	char buf[32];

	if (t->vl == 0 || t->vl >= sizeof(buf))
		goto bad;
	memcpy(buf, t->v, t->vl);
	buf[t->vl] = '\0';
	if (gp_parse_long(buf, 0, max, out) == 0)
		return GP_OK;
bad:
	{
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)t->kl, t->k);
		return gp_error_set(err, GP_EINPUT, file, t->line, t->vcol,
				    "%s: expected a whole number, found '%.*s'", key,
				    (int)(t->vl > 40 ? 40 : t->vl), t->v);
	}
}

static int is_null_val(const char *v, size_t n)
{
	return n == 0 || (n == 6 && !memcmp(v, "(null)", 6)) || (n == 3 && !memcmp(v, "N/A", 3)) ||
	       (n == 4 && !strncasecmp(v, "none", 4));
}

/* ---- GRES strings: gpu:a100:4(S:0-1),gpu:1(IDX:0-1,3),mps:400 ---- */

typedef struct gres_item {
	char name[32], type[96];
	long count;            /* -1 not given */
	int has_idx;           /* IDX given (possibly N/A: none) */
	uint64_t idx;
	int sock_lo, sock_hi;
} gres_item;

#define MAX_GRES 32

static int is_mig_type(const char *t)
{
	/* "1g.10gb", "a100_3g.20gb", "mig-2g.20gb" */
	const char *p = strstr(t, "g.");

	return p && p > t && isdigit((unsigned char)p[-1]) && strstr(p, "gb");
}

/* Parse a GRES list at v[0..n); errors located at col0 + offset. */
static int parse_gres(const char *v, size_t n, const char *file, int line, int col0,
		      gres_item *items, int *nitems, gp_error *err)
{
	size_t p = 0;

	*nitems = 0;
	if (is_null_val(v, n))
		return GP_OK;
	while (p < n) {
		size_t s = p, e, paren;
		int depth = 0, nf = 0;
		const char *f[8];
		size_t fl[8];
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
		{
			size_t q = s, fs = s;

			for (q = s; q <= paren; q++)
				if (q == paren || v[q] == ':') {
					if (nf < 8) {
						f[nf] = v + fs;
						fl[nf] = q - fs;
						nf++;
					}
					fs = q + 1;
				}
		}
		if (fl[0] == 0 || fl[0] >= sizeof(it->name))
			return gp_error_set(err, GP_EINPUT, file, line, col0 + (int)s,
					    "GRES: bad name in '%.*s'", (int)(e - s), v + s);
		memcpy(it->name, f[0], fl[0]);
		{
			int last = nf - 1, i;
			size_t tl = 0;

			if (last >= 1 && fl[last] > 0 && isdigit((unsigned char)f[last][0])) {
				char num[32], *endp;
				double d;

				if (fl[last] >= sizeof(num))
					return gp_error_set(err, GP_EINPUT, file, line,
							    col0 + (int)(f[last] - v), "GRES: bad count");
				memcpy(num, f[last], fl[last]);
				num[fl[last]] = '\0';
				d = strtod(num, &endp);
				/* K, M, G suffixes only for countable non-GPU GRES */
				if (*endp && !strcmp(it->name, "gpu"))
					return gp_error_set(err, GP_EINPUT, file, line,
							    col0 + (int)(f[last] - v),
							    "GRES: bad GPU count '%s'", num);
				it->count = (long)d;
				last--;
			} else if (!strcmp(it->name, "gpu") && last >= 1 &&
				   !(fl[last] == 6 && !memcmp(f[last], "(null)", 6)) &&
				   paren == e) {
				/* "gpu:a100" without a count and without detail */
				return gp_error_set(err, GP_EINPUT, file, line,
						    col0 + (int)(f[last] - v),
						    "GRES: 'gpu:%.*s' has no count", (int)fl[last],
						    f[last]);
			} else {
				last = nf - 1;
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
		}
		/* details: (S:0-1) (IDX:0-1,3) (IDX:N/A) (CNT:1) */
		while (paren < e && v[paren] == '(') {
			size_t close = paren + 1, body;

			while (close < e && v[close] != ')')
				close++;
			if (close >= e)
				return gp_error_set(err, GP_EINPUT, file, line, col0 + (int)paren,
						    "GRES: '(' without ')'");
			body = paren + 1;
			if (close - body > 4 && !memcmp(v + body, "IDX:", 4)) {
				int *ids = NULL, nid = 0, i;

				it->has_idx = 1;
				if (!(close - body == 7 && !memcmp(v + body + 4, "N/A", 3))) {
					if (gp_cpulist_parse(v + body + 4, close - body - 4, &ids, &nid))
						return gp_error_set(err, GP_EINPUT, file, line,
								    col0 + (int)body + 4,
								    "GRES: bad index list '%.*s'",
								    (int)(close - body - 4), v + body + 4);
					for (i = 0; i < nid; i++) {
						if (ids[i] >= 64) {
							free(ids);
							return gp_error_set(err, GP_EINPUT, file, line,
									    col0 + (int)body + 4,
									    "GRES: GPU index %d too large",
									    ids[i]);
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
					return gp_error_set(err, GP_EINPUT, file, line,
							    col0 + (int)body + 2,
							    "GRES: bad socket list '%.*s'",
							    (int)(close - body - 2), v + body + 2);
				}
				it->sock_lo = ids[0];
				it->sock_hi = ids[nid - 1];
				free(ids);
			} else if (close - body > 4 && !memcmp(v + body, "CNT:", 4)) {
				it->count = strtol(v + body + 4, NULL, 10);
			}
			paren = close + 1;
		}
		if (paren != e)
			return gp_error_set(err, GP_EINPUT, file, line, col0 + (int)paren,
					    "GRES: unexpected text '%.*s'", (int)(e - paren), v + paren);
		if (it->has_idx && it->count < 0)
			it->count = __builtin_popcountll(it->idx);
	}
	return GP_OK;
}

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

static void sum_gres(const gres_item *it, int n, gres_sum *s)
{
	int i, idx_all = 1;

	memset(s, 0, sizeof(*s));
	s->sock_lo = s->sock_hi = -1;
	for (i = 0; i < n; i++) {
		if (strcmp(it[i].name, "gpu"))
			continue;
		s->any_gpu = 1;
		if (it[i].type[0] && is_mig_type(it[i].type)) {
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

/* ---- node states ---- */

/* Slurm's state words (scontrol long, sinfo short, '+' flags, sinfo
 * suffixes) -> up, down or draining. */
static int slurm_state(const char *v, size_t n)
{
	static const char *const down[] = {
		"DOWN", "FAIL", "FAILING", "FUTURE", "FUTR", "UNKNOWN", "UNK", "INVAL",
		"NOT_RESPONDING", "NO_RESPOND", "POWER_DOWN", "POWERING_DOWN", "POWERED_DOWN",
		"POW_DN", NULL
	};
	static const char *const drain[] = {
		"DRAIN", "DRAINED", "DRAINING", "DRNG", "MAINT", "MAINTENANCE", "REBOOT_ISSUED",
		"REBOOT_REQUESTED", "REBOOT", "RESERVED", "RESV", "PLANNED", "PLND", NULL
	};
	int st = GP_NODE_UP;
	size_t p = 0;

	while (p < n) {
		size_t s = p, e;
		int i;

		while (p < n && v[p] != '+')
			p++;
		e = p++;
		/* sinfo suffixes: * not responding, ~ powered off, # powering up,
		 * ! powering down, % powering down, $ maintenance, @ reboot, ^ ... */
		while (e > s && strchr("*~#!%$@^-", v[e - 1])) {
			if (v[e - 1] == '*')
				st = GP_NODE_DOWN;
			else if ((v[e - 1] == '$' || v[e - 1] == '@') && st == GP_NODE_UP)
				st = GP_NODE_DRAINING;
			e--;
		}
		for (i = 0; down[i]; i++)
			if (e - s == strlen(down[i]) && !strncasecmp(v + s, down[i], e - s))
				st = GP_NODE_DOWN;
		for (i = 0; drain[i]; i++)
			if (e - s == strlen(drain[i]) && !strncasecmp(v + s, drain[i], e - s) &&
			    st == GP_NODE_UP)
				st = GP_NODE_DRAINING;
	}
	return st;
}

/* ---- scontrol show node ---- */

typedef struct node_rec {
	gp_inv_node *n;
	int has_used, cfg_gpu, alloc_gpu_seen, state_alloc, state_idle;
	long alloc_gpus;
	int line;
} node_rec;

static void node_finish(gp_inventory *inv, const char *file, node_rec *r)
{
	gp_inv_node *n = r->n;

	if (!n)
		return;
	if (n->ngpus < 0)
		n->ngpus = 0;
	if (!r->has_used) {
		if (r->alloc_gpu_seen) {
			n->used = (int)r->alloc_gpus;
		} else if (r->cfg_gpu) {
			n->used = 0;   /* TRES counts GPUs and none is allocated */
		} else if (n->ngpus > 0) {
			if (r->state_alloc) {
				n->used = n->ngpus;
			} else if (r->state_idle) {
				n->used = 0;
			} else {
				n->used = 0;
				gp_inv_warn(inv, file, r->line,
					    "node '%s': GPU use unknown (no GresUsed, and AllocTRES "
					    "does not count GPUs); taken as free", n->name);
			}
		}
	}
	if (n->used > n->ngpus)
		n->used = n->ngpus;
	r->n = NULL;
}

static int apply_gres(gp_inventory *inv, gp_inv_node *n, const tok *t, const char *file,
		      int used, gp_error *err)
{
	gres_item it[MAX_GRES];
	gres_sum s;
	int ni, rc;

	if ((rc = parse_gres(t->v, t->vl, file, t->line, t->vcol, it, &ni, err)))
		return rc;
	sum_gres(it, ni, &s);
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
	}
	return GP_OK;
}

/* gres/gpu=N (and gres/gpu:TYPE=N) of a TRES list; -1 when absent. */
static long tres_gpus(const char *v, size_t n, char *type, size_t tsize)
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
			total = strtol(eq + 1, NULL, 10);
		else if ((size_t)(eq - (v + s)) > 9 && !memcmp(v + s, "gres/gpu:", 9)) {
			size_t tl = (size_t)(eq - (v + s)) - 9;

			if (typed < 0)
				typed = 0;
			typed += strtol(eq + 1, NULL, 10);
			/* test the type alone: v is not cut after it */
			if (type && !type[0] && tl < tsize) {
				memcpy(type, v + s + 9, tl);
				type[tl] = '\0';
				if (is_mig_type(type))
					type[0] = '\0';
			}
		}
	}
	return total >= 0 ? total : typed;
}

static int read_scontrol_node(gp_inventory *inv, const char *text, size_t len,
			      const char *file, gp_error *err)
{
	lexer x;
	tok t, prev = { 0 };
	node_rec r = { 0 };
	int rc, have_prev = 0, nodes = 0;

	lex_init(&x, text, len, 0);
	for (;;) {
		int k = lex_tok(&x, &t);

		if (k < 0)
			break;
		if (k == 0) {
			if (!lex_next_line(&x))
				break;
			continue;
		}
		if (t.kl == 0) {
			/* a word without '=' continues the previous value
			 * ("OS=Linux 5.15 #1 SMP", "Reason=bad dimm [root@...]") */
			if (!have_prev || !r.n)
				return gp_error_set(err, GP_EINPUT, file, t.line, t.kcol,
						    "expected KEY=VALUE, found '%.*s'",
						    (int)(t.vl > 40 ? 40 : t.vl), t.v);
			if (prev.line == t.line && keq(&prev, "Reason") && r.n->reason) {
				gp_inv_set_str(&r.n->reason, prev.v, (size_t)(t.v + t.vl - prev.v));
				prev.vl = (size_t)(t.v + t.vl - prev.v);
			}
			continue;
		}
		prev = t;
		have_prev = 1;
		if (keq(&t, "NodeName")) {
			node_finish(inv, file, &r);
			if (t.vl == 0)
				return tok_err(file, &t, 0, err, "%s", "NodeName: empty name");
			r.n = gp_inv_node_get(inv, t.v, t.vl, file, t.line, t.kcol);
			r.n->kinds |= 1u << GP_IMPORT_SCONTROL_NODE;
			r.has_used = r.cfg_gpu = r.alloc_gpu_seen = r.state_alloc = r.state_idle = 0;
			r.alloc_gpus = 0;
			r.line = t.line;
			nodes++;
			continue;
		}
		if (!r.n)
			return tok_err(file, &t, 1, err, "%s", "expected 'NodeName=' first");
		if (keq(&t, "CPUTot")) {
			long v;

			if ((rc = tok_long(file, &t, GP_TOPO_MAX_CPUS, &v, err)))
				return rc;
			r.n->cpus = (int)v;
		} else if (keq(&t, "CPUAlloc")) {
			long v;

			if ((rc = tok_long(file, &t, GP_TOPO_MAX_CPUS, &v, err)))
				return rc;
			r.n->cpu_alloc = (int)v;
		} else if (keq(&t, "Sockets") || keq(&t, "CoresPerSocket") || keq(&t, "ThreadsPerCore")) {
			long v;

			if ((rc = tok_long(file, &t, GP_TOPO_MAX_CPUS, &v, err)))
				return rc;
			if (keq(&t, "Sockets"))
				r.n->sockets = (int)v;
			else if (keq(&t, "CoresPerSocket"))
				r.n->cores_per_socket = (int)v;
			else
				r.n->threads_per_core = (int)v;
		} else if (keq(&t, "RealMemory") || keq(&t, "AllocMem")) {
			long v;

			if ((rc = tok_long(file, &t, 1L << 40, &v, err)))
				return rc;
			if (keq(&t, "RealMemory"))
				r.n->mem_mib = v;
			else
				r.n->mem_alloc_mib = v;
		} else if (keq(&t, "Gres")) {
			if ((rc = apply_gres(inv, r.n, &t, file, 0, err)))
				return rc;
		} else if (keq(&t, "GresUsed")) {
			if ((rc = apply_gres(inv, r.n, &t, file, 1, err)))
				return rc;
			r.has_used = 1;
		} else if (keq(&t, "CfgTRES")) {
			char type[96] = "";
			long g = tres_gpus(t.v, t.vl, type, sizeof(type));

			if (g >= 0) {
				r.cfg_gpu = 1;
				if (r.n->ngpus <= 0)
					r.n->ngpus = (int)g;
				if (!r.n->gpu_type && type[0])
					gp_inv_set_str(&r.n->gpu_type, type, strlen(type));
			}
		} else if (keq(&t, "AllocTRES")) {
			long g = tres_gpus(t.v, t.vl, NULL, 0);

			if (g >= 0) {
				r.alloc_gpu_seen = 1;
				r.alloc_gpus = g;
			}
		} else if (keq(&t, "State")) {
			r.n->state = slurm_state(t.v, t.vl);
			r.n->conf_state = 0;
			gp_inv_set_str(&r.n->state_text, t.v, t.vl);
			r.state_alloc = t.vl >= 5 && !strncasecmp(t.v, "ALLOC", 5);
			r.state_idle = t.vl >= 4 && !strncasecmp(t.v, "IDLE", 4);
		} else if (keq(&t, "Reason")) {
			gp_inv_set_str(&r.n->reason, t.v, t.vl);
		} else if (keq(&t, "Partitions")) {
			if (t.vl)
				gp_inv_set_str(&r.n->partitions, t.v, t.vl);
		}
	}
	node_finish(inv, file, &r);
	if (!nodes)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "no 'NodeName=' record");
	return GP_OK;
}

/* ---- scontrol show job -d ---- */

typedef struct job_rec {
	char id[64];
	int line;
	int holds;             /* the job state holds resources */
	long tres_gpus, num_nodes;
	int have_detail;
	const char *nodelist;
	size_t nodelist_len;
	int nodelist_line, nodelist_col;
} job_rec;

typedef struct detail {
	tok nodes, cpus, mem, gres;
	int have_nodes, have_cpus, have_mem, have_gres;
} detail;

static int detail_flush(gp_inventory *inv, const char *file, const job_rec *j, detail *d,
			gp_error *err)
{
	gp_hostlist h;
	gres_item it[MAX_GRES];
	gres_sum s;
	int ni = 0, rc, *cpus = NULL, ncpus = 0;
	int64_t mem = 0;
	size_t i;

	if (!d->have_nodes || !j->holds) {
		memset(d, 0, sizeof(*d));
		return GP_OK;
	}
	gp_hostlist_init(&h);
	if ((rc = gp_hostlist_expand(d->nodes.v, d->nodes.vl, &h, file, d->nodes.line,
				     d->nodes.vcol, err)))
		return rc;
	if (d->have_gres &&
	    (rc = parse_gres(d->gres.v, d->gres.vl, file, d->gres.line, d->gres.vcol, it, &ni, err))) {
		gp_hostlist_release(&h);
		return rc;
	}
	sum_gres(it, ni, &s);
	if (d->have_cpus && d->cpus.vl &&
	    gp_cpulist_parse(d->cpus.v, d->cpus.vl, &cpus, &ncpus)) {
		/* scontrol cuts very long CPU_IDs lists ("...,112,115-") */
		gp_inv_warn(inv, file, d->cpus.line, "job %s: CPU_IDs '%.*s' is not a whole CPU "
			    "list (cut off?); CPUs left out", j->id,
			    (int)(d->cpus.vl > 24 ? 24 : d->cpus.vl),
			    d->cpus.v + (d->cpus.vl > 24 ? d->cpus.vl - 24 : 0));
		cpus = NULL;
		ncpus = 0;
	}
	if (d->have_mem && d->mem.vl) {
		mem = gp_import_mem_mib(d->mem.v, d->mem.vl, 1);
		if (mem < 0) {
			free(cpus);
			gp_hostlist_release(&h);
			return gp_error_set(err, GP_EINPUT, file, d->mem.line, d->mem.vcol,
					    "Mem: expected MiB, found '%.*s'", (int)d->mem.vl, d->mem.v);
		}
	}
	for (i = 0; i < h.n; i++) {
		gp_inv_alloc *a = gp_inv_alloc_add(inv, j->id, h.names[i], file, d->nodes.line);

		a->ngpus = s.gpus;
		a->gpus_known = s.idx_known;
		if (s.idx_known) {
			a->gpus = s.idx;
			a->ngpus = __builtin_popcountll(s.idx);
		}
		if (ncpus) {
			a->cpus = gp_xmalloc((size_t)ncpus * sizeof(int));
			memcpy(a->cpus, cpus, (size_t)ncpus * sizeof(int));
			a->ncpus = ncpus;
		}
		a->mem_mib = mem;
	}
	free(cpus);
	gp_hostlist_release(&h);
	memset(d, 0, sizeof(*d));
	return GP_OK;
}

static int job_finish(gp_inventory *inv, const char *file, job_rec *j, detail *d,
		      gp_error *err)
{
	int rc;

	if (!j->id[0])
		return GP_OK;
	if ((rc = detail_flush(inv, file, j, d, err)))
		return rc;
	if (j->holds && !j->have_detail && j->nodelist && j->tres_gpus > 0) {
		gp_hostlist h;
		size_t i;

		gp_hostlist_init(&h);
		if ((rc = gp_hostlist_expand(j->nodelist, j->nodelist_len, &h, file,
					     j->nodelist_line, j->nodelist_col, err)))
			return rc;
		if (h.n && j->tres_gpus % (long)h.n == 0) {
			for (i = 0; i < h.n; i++) {
				gp_inv_alloc *a = gp_inv_alloc_add(inv, j->id, h.names[i], file, j->line);

				a->ngpus = (int)(j->tres_gpus / (long)h.n);
			}
			gp_inv_warn(inv, file, j->line, "job %s: no per-node detail (run 'scontrol "
				    "show job -d'); GPU indices guessed", j->id);
		} else {
			gp_inv_warn(inv, file, j->line, "job %s: %ld GPUs over %zu node(s) without "
				    "per-node detail; left out", j->id, j->tres_gpus, h.n);
		}
		gp_hostlist_release(&h);
	}
	memset(j, 0, sizeof(*j));
	return GP_OK;
}

static int read_scontrol_job(gp_inventory *inv, const char *text, size_t len,
			     const char *file, gp_error *err)
{
	static const char *const holding[] = {
		"RUNNING", "SUSPENDED", "COMPLETING", "CONFIGURING", "STAGE_OUT", "RESIZING",
		"SIGNALING", NULL
	};
	lexer x;
	tok t;
	job_rec j;
	detail d;
	int rc, jobs = 0;

	memset(&j, 0, sizeof(j));
	memset(&d, 0, sizeof(d));
	lex_init(&x, text, len, 0);
	for (;;) {
		int k = lex_tok(&x, &t);

		if (k < 0)
			break;
		if (k == 0) {
			if (!lex_next_line(&x))
				break;
			continue;
		}
		if (t.kl == 0)
			continue;   /* words of Command=..., Reason=... */
		if (keq(&t, "JobId")) {
			if ((rc = job_finish(inv, file, &j, &d, err)))
				return rc;
			if (t.vl == 0 || t.vl >= sizeof(j.id))
				return tok_err(file, &t, 0, err, "%s", "JobId: bad id");
			memcpy(j.id, t.v, t.vl);
			j.line = t.line;
			jobs++;
			continue;
		}
		if (!j.id[0])
			return tok_err(file, &t, 1, err, "%s", "expected 'JobId=' first");
		if (keq(&t, "JobState")) {
			int i;

			for (i = 0; holding[i]; i++)
				if (t.vl == strlen(holding[i]) && !memcmp(t.v, holding[i], t.vl))
					j.holds = 1;
		} else if (keq(&t, "NodeList")) {
			if (!is_null_val(t.v, t.vl)) {
				j.nodelist = t.v;
				j.nodelist_len = t.vl;
				j.nodelist_line = t.line;
				j.nodelist_col = t.vcol;
			}
		} else if (keq(&t, "TRES") || keq(&t, "AllocTRES")) {
			long g = tres_gpus(t.v, t.vl, NULL, 0);

			if (g > 0)
				j.tres_gpus = g;
		} else if (keq(&t, "Nodes")) {
			if ((rc = detail_flush(inv, file, &j, &d, err)))
				return rc;
			d.nodes = t;
			d.have_nodes = 1;
			j.have_detail = 1;
		} else if (keq(&t, "CPU_IDs")) {
			d.cpus = t;
			d.have_cpus = 1;
		} else if (keq(&t, "Mem") && d.have_nodes) {
			d.mem = t;
			d.have_mem = 1;
		} else if ((keq(&t, "GRES") || keq(&t, "GRES_IDX")) && d.have_nodes) {
			d.gres = t;
			d.have_gres = 1;
		}
	}
	if ((rc = job_finish(inv, file, &j, &d, err)))
		return rc;
	if (!jobs)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "no 'JobId=' record");
	return GP_OK;
}

/* ---- slurm.conf ---- */

/* Add name[0..len) to a comma list unless it is there. */
static void add_partition(char **list, const char *name, size_t len)
{
	const char *p = *list;
	char *q;

	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == len && !memcmp(p, name, len))
			return;
		p = e ? e + 1 : NULL;
	}
	q = *list ? gp_xasprintf("%s,%.*s", *list, (int)len, name) : gp_xstrndup(name, len);
	free(*list);
	*list = q;
}

typedef struct conf_node {
	long cpus, boards, sockets, spb, cores, threads, mem;
	tok gres, state;
	int have_gres, have_state;
} conf_node;

static void unquote(tok *t)
{
	if (t->vl >= 2 && t->v[0] == '"' && t->v[t->vl - 1] == '"') {
		t->v++;
		t->vl -= 2;
		t->vcol++;
	}
}

static int conf_node_line(gp_inventory *inv, lexer *x, const tok *first, conf_node *def,
			  const char *file, gp_error *err)
{
	conf_node c = *def;
	tok t;
	int rc, isdef = first->vl == 7 && !strncasecmp(first->v, "DEFAULT", 7);
	gp_hostlist h;
	size_t i;

	while (lex_tok(x, &t) > 0) {
		long v;

		unquote(&t);
		if (t.kl == 0)
			return tok_err(file, &t, 1, err, "expected KEY=VALUE, found '%s'", "a word");
		if (keq(&t, "CPUs") || keq(&t, "Procs") || keq(&t, "Boards") || keq(&t, "Sockets") ||
		    keq(&t, "SocketsPerBoard") || keq(&t, "CoresPerSocket") ||
		    keq(&t, "ThreadsPerCore") || keq(&t, "RealMemory")) {
			if ((rc = tok_long(file, &t, 1L << 40, &v, err)))
				return rc;
			if (keq(&t, "CPUs") || keq(&t, "Procs"))
				c.cpus = v;
			else if (keq(&t, "Boards"))
				c.boards = v;
			else if (keq(&t, "Sockets"))
				c.sockets = v;
			else if (keq(&t, "SocketsPerBoard"))
				c.spb = v;
			else if (keq(&t, "CoresPerSocket"))
				c.cores = v;
			else if (keq(&t, "ThreadsPerCore"))
				c.threads = v;
			else
				c.mem = v;
		} else if (keq(&t, "Gres")) {
			c.gres = t;
			c.have_gres = 1;
		} else if (keq(&t, "State")) {
			c.state = t;
			c.have_state = 1;
		}
	}
	if (isdef) {
		*def = c;
		return GP_OK;
	}
	gp_hostlist_init(&h);
	if ((rc = gp_hostlist_expand(first->v, first->vl, &h, file, first->line, first->vcol, err)))
		return rc;
	for (i = 0; i < h.n; i++) {
		gp_inv_node *n = gp_inv_node_get(inv, h.names[i], strlen(h.names[i]), file,
						 first->line, first->kcol);
		int from_sc = (n->kinds >> GP_IMPORT_SCONTROL_NODE) & 1;
		long sockets = c.sockets ? c.sockets : c.spb ? c.spb * (c.boards ? c.boards : 1) : 0;

		n->kinds |= 1u << GP_IMPORT_SLURM_CONF;
		if (from_sc)
			continue;   /* scontrol says what is, the file what was meant */
		if (sockets)
			n->sockets = (int)sockets;
		if (c.cores)
			n->cores_per_socket = (int)c.cores;
		if (c.threads)
			n->threads_per_core = (int)c.threads;
		if (c.cpus)
			n->cpus = (int)c.cpus;
		else if (sockets && c.cores)
			n->cpus = (int)(sockets * c.cores * (c.threads ? c.threads : 1));
		if (c.mem)
			n->mem_mib = c.mem;
		if (c.have_gres && (rc = apply_gres(inv, n, &c.gres, file, 0, err))) {
			gp_hostlist_release(&h);
			return rc;
		}
		if (!c.have_gres && n->ngpus < 0 && !n->gres_seen)
			n->ngpus = 0;   /* no Gres= on a NodeName line: no GPUs */
		if (c.have_state) {
			n->state = slurm_state(c.state.v, c.state.vl);
			if (c.state.vl == 7 && !strncasecmp(c.state.v, "UNKNOWN", 7))
				n->state = GP_NODE_UP;
			n->conf_state = 1;
			if (n->state != GP_NODE_UP)
				gp_inv_set_str(&n->state_text, c.state.v, c.state.vl);
		}
	}
	gp_hostlist_release(&h);
	return GP_OK;
}

static int conf_partition_line(gp_inventory *inv, lexer *x, const tok *first,
			       const char *file, gp_error *err)
{
	tok t, nodes = { 0 };
	int have = 0, rc;
	char pname[128];
	gp_hostlist h;
	size_t i;
	const char **missing;
	size_t nmissing = 0;

	snprintf(pname, sizeof(pname), "%.*s", (int)first->vl, first->v);
	while (lex_tok(x, &t) > 0)
		if (keq(&t, "Nodes")) {
			nodes = t;
			have = 1;
		}
	if (!have || !strcasecmp(pname, "DEFAULT"))
		return GP_OK;
	gp_hostlist_init(&h);
	if (nodes.vl == 3 && !strncasecmp(nodes.v, "ALL", 3)) {
		for (i = 0; i < inv->n; i++)
			gp_hostlist_push(&h, inv->nodes[i].name);
	} else if ((rc = gp_hostlist_expand(nodes.v, nodes.vl, &h, file, nodes.line, nodes.vcol,
					    err))) {
		return rc;
	}
	missing = gp_xcalloc(h.n + 1, sizeof(*missing));
	for (i = 0; i < h.n; i++) {
		gp_inv_node *n = gp_inv_node_find(inv, h.names[i]);

		if (!n) {
			missing[nmissing++] = h.names[i];
			continue;
		}
		if ((n->kinds >> GP_IMPORT_SCONTROL_NODE) & 1)
			continue;   /* scontrol's Partitions= is the live view */
		add_partition(&n->partitions, pname, strlen(pname));
	}
	if (nmissing) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		gp_hostlist_compress(missing, nmissing, &sb);
		gp_inv_warn(inv, file, first->line, "partition '%s' names nodes no NodeName line "
			    "defines: %s", pname, sb.buf);
		gp_sbuf_release(&sb);
	}
	free(missing);
	gp_hostlist_release(&h);
	return GP_OK;
}

static int read_slurm_conf(gp_inventory *inv, const char *text, size_t len, const char *file,
			   gp_error *err)
{
	lexer x;
	tok t;
	conf_node def;
	int rc;

	memset(&def, 0, sizeof(def));
	lex_init(&x, text, len, 1);
	do {
		if (lex_tok(&x, &t) <= 0)
			continue;
		unquote(&t);
		if (t.kl == 0)
			return tok_err(file, &t, 1, err, "expected KEY=VALUE, found '%s'", "a word");
		if (keq(&t, "NodeName")) {
			if ((rc = conf_node_line(inv, &x, &t, &def, file, err)))
				return rc;
		} else if (keq(&t, "PartitionName")) {
			if ((rc = conf_partition_line(inv, &x, &t, file, err)))
				return rc;
		} else if (keq(&t, "Include")) {
			gp_inv_warn(inv, file, t.line, "'Include %.*s' not followed; pass that file "
				    "too", (int)t.vl, t.v);
		}
	} while (lex_next_line(&x));
	return GP_OK;
}

/* ---- gres.conf ---- */

static int gres_conf_apply(gp_inventory *inv, gp_inv_node *n, const char *type, size_t tl,
			   int count, const int *cores, int ncores, const char *file, int line)
{
	int i;

	if (!n->gpu_type && tl)
		n->gpu_type = gp_xstrndup(type, tl);
	for (i = 0; i < count; i++) {
		int g = n->gres_seen++;

		if (g >= GP_TOPO_MAX_GPUS)
			break;
		if (ncores) {
			if (!n->cores)
				n->cores = gp_xcalloc(1, sizeof(*n->cores));
			free(n->cores->cpus[g]);
			n->cores->cpus[g] = gp_xmalloc((size_t)ncores * sizeof(int));
			memcpy(n->cores->cpus[g], cores, (size_t)ncores * sizeof(int));
			n->cores->n[g] = ncores;
		}
	}
	if (n->ngpus < 0 || !((n->kinds >> GP_IMPORT_SCONTROL_NODE) & 1 ||
			      (n->kinds >> GP_IMPORT_SLURM_CONF) & 1))
		n->ngpus = n->gres_seen;
	else if (n->gres_seen > n->ngpus)
		gp_inv_warn(inv, file, line, "gres.conf lists %d GPUs for '%s', which has %d",
			    n->gres_seen, n->name, n->ngpus);
	return GP_OK;
}

static int read_gres_conf(gp_inventory *inv, const char *text, size_t len, const char *file,
			  gp_error *err)
{
	lexer x;
	tok t;
	int rc;

	lex_init(&x, text, len, 1);
	do {
		tok nodename = { 0 }, name = { 0 }, type = { 0 }, fil = { 0 }, cores = { 0 }, count = { 0 };
		int have_node = 0, have_name = 0, any = 0, ncores = 0, nfiles = 1;
		int *core_list = NULL;
		long cnt = -1;

		while ((rc = lex_tok(&x, &t)) > 0) {
			unquote(&t);
			any = 1;
			if (t.kl == 0)
				return tok_err(file, &t, 1, err, "expected KEY=VALUE, found '%s'", "a word");
			if (keq(&t, "NodeName")) {
				nodename = t;
				have_node = 1;
			} else if (keq(&t, "Name")) {
				name = t;
				have_name = 1;
			} else if (keq(&t, "Type")) {
				type = t;
			} else if (keq(&t, "File") || keq(&t, "MultipleFiles")) {
				fil = t;
			} else if (keq(&t, "Cores") || keq(&t, "CPUs")) {
				cores = t;
			} else if (keq(&t, "Count")) {
				count = t;
			}
		}
		if (!any || !have_name || name.vl != 3 || strncasecmp(name.v, "gpu", 3))
			continue;
		if (fil.vl) {
			gp_hostlist files;

			gp_hostlist_init(&files);
			if ((rc = gp_hostlist_expand(fil.v, fil.vl, &files, file, fil.line, fil.vcol,
						     err)))
				return rc;
			nfiles = (int)files.n;
			gp_hostlist_release(&files);
		} else if (count.vl) {
			if ((rc = tok_long(file, &count, GP_TOPO_MAX_GPUS, &cnt, err)))
				return rc;
			nfiles = (int)cnt;
		}
		if (cores.vl) {
			const char *cv = cores.v;
			size_t cl = cores.vl;

			if (cl >= 2 && cv[0] == '[' && cv[cl - 1] == ']') {
				cv++;
				cl -= 2;
			}
			if (gp_cpulist_parse(cv, cl, &core_list, &ncores))
				return gp_error_set(err, GP_EINPUT, file, cores.line, cores.vcol,
						    "Cores: bad CPU list '%.*s'", (int)cores.vl, cores.v);
		}
		if (have_node) {
			gp_hostlist h;
			size_t i;

			gp_hostlist_init(&h);
			if ((rc = gp_hostlist_expand(nodename.v, nodename.vl, &h, file, nodename.line,
						     nodename.vcol, err))) {
				free(core_list);
				return rc;
			}
			for (i = 0; i < h.n; i++) {
				gp_inv_node *n = gp_inv_node_get(inv, h.names[i], strlen(h.names[i]),
								 file, nodename.line, nodename.kcol);

				n->kinds |= 1u << GP_IMPORT_GRES_CONF;
				gres_conf_apply(inv, n, type.v, type.vl, nfiles, core_list, ncores,
						file, nodename.line);
			}
			gp_hostlist_release(&h);
		} else {
			if (!inv->has_gres_all) {
				memset(&inv->gres_all, 0, sizeof(inv->gres_all));
				inv->gres_all.ngpus = -1;
				inv->gres_all.name = gp_xstrdup("(every node)");
				inv->has_gres_all = 1;
			}
			gres_conf_apply(inv, &inv->gres_all, type.v, type.vl, nfiles, core_list,
					ncores, file, t.line);
		}
		free(core_list);
	} while (lex_next_line(&x));
	return GP_OK;
}

/* ---- sinfo ---- */

enum { C_NODE, C_GRES, C_USED, C_STATE, C_CPUS, C_AIOT, C_MEM, C_PART, C_SCT, C_SOCK,
       C_CORES, C_THREADS, C_ALLOCMEM, C_COLS };

static int read_sinfo(gp_inventory *inv, const char *text, size_t len, const char *file,
		      gp_error *err)
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
	lexer x;
	tok t, row[64];
	int col_of[C_COLS], ncols = 0, i, rc, rows = 0;

	for (i = 0; i < C_COLS; i++)
		col_of[i] = -1;
	lex_init(&x, text, len, 0);
	/* the header line */
	while ((rc = lex_tok(&x, &t)) == 0 && lex_next_line(&x))
		;
	if (rc < 0)
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "sinfo: no header line");
	do {
		size_t k;

		if (ncols >= 64)
			return gp_error_set(err, GP_EINPUT, file, t.line, t.kcol, "sinfo: too many columns");
		for (k = 0; k < GP_ARRAY_SIZE(heads); k++)
			if (t.vl == strlen(heads[k].head) && !strncasecmp(t.v, heads[k].head, t.vl) &&
			    col_of[heads[k].col] < 0)
				col_of[heads[k].col] = ncols;
		ncols++;
	} while (lex_tok(&x, &t) > 0);
	if (col_of[C_NODE] < 0)
		return gp_error_set(err, GP_EINPUT, file, t.line, 1,
				    "sinfo: the header names no NODELIST or HOSTNAMES column");
	if (col_of[C_GRES] < 0 && col_of[C_USED] < 0)
		return gp_error_set(err, GP_EINPUT, file, t.line, 1,
				    "sinfo: the header names no GRES or GRES_USED column (use "
				    "sinfo -N -O NodeList,Gres,GresUsed,StateLong,...)");
	while (lex_next_line(&x)) {
		int n = 0;
		gp_hostlist h;
		size_t k;

		while (lex_tok(&x, &t) > 0) {
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
		gp_hostlist_init(&h);
		if ((rc = gp_hostlist_expand(row[col_of[C_NODE]].v, row[col_of[C_NODE]].vl, &h, file,
					     row[0].line, row[col_of[C_NODE]].vcol, err)))
			return rc;
		for (k = 0; k < h.n; k++) {
			gp_inv_node *nd = gp_inv_node_get(inv, h.names[k], strlen(h.names[k]), file,
							  row[0].line, row[col_of[C_NODE]].vcol);
			int sc = (nd->kinds >> GP_IMPORT_SCONTROL_NODE) & 1;

			nd->kinds |= 1u << GP_IMPORT_SINFO;
			if (col_of[C_GRES] >= 0 && !sc &&
			    (rc = apply_gres(inv, nd, &row[col_of[C_GRES]], file, 0, err)))
				goto fail;
			if (col_of[C_USED] >= 0 && !sc &&
			    (rc = apply_gres(inv, nd, &row[col_of[C_USED]], file, 1, err)))
				goto fail;
			if (col_of[C_STATE] >= 0 && !sc) {
				tok *s = &row[col_of[C_STATE]];

				nd->state = slurm_state(s->v, s->vl);
				gp_inv_set_str(&nd->state_text, s->v, s->vl);
			}
			if (col_of[C_PART] >= 0 && !sc) {
				tok *p = &row[col_of[C_PART]];
				size_t pl = p->vl && p->v[p->vl - 1] == '*' ? p->vl - 1 : p->vl;

				add_partition(&nd->partitions, p->v, pl);
			}
			if (col_of[C_CPUS] >= 0 && !sc) {
				tok c = row[col_of[C_CPUS]];
				long v;

				if (c.vl && c.v[c.vl - 1] == '+')
					c.vl--;
				if ((rc = tok_long(file, &c, GP_TOPO_MAX_CPUS, &v, err)))
					goto fail;
				nd->cpus = (int)v;
			}
			if (col_of[C_AIOT] >= 0 && !sc) {
				tok *c = &row[col_of[C_AIOT]];
				long a, i2, o, tt;
				char buf[64];

				snprintf(buf, sizeof(buf), "%.*s", (int)c->vl, c->v);
				if (sscanf(buf, "%ld/%ld/%ld/%ld", &a, &i2, &o, &tt) != 4) {
					rc = gp_error_set(err, GP_EINPUT, file, c->line, c->vcol,
							  "sinfo: CPUS(A/I/O/T) '%s' is not A/I/O/T", buf);
					goto fail;
				}
				nd->cpus = (int)tt;
				nd->cpu_alloc = (int)a;
			}
			if (col_of[C_MEM] >= 0 && !sc) {
				tok c = row[col_of[C_MEM]];
				long v;

				if (c.vl && c.v[c.vl - 1] == '+')
					c.vl--;
				if ((rc = tok_long(file, &c, 1L << 40, &v, err)))
					goto fail;
				nd->mem_mib = v;
			}
			if (col_of[C_SCT] >= 0 && !sc) {
				tok *c = &row[col_of[C_SCT]];
				int s1, c1, t1;
				char buf[64];

				snprintf(buf, sizeof(buf), "%.*s", (int)c->vl, c->v);
				if (sscanf(buf, "%d:%d:%d", &s1, &c1, &t1) != 3) {
					rc = gp_error_set(err, GP_EINPUT, file, c->line, c->vcol,
							  "sinfo: S:C:T '%s' is not sockets:cores:threads",
							  buf);
					goto fail;
				}
				nd->sockets = s1;
				nd->cores_per_socket = c1;
				nd->threads_per_core = t1;
			}
		}
		gp_hostlist_release(&h);
		continue;
fail:
		gp_hostlist_release(&h);
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

int gp_import_slurm(gp_inventory *inv, int kind, const char *text, size_t len,
		    const char *file, gp_error *err)
{
	switch (kind) {
	case GP_IMPORT_SCONTROL_NODE: return read_scontrol_node(inv, text, len, file, err);
	case GP_IMPORT_SCONTROL_JOB: return read_scontrol_job(inv, text, len, file, err);
	case GP_IMPORT_SLURM_CONF: return read_slurm_conf(inv, text, len, file, err);
	case GP_IMPORT_GRES_CONF: return read_gres_conf(inv, text, len, file, err);
	case GP_IMPORT_SINFO: return read_sinfo(inv, text, len, file, err);
	default: return gp_error_set(err, GP_EINPUT, file, 0, 0, "not Slurm output");
	}
}
