#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"
#include "gpuplan/io/yaml.h"
#include "yaml_int.h"

/* Storage of a document's nodes: blocks carved front to back (newest
 * first in doc->blocks), so a node costs its own bytes only. */
struct gp_yaml_block {
	struct gp_yaml_block *next; /* older block */
	size_t size, used;          /* bytes of data after the header */
};

#define BLOCK_MIN ((size_t)4096)
#define BLOCK_MAX ((size_t)256 << 10)
#define SCALAR_SIZE offsetof(gp_yaml_node, n) /* a scalar ends after its text pointer */
#define MAX_LINE ((1u << 29) - 1)
#define MAX_COL ((1u << 31) - 1)

/* Where storage stood, to give back a streamed item's. */
typedef struct mark {
	struct gp_yaml_block *block;
	size_t used;
} mark;

/* Parser state: a stack of open collections whose children wait in kids
 * (a mapping's as key, value pairs) until it closes and gets its arrays;
 * a mapping alternates between expecting a key and expecting a value. */
typedef struct frame {
	gp_yaml_node *node;
	gp_yaml_node *pending_key; /* map: key read, value not yet */
	size_t base;               /* its children start at kids[base] */
	/* map with many keys: open-addressing index of keys (i + 1, 0 empty),
	 * so that the duplicate check stays linear in the file size */
	uint32_t *index;
	size_t icap;
	const char *stream;        /* seq whose items go to the callback: its
				      root key (NULL: an ordinary node) */
	size_t count;              /* items streamed so far */
	int drop;                  /* root map: the pending entry is not kept */
	mark start;                /* storage before this node */
} frame;

typedef struct pctx {
	gp_yaml_doc *doc;
	gp_error *err;
	int max_depth;
	const char *const *keys;   /* streamed lists: under these root keys */
	gp_yaml_item_fn fn;        /* one key's items */
	gp_yaml_keyed_fn kfn;      /* or any key's */
	void *ud;
	frame *stack;
	size_t depth, cap;
	gp_yaml_node **kids;
	size_t nkids, capkids;
	struct gp_yaml_block *spare; /* a block given back, for reuse */
	/* texts of mapping keys (in doc->strings), open addressing */
	const char **keytab;
	size_t keycap, nkeytab;
	size_t line0;              /* lines of the file before the text */
	/* root keys whose entries are not kept (gp_yaml_keep_fn): their
	 * texts and lines, for the duplicate check, in an open-addressing
	 * table of index + 1 */
	gp_yaml_keep_fn keep;
	struct dropped {
		const char *text;
		unsigned line;
	} *dk;
	size_t ndk, capdk;
	uint32_t *dtab;
	size_t dcap;
	gp_pool *dtexts;
} pctx;

/* The pending key of a dropped root entry (its node is given back). */
static gp_yaml_node dropped_key = { GP_YAML_SCALAR, 0, 0, 0, (char *)"", 0, NULL, NULL };

void gp_yaml_doc_init(gp_yaml_doc *doc)
{
	doc->path = NULL;
	doc->root = NULL;
	doc->blocks = NULL;
	doc->strings = NULL;
}

static void blocks_free(struct gp_yaml_block *b)
{
	while (b) {
		struct gp_yaml_block *next = b->next;

		free(b);
		b = next;
	}
}

void gp_yaml_doc_release(gp_yaml_doc *doc)
{
	if (!doc)
		return;
	blocks_free(doc->blocks);
	blocks_free(doc->strings);
	free(doc->path);
	doc->root = NULL;
	doc->path = NULL;
	doc->blocks = NULL;
	doc->strings = NULL;
}

#if defined(__SANITIZE_ADDRESS__)
#define STORE_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STORE_EXACT 1
#endif
#endif

/* A new empty block of size bytes (reuse: a block given back, at least
 * that big) at the head of list. */
static struct gp_yaml_block *block_push(struct gp_yaml_block **list, struct gp_yaml_block *reuse,
					size_t size)
{
	struct gp_yaml_block *b = reuse;

	if (!b) {
		b = gp_xmalloc(sizeof(*b) + size);
		b->size = size;
	}
	b->used = 0;
	b->next = *list;
	*list = b;
	return b;
}

