#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "gpuplan/util/util.h"
#include "gpuplan/io/yaml.h"

void gp_yaml_doc_init(gp_yaml_doc *doc)
{
	doc->path = NULL;
	doc->root = NULL;
}

static void node_free(gp_yaml_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		if (n->keys)
			node_free(n->keys[i]);
		node_free(n->items[i]);
	}
	free(n->keys);
	free(n->items);
	free(n);
}

void gp_yaml_doc_release(gp_yaml_doc *doc)
{
	if (!doc)
		return;
	node_free(doc->root);
	free(doc->path);
	doc->root = NULL;
	doc->path = NULL;
}

static gp_yaml_node *node_new(int type, const yaml_mark_t *mark)
{
	gp_yaml_node *n = gp_xcalloc(1, sizeof(*n));

	n->type = type;
	n->line = (int)mark->line + 1;
	n->col = (int)mark->column + 1;
	return n;
}

/* A scalar and its text in one allocation (memory: a big file is mostly
 * small scalars). */
static gp_yaml_node *scalar_new(const yaml_mark_t *mark, const char *text, size_t len)
{
	gp_yaml_node *n = gp_xmalloc(sizeof(*n) + len + 1);

	memset(n, 0, sizeof(*n));
	n->type = GP_YAML_SCALAR;
	n->line = (int)mark->line + 1;
	n->col = (int)mark->column + 1;
	n->scalar = (char *)(n + 1);
	memcpy(n->scalar, text, len);
	n->scalar[len] = '\0';
	return n;
}

/* A closed collection keeps exactly its n children. */
static void node_trim(gp_yaml_node *n)
{
	if (n->cap == n->n || n->n == 0)
		return;
	n->items = gp_xrealloc(n->items, n->n * sizeof(*n->items));
	if (n->keys)
		n->keys = gp_xrealloc(n->keys, n->n * sizeof(*n->keys));
	n->cap = n->n;
}

int gp_yaml_error(const gp_yaml_doc *doc, const gp_yaml_node *at,
		  gp_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(err, GP_EINPUT, doc->path, at ? at->line : 0,
		      at ? at->col : 0, fmt, ap);
	va_end(ap);
	return GP_EINPUT;
}

/* Parser state: a stack of open collections; a mapping alternates between
 * expecting a key and expecting a value. */
typedef struct frame {
	gp_yaml_node *node;
	gp_yaml_node *pending_key; /* map: key read, value not yet */
	/* map with many keys: open-addressing index of keys (i + 1, 0 empty),
	 * so that the duplicate check stays linear in the file size */
	uint32_t *index;
	size_t icap;
	int stream;                 /* seq whose items go to the callback */
	size_t count;               /* items streamed so far */
} frame;

#define INDEX_FROM 8 /* keys before a map gets its index */

