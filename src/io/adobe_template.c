/* The Adobe / NotebookOS notebook workload template (JSON), read as a
 * stream: a small pull tokenizer over a refilled buffer, so a synthetic
 * fleet of millions of cell executions never sits in memory as text or
 * as a JSON tree.  Shape (keys in any order, unknown keys skipped):
 *
 *   {"sessions": [{"id": "...", "start_tick": 258, "stop_tick": 1937,
 *      "num_training_events": 10,
 *      "max_resource_request": {"gpus": 8, "vram": 15.64, ...},
 *      "trainings": [{"start_tick": 285, "duration_in_ticks": 8,
 *         "end_tick": 293, "gpus": 8, "vram": 15.64,
 *         "gpu_utilizations": [{"utilization": 8.25}, ...], ...}]}]}
 *
 * vram is the event's GPU memory over all its GPUs (GB, read as GiB): in
 * the June 2021 template 1-GPU events use at most 4.98, 4-GPU ones 19.82
 * and 8-GPU ones 39.24. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "gpuplan/io/envs.h"
#include "gpuplan/util/util.h"

#define JR_BUF (1u << 20)
#define JR_MAX_STR 4096
#define JR_MAX_DEPTH 64

enum { T_EOF = 0, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_COLON, T_COMMA, T_STRING, T_NUMBER,
       T_TRUE, T_FALSE, T_NULL };

typedef struct jr {
	FILE *fp;
	const char *path;
	char *buf;
	size_t cap, len, pos, total, max_total;
	int line, col;
	int tline, tcol;        /* start of the last token */
	char str[JR_MAX_STR + 1];
	size_t slen;
	char key[JR_MAX_STR + 1]; /* the key of the value being read */
	double num;
	gp_error *err;
} jr;

static int jr_fail(jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int jr_fail(jr *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(r->err, GP_EINPUT, r->path, r->tline, r->tcol, fmt, ap);
	va_end(ap);
	return GP_EINPUT;
}

static int jr_refill(jr *r)
{
	r->len = fread(r->buf, 1, r->cap, r->fp);
	r->pos = 0;
	r->total += r->len;
	return r->len ? 0 : -1;
}

static inline int jr_peek(jr *r)
{
	if (r->pos == r->len && jr_refill(r))
		return -1;
	return (unsigned char)r->buf[r->pos];
}

static inline int jr_get(jr *r)
{
	int c = jr_peek(r);

	if (c < 0)
		return c;
	r->pos++;
	if (c == '\n') {
		r->line++;
		r->col = 1;
	} else {
		r->col++;
	}
	return c;
}

static int lex_string(jr *r)
{
	int c;

	r->slen = 0;
	for (;;) {
		c = jr_get(r);
		if (c < 0)
			return jr_fail(r, "unterminated string");
		if (c == '"')
			break;
		if (c < 0x20 || c == 0x7f)
			return gp_text_byte_error(r->err, r->path, r->line, r->col - 1, (unsigned char)c);
		if (c == '\\') {
			c = jr_get(r);
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				int i, v = 0;

				for (i = 0; i < 4; i++) {
					int h = jr_get(r);

					if (h >= '0' && h <= '9')
						v = v * 16 + h - '0';
					else if (h >= 'a' && h <= 'f')
						v = v * 16 + h - 'a' + 10;
					else if (h >= 'A' && h <= 'F')
						v = v * 16 + h - 'A' + 10;
					else
						return jr_fail(r, "bad \\u escape in a string");
				}
				c = v < 0x80 ? v : '?'; /* names only: non-ASCII folds to '?' */
				break;
			}
			default:
				return jr_fail(r, "bad escape in a string");
			}
		}
		if (r->slen >= JR_MAX_STR)
			return jr_fail(r, "string longer than %d bytes", JR_MAX_STR);
		r->str[r->slen++] = (char)c;
	}
	r->str[r->slen] = '\0';
	return T_STRING;
}

static int lex_word(jr *r, const char *w, int tok)
{
	const char *p;

	for (p = w; *p; p++)
		if (jr_get(r) != *p)
			return jr_fail(r, "unexpected text (expected '%s')", w);
	return tok;
}

