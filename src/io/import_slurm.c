/* Import: Slurm text (scontrol show node/job, slurm.conf, gres.conf,
 * sinfo): the key=value lexer the readers share, node states and the
 * dispatcher.  Every value keeps its line and column for errors. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/alloc.h"
#include "gpuplan/util/hostlist.h"
#include "import_slurm_int.h"

/* ---- key=value tokens ---- */

void gp_slurm_lex_init(slurm_lexer *x, const char *s, size_t len, int comments)
{
	x->s = x->p = x->bol = s;
	x->end = s + len;
	x->line = 1;
	x->comments = comments;
}

/* Next token on the current line (0 at end of line, -1 at end of text,
 * after which gp_slurm_lex_next_line must be called). */
int gp_slurm_lex_tok(slurm_lexer *x, slurm_tok *t)
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
int gp_slurm_lex_next_line(slurm_lexer *x)
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

int gp_slurm_lex_next(slurm_lexer *x, slurm_tok *t)
{
	for (;;) {
		int k = gp_slurm_lex_tok(x, t);

		if (k > 0)
			return 1;
		if (k < 0 || !gp_slurm_lex_next_line(x))
			return 0;
	}
}

int gp_slurm_keq(const slurm_tok *t, const char *key)
{
	return t->kl == strlen(key) && !strncasecmp(t->k, key, t->kl);
}

int gp_slurm_tok_err(const char *file, const slurm_tok *t, int at_key, gp_error *err,
		     const char *fmt, const char *what)
{
	return gp_error_set(err, GP_EINPUT, file, t->line, at_key ? t->kcol : t->vcol, fmt,
			    what);
}

/* A whole non-negative integer value. */
int gp_slurm_tok_long(const char *file, const slurm_tok *t, long max, long *out, gp_error *err)
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
				    "%s: expected a whole number in 0..%ld, found '%.*s'", key, max,
				    (int)(t->vl > 40 ? 40 : t->vl), t->v);
	}
}

int gp_slurm_is_null(const char *v, size_t n)
{
	return n == 0 || (n == 6 && !memcmp(v, "(null)", 6)) || (n == 3 && !memcmp(v, "N/A", 3)) ||
	       (n == 4 && !strncasecmp(v, "none", 4));
}

/* Add name[0..len) to a comma list unless it is there. */
void gp_slurm_add_partition(char **list, const char *name, size_t len)
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

void gp_slurm_unquote(slurm_tok *t)
{
	if (t->vl >= 2 && t->v[0] == '"' && t->v[t->vl - 1] == '"') {
		t->v++;
		t->vl -= 2;
		t->vcol++;
	}
}

/* ---- node states ---- */

/* Slurm's state words (scontrol long, sinfo short, '+' flags, sinfo
 * suffixes) -> up, down or draining. */
int gp_slurm_state(const char *v, size_t n)
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

int gp_import_slurm(gp_inventory *inv, int kind, const char *text, size_t len,
		    const char *file, gp_error *err)
{
	switch (kind) {
	case GP_IMPORT_SCONTROL_NODE: return gp_slurm_read_scontrol_node(inv, text, len, file, err);
	case GP_IMPORT_SCONTROL_JOB: return gp_slurm_read_scontrol_job(inv, text, len, file, err);
	case GP_IMPORT_SLURM_CONF: return gp_slurm_read_conf(inv, text, len, file, err);
	case GP_IMPORT_GRES_CONF: return gp_slurm_read_gres_conf(inv, text, len, file, err);
	case GP_IMPORT_SINFO: return gp_slurm_read_sinfo(inv, text, len, file, err);
	default: return gp_error_set(err, GP_EINPUT, file, 0, 0, "not Slurm output");
	}
}
