// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - open files.  Reads are routed by the LAAS scheduler over the
 * file's current copies (split across copies at low load, bound to one
 * device at high load); writes go to the master and then to every replica,
 * in the same order, inside a write session (inode.c).  The volume keeps no
 * page cache of its own: every read and write reaches the lower files.
 *
 * Split reads fetch ahead themselves.  Left to the lower files' own
 * read-ahead, each copy would read the pieces the other copies serve too,
 * and the pieces of one read would come one after another.  So while a
 * file is split, its lower files read only what they are asked (as after
 * POSIX_FADV_RANDOM), and each read first starts every piece it takes on
 * every device (POSIX_FADV_WILLNEED: the I/O is submitted, not awaited);
 * a read that continues the last one also starts the pieces of the next
 * reads of that size, up to the copies' read-ahead windows together, each
 * on the device that will serve it (morph_laas_split).  A bound file gets
 * its lower file's read-ahead back.
 */
#include <linux/cred.h>
#include <linux/backing-dev.h>
#include <linux/fadvise.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include "msk.h"

static void put_files(struct msk_sb *s, struct msk_file *mf)
{
	u32 d;

	for (d = 0; d < s->ndev; d++)
		if (mf->f[d])
			fput(mf->f[d]);
	kfree(mf);
}

static int msk_open(struct inode *inode, struct file *file)
{
	struct msk_sb *s = MSK_SB(inode->i_sb);
	struct msk_inode *mi = MSK_I(inode);
	struct msk_dentry *md = MSK_D(file->f_path.dentry);
	struct path p = { .mnt = s->dev[md->dev].root.mnt, .dentry = md->lower[md->dev] };
	int flags = file->f_flags & (O_ACCMODE | O_SYNC | O_DSYNC | O_NOATIME |
				     O_LARGEFILE);
	struct msk_file *mf;
	u32 d;

	mf = kzalloc(sizeof(*mf), GFP_KERNEL);
	if (!mf)
		return -ENOMEM;
	mf->writable = (file->f_mode & FMODE_WRITE) != 0;
	mf->f[md->dev] = dentry_open(&p, flags, current_cred());
	if (IS_ERR(mf->f[md->dev])) {
		int ret = PTR_ERR(mf->f[md->dev]);

		kfree(mf);
		return ret;
	}
	mutex_lock(&mi->mu);
	/* the first opener repairs what an interrupted session left stale */
	if (!mi->opens && !mi->rf.state_bad &&
	    (mi->rf.st.stale || morph_popcount(mi->rf.st.mask) + 1 != mi->rf.st.wanted))
		msk_reconcile(s, mi);
	mi->opens++;
	if (mf->writable)
		mi->writers++;
	mf->copies = mi->rf.state_bad ? 1u << md->dev :
		     (morph_state_readable(&mi->rf.st) & ~mi->rf.failed);
	mf->copies |= 1u << md->dev;
	for (d = 0; d < s->ndev; d++) {
		if (d == md->dev || !(mf->copies & (1u << d)))
			continue;
		mf->f[d] = msk_replica_open(s, d, mi->rf.st.id,
					    mf->writable ? O_RDWR : O_RDONLY);
		if (IS_ERR(mf->f[d])) {
			msk_err("replica of %pd on device %u (%s) cannot be opened (%ld); not serving it",
				file->f_path.dentry, d, s->dev[d].name,
				PTR_ERR(mf->f[d]));
			mf->f[d] = NULL;
			mf->copies &= ~(1u << d);
			mi->rf.failed |= 1u << d;
		}
	}
	mutex_unlock(&mi->mu);
	spin_lock(&s->lock);
	morph_laas_open(&s->laas, &mi->laas);
	spin_unlock(&s->lock);
	file->private_data = mf;
	return 0;
}

static int msk_release(struct inode *inode, struct file *file)
{
	struct msk_sb *s = MSK_SB(inode->i_sb);
	struct msk_inode *mi = MSK_I(inode);
	struct msk_file *mf = file->private_data;

	spin_lock(&s->lock);
	morph_laas_close(&s->laas, &mi->laas);
	spin_unlock(&s->lock);
	put_files(s, mf);
	mutex_lock(&mi->mu);
	if (mf->writable && --mi->writers == 0)
		morph_session_end(&s->rio, &mi->rf);
	if (--mi->opens == 0 && !mi->rf.state_bad) {
		if (atomic64_read(&mi->reads) || atomic64_read(&mi->writes))
			msk_persist(s, mi, 0, 0);
		if (mi->rf.st.stale ||
		    morph_popcount(mi->rf.st.mask) + 1 != mi->rf.st.wanted)
			msk_reconcile(s, mi);
	}
	mutex_unlock(&mi->mu);
	return 0;
}

