/* Internals shared by the history readers (sacct.c: text forms and the
 * record rules; sacct_json.c: sacct --json and Kubernetes pod lists). */
#ifndef GPUPLAN_SACCT_INT_H
#define GPUPLAN_SACCT_INT_H

#include "gpuplan/io/sacct.h"

/* A new record at the end (zeroed, times unknown); NULL past the cap. */
gp_sacct_job *gp_sacct_push(gp_sacct *h);
/* The record just pushed is complete: fold a repeated id (the later
 * record is kept, with a warning), note the latest time.  where names the
 * record in the warning ("FILE:LINE" or "FILE: jobs[3]"). */
void gp_sacct_commit(gp_sacct *h, const char *where);
void gp_sacct_warn(gp_sacct *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The file index of name (added when new). */
uint16_t gp_sacct_file(gp_sacct *h, const char *name);
const char *gp_sacct_intern(gp_sacct *h, const char *s);
/* A state word: first token, trailing '+' cut, in capitals, interned. */
const char *gp_sacct_state(gp_sacct *h, const char *s);

int gp_sacct_read_json(gp_sacct *h, const char *name, const char *text, size_t len,
		       gp_error *err);

#endif
