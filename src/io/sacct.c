/* sacct's text forms (sacct.h): parsable (-P, -p, any --delimiter, with
 * or without a header), the default fixed-width table, concatenated dumps;
 * then the record rules (steps, duplicates, never started, still running,
 * no GPUs) and the order.  One pass, a line at a time, a compact record
 * per job: a ten-million-row dump stays within a few times its size. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/sacct.h"
#include "gpuplan/util/hostlist.h"
#include "gpuplan/util/pool.h"
#include "gpuplan/util/timefmt.h"
#include "gpuplan/util/util.h"
#include "sacct_int.h"
#include "trace_int.h"

enum {
	F_JOBID, F_JOBIDRAW, F_SUBMIT, F_ELIGIBLE, F_START, F_END, F_ELAPSED,
	F_ELAPSEDRAW, F_TIMELIMIT, F_TIMELIMITRAW, F_ALLOCTRES, F_REQTRES,
	F_ALLOCGRES, F_REQGRES, F_NNODES, F_ALLOCNODES, F_NCPUS, F_ALLOCCPUS,
	F_NODELIST, F_STATE, F_PARTITION, F_ACCOUNT, F_USER, F_QOS, F_COUNT
};

static const char *const fnames[F_COUNT] = {
	"JobID", "JobIDRaw", "Submit", "Eligible", "Start", "End", "Elapsed",
	"ElapsedRaw", "Timelimit", "TimelimitRaw", "AllocTRES", "ReqTRES",
	"AllocGRES", "ReqGRES", "NNodes", "AllocNodes", "NCPUS", "AllocCPUS",
	"NodeList", "State", "Partition", "Account", "User", "QOS",
};

#define MAX_FIELDS 256

/* ---- the record set ---- */

typedef struct id_index {
	uint32_t *slot;         /* record index + 1, 0 empty */
	size_t cap, used;
} id_index;

void gp_sacct_init(gp_sacct *h)
{
	memset(h, 0, sizeof(*h));
	h->pool = gp_pool_new();
	h->record_end = GP_SACCT_NONE;
	h->index = gp_xcalloc(1, sizeof(id_index));
}

void gp_sacct_release(gp_sacct *h)
{
	size_t i;

	if (!h)
		return;
	free(h->jobs);
	gp_pool_free(h->pool);
	for (i = 0; i < h->nfiles; i++)
		free(h->files[i]);
	free(h->files);
	free(h->form);
	for (i = 0; i < h->nwarn; i++)
		free(h->warnings[i]);
	if (h->index)
		free(((id_index *)h->index)->slot);
	free(h->index);
	memset(h, 0, sizeof(*h));
}

void gp_sacct_warn(gp_sacct *h, const char *fmt, ...)
{
	va_list ap;
	gp_sbuf sb;
	char *s;

	h->warn_total++;
	if (h->nwarn >= GP_SACCT_MAX_WARN)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	gp_sbuf_init(&sb);
	gp_sbuf_adds(&sb, s);
	free(s);
	h->warnings[h->nwarn++] = gp_sbuf_detach(&sb);
}

uint16_t gp_sacct_file(gp_sacct *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->nfiles; i++)
		if (!strcmp(h->files[i], name))
			return (uint16_t)i;
	if (h->nfiles >= 65535)
		return 65535;
	h->files = gp_xrealloc(h->files, (h->nfiles + 1) * sizeof(*h->files));
	h->files[h->nfiles] = gp_xstrdup(name);
	return (uint16_t)h->nfiles++;
}

const char *gp_sacct_intern(gp_sacct *h, const char *s)
{
	return s && *s ? gp_pool_intern(h->pool, s) : NULL;
}

const char *gp_sacct_state(gp_sacct *h, const char *s)
{
	char buf[32] = "";
	size_t n = 0;

	while (*s == ' ')
		s++;
	while (s[n] && s[n] != ' ' && n < sizeof(buf) - 1) {
		buf[n] = (char)toupper((unsigned char)s[n]);
		n++;
	}
	while (n && buf[n - 1] == '+')
		n--;
	buf[n] = '\0';
	return n ? gp_pool_intern(h->pool, buf) : NULL;
}

gp_sacct_job *gp_sacct_push(gp_sacct *h)
{
	gp_sacct_job *j;

	if (h->n >= GP_SACCT_MAX_JOBS)
		return NULL;
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 1024;
		h->jobs = gp_xrealloc(h->jobs, h->cap * sizeof(*h->jobs));
	}
	j = &h->jobs[h->n++];
	memset(j, 0, sizeof(*j));
	j->submit = j->eligible = j->start = j->end = GP_SACCT_NONE;
	j->elapsed = -1;
	j->time_limit = -1;
	return j;
}

static void index_grow(gp_sacct *h, id_index *x)
{
	size_t cap = x->cap ? x->cap * 2 : 4096, i, k;
	uint32_t *slot = gp_xcalloc(cap, sizeof(*slot));

	for (i = 0; i < x->cap; i++) {
		if (!x->slot[i])
			continue;
		for (k = gp_hash_str(h->jobs[x->slot[i] - 1].id) & (cap - 1); slot[k];
		     k = (k + 1) & (cap - 1))
			;
		slot[k] = x->slot[i];
	}
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
}

static void note_time(gp_sacct *h, int64_t t)
{
	if (t != GP_SACCT_NONE && (h->record_end == GP_SACCT_NONE || t > h->record_end))
		h->record_end = t;
}

void gp_sacct_commit(gp_sacct *h, const char *where)
{
	id_index *x = h->index;
	gp_sacct_job *j = &h->jobs[h->n - 1];
	size_t k;

	note_time(h, j->submit);
	note_time(h, j->eligible);
	note_time(h, j->start);
	note_time(h, j->end);
	if (j->end == GP_SACCT_NONE && j->start != GP_SACCT_NONE && j->elapsed > 0)
		note_time(h, j->start + j->elapsed);
	if (2 * (x->used + 1) > x->cap)
		index_grow(h, x);
	for (k = gp_hash_str(j->id) & (x->cap - 1); x->slot[k]; k = (k + 1) & (x->cap - 1)) {
		gp_sacct_job *old = &h->jobs[x->slot[k] - 1];

		if (strcmp(old->id, j->id))
			continue;
		gp_sacct_warn(h, "%s: job '%s' is printed again (first at %s:%d); the later record is kept",
			      where, j->id, h->files[old->file], (int)old->line);
		*old = *j;
		h->n--;
		h->duplicates++;
		return;
	}
	x->slot[k] = (uint32_t)h->n;
	x->used++;
}

