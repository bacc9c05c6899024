/* nvidia-smi topo -m: matrix rows (cells, affinity fields) and the NIC legend. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"
#include "snapshot_int.h"

/* ---- rows ---- */

/* Header index of the device labelling this row, and the label length;
 * -1 if the line does not start with a known label followed by a cell. */
int gp_snap_row_label(const snap_parser *p, const char *s, size_t n, size_t *lablen)
{
	size_t tl = 0, best = 0;
	int i, hit = -1;
	gp_link l;

	while (tl < n && !is_ws(s[tl]))
		tl++;
	for (i = 0; i < p->ndev; i++) {
		size_t dl = strlen(p->dev[i].name);

		if (dl > tl || memcmp(s, p->dev[i].name, dl) || dl <= best)
			continue;
		/* Exact token, or a label glued to its first cell. */
		if (dl == tl || gp_snap_lex_link(s + dl, tl - dl, &l, NULL)) {
			best = dl;
			hit = i;
		}
	}
	*lablen = best;
	return hit;
}

static int set_field(snap_parser *p, const snap_line *ln, gp_topo_gpu *g, int kind,
		     const char *v, size_t n)
{
	int col = (int)(v - ln->s) + 1, *list = NULL, cnt = 0;
	long num;
	char buf[32];

	if (n == 0 || (n == 3 && !memcmp(v, "N/A", 3))) {
		if (kind != AFF_GPUNUMA)
			p->flags |= GP_TOPO_F_EMPTY_AFFINITY;
		return GP_OK;
	}
	switch (kind) {
	case AFF_CPU:
		if (gp_cpulist_parse(v, n, &list, &cnt))
			return gp_snap_err(p, ln->no, col,
					   "bad CPU affinity '%.*s' (expected a list such as 0-19,40-59)",
					   (int)(n > 40 ? 40 : n), v);
		free(g->cpus);
		g->cpus = list;
		g->ncpus = cnt;
		return GP_OK;
	case AFF_NUMA:
		if (gp_cpulist_parse(v, n, &list, &cnt))
			return gp_snap_err(p, ln->no, col,
					   "bad NUMA affinity '%.*s' (expected a node number or list)",
					   (int)(n > 40 ? 40 : n), v);
		free(list);
		if (cnt > 1)
			p->flags |= GP_TOPO_F_NUMA_LIST;
		/* The first node listed is the CPU-attached one ("0,2-17"). */
		for (num = 0; n && isdigit((unsigned char)*v); v++, n--)
			num = num * 10 + (*v - '0');
		g->numa = (int)num;
		return GP_OK;
	default:
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, v, n);
		buf[n] = '\0';
		if (gp_parse_long(buf, 0, GP_TOPO_MAX_CPUS - 1, &num))
			return gp_snap_err(p, ln->no, col, "bad GPU NUMA ID '%s'", buf);
		g->gpu_numa_id = (int)num;
		return GP_OK;
	}
}

static int is_na_or_empty(const char *v, size_t n)
{
	return n == 0 || (n == 3 && !memcmp(v, "N/A", 3));
}

/* Space-aligned output is nvidia-smi's tab output expanded to 8-column
 * stops (counted from the row label), so the gap before each field tells
 * how many tabs, hence how many empty fields, were there.  Rewrites the
 * field list with those empty fields (keeping the first two, dropping
 * later padding as in tab mode); returns -1 when a field is off the tab
 * stops. */
static int reconstruct_tabs(const snap_line *ln, const char *s, int label_off,
			    const char **fv, size_t *fl, int *nf)
{
	const char *nv[16] = { 0 };
	size_t nl[16] = { 0 };
	int i, n = 0, shift = label_off % 8;
	long e = s - ln->s;

	for (i = 0; i < *nf; i++) {
		long st = fv[i] - ln->s, pos = e;
		int tabs = 0, k;

		while (pos < st) {
			pos = ((pos - shift) / 8 + 1) * 8 + shift;
			tabs++;
		}
		if (pos != st || (tabs == 0 && i > 0))
			return -1;
		for (k = 0; k < tabs - 1; k++)
			if (n < 2) {
				nv[n] = fv[i];
				nl[n++] = 0;
			}
		if (n == 16)
			return -1;
		nv[n] = fv[i];
		nl[n++] = fl[i];
		e = st + (long)fl[i];
	}
	memcpy(fv, nv, (size_t)n * sizeof(*fv));
	memcpy(fl, nl, (size_t)n * sizeof(*fl));
	*nf = n;
	return 0;
}

