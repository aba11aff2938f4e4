/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msk.h - the MorphStore kernel front end: file system type "morphstore",
 * one volume stacked over N lower directories, each the root of its own
 * ext2/ext4 file system (layout in include/morphstore_format.h, shared with
 * the FUSE front end and morphctl).
 *
 * The portable core (core/: replica map, UDR, LAAS) is compiled in
 * unchanged; this directory is only VFS glue, split the way fuse/ is:
 * super.c (mount, devices, statfs), inode.c (in-memory inodes, state,
 * write sessions), namei.c (namespace), dir.c (directory union), file.c
 * (open files), xattr.c (attributes), replica.c (the replica protocol's
 * I/O: core/replica.c holds its rules and steps).
 *
 * Locking: sbi->lock (spinlock) guards the LAAS scheduler and the
 * placement turn; mi->mu (mutex) serialises everything that changes a
 * file's copies: writes and truncates (so every copy sees writes in the
 * same order), the write session, and replica creation and removal.
 */
#ifndef MSK_H
#define MSK_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/spinlock.h>
#include "../core/laas.h"
#include "../core/replica.h"
#include "../core/rmap.h"
#include "../include/morphstore_format.h"

#define MSK_NAME "morphstore"
#define msk_err(fmt, ...) pr_err(MSK_NAME ": error: " fmt "\n", ##__VA_ARGS__)

struct msk_dev {
	struct path root;	/* the lower directory */
	struct path rep;	/* its MORPH_REPLICA_DIR */
	char *name;		/* as given at mount */
};

struct msk_sb {
	u32 ndev;
	struct msk_dev dev[MORPH_MAX_DEVICES];
	struct morph_env env;
	struct morph_replica_io rio;	/* the replica protocol's I/O (replica.c) */
	spinlock_t lock;
	struct morph_laas laas;
	struct morph_laas_config cfg;
	u32 next_dev;		/* placement turn of new files */
	u32 new_copies;		/* copies wanted of a new file (copies=N) */
	u64 rnd;		/* xorshift state (seed= makes placement repeatable) */
	const struct cred *creds;	/* for the volume's own housekeeping */
};

/* what an upper dentry stands for on the lower devices */
struct msk_dentry {
	int dev;		/* master device of a non-directory, -1 for a directory */
	struct dentry *lower[MORPH_MAX_DEVICES];	/* dir: every device holding it */
};

struct msk_inode {
	struct inode vfs;
	int dev;		/* master device, -1 for a directory */
	struct inode *key;	/* the lower inode it stands for (iget5 key) */
	struct dentry *lmaster;	/* an alias of the lower master (dir: first device) */
	struct mutex mu;
	struct morph_replica_file rf;	/* its copies, under mu */
	int opens, writers;
	atomic64_t reads, writes;	/* not yet persisted */
	struct morph_laas_file laas;	/* under sbi->lock */
};

struct msk_file {
	u32 copies;		/* devices with a usable copy at open */
	int writable;
	struct file *f[MORPH_MAX_DEVICES];
	/* read-ahead of split reads (file.c); races only cost a fetch */
	u32 ra_own;		/* lower files whose own read-ahead is off */
	loff_t ra_next;		/* where the last read ended */
	loff_t ra_end;		/* fetched ahead up to here */
};

static inline struct msk_sb *MSK_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct msk_inode *MSK_I(struct inode *inode)
{
	return container_of(inode, struct msk_inode, vfs);
}

static inline struct msk_dentry *MSK_D(struct dentry *d)
{
	return d->d_fsdata;
}

static inline struct user_namespace *msk_userns(struct msk_sb *s, u32 d)
{
	return mnt_user_ns(s->dev[d].root.mnt);
}

/* super.c */
extern const struct dentry_operations msk_dops;
u64 msk_dev_free(struct msk_sb *s, u32 d);
/* the directory @name under @base, made with @mode if missing */
int msk_ensure_dir(struct dentry *base, struct vfsmount *mnt,
		   const char *name, umode_t mode, struct path *out);

/* inode.c */
struct inode *msk_iget(struct super_block *sb, struct msk_dentry *md);
void msk_copy_attr(struct inode *inode, struct inode *lower);
int msk_persist(struct msk_sb *s, struct msk_inode *mi, u32 extra_stale,
		int sync);
int msk_read_state(struct msk_sb *s, u32 dev, struct dentry *lower,
		   struct morph_state *st);
struct msk_dentry *msk_dentry_alloc(int dev);
extern const struct inode_operations msk_file_iops, msk_dir_iops,
	msk_symlink_iops, msk_special_iops;

/* namei.c */
int msk_setattr(struct user_namespace *ns, struct dentry *dentry,
		struct iattr *ia);
int msk_getattr(struct user_namespace *ns, const struct path *path,
		struct kstat *stat, u32 mask, unsigned int flags);
int msk_permission(struct user_namespace *ns, struct inode *inode, int mask);

/* dir.c */
extern const struct file_operations msk_dir_fops;
int msk_dir_empty(struct msk_sb *s, struct msk_dentry *md);

/* file.c */
extern const struct file_operations msk_file_fops;

/* xattr.c */
extern const struct xattr_handler *msk_xattr_handlers[];
ssize_t msk_listxattr(struct dentry *dentry, char *list, size_t size);

/* replica.c */
void msk_replica_io_init(struct msk_sb *s);
struct file *msk_replica_open(struct msk_sb *s, u32 d, u64 id, int flags);
/* bring the copies to the count wanted; under mi->mu, no writer open */
void msk_reconcile(struct msk_sb *s, struct msk_inode *mi);
int msk_clean_tmp(struct msk_sb *s, u32 d);

#endif /* MSK_H */
