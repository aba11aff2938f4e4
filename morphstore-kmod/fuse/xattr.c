// SPDX-License-Identifier: Apache-2.0
/*
 * xattr.c - extended attributes: user attributes stored on the master
 * (every device for directories), and the virtual user.morphstore.*
 * attributes (replicas, status, volume).  A file whose master is lost has
 * only the virtual ones: its user attributes read as absent until then.
 *
 * POSIX ACLs are refused (EOPNOTSUPP), as on ext4 mounted noacl and as the
 * kernel module does: the kernel checks a FUSE volume's permissions from
 * the mode bits only, so an ACL stored on a lower file would be shown and
 * copied (setfacl, cp -a, rsync -A) but would grant and deny nothing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "fops.h"
#include "../core/status.h"

static int is_ours(const char *name)
{
	return !strncmp(name, MORPH_XATTR_PREFIX, strlen(MORPH_XATTR_PREFIX));
}

static int is_acl(const char *name)
{
	return !strcmp(name, "system.posix_acl_access") ||
	       !strcmp(name, "system.posix_acl_default");
}

static int put_text(const char *text, char *value, size_t size)
{
	size_t n = strlen(text);

	if (!size)
		return (int)n;
	if (size < n)
		return -ERANGE;
	memcpy(value, text, n);
	return (int)n;
}

static int file_status(struct morph_vol *v, const char *rel, char *out,
		       size_t len, int replicas)
{
	struct morph_inode *ino;
	struct morph_file_status fs;
	u32 lost = morph_lost(v);
	int ret = morph_inode_get_path(v, rel, &ino);

	if (ret)
		return ret == -EPERM ? -ENODATA : ret;
	pthread_mutex_lock(&ino->mu);
	fs.st = ino->rf.st;
	fs.reads = fs.st.reads + ino->reads;
	fs.writes = fs.st.writes + ino->writes;
	fs.copies = ino->rf.state_bad ? 1u << ino->dev :
		    morph_state_readable(&fs.st) & ~ino->rf.failed & ~lost;
	fs.state_bad = ino->rf.state_bad;
	pthread_mutex_unlock(&ino->mu);
	morph_inode_put(v, ino);
	fs.lost = fs.st.mask & lost;
	if (replicas)
		snprintf(out, len, "%u", fs.st.wanted);
	else
		morph_file_status_format(out, (u32)len, &fs);
	return 0;
}

/* a replica on @dev standing in for its lost master: its own state */
static int standin_status(struct morph_vol *v, u32 dev, const char *rel,
			  char *out, size_t len, int replicas)
{
	struct morph_file_status fs = { .copies = 1u << dev };
	int fd = openat(v->dev[dev].names_fd, rel, O_RDONLY | O_NOFOLLOW), ret;

	if (fd < 0)
		return morph_io_error(v, dev, neg_errno(), rel);
	ret = morph_rstate_read(v, dev, fd, &fs.st);
	close(fd);
	if (ret)
		return -EIO;
	fs.reads = fs.st.reads;
	fs.writes = fs.st.writes;
	fs.lost = morph_lost(v) & (fs.st.mask | (1u << fs.st.master));
	fs.st.stale = 0;
	if (replicas)
		snprintf(out, len, "%u", fs.st.wanted);
	else
		morph_file_status_format(out, (u32)len, &fs);
	return 0;
}

static void volume_status(struct morph_vol *v, char *out, size_t len)
{
	struct morph_volume_status vs = {
		.version = v->names ? MORPH_LABEL_NAMES : MORPH_FORMAT_VERSION,
		.ndev = v->ndev,
		.degraded_mode = 1,
		.lost = morph_lost(v),
		.behind = __atomic_load_n(&v->behind, __ATOMIC_SEQ_CST),
		.policy = v->laas_cfg.policy,
		.chunk = v->laas_cfg.chunk,
		.window_ms = v->laas_cfg.window_ns / 1000000,
		.pending = (u32)morph_replicator_pending(v),
	};
	u32 n, d;

	pthread_mutex_lock(&v->lock);
	vs.load = morph_laas_load(&v->laas);
	vs.threshold = morph_laas_threshold(&v->laas);
	vs.striping = morph_laas_striping(&v->laas);
	pthread_mutex_unlock(&v->lock);
	n = morph_volume_status_format(out, (u32)len, &vs);
	for (d = 0; d < v->ndev; d++) {
		struct morph_device_status ds = {
			.dev = d,
			.path = v->dev[d].path,
			.load = v->laas.dev_bound[d],
			.split = v->laas.dev_split[d],
			.free = morph_dev_free(v, d),
		};

		n += morph_device_status_format(out + n, (u32)(len - n), &vs,
						&ds);
	}
}

