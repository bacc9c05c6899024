/* gp_pool: bump allocation in blocks, plus an open-addressing table of the
 * interned values (pointer, length and hash per slot). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan/util/pool.h"
#include "gpuplan/util/util.h"

typedef struct pool_block {
	struct pool_block *next; /* older block */
	size_t size, used;       /* bytes of data after the header */
	max_align_t align[];
} pool_block;

typedef struct slot {
	const void *data;        /* NULL: empty */
	size_t size;
	size_t hash;
	size_t extra;            /* 1: a string, 0: a record */
} slot;

struct gp_pool {
	pool_block *blocks;      /* newest first */
	slot *tab;
	size_t cap, n;           /* table slots, interned values */
	size_t bytes;
};

#define BLOCK_MIN ((size_t)4096)
#define BLOCK_MAX ((size_t)1 << 20)
#define ALIGN (sizeof(max_align_t))

#if defined(__SANITIZE_ADDRESS__)
#define POOL_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_EXACT 1
#endif
#endif

gp_pool *gp_pool_new(void)
{
	return gp_xcalloc(1, sizeof(gp_pool));
}

void gp_pool_free(gp_pool *p)
{
	pool_block *b, *next;

	if (!p)
		return;
	for (b = p->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(p->tab);
	free(p);
}

static pool_block *block_new(gp_pool *p, size_t size)
{
	pool_block *b = gp_xmalloc(sizeof(*b) + size);

	b->size = size;
	b->used = 0;
	b->next = p->blocks;
	p->blocks = b;
	p->bytes += sizeof(*b) + size;
	return b;
}

/* size bytes, aligned to align (1 or ALIGN). */
static void *take(gp_pool *p, size_t size, size_t align)
{
	pool_block *b = p->blocks;
	size_t at;

#ifdef POOL_EXACT
	/* Under AddressSanitizer each piece is a block of its own, so that an
	 * overrun of one string into the next is reported. */
	(void)align;
	(void)b;
	(void)at;
	b = block_new(p, size ? size : 1);
	b->used = size;
	return b->align;
#else
	at = b ? (b->used + align - 1) & ~(align - 1) : 0;
	if (!b || at + size > b->size) {
		size_t bs = b ? (b->size < BLOCK_MAX / 2 ? b->size * 2 : BLOCK_MAX) : BLOCK_MIN;

		if (bs < size)
			bs = size;
		b = block_new(p, bs);
		at = 0;
	}
	b->used = at + size;
	return (char *)b->align + at;
#endif
}

void *gp_pool_alloc(gp_pool *p, size_t size)
{
	void *c = take(p, size, ALIGN);

	memset(c, 0, size);
	return c;
}

char *gp_pool_strndup(gp_pool *p, const char *s, size_t n)
{
	char *c = take(p, n + 1, 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

char *gp_pool_strdup(gp_pool *p, const char *s)
{
	return gp_pool_strndup(p, s, strlen(s));
}

static size_t hash_mem(const void *data, size_t size)
{
	const unsigned char *s = data;
	size_t h = 1469598103934665603u, i;

	for (i = 0; i < size; i++)
		h = (h ^ s[i]) * 1099511628211u;
	return h;
}

static void rehash(gp_pool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 64, i, h;
	slot *t = gp_xcalloc(cap, sizeof(*t));

	for (i = 0; i < p->cap; i++) {
		if (!p->tab[i].data)
			continue;
		for (h = p->tab[i].hash & (cap - 1); t[h].data; h = (h + 1) & (cap - 1))
			;
		t[h] = p->tab[i];
	}
	p->bytes += (cap - p->cap) * sizeof(*t);
	free(p->tab);
	p->tab = t;
	p->cap = cap;
}

/* The interned copy of data[0..size), made with extra bytes of zeros
 * behind it (1 for a string's NUL). */
static const void *intern(gp_pool *p, const void *data, size_t size, size_t extra, size_t align)
{
	size_t hash = hash_mem(data, size), h;
	void *copy;

	if (2 * (p->n + 1) > p->cap)
		rehash(p);
	for (h = hash & (p->cap - 1); p->tab[h].data; h = (h + 1) & (p->cap - 1))
		if (p->tab[h].hash == hash && p->tab[h].size == size && p->tab[h].extra == extra &&
		    !memcmp(p->tab[h].data, data, size))
			return p->tab[h].data;
	copy = take(p, size + extra, align);
	memcpy(copy, data, size);
	memset((char *)copy + size, 0, extra);
	p->tab[h].data = copy;
	p->tab[h].size = size;
	p->tab[h].hash = hash;
	p->tab[h].extra = extra;
	p->n++;
	return copy;
}

char *gp_pool_intern(gp_pool *p, const char *s)
{
	return (char *)intern(p, s, strlen(s), 1, 1);
}

const void *gp_pool_intern_mem(gp_pool *p, const void *data, size_t size)
{
	return intern(p, data, size, 0, ALIGN);
}

size_t gp_pool_bytes(const gp_pool *p)
{
	return p ? p->bytes : 0;
}

size_t gp_pool_interned(const gp_pool *p)
{
	return p ? p->n : 0;
}
