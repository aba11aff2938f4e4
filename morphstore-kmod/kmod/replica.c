// SPDX-License-Identifier: GPL-2.0
/*
 * replica.c - the module's side of the replica protocol (core/replica.c
 * holds its rules and steps): the I/O the core does through struct
 * morph_replica_io, and when it runs.  The module copies synchronously, in
 * the caller that changed the copy count (or in the open or close that
 * finds work left), under the inode's mutex, so no write can overtake a
 * copy.  A replica is dropped only while no handle is open.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "msk.h"

#define COPY_BUF (1024 * 1024)

static struct msk_inode *inode_of(struct morph_replica_file *f)
{
	return container_of(f, struct msk_inode, rf);
}

struct file *msk_replica_open(struct msk_sb *s, u32 d, u64 id, int flags)
{
	struct path p = { .mnt = s->dev[d].rep.mnt, .dentry = NULL };
	char name[MORPH_REPLICA_NAME_MAX];
	int n = morph_replica_name(name, sizeof(name), id, 0);
	struct file *f;

	p.dentry = lookup_one_len_unlocked(name, s->dev[d].rep.dentry, n);
	if (IS_ERR(p.dentry))
		return ERR_CAST(p.dentry);
	if (d_is_negative(p.dentry)) {
		dput(p.dentry);
		return ERR_PTR(-ENOENT);
	}
	f = dentry_open(&p, flags, s->creds);
	dput(p.dentry);
	return f;
}

/* unlink @name from the replica directory of @d; a missing one is fine */
static int unlink_name(struct msk_sb *s, u32 d, const char *name, int len)
{
	struct dentry *dir = s->dev[d].rep.dentry, *ld;
	int ret = 0;

	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	ld = lookup_one_len(name, dir, len);
	if (IS_ERR(ld))
		ret = PTR_ERR(ld);
	else if (d_is_positive(ld))
		ret = vfs_unlink(msk_userns(s, d), d_inode(dir), ld, NULL);
	if (!IS_ERR(ld))
		dput(ld);
	inode_unlock(d_inode(dir));
	return ret;
}

/* ---- the replica protocol's I/O (struct morph_replica_io) ---- */

static u64 msk_io_dev_free(void *ctx, u32 dev)
{
	return msk_dev_free(ctx, dev);
}

static u32 msk_io_next_turn(void *ctx)
{
	struct msk_sb *s = ctx;
	u32 turn;

	spin_lock(&s->lock);
	turn = s->next_dev++;
	spin_unlock(&s->lock);
	return turn;
}

static int msk_io_write_state(void *ctx, struct morph_replica_file *f,
			  const u8 *buf, int sync)
{
	struct msk_sb *s = ctx;
	struct msk_inode *mi = inode_of(f);
	const struct cred *old = override_creds(s->creds);
	int ret;

	ret = vfs_setxattr(msk_userns(s, mi->dev), mi->lmaster,
			   MORPH_XATTR_STATE, buf, MORPH_STATE_SIZE, 0);
	if (!ret && sync) {
		struct path p = { .mnt = s->dev[mi->dev].root.mnt, .dentry = mi->lmaster };
		struct file *file = dentry_open(&p, O_RDONLY, current_cred());

		ret = PTR_ERR_OR_ZERO(file);
		if (!ret) {
			ret = vfs_fsync(file, 0);
			fput(file);
		}
	}
	revert_creds(old);
	if (ret)
		msk_err("cannot write %s of inode %lu on device %u (%s): %d",
			MORPH_XATTR_STATE, d_inode(mi->lmaster)->i_ino, mi->dev,
			s->dev[mi->dev].name, ret);
	return ret;
}

/*
 * Under mi->mu, at the end of a write session: the master's data and that
 * of the replicas on @copies reach the disk before the state calls them
 * fresh (core/replica.h).  Returns the replicas that could not be synced,
 * all of them if the master could not be.
 */
static u32 msk_io_sync_data(void *ctx, struct morph_replica_file *f,
			    u32 copies)
{
	struct msk_sb *s = ctx;
	struct msk_inode *mi = inode_of(f);
	struct path p = { .mnt = s->dev[mi->dev].root.mnt, .dentry = mi->lmaster };
	const struct cred *old = override_creds(s->creds);
	struct file *file = dentry_open(&p, O_RDONLY, current_cred());
	u32 failed = 0, d;
	int ret = PTR_ERR_OR_ZERO(file);

	if (!ret) {
		ret = vfs_fsync(file, 1);
		fput(file);
	}
	if (ret) {
		msk_err("the master of inode %lu on device %u (%s) cannot be synced at its last close: %d; its replicas are stale until re-copied",
			d_inode(mi->lmaster)->i_ino, mi->dev,
			s->dev[mi->dev].name, ret);
		failed = copies;
	}
	for (d = 0; d < s->ndev && !failed; d++) {
		if (!(copies & (1u << d)))
			continue;
		file = msk_replica_open(s, d, f->st.id, O_RDONLY);
		ret = PTR_ERR_OR_ZERO(file);
		if (!ret) {
			ret = vfs_fsync(file, 1);
			fput(file);
		}
		if (ret) {
			msk_err("the replica of inode %lu on device %u (%s) cannot be synced at its last close: %d; it is stale until re-copied",
				d_inode(mi->lmaster)->i_ino, d, s->dev[d].name,
				ret);
			failed |= 1u << d;
		}
	}
	revert_creds(old);
	return failed;
}

