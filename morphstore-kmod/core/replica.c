// SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only
/*
 * replica.c - the replica protocol (see replica.h): names, placement of new
 * files, the state written back, write sessions, and making and dropping
 * replicas through the front end's struct morph_replica_io.
 */
#include "replica.h"

u32 morph_replica_name(char *buf, u32 len, u64 id, int tmp)
{
	static const char hex[] = "0123456789abcdef";
	static const char suffix[] = MORPH_TMP_SUFFIX;
	u32 n = 16, i;

	if (tmp)
		n += sizeof(suffix) - 1;
	if (len <= n)
		return 0;
	for (i = 0; i < 16; i++)
		buf[i] = hex[(id >> (60 - 4 * i)) & 0xf];
	for (; i < n; i++)
		buf[i] = suffix[i - 16];
	buf[n] = 0;
	return n;
}

/* a volume-unique file id: random, never 0 (0 means "none yet") */
static u64 new_id(const struct morph_env *env)
{
	u64 id;

	do {
		id = ((u64)env->random_u32(env->ctx) << 32) |
		     env->random_u32(env->ctx);
	} while (!id);
	return id;
}

int morph_place_file(const struct morph_replica_io *io, u32 allowed)
{
	u64 free[MORPH_MAX_DEVICES], most = 0;
	u32 d, i;

	for (d = 0; d < io->ndev; d++) {
		free[d] = (allowed & (1u << d)) ? io->dev_free(io->ctx, d) : 0;
		if (free[d] > most)
			most = free[d];
	}
	for (i = 0; i < io->ndev; i++) {
		d = io->next_turn(io->ctx) % io->ndev;
		if ((allowed & (1u << d)) && free[d] >= most / 2)
			return (int)d;
	}
	if (!allowed)
		return -MORPH_ERR_NODEV;
	return (int)morph_nth_bit(allowed, 0);
}

u32 morph_devices_with_room(const struct morph_replica_io *io, u64 need)
{
	u32 d, room = 0;

	for (d = 0; d < io->ndev; d++)
		if (io->dev_free(io->ctx, d) > need)
			room |= 1u << d;
	return room;
}

int morph_state_load(const void *buf, size_t len, u32 ndev, u32 dev,
		     struct morph_state *st)
{
	int ret = morph_state_decode(buf, len, ndev, st);

	if (!ret && st->master != dev)
		ret = -MORPH_ERR_FIELD;
	if (ret)
		morph_state_init(st, 0, dev);
	return ret;
}

int morph_replica_persist(const struct morph_replica_io *io,
			  struct morph_replica_file *f, u32 extra_stale,
			  u64 reads, u64 writes, int sync)
{
	struct morph_state st;
	u8 buf[MORPH_STATE_SIZE];
	int ret;

	if (!f->st.id)
		f->st.id = new_id(io->env);
	st = f->st;
	st.stale |= extra_stale;
	/* a persist in a session (copies wanted, a link) must not call fresh
	 * the replicas morph_session_begin marked stale */
	if (f->session)
		st.stale |= f->session_mask & st.mask;
	st.reads += reads;
	st.writes += writes;
	morph_state_encode(&st, buf);
	ret = io->write_state(io->ctx, f, buf, sync);
	if (!ret) {
		f->st.reads = st.reads;
		f->st.writes = st.writes;
	}
	return ret;
}

int morph_session_begin(const struct morph_replica_io *io,
			struct morph_replica_file *f, u32 unusable)
{
	u32 live = f->st.mask & ~f->st.stale;
	int ret;

	if (f->session || !live)
		return 0;
	ret = io->persist(io->ctx, f, live, 1);
	if (ret)
		return ret;
	f->session = 1;
	f->session_mask = live;
	f->failed = live & unusable;
	return 0;
}

void morph_session_end(const struct morph_replica_io *io,
		       struct morph_replica_file *f)
{
	u32 in_step = f->session_mask & ~f->failed;