/* Next token; returns T_* (>= 0) or -GP_EINPUT with err set. */
static int lex(jr *r)
{
	int c;

	do {
		c = jr_get(r);
	} while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	r->tline = r->line;
	r->tcol = r->col - 1;
	if (r->total > r->max_total)
		return -jr_fail(r, "file larger than %zu bytes", r->max_total);
	switch (c) {
	case -1: return T_EOF;
	case '{': return T_LBRACE;
	case '}': return T_RBRACE;
	case '[': return T_LBRACK;
	case ']': return T_RBRACK;
	case ':': return T_COLON;
	case ',': return T_COMMA;
	case '"': {
		int t = lex_string(r);

		return t == T_STRING ? t : -t;
	}
	case 't': return lex_word(r, "rue", T_TRUE) == T_TRUE ? T_TRUE : -GP_EINPUT;
	case 'f': return lex_word(r, "alse", T_FALSE) == T_FALSE ? T_FALSE : -GP_EINPUT;
	case 'n': return lex_word(r, "ull", T_NULL) == T_NULL ? T_NULL : -GP_EINPUT;
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		char b[64];
		size_t n = 0;
		char *end;

		b[n++] = (char)c;
		for (;;) {
			c = jr_peek(r);
			if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
				break;
			if (n >= sizeof(b) - 1)
				return -jr_fail(r, "number too long");
			b[n++] = (char)jr_get(r);
		}
		b[n] = '\0';
		errno = 0;
		r->num = strtod(b, &end);
		if (*end || errno || !isfinite(r->num))
			return -jr_fail(r, "bad number '%s'", b);
		return T_NUMBER;
	}
	if (c < 0x20 || c == 0x7f)
		return -gp_text_byte_error(r->err, r->path, r->tline, r->tcol, (unsigned char)c);
	return -jr_fail(r, c >= 0x20 && c < 0x7f ? "unexpected character '%c'" : "unexpected byte 0x%02x", c);
}

static const char *tok_name(int t)
{
	static const char *const names[] = { "end of file", "'{'", "'}'", "'['", "']'", "':'", "','",
					      "a string", "a number", "true", "false", "null" };

	return t >= 0 && t < (int)GP_ARRAY_SIZE(names) ? names[t] : "?";
}

static int expect(jr *r, int want)
{
	int t = lex(r);

	if (t < 0)
		return -t;
	if (t != want)
		return jr_fail(r, "expected %s, got %s", tok_name(want), tok_name(t));
	return GP_OK;
}

static int skip_value_tok(jr *r, int t, int depth);

/* Skip the rest of a container whose opening token was just read. */
static int skip_container(jr *r, int close, int depth)
{
	int t, first = 1, rc;

	if (depth > JR_MAX_DEPTH)
		return jr_fail(r, "nesting deeper than %d", JR_MAX_DEPTH);
	for (;;) {
		t = lex(r);
		if (t < 0)
			return -t;
		if (t == close && first)
			return GP_OK;
		if (!first) {
			if (t == close)
				return GP_OK;
			if (t != T_COMMA)
				return jr_fail(r, "expected ',' or %s, got %s", tok_name(close), tok_name(t));
			t = lex(r);
			if (t < 0)
				return -t;
		}
		first = 0;
		if (close == T_RBRACE) {
			if (t != T_STRING)
				return jr_fail(r, "expected a key, got %s", tok_name(t));
			if ((rc = expect(r, T_COLON)))
				return rc;
			t = lex(r);
			if (t < 0)
				return -t;
		}
		if ((rc = skip_value_tok(r, t, depth + 1)))
			return rc;
	}
}

static int skip_value_tok(jr *r, int t, int depth)
{
	switch (t) {
	case T_LBRACE: return skip_container(r, T_RBRACE, depth);
	case T_LBRACK: return skip_container(r, T_RBRACK, depth);
	case T_STRING: case T_NUMBER: case T_TRUE: case T_FALSE: case T_NULL: return GP_OK;
	}
	return jr_fail(r, "expected a value, got %s", tok_name(t));
}

