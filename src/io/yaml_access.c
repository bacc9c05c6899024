/* Reading a YAML document tree (io/yaml.c builds it): located errors,
 * lookups, the key check with its "did you mean" hint, typed accessors,
 * and quoting for the files gpuplan writes. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/util/util.h"

int gp_yaml_error(const gp_yaml_doc *doc, const gp_yaml_node *at,
		  gp_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_setv(err, GP_EINPUT, doc->path, at ? (int)at->line : 0,
		      at ? (int)at->col : 0, fmt, ap);
	va_end(ap);
	return GP_EINPUT;
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
			d = gp_edit_distance(key, allowed[k], 0);
			/* a key rewritten whole ('id' for 'ps') suggests nothing */
			if (d < best_d && (size_t)d < strlen(key)) {
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

size_t gp_yaml_printable_seq(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = gp_utf8_seq(s, n);

	if (k == 1)
		return u[0] >= 0x20 && u[0] != 0x7f ? 1 : u[0] == '\t' || u[0] == '\n';
	if (k == 2 && u[0] == 0xC2 && u[1] < 0xA0 && u[1] != 0x85)
		return 0;   /* C1 controls */
	if (k == 3 && u[0] == 0xEF && u[1] == 0xBF && u[2] >= 0xBE)
		return 0;   /* U+FFFE, U+FFFF */
	return k;
}

void gp_yaml_put_scalar(gp_sbuf *sb, const char *s)
{
	static const char *const words[] = { "null", "true", "false", "yes", "no", "on", "off",
					     "y", "n", NULL };
	const char *p = s;
	size_t i;

	if (isalpha((unsigned char)*p))
		for (p++; isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-'; p++)
			;
	for (i = 0; words[i] && (p == s || *p || strcasecmp(s, words[i])); i++)
		;
	if (p != s && !*p && !words[i])
		gp_sbuf_adds(sb, s);
	else
		gp_yaml_quote(sb, s);
}

void gp_yaml_quote(gp_sbuf *sb, const char *s)
{
	size_t left = strlen(s), k;

	gp_sbuf_add(sb, "\"", 1);
	while (left) {
		unsigned char c = (unsigned char)*s;

		/* a byte that is not UTF-8 is written as the code point of the
		 * same number (Latin-1), as YAML text must be UTF-8; code
		 * points YAML does not print are escaped */
		k = gp_yaml_printable_seq(s, left);
		if (c == '"' || c == '\\')
			gp_sbuf_addf(sb, "\\%c", c);
		else if (k > 1 || (k == 1 && c >= 0x20))
			gp_sbuf_add(sb, s, k);
		else if ((k = gp_utf8_seq(s, left)) == 2)
			gp_sbuf_addf(sb, "\\x%02x", ((c & 0x1F) << 6) | ((unsigned char)s[1] & 0x3F));
		else if (k == 3)
			gp_sbuf_addf(sb, "\\u%04x", ((c & 0x0F) << 12) |
				     (((unsigned char)s[1] & 0x3F) << 6) | ((unsigned char)s[2] & 0x3F));
		else
			gp_sbuf_addf(sb, "\\x%02x", c);
		k = k ? k : 1;
		s += k;
		left -= k;
	}
	gp_sbuf_add(sb, "\"", 1);
}
