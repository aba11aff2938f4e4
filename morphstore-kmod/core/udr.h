/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * udr.h - utility-driven replication planner (seed 001 sections 3.3.2-3.3.3).
 *
 * The cost of a file with R copies is reads/R + writes*R; the utility of one
 * more copy is cost(R) - cost(R+1) = reads/(R*(R+1)) - writes.  Utilities are
 * kept as exact fractions (no floating point, so the kernel can plan too);
 * statistics above MORPH_UDR_COUNT_MAX are clamped, which keeps every
 * cross-multiplication inside 63 bits.
 */
#ifndef MORPH_UDR_H
#define MORPH_UDR_H

#include "morph_env.h"

#define MORPH_UDR_COUNT_MAX	(1ull << 40)

struct morph_udr_file {
	u64 size;	/* bytes one more copy costs */
	u64 reads;
	u64 writes;
	u32 replicas;	/* output: copies planned, master included */
};

/* a utility num/den; den > 0 */
struct morph_utility {
	s64 num;
	u32 den;
};

/* one decision: file index @file goes to @replicas copies, for @utility */
struct morph_udr_step {
	u32 file;
	u32 replicas;
	struct morph_utility utility;
};

struct morph_utility morph_udr_utility(u64 reads, u64 writes, u32 replicas);
/* <0, 0, >0 as a is smaller than, equal to, larger than b */
int morph_utility_cmp(struct morph_utility a, struct morph_utility b);

/*
 * Algorithm 1 (REPLICATE): every file starts with one copy; a priority queue
 * ordered by utility (ties: lower file index first) yields the best file; a
 * positive utility that fits the remaining @capacity (bytes) buys one copy,
 * anything else retires the file; a file with @ndev copies retires.  The
 * loop runs while the queue is not empty AND capacity is left (the seed
 * prints "or"; its text, and termination, need "and").
 *
 * @steps receives the decisions in order (room for nfiles * (ndev - 1));
 * *@nsteps their number, *@used the bytes spent (never more than @capacity).
 * Returns 0, -MORPH_ERR_RANGE (ndev outside 1..MORPH_MAX_DEVICES) or
 * -MORPH_ERR_NOMEM.
 */
int morph_udr_plan(const struct morph_env *env, struct morph_udr_file *files,
		   u32 nfiles, u32 ndev, u64 capacity,
		   struct morph_udr_step *steps, u32 *nsteps, u64 *used);

#endif /* MORPH_UDR_H */
