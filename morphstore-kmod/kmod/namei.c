// SPDX-License-Identifier: GPL-2.0
/*
 * namei.c - the namespace: lookup, create, mknod, symlink, link, mkdir,
 * unlink, rmdir, rename, and attributes.  Directories live on every device
 * and every change to one is applied to all of them; anything else lives
 * on its master device only, chosen at creation (morph_place_file).
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "msk.h"

static int reserved(struct dentry *dentry)
{
	return IS_ROOT(dentry->d_parent) &&
	       dentry->d_name.len == strlen(MORPH_DIR) &&
	       !memcmp(dentry->d_name.name, MORPH_DIR, strlen(MORPH_DIR));
}

static void set_md(struct dentry *dentry, struct msk_dentry *md)
{
	struct msk_dentry *old = dentry->d_fsdata;
	u32 d;

	dentry->d_fsdata = md;
	if (!old)
		return;
	for (d = 0; d < MORPH_MAX_DEVICES; d++)
		dput(old->lower[d]);
	kfree(old);
}

static void free_md(struct msk_dentry *md)
{
	u32 d;

	for (d = 0; d < MORPH_MAX_DEVICES; d++)
		dput(md->lower[d]);
	kfree(md);
}

/* devices where the directory @dir exists */
static u32 dir_devices(struct msk_sb *s, struct dentry *dir)
{
	struct msk_dentry *pmd = MSK_D(dir);
	u32 d, m = 0;

	for (d = 0; d < s->ndev; d++)
		if (pmd->lower[d])
			m |= 1u << d;
	return m;
}

static void refresh_dir(struct msk_sb *s, struct inode *dir)
{
	struct msk_inode *mi = MSK_I(dir);

	msk_copy_attr(dir, d_inode(mi->lmaster));
}

/*
 * A name was made or removed in @dir on device @d.  The volume shows a
 * directory's times from its first device (lmaster), and a file lives on its
 * master device only, so the directory's mtime and ctime are set there too,
 * as the change would have set them on a single file system.
 */
static void dir_changed(struct msk_sb *s, struct inode *dir, u32 d)
{
	struct dentry *ld = MSK_I(dir)->lmaster;
	struct iattr ia = { .ia_valid = ATTR_MTIME | ATTR_CTIME };
	const struct cred *old;
	u32 k;

	for (k = 0; k < s->ndev; k++)
		if (s->dev[k].root.mnt->mnt_sb == ld->d_sb)
			break;
	if (k < s->ndev && k != d) {
		old = override_creds(s->creds);
		inode_lock(d_inode(ld));
		notify_change(msk_userns(s, k), ld, &ia, NULL);
		inode_unlock(d_inode(ld));
		revert_creds(old);
	}
	refresh_dir(s, dir);
}

static int lower_rename(struct msk_sb *s, u32 d, struct dentry *olp,
			struct dentry *ld, struct dentry *nlp,
			const struct qstr *name);
static int sync_lower_dir(struct msk_sb *s, u32 d, struct dentry *lp);

/*
 * A power cut between the steps of a rename whose file and target have
 * their masters on different devices leaves the name on both (msk_rename
 * makes the new name durable before it unlinks the target).  The first
 * lookup of the name settles it by the core's rule (morph_name_keeper, as
 * the FUSE daemon's repair pass at mount): the file @ld on device @d, not
 * the keeper @keep, moves to MORPH_LOST_DIR on its device under
 * morph_lost_name; once the move is durable, a file with one link loses its
 * state and the replicas it listed.  The caller holds the upper parent's
 * lock, so nothing else changes the name meanwhile.
 */
static void set_aside(struct msk_sb *s, u32 d, u32 keep, struct dentry *lp,
		      struct dentry *ld, const struct qstr *name)
{
	char lost[NAME_MAX + 1];
	struct morph_state st;
	struct path lostp;
	struct dentry *md;
	const struct cred *old;
	int solo = d_is_reg(ld) && d_inode(ld)->i_nlink == 1;
	int have_state = 0, ret = -ENAMETOOLONG;

