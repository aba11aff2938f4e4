/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * replica.h - the replica protocol both front ends follow (seed 001
 * sections 3.4.1-3.4.3): what a replica is called, which device a new file
 * goes to, how a master's state is read and written back, write sessions,
 * and the steps that make, refresh and drop a replica.
 *
 * The rules live here; the I/O goes through struct morph_replica_io, which
 * each front end fills, as it fills struct morph_env for the rest of the
 * core.  The core takes no locks: every call on one file is made under the
 * front end's lock of that file (the FUSE daemon drops it while copying and
 * takes it back in commit_begin), and the front end decides when to call.
 *
 * Rules:
 *   - a replica is readable only once complete: it is copied to <id>.tmp
 *     and made durable, renamed to <id>, and only then entered in the
 *     master's replica mask, durably;
 *   - before the first change of content in a write session the replicas
 *     are marked stale on disk, and every state written during the
 *     session says so; when the last writer goes, those that took every
 *     write are fresh again once their data and the master's are durable;
 *   - a replica leaves the mask (durably) before its file is removed.
 */
#ifndef MORPH_REPLICA_H
#define MORPH_REPLICA_H

#include "morph_env.h"
#include "rmap.h"

/* <id> as 16 lower-case hex digits, maybe MORPH_TMP_SUFFIX, and a NUL */
#define MORPH_REPLICA_NAME_MAX	24

/*
 * The name of the replica of file @id in MORPH_REPLICA_DIR, or with @tmp of
 * its copy in progress.  Returns the length written (without the NUL), 0
 * if @len is too small.
 */
u32 morph_replica_name(char *buf, u32 len, u64 id, int tmp);

/*
 * The replication of one master file, embedded in the front end's in-memory
 * inode (container_of gets the inode back in the I/O callbacks).
 */
struct morph_replica_file {
	struct morph_state st;	/* as last persisted (minus the session) */
	int state_bad;		/* attribute unreadable: one copy, unchanged */
	int session;		/* stale marking persisted for writes */
	u32 session_mask;	/* replicas kept in step this session */
	u32 failed;		/* replicas that missed a write */
};

/* one copy being made: filled by morph_replica_make for the callbacks */
struct morph_copy {
	u32 dev;			/* the device the replica goes to */
	struct morph_state st;		/* the master's state with this copy
					 * in it, fresh: what the copy is for */
	char tmp[MORPH_REPLICA_NAME_MAX];	/* <id>.tmp */
	char name[MORPH_REPLICA_NAME_MAX];	/* <id> */
	void *priv;			/* the front end's (an open file) */
};

/*
 * What the protocol needs from a front end.  Errors are the front end's
 * (negated errnos); the core passes them through.  Names are relative to
 * the device's MORPH_REPLICA_DIR.
 */
struct morph_replica_io {
	void *ctx;			/* the volume, passed to every call */
	const struct morph_env *env;
	u32 ndev;
	/* bytes @dev can take now; 0 if it takes nothing (full or lost) */
	u64 (*dev_free)(void *ctx, u32 dev);
	/* the placement turn: a counter that advances by one a call */
	u32 (*next_turn)(void *ctx);
	/* store @buf (MORPH_STATE_SIZE bytes) as @f's MORPH_XATTR_STATE;
	 * with @sync, durably before returning */
	int (*write_state)(void *ctx, struct morph_replica_file *f,
			   const u8 *buf, int sync);
	/* the front end's persist (it adds the request counts it keeps):
	 * morph_replica_persist with them */
	int (*persist)(void *ctx, struct morph_replica_file *f,
		       u32 extra_stale, int sync);
	/* optional: make the data written to @f's master and to its
	 * replicas on the devices of @copies durable; returns the devices of
	 * @copies whose data could not be (all of them if the master's could
	 * not).  Without it the front end makes them durable itself before
	 * morph_session_end */
	u32 (*sync_data)(void *ctx, struct morph_replica_file *f, u32 copies);
	/* copy @f's master to @c->tmp on @c->dev, durably */
	int (*copy)(void *ctx, struct morph_replica_file *f,
		    struct morph_copy *c);
	/* optional: the copy is done; may it be committed?  0 to go on (the
	 * file's lock held from here to commit_end), else it is dropped and
	 * the value returned */
	int (*commit_begin)(void *ctx, struct morph_replica_file *f,
			    struct morph_copy *c);
	/* rename @c->tmp to @c->name on @c->dev (and whatever else must
	 * name it) */
	int (*rename)(void *ctx, struct morph_replica_file *f,
		      struct morph_copy *c);
	/* optional: after the mask was written (@ret its result) */
	void (*commit_end)(void *ctx, struct morph_replica_file *f,
			   struct morph_copy *c, int ret);
	/* optional: the replica of @f on @dev is about to be dropped; a
	 * non-zero return keeps it.  @priv: morph_replica_drop's */
	int (*drop_begin)(void *ctx, struct morph_replica_file *f, u32 dev,
			  void *priv);
	/* remove @name on @dev; one that is not there is no error */
	int (*remove)(void *ctx, u32 dev, const char *name);
};

