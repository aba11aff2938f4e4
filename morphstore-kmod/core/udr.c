// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only
/*
 * udr.c - utility-driven replication: seed 001 section 3.3.3, Algorithm 1.
 *
 * The priority queue is a binary max-heap of file indices.  Each file is in
 * the heap at most once, so the heap never holds more than nfiles entries
 * and the loop runs at most nfiles * ndev times: every iteration either adds
 * a copy (at most ndev - 1 per file) or retires a file.
 */
#include "udr.h"
#include "../include/morphstore_format.h"

static u64 clamp_count(u64 v)
{
	return v > MORPH_UDR_COUNT_MAX ? MORPH_UDR_COUNT_MAX : v;
}

struct morph_utility morph_udr_utility(u64 reads, u64 writes, u32 replicas)
{
	/* [r/R + w*R] - [r/(R+1) + w*(R+1)] = (r - w*R*(R+1)) / (R*(R+1)) */
	struct morph_utility u;
	u64 den = (u64)replicas * (replicas + 1);

	u.den = (u32)den;
	u.num = (s64)clamp_count(reads) - (s64)(clamp_count(writes) * den);
	return u;
}

int morph_utility_cmp(struct morph_utility a, struct morph_utility b)
{
	s64 l = a.num * (s64)b.den, r = b.num * (s64)a.den;

	return l < r ? -1 : l > r;
}

struct udr_heap {
	u32 *idx;
	struct morph_utility *util;	/* by file index */
	u32 len;
};

/* true when file a must leave the queue before file b */
static int heap_before(const struct udr_heap *h, u32 a, u32 b)
{
	int c = morph_utility_cmp(h->util[a], h->util[b]);

	return c > 0 || (c == 0 && a < b);
}

static void heap_swap(struct udr_heap *h, u32 i, u32 j)
{
	u32 t = h->idx[i];

	h->idx[i] = h->idx[j];
	h->idx[j] = t;
}

static void heap_push(struct udr_heap *h, u32 file)
{
	u32 i = h->len++;

	h->idx[i] = file;
	while (i && heap_before(h, h->idx[i], h->idx[(i - 1) / 2])) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static u32 heap_pop(struct udr_heap *h)
{
	u32 top = h->idx[0], i = 0;

	h->idx[0] = h->idx[--h->len];
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, best = i;

		if (l < h->len && heap_before(h, h->idx[l], h->idx[best]))
			best = l;
		if (r < h->len && heap_before(h, h->idx[r], h->idx[best]))
			best = r;
		if (best == i)
			return top;
		heap_swap(h, i, best);
		i = best;
	}
}

int morph_udr_plan(const struct morph_env *env, struct morph_udr_file *files,
		   u32 nfiles, u32 ndev, u64 capacity,
		   struct morph_udr_step *steps, u32 *nsteps, u64 *used)
{
	struct udr_heap h = { 0 };
	u32 i;

	*nsteps = 0;
	*used = 0;
	if (ndev < 1 || ndev > MORPH_MAX_DEVICES)
		return -MORPH_ERR_RANGE;
	for (i = 0; i < nfiles; i++)
		files[i].replicas = 1;
	if (!nfiles || ndev == 1)
		return 0;
	h.idx = env->alloc(env->ctx, sizeof(*h.idx) * nfiles);
	h.util = env->alloc(env->ctx, sizeof(*h.util) * nfiles);
	if (!h.idx || !h.util) {
		env->free(env->ctx, h.idx);
		env->free(env->ctx, h.util);
		return -MORPH_ERR_NOMEM;
	}
	for (i = 0; i < nfiles; i++) {
		h.util[i] = morph_udr_utility(files[i].reads, files[i].writes, 1);
		heap_push(&h, i);
	}
	while (h.len && capacity > 0) {
		u32 f = heap_pop(&h);
		struct morph_udr_file *file = &files[f];

		/* no positive utility, or this copy would break the budget:
		 * capacity only shrinks, so the file is done for good */
		if (h.util[f].num <= 0 || file->size > capacity)
			continue;
		file->replicas++;
		capacity -= file->size;
		*used += file->size;
		steps[*nsteps].file = f;
		steps[*nsteps].replicas = file->replicas;
		steps[*nsteps].utility = h.util[f];
		(*nsteps)++;
		if (file->replicas == ndev)
			continue;
		h.util[f] = morph_udr_utility(file->reads, file->writes,
					      file->replicas);
		heap_push(&h, f);
	}
	env->free(env->ctx, h.idx);
	env->free(env->ctx, h.util);
	return 0;
}
