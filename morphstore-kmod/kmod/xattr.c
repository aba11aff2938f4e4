// SPDX-License-Identifier: GPL-2.0
/*
 * xattr.c - extended attributes: user attributes are stored on the master
 * (on every device for a directory); the virtual user.morphstore.replicas,
 * .status and .volume are answered here; every other user.morphstore name
 * is reserved (the state attribute is never shown or written through the
 * volume).
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "msk.h"

#define OURS "morphstore"	/* after the "user." prefix */

static const char *const policy_names[] = {
	[MORPH_LAAS_ADAPTIVE] = "adaptive",
	[MORPH_LAAS_STRIPE] = "stripe",
	[MORPH_LAAS_MIRROR] = "mirror",
};

static int is_ours(const char *suffix)
{
	return !strncmp(suffix, OURS, strlen(OURS));
}

static int put_text(const char *text, void *value, size_t size)
{
	size_t n = strlen(text);

	if (!size)
		return n;
	if (size < n)
		return -ERANGE;
	memcpy(value, text, n);
	return n;
}

static void file_status(struct msk_sb *s, struct msk_inode *mi, char *out,
			size_t len, int replicas)
{
	struct morph_state st;
	char devs[128] = "";
	int at = 0;
	u32 d, copies;
	u64 r, w;
	int bad;

	mutex_lock(&mi->mu);
	st = mi->st;
	r = st.reads + atomic64_read(&mi->reads);
	w = st.writes + atomic64_read(&mi->writes);
	copies = mi->state_bad ? 1u << mi->dev :
		 morph_state_readable(&st) & ~mi->failed;
	bad = mi->state_bad;
	mutex_unlock(&mi->mu);
	if (replicas) {
		snprintf(out, len, "%u", st.wanted);
		return;
	}
	for (d = 0; d < s->ndev; d++)
		if (copies & (1u << d))
			at += scnprintf(devs + at, sizeof(devs) - at, "%s%u",
					at ? "," : "", d);
	snprintf(out, len,
		 "wanted=%u copies=%u master=%u devices=%s stale=0x%x reads=%llu writes=%llu id=%016llx%s",
		 st.wanted, morph_popcount(copies), st.master, devs, st.stale,
		 r, w, st.id, bad ? " state=unreadable" : "");
}

static void volume_status(struct msk_sb *s, char *out, size_t len)
{
	u32 d, load, thr, bound[MORPH_MAX_DEVICES], split[MORPH_MAX_DEVICES];
	int striping, n;

	spin_lock(&s->lock);
	load = morph_laas_load(&s->laas);
	thr = morph_laas_threshold(&s->laas);
	striping = morph_laas_striping(&s->laas);
	memcpy(bound, s->laas.dev_bound, sizeof(bound));
	memcpy(split, s->laas.dev_split, sizeof(split));
	spin_unlock(&s->lock);
	n = scnprintf(out, len,
		      "version=%d devices=%u load=%u threshold=%u mode=%s policy=%s chunk=%u window_ms=%llu pending=0\n",
		      MORPH_FORMAT_VERSION, s->ndev, load, thr,
		      striping ? "stripe" : "mirror",
		      policy_names[s->cfg.policy], s->cfg.chunk,
		      s->cfg.window_ns / NSEC_PER_MSEC);
	for (d = 0; d < s->ndev; d++)
		n += scnprintf(out + n, len - n,
			       "dev=%u path=%s load=%u split=%u mode=%s free=%llu\n", d,
			       s->dev[d].name, bound[d], split[d],
			       striping ? "stripe" : "mirror",
			       msk_dev_free(s, d));
}

static struct dentry *xattr_lower(struct msk_sb *s, struct dentry *dentry,
				  u32 *dev)
{
	struct msk_dentry *md = MSK_D(dentry);
	u32 d = md->dev >= 0 ? md->dev : 0;

	while (d < s->ndev && !md->lower[d])
		d++;
	*dev = d;
	return d < s->ndev ? md->lower[d] : NULL;
}

static int msk_xattr_get(const struct xattr_handler *h, struct dentry *dentry,
			 struct inode *inode, const char *name, void *value,
			 size_t size)
{
	struct msk_sb *s = MSK_SB(inode->i_sb);
	struct dentry *ld;
	char full[XATTR_NAME_MAX + 1];
	char *text;
	u32 d;
	int ret;

	if (!dentry)
		return -ECHILD;
	if (is_ours(name)) {
		text = kmalloc(8192, GFP_KERNEL);
		if (!text)
			return -ENOMEM;
		ret = -ENODATA;
		if (!strcmp(name, OURS ".volume") && IS_ROOT(dentry)) {
			volume_status(s, text, 8192);
			ret = 0;
		} else if (S_ISREG(inode->i_mode) &&
			   (!strcmp(name, OURS ".status") ||
			    !strcmp(name, OURS ".replicas"))) {
			file_status(s, MSK_I(inode), text, 8192,
				    !strcmp(name, OURS ".replicas"));
			ret = 0;
		}
		if (!ret)
			ret = put_text(text, value, size);
		kfree(text);
		return ret;
	}
	ld = xattr_lower(s, dentry, &d);
	if (!ld)
		return -ESTALE;
	snprintf(full, sizeof(full), "%s%s", XATTR_USER_PREFIX, name);
	return vfs_getxattr(msk_userns(s, d), ld, full, value, size);
}