static void *store(pctx *x, size_t size)
{
	struct gp_yaml_block *b = x->doc->blocks;
	void *p;

#ifdef STORE_EXACT
	/* Under AddressSanitizer every piece is a block of its own, so that
	 * reading past a node (n of a scalar, say) is reported. */
	b = block_push(&x->doc->blocks, NULL, size);
	b->used = size;
	p = b + 1;
#else
	size = (size + 7) & ~(size_t)7;
	if (!b || b->size - b->used < size) {
		size_t bs = b ? (b->size < BLOCK_MAX / 2 ? b->size * 2 : BLOCK_MAX) : BLOCK_MIN;

		if (bs < size)
			bs = size;
		if (x->spare && x->spare->size >= bs) {
			b = block_push(&x->doc->blocks, x->spare, bs);
			x->spare = NULL;
		} else {
			b = block_push(&x->doc->blocks, NULL, bs);
		}
	}
	p = (char *)(b + 1) + b->used;
	b->used += size;
#endif
	return p;
}

static mark store_mark(const pctx *x)
{
	mark m = { x->doc->blocks, x->doc->blocks ? x->doc->blocks->used : 0 };

	return m;
}

/* Give back everything stored since m (one block is kept for reuse). */
static void store_rewind(pctx *x, mark m)
{
	while (x->doc->blocks != m.block) {
		struct gp_yaml_block *b = x->doc->blocks;

		x->doc->blocks = b->next;
		if (!x->spare && b->size <= BLOCK_MAX) {
			x->spare = b;
		} else {
			free(b);
		}
	}
	if (m.block)
		m.block->used = m.used;
}

static void set_pos(const pctx *x, gp_yaml_node *n, int type, const yaml_mark_t *mark)
{
	size_t line = mark->line + 1 + x->line0;

	n->type = (unsigned)type & 3u;
	n->quoted = 0;
	n->line = line < MAX_LINE ? (unsigned)line : MAX_LINE;
	n->col = mark->column + 1 < MAX_COL ? (unsigned)mark->column + 1 : MAX_COL;
}

static gp_yaml_node *node_new(pctx *x, int type, const yaml_mark_t *mark)
{
	gp_yaml_node *n = store(x, sizeof(*n));

	set_pos(x, n, type, mark);
	n->scalar = NULL;
	n->n = 0;
	n->keys = NULL;
	n->items = NULL;
	return n;
}

/* A scalar: the node up to its text pointer, the text right behind. */
static gp_yaml_node *scalar_new(pctx *x, const yaml_mark_t *mark, const char *text, size_t len)
{
	gp_yaml_node *n = store(x, SCALAR_SIZE + len + 1);

	set_pos(x, n, GP_YAML_SCALAR, mark);
	n->scalar = (char *)n + SCALAR_SIZE;
	memcpy(n->scalar, text, len);
	n->scalar[len] = '\0';
	return n;
}

#define KEY_MAX_LEN 32    /* longer keys are stored with their node */
#define KEY_MAX_DISTINCT 4096 /* then new keys are too */
#define KEY_BLOCK ((size_t)KEY_MAX_DISTINCT * (KEY_MAX_LEN + 1))

/* Text of a mapping key stored once per document (a file repeats a few
 * keys many times); NULL when it is not kept that way. */
