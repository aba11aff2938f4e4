// SPDX-License-Identifier: GPL-2.0
/*
 * inode.c - in-memory inodes, one per lower master inode (so hard links
 * share one inode and one replication state), and the state attribute
 * (write sessions and the rest of the replica protocol: core/replica.c).
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "msk.h"

struct msk_dentry *msk_dentry_alloc(int dev)
{
	struct msk_dentry *md = kzalloc(sizeof(*md), GFP_KERNEL);

	if (md)
		md->dev = dev;
	return md;
}

void msk_copy_attr(struct inode *inode, struct inode *lower)
{
	inode->i_mode = lower->i_mode;
	inode->i_uid = lower->i_uid;
	inode->i_gid = lower->i_gid;
	inode->i_rdev = lower->i_rdev;
	inode->i_atime = lower->i_atime;
	inode->i_mtime = lower->i_mtime;
	inode->i_ctime = lower->i_ctime;
	inode->i_blocks = lower->i_blocks;
	set_nlink(inode, lower->i_nlink);
	i_size_write(inode, i_size_read(lower));
}

/* decode the master's state attribute; 0 (absent: a plain file) or -EIO */
int msk_read_state(struct msk_sb *s, u32 dev, struct dentry *lower,
		   struct morph_state *st)
{
	u8 buf[MORPH_STATE_SIZE + 16];
	const struct cred *old = override_creds(s->creds);
	ssize_t n = vfs_getxattr(msk_userns(s, dev), lower, MORPH_XATTR_STATE,
				 buf, sizeof(buf));

	revert_creds(old);
	morph_state_init(st, 0, dev);
	if (n == -ENODATA)
		return 0;
	if (n < 0)
		return (int)n;
	return morph_state_load(buf, n, s->ndev, dev, st) ? -EIO : 0;
}

static void load_state(struct msk_sb *s, struct msk_inode *mi)
{
	int ret = msk_read_state(s, mi->dev, mi->lmaster, &mi->rf.st);

	if (ret) {
		msk_err("file inode %lu on device %u (%s): %s unreadable or invalid (%d); serving its master copy only, not changing it",
			d_inode(mi->lmaster)->i_ino, mi->dev,
			s->dev[mi->dev].name, MORPH_XATTR_STATE, ret);
		mi->rf.state_bad = 1;
	}
}

struct msk_key {
	struct dentry *lower;
	int dev;
};

static int key_test(struct inode *inode, void *data)
{
	struct msk_key *k = data;

	return MSK_I(inode)->key == d_inode(k->lower);
}

static int key_set(struct inode *inode, void *data)
{
	struct msk_key *k = data;
	struct msk_inode *mi = MSK_I(inode);

	mi->key = d_inode(k->lower);
	mi->dev = k->dev;
	mi->lmaster = dget(k->lower);
	return 0;
}

/* the inode for the lower entry @md stands for (a new reference) */
struct inode *msk_iget(struct super_block *sb, struct msk_dentry *md)
{
	struct msk_sb *s = MSK_SB(sb);
	struct msk_key k = { .dev = md->dev };
	struct inode *inode, *lower;
	struct msk_inode *mi;
	u32 d = 0;

	if (md->dev < 0)
		while (d < s->ndev && !md->lower[d])
			d++;
	else
		d = md->dev;
	if (d >= s->ndev || !md->lower[d])
		return ERR_PTR(-ENOENT);
	k.lower = md->lower[d];
	lower = d_inode(k.lower);
	inode = iget5_locked(sb, (unsigned long)lower, key_test, key_set, &k);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	mi = MSK_I(inode);
	inode->i_ino = morph_volume_ino(lower->i_ino, d);
	msk_copy_attr(inode, lower);
	inode->i_flags |= S_NOATIME | S_NOCMTIME;
	switch (lower->i_mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &msk_file_iops;
		inode->i_fop = &msk_file_fops;
		morph_state_init(&mi->rf.st, 0, d);
		load_state(s, mi);
		break;
	case S_IFDIR:
		inode->i_op = &msk_dir_iops;
		inode->i_fop = &msk_dir_fops;
		break;
	case S_IFLNK:
		inode->i_op = &msk_symlink_iops;
		break;
	default:
		inode->i_op = &msk_special_iops;
		init_special_inode(inode, lower->i_mode, lower->i_rdev);
		break;
	}
	unlock_new_inode(inode);
	return inode;
}

/* write the state back (morph_replica_persist) with the requests counted
 * since: @extra_stale marks more replicas stale on disk only; @sync makes
 * it durable before returning.  Under mi->mu. */
int msk_persist(struct msk_sb *s, struct msk_inode *mi, u32 extra_stale,
		int sync)
{
	u64 r, w;
	int ret;

	if (mi->rf.state_bad)
		return -EIO;
	r = atomic64_xchg(&mi->reads, 0);
	w = atomic64_xchg(&mi->writes, 0);
	ret = morph_replica_persist(&s->rio, &mi->rf, extra_stale, r, w, sync);
	if (ret) {
		atomic64_add(r, &mi->reads);
		atomic64_add(w, &mi->writes);
	}
	return ret;
}

static const char *msk_get_link(struct dentry *dentry, struct inode *inode,
				struct delayed_call *done)
{
	struct msk_dentry *md;

	if (!dentry)
		return ERR_PTR(-ECHILD);
	md = MSK_D(dentry);
	return vfs_get_link(md->lower[md->dev], done);
}

const struct inode_operations msk_symlink_iops = {
	.get_link = msk_get_link,
	.getattr = msk_getattr,
	.setattr = msk_setattr,
	.listxattr = msk_listxattr,
};

const struct inode_operations msk_special_iops = {
	.getattr = msk_getattr,
	.setattr = msk_setattr,
	.permission = msk_permission,
	.listxattr = msk_listxattr,
};

const struct inode_operations msk_file_iops = {
	.getattr = msk_getattr,
	.setattr = msk_setattr,
	.permission = msk_permission,
	.listxattr = msk_listxattr,
};