#define MSK_RA_MAX	(64ll << 20)	/* the most fetched ahead of a stream */

static struct file *read_file(struct msk_file *mf, struct msk_inode *mi,
			      u32 dev)
{
	return mf->f[dev] ? mf->f[dev] : mf->f[mi->dev];
}

/* the lower files of @copies read only what they are asked, or (@own 0) as
 * their devices' read-ahead says again */
static void own_readahead(struct msk_file *mf, u32 copies, int own)
{
	u32 d, want = own ? copies : 0;

	for (d = 0; d < MORPH_MAX_DEVICES; d++) {
		u32 bit = 1u << d;

		if (!mf->f[d] || !((READ_ONCE(mf->ra_own) ^ want) & bit))
			continue;
		if (own && !(copies & bit))
			continue;
		vfs_fadvise(mf->f[d], 0, 0,
			    own ? POSIX_FADV_RANDOM : POSIX_FADV_NORMAL);
		if (own)
			WRITE_ONCE(mf->ra_own, READ_ONCE(mf->ra_own) | bit);
		else
			WRITE_ONCE(mf->ra_own, READ_ONCE(mf->ra_own) & ~bit);
	}
}

static void start_pieces(struct msk_file *mf, struct msk_inode *mi,
			 const struct morph_laas_segment *seg, u32 nseg)
{
	u32 i;

	for (i = 0; i < nseg; i++)
		vfs_fadvise(read_file(mf, mi, seg[i].dev), seg[i].off,
			    seg[i].len, POSIX_FADV_WILLNEED);
}

/* before a split read of [@off, @off + @len): its pieces, and those of the
 * reads of the same size that follow it when it continues a stream */
static void fetch_ahead(struct msk_sb *s, struct msk_file *mf,
			struct msk_inode *mi, u32 copies, loff_t off,
			size_t len, const struct morph_laas_segment *seg,
			u32 nseg)
{
	struct morph_laas_segment next[MORPH_MAX_DEVICES];
	loff_t end = off + len, size = i_size_read(file_inode(mf->f[mi->dev]));
	loff_t window = 0, at, stop;
	u32 d, n;

	own_readahead(mf, copies, 1);
	start_pieces(mf, mi, seg, nseg);
	if (off != READ_ONCE(mf->ra_next)) {
		WRITE_ONCE(mf->ra_end, end);	/* not a stream (yet) */
		return;
	}
	for (d = 0; d < s->ndev; d++)
		if (copies & (1u << d))
			window += (loff_t)inode_to_bdi(file_inode(
				read_file(mf, mi, d)))->ra_pages << PAGE_SHIFT;
	stop = min3(end + min(window, MSK_RA_MAX), size, (loff_t)MAX_LFS_FILESIZE);
	at = max(READ_ONCE(mf->ra_end), end);
	/* reads of this size from here on start at end + k * len */
	if (at > end)
		at = end + DIV_ROUND_UP(at - end, (loff_t)len) * (loff_t)len;
	for (; at < stop; at += len) {
		spin_lock(&s->lock);
		n = morph_laas_split(&s->laas, copies, at, len, next,
				     MORPH_MAX_DEVICES);
		spin_unlock(&s->lock);
		start_pieces(mf, mi, next, n);
	}
	WRITE_ONCE(mf->ra_end, max(at, end));
}

