/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * laas.h - load-adaptive access scheduling (seed 001 section 3.3.1).
 *
 * Load is the most files open at once within the last window_ns, and at
 * least the files open now (the seed's "open inodes in a recent window"):
 * a reader that closes one file and opens the next stays one unit of load,
 * and a burst of opens keeps counting for a window after it ends, so the
 * mode does not flap.  (Counting every distinct file touched in the window
 * made two video streams, each moving on to its next file, look like four
 * and bind.)  Below threshold = factor x devices a read is split evenly
 * over the file's current copies, in pieces aligned to @chunk bytes
 * (intra-request parallelism, like RAID-0); at or above it the file is bound
 * to one device for as long as it stays open (inter-request parallelism,
 * like RAID-1), an unbound file going to the least-loaded device holding a
 * copy.  A device's load is the number of open files bound to it; among
 * equally loaded devices the file's home (its master's device) wins, since
 * placement spread the masters evenly.
 *
 * A split read is not always split evenly: under the adaptive policy each
 * device counts the open files being read split with a copy on it, and a
 * file's pieces are sized in proportion to 1 / that count on each of its
 * copies' devices.  Two split streams whose copies share one device thus
 * take a third of their bytes each from it and two thirds from their own
 * device, and every device carries the same share, instead of both waiting
 * for the shared one with an even split.
 */
#ifndef MORPH_LAAS_H
#define MORPH_LAAS_H

#include "morph_env.h"
#include "../include/morphstore_format.h"

enum morph_laas_policy {
	MORPH_LAAS_ADAPTIVE,	/* the seed's scheduler */
	MORPH_LAAS_STRIPE,	/* always split (stripe-only baseline) */
	MORPH_LAAS_MIRROR,	/* always bind (mirror-only baseline) */
};

struct morph_laas_config {
	u32 ndev;
	u32 factor_milli;	/* threshold = factor_milli * ndev / 1000 */
	u64 window_ns;
	u32 chunk;		/* split granularity, bytes, > 0 */
	enum morph_laas_policy policy;
};

/* per open file; embedded in the front end's in-memory inode */
struct morph_laas_file {
	u32 open_count;
	int bound;		/* device, or -1 */
	int home;		/* preferred on ties (the master's device), or -1 */
	u32 split_on;		/* devices it counts on as a split reader */
};

struct morph_laas {
	struct morph_laas_config cfg;
	const struct morph_env *env;
	u32 open_files;		/* files open now */
	u32 peak;		/* the most open at once since peak_ns */
	u64 peak_ns;
	u32 dev_bound[MORPH_MAX_DEVICES];
	u32 dev_split[MORPH_MAX_DEVICES];	/* open split readers */
};

struct morph_laas_segment {
	u32 dev;
	u64 off;
	u64 len;
};

/* checks the configuration; -MORPH_ERR_RANGE names nothing, the caller does */
int morph_laas_init(struct morph_laas *l, const struct morph_laas_config *cfg,
		    const struct morph_env *env);
void morph_laas_file_init(struct morph_laas_file *f);

void morph_laas_open(struct morph_laas *l, struct morph_laas_file *f);
void morph_laas_close(struct morph_laas *l, struct morph_laas_file *f);
/* a file disappears (its in-memory inode is freed): forget it */
void morph_laas_forget(struct morph_laas *l, struct morph_laas_file *f);

u32 morph_laas_load(struct morph_laas *l);
u32 morph_laas_threshold(const struct morph_laas *l);
/* 1 when reads are split now, 0 when files are bound */
int morph_laas_striping(struct morph_laas *l);

/*
 * Route a read of [@off, @off + @len) of a file whose current copies are on
 * the devices in @copies (non-zero).  Fills at most @max segments (use
 * MORPH_MAX_DEVICES) and returns their number; the segments cover the range
 * in order and each goes to a device in @copies.
 */
u32 morph_laas_route(struct morph_laas *l, struct morph_laas_file *f,
		     u32 copies, u64 off, u64 len,
		     struct morph_laas_segment *seg, u32 max);

/*
 * The pieces a split read of [@off, @off + @len) takes, without touching
 * the scheduler's state: what morph_laas_route returns while reads are
 * split (sized by the split readers each copy's device has now).  A front end that reads ahead asks it where each later read of a
 * stream will go, so that it fetches every piece from the device that will
 * serve it.
 */
u32 morph_laas_split(const struct morph_laas *l, u32 copies, u64 off, u64 len,
		     struct morph_laas_segment *seg, u32 max);

#endif /* MORPH_LAAS_H */