	if (!f->session)
		return;
	/* the copies' data and the master's, on other file systems, reach
	 * the disk before a state calling them fresh can: a power cut would
	 * otherwise leave copies marked fresh that differ from the master */
	if (in_step && io->sync_data)
		f->failed |= io->sync_data(io->ctx, f, in_step) & in_step;
	f->st.stale |= f->failed;
	f->session = 0;
	f->session_mask = 0;
	f->failed = 0;
	io->persist(io->ctx, f, 0, 0);
}

/* the mask is changed only together with the durable state that says so */
static int commit_state(const struct morph_replica_io *io,
			struct morph_replica_file *f, u32 add, u32 drop)
{
	struct morph_state was = f->st;
	int ret;

	f->st.mask = (f->st.mask | add) & ~drop;
	f->st.stale &= ~(add | drop);
	ret = io->persist(io->ctx, f, 0, 1);
	if (ret)
		f->st = was;
	return ret;
}

int morph_replica_make(const struct morph_replica_io *io,
		       struct morph_replica_file *f,
		       const struct morph_state *st, u32 dev, void *priv)
{
	struct morph_copy c = { .dev = dev, .st = *st, .priv = priv };
	u32 bit = 1u << dev;
	int ret;

	c.st.mask |= bit;
	c.st.stale &= ~bit;
	morph_replica_name(c.tmp, sizeof(c.tmp), st->id, 1);
	morph_replica_name(c.name, sizeof(c.name), st->id, 0);
	/* copy, to the temporary name, durably */
	io->remove(io->ctx, dev, c.tmp);
	ret = io->copy(io->ctx, f, &c);
	if (!ret && io->commit_begin)
		ret = io->commit_begin(io->ctx, f, &c);
	if (ret) {
		io->remove(io->ctx, dev, c.tmp);
		return ret;
	}
	/* rename: the replica is complete under its own name ... */
	ret = io->rename(io->ctx, f, &c);
	if (ret)
		io->remove(io->ctx, dev, c.tmp);
	/* ... and only then in the mask */
	else
		ret = commit_state(io, f, bit, 0);
	if (io->commit_end)
		io->commit_end(io->ctx, f, &c, ret);
	return ret;
}

int morph_replica_drop(const struct morph_replica_io *io,
		       struct morph_replica_file *f, void *priv, u32 *dev)
{
	int pick = morph_rmap_pick_drop(&f->st), ret;

	if (pick < 0)
		return 1;
	if (io->drop_begin) {
		ret = io->drop_begin(io->ctx, f, (u32)pick, priv);
		if (ret)
			return ret;
	}
	ret = commit_state(io, f, 0, 1u << pick);
	if (!ret)
		*dev = (u32)pick;
	return ret;
}

int morph_replica_remove(const struct morph_replica_io *io, u32 dev, u64 id)
{
	char name[MORPH_REPLICA_NAME_MAX];

	morph_replica_name(name, sizeof(name), id, 0);
	return io->remove(io->ctx, dev, name);
}

int morph_replica_remove_all(const struct morph_replica_io *io,
			     const struct morph_state *st)
{
	u32 d;
	int ret = 0, r;

	for (d = 0; d < io->ndev; d++)
		if (st->mask & (1u << d)) {
			r = morph_replica_remove(io, d, st->id);
			if (r && !ret)
				ret = r;
		}
	return ret;
}

u32 morph_name_keeper(u32 devs, u32 behind)
{
	u32 up = devs & ~behind;

	return morph_nth_bit(up ? up : devs, 0);
}

u32 morph_lost_name(char *buf, u32 len, const char *name, u32 name_len,
		    u64 ino)
{
	char digits[20];
	u32 n = 0, i;

	do {
		digits[n++] = (char)('0' + ino % 10);
		ino /= 10;
	} while (ino);
	if (len <= name_len + 1 + n)
		return 0;
	for (i = 0; i < name_len; i++)
		buf[i] = name[i];
	buf[i++] = '.';
	while (n)
		buf[i++] = digits[--n];
	buf[i] = 0;
	return i;
}
