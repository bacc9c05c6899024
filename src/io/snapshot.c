/* Reader for `nvidia-smi topo -m` / `-mp` text.
 *
 * The matrix is found by its header line (first token GPU<n>, then device
 * names, then the affinity column titles); rows are matched to columns by
 * their label, so rows and columns may come in any order.  Cells are read
 * as a stream of link tokens, which copes with tabs, spaces, misaligned
 * columns and cells glued together (PIXPIX).  The affinity fields after
 * the cells are split on tabs when the row has tabs (empty fields count)
 * and by header position otherwise (an empty field leaves a gap). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/io/snapshot.h"
#include "gpuplan/model/topo.h"
#include "gpuplan/util/util.h"
#include "snapshot_int.h"

int gp_snap_err(snap_parser *p, int line_no, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(p->err, GP_EINPUT, p->file, line_no, col, fmt, ap);
	va_end(ap);
	return GP_EINPUT;
}

/* ---- driver ---- */

static int split_lines(snap_parser *p, const char *text, size_t len)
{
	size_t i = gp_text_bom(text, len), cap = 0;
	int no = 1;

	if (gp_text_check(text + i, len - i, p->file, 1, p->err))
		return GP_EINPUT;
	while (i < len) {
		size_t st = i, e;

		while (i < len && text[i] != '\n' && text[i] != '\r')
			i++;
		e = i;
		if (i < len && text[i] == '\r') {
			i++;
			if (i < len && text[i] == '\n') {
				i++;
				p->flags |= GP_TOPO_F_CRLF;
			}
		} else if (i < len) {
			i++;
		}
		if (e - st > GP_TOPO_MAX_LINE)
			return gp_snap_err(p, no, GP_TOPO_MAX_LINE + 1,
					   "line longer than %d bytes", GP_TOPO_MAX_LINE);
		GP_GROW(p->lines, cap, (size_t)p->nlines + 1);
		p->lines[p->nlines].s = text + st;
		p->lines[p->nlines].len = (int)(e - st);
		p->lines[p->nlines].no = no++;
		p->nlines++;
	}
	return GP_OK;
}

static int blank(const snap_line *ln)
{
	int i;

	for (i = 0; i < ln->len; i++)
		if (!is_ws(ln->s[i]))
			return 0;
	return 1;
}

static int check_ctrl(snap_parser *p, const snap_line *ln)
{
	int i;

	for (i = 0; i < ln->len; i++) {
		unsigned char c = (unsigned char)ln->s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return gp_snap_err(p, ln->no, i + 1,
					   "control character 0x%02x in the matrix", c);
	}
	return GP_OK;
}

static int starts_with_word(const snap_line *ln, const char *w)
{
	int k = 0, wl = (int)strlen(w);

	while (k < ln->len && is_ws(ln->s[k]))
		k++;
	return ln->len - k >= wl && !memcmp(ln->s + k, w, (size_t)wl);
}

/* Keep the matrix indices of the first kg GPUs and first kn NICs (those
 * of a header prefix), dropping the rest from t and the cell locations. */
static void keep_prefix(snap_parser *p, gp_topo *t, int kg, int kn)
{
	int n = t->ngpus + t->nnics, m = kg + kn, a, b;
	int from[GP_TOPO_MAX_DEVICES];
	gp_link *links = gp_xcalloc((size_t)m * (size_t)m, sizeof(*links));
	int *cl = gp_xcalloc((size_t)m * (size_t)m, sizeof(int));
	int *cc = gp_xcalloc((size_t)m * (size_t)m, sizeof(int));

	for (a = 0; a < m; a++)
		from[a] = a < kg ? a : t->ngpus + (a - kg);
	for (a = 0; a < m; a++)
		for (b = 0; b < m; b++) {
			size_t o = (size_t)from[a] * (size_t)n + (size_t)from[b];

			links[a * m + b] = t->links[o];
			cl[a * m + b] = p->cell_line[o];
			cc[a * m + b] = p->cell_col[o];
		}
	for (a = kg; a < t->ngpus; a++) {
		free(t->gpus[a].cpus);
		t->gpus[a].cpus = NULL;
	}
	free(t->links);
	free(p->cell_line);
	free(p->cell_col);
	t->links = links;
	p->cell_line = cl;
	p->cell_col = cc;
	t->ngpus = kg;
	t->nnics = kn; /* the kept NICs are the first kn: no move needed */
}