	if (!morph_lost_name(lost, sizeof(lost), name->name, name->len,
			     d_inode(ld)->i_ino))
		goto out;
	if (solo)
		have_state = !msk_read_state(s, d, ld, &st) && st.mask;
	old = override_creds(s->creds);
	md = dget_parent(s->dev[d].rep.dentry);	/* MORPH_DIR */
	ret = msk_ensure_dir(md, s->dev[d].rep.mnt, "lost+found", 0700, &lostp);
	dput(md);
	if (!ret) {
		struct qstr q = QSTR_INIT(lost, strlen(lost));

		ret = lower_rename(s, d, lp, ld, lostp.dentry, &q);
		if (!ret)
			ret = sync_lower_dir(s, d, lostp.dentry);
		if (!ret)
			ret = sync_lower_dir(s, d, lp);
		path_put(&lostp);
	}
	if (!ret && solo) {
		vfs_removexattr(msk_userns(s, d), ld, MORPH_XATTR_STATE);
		if (have_state)
			morph_replica_remove_all(&s->rio, &st);
	}
	revert_creds(old);
out:
	if (ret)
		msk_err("%.*s is on devices %u and %u and cannot be set aside (%d): lookups use the one on device %u",
			name->len, name->name, keep, d, ret, keep);
	else
		msk_err("%.*s was on device %u and on device %u; kept the one on device %u, moved the other to %s/%s/%s",
			name->len, name->name, keep, d, keep, s->dev[d].name,
			MORPH_LOST_DIR, lost);
}

static struct dentry *msk_lookup(struct inode *dir, struct dentry *dentry,
				 unsigned int flags)
{
	struct msk_sb *s = MSK_SB(dir->i_sb);
	struct msk_dentry *pmd = MSK_D(dentry->d_parent), *md;
	struct dentry *ld[MORPH_MAX_DEVICES] = {};
	struct inode *inode = NULL;
	u32 d, dirs = 0, files = 0, keep;

	if (reserved(dentry))
		return d_splice_alias(NULL, dentry);
	for (d = 0; d < s->ndev; d++) {
		if (!pmd->lower[d])
			continue;
		ld[d] = lookup_one_len_unlocked(dentry->d_name.name,
						pmd->lower[d], dentry->d_name.len);
		if (IS_ERR(ld[d])) {
			struct dentry *err = ld[d];

			ld[d] = NULL;
			for (d = 0; d < s->ndev; d++)
				dput(ld[d]);
			return ERR_CAST(err);
		}
		if (d_is_negative(ld[d])) {
			dput(ld[d]);
			ld[d] = NULL;
		} else if (d_is_dir(ld[d])) {
			dirs |= 1u << d;
		} else {
			files |= 1u << d;
		}
	}
	if (!(dirs | files))
		return d_splice_alias(NULL, dentry);
	md = msk_dentry_alloc(-1);
	if (!md) {
		for (d = 0; d < s->ndev; d++)
			dput(ld[d]);
		return ERR_PTR(-ENOMEM);
	}
	/* the first device's kind decides: a directory is on every device,
	 * anything else on one (more only after a cut: set_aside) */
	if (files & 1u << morph_nth_bit(dirs | files, 0)) {
		keep = morph_name_keeper(files, 0);
		md->dev = keep;
		md->lower[keep] = ld[keep];
		ld[keep] = NULL;
		for (d = 0; d < s->ndev; d++)
			if (ld[d] && !d_is_dir(ld[d]))
				set_aside(s, d, keep, pmd->lower[d], ld[d],
					  &dentry->d_name);
	} else {
		for (d = 0; d < s->ndev; d++)
			if (dirs & (1u << d)) {
				md->lower[d] = ld[d];
				ld[d] = NULL;
			}
	}
	for (d = 0; d < s->ndev; d++)
		dput(ld[d]);
	inode = msk_iget(dir->i_sb, md);
	if (IS_ERR(inode)) {
		free_md(md);
		return ERR_CAST(inode);
	}
	set_md(dentry, md);
	return d_splice_alias(inode, dentry);
}

/* look up @dentry's name in lower directory @lparent, locked by the caller */
static struct dentry *lower_child(struct dentry *lparent, struct dentry *dentry)
{
	struct dentry *ld = lookup_one_len(dentry->d_name.name, lparent,
					   dentry->d_name.len);