/* ---- one input of the text form ---- */

typedef struct tparse {
	gp_sacct *h;
	const gp_sacct_opts *o;
	const char *name;
	uint16_t file;
	int line;
	int mode;               /* 0 expect a header, 1 delimited, 2 fixed, 3 dash line next */
	char delim[16];
	size_t dlen;
	int trailing;           /* -p: a delimiter after the last field */
	int nf;                 /* columns */
	int map[F_COUNT];
	int span[MAX_FIELDS][2]; /* fixed width: [start, end) of each column */
	char *hdr;              /* fixed width: the header line, until the dashes */
	int hdr_line;
	int jobcomp;            /* Key=Value records of jobcomp/filetxt */
	int cut_warned;
	gp_error *err;
} tparse;

static int field_kind(const char *s, size_t n)
{
	int k;

	/* a --format width ("AllocTRES%60") is not part of the name */
	const char *pct = memchr(s, '%', n);

	if (pct)
		n = (size_t)(pct - s);
	for (k = 0; k < F_COUNT; k++)
		if (strlen(fnames[k]) == n && !strncasecmp(fnames[k], s, n))
			return k;
	return -1;
}

static int is_id_name(const char *s)
{
	return !strcasecmp(s, "JobID") || !strcasecmp(s, "JobIDRaw");
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*e = '\0';
	return s;
}

/* Split line on the delimiter in place. */
static int split(tparse *t, char *line, char **f, int *col)
{
	char *p = line, *q;
	int n = 0;

	for (;;) {
		if (n >= MAX_FIELDS)
			return -1;
		q = t->dlen == 1 ? strchr(p, t->delim[0]) : strstr(p, t->delim);
		col[n] = (int)(p - line) + 1;
		f[n++] = p;
		if (!q)
			break;
		*q = '\0';
		p = q + t->dlen;
	}
	return n;
}

static int set_header(tparse *t, char **f, const int *col, int n)
{
	int i, k;

	for (k = 0; k < F_COUNT; k++)
		t->map[k] = -1;
	if (n > 1 && !*trim(f[n - 1])) {
		t->trailing = 1;
		n--;
	}
	for (i = 0; i < n; i++) {
		char *s = trim(f[i]);

		k = field_kind(s, strlen(s));
		if (k < 0)
			continue;
		if (t->map[k] >= 0)
			return gp_error_set(t->err, GP_EINPUT, t->name, t->line, col[i],
					    "column '%s' is given twice", fnames[k]);
		t->map[k] = i;
	}
	t->nf = n;
	if (t->map[F_JOBID] < 0 && t->map[F_JOBIDRAW] < 0)
		return gp_error_set(t->err, GP_EINPUT, t->name, t->line, 1,
				    "a sacct header needs JobID or JobIDRaw");
	if (t->map[F_SUBMIT] < 0 && t->map[F_START] < 0)
		return gp_error_set(t->err, GP_EINPUT, t->name, t->line, 1,
				    "a sacct record to replay needs Submit (and Start): "
				    "add them to --format");
	return GP_OK;
}

/* The delimiter of a header line: what follows the first field name. */
static int find_delim(tparse *t, const char *line)
{
	const char *p = line, *q;

	while (*p == ' ' || *p == '\t')
		p++;
	while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '%'))
		p++;
	q = p;
	while (*q && !(isalnum((unsigned char)*q) || *q == '_'))
		q++;
	if (p == q) {           /* one column */
		strcpy(t->delim, "|");
		t->dlen = 1;
		return 1;
	}
	if ((size_t)(q - p) >= sizeof(t->delim))
		return 0;
	memcpy(t->delim, p, (size_t)(q - p));
	t->delim[q - p] = '\0';
	t->dlen = (size_t)(q - p);
	return strspn(t->delim, " \t") != t->dlen;
}

static int is_dashes(const char *l)
{
	int d = 0;

	for (; *l; l++) {
		if (*l == '-')
			d = 1;
		else if (*l != ' ' && *l != '\r')
			return 0;
	}
	return d;
}

/* The fixed-width spans from the dash line; the header names through them. */
static int set_fixed(tparse *t, const char *dash)
{
	char *f[MAX_FIELDS];
	int col[MAX_FIELDS], n = 0, i, hl = (int)strlen(t->hdr);
	const char *p = dash;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\r')
			break;
		if (n >= MAX_FIELDS)
			return gp_error_set(t->err, GP_EINPUT, t->name, t->line, (int)(p - dash) + 1,
					    "more than %d columns", MAX_FIELDS);
		t->span[n][0] = (int)(p - dash);
		while (*p == '-')
			p++;
		t->span[n][1] = (int)(p - dash);
		n++;
	}
	for (i = 0; i < n; i++) {
		int s = t->span[i][0], e = t->span[i][1];

		if (s > hl)
			s = hl;
		if (e > hl)
			e = hl;
		t->hdr[e] = '\0';
		f[i] = t->hdr + s;
		col[i] = s + 1;
	}
	t->trailing = 0;
	{
		int dash_line = t->line;

		t->line = t->hdr_line;
		i = set_header(t, f, col, n);
		t->line = dash_line;
	}
	t->trailing = 0;
	t->nf = n;
	free(t->hdr);
	t->hdr = NULL;
	return i;
}

/* ---- values ---- */

