/* Dates and durations as schedulers print them (timefmt.h).  Parsed by
 * hand: strptime is locale-bound and slow on a ten-million-row dump. */
#include <stdio.h>
#include <string.h>

#include "gpuplan/util/timefmt.h"

/* n decimal digits at s into *v; the number of digits read (n on success). */
static int digits(const char *s, int n, int *v)
{
	int i, x = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return i;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return n;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int month_days(int y, int m)
{
	static const int md[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return md[m - 1];
}

int gp_time_parse_iso(const char *s, int64_t *out)
{
	int y, mo, d, h = 0, mi = 0, se = 0, zh, zm = 0;
	int64_t t, zone = 0;

	if (digits(s, 4, &y) != 4 || s[4] != '-' || digits(s + 5, 2, &mo) != 2 || s[7] != '-' ||
	    digits(s + 8, 2, &d) != 2)
		return -1;
	if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo))
		return -1;
	s += 10;
	if (*s == 'T' || *s == ' ') {
		if (digits(s + 1, 2, &h) != 2 || s[3] != ':' || digits(s + 4, 2, &mi) != 2)
			return -1;
		s += 6;
		if (*s == ':') {
			if (digits(s + 1, 2, &se) != 2)
				return -1;
			s += 3;
			if (*s == '.' || *s == ',') {
				s++;
				if (*s < '0' || *s > '9')
					return -1;
				while (*s >= '0' && *s <= '9')
					s++;
			}
		}
		/* 24:00:00 is not printed by any scheduler; 60 s is a leap second */
		if (h > 23 || mi > 59 || se > 60)
			return -1;
		if (*s == 'Z' || *s == 'z') {
			s++;
		} else if (*s == '+' || *s == '-') {
			int sign = *s == '-' ? -1 : 1;

			if (digits(s + 1, 2, &zh) != 2)
				return -1;
			s += 3;
			if (*s == ':')
				s++;
			if (*s && digits(s, 2, &zm) != 2)
				return -1;
			if (*s)
				s += 2;
			if (zh > 23 || zm > 59)
				return -1;
			zone = sign * (zh * 3600 + zm * 60);
		}
	}
	if (*s)
		return -1;
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - zone;
	*out = t;
	return 0;
}

/* A whole number of at most 9 digits at *s, advancing it. */
static int number(const char **s, long *v)
{
	const char *p = *s;
	long x = 0;
	int n = 0;

	while (*p >= '0' && *p <= '9' && n < 9) {
		x = x * 10 + (*p++ - '0');
		n++;
	}
	if (!n || (*p >= '0' && *p <= '9'))
		return -1;
	*s = p;
	*v = x;
	return 0;
}

int gp_time_parse_duration(const char *s, double *out)
{
	long part[3], days = 0;
	double frac = 0;
	int n = 0;
	const char *p = s;

	if (number(&p, &part[0]))
		return -1;
	if (*p == '-') {
		days = part[0];
		p++;
		if (number(&p, &part[0]))
			return -1;
		/* D-HH and D-HH:MM (Slurm's input forms) */
		n = 1;
		while (*p == ':' && n < 3) {
			p++;
			if (number(&p, &part[n++]))
				return -1;
		}
		if (*p || part[0] > 23)
			return -1;
		*out = (double)days * 86400 + (double)part[0] * 3600 +
		       (n > 1 ? (double)part[1] * 60 : 0) + (n > 2 ? (double)part[2] : 0);
		return n > 1 && part[1] > 59 ? -1 : (n > 2 && part[2] > 59 ? -1 : 0);
	}
	n = 1;
	while (*p == ':' && n < 3) {
		p++;
		if (number(&p, &part[n++]))
			return -1;
	}
	if (n < 2)
		return -1;
	if (*p == '.') {
		double scale = 0.1;

		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	if (*p)
		return -1;
	if (n == 2) {           /* MM:SS */
		if (part[1] > 59)
			return -1;
		*out = (double)part[0] * 60 + (double)part[1] + frac;
	} else {                /* HH:MM:SS; hours past 23 only without days */
		if (part[1] > 59 || part[2] > 59)
			return -1;
		*out = (double)part[0] * 3600 + (double)part[1] * 60 + (double)part[2] + frac;
	}
	return 0;
}

const char *gp_time_format_iso(int64_t t, char *buf, unsigned long size)
{
	int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
	int64_t secs = t - days * 86400, z, era, doe, yoe, doy, mp, y;
	int m, d;

	/* civil_from_days */
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = (int)(doy - (153 * mp + 2) / 5 + 1);
	m = (int)(mp < 10 ? mp + 3 : mp - 9);
	y += m <= 2;
	snprintf(buf, size, "%04lld-%02d-%02dT%02d:%02d:%02dZ", (long long)y, m, d,
		 (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
	return buf;
}