/* Fewer rows than devices.  stop: index of the line that ended the rows
 * (p->nlines at end of file); last_row: index of the last row's line.
 * A clean cut after a complete row keeps the devices that have a row;
 * anything else (a gap, text right after the last row, strict mode) is
 * an error. */
static int cut_rows(snap_parser *p, gp_topo *t, int stop, int last_row, int hdr,
		    int nrows)
{
	int n = p->ndev, miss, h, i, at, lno, kg = 0, kn = 0;
	const char *last;
	gp_topo_cut *cut = &t->cut;

	for (miss = 0; miss < n && p->row_line[miss]; miss++)
		;
	at = last_row >= 0 ? last_row + 1 : hdr + 1;
	lno = at < p->nlines ? p->lines[at].no : p->lines[p->nlines - 1].no + 1;
	if (nrows == 0)
		return gp_snap_err(p, lno, 1,
				   "matrix has no rows: no row for '%s' below the header",
				   p->dev[0].name);
	/* A gap: a later device's row is present among the rows... */
	for (h = miss + 1; h < n; h++)
		if (p->row_line[h])
			return gp_snap_err(p, p->row_line[h], 1,
					   "no row for '%s', but the row for '%s' after it is present (%d of %d rows present)",
					   p->dev[miss].name, p->dev[h].name, nrows, n);
	/* ... or further down, after other text. */
	for (i = stop; i < p->nlines; i++) {
		const snap_line *ln = &p->lines[i];
		size_t lablen;
		int k = 0;

		while (k < ln->len && is_ws(ln->s[k]))
			k++;
		h = gp_snap_row_label(p, ln->s + k, (size_t)(ln->len - k), &lablen);
		if (h >= 0 && !p->row_line[h])
			return gp_snap_err(p, ln->no, k + 1,
					   "row for '%s' is separated from the matrix above by other text (line %d)",
					   p->dev[h].name, p->lines[stop].no);
	}
	for (h = 0; h < n; h++)
		if (p->row_line[h] == p->lines[last_row].no)
			break;
	last = p->dev[h].name;
	if (p->opts & GP_TOPO_STRICT)
		return gp_snap_err(p, lno, 1,
				   "matrix truncated after row '%s': no row for '%s' (%d of %d rows present; strict mode refuses a partial view)",
				   last, p->dev[miss].name, nrows, n);
	/* Cut right after a complete row: the file ends, or a blank line or
	 * the legend follows.  Other text there may be the rest of a row. */
	if (stop < p->nlines && stop == last_row + 1 &&
	    !starts_with_word(&p->lines[stop], "Legend") &&
	    !starts_with_word(&p->lines[stop], "NIC Legend"))
		return gp_snap_err(p, p->lines[stop].no, 1,
				   "matrix stops after row '%s' at text that is not a row: no row for '%s' (%d of %d rows present)",
				   last, p->dev[miss].name, nrows, n);
	memset(cut, 0, sizeof(*cut));
	cut->last_line = p->lines[last_row].no;
	cut->missing_line = lno;
	snprintf(cut->last_row, sizeof(cut->last_row), "%s", last);
	for (h = 0; h < n; h++) {
		char *first, *lastname;
		int *cnt;

		if (p->dev[h].is_gpu) {
			cut->header_gpus++;
			first = cut->gpu_first;
			lastname = cut->gpu_last;
			cnt = &cut->dropped_gpus;
			kg += h < miss;
		} else {
			cut->header_nics++;
			first = cut->nic_first;
			lastname = cut->nic_last;
			cnt = &cut->dropped_nics;
			kn += h < miss;
		}
		if (h < miss)
			continue;
		if (!(*cnt)++)
			snprintf(first, sizeof(cut->gpu_first), "%s", p->dev[h].name);
		snprintf(lastname, sizeof(cut->gpu_last), "%s", p->dev[h].name);
	}
	keep_prefix(p, t, kg, kn);
	p->flags |= GP_TOPO_F_TRUNCATED;
	return GP_OK;
}

/* Split the text into lines and find the header line (*hdr); when there
 * is none, name the likely near miss. */