/*
 * The device of a new file: the devices of @allowed in turn, skipping any
 * with less than half the free space of the emptiest one (seed 001 section
 * 3.4.1: any device with room will do; turns spread the masters, and so
 * the load, over the spindles).  When every one is that full, the first of
 * @allowed.  -MORPH_ERR_NODEV if @allowed is empty.
 */
int morph_place_file(const struct morph_replica_io *io, u32 allowed);

/* the devices that have more than @need bytes free */
u32 morph_devices_with_room(const struct morph_replica_io *io, u64 need);

/*
 * Decode the master's state attribute read from device @dev (@len bytes):
 * a state that is not valid for the volume, or that names another device
 * as the master, is -MORPH_ERR_FIELD (or the decoder's error) and leaves
 * @st a fresh single-copy state.  An absent attribute is the caller's: a
 * plain file, morph_state_init(st, 0, dev).
 */
int morph_state_load(const void *buf, size_t len, u32 ndev, u32 dev,
		     struct morph_state *st);

/*
 * Write @f's state back through io->write_state: @extra_stale marks more
 * replicas stale on disk only, as do those of a write session under way,
 * @reads and @writes are the requests counted since the last persist.  The file gets its id at its first persist.
 * On success the counts are in @f->st.
 */
int morph_replica_persist(const struct morph_replica_io *io,
			  struct morph_replica_file *f, u32 extra_stale,
			  u64 reads, u64 writes, int sync);

/*
 * Before the first change of content in a session: the replicas that are
 * current are marked stale on disk, durably, and kept in step from then on;
 * those in @unusable (their device is lost) count as having missed it.
 */
int morph_session_begin(const struct morph_replica_io *io,
			struct morph_replica_file *f, u32 unusable);
/*
 * The last writer is gone: replicas that took every write are fresh again,
 * once their data and the master's are durable (io->sync_data); the state
 * that says so is written without waiting, so it can reach the disk only
 * after the data.  A replica whose data could not be synced stays stale.
 */
void morph_session_end(const struct morph_replica_io *io,
		       struct morph_replica_file *f);

/*
 * Make the replica of @f on @dev, or copy a stale one again: copy the
 * master to <id>.tmp (durable), rename it to <id>, then enter it in the
 * mask as fresh, durably.  @st is @f->st as the caller last saw it under
 * the file's lock (the copy may run without it); @priv is passed on in
 * struct morph_copy.  A failed step removes the temporary copy and leaves
 * the mask as it was.  Returns 0, what commit_begin declined with, or the
 * first error.
 */
int morph_replica_make(const struct morph_replica_io *io,
		       struct morph_replica_file *f,
		       const struct morph_state *st, u32 dev, void *priv);

/*
 * Drop one replica of @f (morph_rmap_pick_drop chooses which): drop_begin,
 * then out of the mask, durably.  Its file is the caller's to remove next,
 * with morph_replica_remove, once nothing else names it.  Returns 0 with
 * *@dev set, 1 if @f has no replica, or the first error (the mask is then
 * as it was).
 */
int morph_replica_drop(const struct morph_replica_io *io,
		       struct morph_replica_file *f, void *priv, u32 *dev);

/*
 * A name that is a file on several devices (@devs, two or more bits): left
 * by a power cut between a rename's steps when the master of the file
 * renamed and that of the file it replaced are on different devices (the
 * new name is made durable on the first, then the old file is unlinked on
 * the second), or by a name made again while its device was lost.  One
 * file keeps the name; the others are set aside in MORPH_LOST_DIR on their
 * own device under morph_lost_name, without their state, and their
 * replicas removed.  Both front ends follow this rule: the FUSE daemon in
 * its repair pass at mount, the module at the name's first lookup.
 *
 * The keeper: the lowest device of @devs not in @behind (a device behind
 * missed changes while lost, so a name it kept may be older than one the
 * others made meanwhile); the lowest of @devs if all are behind.  After a
 * cut mid-rename either file may win: the rename had not returned, so the
 * name may hold the old file or the new one.
 */
u32 morph_name_keeper(u32 devs, u32 behind);

/*
 * The name in MORPH_LOST_DIR of a file set aside: "<name>.<ino>", @ino the
 * file's inode number on its lower file system (unique there).  @name is
 * @name_len bytes, not NUL-terminated.  Returns the length written
 * (without the NUL), 0 if @len is too small.
 */
u32 morph_lost_name(char *buf, u32 len, const char *name, u32 name_len,
		    u64 ino);

/* remove the replica of file @id on @dev */
int morph_replica_remove(const struct morph_replica_io *io, u32 dev, u64 id);
/* remove every replica @st lists (its master is gone); the first error */
int morph_replica_remove_all(const struct morph_replica_io *io,
			     const struct morph_state *st);

#endif /* MORPH_REPLICA_H */
