/* A string and record pool: many small copies that live and die together
 * (the ids, user names and model descriptions of a trace's jobs), carved
 * from a few large blocks instead of one heap allocation each, and
 * interned on request, so that a value repeated by a million rows is
 * stored once (peak memory of a loader <= 8x its input). */
#ifndef GPUPLAN_POOL_H
#define GPUPLAN_POOL_H

#include <stddef.h>

typedef struct gp_pool gp_pool;

gp_pool *gp_pool_new(void);
void gp_pool_free(gp_pool *p); /* accepts NULL */

/* size zeroed bytes of the pool's, aligned for any type (not shared). */
void *gp_pool_alloc(gp_pool *p, size_t size);
/* A copy of s in the pool (not interned: each call gives new storage). */
char *gp_pool_strdup(gp_pool *p, const char *s);
char *gp_pool_strndup(gp_pool *p, const char *s, size_t n);
/* The pool's one copy of s: equal strings give the same pointer.  The
 * text must not be changed through the pointer. */
char *gp_pool_intern(gp_pool *p, const char *s);
/* The same for a record of size bytes (compared byte for byte, so clear
 * its padding first); the copy is aligned for any type. */
const void *gp_pool_intern_mem(gp_pool *p, const void *data, size_t size);

/* Bytes taken from the heap (blocks and intern tables). */
size_t gp_pool_bytes(const gp_pool *p);
/* Distinct values interned so far. */
size_t gp_pool_interned(const gp_pool *p);

#endif