static int find_header(snap_parser *p, const char *text, size_t len, int *hdr)
{
	int i, rc;

	if ((rc = split_lines(p, text, len)))
		return rc;
	if (p->nlines == 0)
		return gp_snap_err(p, 1, 1, "empty file: no 'nvidia-smi topo -m' matrix");
	for (i = 0; i < p->nlines; i++) {
		rc = gp_snap_try_header(p, &p->lines[i]);
		if (rc < 0)
			return GP_EINPUT;
		if (rc > 0) {
			*hdr = i;
			return GP_OK;
		}
	}
	/* A row without its header is the most likely near miss. */
	for (i = 0; i < p->nlines; i++) {
		const char *s = p->lines[i].s;
		int k = 0;

		while (k < p->lines[i].len && is_ws(s[k]))
			k++;
		/* the text need not end in a NUL: compare within the line */
		if (p->lines[i].len - k >= 4 && !memcmp(s + k, "GPU0", 4))
			return gp_snap_err(p, p->lines[i].no, k + 1,
					   "matrix row without the header line (GPU0 GPU1 ... CPU Affinity) above it");
	}
	return gp_snap_err(p, 1, 1,
			   "no 'nvidia-smi topo -m' matrix found (no header line starting with GPU0)");
}

/* The header's devices into t, in matrix order (GPUs, then NICs, each in
 * header order), and the flags the header alone tells. */
static int set_devices(snap_parser *p, int hdr, gp_topo *t)
{
	int i, h, g, nn, rc, n = p->ndev;
	int has[AFF_KINDS] = { 0 };

	if ((rc = check_ctrl(p, &p->lines[hdr])))
		return rc;
	for (i = 0; i < hdr; i++)
		if (!blank(&p->lines[i]))
			p->flags |= GP_TOPO_F_TEXT_AROUND;
	if (p->ngpus == 0)
		return gp_snap_err(p, p->lines[hdr].no, 1, "no GPU column in the header");
	for (h = 0, g = 0, nn = p->ngpus; h < n; h++)
		p->perm[h] = p->dev[h].is_gpu ? g++ : nn++;
	if ((rc = gp_topo_alloc(t, p->ngpus, n - p->ngpus, p->err))) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", p->err->msg);
		return gp_snap_err(p, p->lines[hdr].no, 1, "%s", msg);
	}
	for (h = 0; h < n; h++) {
		if (p->dev[h].is_gpu) {
			snprintf(t->gpus[p->perm[h]].id, sizeof(t->gpus[0].id), "%s",
				 p->dev[h].name);
		} else {
			gp_topo_nic *nic = &t->nics[p->perm[h] - p->ngpus];

			if (!strncmp(p->dev[h].name, "NIC", 3) &&
			    isdigit((unsigned char)p->dev[h].name[3])) {
				snprintf(nic->id, sizeof(nic->id), "%s", p->dev[h].name);
			} else {
				/* Raw device header: NIC<k> by column order. */
				snprintf(nic->id, sizeof(nic->id), "NIC%d",
					 p->perm[h] - p->ngpus);
				snprintf(nic->device, sizeof(nic->device), "%s",
					 p->dev[h].name);
				p->flags |= GP_TOPO_F_RAW_NIC_NAMES;
			}
		}
	}
	for (i = 0; i < p->naff; i++)
		has[p->aff_kind[i]] = 1;
	if (!has[AFF_NUMA])
		p->flags |= GP_TOPO_F_NO_NUMA_COLUMN;
	if (!has[AFF_CPU])
		p->flags |= GP_TOPO_F_NO_CPU_COLUMN;
	p->cell_line = gp_xcalloc((size_t)n * (size_t)n, sizeof(int));
	p->cell_col = gp_xcalloc((size_t)n * (size_t)n, sizeof(int));
	return GP_OK;
}

/* Where reading the rows stopped. */
typedef struct rows_read {
	int stop;              /* the line reading stopped at */
	int last;              /* the last row's line, -1 none */
	int n;                 /* rows read */
} rows_read;