static const char *key_text(pctx *x, const char *text, size_t len)
{
	size_t h, i;
	struct gp_yaml_block *b;
	char *p;

	if (len > KEY_MAX_LEN || memchr(text, '\0', len))
		return NULL;
	if (!x->keytab) {
		x->keycap = 2 * KEY_MAX_DISTINCT;
		x->keytab = gp_xcalloc(x->keycap, sizeof(*x->keytab));
	}
	for (h = gp_hash_str(text) & (x->keycap - 1); x->keytab[h]; h = (h + 1) & (x->keycap - 1))
		if (!strcmp(x->keytab[h], text))
			return x->keytab[h];
	if (x->nkeytab >= KEY_MAX_DISTINCT)
		return NULL;
	b = x->doc->strings;
	if (!b || b->size - b->used < len + 1) {
		/* one block holds them all (KEY_MAX_DISTINCT x KEY_MAX_LEN
		 * bytes at most); only what is written becomes resident */
		b = block_push(&x->doc->strings, NULL, KEY_BLOCK);
	}
	p = (char *)(b + 1) + b->used;
	b->used += len + 1;
	for (i = 0; i < len; i++)
		p[i] = text[i];
	p[len] = '\0';
	x->keytab[h] = p;
	x->nkeytab++;
	return p;
}

/* A mapping key: a scalar whose text may be shared. */
static gp_yaml_node *key_new(pctx *x, const yaml_mark_t *mark, const char *text, size_t len)
{
	const char *t = key_text(x, text, len);
	gp_yaml_node *n;

	if (!t)
		return scalar_new(x, mark, text, len);
	n = store(x, SCALAR_SIZE);
	set_pos(x, n, GP_YAML_SCALAR, mark);
	n->scalar = (char *)t;
	return n;
}

#define INDEX_FROM 8 /* keys before a map gets its index */

/* Key i of the open map f. */
static const gp_yaml_node *open_key(const pctx *x, const frame *f, size_t i)
{
	return x->kids[f->base + 2 * i];
}

static void index_put(const pctx *x, frame *f, size_t i)
{
	size_t mask = f->icap - 1, h = gp_hash_str(open_key(x, f, i)->scalar) & mask;

	while (f->index[h])
		h = (h + 1) & mask;
	f->index[h] = (uint32_t)(i + 1);
}

/* Index the map's keys once it has INDEX_FROM, growing at half full. */
static void index_add(const pctx *x, frame *f)
{
	size_t n = (x->nkids - f->base) / 2, i;

	if (n < INDEX_FROM)
		return;
	if (2 * n > f->icap) {
		free(f->index);
		f->icap = f->icap ? f->icap * 2 : 32;
		while (2 * n > f->icap)
			f->icap *= 2;
		f->index = gp_xcalloc(f->icap, sizeof(*f->index));
		for (i = 0; i < n; i++)
			index_put(x, f, i);
		return;
	}
	index_put(x, f, n - 1);
}

/* The earlier key of the open map f equal to key, or NULL. */
static const gp_yaml_node *find_key(const pctx *x, const frame *f, const char *key)
{
	size_t i, h, mask, n = (x->nkids - f->base) / 2;

	if (!f->index) {
		for (i = 0; i < n; i++)
			if (!strcmp(open_key(x, f, i)->scalar, key))
				return open_key(x, f, i);
		return NULL;
	}
	mask = f->icap - 1;
	for (h = gp_hash_str(key) & mask; f->index[h]; h = (h + 1) & mask)
		if (!strcmp(open_key(x, f, f->index[h] - 1)->scalar, key))
			return open_key(x, f, f->index[h] - 1);
	return NULL;
}

static void push_kid(pctx *x, gp_yaml_node *n)
{
	GP_GROW(x->kids, x->capkids, x->nkids + 1);
	x->kids[x->nkids++] = n;
}

/* A dropped root key equal to key, or NULL. */
static const struct dropped *dropped_find(const pctx *x, const char *key)
{
	size_t h, mask = x->dcap - 1;

	if (!x->dcap)
		return NULL;
	for (h = gp_hash_str(key) & mask; x->dtab[h]; h = (h + 1) & mask)
		if (!strcmp(x->dk[x->dtab[h] - 1].text, key))
			return &x->dk[x->dtab[h] - 1];
	return NULL;
}

static void dropped_put(pctx *x, size_t i)
{
	size_t mask = x->dcap - 1, h = gp_hash_str(x->dk[i].text) & mask;

	while (x->dtab[h])
		h = (h + 1) & mask;
	x->dtab[h] = (uint32_t)(i + 1);
}