/* Iterate a container.  *state starts at 0; returns 1 with the next
 * element's first token in *tok (objects: the key in r->key, its ':'
 * consumed and *tok the value's first token), 0 at the end, -status. */
static int next_item(jr *r, int close, int *state, int *tok)
{
	int t = lex(r), rc;

	if (t < 0)
		return t;
	if (t == close && *state == 0)
		return 0;
	if (*state) {
		if (t == close)
			return 0;
		if (t != T_COMMA)
			return -jr_fail(r, "expected ',' or %s, got %s", tok_name(close), tok_name(t));
		t = lex(r);
		if (t < 0)
			return t;
	}
	*state = 1;
	if (close == T_RBRACE) {
		if (t != T_STRING)
			return -jr_fail(r, "expected a key, got %s", tok_name(t));
		memcpy(r->key, r->str, r->slen + 1);
		if ((rc = expect(r, T_COLON)))
			return -rc;
		t = lex(r);
		if (t < 0)
			return t;
	}
	*tok = t;
	return 1;
}

static int want_number(jr *r, int t, const char *what, double min, double max, double *out)
{
	if (t != T_NUMBER)
		return jr_fail(r, "'%s' must be a number, got %s", what, tok_name(t));
	if (r->num < min || r->num > max)
		return jr_fail(r, "'%s' must be in [%g, %g], got %g", what, min, max, r->num);
	*out = r->num;
	return GP_OK;
}

static int want_int(jr *r, int t, const char *what, double min, double max, double *out)
{
	int rc = want_number(r, t, what, min, max, out);

	if (rc == GP_OK && *out != floor(*out))
		return jr_fail(r, "'%s' must be a whole number, got %g", what, *out);
	return rc;
}

typedef struct where {
	int line, col;
} where;

typedef struct sess_ctx {
	gp_env_trace *out;
	double tick_s;
	where *tw;              /* position of each task of the session */
	size_t twcap;
} sess_ctx;

static int read_utils(jr *r, double *mean, int *count)
{
	int st = 0, t, rc, k;
	double sum = 0, v;

	*count = 0;
	while ((k = next_item(r, T_RBRACK, &st, &t)) == 1) {
		int st2 = 0, t2, k2, have = 0;

		if (t != T_LBRACE)
			return jr_fail(r, "'gpu_utilizations' entries must be objects");
		while ((k2 = next_item(r, T_RBRACE, &st2, &t2)) == 1) {
			if (!strcmp(r->key, "utilization")) {
				if ((rc = want_number(r, t2, "utilization", 0, 100, &v)))
					return rc;
				sum += v;
				have = 1;
			} else if ((rc = skip_value_tok(r, t2, 1))) {
				return rc;
			}
		}
		if (k2 < 0)
			return -k2;
		if (!have)
			return jr_fail(r, "a 'gpu_utilizations' entry has no 'utilization'");
		(*count)++;
	}
	if (k < 0)
		return -k;
	*mean = *count ? sum / *count / 100.0 : 1.0;
	return GP_OK;
}