static int bad(tparse *t, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(tparse *t, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(t->err, GP_EINPUT, t->name, t->line, col, fmt, ap);
	va_end(ap);
	return GP_EINPUT;
}

static int when(tparse *t, const char *s, int col, const char *what, int64_t *out)
{
	long v;

	*out = GP_SACCT_NONE;
	if (!*s || !strcasecmp(s, "Unknown") || !strcasecmp(s, "None"))
		return GP_OK;
	if (!gp_time_parse_iso(s, out))
		return GP_OK;
	/* SLURM_TIME_FORMAT=%s */
	if (!gp_parse_long(s, 0, 253402300799L, &v)) {
		*out = v;
		return GP_OK;
	}
	return bad(t, col, "'%s' is not a date: '%.40s' (set SLURM_TIME_FORMAT=standard "
		   "or %%s before running sacct)", what, s);
}

static int whole(tparse *t, const char *s, int col, const char *what, long max, long *out)
{
	if (!gp_parse_long(s, 0, max, out))
		return GP_OK;
	return bad(t, col, "'%s' must be a whole number in 0..%ld, got '%.40s'", what, max, s);
}

/* A time limit: minutes (Raw) or [D-]HH:MM:SS; UNLIMITED and
 * Partition_Limit are none. */
static int limit(tparse *t, const char *s, int col, int raw, int64_t *out)
{
	double d;
	long v;

	*out = -1;
	if (!*s || !strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "Partition_Limit") ||
	    !strcasecmp(s, "INVALID"))
		return GP_OK;
	if (raw) {
		if (whole(t, s, col, "TimelimitRaw", 1L << 31, &v))
			return GP_EINPUT;
		*out = (int64_t)v * 60;
		return GP_OK;
	}
	if (gp_time_parse_duration(s, &d))
		return bad(t, col, "'Timelimit' must be [D-]HH:MM:SS, UNLIMITED or "
			   "Partition_Limit, got '%.40s'", s);
	*out = (int64_t)d;
	return GP_OK;
}

static void add_type(gp_sacct *h, gp_sacct_job *j, const char *type, size_t n)
{
	char buf[128];
	const char *cur = j->gpu_type;

	if (!n || n >= 64)
		return;
	if (!cur) {
		memcpy(buf, type, n);
		buf[n] = '\0';
	} else {
		size_t cl = strlen(cur);
		const char *p;

		/* already listed? */
		for (p = cur; p; p = strchr(p, '|')) {
			if (*p == '|')
				p++;
			if (!strncmp(p, type, n) && (p[n] == '|' || !p[n]))
				return;
		}
		if (cl + 1 + n >= sizeof(buf))
			return;
		memcpy(buf, cur, cl);
		buf[cl] = '|';
		memcpy(buf + cl + 1, type, n);
		buf[cl + 1 + n] = '\0';
	}
	j->gpu_type = gp_pool_intern(h->pool, buf);
}

/* A TRES list: gres/gpu=N (the total), gres/gpu:TYPE=N (typed), node=,
 * cpu=.  1 when it names GPUs. */
static int tres(tparse *t, gp_sacct_job *j, char *s, int col, const char *what)
{
	long untyped = -1, typed = 0, v;
	int any = 0;
	char *item, *save = NULL;

	for (item = strtok_r(s, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		const char *name = item;

		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(eq + 1, "NONE"))
			continue;
		if (!strcmp(name, "gres/gpu") || !strncmp(name, "gres/gpu:", 9)) {
			if (gp_parse_long(eq + 1, 0, GP_TRACE_MAX_GPUS, &v))
				return bad(t, col, "'%s': GPU count '%.40s' of '%s' is not a whole "
					   "number in 0..%d", what, eq + 1, name, GP_TRACE_MAX_GPUS);
			any = 1;
			if (name[8] == ':') {
				typed += v;
				if (v > 0)
					add_type(t->h, j, name + 9, strlen(name + 9));
			} else {
				untyped = v;
			}
		} else if (!strcmp(name, "node") && !j->nodes && !gp_parse_long(eq + 1, 0, 1L << 24, &v)) {
			j->nodes = (int32_t)v;
		} else if (!strcmp(name, "cpu") && !j->cpus && !gp_parse_long(eq + 1, 0, 1L << 24, &v)) {
			j->cpus = (int32_t)v;
		}
	}
	if (any) {
		v = untyped >= 0 ? untyped : typed;
		j->gpus = (int32_t)(v > GP_TRACE_MAX_GPUS ? GP_TRACE_MAX_GPUS : v);
	}
	return any;
}

/* The older GRES list: gpu:8, gpu:tesla:2, gpu:tesla:2(IDX:0-1). */
static int gres(tparse *t, gp_sacct_job *j, char *s, int col, const char *what)
{
	long total = 0, v;
	int any = 0, depth = 0;
	char *p = s, *item = s;

	for (;; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		if ((*p == ',' && !depth) || !*p) {
			char end = *p, *tok[3] = { NULL, NULL, NULL }, *paren, *save = NULL, *x;
			int nt = 0;

			*p = '\0';
			paren = strchr(item, '(');
			if (paren)
				*paren = '\0';
			for (x = strtok_r(item, ":", &save); x && nt < 3; x = strtok_r(NULL, ":", &save))
				tok[nt++] = x;
			if (nt && !strcmp(tok[0], "gpu")) {
				const char *cnt = nt > 1 && isdigit((unsigned char)tok[nt - 1][0]) ?
						  tok[nt - 1] : NULL;

				any = 1;
				v = 1;
				if (cnt && gp_parse_long(cnt, 0, GP_TRACE_MAX_GPUS, &v))
					return bad(t, col, "'%s': '%.40s' is not a GPU count", what, cnt);
				if (nt > (cnt ? 2 : 1))
					add_type(t->h, j, tok[1], strlen(tok[1]));
				total += v;
			}
			if (!end)
				break;
			item = p + 1;
		}
	}
	if (any)
		j->gpus = (int32_t)(total > GP_TRACE_MAX_GPUS ? GP_TRACE_MAX_GPUS : total);
	return any;
}

/* ---- one data row ---- */

static const char *get(char **f, const int *map, int nf, int k)
{
	return map[k] >= 0 && map[k] < nf ? f[map[k]] : "";
}

static int colof(const int *col, const int *map, int nf, int k)
{
	return map[k] >= 0 && map[k] < nf ? col[map[k]] : 0;
}

