/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * rmap.h - the replica map of one master file.
 *
 * struct morph_state is the in-memory form of MORPH_XATTR_STATE (layout in
 * include/morphstore_format.h).  The functions here decode and check it,
 * encode it, and answer the questions every front end asks: which devices
 * may serve a read, where a new replica goes, which replica to drop.
 */
#ifndef MORPH_RMAP_H
#define MORPH_RMAP_H

#include "morph_env.h"
#include "../include/morphstore_format.h"

struct morph_state {
	u32 wanted;	/* copies wanted, master included */
	u32 master;	/* device of the master copy */
	u32 mask;	/* devices holding a replica file */
	u32 stale;	/* replicas that must not be served */
	u32 flags;
	u64 id;
	u64 reads;
	u64 writes;
};

/* a fresh single-copy state for a master on device @master */
void morph_state_init(struct morph_state *st, u64 id, u32 master);

/*
 * Decode @len bytes of MORPH_XATTR_STATE; checks version, size and that
 * every field fits a volume of @ndev devices.  Returns 0 or a negated
 * morph_err (MORPH_ERR_SHORT, MORPH_ERR_VERSION, MORPH_ERR_FIELD).
 */
int morph_state_decode(const void *buf, size_t len, u32 ndev,
		       struct morph_state *st);
void morph_state_encode(const struct morph_state *st,
			u8 out[MORPH_STATE_SIZE]);

/* devices holding a complete, current copy: the master and fresh replicas */
u32 morph_state_readable(const struct morph_state *st);
/* number of complete, current copies */
u32 morph_state_copies(const struct morph_state *st);

u32 morph_popcount(u32 mask);

/*
 * The inode number a volume shows for the lower inode @lower_ino on device
 * @dev: unique across devices, and the same for every name of a hard-linked
 * file (its names are all on its master device), so that tools that find
 * hard links by inode number (tar, rsync -H, a DataNode's upgrade) see one
 * file.  A directory shows its inode on the first device holding it.
 */
#define MORPH_DEV_BITS	5	/* MORPH_MAX_DEVICES == 1 << MORPH_DEV_BITS */
static inline u64 morph_volume_ino(u64 lower_ino, u32 dev)
{
	return (lower_ino << MORPH_DEV_BITS) | dev;
}
/* index of the @n-th (0-based) set bit of @mask; @n < popcount(mask) */
u32 morph_nth_bit(u32 mask, u32 n);

/*
 * Device for one more replica: uniformly random among @eligible devices
 * that hold no copy yet (seed 001 section 3.3: random placement balances
 * load).  Returns the device or -MORPH_ERR_NODEV if none is eligible.
 */
int morph_rmap_pick_new(const struct morph_state *st, u32 ndev, u32 eligible,
			const struct morph_env *env);

/* replica to drop when there are more copies than wanted: stale first,
 * then the highest device index; -MORPH_ERR_NODEV if there is no replica */
int morph_rmap_pick_drop(const struct morph_state *st);

#endif /* MORPH_RMAP_H */
