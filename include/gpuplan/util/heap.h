/* One binary min-heap, generated per item type.
 *
 *   GP_HEAP_DEFINE(name, T, CTX, cmp)
 *
 * makes the type `name` (items in v[0..n), top at v[0]) and static inline
 * name_push, name_pop, name_heapify, name_sift_down and name_release.
 * GP_HEAP_TYPE(name, T) and GP_HEAP_FUNCS(prefix, name, T, CTX, cmp) are
 * its two halves: a struct can hold a heap declared before the context
 * its order reads, and one heap type can be ordered in two ways.
 * cmp(ctx, a, b) orders two items (< 0: a comes first); items it leaves
 * equal come out in the order they went in: T has a uint32_t member `seq`
 * that push stamps from the heap's counter (heapify: the array order), so
 * the order never depends on the heap's shape.  Being generated per type,
 * cmp is inlined: the event loops that pop millions of items pay no call
 * through a pointer. */
#ifndef GPUPLAN_UTIL_HEAP_H
#define GPUPLAN_UTIL_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "gpuplan/util/util.h"

/* A user of a heap may need only some of its functions: clang warns about
 * unused static inline functions in a .c file, gcc does not. */
#define GP_HEAP_FN static inline __attribute__((unused))

#define GP_HEAP_TYPE(name, T)                                                           \
	typedef struct name {                                                            \
		T *v;                                                                    \
		size_t n, cap;                                                           \
		uint32_t seq; /* stamp of the next push */                               \
	} name

#define GP_HEAP_DEFINE(name, T, CTX, cmp)                                               \
	GP_HEAP_TYPE(name, T);                                                           \
	GP_HEAP_FUNCS(name, name, T, CTX, cmp)

#define GP_HEAP_FUNCS(name, htype, T, CTX, cmp)                                         \
	GP_HEAP_FN int name##_before(CTX ctx, const T *a, const T *b)                  \
	{                                                                                \
		int c_ = cmp(ctx, a, b);                                                 \
                                                                                         \
		if (c_)                                                                  \
			return c_ < 0;                                                   \
		return a->seq < b->seq;                                                  \
	}                                                                                \
                                                                                         \
	GP_HEAP_FN void name##_push(htype *h, CTX ctx, T x)                            \
	{                                                                                \
		size_t i;                                                                \
                                                                                         \
		GP_GROW(h->v, h->cap, h->n + 1);                                         \
		x.seq = h->seq++;                                                        \
		for (i = h->n++; i > 0 && name##_before(ctx, &x, &h->v[(i - 1) / 2]);     \
		     i = (i - 1) / 2)                                                    \
			h->v[i] = h->v[(i - 1) / 2];                                     \
		h->v[i] = x;                                                             \
	}                                                                                \
                                                                                         \
	/* Put x at hole i and move it down to its place among n items. */              \
	GP_HEAP_FN void name##_sift_down(htype *h, CTX ctx, T x, size_t i)              \
	{                                                                                \
		size_t n = h->n;                                                         \
                                                                                         \
		for (;;) {                                                               \
			size_t c = 2 * i + 1;                                            \
                                                                                         \
			if (c >= n)                                                      \
				break;                                                   \
			if (c + 1 < n && name##_before(ctx, &h->v[c + 1], &h->v[c]))     \
				c++;                                                     \
			if (!name##_before(ctx, &h->v[c], &x))                           \
				break;                                                   \
			h->v[i] = h->v[c];                                               \
			i = c;                                                           \
		}                                                                        \
		h->v[i] = x;                                                             \
	}                                                                                \
                                                                                         \
	/* The top item, removed (n > 0). */                                             \
	GP_HEAP_FN T name##_pop(htype *h, CTX ctx)                                     \
	{                                                                                \
		T top = h->v[0];                                                         \
                                                                                         \
		if (--h->n)                                                              \
			name##_sift_down(h, ctx, h->v[h->n], 0);                         \
		return top;                                                              \
	}                                                                                \
                                                                                         \
	/* v[0..n) filled by the caller becomes a heap; ties in array order. */          \
	GP_HEAP_FN void name##_heapify(htype *h, CTX ctx)                              \
	{                                                                                \
		size_t i;                                                                \
                                                                                         \
		for (i = 0; i < h->n; i++)                                               \
			h->v[i].seq = (uint32_t)i;                                       \
		h->seq = (uint32_t)h->n;                                                 \
		for (i = h->n / 2; i-- > 0;)                                             \
			name##_sift_down(h, ctx, h->v[i], i);                            \
	}                                                                                \
                                                                                         \
	GP_HEAP_FN void name##_release(htype *h)                                      \
	{                                                                                \
		free(h->v);                                                              \
		h->v = NULL;                                                             \
		h->n = h->cap = 0;                                                       \
		h->seq = 0;                                                              \
	}

#endif
