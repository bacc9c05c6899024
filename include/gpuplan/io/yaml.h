/* A small YAML document tree over libyaml, for the loaders of cluster,
 * job and state files.  Every node carries its line and column so that
 * loaders can report FILE:LINE:COL; the reader caps file size and nesting
 * depth, rejects duplicate mapping keys, anchors/aliases and multiple
 * documents. */
#ifndef GPUPLAN_YAML_H
#define GPUPLAN_YAML_H

#include <stddef.h>
#include <stdio.h>

#include "gpuplan/util/error.h"
#include "gpuplan/util/util.h"

enum gp_yaml_type { GP_YAML_SCALAR = 0, GP_YAML_MAP, GP_YAML_SEQ };

typedef struct gp_yaml_node gp_yaml_node;
/* Nodes live in blocks owned by their document (no allocation of their
 * own; memory: a big file is mostly small scalars).  A scalar node ends
 * after its text pointer: n, keys and items exist only on mappings and
 * lists, so test type (gp_yaml_expect) before reading them. */
struct gp_yaml_node {
	unsigned type : 2;      /* enum gp_yaml_type */
	unsigned quoted : 1;    /* scalar was quoted (so "1" is a string) */
	unsigned line : 29;     /* 1-based position of the node's start */
	unsigned col : 31;
	char *scalar;           /* GP_YAML_SCALAR: the text (stored with the
				   node: never free or replace it); NULL for
				   mappings and lists */
	/* mappings and lists only: */
	size_t n;               /* number of children */
	/* MAP: keys[i] (scalars) -> items[i]; SEQ: items[i] */
	gp_yaml_node **keys;
	gp_yaml_node **items;
};

struct gp_yaml_block;

typedef struct gp_yaml_doc {
	char *path;             /* for messages */
	gp_yaml_node *root;     /* NULL for an empty document */
	struct gp_yaml_block *blocks; /* storage of the nodes (yaml.c) */
	struct gp_yaml_block *strings; /* texts of mapping keys, each stored once */
} gp_yaml_doc;

#define GP_YAML_DEFAULT_MAX_BYTES (16u << 20)
#define GP_YAML_DEFAULT_MAX_DEPTH 64

void gp_yaml_doc_init(gp_yaml_doc *doc);
void gp_yaml_doc_release(gp_yaml_doc *doc);

/* Parse a file (max_bytes/max_depth 0 = defaults). */
int gp_yaml_load(const char *path, size_t max_bytes, int max_depth,
		 gp_yaml_doc *doc, gp_error *err);
/* Parse text already in memory; path is only used in messages. */
int gp_yaml_parse(const char *text, size_t len, const char *path, int max_depth,
		  gp_yaml_doc *doc, gp_error *err);

/* The same, handing each item of the list under the root mapping's key
 * `key` to fn as soon as it is complete (index counts from 0) and freeing
 * it: memory then holds one item at a time.  That list stays in the tree,
 * empty.  fn returns GP_OK or a status that stops the parse. */
typedef int (*gp_yaml_item_fn)(void *ud, const gp_yaml_doc *doc, const gp_yaml_node *item,
			       size_t index, gp_error *err);
int gp_yaml_parse_stream(const char *text, size_t len, const char *path, int max_depth,
			 const char *key, gp_yaml_item_fn fn, void *ud, gp_yaml_doc *doc,
			 gp_error *err);
/* The same for the lists under several root keys (keys: NULL-terminated);
 * fn is told which key an item's list has.  text may be the rest of a file
 * from the start of its line first_line (1: the whole file): positions are
 * the file's. */
typedef int (*gp_yaml_keyed_fn)(void *ud, const gp_yaml_doc *doc, const char *key,
				const gp_yaml_node *item, size_t index, gp_error *err);
int gp_yaml_parse_streams(const char *text, size_t len, const char *path, int max_depth,
			  int first_line, const char *const *keys, gp_yaml_keyed_fn fn, void *ud,
			  gp_yaml_doc *doc, gp_error *err);
/* gp_yaml_load, streaming like gp_yaml_parse_stream(s).  A regular file is
 * parsed as it is read (its text is never whole in memory). */