/* Rows: until the first non-blank line that is not a row. */
static int read_rows(snap_parser *p, int hdr, gp_topo *t, rows_read *r)
{
	int i, h, rc, n = p->ndev;
	size_t lablen;

	r->last = -1;
	r->n = 0;
	for (i = hdr + 1; i < p->nlines && r->n < n; i++) {
		const snap_line *ln = &p->lines[i];
		const char *s = ln->s;
		int k = 0;

		if (blank(ln))
			continue;
		while (k < ln->len && is_ws(s[k]))
			k++;
		h = gp_snap_row_label(p, s + k, (size_t)(ln->len - k), &lablen);
		if (h < 0) {
			size_t dl = gp_snap_known_dev(s + k, (size_t)(ln->len - k));
			gp_link l;

			/* GPU9 in a GPU0..GPU7 matrix: a row without a column. */
			if (dl && k + (int)dl < ln->len && is_ws(s[k + dl])) {
				int q = k + (int)dl;

				while (q < ln->len && is_ws(s[q]))
					q++;
				if (gp_snap_lex_link(s + q, (size_t)(ln->len - q), &l, NULL))
					return gp_snap_err(p, ln->no, k + 1,
							   "row '%.*s' has no column in the header",
							   (int)dl, s + k);
			}
			break;
		}
		if ((rc = check_ctrl(p, ln)))
			return rc;
		if (p->row_line[h])
			return gp_snap_err(p, ln->no, k + 1,
					   "second row for '%s' (first on line %d)",
					   p->dev[h].name, p->row_line[h]);
		p->row_line[h] = ln->no;
		if ((rc = gp_snap_parse_row(p, ln, h, lablen, t)))
			return rc;
		r->last = i;
		r->n++;
	}
	r->stop = i;
	return GP_OK;
}

/* The topology's invariants; a broken one is reported at the cell read
 * later of the pair. */
static int check_matrix(snap_parser *p, gp_topo *t, int n)
{
	int r, c;
	char msg[512];

	if (!gp_topo_check(t, &r, &c, p->err))
		return GP_OK;
	snprintf(msg, sizeof(msg), "%s", p->err->msg);
	if (r == c || gp_topo_link(t, r, c).level == GP_LINK_X ||
	    p->cell_line[r * n + c] > p->cell_line[c * n + r])
		return gp_snap_err(p, p->cell_line[r * n + c], p->cell_col[r * n + c], "%s", msg);
	return gp_snap_err(p, p->cell_line[c * n + r], p->cell_col[c * n + r], "%s", msg);
}

/* The NIC legend after the rows, and the flags of the whole matrix. */
static int read_legend(snap_parser *p, gp_topo *t, int last_row)
{
	int i, a, b, rc, nv = 0;

	for (i = last_row + 1; i < p->nlines; i++)
		if ((rc = gp_snap_legend_line(p, &p->lines[i], t)))
			return rc;
	for (i = 0; i < t->nnics; i++)
		if (!t->nics[i].device[0])
			p->flags |= GP_TOPO_F_NIC_LEGEND_PARTIAL;
	for (a = 0; a < t->ngpus; a++)
		for (b = 0; b < t->ngpus; b++)
			if (gp_topo_link(t, a, b).level == GP_LINK_NV)
				nv = 1;
	if (!nv)
		p->flags |= GP_TOPO_F_PCIE_ONLY;
	return GP_OK;
}

static int parse(snap_parser *p, const char *text, size_t len, gp_topo *t)
{
	rows_read r;
	int hdr = -1, n, rc;

	if ((rc = find_header(p, text, len, &hdr)) || (rc = set_devices(p, hdr, t)) ||
	    (rc = read_rows(p, hdr, t, &r)))
		return rc;
	n = p->ndev;
	if (r.n < n) {
		if ((rc = cut_rows(p, t, r.stop, r.last, hdr, r.n)))
			return rc;
		n = t->ngpus + t->nnics;
	}
	if ((rc = check_matrix(p, t, n)) || (rc = read_legend(p, t, r.last)))
		return rc;
	gp_topo_finish(t);
	t->flags = p->flags;
	return GP_OK;
}