static int row(tparse *t, char **f, int *col, int nf)
{
	gp_sacct *h = t->h;
	gp_sacct_job *j;
	const int *m = t->map;
	const char *id, *s;
	char where[600];
	int64_t v64;
	long v;
	int i, k, rc;

	for (i = 0; i < nf; i++)
		f[i] = trim(f[i]);
	id = get(f, m, nf, m[F_JOBID] >= 0 ? F_JOBID : F_JOBIDRAW);
	k = m[F_JOBID] >= 0 ? F_JOBID : F_JOBIDRAW;
	if (!*id)
		return bad(t, colof(col, m, nf, k), "empty JobID");
	h->rows++;
	/* a step: its job's own record says what the scheduler did */
	if (strchr(id, '.')) {
		h->steps++;
		return GP_OK;
	}
	if (t->mode == 2 && id[strlen(id) - 1] == '+' && !t->cut_warned) {
		t->cut_warned = 1;
		gp_sacct_warn(h, "%s:%d: JobID '%s' was cut to its column's width by sacct; "
			      "widen it (JobID%%30) or use -P", t->name, t->line, id);
	}
	j = gp_sacct_push(h);
	if (!j)
		return bad(t, 1, "more than %zu jobs (the cap)", (size_t)GP_SACCT_MAX_JOBS);
	j->id = gp_pool_strdup(h->pool, id);
	j->line = t->line;
	j->file = t->file;
	if ((rc = when(t, get(f, m, nf, F_SUBMIT), colof(col, m, nf, F_SUBMIT), "Submit", &j->submit)) ||
	    (rc = when(t, get(f, m, nf, F_ELIGIBLE), colof(col, m, nf, F_ELIGIBLE), "Eligible",
		       &j->eligible)) ||
	    (rc = when(t, get(f, m, nf, F_START), colof(col, m, nf, F_START), "Start", &j->start)) ||
	    (rc = when(t, get(f, m, nf, F_END), colof(col, m, nf, F_END), "End", &j->end)))
		goto fail;
	s = get(f, m, nf, F_ELAPSEDRAW);
	if (*s) {
		if ((rc = whole(t, s, colof(col, m, nf, F_ELAPSEDRAW), "ElapsedRaw", 1L << 40, &v)))
			goto fail;
		j->elapsed = v;
	} else if (*(s = get(f, m, nf, F_ELAPSED))) {
		double d;

		if (gp_time_parse_duration(s, &d)) {
			rc = bad(t, colof(col, m, nf, F_ELAPSED),
				 "'Elapsed' must be [D-]HH:MM:SS, got '%.40s'", s);
			goto fail;
		}
		j->elapsed = (int64_t)d;
	}
	s = get(f, m, nf, F_TIMELIMITRAW);
	if (*s)
		rc = limit(t, s, colof(col, m, nf, F_TIMELIMITRAW), 1, &v64);
	else
		rc = limit(t, get(f, m, nf, F_TIMELIMIT), colof(col, m, nf, F_TIMELIMIT), 0, &v64);
	if (rc)
		goto fail;
	j->time_limit = v64;
	for (k = F_NNODES; k <= F_ALLOCNODES; k++) {
		s = get(f, m, nf, k);
		if (*s && !j->nodes) {
			if ((rc = whole(t, s, colof(col, m, nf, k), fnames[k], 1L << 24, &v)))
				goto fail;
			j->nodes = (int32_t)v;
		}
	}
	for (k = F_NCPUS; k <= F_ALLOCCPUS; k++) {
		s = get(f, m, nf, k);
		if (*s && !j->cpus && !gp_parse_long(s, 0, 1L << 24, &v))
			j->cpus = (int32_t)v;
	}
	s = get(f, m, nf, F_NODELIST);
	if (!strcasecmp(s, "None assigned") || !strcmp(s, "(null)"))
		j->no_nodes = 1;
	else if (*s && !j->nodes && !strchr(s, '+')) {
		gp_hostlist hl;
		gp_error e = GP_ERROR_INIT;

		gp_hostlist_init(&hl);
		if (!gp_hostlist_expand(s, strlen(s), &hl, t->name, t->line, 0, &e))
			j->nodes = (int32_t)hl.n;
		gp_hostlist_release(&hl);
	}
	/* GPUs: what was allocated, else what was asked for */
	if (t->mode == 2) {
		for (k = F_ALLOCTRES; k <= F_REQGRES; k++) {
			s = get(f, m, nf, k);
			if (*s && s[strlen(s) - 1] == '+' && m[k] >= 0 &&
			    (int)strlen(s) >= t->span[m[k]][1] - t->span[m[k]][0] && !t->cut_warned) {
				t->cut_warned = 1;
				gp_sacct_warn(h, "%s:%d: %s '%s' was cut to its column's width by sacct, "
					      "so GPUs may be missed; widen it (%s%%80) or use -P",
					      t->name, t->line, fnames[k], s, fnames[k]);
			}
		}
	}
	rc = 0;
	if (*(s = get(f, m, nf, F_ALLOCTRES)))
		rc = tres(t, j, (char *)s, colof(col, m, nf, F_ALLOCTRES), "AllocTRES");
	if (rc > 0)
		j->alloc = 1;
	if (rc == 0 && *(s = get(f, m, nf, F_ALLOCGRES))) {
		rc = gres(t, j, (char *)s, colof(col, m, nf, F_ALLOCGRES), "AllocGRES");
		if (rc > 0)
			j->alloc = 1;
	}
	if (rc == 0 && *(s = get(f, m, nf, F_REQTRES)))
		rc = tres(t, j, (char *)s, colof(col, m, nf, F_REQTRES), "ReqTRES");
	if (rc == 0 && *(s = get(f, m, nf, F_REQGRES)))
		rc = gres(t, j, (char *)s, colof(col, m, nf, F_REQGRES), "ReqGRES");
	if (rc < 0 || rc == GP_EINPUT) {
		rc = GP_EINPUT;
		goto fail;
	}
	j->state = gp_sacct_state(h, get(f, m, nf, F_STATE));
	j->partition = gp_sacct_intern(h, get(f, m, nf, F_PARTITION));
	j->account = gp_sacct_intern(h, get(f, m, nf, F_ACCOUNT));
	j->user = gp_sacct_intern(h, get(f, m, nf, F_USER));
	j->qos = gp_sacct_intern(h, get(f, m, nf, F_QOS));
	snprintf(where, sizeof(where), "%s:%d", t->name, t->line);
	gp_sacct_commit(h, where);
	return GP_OK;
fail:
	h->n--;
	return GP_EINPUT;
}

/* ---- the input ---- */

