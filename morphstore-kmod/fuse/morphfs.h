/* SPDX-License-Identifier: Apache-2.0 */
/*
 * morphfs.h - the MorphStore FUSE front end: one volume over N lower
 * directories (layout in include/morphstore_format.h).
 *
 * Locking: vol->lock guards the inode table and the LAAS scheduler and is
 * never held across I/O.  ino->mu serialises everything that changes a
 * file's copies: writes and truncates (so every copy sees writes in the
 * same order), write-session bookkeeping, and the replicator's commit.
 * vol->names_lock serialises the changes of a path that replica names
 * follow (unlink, rename, link) with the replicator's naming of a new
 * replica, so a name is never made for a path that has just moved; it is
 * taken after ino->mu, never before.
 *
 * Degraded mode: vol->lost has a bit for every device missing at mount
 * (-o degraded) or failed since; it only ever gains bits while mounted.
 */
#ifndef MORPHFS_H
#define MORPHFS_H

#include <pthread.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "../core/laas.h"
#include "../core/replica.h"
#include "../core/rmap.h"
#include "../include/morphstore_format.h"

struct morph_dev {
	char *path;		/* lower directory as given */
	int fd;			/* the lower root, -1 if missing at mount */
	int rep_fd;		/* its MORPH_REPLICA_DIR */
	int names_fd;		/* its MORPH_NAMES_DIR */
	int meta_fd;		/* its MORPH_DIR, which holds the marks */
	dev_t st_dev;
	u32 label;		/* label version found at mount, 0 if none */
	u64 ra_bytes;		/* its block device's read-ahead window */
};

/* in-memory inode of an open (or pinned) master file */
struct morph_inode {
	struct morph_inode *next;	/* hash chain */
	dev_t key_dev;
	ino_t key_ino;
	u32 dev;			/* master device */
	int refs;			/* handles + pins, under vol->lock */
	int xfd;			/* master, for attributes */
	pthread_mutex_t mu;
	struct morph_replica_file rf;	/* its copies, under mu */
	int standin;			/* a replica standing in for a master
					 * on a lost device: read-only */
	u32 rstale;			/* replicas whose own state is known
					 * to say stale */
	int writers;
	u64 gen;			/* bumped by every change of content */
	u64 synced_gen;			/* the gen whose data an fsync or a
					 * last close made durable, master and
					 * copies in step (file.c) */
	u64 reads, writes;		/* not yet persisted */
	struct morph_laas_file laas;	/* under vol->lock */
};

struct morph_handle {
	struct morph_inode *ino;
	char *name;			/* volume path at open, for messages */
	int writable;
	u32 copies;			/* devices with a usable copy at open */
	u32 bad;			/* devices that failed a read since */
	int fd[MORPH_MAX_DEVICES];	/* sequential access */
	int rfd[MORPH_MAX_DEVICES];	/* random access, for split reads */
	u64 ra_next;			/* where the last read ended */
	u64 ra_end;			/* fetched ahead up to here */
};

struct morph_job {
	struct morph_job *next;
	char *rel;
	int tries;
	int repair;			/* queued by a repair pass */
};

struct morph_vol {
	u32 ndev;
	struct morph_dev dev[MORPH_MAX_DEVICES];
	struct morph_env env;
	pthread_mutex_t lock;
	struct morph_laas laas;
	struct morph_laas_config laas_cfg;
	struct morph_inode *table[256];
	u32 next_dev;			/* placement turn of new files */
	int direct_io;			/* open files with FOPEN_DIRECT_IO */
	struct morph_replica_io rio;	/* the replica protocol's I/O
					 * (replicator.c) */
	/* degraded mode (device.c, names.c, repair.c) */
	u32 lost;			/* devices lost; atomic */
	u32 behind;			/* devices whose replica states are not
					 * trusted; under mark_lock */
	int names;			/* replica names trusted (all labels 2) */
	int degraded_ok;		/* -o degraded */
	pthread_mutex_t mark_lock;	/* the marks on every device */
	pthread_mutex_t names_lock;
	int repair_jobs;		/* repair copies still queued; qlock */
	int repair_failed;		/* one of them failed; qlock */
	/* replicator */
	u64 replicate_bps;		/* 0: unthrottled */
	u32 new_copies;			/* copies wanted of a new file (-o copies) */
	pthread_mutex_t qlock;
	pthread_cond_t qcond;
	struct morph_job *qhead, *qtail;
	int qlen, busy, stopping;
	pthread_t replicator;
	/* parallel reader */
	pthread_t *readers;
	int nreaders;
	/* the reader and replicator threads run: started in the FUSE init
	 * callback, in the process that serves the mount (super.c) */
	int workers_started;
};