	if (!IS_ERR(ld) && d_is_positive(ld)) {
		dput(ld);
		return ERR_PTR(-EEXIST);
	}
	return ld;
}

enum new_kind { NEW_FILE, NEW_NODE, NEW_SYMLINK };

/* a new non-directory on one device */
static int new_entry(struct inode *dir, struct dentry *dentry, umode_t mode,
		     dev_t rdev, const char *target, enum new_kind kind)
{
	struct msk_sb *s = MSK_SB(dir->i_sb);
	struct msk_dentry *md;
	struct dentry *lp, *ld;
	struct inode *inode;
	int d, ret;

	if (reserved(dentry))
		return -EPERM;
	d = morph_place_file(&s->rio, dir_devices(s, dentry->d_parent));
	if (d < 0)
		return -ENOENT;	/* no device holds the parent */
	lp = MSK_D(dentry->d_parent)->lower[d];
	inode_lock_nested(d_inode(lp), I_MUTEX_PARENT);
	ld = lower_child(lp, dentry);
	ret = PTR_ERR_OR_ZERO(ld);
	if (!ret) {
		struct user_namespace *ns = msk_userns(s, d);

		if (kind == NEW_FILE)
			ret = vfs_create(ns, d_inode(lp), ld, mode, true);
		else if (kind == NEW_NODE)
			ret = vfs_mknod(ns, d_inode(lp), ld, mode, rdev);
		else
			ret = vfs_symlink(ns, d_inode(lp), ld, target);
		if (!ret && d_is_negative(ld))
			ret = -ENOENT;
	}
	inode_unlock(d_inode(lp));
	if (ret) {
		if (!IS_ERR(ld))
			dput(ld);
		return ret;
	}
	md = msk_dentry_alloc(d);
	if (!md) {
		dput(ld);
		return -ENOMEM;
	}
	md->lower[d] = ld;
	inode = msk_iget(dir->i_sb, md);
	if (IS_ERR(inode)) {
		free_md(md);
		return PTR_ERR(inode);
	}
	if (kind == NEW_FILE && s->new_copies > 1) {
		/* copies=N: the new file wants N copies, made after its last close */
		struct msk_inode *mi = MSK_I(inode);

		mutex_lock(&mi->mu);
		mi->rf.st.wanted = s->new_copies;
		ret = msk_persist(s, mi, 0, 1);
		if (ret)
			mi->rf.st.wanted = 1;
		mutex_unlock(&mi->mu);
		if (ret)
			msk_err("new file %pd: cannot record the %u copies it wants (%d); it has one",
				dentry, s->new_copies, ret);
	}
	set_md(dentry, md);
	d_instantiate(dentry, inode);
	dir_changed(s, dir, d);
	return 0;
}

static int msk_create(struct user_namespace *ns, struct inode *dir,
		      struct dentry *dentry, umode_t mode, bool excl)
{
	return new_entry(dir, dentry, mode, 0, NULL, NEW_FILE);
}

static int msk_mknod(struct user_namespace *ns, struct inode *dir,
		     struct dentry *dentry, umode_t mode, dev_t rdev)
{
	return new_entry(dir, dentry, mode, rdev, NULL, NEW_NODE);
}

static int msk_symlink(struct user_namespace *ns, struct inode *dir,
		       struct dentry *dentry, const char *target)
{
	return new_entry(dir, dentry, 0, 0, target, NEW_SYMLINK);
}

static int msk_mkdir(struct user_namespace *ns, struct inode *dir,
		     struct dentry *dentry, umode_t mode)
{
	struct msk_sb *s = MSK_SB(dir->i_sb);
	struct msk_dentry *pmd = MSK_D(dentry->d_parent), *md;
	struct inode *inode;
	u32 d, k;
	int ret = 0;