static int line_in(tparse *t, char *l)
{
	char *f[MAX_FIELDS];
	int col[MAX_FIELDS], nf, i;

	if (t->mode == 3) {
		if (!is_dashes(l))
			return gp_error_set(t->err, GP_EINPUT, t->name, t->line, 1,
					    "a sacct header separated by spaces must be followed by "
					    "sacct's line of dashes (or give --delimiter)");
		t->mode = 2;
		return set_fixed(t, l);
	}
	if (!*l || (l[0] == '\r' && !l[1]))
		return GP_OK;
	if (t->mode == 0) {
		if (t->o && t->o->delimiter && *t->o->delimiter) {
			snprintf(t->delim, sizeof(t->delim), "%s", t->o->delimiter);
			t->dlen = strlen(t->delim);
		} else if (!find_delim(t, l)) {
			/* spaces: the fixed-width form, whose dash line comes next */
			free(t->hdr);
			t->hdr = gp_xstrdup(l);
			t->hdr_line = t->line;
			t->mode = 3;
			return GP_OK;
		}
		nf = split(t, l, f, col);
		if (nf < 0)
			return gp_error_set(t->err, GP_EINPUT, t->name, t->line, 1,
					    "more than %d columns", MAX_FIELDS);
		for (i = 0; i < nf; i++)
			if (is_id_name(trim(f[i])))
				break;
		if (i == nf)
			return gp_error_set(t->err, GP_EINPUT, t->name, t->line, 1,
					    "this sacct dump has no header: give its --format list "
					    "with --fields");
		t->mode = 1;
		return set_header(t, f, col, nf);
	}
	if (t->mode == 2) {
		int n = (int)strlen(l);
		char *copy;
		int rc;

		if (is_dashes(l))
			return GP_OK;
		/* a second dump's header */
		{
			const char *p = l;

			while (*p == ' ')
				p++;
			if (!strncasecmp(p, "JobID", 5) && (p[5] == ' ' || !strncasecmp(p + 5, "Raw ", 4))) {
				free(t->hdr);
				t->hdr = gp_xstrdup(l);
				t->hdr_line = t->line;
				t->mode = 3;
				return GP_OK;
			}
		}
		/* each column's text, NUL-terminated, one after another */
		copy = gp_xmalloc((size_t)n + (size_t)t->nf + 1);
		{
			char *w = copy;

			for (i = 0; i < t->nf; i++) {
				int st = t->span[i][0], e = t->span[i][1];

				/* the last column runs to the end of the line */
				if (i == t->nf - 1 || e > n)
					e = n;
				if (st > e)
					st = e;
				memcpy(w, l + st, (size_t)(e - st));
				f[i] = w;
				col[i] = st + 1;
				w += e - st;
				*w++ = '\0';
			}
		}
		rc = row(t, f, col, t->nf);
		free(copy);
		return rc;
	}
	nf = split(t, l, f, col);
	if (nf < 0)
		return gp_error_set(t->err, GP_EINPUT, t->name, t->line, 1,
				    "more than %d fields", MAX_FIELDS);
	/* a second dump's header */
	if (t->map[F_JOBID] >= 0 ? (t->map[F_JOBID] < nf && is_id_name(trim(f[t->map[F_JOBID]])))
				 : (t->map[F_JOBIDRAW] < nf && is_id_name(trim(f[t->map[F_JOBIDRAW]]))))
		return set_header(t, f, col, nf);
	if (t->trailing && nf == t->nf + 1 && !*trim(f[nf - 1]))
		nf--;
	else if (!t->trailing && nf == t->nf + 1 && !*trim(f[nf - 1]))
		nf--;           /* a -p row under a -P header: the same columns */
	if (nf != t->nf)
		return gp_error_set(t->err, GP_EINPUT, t->name, t->line,
				    nf > t->nf ? col[t->nf] : 0,
				    "%d fields where the header has %d (a delimiter inside a "
				    "value? put JobName and other free text last, or use "
				    "--json)", nf, t->nf);
	return row(t, f, col, nf);
}

/* --fields: the header of a headerless dump. */
static int fields_header(tparse *t)
{
	char *copy, *f[MAX_FIELDS];
	int col[MAX_FIELDS], n = 0, rc;
	char *p, *save = NULL;

	if (t->o->delimiter && *t->o->delimiter)
		snprintf(t->delim, sizeof(t->delim), "%s", t->o->delimiter);
	else
		strcpy(t->delim, "|");
	t->dlen = strlen(t->delim);
	copy = gp_xstrdup(t->o->fields);
	for (p = strtok_r(copy, ",", &save); p && n < MAX_FIELDS; p = strtok_r(NULL, ",", &save)) {
		col[n] = 0;
		f[n++] = p;
	}
	rc = set_header(t, f, col, n);
	if (rc)
		gp_error_set(t->err, GP_EUSAGE, NULL, 0, 0, "--fields: %s", t->err->msg);
	free(copy);
	t->trailing = 0;
	t->mode = 1;
	return rc;
}

static int read_text(gp_sacct *h, const char *name, gp_trace_scanner *sc,
		     const gp_sacct_opts *o, gp_error *err)
{
	tparse t;
	char *l;
	size_t len;
	int rc = GP_OK;

	memset(&t, 0, sizeof(t));
	t.h = h;
	t.o = o;
	t.name = name;
	t.err = err;
	t.file = gp_sacct_file(h, name);
	for (int k = 0; k < F_COUNT; k++)
		t.map[k] = -1;
	if (o && o->fields && *o->fields && (rc = fields_header(&t)))
		return rc;
	while ((l = gp_trace_scan_line(sc, &len))) {
		t.line = sc->line;
		rc = line_in(&t, l);
		if (rc)
			break;
	}
	if (!rc && sc->failed)
		rc = gp_trace_scan_error(sc, err);
	if (!rc && t.mode == 3)
		rc = gp_error_set(err, GP_EINPUT, name, t.line, 1,
				  "a sacct header separated by spaces must be followed by "
				  "sacct's line of dashes");
	if (!rc && !h->form)
		h->form = gp_xstrdup(t.mode == 2 ? "sacct (fixed width)" :
				     t.trailing ? "sacct -p" : "sacct -P");
	free(t.hdr);
	return rc;
}

/* ---- scontrol show job and jobcomp/filetxt: Key=Value records ---- */

/* The value of key in the record's tokens (NULL when absent). */
static const char *kv_get(char **k, char **v, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(k[i], key))
			return v[i];
	return NULL;
}

static const char *kv_str(char **k, char **v, int n, const char *key)
{
	const char *s = kv_get(k, v, n, key);

	return s ? s : "";
}

/* A name without its "(uid)" and Slurm's "(null)". */
static const char *kv_name(gp_sacct *h, const char *s)
{
	char buf[128];
	size_t n = strcspn(s, "(");

	if (!n || n >= sizeof(buf))
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return gp_sacct_intern(h, buf);
}

