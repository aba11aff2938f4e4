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
#include "../core/status.h"

#define OURS "morphstore"	/* after the "user." prefix */

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
	struct morph_file_status fs = {};

	mutex_lock(&mi->mu);
	fs.st = mi->rf.st;
	fs.reads = fs.st.reads + atomic64_read(&mi->reads);
	fs.writes = fs.st.writes + atomic64_read(&mi->writes);
	fs.copies = mi->rf.state_bad ? 1u << mi->dev :
		    morph_state_readable(&fs.st) & ~mi->rf.failed;
	fs.state_bad = mi->rf.state_bad;
	mutex_unlock(&mi->mu);
	if (replicas)
		snprintf(out, len, "%u", fs.st.wanted);
	else
		morph_file_status_format(out, len, &fs);
}

static void volume_status(struct msk_sb *s, char *out, size_t len)
{
	struct morph_volume_status vs = {
		.version = MORPH_FORMAT_VERSION,
		.ndev = s->ndev,
		.policy = s->cfg.policy,
		.chunk = s->cfg.chunk,
		.window_ms = s->cfg.window_ns / NSEC_PER_MSEC,
	};
	u32 d, n, bound[MORPH_MAX_DEVICES], split[MORPH_MAX_DEVICES];

	spin_lock(&s->lock);
	vs.load = morph_laas_load(&s->laas);
	vs.threshold = morph_laas_threshold(&s->laas);
	vs.striping = morph_laas_striping(&s->laas);
	memcpy(bound, s->laas.dev_bound, sizeof(bound));
	memcpy(split, s->laas.dev_split, sizeof(split));
	spin_unlock(&s->lock);
	n = morph_volume_status_format(out, len, &vs);
	for (d = 0; d < s->ndev; d++) {
		struct morph_device_status ds = {
			.dev = d,
			.path = s->dev[d].name,
			.load = bound[d],
			.split = split[d],
			.free = msk_dev_free(s, d),
		};

		n += morph_device_status_format(out + n, len - n, &vs, &ds);
	}
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
	u32 n, old;
	int ret;

	if (!value || morph_replicas_parse(value, size, s->ndev, &n)) {
		msk_err("%s of %pd: '%.*s' is not a copy count in 1..%u (master included)",
			MORPH_XATTR_REPLICAS, dentry, (int)min_t(size_t, size, 16),
			value ? (const char *)value : "", s->ndev);
		return -EINVAL;
	}
	mutex_lock(&mi->mu);
	if (mi->rf.state_bad) {
		ret = -EIO;
	} else {
		old = mi->rf.st.wanted;
		mi->rf.st.wanted = n;
		ret = msk_persist(s, mi, 0, 1);
		if (ret)
			mi->rf.st.wanted = old;
		else
			msk_reconcile(s, mi);
	}
	mutex_unlock(&mi->mu);
	return ret;
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