static int set_replicas(struct msk_sb *s, struct dentry *dentry,
			struct msk_inode *mi, const void *value, size_t size)
{
	char buf[16];
	unsigned int n;
	u32 old;
	int ret;

	if (!value || !size || size >= sizeof(buf))
		goto bad;
	memcpy(buf, value, size);
	buf[size] = 0;
	if (buf[size - 1] == '\n')
		buf[size - 1] = 0;
	if (kstrtouint(buf, 10, &n) || n < 1 || n > s->ndev)
		goto bad;
	mutex_lock(&mi->mu);
	if (mi->state_bad) {
		ret = -EIO;
	} else {
		old = mi->st.wanted;
		mi->st.wanted = n;
		ret = msk_persist(s, mi, 0, 1);
		if (ret)
			mi->st.wanted = old;
		else
			msk_reconcile(s, mi);
	}
	mutex_unlock(&mi->mu);
	return ret;
bad:
	msk_err("%s of %pd: '%.*s' is not a copy count in 1..%u (master included)",
		MORPH_XATTR_REPLICAS, dentry, (int)min_t(size_t, size, 16),
		value ? (const char *)value : "", s->ndev);
	return -EINVAL;
}

static int msk_xattr_set(const struct xattr_handler *h,
			 struct user_namespace *ns, struct dentry *dentry,
			 struct inode *inode, const char *name,
			 const void *value, size_t size, int flags)
{
	struct msk_sb *s = MSK_SB(inode->i_sb);
	struct msk_dentry *md = MSK_D(dentry);
	char full[XATTR_NAME_MAX + 1];
	u32 d;
	int ret = 0, r;

	if (is_ours(name)) {
		if (strcmp(name, OURS ".replicas") || !value)
			return -EPERM;
		if (!S_ISREG(inode->i_mode))
			return -EPERM;
		return set_replicas(s, dentry, MSK_I(inode), value, size);
	}
	snprintf(full, sizeof(full), "%s%s", XATTR_USER_PREFIX, name);
	for (d = 0; d < s->ndev; d++) {
		struct dentry *ld = md->lower[d];

		if (!ld)
			continue;
		r = value ? vfs_setxattr(msk_userns(s, d), ld, full, value,
					 size, flags) :
			    vfs_removexattr(msk_userns(s, d), ld, full);
		if (r && r != -ENOENT && !ret)
			ret = r;
	}
	return ret;
}

ssize_t msk_listxattr(struct dentry *dentry, char *list, size_t size)
{
	struct msk_sb *s = MSK_SB(dentry->d_sb);
	static const char *const extra[] = { MORPH_XATTR_REPLICAS,
					     MORPH_XATTR_STATUS,
					     MORPH_XATTR_VOLUME };
	struct dentry *ld;
	char *raw, *p;
	ssize_t n, len = 0;
	size_t cap = XATTR_LIST_MAX + 128, l;
	u32 d, i;

	ld = xattr_lower(s, dentry, &d);
	if (!ld)
		return -ESTALE;
	raw = kvmalloc(cap, GFP_KERNEL);
	if (!raw)
		return -ENOMEM;
	n = vfs_listxattr(ld, raw, XATTR_LIST_MAX);
	if (n < 0)
		goto out;
	for (p = raw; p < raw + n; p += l + 1) {
		l = strlen(p);
		if (!strncmp(p, MORPH_XATTR_PREFIX, strlen(MORPH_XATTR_PREFIX)))
			continue;
		memmove(raw + len, p, l + 1);
		len += l + 1;
	}
	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		if (i < 2 && !d_is_reg(dentry))
			continue;
		if (i == 2 && !IS_ROOT(dentry))
			continue;
		l = strlen(extra[i]) + 1;
		memcpy(raw + len, extra[i], l);
		len += l;
	}
	n = len;
	if (size && size < len)
		n = -ERANGE;
	else if (size)
		memcpy(list, raw, len);
out:
	kvfree(raw);
	return n;
}

static const struct xattr_handler msk_user_xattr = {
	.prefix = XATTR_USER_PREFIX,
	.get = msk_xattr_get,
	.set = msk_xattr_set,
};

const struct xattr_handler *msk_xattr_handlers[] = {
	&msk_user_xattr,
	NULL,
};
