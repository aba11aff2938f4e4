// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only
/*
 * rmap.c - replica map codec and replica choice (seed 001 sections 3.4.2-3.4.3).
 *
 * The on-disk form is MORPH_XATTR_STATE, 48 little-endian bytes described in
 * include/morphstore_format.h.  Encoding is done byte by byte so that the
 * result does not depend on the host's endianness or structure padding.
 */
#include "rmap.h"

static const char *const morph_messages[MORPH_ERR_MAX] = {
	[MORPH_OK] = "success",
	[MORPH_ERR_NOMEM] = "out of memory",
	[MORPH_ERR_SHORT] = "replica state attribute is shorter than its header says",
	[MORPH_ERR_VERSION] = "replica state attribute has an unknown format version",
	[MORPH_ERR_FIELD] = "replica state attribute has a field out of range for this volume",
	[MORPH_ERR_RANGE] = "argument out of range",
	[MORPH_ERR_NODEV] = "no device is eligible",
};

const char *morph_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= MORPH_ERR_MAX)
		return "unknown MorphStore error";
	return morph_messages[err];
}

static u64 get_le(const u8 *p, unsigned int n)
{
	u64 v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static void put_le(u8 *p, unsigned int n, u64 v)
{
	unsigned int i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = (u8)v;
}

void morph_state_init(struct morph_state *st, u64 id, u32 master)
{
	st->wanted = 1;
	st->master = master;
	st->mask = 0;
	st->stale = 0;
	st->flags = 0;
	st->id = id;
	st->reads = 0;
	st->writes = 0;
}

int morph_state_decode(const void *buf, size_t len, u32 ndev,
		       struct morph_state *st)
{
	const u8 *p = buf;
	u32 all = ndev >= 32 ? 0xffffffffu : (1u << ndev) - 1;

	if (len < 4)
		return -MORPH_ERR_SHORT;
	if (get_le(p + MORPH_OFF_VERSION, 2) != MORPH_FORMAT_VERSION)
		return -MORPH_ERR_VERSION;
	if (get_le(p + MORPH_OFF_SIZE, 2) != MORPH_STATE_SIZE ||
	    len < MORPH_STATE_SIZE)
		return -MORPH_ERR_SHORT;
	st->wanted = (u32)get_le(p + MORPH_OFF_WANTED, 4);
	st->master = (u32)get_le(p + MORPH_OFF_MASTER, 4);
	st->mask = (u32)get_le(p + MORPH_OFF_MASK, 4);
	st->stale = (u32)get_le(p + MORPH_OFF_STALE, 4);
	st->flags = (u32)get_le(p + MORPH_OFF_FLAGS, 4);
	st->id = get_le(p + MORPH_OFF_ID, 8);
	st->reads = get_le(p + MORPH_OFF_READS, 8);
	st->writes = get_le(p + MORPH_OFF_WRITES, 8);
	if (ndev < 1 || ndev > MORPH_MAX_DEVICES || st->master >= ndev ||
	    st->wanted < 1 || st->wanted > ndev || (st->mask & ~all) ||
	    (st->mask & (1u << st->master)) || (st->stale & ~st->mask))
		return -MORPH_ERR_FIELD;
	return 0;
}

void morph_state_encode(const struct morph_state *st, u8 out[MORPH_STATE_SIZE])
{
	put_le(out + MORPH_OFF_VERSION, 2, MORPH_FORMAT_VERSION);
	put_le(out + MORPH_OFF_SIZE, 2, MORPH_STATE_SIZE);
	put_le(out + MORPH_OFF_WANTED, 4, st->wanted);
	put_le(out + MORPH_OFF_MASTER, 4, st->master);
	put_le(out + MORPH_OFF_MASK, 4, st->mask);
	put_le(out + MORPH_OFF_STALE, 4, st->stale);
	put_le(out + MORPH_OFF_FLAGS, 4, st->flags);
	put_le(out + MORPH_OFF_ID, 8, st->id);
	put_le(out + MORPH_OFF_READS, 8, st->reads);
	put_le(out + MORPH_OFF_WRITES, 8, st->writes);
}

u32 morph_popcount(u32 mask)
{
	u32 n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

u32 morph_nth_bit(u32 mask, u32 n)
{
	u32 bit;

	for (bit = 0; bit < 32; bit++) {
		if (!(mask & (1u << bit)))
			continue;
		if (n-- == 0)
			return bit;
	}
	return 0;
}

u32 morph_state_readable(const struct morph_state *st)
{
	return (1u << st->master) | (st->mask & ~st->stale);
}

u32 morph_state_copies(const struct morph_state *st)
{
	return morph_popcount(morph_state_readable(st));
}

int morph_rmap_pick_new(const struct morph_state *st, u32 ndev, u32 eligible,
			const struct morph_env *env)
{
	u32 all = ndev >= 32 ? 0xffffffffu : (1u << ndev) - 1;
	u32 free = eligible & all & ~st->mask & ~(1u << st->master);
	u32 n = morph_popcount(free);

	if (!n)
		return -MORPH_ERR_NODEV;
	return (int)morph_nth_bit(free, env->random_u32(env->ctx) % n);
}

int morph_rmap_pick_drop(const struct morph_state *st)
{
	u32 from = st->stale ? st->stale : st->mask;
	int bit;

	for (bit = 31; bit >= 0; bit--)
		if (from & (1u << bit))
			return bit;
	return -MORPH_ERR_NODEV;
}