	if (reserved(dentry))
		return -EPERM;
	md = msk_dentry_alloc(-1);
	if (!md)
		return -ENOMEM;
	for (d = 0; d < s->ndev && !ret; d++) {
		struct dentry *lp = pmd->lower[d], *ld;

		if (!lp)
			continue;
		inode_lock_nested(d_inode(lp), I_MUTEX_PARENT);
		ld = lower_child(lp, dentry);
		ret = PTR_ERR_OR_ZERO(ld);
		if (!ret) {
			ret = vfs_mkdir(msk_userns(s, d), d_inode(lp), ld, mode);
			if (!ret && d_is_negative(ld))
				ret = -ENOENT;
			if (ret)
				dput(ld);
			else
				md->lower[d] = ld;
		}
		inode_unlock(d_inode(lp));
	}
	if (ret) {	/* all or nothing */
		for (k = 0; k < s->ndev; k++) {
			struct dentry *lp = pmd->lower[k];

			if (!md->lower[k])
				continue;
			inode_lock_nested(d_inode(lp), I_MUTEX_PARENT);
			vfs_rmdir(msk_userns(s, k), d_inode(lp), md->lower[k]);
			inode_unlock(d_inode(lp));
		}
		free_md(md);
		return ret;
	}
	inode = msk_iget(dir->i_sb, md);
	if (IS_ERR(inode)) {
		free_md(md);
		return PTR_ERR(inode);
	}
	set_md(dentry, md);
	d_instantiate(dentry, inode);
	refresh_dir(s, dir);
	return 0;
}

static int msk_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct msk_sb *s = MSK_SB(dir->i_sb);
	struct msk_dentry *omd = MSK_D(old), *md;
	struct dentry *lp, *ld;
	struct inode *inode = d_inode(old);
	int d = omd->dev, ret;

	if (reserved(dentry))
		return -EPERM;
	lp = MSK_D(dentry->d_parent)->lower[d];
	if (!lp)
		return -EXDEV;
	inode_lock_nested(d_inode(lp), I_MUTEX_PARENT);
	ld = lower_child(lp, dentry);
	ret = PTR_ERR_OR_ZERO(ld);
	if (!ret) {
		ret = vfs_link(omd->lower[d], msk_userns(s, d), d_inode(lp), ld,
			       NULL);
		if (ret)
			dput(ld);
	}
	inode_unlock(d_inode(lp));
	if (ret)
		return ret;
	md = msk_dentry_alloc(d);
	if (!md) {
		dput(ld);
		return -ENOMEM;
	}
	md->lower[d] = ld;
	set_md(dentry, md);
	ihold(inode);
	msk_copy_attr(inode, d_inode(omd->lower[d]));
	d_instantiate(dentry, inode);
	dir_changed(s, dir, d);
	return 0;
}

/*
 * fsync lower directory @lp on @d.  A master's removal is made durable
 * before its replicas go: they are on other file systems, whose journals
 * may commit first, and a power cut would bring the master back listing
 * fresh copies that are gone (found by vm/powercut).
 */
static int sync_lower_dir(struct msk_sb *s, u32 d, struct dentry *lp)
{
	struct path p = { .mnt = s->dev[d].root.mnt, .dentry = lp };
	struct file *f = dentry_open(&p, O_RDONLY | O_DIRECTORY, s->creds);
	int ret = PTR_ERR_OR_ZERO(f);

	if (!ret) {
		ret = vfs_fsync(f, 0);
		fput(f);
	}
	if (ret)
		msk_err("cannot make a removal in %pd durable on device %u (%s): %d; its replicas stay",
			lp, d, s->dev[d].name, ret);
	return ret;
}

/* unlink the non-directory @ld (child of @lp) on @d, and its replicas if
 * it was the last link */
static int remove_file(struct msk_sb *s, u32 d, struct dentry *lp,
		       struct dentry *ld)
{
	struct morph_state st;
	int have_state = 0, ret;

	if (d_is_reg(ld) && d_inode(ld)->i_nlink == 1)
		have_state = !msk_read_state(s, d, ld, &st) && st.mask;
	/* an extra reference keeps @ld positive (unhashed, not negative)
	 * after the unlink: open files and other names still use it */
	dget(ld);
	inode_lock_nested(d_inode(lp), I_MUTEX_PARENT);
	ret = ld->d_parent == lp ?
	      vfs_unlink(msk_userns(s, d), d_inode(lp), ld, NULL) : -ESTALE;
	inode_unlock(d_inode(lp));
	dput(ld);
	if (!ret && have_state && !sync_lower_dir(s, d, lp))
		morph_replica_remove_all(&s->rio, &st);
	return ret;
}