/* GPUs of a TresPerJob / TresPerNode / Gres value: "gres:gpu:h100:2",
 * "gres/gpu:2", "gpu:2(IDX:0-1)". */
static int kv_gres(tparse *t, gp_sacct_job *j, const char *s, const char *what)
{
	char buf[512], *p = buf, *w = buf;

	if (!*s || !strcmp(s, "(null)") || !strcmp(s, "N/A"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	/* drop each item's gres: or gres/ prefix */
	while (*p) {
		if ((p == buf || p[-1] == ',') && (!strncmp(p, "gres:", 5) || !strncmp(p, "gres/", 5)))
			p += 5;
		*w++ = *p++;
	}
	*w = '\0';
	return gres(t, j, buf, 0, what);
}

static int kv_record(tparse *t, char *text)
{
	gp_sacct *h = t->h;
	char *k[128], *v[128], *tok, *save = NULL, where[600];
	const char *s, *a, *b;
	gp_sacct_job *j;
	int n = 0, rc = GP_OK;
	long nodes = 0, l;
	int64_t lim;
	double d;

	for (tok = strtok_r(text, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			/* a value with spaces (a job name, a reason) goes on */
			continue;
		}
		if (n >= 128)
			break;
		*eq = '\0';
		k[n] = tok;
		v[n++] = eq + 1;
	}
	t->jobcomp |= kv_get(k, v, n, "ProcCnt") != NULL;
	s = kv_str(k, v, n, "JobId");
	if (!*s)
		return bad(t, 1, "a record without JobId");
	h->rows++;
	j = gp_sacct_push(h);
	if (!j)
		return bad(t, 1, "more than %zu jobs (the cap)", (size_t)GP_SACCT_MAX_JOBS);
	a = kv_get(k, v, n, "ArrayJobId");
	b = kv_get(k, v, n, "ArrayTaskId");
	if (a && b && strspn(b, "0123456789") == strlen(b) && *b) {
		snprintf(where, sizeof(where), "%s_%s", a, b);
	} else if ((a = kv_get(k, v, n, "HetJobId")) && (b = kv_get(k, v, n, "HetJobOffset")) && *b) {
		snprintf(where, sizeof(where), "%s+%s", a, b);
	} else {
		snprintf(where, sizeof(where), "%s", s);
	}
	j->id = gp_pool_strdup(h->pool, where);
	j->line = t->line;
	j->file = t->file;
	if ((rc = when(t, kv_str(k, v, n, "SubmitTime"), 0, "SubmitTime", &j->submit)) ||
	    (rc = when(t, kv_str(k, v, n, "EligibleTime"), 0, "EligibleTime", &j->eligible)) ||
	    (rc = when(t, kv_str(k, v, n, "StartTime"), 0, "StartTime", &j->start)) ||
	    (rc = when(t, kv_str(k, v, n, "EndTime"), 0, "EndTime", &j->end)))
		goto fail;
	j->state = gp_sacct_state(h, kv_str(k, v, n, "JobState"));
	/* scontrol gives a running job's expected end, a pending one's
	 * expected start */
	if (j->state && (!strcmp(j->state, "RUNNING") || !strcmp(j->state, "SUSPENDED") ||
			 !strcmp(j->state, "PENDING") || !strcmp(j->state, "REQUEUED")))
		j->end = GP_SACCT_NONE;
	if (j->state && !strcmp(j->state, "PENDING"))
		j->start = GP_SACCT_NONE;
	if ((s = kv_get(k, v, n, "RunTime")) && !gp_time_parse_duration(s, &d))
		j->elapsed = (int64_t)d;
	s = kv_str(k, v, n, "TimeLimit");
	if (*s && strspn(s, "0123456789") == strlen(s))
		rc = limit(t, s, 0, 1, &lim);           /* jobcomp: minutes */
	else
		rc = limit(t, s, 0, 0, &lim);
	if (rc)
		goto fail;
	j->time_limit = lim;
	if ((s = kv_get(k, v, n, "NumNodes")) || (s = kv_get(k, v, n, "NodeCnt")))
		if (!gp_parse_long(s, 0, 1L << 24, &l))
			nodes = l;
	if ((s = kv_get(k, v, n, "NumCPUs")) || (s = kv_get(k, v, n, "ProcCnt")))
		if (!gp_parse_long(s, 0, 1L << 24, &l))
			j->cpus = (int32_t)l;
	s = kv_str(k, v, n, "NodeList");
	if (!*s || !strcmp(s, "(null)") || !strcasecmp(s, "None assigned"))
		j->no_nodes = 1;
	j->nodes = (int32_t)nodes;
	/* GPUs: the job's TRES total, else per job, else per node x nodes */
	rc = 0;
	if ((s = kv_get(k, v, n, "TRES")) || (s = kv_get(k, v, n, "Tres")))
		rc = tres(t, j, (char *)s, 0, "TRES");
	if (rc == GP_EINPUT)
		goto fail;
	j->alloc = !j->no_nodes;
	if (rc == 0 && (s = kv_get(k, v, n, "TresPerJob")))
		rc = kv_gres(t, j, s, "TresPerJob");
	if (rc == 0 && ((s = kv_get(k, v, n, "TresPerNode")) || (s = kv_get(k, v, n, "Gres")))) {
		rc = kv_gres(t, j, s, "TresPerNode");
		if (rc == 1 && nodes > 1)
			j->gpus = (int32_t)(j->gpus * nodes > GP_TRACE_MAX_GPUS ? GP_TRACE_MAX_GPUS
								  : j->gpus * nodes);
	}
	if (rc == GP_EINPUT)
		goto fail;
	j->partition = gp_sacct_intern(h, strcmp(kv_str(k, v, n, "Partition"), "(null)") ?
				       kv_str(k, v, n, "Partition") : "");
	j->account = gp_sacct_intern(h, strcmp(kv_str(k, v, n, "Account"), "(null)") ?
				     kv_str(k, v, n, "Account") : "");
	j->qos = gp_sacct_intern(h, strcmp(kv_str(k, v, n, "QOS"), "(null)") ?
				 kv_str(k, v, n, "QOS") : "");
	j->user = kv_name(h, kv_str(k, v, n, "UserId"));
	snprintf(where, sizeof(where), "%s:%d", t->name, t->line);
	gp_sacct_commit(h, where);
	return GP_OK;
fail:
	h->n--;
	return GP_EINPUT;
}

/* Records start at a line "JobId=..."; scontrol's multi-line form goes
 * on in indented lines. */
static int read_kv(gp_sacct *h, const char *name, gp_trace_scanner *sc, gp_error *err)
{
	tparse t;
	gp_sbuf rec;
	char *l;
	size_t len;
	int rc = GP_OK, rec_line = 0;

	memset(&t, 0, sizeof(t));
	t.h = h;
	t.name = name;
	t.err = err;
	t.file = gp_sacct_file(h, name);
	gp_sbuf_init(&rec);
	while (rc == GP_OK) {
		l = gp_trace_scan_line(sc, &len);
		if (!l || !strncmp(l, "JobId=", 6) || !*l) {
			if (rec.len) {
				t.line = rec_line;
				rc = kv_record(&t, rec.buf);
				rec.len = 0;
				rec.buf[0] = '\0';
				if (rc)
					break;
			}
			if (!l)
				break;
			if (*l) {
				rec_line = sc->line;
				gp_sbuf_add(&rec, l, len);
			}
			continue;
		}
		if (rec.len) {
			gp_sbuf_adds(&rec, " ");
			gp_sbuf_add(&rec, l, len);
		} else if (l[strspn(l, " \t\r")]) {
			rc = gp_error_set(err, GP_EINPUT, name, sc->line, 1,
					  "expected a record starting with 'JobId='");
		}
	}
	if (!rc && sc->failed)
		rc = gp_trace_scan_error(sc, err);
	if (!rc && !h->form)
		h->form = gp_xstrdup(t.jobcomp ? "jobcomp/filetxt" : "scontrol show job");
	gp_sbuf_release(&rec);
	return rc;
}

int gp_sacct_sniff(const char *text, size_t len)
{
	size_t i = 0, n;
	const char *l, *e;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i < len && text[i] == '{') {
		size_t lim = len - i < 65536 ? len - i : 65536;
		const char *p = text + i;

		if (memmem(p, lim, "\"jobs\"", 6))
			return 2;
		if (memmem(p, lim, "\"kind\"", 6) && memmem(p, lim, "\"items\"", 7) &&
		    (memmem(p, lim, "\"Pod\"", 5) || memmem(p, lim, "\"PodList\"", 9)))
			return 3;
		return 0;
	}
	/* scontrol show job, jobcomp/filetxt: Key=Value records */
	if (len - i >= 6 && !memcmp(text + i, "JobId=", 6))
		return 4;
	/* the first line names JobID or JobIDRaw as a whole field */
	l = text + i;
	e = memchr(l, '\n', len - i);
	n = e ? (size_t)(e - l) : len - i;
	for (i = 0; i + 5 <= n; i++) {
		size_t k = i + 5;

		if (strncasecmp(l + i, "JobID", 5))
			continue;
		if (k + 3 <= n && !strncasecmp(l + k, "Raw", 3))
			k += 3;
		if ((i == 0 || !isalnum((unsigned char)l[i - 1])) &&
		    (k == n || !(isalnum((unsigned char)l[k]) || l[k] == '_')))
			return 1;
	}
	return 0;
}

int gp_sacct_read(gp_sacct *h, const char *name, const char *text, size_t len,
		  const gp_sacct_opts *o, gp_error *err)
{
	gp_trace_scanner sc;
	char *copy;
	int kind = gp_sacct_sniff(text, len), rc;
	size_t i = gp_text_bom(text, len);

	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	if (kind == 2 || kind == 3 || (kind == 0 && i < len && text[i] == '{')) {
		size_t bom = gp_text_bom(text, len);

		return gp_sacct_read_json(h, name, text + bom, len - bom, err);
	}
	copy = gp_xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	gp_trace_scan_buffer(&sc, name, copy, len);
	if (len >= 3 && !memcmp(copy, "\xef\xbb\xbf", 3))
		sc.p += 3;
	rc = kind == 4 ? read_kv(h, name, &sc, err) : read_text(h, name, &sc, o, err);
	free(copy);
	return rc;
}

int gp_sacct_read_file(gp_sacct *h, const char *path, const gp_sacct_opts *o, gp_error *err)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	gp_trace_scanner sc;
	char *buf;
	size_t len;
	int rc;

	if (gp_trace_scan_file(&sc, path, GP_SACCT_MAX_FILE)) {
		/* the first window says which form */
		int kind = gp_sacct_sniff(sc.p, (size_t)(sc.end - sc.p));

		if (kind != 2 && kind != 3 && sc.p[strspn(sc.p, " \t\r\n")] != '{') {
			if (sc.end - sc.p >= 3 && !memcmp(sc.p, "\xef\xbb\xbf", 3))
				sc.p += 3;
			sc.path = name;
			rc = kind == 4 ? read_kv(h, name, &sc, err) : read_text(h, name, &sc, o, err);
			gp_trace_scan_close(&sc);
			return rc;
		}
		gp_trace_scan_close(&sc);
	}
	rc = gp_read_file(path, GP_SACCT_MAX_FILE, &buf, &len, err);
	if (rc)
		return rc;
	rc = gp_sacct_read(h, name, buf, len, o, err);
	free(buf);
	return rc;
}

