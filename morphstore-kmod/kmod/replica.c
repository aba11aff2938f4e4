// SPDX-License-Identifier: GPL-2.0
/*
 * replica.c - making, refreshing and dropping replicas, with the FUSE front
 * end's rules: a replica is copied to <id>.tmp, made durable, renamed to
 * <id>, and only then entered in the replica mask; a replica is dropped
 * only while no handle is open.  The module copies synchronously, in the
 * caller that changed the copy count (or in the open or close that finds
 * work left), under the inode's mutex, so no write can overtake a copy.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include "msk.h"

#define COPY_BUF (1024 * 1024)

static int replica_name(char *buf, size_t len, u64 id, int tmp)
{
	return snprintf(buf, len, "%016llx%s", id, tmp ? MORPH_TMP_SUFFIX : "");
}

struct dentry *msk_replica_lookup(struct msk_sb *s, u32 d, u64 id, int tmp)
{
	char name[32];
	int n = replica_name(name, sizeof(name), id, tmp);

	return lookup_one_len_unlocked(name, s->dev[d].rep.dentry, n);
}

struct file *msk_replica_open(struct msk_sb *s, u32 d, u64 id, int flags)
{
	struct path p = { .mnt = s->dev[d].rep.mnt, .dentry = NULL };
	struct file *f;

	p.dentry = msk_replica_lookup(s, d, id, 0);
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

static int unlink_replica(struct msk_sb *s, u32 d, u64 id, int tmp)
{
	char name[32];
	int n = replica_name(name, sizeof(name), id, tmp);
	const struct cred *old = override_creds(s->creds);
	int ret = unlink_name(s, d, name, n);

	revert_creds(old);
	if (ret)
		msk_err("cannot remove replica %s on device %u (%s): %d", name,
			d, s->dev[d].name, ret);
	return ret;
}

int msk_unlink_replicas(struct msk_sb *s, const struct morph_state *st)
{
	u32 d;
	int ret = 0, r;

	for (d = 0; d < s->ndev; d++)
		if (st->mask & (1u << d)) {
			r = unlink_replica(s, d, st->id, 0);
			if (r && !ret)
				ret = r;
		}
	return ret;
}

/* copy the master of @mi to <id>.tmp on @d, durable, then rename to <id> */
static int copy_to(struct msk_sb *s, struct msk_inode *mi, u32 d)
{
	struct path mp = { .mnt = s->dev[mi->dev].root.mnt, .dentry = mi->lmaster };
	struct path tp = { .mnt = s->dev[d].rep.mnt, .dentry = NULL };
	struct dentry *dir = s->dev[d].rep.dentry, *final;
	struct file *in, *out = NULL;
	struct renamedata rd = {};
	loff_t ipos = 0, opos = 0;
	char *buf, tname[32], fname[32];
	int tlen = replica_name(tname, sizeof(tname), mi->st.id, 1);
	int flen = replica_name(fname, sizeof(fname), mi->st.id, 0);
	ssize_t n;
	int ret;

	unlink_replica(s, d, mi->st.id, 1);
	buf = kvmalloc(COPY_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	in = dentry_open(&mp, O_RDONLY, s->creds);
	if (IS_ERR(in)) {
		kvfree(buf);
		return PTR_ERR(in);
	}
	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	tp.dentry = lookup_one_len(tname, dir, tlen);
	ret = PTR_ERR_OR_ZERO(tp.dentry);
	if (!ret && d_is_positive(tp.dentry))
		ret = -EEXIST;
	if (!ret)
		ret = vfs_create(msk_userns(s, d), d_inode(dir), tp.dentry,
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
	if (ret)
		goto out;
	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	final = lookup_one_len(fname, dir, flen);
	ret = PTR_ERR_OR_ZERO(final);
	if (!ret) {
		rd.old_mnt_userns = msk_userns(s, d);
		rd.old_dir = d_inode(dir);
		rd.old_dentry = tp.dentry;
		rd.new_mnt_userns = msk_userns(s, d);
		rd.new_dir = d_inode(dir);
		rd.new_dentry = final;
		ret = tp.dentry->d_parent == dir ? vfs_rename(&rd) : -ESTALE;
		dput(final);
	}
	inode_unlock(d_inode(dir));
out:
	if (out)
		fput(out);
	fput(in);
	kvfree(buf);
	if (!IS_ERR_OR_NULL(tp.dentry))
		dput(tp.dentry);
	if (ret)
		unlink_replica(s, d, mi->st.id, 1);
	return ret;
}

static int commit(struct msk_sb *s, struct msk_inode *mi,
		  const struct morph_state *old)
{
	int ret = msk_persist(s, mi, 0, 1);

	if (ret)
		mi->st = *old;
	return ret;
}

void msk_reconcile(struct msk_sb *s, struct msk_inode *mi)
{
	struct morph_state old;
	u64 size = i_size_read(d_inode(mi->lmaster));
	u32 d, eligible, tried = 0;
	const struct cred *cred;
	int pick;

	/* an unlinked master has lost its replicas already (namei.c) */
	if (mi->state_bad || !d_inode(mi->lmaster)->i_nlink)
		return;
	cred = override_creds(s->creds);
	if (!mi->st.id) {
		old = mi->st;
		if (commit(s, mi, &old))
			goto out;
	}
	/* stale replicas are copied again; a writer would make them stale */
	for (d = 0; d < s->ndev && !mi->writers; d++) {
		if (!(mi->st.mask & mi->st.stale & (1u << d)))
			continue;
		old = mi->st;
		if (copy_to(s, mi, d)) {
			tried |= 1u << d;
			continue;
		}
		mi->st.stale &= ~(1u << d);
		commit(s, mi, &old);
	}
	while (!mi->writers && morph_popcount(mi->st.mask) + 1 < mi->st.wanted) {
		eligible = 0;
		for (d = 0; d < s->ndev; d++)
			if (!(tried & (1u << d)) && msk_dev_free(s, d) > size)
				eligible |= 1u << d;
		pick = morph_rmap_pick_new(&mi->st, s->ndev, eligible, &s->env);
		if (pick < 0)
			break;
		if (copy_to(s, mi, pick)) {
			tried |= 1u << pick;
			continue;
		}
		old = mi->st;
		mi->st.mask |= 1u << pick;
		mi->st.stale &= ~(1u << pick);
		if (commit(s, mi, &old))
			break;
	}
	while (!mi->opens && morph_popcount(mi->st.mask) + 1 > mi->st.wanted) {
		pick = morph_rmap_pick_drop(&mi->st);
		if (pick < 0)
			break;
		old = mi->st;
		mi->st.mask &= ~(1u << pick);
		mi->st.stale &= ~(1u << pick);
		if (commit(s, mi, &old))
			break;
		unlink_replica(s, pick, mi->st.id, 0);
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