static int msk_unlink(struct inode *dir, struct dentry *dentry)
{
	struct msk_sb *s = MSK_SB(dir->i_sb);
	struct msk_dentry *md = MSK_D(dentry);
	int d = md->dev, ret;

	ret = remove_file(s, d, MSK_D(dentry->d_parent)->lower[d],
			  md->lower[d]);
	if (ret)
		return ret;
	msk_copy_attr(d_inode(dentry), d_inode(md->lower[d]));
	dir_changed(s, dir, d);
	return 0;
}

static int msk_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct msk_sb *s = MSK_SB(dir->i_sb);
	struct msk_dentry *md = MSK_D(dentry), *pmd = MSK_D(dentry->d_parent);
	u32 d;
	int ret = msk_dir_empty(s, md), r;

	if (ret)
		return ret;
	for (d = 0; d < s->ndev; d++) {
		struct dentry *lp = pmd->lower[d];

		if (!md->lower[d] || !lp)
			continue;
		dget(md->lower[d]);	/* stays positive for open handles */
		inode_lock_nested(d_inode(lp), I_MUTEX_PARENT);
		r = md->lower[d]->d_parent == lp ?
		    vfs_rmdir(msk_userns(s, d), d_inode(lp), md->lower[d]) :
		    -ESTALE;
		inode_unlock(d_inode(lp));
		dput(md->lower[d]);
		if (r && r != -ENOENT && !ret)
			ret = r;
	}
	if (!ret)
		clear_nlink(d_inode(dentry));
	refresh_dir(s, dir);
	return ret;
}

/* rename lower @ld (child of @olp) to @name in @nlp, on device @d */
static int lower_rename(struct msk_sb *s, u32 d, struct dentry *olp,
			struct dentry *ld, struct dentry *nlp,
			const struct qstr *name)
{
	struct renamedata rd = {};
	struct dentry *trap, *nd;
	int ret;

	trap = lock_rename(nlp, olp);
	ret = -ESTALE;
	if (ld->d_parent != olp)
		goto out;
	ret = -EINVAL;
	if (trap == ld)
		goto out;
	nd = lookup_one_len(name->name, nlp, name->len);
	ret = PTR_ERR_OR_ZERO(nd);
	if (ret)
		goto out;
	ret = -ENOTEMPTY;
	if (trap != nd) {
		rd.old_mnt_userns = msk_userns(s, d);
		rd.old_dir = d_inode(olp);
		rd.old_dentry = ld;
		rd.new_mnt_userns = msk_userns(s, d);
		rd.new_dir = d_inode(nlp);
		rd.new_dentry = nd;
		ret = vfs_rename(&rd);
	}
	dput(nd);
out:
	unlock_rename(nlp, olp);
	return ret;
}