/* ---- the rules and the order ---- */

static int by_submit(const void *a, const void *b)
{
	const gp_sacct_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int never_started(const gp_sacct_job *j)
{
	if (j->start == GP_SACCT_NONE)
		return 1;
	if (j->state && !strcmp(j->state, "PENDING"))
		return 1;
	/* cancelled while pending: Start = End = the cancel time, no nodes */
	return j->state && !strcmp(j->state, "CANCELLED") && j->end == j->start &&
	       j->elapsed <= 0 && (j->no_nodes || !j->alloc);
}

int gp_sacct_finish(gp_sacct *h, const gp_sacct_opts *o, gp_error *err)
{
	size_t i, w = 0;

	for (i = 0; i < h->n; i++) {
		gp_sacct_job j = h->jobs[i];

		if (never_started(&j)) {
			h->never_started++;
			continue;
		}
		if (j.gpus == 0 && !(o && o->all_jobs)) {
			h->no_gpus++;
			continue;
		}
		if (j.submit == GP_SACCT_NONE)
			j.submit = j.eligible != GP_SACCT_NONE && j.eligible <= j.start ? j.eligible : j.start;
		/* clocks of a record never run back */
		if (j.start < j.submit)
			j.start = j.submit;
		if (j.end != GP_SACCT_NONE && j.end < j.start)
			j.end = j.start;
		if (j.end == GP_SACCT_NONE) {
			/* censored: it holds its GPUs to the end of the record */
			h->running++;
			j.elapsed = h->record_end > j.start ? h->record_end - j.start : 0;
		} else if (j.elapsed < 0) {
			j.elapsed = j.end > j.start ? j.end - j.start : 0;
		}
		h->jobs[w++] = j;
	}
	h->n = w;
	if (!w) {
		gp_sbuf sb;

		gp_sbuf_init(&sb);
		gp_sacct_summary(h, &sb);
		gp_error_set(err, GP_EINPUT, h->nfiles ? h->files[0] : NULL, 0, 0,
			     "no job to replay: %s", sb.buf ? sb.buf : "");
		gp_sbuf_release(&sb);
		return GP_EINPUT;
	}
	qsort(h->jobs, h->n, sizeof(*h->jobs), by_submit);
	h->origin = h->jobs[0].submit;
	/* a trace holds times up to GP_TRACE_MAX_SECONDS from its start */
	for (i = 0; i < h->n; i++) {
		const gp_sacct_job *j = &h->jobs[i];
		int64_t last = j->end != GP_SACCT_NONE ? j->end : j->start;

		if ((double)(last - h->origin) > GP_TRACE_MAX_SECONDS ||
		    (double)j->elapsed > GP_TRACE_MAX_SECONDS ||
		    (double)j->time_limit > GP_TRACE_MAX_SECONDS)
			return gp_error_set(err, GP_EINPUT, h->files[j->file], (int)j->line, 0,
					    "job '%s' runs past %g s from the first submit (the "
					    "longest trace)", j->id, GP_TRACE_MAX_SECONDS);
	}
	return GP_OK;
}

void gp_sacct_summary(const gp_sacct *h, gp_sbuf *sb)
{
	gp_sbuf_addf(sb, "%zu job(s) from %zu record(s)", h->n, h->rows);
	if (h->steps)
		gp_sbuf_addf(sb, ", %zu step(s) folded into their jobs", h->steps);
	if (h->duplicates)
		gp_sbuf_addf(sb, ", %zu repeated record(s) kept once", h->duplicates);
	if (h->never_started)
		gp_sbuf_addf(sb, ", %zu never started (left out)", h->never_started);
	if (h->no_gpus)
		gp_sbuf_addf(sb, ", %zu without GPUs (left out; --all-jobs keeps them)", h->no_gpus);
	if (h->running)
		gp_sbuf_addf(sb, ", %zu still running (held to the end of the record)", h->running);
}

/* ---- the trace CSV ---- */

static void csv_str(FILE *fp, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n") && *s != ' ' && s[strlen(s) - 1] != ' ') {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
	}
	fputc('"', fp);
}

