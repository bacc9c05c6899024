/* The one CSV line splitter (util.h): every comma- or tab-separated
 * reader (traces, openb lists, failure lists, predictor and calibration
 * data) splits its lines here. */
#include <string.h>

#include "gpuplan/util/util.h"

static int is_blank(char c, char sep)
{
	return c == ' ' || (c == '\t' && sep != '\t');
}

int gp_csv_split(char *line, size_t len, char sep, unsigned flags, char **field, int *col,
		 int max, int *bad)
{
	char *p = line, *end = line + len;
	int n = 0, trim = (flags & GP_CSV_TRIM) != 0;

	for (;;) {
		char *start, *w;

		while (trim && p < end && is_blank(*p, sep))
			p++;
		if (n == max) {
			*bad = (int)(p - line) + 1;
			return GP_CSV_ETOO_MANY;
		}
		col[n] = (int)(p - line) + 1;
		if (p < end && *p == '"') {
			start = w = ++p;
			for (;;) {
				if (p >= end) {
					*bad = col[n];
					return GP_CSV_EUNTERMINATED;
				}
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						*w++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				*w++ = *p++;
			}
			while (trim && p < end && is_blank(*p, sep))
				p++;
			if (p < end && *p != sep) {
				*bad = (int)(p - line) + 1;
				return GP_CSV_EAFTER_QUOTE;
			}
		} else {
			start = p;
			while (p < end && *p != sep)
				p++;
			w = p;
			while (trim && w > start && is_blank(w[-1], sep))
				w--;
		}
		field[n++] = start;
		*w = '\0';      /* w <= p: the separator or the end */
		if (p >= end)
			return n;
		p++;
	}
}

const char *gp_csv_strerror(int code)
{
	switch (code) {
	case GP_CSV_ETOO_MANY:
		return "too many fields";
	case GP_CSV_EUNTERMINATED:
		return "unterminated quoted field";
	case GP_CSV_EAFTER_QUOTE:
		return "text after a quoted field";
	}
	return "bad CSV line";
}