static int read_training(jr *r, sess_ctx *cx, gp_env_task *k, where *at)
{
	int st = 0, t, rc, n, nutil = -1;
	double start = -1, dur = -1, end = -1, gpus = -1, vram = 0, util = 1.0;
	where wend = { 0, 0 };

	at->line = r->tline;
	at->col = r->tcol;
	while ((n = next_item(r, T_RBRACE, &st, &t)) == 1) {
		const char *key = r->key;

		if (!strcmp(key, "start_tick"))
			rc = want_int(r, t, "start_tick", 0, 1e12, &start);
		else if (!strcmp(key, "duration_in_ticks"))
			rc = want_number(r, t, "duration_in_ticks", 0, 1e12, &dur);
		else if (!strcmp(key, "end_tick")) {
			rc = want_number(r, t, "end_tick", 0, 1e13, &end);
			wend.line = r->tline;
			wend.col = r->tcol;
		} else if (!strcmp(key, "gpus"))
			rc = want_int(r, t, "gpus", 0, GP_ENV_MAX_QUOTA_GPUS, &gpus);
		else if (!strcmp(key, "vram"))
			rc = want_number(r, t, "vram", 0, 1e6, &vram);
		else if (!strcmp(key, "gpu_utilizations")) {
			if (t != T_LBRACK)
				return jr_fail(r, "'gpu_utilizations' must be a list");
			rc = read_utils(r, &util, &nutil);
		} else
			rc = skip_value_tok(r, t, 2);
		if (rc)
			return rc;
	}
	if (n < 0)
		return -n;
	r->tline = at->line;
	r->tcol = at->col;
	if (start < 0)
		return jr_fail(r, "training event without 'start_tick'");
	if (dur < 0)
		return jr_fail(r, "training event without 'duration_in_ticks'");
	if (gpus < 0)
		return jr_fail(r, "training event without 'gpus'");
	if (end >= 0 && fabs(end - (start + dur)) > 1e-9) {
		r->tline = wend.line;
		r->tcol = wend.col;
		return jr_fail(r, "'end_tick' %g is not start_tick + duration_in_ticks (%g)", end, start + dur);
	}
	if (nutil > 0 && nutil != (int)gpus)
		return jr_fail(r, "%d 'gpu_utilizations' for %d GPUs", nutil, (int)gpus);
	k->start = start * cx->tick_s;
	k->duration = dur * cx->tick_s;
	k->gpus = (int32_t)gpus;
	k->mem_mib = gpus > 0 ? llround(vram * 1024.0) : 0;
	k->util = (float)(gpus > 0 ? util : 0);
	return GP_OK;
}

/* A notebook as read so far. */
typedef struct session {
	double start, stop, qgpus, qvram, nevents;
	where at, wnev;         /* the notebook; its num_training_events */
	size_t first;           /* its first training event in out->tasks */
	char *id;
} session;

/* "max_resource_request": {"gpus": N, "vram": GiB}. */
static int read_request(jr *r, int t, session *ss)
{
	int st2 = 0, t2, n2, rc = GP_OK;

	if (t != T_LBRACE)
		return jr_fail(r, "'max_resource_request' must be an object");
	while ((n2 = next_item(r, T_RBRACE, &st2, &t2)) == 1) {
		if (!strcmp(r->key, "gpus"))
			rc = want_int(r, t2, "gpus", 0, GP_ENV_MAX_QUOTA_GPUS, &ss->qgpus);
		else if (!strcmp(r->key, "vram"))
			rc = want_number(r, t2, "vram", 0, 1e6, &ss->qvram);
		else
			rc = skip_value_tok(r, t2, 3);
		if (rc)
			return rc;
	}
	return n2 < 0 ? -n2 : GP_OK;
}

/* "trainings": [ {...}, ... ] into out's tasks. */
static int read_trainings(jr *r, sess_ctx *cx, int t, const session *ss)
{
	gp_env_trace *out = cx->out;
	int st2 = 0, t2, n2, rc;

	if (t != T_LBRACK)
		return jr_fail(r, "'trainings' must be a list");
	while ((n2 = next_item(r, T_RBRACK, &st2, &t2)) == 1) {
		gp_env_task *k;
		size_t j = out->ntasks - ss->first;

		if (t2 != T_LBRACE)
			return jr_fail(r, "a training event must be an object");
		if (out->ntasks >= GP_ENV_MAX_TASKS)
			return jr_fail(r, "more than %d training events", GP_ENV_MAX_TASKS);
		GP_GROW(cx->tw, cx->twcap, j + 1);
		k = gp_env_trace_push(out);
		if ((rc = read_training(r, cx, k, &cx->tw[j])))
			return rc;
	}
	return n2 < 0 ? -n2 : GP_OK;
}

