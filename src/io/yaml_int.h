/* Internals of the YAML reader (yaml.c parses, yaml_file.c reads files). */
#ifndef GPUPLAN_YAML_INT_H
#define GPUPLAN_YAML_INT_H

#include <stdio.h>

#include "gpuplan/io/yaml.h"

/* Every parse: text[0..len), or the file fp (checked by the caller for
 * size and NUL bytes) when text is NULL; the lists under the root keys
 * `keys` go to fn (one key) or kfn (several), root entries to keep. */
int gp_yaml_parse_any(const char *text, size_t len, FILE *fp, const char *path, int max_depth,
		      int first_line, const char *const *keys, gp_yaml_item_fn fn,
		      gp_yaml_keyed_fn kfn, gp_yaml_keep_fn keep, void *ud, gp_yaml_doc *doc,
		      gp_error *err);

#endif