/* log.c: the daemon's messages, on stderr */
#define morph_err(...) morph_log("error", __VA_ARGS__)
#define morph_warn(...) morph_log("warning", __VA_ARGS__)
void morph_log(const char *level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* device.c: the devices of a mounted volume, entries on them, their health */
u32 morph_lost(struct morph_vol *v);
static inline int morph_dev_up(struct morph_vol *v, u32 d)
{
	return !(morph_lost(v) & (1u << d));
}
int morph_io_error(struct morph_vol *v, u32 d, int err, const char *what);
int morph_refuse_degraded(struct morph_vol *v, const char *op,
			  const char *rel);
int morph_mark_behind(struct morph_vol *v, u32 devs);
void morph_set_behind(struct morph_vol *v, u32 devs);
void morph_clear_behind(struct morph_vol *v);
char *morph_dev_list(u32 mask, char *buf, size_t len);
const char *morph_rel(const char *path);	/* "/a/b" -> "a/b", "/" -> "." */
int morph_reserved(const char *rel);	/* inside MORPH_DIR */
int morph_locate(struct morph_vol *v, const char *rel, struct stat *st);
int morph_pick_device(struct morph_vol *v);
int morph_make_parents(struct morph_vol *v, u32 dev, const char *rel);
ssize_t morph_lgetxattr(struct morph_vol *v, u32 dev, const char *rel,
			const char *name, void *value, size_t size);
ssize_t morph_llistxattr(struct morph_vol *v, u32 dev, const char *rel,
			 char *list, size_t size);
int morph_lsetxattr(struct morph_vol *v, u32 dev, const char *rel,
		    const char *name, const void *value, size_t size);
u64 morph_dev_free(struct morph_vol *v, u32 dev);
int morph_read_state(struct morph_vol *v, u32 dev, const char *rel,
		     struct morph_state *st);

/* mount.c: opening and checking the devices, the marks, the repair */
int morph_vol_open(struct morph_vol *v, const char *lower);
void morph_vol_close(struct morph_vol *v);

/* inode.c: the in-memory inodes, state persistence, write sessions */
int morph_inode_get(struct morph_vol *v, u32 dev, int fd, int standin,
		    struct morph_inode **out);
int morph_inode_get_path(struct morph_vol *v, const char *rel,
			 struct morph_inode **out);
void morph_inode_put(struct morph_vol *v, struct morph_inode *ino);
int morph_inode_persist(struct morph_vol *v, struct morph_inode *ino,
			u32 extra_stale, int sync);
int morph_inode_session_begin(struct morph_vol *v, struct morph_inode *ino);
void morph_inode_session_end(struct morph_vol *v, struct morph_inode *ino);

/* names.c: replica names and replica states (degraded mode) */
int morph_find(struct morph_vol *v, const char *rel, struct stat *st,
	       int *standin);
int morph_name_link(struct morph_vol *v, u32 dev, u64 id, const char *rel);
int morph_sync_parent_at(int dirfd, const char *rel);
int morph_name_sync(struct morph_vol *v, u32 dev, const char *rel);
void morph_names_unlink(struct morph_vol *v, u32 devs, const char *rel);
void morph_names_rename(struct morph_vol *v, u32 devs, const char *from,
			const char *to);
int morph_rstate_write(struct morph_vol *v, u32 dev, int fd,
		       const struct morph_state *st, int fresh, int sync);
int morph_rstate_read(struct morph_vol *v, u32 dev, int fd,
		      struct morph_state *st);
void morph_replica_missed(struct morph_vol *v, struct morph_inode *ino,
			  u32 dev, int fd);
void morph_replicas_attr(struct morph_vol *v, const char *rel,
			 int (*fn)(int dirfd, const char *name,
				   const void *arg),
			 const void *arg);

/* repair.c: one pass over the volume with every device present */
int morph_repair(struct morph_vol *v, int queue);

/* reader.c: split reads over copies in parallel */
int morph_readers_start(struct morph_vol *v);
void morph_readers_stop(struct morph_vol *v);
ssize_t morph_read_segments(struct morph_vol *v, struct morph_handle *h,
			    char *buf, u64 off,
			    const struct morph_laas_segment *seg, u32 n,
			    int split, u32 *bad_dev);
void morph_fetch_ahead(struct morph_vol *v, struct morph_handle *h,
		       u32 copies, u64 off, u64 len,
		       const struct morph_laas_segment *seg, u32 n);

/* replicator.c: the replica protocol's I/O (struct morph_replica_io), and
 * background creation, removal and resync of replicas */
void morph_replicator_init(struct morph_vol *v);
int morph_replicator_start(struct morph_vol *v);
void morph_replicator_stop(struct morph_vol *v);
void morph_replicator_queue(struct morph_vol *v, const char *rel);
/* a step a test may stop the daemon at (test build only, replicator.c) */
void morph_test_point(const char *step);
void morph_replicator_queue_repair(struct morph_vol *v, const char *rel);
int morph_replicator_pending(struct morph_vol *v);

/* super.c (operations split by concern, see fops.h) */
extern const struct fuse_operations morph_ops;

#endif /* MORPHFS_H */