int gp_yaml_load_stream(const char *path, size_t max_bytes, int max_depth, const char *key,
			gp_yaml_item_fn fn, void *ud, gp_yaml_doc *doc, gp_error *err);
/* The first read of a regular file that is then parsed as it is read
 * (memory: its text is never whole): gp_read_file's errors (cannot open,
 * larger than max_bytes, read error, a NUL or control byte at its line
 * and column) and its first bytes in head[0..*nhead) (at most headsize;
 * head may be NULL with headsize 0).  GP_OK with *out open at its start. */
int gp_yaml_open_file(const char *path, size_t max_bytes, FILE **out, char *head,
		      size_t headsize, size_t *nhead, gp_error *err);
/* The same on a file read from where it stands (a regular file the caller
 * has checked for size and NUL bytes). */
int gp_yaml_parse_file_streams(FILE *fp, const char *path, int max_depth, int first_line,
			       const char *const *keys, gp_yaml_keyed_fn fn, void *ud,
			       gp_yaml_doc *doc, gp_error *err);
/* keep (optional): whether the entry of a root mapping's key stays in the
 * tree; a dropped entry is still parsed and checked (its key takes part
 * in the duplicate check) but not kept (memory: a loader that knows the
 * file is bad from one key need not hold the rest).  ud goes to fn and
 * keep. */
typedef int (*gp_yaml_keep_fn)(void *ud, const char *key);
int gp_yaml_load_streams(const char *path, size_t max_bytes, int max_depth,
			 const char *const *keys, gp_yaml_keyed_fn fn, gp_yaml_keep_fn keep,
			 void *ud, gp_yaml_doc *doc, gp_error *err);

/* Report an error at a node: "PATH:LINE:COL: msg", status GP_EINPUT. */
int gp_yaml_error(const gp_yaml_doc *doc, const gp_yaml_node *at,
		  gp_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Mapping lookup; NULL when absent or when map is not a mapping. */
const gp_yaml_node *gp_yaml_get(const gp_yaml_node *map, const char *key);

/* Check that map is a mapping whose keys are all in allowed (a
 * NULL-terminated list); the first unknown key is reported (with a
 * "did you mean" hint when one is close).  what names the map in messages. */
int gp_yaml_check_keys(const gp_yaml_doc *doc, const gp_yaml_node *map,
		       const char *what, const char *const *allowed,
		       gp_error *err);

/* Typed accessors: report a located error when node has the wrong type or
 * range.  A NULL node is an error ("missing"), so look up optional keys
 * first. */
int gp_yaml_expect(const gp_yaml_doc *doc, const gp_yaml_node *node,
		   int type, const char *what, gp_error *err);
int gp_yaml_long(const gp_yaml_doc *doc, const gp_yaml_node *node,
		 const char *what, long min, long max, long *out, gp_error *err);
int gp_yaml_double(const gp_yaml_doc *doc, const gp_yaml_node *node,
		   const char *what, double min, double max, double *out,
		   gp_error *err);
int gp_yaml_bool(const gp_yaml_doc *doc, const gp_yaml_node *node,
		 const char *what, int *out, gp_error *err);
/* Scalar text (not copied); error unless node is a scalar. */
int gp_yaml_str(const gp_yaml_doc *doc, const gp_yaml_node *node,
		const char *what, const char **out, gp_error *err);

/* Append s as a double-quoted YAML scalar (", \ escaped; control bytes
 * as \xNN), for the files gpuplan writes (node types, imports). */
void gp_yaml_quote(gp_sbuf *sb, const char *s);
/* Append s plain when YAML reads it back as the same string (a letter,
 * then letters, digits, '_', '.', '-'; not a word YAML 1.1 reads as null
 * or a boolean), else as gp_yaml_quote does. */
void gp_yaml_put_scalar(gp_sbuf *sb, const char *s);
/* Length of the UTF-8 sequence at s[0..n) when YAML lets it stand in a
 * stream as it is (printable: no C0 or C1 control but tab, newline and
 * U+0085; no U+FFFE or U+FFFF), else 0. */
size_t gp_yaml_printable_seq(const char *s, size_t n);

#endif