/* One key of a notebook. */
static int read_session_key(jr *r, sess_ctx *cx, int t, session *ss)
{
	const char *key = r->key;

	if (!strcmp(key, "id")) {
		if (t != T_STRING)
			return jr_fail(r, "'id' must be a string");
		if (!r->slen || r->slen > GP_ENV_NAME_MAX)
			return jr_fail(r, "'id' must be 1..%d characters", GP_ENV_NAME_MAX);
		if (gp_env_set_find(&cx->out->envs, r->str) >= 0)
			return jr_fail(r, "notebook '%s' appears twice", r->str);
		free(ss->id);
		ss->id = gp_xstrdup(r->str);
		return GP_OK;
	}
	if (!strcmp(key, "start_tick"))
		return want_int(r, t, "start_tick", 0, 1e12, &ss->start);
	if (!strcmp(key, "stop_tick"))
		return want_int(r, t, "stop_tick", 0, 1e12, &ss->stop);
	if (!strcmp(key, "num_training_events")) {
		ss->wnev.line = r->tline;
		ss->wnev.col = r->tcol;
		return want_int(r, t, "num_training_events", 0, 1e12, &ss->nevents);
	}
	if (!strcmp(key, "max_resource_request"))
		return read_request(r, t, ss);
	if (!strcmp(key, "trainings"))
		return read_trainings(r, cx, t, ss);
	return skip_value_tok(r, t, 2);
}

/* The notebook is whole and its events fit its reservation. */
static int check_session(jr *r, sess_ctx *cx, const session *ss)
{
	const gp_env_trace *out = cx->out;
	size_t i;

	r->tline = ss->at.line;
	r->tcol = ss->at.col;
	if (!ss->id)
		return jr_fail(r, "notebook without 'id'");
	if (ss->start < 0 || ss->stop < 0)
		return jr_fail(r, "notebook '%s' without 'start_tick' and 'stop_tick'", ss->id);
	if (ss->stop < ss->start)
		return jr_fail(r, "notebook '%s': stop_tick %g before start_tick %g", ss->id, ss->stop,
			       ss->start);
	if (ss->qgpus < 0)
		return jr_fail(r, "notebook '%s' without 'max_resource_request.gpus'", ss->id);
	if (ss->nevents >= 0 && (size_t)ss->nevents != out->ntasks - ss->first) {
		r->tline = ss->wnev.line;
		r->tcol = ss->wnev.col;
		return jr_fail(r, "notebook '%s': num_training_events %g but %zu training events", ss->id,
			       ss->nevents, out->ntasks - ss->first);
	}
	if (out->envs.n >= GP_ENV_MAX_ENVS)
		return jr_fail(r, "more than %d notebooks", GP_ENV_MAX_ENVS);
	for (i = ss->first; i < out->ntasks; i++)
		if (out->tasks[i].gpus > (int)ss->qgpus) {
			r->tline = cx->tw[i - ss->first].line;
			r->tcol = cx->tw[i - ss->first].col;
			return jr_fail(r, "training event needs %d GPUs, more than notebook '%s' reserves (%g)",
				       out->tasks[i].gpus, ss->id, ss->qgpus);
		}
	return GP_OK;
}

static int read_session(jr *r, sess_ctx *cx)
{
	gp_env_trace *out = cx->out;
	session ss = { -1, -1, -1, 0, -1, { r->tline, r->tcol }, { 0, 0 }, out->ntasks, NULL };
	int st = 0, t, rc = GP_OK, n, idx;
	size_t i;

	while (rc == GP_OK && (n = next_item(r, T_RBRACE, &st, &t)) == 1)
		rc = read_session_key(r, cx, t, &ss);
	if (rc == GP_OK && n < 0)
		rc = -n;
	if (rc == GP_OK)
		rc = check_session(r, cx, &ss);
	if (rc) {
		free(ss.id);
		return rc;
	}
	idx = gp_env_set_add(&out->envs, ss.id, (int)ss.qgpus, llround(ss.qvram * 1024.0));
	out->envs.envs[idx].start = ss.start * cx->tick_s;
	out->envs.envs[idx].stop = ss.stop * cx->tick_s;
	out->envs.envs[idx].line = ss.at.line;
	out->envs.envs[idx].col = ss.at.col;
	for (i = ss.first; i < out->ntasks; i++) {
		out->tasks[i].env = idx;
		if (!out->tasks[i].gpus)
			out->cpu_only_tasks++;
	}
	free(ss.id);
	return GP_OK;
}

