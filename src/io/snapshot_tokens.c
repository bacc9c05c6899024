/* nvidia-smi topo -m: link tokens (X, NV12, PIX, SYS, ...) and CPU lists. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"
#include "snapshot_int.h"

/* ---- link tokens ---- */

/* Length of the link token at s (at most n bytes), 0 if none.  NV counts
 * take all following digits, so glued cells split unambiguously. */
size_t gp_snap_lex_link(const char *s, size_t n, gp_link *out, unsigned *flags)
{
	static const struct {
		const char *w;
		int level;
	} words[] = {
		{ "PIX", GP_LINK_PIX }, { "PXB", GP_LINK_PXB },
		{ "PHB", GP_LINK_PHB }, { "NODE", GP_LINK_NODE },
		{ "SYS", GP_LINK_SYS }, { "SOC", GP_LINK_SYS },
	};
	size_t i, k;

	if (n >= 1 && s[0] == 'X') {
		out->level = GP_LINK_X;
		out->nvlinks = 0;
		return 1;
	}
	if (n >= 3 && s[0] == 'N' && s[1] == 'V' && isdigit((unsigned char)s[2])) {
		long v = 0;

		for (k = 2; k < n && isdigit((unsigned char)s[k]); k++) {
			v = v * 10 + (s[k] - '0');
			if (v > 99)
				return 0;
		}
		if (v < 1)
			return 0;
		out->level = GP_LINK_NV;
		out->nvlinks = (uint8_t)v;
		return k;
	}
	for (i = 0; i < GP_ARRAY_SIZE(words); i++) {
		size_t wl = strlen(words[i].w);

		if (n >= wl && !memcmp(s, words[i].w, wl)) {
			out->level = (uint8_t)words[i].level;
			out->nvlinks = 0;
			if (flags && !strcmp(words[i].w, "SOC"))
				*flags |= GP_TOPO_F_OLD_SOC;
			return wl;
		}
	}
	return 0;
}

int gp_link_parse(const char *tok, gp_link *out)
{
	gp_link l;
	size_t n = strlen(tok);

	if (n == 0 || gp_snap_lex_link(tok, n, &l, NULL) != n)
		return -1;
	*out = l;
	return 0;
}

/* ---- lists ---- */

int gp_cpulist_parse(const char *s, size_t len, int **out, int *n)
{
	int *v = NULL;
	size_t cap = 0, cnt = 0, i = 0;
	int k, m;

	*out = NULL;
	*n = 0;
	while (i < len) {
		long a = 0, b;
		size_t st = i;

		while (i < len && isdigit((unsigned char)s[i]) && i - st < 6)
			a = a * 10 + (s[i++] - '0');
		if (i == st || a >= GP_TOPO_MAX_CPUS)
			goto bad;
		b = a;
		if (i < len && s[i] == '-') {
			st = ++i;
			b = 0;
			while (i < len && isdigit((unsigned char)s[i]) && i - st < 6)
				b = b * 10 + (s[i++] - '0');
			if (i == st || b >= GP_TOPO_MAX_CPUS || b < a)
				goto bad;
		}
		if (i < len) {
			if (s[i] != ',' || i + 1 == len)
				goto bad;
			i++;
		}
		GP_GROW(v, cap, cnt + (size_t)(b - a + 1));
		for (; a <= b; a++)
			v[cnt++] = (int)a;
		if (cnt > 4 * GP_TOPO_MAX_CPUS)
			goto bad;
	}
	if (cnt) {
		qsort(v, cnt, sizeof(*v), gp_cmp_int);
		for (k = 1, m = 1; k < (int)cnt; k++)
			if (v[k] != v[m - 1])
				v[m++] = v[k];
		cnt = (size_t)m;
	}
	*out = v;
	*n = (int)cnt;
	return 0;
bad:
	free(v);
	return -1;
}