static size_t hash_key(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

static void index_put(frame *f, size_t i)
{
	size_t mask = f->icap - 1, h = hash_key(f->node->keys[i]->scalar) & mask;

	while (f->index[h])
		h = (h + 1) & mask;
	f->index[h] = (uint32_t)(i + 1);
}

/* Index the map's keys once it has INDEX_FROM, growing at half full. */
static void index_add(frame *f)
{
	size_t n = f->node->n, i;

	if (n < INDEX_FROM)
		return;
	if (2 * n > f->icap) {
		free(f->index);
		f->icap = f->icap ? f->icap * 2 : 32;
		while (2 * n > f->icap)
			f->icap *= 2;
		f->index = gp_xcalloc(f->icap, sizeof(*f->index));
		for (i = 0; i < n; i++)
			index_put(f, i);
		return;
	}
	index_put(f, n - 1);
}

/* The earlier key equal to key, or NULL. */
static const gp_yaml_node *find_key(const frame *f, const char *key)
{
	const gp_yaml_node *p = f->node;
	size_t i, h, mask;

	if (!f->index) {
		for (i = 0; i < p->n; i++)
			if (!strcmp(p->keys[i]->scalar, key))
				return p->keys[i];
		return NULL;
	}
	mask = f->icap - 1;
	for (h = hash_key(key) & mask; f->index[h]; h = (h + 1) & mask)
		if (!strcmp(p->keys[f->index[h] - 1]->scalar, key))
			return p->keys[f->index[h] - 1];
	return NULL;
}

static int add_child(gp_yaml_doc *doc, frame *top, gp_yaml_node *child,
		     gp_error *err)
{
	gp_yaml_node *p = top->node;
	const gp_yaml_node *first;

	if (p->type == GP_YAML_SEQ) {
		GP_GROW(p->items, p->cap, p->n + 1);
		p->items[p->n++] = child;
		return GP_OK;
	}
	if (!top->pending_key) {
		if (child->type != GP_YAML_SCALAR) {
			gp_yaml_error(doc, child, err,
				      "mapping keys must be plain scalars");
			node_free(child);
			return GP_EINPUT;
		}
		if ((first = find_key(top, child->scalar))) {
			gp_yaml_error(doc, child, err, "duplicate key '%.200s' (first at line %d)",
				      child->scalar, first->line);
			node_free(child);
			return GP_EINPUT;
		}
		top->pending_key = child;
		return GP_OK;
	}
	if (p->n + 1 > p->cap) {
		size_t cap = p->cap;

		GP_GROW(p->items, cap, p->n + 1);
		p->keys = gp_xrealloc(p->keys, cap * sizeof(*p->keys));
		p->cap = cap;
	}
	p->keys[p->n] = top->pending_key;
	p->items[p->n++] = child;
	top->pending_key = NULL;
	index_add(top);
	return GP_OK;
}

static int mark_error(gp_yaml_doc *doc, gp_error *err, const yaml_mark_t *m,
		      const char *fmt, const char *what)
{
	return gp_error_set(err, GP_EINPUT, doc->path, (int)m->line + 1,
			    (int)m->column + 1, fmt, what);
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
	yaml_parser_t parser;
	yaml_event_t ev;
	frame *stack = NULL;
	size_t depth = 0, cap = 0;
	int status = GP_OK, done = 0, docs = 0, streamed;

	gp_yaml_doc_init(doc);
	doc->path = gp_xstrdup(path);
	if (max_depth <= 0)
		max_depth = GP_YAML_DEFAULT_MAX_DEPTH;
	{
		const char *nul = memchr(text, '\0', len), *p;
		int line = 1, col = 1;

		if (nul) {
			for (p = text; p < nul; p++, col++)
				if (*p == '\n') {
					line++;
					col = 0;
				}
			gp_yaml_doc_release(doc);
			return gp_error_set(err, GP_EINPUT, path, line, col,
					    "binary data (NUL byte) in a YAML file");
		}
	}
	if (!yaml_parser_initialize(&parser)) {
		gp_yaml_doc_release(doc);
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot initialise YAML parser");
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);

	while (!done && status == GP_OK) {
		gp_yaml_node *n = NULL;

		if (!yaml_parser_parse(&parser, &ev)) {
			const yaml_mark_t *m = &parser.problem_mark;

			status = gp_error_set(err, GP_EINPUT, path, (int)m->line + 1,
					      (int)m->column + 1, "invalid YAML: %s%s%s",
					      parser.problem ? parser.problem : "syntax error",
					      parser.context ? " " : "",
					      parser.context ? parser.context : "");
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				status = mark_error(doc, err, &ev.start_mark,
						    "%s", "only one YAML document per file is supported");
			break;
		case YAML_ALIAS_EVENT:
			status = mark_error(doc, err, &ev.start_mark, "%s",
					    "YAML aliases are not supported");
			break;
		case YAML_SCALAR_EVENT:
			if (ev.data.scalar.anchor) {
				status = mark_error(doc, err, &ev.start_mark, "%s",
						    "YAML anchors are not supported");
				break;
			}
			n = scalar_new(&ev.start_mark, (const char *)ev.data.scalar.value,
				       ev.data.scalar.length);
			n->quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if ((ev.type == YAML_SEQUENCE_START_EVENT && ev.data.sequence_start.anchor) ||
			    (ev.type == YAML_MAPPING_START_EVENT && ev.data.mapping_start.anchor)) {
				status = mark_error(doc, err, &ev.start_mark, "%s",
						    "YAML anchors are not supported");
				break;
			}
			if (depth >= (size_t)max_depth) {
				status = gp_error_set(err, GP_EINPUT, path,
						      (int)ev.start_mark.line + 1,
						      (int)ev.start_mark.column + 1,
						      "nesting deeper than %d levels",
						      max_depth);
				break;
			}
			n = node_new(ev.type == YAML_SEQUENCE_START_EVENT ?
				     GP_YAML_SEQ : GP_YAML_MAP, &ev.start_mark);
			/* the list under the root key `key` is streamed */
			streamed = key && fn && depth == 1 && n->type == GP_YAML_SEQ &&
				   stack[0].node->type == GP_YAML_MAP && stack[0].pending_key &&
				   !strcmp(stack[0].pending_key->scalar, key);
			if (depth > 0) {
				status = add_child(doc, &stack[depth - 1], n, err);
				if (status) {
					n = NULL; /* add_child freed it */
					break;
				}
			} else {
				doc->root = n;
			}
			GP_GROW(stack, cap, depth + 1);
			stack[depth].node = n;
			stack[depth].pending_key = NULL;
			stack[depth].index = NULL;
			stack[depth].icap = 0;
			stack[depth].stream = streamed;
			stack[depth].count = 0;
			depth++;
			n = NULL;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (depth > 0) {
				depth--;
				free(stack[depth].index);
				node_trim(stack[depth].node);
				if (depth > 0 && stack[depth - 1].stream) {
					/* a streamed item: hand it over, then drop it */
					gp_yaml_node *seq = stack[depth - 1].node;

					status = fn(ud, doc, stack[depth].node, stack[depth - 1].count++, err);
					seq->n--;
					node_free(seq->items[seq->n]);
				}
			}
			break;
		default:
			break;
		}
		if (n && status == GP_OK) {
			if (depth > 0 && stack[depth - 1].stream) {
				status = fn(ud, doc, n, stack[depth - 1].count++, err);
				node_free(n);
			} else if (depth > 0)
				status = add_child(doc, &stack[depth - 1], n, err);
			else if (!doc->root)
				doc->root = n;
			else
				node_free(n);
		} else if (n) {
			node_free(n);
		}
		yaml_event_delete(&ev);
	}
	/* A key without its value can only remain after an error. */
	while (depth > 0) {
		depth--;
		node_free(stack[depth].pending_key);
		free(stack[depth].index);
	}
	free(stack);
	yaml_parser_delete(&parser);
	if (status != GP_OK) {
		/* nothing stays allocated, for callers that return at once */
		gp_yaml_doc_release(doc);
	}
	return status;
}

int gp_yaml_load(const char *path, size_t max_bytes, int max_depth,
		 gp_yaml_doc *doc, gp_error *err)
{
	char *text;
	size_t len;
	int status;

	gp_yaml_doc_init(doc);
	status = gp_read_file(path, max_bytes ? max_bytes : GP_YAML_DEFAULT_MAX_BYTES,
			      &text, &len, err);
	if (status)
		return status;
	status = gp_yaml_parse(text, len, path, max_depth, doc, err);
	free(text);
	return status;
}

const gp_yaml_node *gp_yaml_get(const gp_yaml_node *map, const char *key)
{
	size_t i;

	if (!map || map->type != GP_YAML_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i]->scalar, key))
			return map->items[i];
	return NULL;
}

