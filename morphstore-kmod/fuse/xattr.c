// SPDX-License-Identifier: Apache-2.0
/*
 * xattr.c - extended attributes: user attributes stored on the master
 * (every device for directories), and the virtual user.morphstore.*
 * attributes (replicas, status, volume).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "fops.h"

static const char *const policy_names[] = {
	[MORPH_LAAS_ADAPTIVE] = "adaptive",
	[MORPH_LAAS_STRIPE] = "stripe",
	[MORPH_LAAS_MIRROR] = "mirror",
};


static int is_ours(const char *name)
{
	return !strncmp(name, MORPH_XATTR_PREFIX, strlen(MORPH_XATTR_PREFIX));
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
	struct morph_state st;
	char devs[128] = "", *p = devs;
	u32 d, copies;
	u64 r, w;
	int ret = morph_inode_get_path(v, rel, &ino);

	if (ret)
		return ret == -EPERM ? -ENODATA : ret;
	pthread_mutex_lock(&ino->mu);
	st = ino->st;
	r = st.reads + ino->reads;
	w = st.writes + ino->writes;
	copies = ino->state_bad ? 1u << ino->dev :
		 morph_state_readable(&st) & ~ino->failed;
	ret = ino->state_bad;
	pthread_mutex_unlock(&ino->mu);
	morph_inode_put(v, ino);
	if (replicas) {
		snprintf(out, len, "%u", st.wanted);
		return 0;
	}
	for (d = 0; d < v->ndev; d++)
		if (copies & (1u << d))
			p += sprintf(p, "%s%u", p == devs ? "" : ",", d);
	snprintf(out, len,
		 "wanted=%u copies=%u master=%u devices=%s stale=0x%x reads=%llu writes=%llu id=%016llx%s",
		 st.wanted, morph_popcount(copies), st.master, devs, st.stale,
		 (unsigned long long)r, (unsigned long long)w,
		 (unsigned long long)st.id, ret ? " state=unreadable" : "");
	return 0;
}

static void volume_status(struct morph_vol *v, char *out, size_t len)
{
	u32 d, load, thr;
	int striping, n;

	pthread_mutex_lock(&v->lock);
	load = morph_laas_load(&v->laas);
	thr = morph_laas_threshold(&v->laas);
	striping = morph_laas_striping(&v->laas);
	pthread_mutex_unlock(&v->lock);
	n = snprintf(out, len,
		     "version=%d devices=%u load=%u threshold=%u mode=%s policy=%s chunk=%u window_ms=%llu pending=%d\n",
		     MORPH_FORMAT_VERSION, v->ndev, load, thr,
		     striping ? "stripe" : "mirror",
		     policy_names[v->laas_cfg.policy], v->laas_cfg.chunk,
		     (unsigned long long)(v->laas_cfg.window_ns / 1000000),
		     morph_replicator_pending(v));
	for (d = 0; d < v->ndev && n > 0 && (size_t)n < len; d++)
		n += snprintf(out + n, len - (size_t)n,
			      "dev=%u path=%s load=%u mode=%s free=%llu\n", d,
			      v->dev[d].path, v->laas.dev_bound[d],
			      striping ? "stripe" : "mirror",
			      (unsigned long long)morph_dev_free(v, d));
}

int mo_getxattr(const char *path, const char *name, char *value,
		       size_t size)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	char *full, text[8192];
	int d = morph_locate(v, rel, &st), ret;
	ssize_t n;

	if (d < 0)
		return d;
	if (is_ours(name)) {
		if (!strcmp(name, MORPH_XATTR_VOLUME) && !strcmp(rel, ".")) {
			volume_status(v, text, sizeof(text));
			return put_text(text, value, size);
		}
		if (!S_ISREG(st.st_mode) ||
		    (strcmp(name, MORPH_XATTR_STATUS) &&
		     strcmp(name, MORPH_XATTR_REPLICAS)))
			return -ENODATA;
		ret = file_status(v, rel, text, sizeof(text),
				  !strcmp(name, MORPH_XATTR_REPLICAS));
		return ret ? ret : put_text(text, value, size);
	}
	full = morph_full_path(v, (u32)d, rel);
	if (!full)
		return -ENOMEM;
	n = lgetxattr(full, name, value, size);
	free(full);
	return n < 0 ? neg_errno() : (int)n;
}

static int set_replicas(struct morph_vol *v, const char *rel,
			const char *value, size_t size)
{
	struct morph_inode *ino;
	char buf[16];
	char *end;
	long n;
	int ret;

	if (size == 0 || size >= sizeof(buf))
		goto bad;
	memcpy(buf, value, size);
	buf[size] = 0;
	n = strtol(buf, &end, 10);
	if (*end == '\n')
		end++;
	if (*end || n < 1 || n > (long)v->ndev)
		goto bad;
	ret = morph_inode_get_path(v, rel, &ino);
	if (ret)
		return ret;
	pthread_mutex_lock(&ino->mu);
	if (ino->state_bad) {
		ret = -EIO;
	} else {
		u32 old = ino->st.wanted;

		ino->st.wanted = (u32)n;
		ret = morph_inode_persist(v, ino, 0, 1);
		if (ret)
			ino->st.wanted = old;
	}
	pthread_mutex_unlock(&ino->mu);
	morph_inode_put(v, ino);
	if (!ret)
		morph_replicator_queue(v, rel);
	return ret;
bad:
	morph_err("%s of /%s: '%.*s' is not a copy count in 1..%u (master included)",
		  MORPH_XATTR_REPLICAS, rel, (int)(size < 16 ? size : 16),
		  value, v->ndev);
	return -EINVAL;
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

	if (is_ours(name)) {
		if (strcmp(name, MORPH_XATTR_REPLICAS))
			return -EPERM;
		if (morph_locate(v, rel, &st) < 0)
			return -ENOENT;
		if (!S_ISREG(st.st_mode))
			return -EPERM;
		return set_replicas(v, rel, value, size);
	}
	return morph_on_all(v, rel, do_setxattr, &a);
}

int mo_removexattr(const char *path, const char *name)
{
	struct morph_vol *v = fuse_vol();
	struct xattr_arg a = { name, NULL, 0, 0 };

	if (is_ours(name))
		return -EPERM;
	return morph_on_all(v, morph_rel(path), do_setxattr, &a);
}

int mo_listxattr(const char *path, char *list, size_t size)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	char raw[65536], out[65536 + 128], *p, *full;
	int d = morph_locate(v, rel, &st);
	ssize_t n;
	size_t len = 0;

	if (d < 0)
		return d;
	full = morph_full_path(v, (u32)d, rel);
	if (!full)
		return -ENOMEM;
	n = llistxattr(full, raw, sizeof(raw));
	free(full);
	if (n < 0)
		return neg_errno();
	for (p = raw; p < raw + n; p += strlen(p) + 1) {
		if (is_ours(p))
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