/* Affinity fields of a GPU row, starting at s (end of the last cell). */
static int parse_affinity(snap_parser *p, const snap_line *ln, gp_topo_gpu *g,
			  const char *s, int label_off)
{
	const char *end = ln->s + ln->len, *fv[16];
	size_t fl[16];
	int nf = 0, i, j, k, rc, tabs = memchr(s, '\t', (size_t)(end - s)) != NULL;
	gp_link l;

	if (tabs) {
		/* Tab fields: one tab separates the last cell from the first
		 * field; empty fields after NUMA Affinity are padding. */
		const char *q = s;

		while (q < end && *q == ' ')
			q++;
		if (q < end && *q == '\t')
			q++;
		for (;;) {
			const char *a = q, *b;

			while (q < end && *q != '\t')
				q++;
			b = q;
			while (a < b && *a == ' ')
				a++;
			while (b > a && b[-1] == ' ')
				b--;
			if (nf < 2 || b > a) {
				if (nf == (int)GP_ARRAY_SIZE(fv))
					return gp_snap_err(p, ln->no, (int)(a - ln->s) + 1,
							   "too many fields");
				fv[nf] = a;
				fl[nf++] = (size_t)(b - a);
			}
			if (q >= end)
				break;
			q++;
		}
	} else {
		const char *q = s;

		while (q < end) {
			while (q < end && is_ws(*q))
				q++;
			if (q >= end)
				break;
			if (nf == (int)GP_ARRAY_SIZE(fv))
				return gp_snap_err(p, ln->no, (int)(q - ln->s) + 1,
						   "too many fields");
			fv[nf] = q;
			while (q < end && !is_ws(*q))
				q++;
			fl[nf] = (size_t)(q - fv[nf]);
			nf++;
		}
		if (nf != p->naff && !reconstruct_tabs(ln, s, label_off, fv, fl, &nf))
			tabs = 1;
	}
	/* Trailing empty tab fields and surplus N/A fields are noise. */
	while (nf > p->naff && is_na_or_empty(fv[nf - 1], fl[nf - 1])) {
		if (fl[nf - 1])
			p->flags |= GP_TOPO_F_EXTRA_FIELD;
		nf--;
	}
	if (nf > p->naff) {
		const char *x = fv[p->naff];
		size_t xl = fl[p->naff];

		if (gp_snap_lex_link(x, xl, &l, NULL))
			return gp_snap_err(p, ln->no, (int)(x - ln->s) + 1,
					   "more cells in this row than the header's %d columns",
					   p->ndev);
		return gp_snap_err(p, ln->no, (int)(x - ln->s) + 1,
				   "unexpected field '%.*s' after the last header column",
				   (int)(xl > 40 ? 40 : xl), x);
	}
	if (nf == p->naff || tabs) {
		for (i = 0; i < nf; i++)
			if ((rc = set_field(p, ln, g, p->aff_kind[i], fv[i], fl[i])))
				return rc;
		return GP_OK;
	}
	/* Fewer fields than titles (space-aligned output with an empty
	 * field): place each by the nearest title position, in order. */
	for (i = 0, j = 0; i < nf; i++) {
		int col = (int)(fv[i] - ln->s) + 1, bestk = j, bestd = 1 << 30;

		for (k = j; k <= p->naff - (nf - i); k++) {
			int d = abs(col - p->aff_col[k]);

			if (d < bestd) {
				bestd = d;
				bestk = k;
			}
		}
		if ((rc = set_field(p, ln, g, p->aff_kind[bestk], fv[i], fl[i])))
			return rc;
		j = bestk + 1;
	}
	p->flags |= GP_TOPO_F_EMPTY_AFFINITY;
	return GP_OK;
}