/* copy the master to @c->tmp on @c->dev, durably; @c->priv notes it */
static int msk_io_copy(void *ctx, struct morph_replica_file *f,
		   struct morph_copy *c)
{
	struct msk_sb *s = ctx;
	struct msk_inode *mi = inode_of(f);
	struct path mp = { .mnt = s->dev[mi->dev].root.mnt, .dentry = mi->lmaster };
	struct path tp = { .mnt = s->dev[c->dev].rep.mnt, .dentry = NULL };
	struct dentry *dir = s->dev[c->dev].rep.dentry;
	struct file *in, *out = NULL;
	loff_t ipos = 0, opos = 0;
	char *buf;
	ssize_t n;
	int ret;

	buf = kvmalloc(COPY_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	in = dentry_open(&mp, O_RDONLY, s->creds);
	if (IS_ERR(in)) {
		kvfree(buf);
		return PTR_ERR(in);
	}
	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	tp.dentry = lookup_one_len(c->tmp, dir, strlen(c->tmp));
	ret = PTR_ERR_OR_ZERO(tp.dentry);
	if (!ret && d_is_positive(tp.dentry))
		ret = -EEXIST;
	if (!ret)
		ret = vfs_create(msk_userns(s, c->dev), d_inode(dir), tp.dentry,
				 S_IFREG | 0600, true);
	inode_unlock(d_inode(dir));
	if (ret)
		goto out;
	out = dentry_open(&tp, O_WRONLY, s->creds);
	ret = PTR_ERR_OR_ZERO(out);
	if (ret) {
		out = NULL;
		goto out;
	}
	while ((n = kernel_read(in, buf, COPY_BUF, &ipos)) > 0) {
		ssize_t w = kernel_write(out, buf, n, &opos);

		if (w != n) {
			ret = w < 0 ? w : -ENOSPC;
			goto out;
		}
		cond_resched();
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto out;
		}
	}
	ret = n < 0 ? n : vfs_fsync(out, 0);
	if (!ret)
		*(int *)c->priv = 1;
out:
	if (out)
		fput(out);
	fput(in);
	kvfree(buf);
	if (!IS_ERR_OR_NULL(tp.dentry))
		dput(tp.dentry);
	return ret;
}

static int msk_io_rename(void *ctx, struct morph_replica_file *f,
		     struct morph_copy *c)
{
	struct msk_sb *s = ctx;
	struct dentry *dir = s->dev[c->dev].rep.dentry, *from, *to;
	struct renamedata rd = {};
	int ret;

	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	from = lookup_one_len(c->tmp, dir, strlen(c->tmp));
	ret = PTR_ERR_OR_ZERO(from);
	if (ret)
		goto unlock;
	to = lookup_one_len(c->name, dir, strlen(c->name));
	ret = PTR_ERR_OR_ZERO(to);
	if (!ret) {
		rd.old_mnt_userns = msk_userns(s, c->dev);
		rd.old_dir = d_inode(dir);
		rd.old_dentry = from;
		rd.new_mnt_userns = msk_userns(s, c->dev);
		rd.new_dir = d_inode(dir);
		rd.new_dentry = to;
		ret = d_is_positive(from) ? vfs_rename(&rd) : -ESTALE;
		dput(to);
	}
	dput(from);
unlock:
	inode_unlock(d_inode(dir));
	/*
	 * The rename must be durable before the master lists the copy: the
	 * master is on another file system, whose journal may commit first,
	 * and a power cut would leave a fresh copy in the state with no file
	 * under its name (found by vm/powercut).
	 */
	if (!ret) {
		struct file *df = dentry_open(&s->dev[c->dev].rep,
					      O_RDONLY | O_DIRECTORY, s->creds);

		ret = PTR_ERR_OR_ZERO(df);
		if (!ret) {
			ret = vfs_fsync(df, 0);
			fput(df);
		}
	}
	return ret;
}