/* Remember the dropped root key k (its text outlives its node). */
static void dropped_add(pctx *x, const gp_yaml_node *k)
{
	size_t i;

	if (!x->dtexts)
		x->dtexts = gp_pool_new();
	GP_GROW(x->dk, x->capdk, x->ndk + 1);
	x->dk[x->ndk].text = k->scalar == (const char *)k + SCALAR_SIZE
				     ? gp_pool_strdup(x->dtexts, k->scalar) : k->scalar;
	x->dk[x->ndk].line = k->line;
	x->ndk++;
	if (2 * x->ndk > x->dcap) {
		free(x->dtab);
		x->dcap = x->dcap ? 2 * x->dcap : 64;
		x->dtab = gp_xcalloc(x->dcap, sizeof(*x->dtab));
		for (i = 0; i < x->ndk; i++)
			dropped_put(x, i);
	} else {
		dropped_put(x, x->ndk - 1);
	}
}

#define DROPPED (-1) /* add_child: the key's entry is not kept */

static int add_child(pctx *x, frame *top, gp_yaml_node *child)
{
	const gp_yaml_node *first;
	const struct dropped *d;

	if (top->node->type == GP_YAML_SEQ) {
		push_kid(x, child);
		return GP_OK;
	}
	if (!top->pending_key) {
		if (child->type != GP_YAML_SCALAR)
			return gp_yaml_error(x->doc, child, x->err,
					     "mapping keys must be plain scalars");
		if ((first = find_key(x, top, child->scalar)))
			return gp_yaml_error(x->doc, child, x->err,
					     "duplicate key '%.200s' (first at line %d)",
					     child->scalar, (int)first->line);
		if (x->keep && top == x->stack) {
			if ((d = dropped_find(x, child->scalar)))
				return gp_yaml_error(x->doc, child, x->err,
						     "duplicate key '%.200s' (first at line %d)",
						     child->scalar, (int)d->line);
			if (!x->keep(x->ud, child->scalar)) {
				dropped_add(x, child);
				top->pending_key = &dropped_key;
				top->drop = 1;
				return DROPPED;
			}
		}
		top->pending_key = child;
		return GP_OK;
	}
	push_kid(x, top->pending_key);
	push_kid(x, child);
	top->pending_key = NULL;
	index_add(x, top);
	return GP_OK;
}

/* A collection closes: its children move from kids into arrays of their
 * exact size. */
static void close_node(pctx *x, frame *f)
{
	gp_yaml_node *p = f->node, **a;
	size_t len = x->nkids - f->base, n, i;

	/* the key index first: it need not sit beside both copies */
	free(f->index);
	f->index = NULL;
	n = p->type == GP_YAML_MAP ? len / 2 : len;
	if (n > 0) {
		if (p->type == GP_YAML_MAP) {
			a = store(x, 2 * n * sizeof(*a));
			p->keys = a;
			p->items = a + n;
			for (i = 0; i < n; i++) {
				a[i] = x->kids[f->base + 2 * i];
				a[n + i] = x->kids[f->base + 2 * i + 1];
			}
		} else {
			p->items = store(x, n * sizeof(*p->items));
			memcpy(p->items, x->kids + f->base, n * sizeof(*p->items));
		}
	}
	p->n = n;
	x->nkids = f->base;
}

static int mark_error(pctx *x, const yaml_mark_t *m, const char *what)
{
	return gp_error_set(x->err, GP_EINPUT, x->doc->path, (int)(m->line + 1 + x->line0),
			    (int)m->column + 1, "%s", what);
}

/* A node is complete: it goes to its parent, or to the callback (and its
 * storage is given back) when the parent is the streamed list. */
static int node_done(pctx *x, gp_yaml_node *n, mark start)
{
	frame *top;
	int status;

	if (x->depth == 0) {
		if (!x->doc->root)
			x->doc->root = n;
		return GP_OK;
	}
	top = &x->stack[x->depth - 1];
	if (top->drop) {
		/* the value of a dropped root entry */
		top->drop = 0;
		top->pending_key = NULL;
		store_rewind(x, start);
		return GP_OK;
	}
	if (!top->stream) {
		status = add_child(x, top, n);
		if (status != DROPPED)
			return status;
		store_rewind(x, start); /* the dropped entry's key */
		return GP_OK;
	}
	status = x->kfn ? x->kfn(x->ud, x->doc, top->stream, n, top->count++, x->err)
			: x->fn(x->ud, x->doc, n, top->count++, x->err);
	store_rewind(x, start);
	return status;
}