int gp_snap_parse_row(snap_parser *p, const snap_line *ln, int h, size_t lablen,
		      gp_topo *t)
{
	const char *s = ln->s, *end = ln->s + ln->len, *q;
	int n = p->ndev, k = 0, r = p->perm[h];
	int tabbed = memchr(s, '\t', (size_t)ln->len) != NULL;
	gp_link l;

	while (s < end && is_ws(*s))
		s++;
	q = s + lablen;
	while (k < n) {
		const char *chunk;
		size_t len;

		while (q < end && is_ws(*q))
			q++;
		if (q >= end)
			return gp_snap_err(p, ln->no, (int)(q - ln->s) + 1,
					   "row '%s' ends after %d of %d cells (truncated row?)",
					   p->dev[h].name, k, n);
		chunk = q;
		while (q < end && !is_ws(*q) && k < n) {
			size_t m = gp_snap_lex_link(q, (size_t)(end - q), &l, &p->flags);
			int c = p->perm[k], col = (int)(q - ln->s) + 1;

			if (!m) {
				if (isdigit((unsigned char)*q))
					return gp_snap_err(p, ln->no, col,
							   "row '%s' has %d cells, expected %d",
							   p->dev[h].name, k, n);
				for (len = 0; chunk + len < end && !is_ws(chunk[len]); len++)
					;
				return gp_snap_err(p, ln->no, (int)(chunk - ln->s) + 1,
						   "unknown link '%.*s' (expected X, NV#, PIX, PXB, PHB, NODE, SYS or SOC)",
						   (int)(len > 20 ? 20 : len), chunk);
			}
			if (q != chunk)
				p->flags |= GP_TOPO_F_GLUED;
			if (!tabbed && abs(col - p->dev[k].col) > 1)
				p->flags |= GP_TOPO_F_MISALIGNED;
			t->links[(size_t)r * (size_t)n + (size_t)c] = l;
			p->cell_line[r * n + c] = ln->no;
			p->cell_col[r * n + c] = col;
			q += m;
			k++;
		}
	}
	if (!p->dev[h].is_gpu) {
		while (q < end && is_ws(*q))
			q++;
		if (q < end) {
			size_t len;

			for (len = 0; q + len < end && !is_ws(q[len]); len++)
				;
			if (gp_snap_lex_link(q, len, &l, NULL))
				return gp_snap_err(p, ln->no, (int)(q - ln->s) + 1,
						   "more cells in row '%s' than the header's %d columns",
						   p->dev[h].name, n);
			return gp_snap_err(p, ln->no, (int)(q - ln->s) + 1,
					   "unexpected text '%.*s' after the cells of NIC row '%s'",
					   (int)(len > 20 ? 20 : len), q, p->dev[h].name);
		}
		return GP_OK;
	}
	return parse_affinity(p, ln, &t->gpus[r], q, (int)(s - ln->s));
}

/* ---- NIC legend ---- */

int gp_snap_legend_line(snap_parser *p, const snap_line *ln, gp_topo *t)
{
	const char *s = ln->s, *end = s + ln->len, *name;
	size_t k, nl;
	int j;

	while (s < end && is_ws(*s))
		s++;
	k = gp_snap_known_dev(s, (size_t)(end - s));
	if (!k || strncmp(s, "NIC", 3) || s + k >= end || s[k] != ':')
		return GP_OK;
	name = s + k + 1;
	while (name < end && is_ws(*name))
		name++;
	for (nl = 0; name + nl < end && !is_ws(name[nl]); nl++)
		;
	if (!nl || name + nl != end)
		return GP_OK; /* not a "NICn: device" snap_line */
	for (j = 0; j < t->nnics; j++) {
		gp_topo_nic *nic = &t->nics[j];

		if (strlen(nic->id) != k || memcmp(nic->id, s, k))
			continue;
		if (nl >= sizeof(nic->device))
			return gp_snap_err(p, ln->no, (int)(name - ln->s) + 1,
					   "NIC device name longer than %zu characters",
					   sizeof(nic->device) - 1);
		if (nic->device[0] && (strlen(nic->device) != nl ||
				       memcmp(nic->device, name, nl)))
			return gp_snap_err(p, ln->no, (int)(name - ln->s) + 1,
					   "NIC legend names '%s' twice, as '%s' and '%.*s'",
					   nic->id, nic->device, (int)nl, name);
		memcpy(nic->device, name, nl);
		nic->device[nl] = '\0';
	}
	return GP_OK;
}