enum { O_START, O_END, O_LIMIT, O_NODES, O_PART, O_ACCT, O_USER, O_QOS, O_TYPE, O_CPU, O_N };

int gp_sacct_write_file(const gp_sacct *h, FILE *fp)
{
	static const char *const names[O_N] = {
		"recorded_start", "recorded_end", "time_limit", "nodes", "partition",
		"account", "user", "qos", "gpu_type", "cpu_milli",
	};
	int have[O_N] = { 0 }, k;
	char when[40];
	size_t i;

	for (i = 0; i < h->n; i++) {
		const gp_sacct_job *j = &h->jobs[i];

		have[O_START] |= j->start != GP_SACCT_NONE;
		have[O_END] |= j->end != GP_SACCT_NONE;
		have[O_LIMIT] |= j->time_limit > 0;
		have[O_NODES] |= j->nodes > 0;
		have[O_PART] |= j->partition != NULL;
		have[O_ACCT] |= j->account != NULL;
		have[O_USER] |= j->user != NULL;
		have[O_QOS] |= j->qos != NULL;
		have[O_TYPE] |= j->gpu_type != NULL;
		have[O_CPU] |= j->gpus == 0;
	}
	fprintf(fp, "# %s, read by gpuplan: %zu job(s); submit and recorded times are seconds from "
		"the first submit, %s (Unix %lld)\n", h->form ? h->form : "history", h->n,
		gp_time_format_iso(h->n ? h->origin : 0, when, sizeof(when)),
		(long long)(h->n ? h->origin : 0));
	fputs("id,submit,gpus,duration,state", fp);
	for (k = 0; k < O_N; k++)
		if (have[k])
			fprintf(fp, ",%s", names[k]);
	fputc('\n', fp);
	for (i = 0; i < h->n; i++) {
		const gp_sacct_job *j = &h->jobs[i];

		csv_str(fp, j->id);
		fprintf(fp, ",%lld,%d,%lld,", (long long)(j->submit - h->origin), (int)j->gpus,
			(long long)j->elapsed);
		csv_str(fp, j->state);
		if (have[O_START]) {
			fputc(',', fp);
			if (j->start != GP_SACCT_NONE)
				fprintf(fp, "%lld", (long long)(j->start - h->origin));
		}
		if (have[O_END]) {
			fputc(',', fp);
			if (j->end != GP_SACCT_NONE)
				fprintf(fp, "%lld", (long long)(j->end - h->origin));
		}
		if (have[O_LIMIT]) {
			fputc(',', fp);
			if (j->time_limit > 0)
				fprintf(fp, "%lld", (long long)j->time_limit);
		}
		if (have[O_NODES]) {
			fputc(',', fp);
			if (j->nodes > 0)
				fprintf(fp, "%d", (int)j->nodes);
		}
		{
			const char *str[] = { j->partition, j->account, j->user, j->qos, j->gpu_type };

			for (k = O_PART; k <= O_TYPE; k++) {
				if (!have[k])
					continue;
				fputc(',', fp);
				csv_str(fp, str[k - O_PART]);
			}
		}
		if (have[O_CPU]) {
			fputc(',', fp);
			if (j->gpus == 0)
				fprintf(fp, "%lld", (long long)(j->cpus > 0 ? j->cpus : 1) * 1000);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? GP_EIO : GP_OK;
}
