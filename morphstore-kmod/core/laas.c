// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only
/*
 * laas.c - load-adaptive access scheduling: seed 001 section 3.3.1.
 *
 * Load (laas.h): the count of open files and its peak; a peak older than
 * the window gives way to the count at the next open, close or look.
 */
#include "laas.h"
#include "rmap.h"

#define SPLIT_SCALE 720720u	/* divisible by 1..16 split readers */

int morph_laas_init(struct morph_laas *l, const struct morph_laas_config *cfg,
		    const struct morph_env *env)
{
	u32 i;

	if (cfg->ndev < 1 || cfg->ndev > MORPH_MAX_DEVICES || !cfg->chunk ||
	    !cfg->factor_milli)
		return -MORPH_ERR_RANGE;
	l->cfg = *cfg;
	l->env = env;
	l->open_files = l->peak = 0;
	l->peak_ns = 0;
	for (i = 0; i < MORPH_MAX_DEVICES; i++)
		l->dev_bound[i] = l->dev_split[i] = 0;
	return 0;
}

void morph_laas_file_init(struct morph_laas_file *f)
{
	f->open_count = 0;
	f->bound = -1;
	f->home = -1;
	f->split_on = 0;
}

/* the peak of open files: kept for a window, then the count now */
static void note_open_files(struct morph_laas *l, u64 now)
{
	if (l->open_files >= l->peak || now - l->peak_ns >= l->cfg.window_ns) {
		l->peak = l->open_files;
		l->peak_ns = now;
	}
}

static void unbind(struct morph_laas *l, struct morph_laas_file *f)
{
	if (f->bound >= 0) {
		l->dev_bound[f->bound]--;
		f->bound = -1;
	}
}

/* @f stops counting as a split reader */
static void unsplit(struct morph_laas *l, struct morph_laas_file *f)
{
	u32 dev;

	for (dev = 0; dev < MORPH_MAX_DEVICES; dev++)
		if (f->split_on & (1u << dev))
			l->dev_split[dev]--;
	f->split_on = 0;
}

/* @f counts as a split reader on the devices in @copies */
static void count_split(struct morph_laas *l, struct morph_laas_file *f,
			u32 copies)
{
	u32 dev;

	if (f->split_on == copies)
		return;
	unsplit(l, f);
	for (dev = 0; dev < MORPH_MAX_DEVICES; dev++)
		if (copies & (1u << dev))
			l->dev_split[dev]++;
	f->split_on = copies;
}

void morph_laas_open(struct morph_laas *l, struct morph_laas_file *f)
{
	if (f->open_count++)
		return;
	l->open_files++;
	note_open_files(l, l->env->now_ns(l->env->ctx));
}

/* @f is no longer open: it stops counting as load now (the peak stays) */
static void closed(struct morph_laas *l, struct morph_laas_file *f)
{
	unbind(l, f);
	unsplit(l, f);
	l->open_files--;
	note_open_files(l, l->env->now_ns(l->env->ctx));
}

void morph_laas_close(struct morph_laas *l, struct morph_laas_file *f)
{
	if (f->open_count && --f->open_count == 0)
		closed(l, f);
}

void morph_laas_forget(struct morph_laas *l, struct morph_laas_file *f)
{
	if (f->open_count) {
		f->open_count = 0;
		closed(l, f);
	}
	unbind(l, f);
	unsplit(l, f);
}

u32 morph_laas_load(struct morph_laas *l)
{
	note_open_files(l, l->env->now_ns(l->env->ctx));
	return l->peak > l->open_files ? l->peak : l->open_files;
}

u32 morph_laas_threshold(const struct morph_laas *l)
{
	u64 t = (u64)l->cfg.factor_milli * l->cfg.ndev / 1000;

	return t ? (u32)t : 1;
}

int morph_laas_striping(struct morph_laas *l)
{
	if (l->cfg.policy != MORPH_LAAS_ADAPTIVE)
		return l->cfg.policy == MORPH_LAAS_STRIPE;
	return morph_laas_load(l) < morph_laas_threshold(l);
}