static int msk_rename(struct user_namespace *ns, struct inode *odir,
		      struct dentry *old, struct inode *ndir, struct dentry *new,
		      unsigned int flags)
{
	struct msk_sb *s = MSK_SB(odir->i_sb);
	struct msk_dentry *omd = MSK_D(old), *opmd = MSK_D(old->d_parent);
	struct msk_dentry *npmd = MSK_D(new->d_parent);
	struct msk_dentry *tmd = d_is_positive(new) ? MSK_D(new) : NULL;
	struct morph_state st;
	int d, ret = 0, drop_old = 0;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if (reserved(new))
		return -EPERM;
	if (omd->dev < 0) {	/* a directory: on every device */
		if (tmd) {
			ret = msk_dir_empty(s, tmd);
			if (ret)
				return ret;
		}
		for (d = 0; d < s->ndev; d++) {
			if (!omd->lower[d])
				continue;
			if (!npmd->lower[d]) {
				ret = -EIO;
			} else {
				ret = lower_rename(s, d, opmd->lower[d],
						   omd->lower[d],
						   npmd->lower[d], &new->d_name);
			}
			if (ret) {
				msk_err("renaming directory %pd to %pd failed on device %d (%s): %d",
					old, new, d, s->dev[d].name, ret);
				return ret;
			}
		}
		if (tmd)
			clear_nlink(d_inode(new));
		goto done;
	}
	d = omd->dev;
	if (!npmd->lower[d])
		return -EXDEV;
	if (tmd && tmd->dev == d && d_is_reg(tmd->lower[d]) &&
	    d_inode(tmd->lower[d])->i_nlink == 1 &&
	    d_inode(tmd->lower[d]) != d_inode(omd->lower[d]))
		drop_old = !msk_read_state(s, d, tmd->lower[d], &st) && st.mask;
	ret = lower_rename(s, d, opmd->lower[d], omd->lower[d], npmd->lower[d],
			   &new->d_name);
	if (ret)
		return ret;
	if (drop_old && !sync_lower_dir(s, d, npmd->lower[d]))
		morph_replica_remove_all(&s->rio, &st);
	if (tmd && tmd->dev != d && tmd->dev >= 0) {
		/* the new name is durable before the old one goes from the
		 * other device: a power cut in between must leave old or new
		 * at the name, never neither (found by vm/powercut) */
		ret = sync_lower_dir(s, d, npmd->lower[d]);
		if (ret)
			return ret;
		ret = remove_file(s, tmd->dev, npmd->lower[tmd->dev],
				  tmd->lower[tmd->dev]);
		if (ret)
			return ret;
	}
	if (tmd)
		set_nlink(d_inode(new), d_inode(tmd->lower[tmd->dev])->i_nlink);
	dir_changed(s, odir, d);
	dir_changed(s, ndir, d);
	return 0;
done:
	refresh_dir(s, odir);
	refresh_dir(s, ndir);
	return 0;
}

/* ---- attributes ---- */

static struct dentry *first_lower(struct msk_sb *s, struct msk_dentry *md,
				  u32 *dev)
{
	u32 d = md->dev >= 0 ? md->dev : 0;

	while (d < s->ndev && !md->lower[d])
		d++;
	*dev = d;
	return d < s->ndev ? md->lower[d] : NULL;
}

int msk_getattr(struct user_namespace *ns, const struct path *path,
		struct kstat *stat, u32 mask, unsigned int flags)
{
	struct msk_sb *s = MSK_SB(path->dentry->d_sb);
	struct inode *inode = d_inode(path->dentry);
	struct path lp;
	u32 d;
	int ret;

	lp.dentry = first_lower(s, MSK_D(path->dentry), &d);
	if (!lp.dentry)
		return -ESTALE;
	lp.mnt = s->dev[d].root.mnt;
	ret = vfs_getattr(&lp, stat, mask, flags);
	if (ret)
		return ret;
	msk_copy_attr(inode, d_inode(lp.dentry));
	stat->dev = inode->i_sb->s_dev;
	stat->ino = inode->i_ino;
	return 0;
}

int msk_permission(struct user_namespace *ns, struct inode *inode, int mask)
{
	struct msk_inode *mi = MSK_I(inode);
	struct msk_sb *s = MSK_SB(inode->i_sb);

	return inode_permission(msk_userns(s, mi->dev < 0 ? 0 : mi->dev),
				d_inode(mi->lmaster), mask);
}

/* under mi->mu: @f holds an open file for every device in session_mask */
static int msk_truncate_copies(struct msk_sb *s, struct msk_inode *mi,
			       struct file **f, loff_t size)
{
	const struct cred *old;
	u32 d;
	int ret = morph_session_begin(&s->rio, &mi->rf, 0);

	if (ret)
		return ret;
	old = override_creds(s->creds);
	ret = vfs_truncate(&f[mi->dev]->f_path, size);
	for (d = 0; d < s->ndev && !ret; d++) {
		if (!(mi->rf.session_mask & ~mi->rf.failed & (1u << d)))
			continue;
		if (!f[d] || vfs_truncate(&f[d]->f_path, size)) {
			msk_err("truncating the replica on device %u (%s) failed; it is stale until re-copied",
				d, s->dev[d].name);
			mi->rf.failed |= 1u << d;
		}
	}
	revert_creds(old);
	if (!ret)
		i_size_write(&mi->vfs, size);
	return ret;
}