static ssize_t msk_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct msk_sb *s = MSK_SB(file_inode(file)->i_sb);
	struct msk_inode *mi = MSK_I(file_inode(file));
	struct msk_file *mf = file->private_data;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	size_t want = iov_iter_count(to);
	ssize_t done = 0, n;
	u32 copies, nseg, i;
	int split;

	if (!want)
		return 0;
	copies = (mf->copies & ~READ_ONCE(mi->rf.failed)) | (1u << mi->dev);
	spin_lock(&s->lock);
	nseg = morph_laas_route(&s->laas, &mi->laas, copies, iocb->ki_pos,
				want, seg, MORPH_MAX_DEVICES);
	split = morph_popcount(copies) > 1 && mi->laas.bound < 0;
	spin_unlock(&s->lock);
	atomic64_inc(&mi->reads);
	if (split && !(iocb->ki_flags & IOCB_DIRECT))
		fetch_ahead(s, mf, mi, copies, iocb->ki_pos, want, seg, nseg);
	else if (READ_ONCE(mf->ra_own))
		own_readahead(mf, 0, 0);
	for (i = 0; i < nseg; i++) {
		loff_t pos = seg[i].off;
		struct file *f = read_file(mf, mi, seg[i].dev);
		size_t rest = iov_iter_count(to) - seg[i].len;

		iov_iter_truncate(to, seg[i].len);
		n = vfs_iter_read(f, to, &pos, 0);
		iov_iter_reexpand(to, iov_iter_count(to) + rest);
		if (n < 0) {
			if (!done)
				return n;
			break;
		}
		done += n;
		if (n < seg[i].len)
			break;	/* end of file */
	}
	iocb->ki_pos += done;
	WRITE_ONCE(mf->ra_next, iocb->ki_pos);
	return done;
}

static ssize_t msk_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct inode *inode = file_inode(file);
	struct msk_sb *s = MSK_SB(inode->i_sb);
	struct msk_inode *mi = MSK_I(inode);
	struct msk_file *mf = file->private_data;
	struct iov_iter saved, it;
	struct file *mfile = mf->f[mi->dev];
	loff_t pos, at;
	ssize_t n, r;
	u32 d;
	int ret;

	if (!iov_iter_count(from))
		return 0;
	mutex_lock(&mi->mu);
	ret = morph_session_begin(&s->rio, &mi->rf, 0);
	if (ret) {
		mutex_unlock(&mi->mu);
		msk_err("not writing %pd: its replicas could not be marked stale first",
			file->f_path.dentry);
		return ret;
	}
	pos = (iocb->ki_flags & IOCB_APPEND) ?
	      i_size_read(file_inode(mfile)) : iocb->ki_pos;
	saved = *from;	/* each replica gets the same bytes from a copy */
	at = pos;
	n = vfs_iter_write(mfile, from, &at, 0);
	if (n > 0) {
		for (d = 0; d < s->ndev; d++) {
			if (!(mi->rf.session_mask & ~mi->rf.failed & (1u << d)))
				continue;
			it = saved;
			iov_iter_truncate(&it, n);
			at = pos;
			r = mf->f[d] ? vfs_iter_write(mf->f[d], &it, &at, 0) :
				       -EBADF;
			if (r != n) {
				msk_err("write to the replica of %pd on device %u (%s) failed (%zd); the replica is stale until re-copied",
					file->f_path.dentry, d, s->dev[d].name, r);
				mi->rf.failed |= 1u << d;
			}
		}
		iocb->ki_pos = pos + n;
		i_size_write(inode, i_size_read(file_inode(mfile)));
	}
	mutex_unlock(&mi->mu);
	atomic64_inc(&mi->writes);
	return n;
}

static int msk_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct msk_sb *s = MSK_SB(file_inode(file)->i_sb);
	struct msk_inode *mi = MSK_I(file_inode(file));
	struct msk_file *mf = file->private_data;
	u32 d;
	int ret = 0;

	for (d = 0; d < s->ndev; d++) {
		if (!mf->f[d])
			continue;
		if (vfs_fsync_range(mf->f[d], start, end, datasync) &&
		    d == mi->dev)
			ret = -EIO;
	}
	return ret;
}

static loff_t msk_llseek(struct file *file, loff_t off, int whence)
{
	struct msk_inode *mi = MSK_I(file_inode(file));
	struct msk_file *mf = file->private_data;
	struct file *lf = mf->f[mi->dev];
	loff_t ret;

	if (whence == SEEK_SET || whence == SEEK_CUR)
		return generic_file_llseek_size(file, off, whence,
						MAX_LFS_FILESIZE,
						MAX_LFS_FILESIZE);
	/* SEEK_END, SEEK_DATA, SEEK_HOLE: the master knows */
	lf->f_pos = file->f_pos;
	ret = vfs_llseek(lf, off, whence);
	if (ret >= 0) {
		spin_lock(&file->f_lock);
		file->f_pos = ret;
		spin_unlock(&file->f_lock);
	}
	return ret;
}

const struct file_operations msk_file_fops = {
	.open = msk_open,
	.release = msk_release,
	.llseek = msk_llseek,
	.read_iter = msk_read_iter,
	.write_iter = msk_write_iter,
	.fsync = msk_fsync,
	.splice_read = generic_file_splice_read,
	.splice_write = iter_file_splice_write,
};
