/* YAML files: a regular file is checked on a first read, then parsed as
 * it is read (memory: its text never sits whole beside the
 * tree); stdin, FIFOs and devices are read whole first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpuplan/io/yaml.h"
#include "gpuplan/util/util.h"
#include "yaml_int.h"

int gp_yaml_open_file(const char *path, size_t max_bytes, FILE **out, char *head,
		      size_t headsize, size_t *nhead, gp_error *err)
{
	char buf[1 << 16];
	FILE *fp = fopen(path, "rb");
	size_t n = 0, got, i, nh = 0, bad = 0;
	int line = 1, col = 1;

	if (!fp)
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
	gp_file_note_read(fp);
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0) {
		for (i = 0; i < got && nh < headsize; i++)
			head[nh++] = buf[i];
		n += got;
		if (n > max_bytes) {
			fclose(fp);
			return gp_error_set(err, GP_EINPUT, path, 0, 0,
					    "file is larger than the %zu-byte limit", max_bytes);
		}
		bad = gp_text_bad_byte(buf, got);
		for (i = 0; i < bad; i++) {
			if (buf[i] == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		if (bad < got) {
			fclose(fp);
			return gp_text_byte_error(err, path, line, col, (unsigned char)buf[bad]);
		}
	}
	if (ferror(fp)) {
		int e = errno; /* EISDIR: a folder given for a file */

		fclose(fp);
		return gp_error_set(err, GP_EIO, path, 0, 0, "read error: %s", strerror(e));
	}
	if (nhead)
		*nhead = nh;
	rewind(fp);
	*out = fp;
	return GP_OK;
}

static int load(const char *path, size_t max_bytes, int max_depth, const char *const *keys,
		gp_yaml_item_fn fn, gp_yaml_keyed_fn kfn, gp_yaml_keep_fn keep, void *ud,
		gp_yaml_doc *doc, gp_error *err)
{
	char *text;
	size_t len;
	int status;
	FILE *fp;
	struct stat sb;

	gp_yaml_doc_init(doc);
	if (!max_bytes)
		max_bytes = GP_YAML_DEFAULT_MAX_BYTES;
	if (strcmp(path, "-") && !stat(path, &sb) && S_ISREG(sb.st_mode)) {
		if ((status = gp_yaml_open_file(path, max_bytes, &fp, NULL, 0, NULL, err)))
			return status;
		status = gp_yaml_parse_any(NULL, 0, fp, path, max_depth, 1, keys, fn, kfn, keep,
					   ud, doc, err);
		fclose(fp);
		return status;
	}
	status = gp_read_file(path, max_bytes, &text, &len, err);
	if (status)
		return status;
	status = gp_yaml_parse_any(text, len, NULL, path, max_depth, 1, keys, fn, kfn, keep, ud,
				   doc, err);
	free(text);
	return status;
}

int gp_yaml_load_stream(const char *path, size_t max_bytes, int max_depth, const char *key,
			gp_yaml_item_fn fn, void *ud, gp_yaml_doc *doc, gp_error *err)
{
	const char *keys[2] = { key, NULL };

	return load(path, max_bytes, max_depth, key && fn ? keys : NULL, fn, NULL, NULL, ud, doc,
		    err);
}

int gp_yaml_load_streams(const char *path, size_t max_bytes, int max_depth,
			 const char *const *keys, gp_yaml_keyed_fn fn, gp_yaml_keep_fn keep,
			 void *ud, gp_yaml_doc *doc, gp_error *err)
{
	return load(path, max_bytes, max_depth, fn ? keys : NULL, NULL, fn, keep, ud, doc, err);
}

int gp_yaml_load(const char *path, size_t max_bytes, int max_depth,
		 gp_yaml_doc *doc, gp_error *err)
{
	return gp_yaml_load_stream(path, max_bytes, max_depth, NULL, NULL, NULL, doc, err);
}