static int msk_io_persist(void *ctx, struct morph_replica_file *f,
		      u32 extra_stale, int sync)
{
	return msk_persist(ctx, inode_of(f), extra_stale, sync);
}

static int msk_io_remove(void *ctx, u32 d, const char *name)
{
	struct msk_sb *s = ctx;
	const struct cred *old = override_creds(s->creds);
	int ret = unlink_name(s, d, name, strlen(name));

	revert_creds(old);
	if (ret)
		msk_err("cannot remove replica %s on device %u (%s): %d", name,
			d, s->dev[d].name, ret);
	return ret;
}

void msk_replica_io_init(struct msk_sb *s)
{
	static const struct morph_replica_io io = {
		.dev_free = msk_io_dev_free,
		.next_turn = msk_io_next_turn,
		.write_state = msk_io_write_state,
		.persist = msk_io_persist,
		.sync_data = msk_io_sync_data,
		.copy = msk_io_copy,
		.rename = msk_io_rename,
		.remove = msk_io_remove,
	};

	s->rio = io;
	s->rio.ctx = s;
	s->rio.env = &s->env;
	s->rio.ndev = s->ndev;
}

/* ---- when: bring the copies to the count wanted ---- */

void msk_reconcile(struct msk_sb *s, struct msk_inode *mi)
{
	struct morph_replica_file *f = &mi->rf;
	u64 size = i_size_read(d_inode(mi->lmaster));
	u32 d, tried = 0;
	const struct cred *cred;
	int pick, copied = 0;

	/* an unlinked master has lost its replicas already (namei.c) */
	if (f->state_bad || !d_inode(mi->lmaster)->i_nlink)
		return;
	cred = override_creds(s->creds);
	if (!f->st.id && msk_persist(s, mi, 0, 1))
		goto out;
	/* stale replicas are copied again; a writer would make them stale */
	for (d = 0; d < s->ndev && !mi->writers; d++)
		if ((f->st.mask & f->st.stale & (1u << d)) &&
		    morph_replica_make(&s->rio, f, &f->st, d, &copied))
			tried |= 1u << d;
	while (!mi->writers && morph_popcount(f->st.mask) + 1 < f->st.wanted) {
		pick = morph_rmap_pick_new(&f->st, s->ndev,
					   morph_devices_with_room(&s->rio, size) & ~tried,
					   &s->env);
		if (pick < 0)
			break;
		copied = 0;
		if (!morph_replica_make(&s->rio, f, &f->st, pick, &copied))
			continue;
		if (copied)	/* the state cannot be written: stop */
			break;
		tried |= 1u << pick;
	}
	while (!mi->opens && morph_popcount(f->st.mask) + 1 > f->st.wanted) {
		if (morph_replica_drop(&s->rio, f, NULL, &d))
			break;
		morph_replica_remove(&s->rio, d, f->st.id);
	}
out:
	revert_creds(cred);
}

/* ---- leftover <id>.tmp files of an interrupted copy, removed at mount ---- */

struct tmp_names {
	struct dir_context ctx;
	char (*names)[40];
	int n, max;
};

static bool note_tmp(struct dir_context *ctx, const char *name, int len,
		     loff_t off, u64 ino, unsigned int type)
{
	struct tmp_names *t = container_of(ctx, struct tmp_names, ctx);
	int sl = strlen(MORPH_TMP_SUFFIX);

	if (len < sl || len >= 40 || memcmp(name + len - sl, MORPH_TMP_SUFFIX, sl))
		return true;
	if (t->n == t->max)
		return false;
	memcpy(t->names[t->n], name, len);
	t->names[t->n++][len] = 0;
	return true;
}

/* called with the volume's credentials */
int msk_clean_tmp(struct msk_sb *s, u32 d)
{
	struct tmp_names t = { .ctx.actor = note_tmp, .max = 256 };
	struct file *f;
	int ret, i, more;

	t.names = kvmalloc(sizeof(*t.names) * t.max, GFP_KERNEL);
	if (!t.names)
		return -ENOMEM;
	do {
		t.n = 0;
		t.ctx.pos = 0;
		f = dentry_open(&s->dev[d].rep, O_RDONLY | O_DIRECTORY,
				current_cred());
		ret = PTR_ERR_OR_ZERO(f);
		if (ret)
			break;
		ret = iterate_dir(f, &t.ctx);
		fput(f);
		more = t.n == t.max;
		for (i = 0; i < t.n && !ret; i++)
			ret = unlink_name(s, d, t.names[i], strlen(t.names[i]));
	} while (!ret && more);
	kvfree(t.names);
	if (ret)
		msk_err("cannot remove leftover partial replicas on device %u (%s): %d",
			d, s->dev[d].name, ret);
	return ret;
}
