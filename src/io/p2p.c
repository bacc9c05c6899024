/* `nvidia-smi topo -p2p r` snapshots: which GPU pairs may use peer access
 * over PCIe.  The perf model reads them instead of guessing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/util/util.h"

/* Next whitespace-separated token of line [*p, end); NULL at the end. */
static const char *token(const char **p, const char *end, size_t *len)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s >= end) {
		*p = s;
		return NULL;
	}
	*p = s;
	while (*p < end && **p != ' ' && **p != '\t' && **p != '\r')
		(*p)++;
	*len = (size_t)(*p - s);
	return s;
}

static int gpu_index(const char *s, size_t len)
{
	long v = 0;
	size_t i;

	if (len < 4 || len > 6 || strncmp(s, "GPU", 3))
		return -1;
	for (i = 3; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return (int)v;
}

int gp_p2p_load(const char *path, int ngpus, uint8_t **out, gp_error *err)
{
	char *data = NULL;
	size_t len = 0;
	const char *line, *end;
	int lineno = 0, cols = 0, rows = 0, st;
	uint8_t *m;
	unsigned char seen[GP_TOPO_MAX_GPUS] = { 0 };

	*out = NULL;
	if (ngpus < 1 || ngpus > GP_TOPO_MAX_GPUS)
		return gp_error_set(err, GP_EINPUT, path, 0, 0, "bad GPU count %d", ngpus);
	st = gp_read_file(path, GP_TOPO_MAX_FILE, &data, &len, err);
	if (st)
		return st;
	m = gp_xcalloc((size_t)ngpus * (size_t)ngpus, 1);
	for (line = data; line < data + len; line = end + 1) {
		const char *p, *tok;
		size_t tl;
		int row, k;

		end = memchr(line, '\n', (size_t)(data + len - line));
		if (!end)
			end = data + len;
		lineno++;
		p = line;
		tok = token(&p, end, &tl);
		if (!tok)
			continue;
		if (cols == 0) {
			/* The header: GPU0 GPU1 ... */
			if (gpu_index(tok, tl) != 0)
				continue;
			cols = 1;
			while ((tok = token(&p, end, &tl))) {
				if (gpu_index(tok, tl) != cols)
					break;
				cols++;
			}
			if (cols != ngpus) {
				st = gp_error_set(err, GP_EINPUT, path, lineno, 1,
						  "peer-to-peer matrix names %d GPUs, the node type has %d",
						  cols, ngpus);
				goto fail;
			}
			continue;
		}
		row = gpu_index(tok, tl);
		if (row < 0)
			break; /* the legend */
		if (row >= ngpus || seen[row]) {
			st = gp_error_set(err, GP_EINPUT, path, lineno, 1,
					  "unexpected row '%.*s'", (int)tl, tok);
			goto fail;
		}
		seen[row] = 1;
		rows++;
		for (k = 0; k < ngpus; k++) {
			tok = token(&p, end, &tl);
			if (!tok) {
				st = gp_error_set(err, GP_EINPUT, path, lineno, (int)(p - line) + 1,
						  "row GPU%d has %d cells, expected %d", row, k, ngpus);
				goto fail;
			}
			if ((tl == 1 && *tok == 'X') || (tl == 2 && !strncmp(tok, "OK", 2)))
				m[(size_t)row * (size_t)ngpus + (size_t)k] = 1;
			else if (!((tl == 2 && (!strncmp(tok, "NS", 2) || !strncmp(tok, "DR", 2))) ||
				   (tl == 3 && (!strncmp(tok, "CNS", 3) || !strncmp(tok, "GNS", 3) ||
						!strncmp(tok, "TNS", 3))) ||
				   (tl == 1 && *tok == 'U'))) {
				st = gp_error_set(err, GP_EINPUT, path, lineno,
						  (int)(tok - line) + 1,
						  "unknown peer-to-peer status '%.*s' (OK, NS, CNS, GNS, TNS, DR, U)",
						  (int)(tl < 20 ? tl : 20), tok);
				goto fail;
			}
		}
	}
	if (cols == 0) {
		st = gp_error_set(err, GP_EINPUT, path, lineno, 0,
				  "no peer-to-peer matrix (a header GPU0 GPU1 ...) found");
		goto fail;
	}
	if (rows != ngpus) {
		st = gp_error_set(err, GP_EINPUT, path, lineno, 0,
				  "peer-to-peer matrix has %d of %d rows", rows, ngpus);
		goto fail;
	}
	free(data);
	*out = m;
	return GP_OK;
fail:
	free(m);
	free(data);
	return st;
}
