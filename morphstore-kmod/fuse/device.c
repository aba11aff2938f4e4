// SPDX-License-Identifier: Apache-2.0
/*
 * device.c - the lower directories ("devices") of a mounted volume: the
 * entries on them, and their health.
 *
 * Every directory of the volume exists on every device; any other file
 * exists on exactly one device, its master device (layout in
 * include/morphstore_format.h).  A lower operation that fails reports here
 * (morph_io_error); a device that no longer answers is lost for the rest of
 * the mount, and the others record that it is behind.  Opening and checking
 * the devices at mount is mount.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"

const char *morph_rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

int morph_reserved(const char *rel)
{
	size_t n = strlen(MORPH_DIR);

	return !strncmp(rel, MORPH_DIR, n) && (rel[n] == 0 || rel[n] == '/');
}

/*
 * Extended attributes of the entry @rel on @dev (a symlink itself, not its
 * target), through an O_PATH descriptor, whose /proc/self/fd link leads to
 * the entry: the lower directory's path and @rel together may be longer
 * than PATH_MAX where @rel alone is not (a volume path near PATH_MAX), so
 * the full path is never built.  Each returns what the l*xattr call would,
 * or -errno.
 */
static int open_entry(struct morph_vol *v, u32 dev, const char *rel,
		      char *self, size_t len)
{
	int fd = openat(v->dev[dev].fd, rel, O_PATH | O_NOFOLLOW);

	if (fd >= 0)
		snprintf(self, len, "/proc/self/fd/%d", fd);
	return fd < 0 ? -errno : fd;
}

