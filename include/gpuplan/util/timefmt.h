/* Dates and durations as schedulers print them: ISO 8601 timestamps
 * (sacct's "2024-05-01T12:00:00", RFC 3339 with a zone) and wall-clock
 * durations ("[D-]HH:MM:SS", "MM:SS.mmm"). */
#ifndef GPUPLAN_TIMEFMT_H
#define GPUPLAN_TIMEFMT_H

#include <stdint.h>

/* "YYYY-MM-DD[(T| )HH:MM[:SS[.frac]]][Z|(+|-)HH[:]MM]" into Unix seconds
 * (fractions dropped).  A time without a zone is read as UTC: sacct prints
 * the local time of its host without saying which, and only differences
 * between times of one record matter.  0 on success, -1 when s is not
 * such a date (years 1900..9999). */
int gp_time_parse_iso(const char *s, int64_t *out);

/* "[D-]HH:MM:SS[.frac]", "MM:SS[.frac]" or "D-HH[:MM]" into seconds.
 * 0 on success, -1 when s is not such a duration. */
int gp_time_parse_duration(const char *s, double *out);

/* Unix seconds as "YYYY-MM-DDTHH:MM:SSZ" (buf of at least 32 bytes). */
const char *gp_time_format_iso(int64_t t, char *buf, unsigned long size);

#endif