int mo_getxattr(const char *path, const char *name, char *value,
		       size_t size)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	char text[8192];
	int standin, d = morph_find(v, rel, &st, &standin), ret;
	ssize_t n;

	if (d < 0)
		return d;
	if (is_acl(name))
		return -EOPNOTSUPP;
	if (is_ours(name)) {
		if (!strcmp(name, MORPH_XATTR_VOLUME) && !strcmp(rel, ".")) {
			volume_status(v, text, sizeof(text));
			return put_text(text, value, size);
		}
		if (!S_ISREG(st.st_mode) ||
		    (strcmp(name, MORPH_XATTR_STATUS) &&
		     strcmp(name, MORPH_XATTR_REPLICAS)))
			return -ENODATA;
		if (standin)
			ret = standin_status(v, (u32)d, rel, text, sizeof(text),
					     !strcmp(name, MORPH_XATTR_REPLICAS));
		else
			ret = file_status(v, rel, text, sizeof(text),
					  !strcmp(name, MORPH_XATTR_REPLICAS));
		return ret ? ret : put_text(text, value, size);
	}
	if (standin)
		return -ENODATA;
	n = morph_lgetxattr(v, (u32)d, rel, name, value, size);
	return n < 0 ? morph_io_error(v, (u32)d, (int)n, rel) : (int)n;
}

static int set_replicas(struct morph_vol *v, const char *rel,
			const char *value, size_t size)
{
	struct morph_inode *ino;
	u32 n;
	int ret;

	if (morph_replicas_parse(value, size, v->ndev, &n)) {
		morph_err("%s of /%s: '%.*s' is not a copy count in 1..%u (master included)",
			  MORPH_XATTR_REPLICAS, rel, (int)(size < 16 ? size : 16),
			  value, v->ndev);
		return -EINVAL;
	}
	ret = morph_inode_get_path(v, rel, &ino);
	if (ret)
		return ret;
	pthread_mutex_lock(&ino->mu);
	if (ino->rf.state_bad) {
		ret = -EIO;
	} else {
		u32 old = ino->rf.st.wanted;

		ino->rf.st.wanted = n;
		ret = morph_inode_persist(v, ino, 0, 1);
		if (ret)
			ino->rf.st.wanted = old;
	}
	pthread_mutex_unlock(&ino->mu);
	morph_inode_put(v, ino);
	if (!ret)
		morph_replicator_queue(v, rel);
	return ret;
}

struct xattr_arg {
	const char *name;
	const char *value;
	size_t size;
	int flags;
};

static int do_setxattr(int dirfd, const char *rel, const void *arg)
{
	const struct xattr_arg *a = arg;
	char self[64];
	int fd = openat(dirfd, rel, O_PATH | O_NOFOLLOW), ret = 0;

	if (fd < 0)
		return neg_errno();
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	/* following the descriptor's link reaches the entry itself */
	if (a->value ? setxattr(self, a->name, a->value, a->size, a->flags)
		     : removexattr(self, a->name))
		ret = neg_errno();
	close(fd);
	return ret;
}

int mo_setxattr(const char *path, const char *name, const char *value,
		       size_t size, int flags)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	struct xattr_arg a = { name, value, size, flags };
	int standin, d;

	if (is_acl(name))
		return -EOPNOTSUPP;
	if (is_ours(name)) {
		if (strcmp(name, MORPH_XATTR_REPLICAS))
			return -EPERM;
		d = morph_find(v, rel, &st, &standin);
		if (d < 0)
			return d;
		if (!S_ISREG(st.st_mode))
			return -EPERM;
		if (standin)
			return morph_refuse_degraded(v, "setting the copies of", rel);
		return set_replicas(v, rel, value, size);
	}
	return morph_on_all(v, rel, do_setxattr, &a);
}

int mo_removexattr(const char *path, const char *name)
{
	struct morph_vol *v = fuse_vol();
	struct xattr_arg a = { name, NULL, 0, 0 };

	if (is_acl(name))
		return -EOPNOTSUPP;
	if (is_ours(name))
		return -EPERM;
	return morph_on_all(v, morph_rel(path), do_setxattr, &a);
}

int mo_listxattr(const char *path, char *list, size_t size)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	char raw[65536], out[65536 + 128], *p;
	int standin, d = morph_find(v, rel, &st, &standin);
	ssize_t n = 0;
	size_t len = 0;

	if (d < 0)
		return d;
	if (!standin) {
		n = morph_llistxattr(v, (u32)d, rel, raw, sizeof(raw));
		if (n < 0)
			return morph_io_error(v, (u32)d, (int)n, rel);
	}
	for (p = raw; p < raw + n; p += strlen(p) + 1) {
		if (is_ours(p) || is_acl(p))
			continue;
		memcpy(out + len, p, strlen(p) + 1);
		len += strlen(p) + 1;
	}
	if (S_ISREG(st.st_mode)) {
		memcpy(out + len, MORPH_XATTR_REPLICAS, sizeof(MORPH_XATTR_REPLICAS));
		len += sizeof(MORPH_XATTR_REPLICAS);
		memcpy(out + len, MORPH_XATTR_STATUS, sizeof(MORPH_XATTR_STATUS));
		len += sizeof(MORPH_XATTR_STATUS);
	}
	if (!strcmp(rel, ".")) {
		memcpy(out + len, MORPH_XATTR_VOLUME, sizeof(MORPH_XATTR_VOLUME));
		len += sizeof(MORPH_XATTR_VOLUME);
	}
	if (!size)
		return (int)len;
	if (size < len)
		return -ERANGE;
	memcpy(list, out, len);
	return (int)len;
}