static int on_open(pctx *x, const yaml_event_t *ev)
{
	int seq = ev->type == YAML_SEQUENCE_START_EVENT;
	const char *streamed = NULL;
	mark start = store_mark(x);
	gp_yaml_node *n;
	frame *f;

	if ((seq && ev->data.sequence_start.anchor) ||
	    (!seq && ev->data.mapping_start.anchor))
		return mark_error(x, &ev->start_mark, "YAML anchors are not supported");
	if (x->depth >= (size_t)x->max_depth)
		return gp_error_set(x->err, GP_EINPUT, x->doc->path,
				    (int)(ev->start_mark.line + 1 + x->line0),
				    (int)ev->start_mark.column + 1,
				    "nesting deeper than %d levels", x->max_depth);
	n = node_new(x, seq ? GP_YAML_SEQ : GP_YAML_MAP, &ev->start_mark);
	/* a list under one of the root keys `keys` is streamed */
	if (x->keys && x->depth == 1 && seq && x->stack[0].node->type == GP_YAML_MAP &&
	    x->stack[0].pending_key) {
		const char *const *k;

		for (k = x->keys; *k && !streamed; k++)
			if (!strcmp(x->stack[0].pending_key->scalar, *k))
				streamed = *k;
	}
	if (x->depth == 0) {
		x->doc->root = n;
	} else if (!x->stack[x->depth - 1].stream && !x->stack[x->depth - 1].drop) {
		int status = add_child(x, &x->stack[x->depth - 1], n);

		if (status)
			return status;
	}
	GP_GROW(x->stack, x->cap, x->depth + 1);
	f = &x->stack[x->depth++];
	memset(f, 0, sizeof(*f));
	f->node = n;
	f->base = x->nkids;
	f->stream = streamed;
	f->start = start;
	return GP_OK;
}

static int on_close(pctx *x)
{
	frame *f;

	if (x->depth == 0)
		return GP_OK;
	f = &x->stack[--x->depth];
	close_node(x, f);
	if (x->depth == 0 || (!x->stack[x->depth - 1].stream && !x->stack[x->depth - 1].drop))
		return GP_OK; /* added to its parent when it opened */
	return node_done(x, f->node, f->start);
}

static int on_scalar(pctx *x, const yaml_event_t *ev)
{
	mark start = store_mark(x);
	gp_yaml_node *n;

	if (ev->data.scalar.anchor)
		return mark_error(x, &ev->start_mark, "YAML anchors are not supported");
	if (x->depth > 0 && x->stack[x->depth - 1].node->type == GP_YAML_MAP &&
	    !x->stack[x->depth - 1].pending_key)
		n = key_new(x, &ev->start_mark, (const char *)ev->data.scalar.value,
			    ev->data.scalar.length);
	else
		n = scalar_new(x, &ev->start_mark, (const char *)ev->data.scalar.value,
			       ev->data.scalar.length);
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	return node_done(x, n, start);
}

/* One event; *done at the end of the stream. */
static int on_event(pctx *x, const yaml_event_t *ev, int *docs, int *done)
{
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		*done = 1;
		return GP_OK;
	case YAML_DOCUMENT_START_EVENT:
		if (++*docs > 1)
			return mark_error(x, &ev->start_mark,
					  "only one YAML document per file is supported");
		return GP_OK;
	case YAML_ALIAS_EVENT:
		return mark_error(x, &ev->start_mark, "YAML aliases are not supported");
	case YAML_SCALAR_EVENT:
		return on_scalar(x, ev);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return on_open(x, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_close(x);
	default:
		return GP_OK;
	}
}

