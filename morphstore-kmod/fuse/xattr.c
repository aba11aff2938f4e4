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

static const char *const policy_names[] = {
	[MORPH_LAAS_ADAPTIVE] = "adaptive",
	[MORPH_LAAS_STRIPE] = "stripe",
	[MORPH_LAAS_MIRROR] = "mirror",
};


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
	struct morph_state st;
	char devs[128] = "", *p = devs, gone[128] = "";
	u32 d, copies, lost = morph_lost(v), away;
	u64 r, w;
	int ret = morph_inode_get_path(v, rel, &ino);

	if (ret)
		return ret == -EPERM ? -ENODATA : ret;
	pthread_mutex_lock(&ino->mu);
	st = ino->st;
	r = st.reads + ino->reads;
	w = st.writes + ino->writes;
	copies = ino->state_bad ? 1u << ino->dev :
		 morph_state_readable(&st) & ~ino->failed & ~lost;
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
	away = st.mask & lost;
	if (away)
		snprintf(gone, sizeof(gone), " lost=%s",
			 morph_dev_list(away, (char[128]){ 0 }, 128));
	snprintf(out, len,
		 "wanted=%u copies=%u master=%u devices=%s stale=0x%x reads=%llu writes=%llu id=%016llx%s%s",
		 st.wanted, morph_popcount(copies), st.master, devs, st.stale,
		 (unsigned long long)r, (unsigned long long)w,
		 (unsigned long long)st.id, ret ? " state=unreadable" : "", gone);
	return 0;
}

/* a replica on @dev standing in for its lost master: its own state */
static int standin_status(struct morph_vol *v, u32 dev, const char *rel,
			  char *out, size_t len, int replicas)
{
	struct morph_state r;
	char list[128];
	int fd = openat(v->dev[dev].names_fd, rel, O_RDONLY | O_NOFOLLOW), ret;

	if (fd < 0)
		return morph_io_error(v, dev, neg_errno(), rel);
	ret = morph_rstate_read(v, dev, fd, &r);
	close(fd);
	if (ret)
		return -EIO;
	if (replicas)
		snprintf(out, len, "%u", r.wanted);
	else
		snprintf(out, len,
			 "wanted=%u copies=1 master=%u devices=%u stale=0x0 reads=%llu writes=%llu id=%016llx lost=%s",
			 r.wanted, r.master, dev, (unsigned long long)r.reads,
			 (unsigned long long)r.writes,
			 (unsigned long long)r.id,
			 morph_dev_list(morph_lost(v) & (r.mask | (1u << r.master)),
					list, sizeof(list)));
	return 0;
}

static void volume_status(struct morph_vol *v, char *out, size_t len)
{
	u32 d, load, thr, lost = morph_lost(v), behind;
	int striping, n;
	char l1[128], l2[128];

	pthread_mutex_lock(&v->lock);
	load = morph_laas_load(&v->laas);
	thr = morph_laas_threshold(&v->laas);
	striping = morph_laas_striping(&v->laas);
	pthread_mutex_unlock(&v->lock);
	behind = __atomic_load_n(&v->behind, __ATOMIC_SEQ_CST);
	/* pending= stays last: scripts wait for " pending=0" at the end */
	n = snprintf(out, len,
		     "version=%d devices=%u lost=%s behind=%s load=%u threshold=%u mode=%s policy=%s chunk=%u window_ms=%llu pending=%d\n",
		     v->names ? MORPH_LABEL_NAMES : MORPH_FORMAT_VERSION,
		     v->ndev, morph_dev_list(lost, l1, sizeof(l1)),
		     morph_dev_list(behind, l2, sizeof(l2)), load, thr,
		     striping ? "stripe" : "mirror",
		     policy_names[v->laas_cfg.policy], v->laas_cfg.chunk,
		     (unsigned long long)(v->laas_cfg.window_ns / 1000000),
		     morph_replicator_pending(v));
	for (d = 0; d < v->ndev && n > 0 && (size_t)n < len; d++)
		n += snprintf(out + n, len - (size_t)n,
			      "dev=%u path=%s load=%u split=%u mode=%s free=%llu state=%s\n",
			      d, v->dev[d].path, v->laas.dev_bound[d],
			      v->laas.dev_split[d],
			      striping ? "stripe" : "mirror",
			      (unsigned long long)morph_dev_free(v, d),
			      lost & (1u << d) ? "lost" :
			      behind & (1u << d) ? "behind" : "up");
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

