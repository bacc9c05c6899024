/* An ordered index of the jobs of a las list (or of one shape in it), in
 * list order (gp_sim_las_before): a treap whose node priorities are a
 * hash of the job index, so runs repeat exactly.  The lists themselves
 * stay linked lists; the index only finds where a job goes in, which a
 * walk from the tail made cost the length of the list for a preempted
 * job going back to its old place. */
#include "sim_int.h"

static uint32_t prio(int32_t j)
{
	uint32_t x = (uint32_t)j * 2654435761u;

	x ^= x >> 15;
	x *= 2246822519u;
	return x ^ (x >> 13);
}

int32_t gp_sim_ord_pred(const sim *s, const int32_t *left, const int32_t *right, int32_t root, int32_t j)
{
	int32_t x = root, best = -1;

	while (x >= 0) {
		if (gp_sim_las_before(s, x, j)) {
			best = x;
			x = right[x];
		} else {
			x = left[x];
		}
	}
	return best;
}

/* Split t into the jobs before j (*a) and the others (*b). */
static void split(const sim *s, int32_t *left, int32_t *right, int32_t t, int32_t j, int32_t *a, int32_t *b)
{
	if (t < 0) {
		*a = *b = -1;
	} else if (gp_sim_las_before(s, t, j)) {
		split(s, left, right, right[t], j, &right[t], b);
		*a = t;
	} else {
		split(s, left, right, left[t], j, a, &left[t]);
		*b = t;
	}
}

/* All of a before all of b. */
static int32_t merge(int32_t *left, int32_t *right, int32_t a, int32_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	if (prio(a) > prio(b)) {
		right[a] = merge(left, right, right[a], b);
		return a;
	}
	left[b] = merge(left, right, a, left[b]);
	return b;
}

int32_t gp_sim_ord_insert(const sim *s, int32_t *left, int32_t *right, int32_t root, int32_t j)
{
	int32_t a, b;

	left[j] = right[j] = -1;
	split(s, left, right, root, j, &a, &b);
	return merge(left, right, merge(left, right, a, j), b);
}

int32_t gp_sim_ord_erase(const sim *s, int32_t *left, int32_t *right, int32_t root, int32_t j)
{
	if (root < 0)
		return -1;
	if (root == j)
		return merge(left, right, left[j], right[j]);
	if (gp_sim_las_before(s, j, root))
		left[root] = gp_sim_ord_erase(s, left, right, left[root], j);
	else
		right[root] = gp_sim_ord_erase(s, left, right, right[root], j);
	return root;
}