static int run_parser(pctx *x, yaml_parser_t *parser)
{
	yaml_event_t ev;
	int status = GP_OK, done = 0, docs = 0;

	while (!done && status == GP_OK) {
		if (!yaml_parser_parse(parser, &ev)) {
			const yaml_mark_t *m = &parser->problem_mark;

			return gp_error_set(x->err, GP_EINPUT, x->doc->path,
					    (int)(m->line + 1 + x->line0),
					    (int)m->column + 1, "invalid YAML: %s%s%s",
					    parser->problem ? parser->problem : "syntax error",
					    parser->context ? " " : "",
					    parser->context ? parser->context : "");
		}
		status = on_event(x, &ev, &docs, &done);
		yaml_event_delete(&ev);
	}
	return status;
}

int gp_yaml_parse(const char *text, size_t len, const char *path, int max_depth,
		  gp_yaml_doc *doc, gp_error *err)
{
	return gp_yaml_parse_stream(text, len, path, max_depth, NULL, NULL, NULL, doc, err);
}

int gp_yaml_parse_stream(const char *text, size_t len, const char *path, int max_depth,
			 const char *key, gp_yaml_item_fn fn, void *ud, gp_yaml_doc *doc,
			 gp_error *err)
{
	const char *keys[2] = { key, NULL };

	return gp_yaml_parse_any(text, len, NULL, path, max_depth, 1, key && fn ? keys : NULL, fn,
				 NULL, NULL, ud, doc, err);
}

int gp_yaml_parse_file_streams(FILE *fp, const char *path, int max_depth, int first_line,
			       const char *const *keys, gp_yaml_keyed_fn fn, void *ud,
			       gp_yaml_doc *doc, gp_error *err)
{
	return gp_yaml_parse_any(NULL, 0, fp, path, max_depth, first_line, fn ? keys : NULL, NULL,
				 fn, NULL, ud, doc, err);
}

int gp_yaml_parse_streams(const char *text, size_t len, const char *path, int max_depth,
			  int first_line, const char *const *keys, gp_yaml_keyed_fn fn, void *ud,
			  gp_yaml_doc *doc, gp_error *err)
{
	return gp_yaml_parse_any(text, len, NULL, path, max_depth, first_line, fn ? keys : NULL,
				 NULL, fn, NULL, ud, doc, err);
}

int gp_yaml_parse_any(const char *text, size_t len, FILE *fp, const char *path, int max_depth,
		      int first_line, const char *const *keys, gp_yaml_item_fn fn,
		      gp_yaml_keyed_fn kfn, gp_yaml_keep_fn keep, void *ud, gp_yaml_doc *doc,
		      gp_error *err)
{
	yaml_parser_t parser;
	pctx x;
	int status;

	gp_yaml_doc_init(doc);
	/* a NUL or control byte is refused before parsing, at its line and
	 * column (libyaml says where only for some) */
	if (text && (status = gp_text_check(text, len, path, first_line > 1 ? first_line : 1, err)))
		return status;
	if (!yaml_parser_initialize(&parser))
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot initialise YAML parser");
	if (text)
		yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	else
		yaml_parser_set_input_file(&parser, fp);
	memset(&x, 0, sizeof(x));
	doc->path = gp_xstrdup(path);
	x.doc = doc;
	x.err = err;
	x.max_depth = max_depth > 0 ? max_depth : GP_YAML_DEFAULT_MAX_DEPTH;
	x.line0 = first_line > 1 ? (size_t)first_line - 1 : 0;
	x.keys = keys;
	x.fn = fn;
	x.kfn = kfn;
	x.keep = keep;
	x.ud = ud;
	status = run_parser(&x, &parser);
	while (x.depth > 0)
		free(x.stack[--x.depth].index);
	free(x.stack);
	free(x.kids);
	free(x.spare);
	free(x.keytab);
	free(x.dk);
	free(x.dtab);
	gp_pool_free(x.dtexts);
	yaml_parser_delete(&parser);
	if (status != GP_OK) {
		/* nothing stays allocated, for callers that return at once */
		gp_yaml_doc_release(doc);
	}
	return status;
}