static int truncate_unopened(struct msk_sb *s, struct dentry *dentry,
			     loff_t size)
{
	struct msk_inode *mi = MSK_I(d_inode(dentry));
	struct msk_dentry *md = MSK_D(dentry);
	struct file *f[MORPH_MAX_DEVICES] = {};
	struct path p = { .mnt = s->dev[md->dev].root.mnt, .dentry = md->lower[md->dev] };
	u32 d;
	int ret;

	mutex_lock(&mi->mu);
	f[md->dev] = dentry_open(&p, O_WRONLY, current_cred());
	if (IS_ERR(f[md->dev])) {
		ret = PTR_ERR(f[md->dev]);
		mutex_unlock(&mi->mu);
		return ret;
	}
	for (d = 0; d < s->ndev; d++)
		if (d != md->dev && (mi->rf.st.mask & ~mi->rf.st.stale & (1u << d))) {
			f[d] = msk_replica_open(s, d, mi->rf.st.id, O_WRONLY);
			if (IS_ERR(f[d]))
				f[d] = NULL;
		}
	ret = msk_truncate_copies(s, mi, f, size);
	if (!mi->writers)
		morph_session_end(&s->rio, &mi->rf);
	mutex_unlock(&mi->mu);
	for (d = 0; d < s->ndev; d++)
		if (f[d])
			fput(f[d]);
	return ret;
}

int msk_setattr(struct user_namespace *ns, struct dentry *dentry,
		struct iattr *ia)
{
	struct msk_sb *s = MSK_SB(dentry->d_sb);
	struct inode *inode = d_inode(dentry);
	struct msk_dentry *md = MSK_D(dentry);
	struct iattr lia;
	u32 d, dev;
	int ret;

	if (!first_lower(s, md, &dev))
		return -ESTALE;
	msk_copy_attr(inode, d_inode(first_lower(s, md, &dev)));
	ret = setattr_prepare(ns, dentry, ia);
	if (ret)
		return ret;
	if ((ia->ia_valid & ATTR_SIZE) && S_ISREG(inode->i_mode)) {
		if ((ia->ia_valid & ATTR_FILE) && ia->ia_file->private_data) {
			struct msk_file *mf = ia->ia_file->private_data;
			struct msk_inode *mi = MSK_I(inode);

			mutex_lock(&mi->mu);
			ret = msk_truncate_copies(s, mi, mf->f, ia->ia_size);
			mutex_unlock(&mi->mu);
		} else {
			ret = truncate_unopened(s, dentry, ia->ia_size);
		}
		if (ret)
			return ret;
	}
	lia = *ia;
	lia.ia_valid &= ~(ATTR_FILE | ATTR_SIZE | ATTR_OPEN);
	if (lia.ia_valid & ATTR_MODE)
		lia.ia_valid &= ~(ATTR_KILL_SUID | ATTR_KILL_SGID);
	if (!(lia.ia_valid & ~(ATTR_CTIME | ATTR_MTIME | ATTR_KILL_PRIV)))
		goto done;	/* the size change already set the times */
	for (d = 0; d < s->ndev; d++) {
		struct dentry *ld = md->lower[d];
		struct iattr one = lia;

		if (!ld)
			continue;
		inode_lock(d_inode(ld));
		ret = notify_change(msk_userns(s, d), ld, &one, NULL);
		inode_unlock(d_inode(ld));
		if (ret)
			return ret;
	}
done:
	msk_copy_attr(inode, d_inode(first_lower(s, md, &dev)));
	return 0;
}

const struct inode_operations msk_dir_iops = {
	.lookup = msk_lookup,
	.create = msk_create,
	.mknod = msk_mknod,
	.symlink = msk_symlink,
	.mkdir = msk_mkdir,
	.link = msk_link,
	.unlink = msk_unlink,
	.rmdir = msk_rmdir,
	.rename = msk_rename,
	.getattr = msk_getattr,
	.setattr = msk_setattr,
	.permission = msk_permission,
	.listxattr = msk_listxattr,
};