ssize_t morph_lgetxattr(struct morph_vol *v, u32 dev, const char *rel,
			const char *name, void *value, size_t size)
{
	char self[64];
	int fd = open_entry(v, dev, rel, self, sizeof(self));
	ssize_t n;

	if (fd < 0)
		return fd;
	n = getxattr(self, name, value, size);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

ssize_t morph_llistxattr(struct morph_vol *v, u32 dev, const char *rel,
			 char *list, size_t size)
{
	char self[64];
	int fd = open_entry(v, dev, rel, self, sizeof(self));
	ssize_t n;

	if (fd < 0)
		return fd;
	n = listxattr(self, list, size);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* @value NULL: remove @name */
int morph_lsetxattr(struct morph_vol *v, u32 dev, const char *rel,
		    const char *name, const void *value, size_t size)
{
	char self[64];
	int fd = open_entry(v, dev, rel, self, sizeof(self)), ret;

	if (fd < 0)
		return fd;
	ret = value ? setxattr(self, name, value, size, 0) :
		      removexattr(self, name);
	if (ret)
		ret = -errno;
	close(fd);
	return ret;
}

u32 morph_lost(struct morph_vol *v)
{
	return __atomic_load_n(&v->lost, __ATOMIC_SEQ_CST);
}

/* "0,3" for a device mask, "-" for none */
char *morph_dev_list(u32 mask, char *buf, size_t len)
{
	size_t n = 0;
	u32 d;

	buf[0] = 0;
	for (d = 0; d < MORPH_MAX_DEVICES && n + 4 < len; d++)
		if (mask & (1u << d))
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      n ? "," : "", d);
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}

/*
 * First device holding @rel; directories are found on the first device
 * that is up.  A name that no device that is up holds but that a lost
 * device still shows (its directory was cached, or it fails only on open)
 * is -EIO: the file exists and cannot be served, which a plain "no such
 * file" would hide.
 */
int morph_locate(struct morph_vol *v, const char *rel, struct stat *st)
{
	u32 d, lost;

	if (morph_reserved(rel))
		return -ENOENT;
	for (d = 0; d < v->ndev; d++) {
		int e;

		if (!morph_dev_up(v, d))
			continue;
		if (!fstatat(v->dev[d].fd, rel, st, AT_SYMLINK_NOFOLLOW))
			return (int)d;
		e = errno;
		/* every device refuses a name longer than NAME_MAX alike */
		if (e == ENAMETOOLONG)
			return -e;
		if (e == ENOENT || e == ENOTDIR)
			continue;
		morph_io_error(v, d, -e, rel);
		if (morph_dev_up(v, d))
			return -e;
	}
	lost = morph_lost(v);
	for (d = 0; d < v->ndev; d++)
		if ((lost & (1u << d)) && v->dev[d].fd >= 0 &&
		    !fstatat(v->dev[d].fd, rel, st, AT_SYMLINK_NOFOLLOW))
			return -EIO;
	return -ENOENT;
}

u64 morph_dev_free(struct morph_vol *v, u32 dev)
{
	struct statvfs s;

	if (!morph_dev_up(v, dev) || fstatvfs(v->dev[dev].rep_fd, &s))
		return 0;
	return (u64)s.f_bavail * s.f_frsize;
}

/* the device of a new file (core/replica.c): any device that is up */
int morph_pick_device(struct morph_vol *v)
{
	u32 all = v->ndev >= 32 ? ~0u : (1u << v->ndev) - 1;
	int d = morph_place_file(&v->rio, all & ~morph_lost(v));

	return d < 0 ? 0 : d;
}

/* create the missing parents of @rel on @dev, copying modes from device 0 */
int morph_make_parents(struct morph_vol *v, u32 dev, const char *rel)
{
	char buf[PATH_MAX];
	char *s;
	struct stat st;

	if (strlen(rel) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, rel);
	for (s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (fstatat(v->dev[dev].fd, buf, &st, AT_SYMLINK_NOFOLLOW)) {
			mode_t mode = 0755;
			u32 d;

			for (d = 0; d < v->ndev; d++)
				if (morph_dev_up(v, d) &&
				    !fstatat(v->dev[d].fd, buf, &st,
					     AT_SYMLINK_NOFOLLOW)) {
					mode = st.st_mode & 07777;
					break;
				}
			if (mkdirat(v->dev[dev].fd, buf, mode) && errno != EEXIST)
				return -errno;
		}
		*s = '/';
	}
	return 0;
}

/* the state attribute of the master @rel on @dev: absent is a plain file */
int morph_read_state(struct morph_vol *v, u32 dev, const char *rel,
		     struct morph_state *st)
{
	u8 buf[MORPH_STATE_SIZE + 16];
	ssize_t n = morph_lgetxattr(v, dev, rel, MORPH_XATTR_STATE, buf,
				    sizeof(buf));

	morph_state_init(st, 0, dev);
	if (n < 0)
		return n == -ENODATA ? 0 : (int)n;
	return morph_state_load(buf, (size_t)n, v->ndev, dev, st) ? -EIO : 0;
}

/* ---- losing a device ---- */

/*
 * The marks on every device that is up: MORPH_XATTR_BEHIND lists the
 * devices whose replica states are not to be trusted (they missed changes
 * while lost), made durable before the change they miss goes ahead.  A
 * device that cannot take the mark is reported, not lost: losing it here
 * would recurse into this function.
 */
static void write_behind(struct morph_vol *v)
{
	char list[128];
	u32 d;

	morph_dev_list(v->behind, list, sizeof(list));
	for (d = 0; d < v->ndev; d++) {
		int ret;

		if (!morph_dev_up(v, d) || v->dev[d].meta_fd < 0)
			continue;
		if (v->behind)
			ret = fsetxattr(v->dev[d].meta_fd, MORPH_XATTR_BEHIND,
					list, strlen(list), 0);
		else
			ret = fremovexattr(v->dev[d].meta_fd,
					   MORPH_XATTR_BEHIND) && errno != ENODATA;
		if (ret || fsync(v->dev[d].meta_fd))
			morph_err("cannot record on device %u (%s) that devices %s are behind: %s",
				  d, v->dev[d].path, list, strerror(errno));
	}
}

/* at mount: @devs are behind, as some device said; every device says so */
void morph_set_behind(struct morph_vol *v, u32 devs)
{
	pthread_mutex_lock(&v->mark_lock);
	__atomic_store_n(&v->behind, devs, __ATOMIC_SEQ_CST);
	write_behind(v);
	pthread_mutex_unlock(&v->mark_lock);
}

int morph_mark_behind(struct morph_vol *v, u32 devs)
{
	pthread_mutex_lock(&v->mark_lock);
	if ((v->behind | devs) != v->behind) {
		__atomic_or_fetch(&v->behind, devs, __ATOMIC_SEQ_CST);
		write_behind(v);
	}
	pthread_mutex_unlock(&v->mark_lock);
	return 0;
}

/* a repair pass rebuilt every replica state: nothing is behind any more */
void morph_clear_behind(struct morph_vol *v)
{
	pthread_mutex_lock(&v->mark_lock);
	if (!morph_lost(v) && v->behind) {
		char list[128];

		u32 d;

		morph_log("info", "repair complete: the replicas of devices %s are trusted again",
			  morph_dev_list(v->behind, list, sizeof(list)));
		/* what the repair wrote is on disk before the mark goes */
		for (d = 0; d < v->ndev; d++)
			syncfs(v->dev[d].fd);
		__atomic_store_n(&v->behind, 0, __ATOMIC_SEQ_CST);
		write_behind(v);
	}
	pthread_mutex_unlock(&v->mark_lock);
}

static void lose(struct morph_vol *v, u32 d, const char *why)
{
	u32 bit = 1u << d;
	u32 before = __atomic_fetch_or(&v->lost, bit, __ATOMIC_SEQ_CST);

	if (before & bit)
		return;
	morph_err("device %u (%s) is lost: %s; the volume goes on without it (degraded): files with a fresh copy on another device are served from it, a file whose only copy is there fails with EIO, and changes that need it fail with EROFS; to repair, unmount the volume, bring the device back (umount, e2fsck -p, mount its file system) and mount the volume again",
		  d, v->dev[d].path, why);
	morph_mark_behind(v, bit);
}

/*
 * Is the device still there?  Its label is read past the page cache
 * (O_DIRECT), so a disk that died under a cached label does not pass; a
 * file system shut down by the kernel when its disk went away fails the
 * open itself.
 */
static int probe(struct morph_vol *v, u32 d)
{
	char buf[4096] __attribute__((aligned(4096)));
	int fd = openat(v->dev[d].fd, MORPH_DEVICE_FILE, O_RDONLY | O_DIRECT);
	ssize_t n;

	if (fd < 0 && errno == EINVAL)
		fd = openat(v->dev[d].fd, MORPH_DEVICE_FILE, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	return n < 0 ? -errno : 0;
}

/*
 * Every lower operation that fails reports here (@err negated, @what the
 * volume path, or a description in parentheses): an error that says the
 * device may be gone is checked with a probe, and a device that fails it
 * is lost for the rest of the mount.  Returns @err.
 */
int morph_io_error(struct morph_vol *v, u32 d, int err, const char *what)
{
	char why[PATH_MAX + 128];
	int p;

	if (err != -EIO && err != -ENXIO && err != -ENODEV &&
	    err != -ENOTCONN && err != -ESHUTDOWN)
		return err;
	if (!morph_dev_up(v, d))
		return err;
	p = v->dev[d].fd < 0 ? -ENODEV : probe(v, d);
	if (p) {
		snprintf(why, sizeof(why), "%s%s: %s, and its label %s: %s",
			 *what == '(' ? "" : "/", what, strerror(-err),
			 MORPH_DEVICE_FILE, strerror(-p));
		lose(v, d, why);
	} else {
		morph_err("device %u (%s): %s%s: %s; the device still answers, so only this file is affected",
			  d, v->dev[d].path, *what == '(' ? "" : "/", what,
			  strerror(-err));
	}
	return err;
}

/* while a device is lost, changes that need every device are refused */
int morph_refuse_degraded(struct morph_vol *v, const char *op,
			  const char *rel)
{
	char list[128];
	u32 lost = morph_lost(v);

	if (!lost)
		return 0;
	morph_err("%s /%s refused: devices %s are lost and this change needs every device (degraded mode is read-only for it)",
		  op, rel, morph_dev_list(lost, list, sizeof(list)));
	return -EROFS;
}