int gp_topo_parse_ex(const char *text, size_t len, const char *filename,
		     unsigned opts, gp_topo *t, gp_error *err)
{
	snap_parser *p = gp_xcalloc(1, sizeof(*p));
	gp_error local = GP_ERROR_INIT;
	int rc;

	p->file = filename ? filename : "<input>";
	p->err = err ? err : &local;
	p->opts = opts;
	gp_topo_init(t);
	if (len > GP_TOPO_MAX_FILE) {
		rc = gp_snap_err(p, 1, 1, "snapshot larger than the %d-byte limit",
				 GP_TOPO_MAX_FILE);
	} else {
		rc = parse(p, text, len, t);
	}
	if (rc)
		gp_topo_release(t);
	else
		t->source = gp_xstrdup(p->file);
	free(p->lines);
	free(p->cell_line);
	free(p->cell_col);
	free(p);
	return rc;
}

int gp_topo_parse(const char *text, size_t len, const char *filename,
		  gp_topo *t, gp_error *err)
{
	return gp_topo_parse_ex(text, len, filename, 0, t, err);
}

int gp_topo_load(const char *path, gp_topo *t, gp_error *err)
{
	return gp_topo_load_ex(path, 0, t, err);
}

int gp_topo_load_ex(const char *path, unsigned opts, gp_topo *t, gp_error *err)
{
	FILE *fp;
	char *buf;
	size_t n = 0, got;
	int is_stdin = !strcmp(path, "-"), rc;

	gp_topo_init(t);
	fp = is_stdin ? stdin : fopen(path, "rb");
	if (!fp)
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s",
				    strerror(errno));
	gp_file_note_read(fp);
	buf = gp_xmalloc(GP_TOPO_MAX_FILE + 2);
	while (n <= GP_TOPO_MAX_FILE &&
	       (got = fread(buf + n, 1, GP_TOPO_MAX_FILE + 1 - n, fp)) > 0)
		n += got;
	if (ferror(fp)) {
		int e = errno; /* EISDIR: a folder given for a file */

		if (!is_stdin)
			fclose(fp);
		free(buf);
		return gp_error_set(err, GP_EIO, path, 0, 0, "read error: %s", strerror(e));
	}
	if (!is_stdin)
		fclose(fp);
	if (n > GP_TOPO_MAX_FILE) {
		/* Locate the first byte past the limit. */
		size_t i, ls = 0;
		int lno = 1;

		for (i = 0; i < GP_TOPO_MAX_FILE; i++)
			if (buf[i] == '\n') {
				lno++;
				ls = i + 1;
			}
		free(buf);
		return gp_error_set(err, GP_EINPUT, path, lno,
				    (int)(GP_TOPO_MAX_FILE - ls) + 1,
				    "snapshot larger than the %d-byte limit",
				    GP_TOPO_MAX_FILE);
	}
	buf[n] = '\0';
	rc = gp_topo_parse_ex(buf, n, path, opts, t, err);
	free(buf);
	return rc;
}

/* "GPU4..GPU15", "NIC6, NIC7" or "NIC8" for count dropped names. */
static void name_range(gp_sbuf *sb, int count, const char *first,
		       const char *last)
{
	if (count == 1)
		gp_sbuf_adds(sb, first);
	else
		gp_sbuf_addf(sb, "%s%s%s", first, count == 2 ? ", " : "..", last);
}

const char *gp_topo_cut_describe(const gp_topo *t, char *buf, size_t size)
{
	const gp_topo_cut *c = &t->cut;
	gp_sbuf sb;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!(t->flags & GP_TOPO_F_TRUNCATED))
		return buf;
	gp_sbuf_init(&sb);
	gp_sbuf_addf(&sb, "matrix truncated after row %s; imported %d of %d GPU%s",
		     c->last_row, t->ngpus, c->header_gpus, c->header_gpus == 1 ? "" : "s");
	if (c->header_nics)
		gp_sbuf_addf(&sb, " and %d of %d NIC%s", t->nnics, c->header_nics,
			     c->header_nics == 1 ? "" : "s");
	gp_sbuf_adds(&sb, " (dropped ");
	if (c->dropped_gpus)
		name_range(&sb, c->dropped_gpus, c->gpu_first, c->gpu_last);
	if (c->dropped_gpus && c->dropped_nics)
		gp_sbuf_adds(&sb, ", ");
	if (c->dropped_nics)
		name_range(&sb, c->dropped_nics, c->nic_first, c->nic_last);
	gp_sbuf_adds(&sb, ")");
	snprintf(buf, size, "%s", sb.buf);
	gp_sbuf_release(&sb);
	return buf;
}