/* least-loaded device of @copies; ties go to @home, then the lowest index */
static u32 least_loaded(const struct morph_laas *l, u32 copies, int home)
{
	u32 dev, best = 0, best_load = 0xffffffffu;

	for (dev = 0; dev < l->cfg.ndev; dev++) {
		if (!(copies & (1u << dev)))
			continue;
		if (l->dev_bound[dev] < best_load ||
		    (l->dev_bound[dev] == best_load && (int)dev == home)) {
			best = dev;
			best_load = l->dev_bound[dev];
		}
	}
	return best;
}

static u32 route_bound(struct morph_laas *l, struct morph_laas_file *f,
		       u32 copies, u64 off, u64 len,
		       struct morph_laas_segment *seg)
{
	unsplit(l, f);
	if (f->bound < 0 || !(copies & (1u << f->bound))) {
		unbind(l, f);
		f->bound = (int)least_loaded(l, copies, f->home);
		l->dev_bound[f->bound]++;
	}
	seg->dev = (u32)f->bound;
	seg->off = off;
	seg->len = len;
	return 1;
}

/* a split reader's weight on @dev: the share of it a reader gets */
static u64 split_weight(const struct morph_laas *l, u32 dev)
{
	u32 readers = l->dev_split[dev];

	return SPLIT_SCALE / (readers ? readers : 1);
}

/*
 * Split into at most one piece per copy, each a whole number of chunks
 * (except at the ends of the range).  Copies are taken in turn from the one
 * selected by the first chunk's number, so that reads smaller than two
 * chunks alternate between copies as a reader moves through the file.  A
 * read of at least one chunk per copy gives each copy a number of chunks in
 * proportion to its weight (largest remainder first, earlier copies on
 * ties): equal weights give an even split.
 */
u32 morph_laas_split(const struct morph_laas *l, u32 copies, u64 off, u64 len,
		     struct morph_laas_segment *seg, u32 max)
{
	u64 chunk = l->cfg.chunk, first = off / chunk;
	u64 nchunks = (off + len - 1) / chunk - first + 1;
	u64 take[MORPH_MAX_DEVICES], rest[MORPH_MAX_DEVICES];
	u64 total = 0, given = 0, at = off, end = off + len, next = first;
	u32 dev[MORPH_MAX_DEVICES];
	u32 n = morph_popcount(copies), parts, p, out = 0;

	if (!len || !max || !copies)
		return 0;
	parts = nchunks < n ? (u32)nchunks : n;
	if (parts > max)
		parts = max;
	for (p = 0; p < parts; p++) {
		dev[p] = morph_nth_bit(copies, (u32)((first + p) % n));
		take[p] = nchunks < n ? 1 : split_weight(l, dev[p]);
		total += take[p];
	}
	for (p = 0; p < parts; p++) {
		rest[p] = nchunks * take[p] % total;
		take[p] = nchunks * take[p] / total;
		given += take[p];
	}
	for (; given < nchunks; given++) {
		u32 best = 0;

		for (p = 1; p < parts; p++)
			if (rest[p] > rest[best])
				best = p;
		take[best]++;
		rest[best] = 0;
	}
	for (p = 0; p < parts; p++) {
		u64 stop;

		if (!take[p])
			continue;
		next += take[p];
		stop = next * chunk;
		if (stop > end || p == parts - 1)
			stop = end;
		seg[out].dev = dev[p];
		seg[out].off = at;
		seg[out].len = stop - at;
		out++;
		at = stop;
	}
	return out;
}

u32 morph_laas_route(struct morph_laas *l, struct morph_laas_file *f,
		     u32 copies, u64 off, u64 len,
		     struct morph_laas_segment *seg, u32 max)
{
	if (!len || !max)
		return 0;
	if (morph_popcount(copies) == 1) {
		unbind(l, f);
		unsplit(l, f);
		seg->dev = morph_nth_bit(copies, 0);
		seg->off = off;
		seg->len = len;
		return 1;
	}
	if (!morph_laas_striping(l))
		return route_bound(l, f, copies, off, len, seg);
	unbind(l, f);
	if (l->cfg.policy == MORPH_LAAS_ADAPTIVE)
		count_split(l, f, copies);
	return morph_laas_split(l, copies, off, len, seg, max);
}
