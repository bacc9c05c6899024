/* nvidia-smi topo -m: the header line (device names, affinity column titles). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"
#include "snapshot_int.h"

/* ---- header ---- */

const char *const gp_snap_aff_title[AFF_KINDS] = {
	"CPU Affinity", "NUMA Affinity", "GPU NUMA ID",
};

/* Length of a known-shaped device name at s: GPU<n>, NIC<n>, mlx5_<n>. */
size_t gp_snap_known_dev(const char *s, size_t n)
{
	static const char *const pre[] = { "GPU", "NIC", "mlx5_" };
	size_t i, k;

	for (i = 0; i < GP_ARRAY_SIZE(pre); i++) {
		size_t pl = strlen(pre[i]);

		if (n > pl && !memcmp(s, pre[i], pl) && isdigit((unsigned char)s[pl])) {
			for (k = pl; k < n && isdigit((unsigned char)s[k]); k++)
				;
			return k;
		}
	}
	return 0;
}

/* A whole token naming some other RDMA device (bnxt_re0, irdma1, ...):
 * a letter, then letters, digits and _ . -, ending in a digit. */
static int is_generic_dev(const char *s, size_t n)
{
	gp_link l;
	size_t i;

	if (n < 2 || n >= 32 || !isalpha((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[n - 1]))
		return 0;
	if (gp_snap_lex_link(s, n, &l, NULL) == n)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.' &&
		    s[i] != '-')
			return 0;
	return 1;
}

static const char *find_mem(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= n; i++)
		if (!memcmp(s + i, w, wl))
			return s + i;
	return NULL;
}

static int add_dev(snap_parser *p, const snap_line *ln, const char *s, size_t n)
{
	snap_dev *d;
	int i;

	if (p->ndev >= GP_TOPO_MAX_DEVICES)
		return gp_snap_err(p, ln->no, (int)(s - ln->s) + 1,
				   "more than %d devices in the header", GP_TOPO_MAX_DEVICES);
	if (n >= sizeof(d->name))
		return gp_snap_err(p, ln->no, (int)(s - ln->s) + 1, "device name too long");
	for (i = 0; i < p->ndev; i++)
		if (strlen(p->dev[i].name) == n && !memcmp(p->dev[i].name, s, n))
			return gp_snap_err(p, ln->no, (int)(s - ln->s) + 1,
					   "duplicate column '%.*s' in the header", (int)n, s);
	d = &p->dev[p->ndev++];
	memcpy(d->name, s, n);
	d->name[n] = '\0';
	d->col = (int)(s - ln->s) + 1;
	d->is_gpu = !strncmp(d->name, "GPU", 3) && isdigit((unsigned char)d->name[3]);
	if (d->is_gpu && ++p->ngpus > GP_TOPO_MAX_GPUS)
		return gp_snap_err(p, ln->no, d->col, "more than %d GPUs in the header",
				   GP_TOPO_MAX_GPUS);
	return GP_OK;
}

/* Split a header token into device names; 0 if it is not made of them. */
static int split_devs(const char *s, size_t n, const char **parts, size_t *lens,
		      int *nparts, int max)
{
	size_t i = 0, k;

	*nparts = 0;
	while (i < n) {
		k = gp_snap_known_dev(s + i, n - i);
		if (!k) {
			if (i == 0 && is_generic_dev(s, n))
				k = n;
			else
				return 0;
		}
		if (*nparts >= max)
			return 0;
		parts[*nparts] = s + i;
		lens[(*nparts)++] = k;
		i += k;
	}
	return 1;
}

/* 1 and fills p when ln is the header; 0 when it is not; GP_EINPUT (as -1
 * after gp_snap_err) on a header with bad trailing titles. */
int gp_snap_try_header(snap_parser *p, const snap_line *ln)
{
	const char *s = ln->s, *aff = s + ln->len, *q;
	const char *parts[GP_TOPO_MAX_DEVICES + 1];
	size_t lens[GP_TOPO_MAX_DEVICES + 1];
	int i, k, np, first = 1, rc;
	size_t n;

	for (i = 0; i < AFF_KINDS; i++) {
		q = find_mem(s, (size_t)ln->len, gp_snap_aff_title[i]);
		if (q && q < aff)
			aff = q;
	}
	/* Devices: every token before the titles. */
	q = s;
	while (q < aff) {
		while (q < aff && is_ws(*q))
			q++;
		if (q >= aff)
			break;
		for (n = 0; q + n < aff && !is_ws(q[n]); n++)
			;
		if (!split_devs(q, n, parts, lens, &np, GP_TOPO_MAX_DEVICES + 1))
			goto not_header;
		if (first && strncmp(parts[0], "GPU", 3))
			goto not_header;
		first = 0;
		q += n;
	}
	if (first)
		goto not_header;
	/* It is the header: record devices, then the titles. */
	p->ndev = p->ngpus = 0;
	for (q = s; q < aff;) {
		while (q < aff && is_ws(*q))
			q++;
		if (q >= aff)
			break;
		for (n = 0; q + n < aff && !is_ws(q[n]); n++)
			;
		split_devs(q, n, parts, lens, &np, GP_TOPO_MAX_DEVICES + 1);
		if (np > 1)
			p->flags |= GP_TOPO_F_GLUED;
		for (k = 0; k < np; k++)
			if ((rc = add_dev(p, ln, parts[k], lens[k])))
				return -1;
		q += n;
	}
	p->naff = 0;
	for (q = aff; q < s + ln->len;) {
		while (q < s + ln->len && is_ws(*q))
			q++;
		if (q >= s + ln->len)
			break;
		for (i = 0; i < AFF_KINDS; i++) {
			size_t tl = strlen(gp_snap_aff_title[i]);

			if ((size_t)(s + ln->len - q) >= tl && !memcmp(q, gp_snap_aff_title[i], tl))
				break;
		}
		if (i == AFF_KINDS) {
			for (n = 0; q + n < s + ln->len && !is_ws(q[n]); n++)
				;
			gp_snap_err(p, ln->no, (int)(q - s) + 1, "unknown header column '%.*s'",
				    (int)n, q);
			return -1;
		}
		for (k = 0; k < p->naff; k++)
			if (p->aff_kind[k] == i) {
				gp_snap_err(p, ln->no, (int)(q - s) + 1,
					    "duplicate header column '%s'", gp_snap_aff_title[i]);
				return -1;
			}
		p->aff_kind[p->naff] = i;
		p->aff_col[p->naff++] = (int)(q - s) + 1;
		q += strlen(gp_snap_aff_title[i]);
	}
	return 1;
not_header:
	return 0;
}