static const char *type_name(int type)
{
	switch (type) {
	case GP_YAML_MAP:
		return "a mapping";
	case GP_YAML_SEQ:
		return "a list";
	default:
		return "a scalar";
	}
}

/* Edit distance, for "did you mean" hints on misspelt keys. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int row[64], prev, cur;

	if (lb >= GP_ARRAY_SIZE(row) || la >= 64)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
		}
	}
	return row[lb];
}

int gp_yaml_check_keys(const gp_yaml_doc *doc, const gp_yaml_node *map,
		       const char *what, const char *const *allowed,
		       gp_error *err)
{
	size_t i, k;

	if (gp_yaml_expect(doc, map, GP_YAML_MAP, what, err))
		return GP_EINPUT;
	for (i = 0; i < map->n; i++) {
		const char *key = map->keys[i]->scalar;
		const char *best = NULL;
		int best_d = 3;

		for (k = 0; allowed[k]; k++) {
			int d;

			if (!strcmp(key, allowed[k]))
				break;
			d = edit_distance(key, allowed[k]);
			if (d < best_d) {
				best_d = d;
				best = allowed[k];
			}
		}
		if (allowed[k])
			continue;
		if (best)
			return gp_yaml_error(doc, map->keys[i], err,
					     "unknown key '%s' in %s (did you mean '%s'?)",
					     key, what, best);
		return gp_yaml_error(doc, map->keys[i], err,
				     "unknown key '%s' in %s", key, what);
	}
	return GP_OK;
}

int gp_yaml_expect(const gp_yaml_doc *doc, const gp_yaml_node *node,
		   int type, const char *what, gp_error *err)
{
	if (!node)
		return gp_error_set(err, GP_EINPUT, doc->path, 0, 0,
				    "missing %s", what);
	if (node->type != type)
		return gp_yaml_error(doc, node, err, "%s must be %s, not %s",
				     what, type_name(type), type_name(node->type));
	return GP_OK;
}

int gp_yaml_str(const gp_yaml_doc *doc, const gp_yaml_node *node,
		const char *what, const char **out, gp_error *err)
{
	if (gp_yaml_expect(doc, node, GP_YAML_SCALAR, what, err))
		return GP_EINPUT;
	*out = node->scalar;
	return GP_OK;
}

int gp_yaml_long(const gp_yaml_doc *doc, const gp_yaml_node *node,
		 const char *what, long min, long max, long *out, gp_error *err)
{
	if (gp_yaml_expect(doc, node, GP_YAML_SCALAR, what, err))
		return GP_EINPUT;
	if (node->quoted || gp_parse_long(node->scalar, min, max, out))
		return gp_yaml_error(doc, node, err,
				     "%s must be an integer in [%ld, %ld], not '%.40s'",
				     what, min, max, node->scalar);
	return GP_OK;
}

int gp_yaml_double(const gp_yaml_doc *doc, const gp_yaml_node *node,
		   const char *what, double min, double max, double *out,
		   gp_error *err)
{
	if (gp_yaml_expect(doc, node, GP_YAML_SCALAR, what, err))
		return GP_EINPUT;
	if (node->quoted || gp_parse_double(node->scalar, min, max, out))
		return gp_yaml_error(doc, node, err,
				     "%s must be a number in [%g, %g], not '%.40s'",
				     what, min, max, node->scalar);
	return GP_OK;
}

int gp_yaml_bool(const gp_yaml_doc *doc, const gp_yaml_node *node,
		 const char *what, int *out, gp_error *err)
{
	if (gp_yaml_expect(doc, node, GP_YAML_SCALAR, what, err))
		return GP_EINPUT;
	if (!node->quoted && (!strcasecmp(node->scalar, "true") ||
			      !strcasecmp(node->scalar, "yes"))) {
		*out = 1;
		return GP_OK;
	}
	if (!node->quoted && (!strcasecmp(node->scalar, "false") ||
			      !strcasecmp(node->scalar, "no"))) {
		*out = 0;
		return GP_OK;
	}
	return gp_yaml_error(doc, node, err, "%s must be true or false, not '%.40s'",
			     what, node->scalar);
}

void gp_yaml_quote(gp_sbuf *sb, const char *s)
{
	gp_sbuf_add(sb, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			gp_sbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			gp_sbuf_addf(sb, "\\x%02x", c);
		else
			gp_sbuf_add(sb, (const char *)&c, 1);
	}
	gp_sbuf_add(sb, "\"", 1);
}