int gp_adobe_sniff(const char *path)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : NULL;
	char b[512];
	size_t n, i;
	int ok = 0;

	if (!fp)
		return 0;
	n = fread(b, 1, sizeof(b) - 1, fp);
	fclose(fp);
	b[n] = '\0';
	for (i = gp_text_bom(b, n); i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'); i++)
		;
	if (i < n && b[i] == '{')
		ok = 1;
	return ok;
}

/* The read buffer: JR_BUF, or less for a smaller regular file (its size
 * and one byte, so that a single read takes it whole; at least 4 KiB in
 * case it grows).  The session templates of a test or a notebook study
 * are kilobytes: a megabyte for each would be mostly untouched. */
static size_t buf_size(FILE *fp)
{
	struct stat st;

	if (fstat(fileno(fp), &st) || !S_ISREG(st.st_mode) || st.st_size >= (off_t)JR_BUF)
		return JR_BUF;
	return st.st_size < 4095 ? 4096 : (size_t)st.st_size + 1;
}

int gp_adobe_load(const char *path, double tick_s, gp_env_trace *out, gp_error *err)
{
	jr r;
	sess_ctx cx;
	int st = 0, t, n, rc = GP_OK, have_sessions = 0;

	memset(&r, 0, sizeof(r));
	memset(&cx, 0, sizeof(cx));
	r.path = path;
	r.err = err;
	r.line = r.col = 1;
	r.max_total = GP_ADOBE_MAX_FILE;
	cx.out = out;
	cx.tick_s = tick_s;
	r.fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!r.fp)
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
	gp_file_note_read(r.fp);
	r.cap = buf_size(r.fp);
	r.buf = gp_xmalloc(r.cap);
	if (jr_peek(&r) == 0xef && gp_text_bom(r.buf + r.pos, r.len - r.pos))
		r.pos += 3;
	if ((rc = expect(&r, T_LBRACE)))
		goto done;
	while ((n = next_item(&r, T_RBRACE, &st, &t)) == 1) {
		if (!strcmp(r.key, "sessions")) {
			int st2 = 0, t2, n2;

			if (t != T_LBRACK) {
				rc = jr_fail(&r, "'sessions' must be a list");
				goto done;
			}
			have_sessions = 1;
			while ((n2 = next_item(&r, T_RBRACK, &st2, &t2)) == 1) {
				if (t2 != T_LBRACE) {
					rc = jr_fail(&r, "a session must be an object");
					goto done;
				}
				if ((rc = read_session(&r, &cx)))
					goto done;
			}
			if (n2 < 0) {
				rc = -n2;
				goto done;
			}
		} else if (!strcmp(r.key, "workload_title") && t == T_STRING && !out->title) {
			out->title = gp_xstrdup(r.str);
		} else if ((rc = skip_value_tok(&r, t, 1))) {
			goto done;
		}
	}
	if (n < 0) {
		rc = -n;
		goto done;
	}
	t = lex(&r);
	if (t < 0) {
		rc = -t;
		goto done;
	}
	if (t != T_EOF) {
		rc = jr_fail(&r, "text after the end of the template");
		goto done;
	}
	if (ferror(r.fp)) {
		rc = gp_error_set(err, GP_EIO, path, 0, 0, "read error");
		goto done;
	}
	if (!have_sessions) {
		r.tline = 1;
		r.tcol = 1;
		rc = jr_fail(&r, "no 'sessions' list: not a notebook workload template");
		goto done;
	}
	out->serial = 1;
	free(out->format);
	out->format = gp_xstrdup("adobe-notebook");
	free(out->envs.source);
	out->envs.source = gp_xstrdup(path);
	gp_env_trace_finish(out);
done:
	if (r.fp != stdin)
		fclose(r.fp);
	free(r.buf);
	free(cx.tw);
	return rc;
}
