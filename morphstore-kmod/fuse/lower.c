// SPDX-License-Identifier: Apache-2.0
/*
 * lower.c - the lower directories ("devices") of a volume.
 *
 * Every directory of the volume exists on every device; any other file
 * exists on exactly one device, its master device.  MORPH_DIR at the root of
 * each device holds the device label and the replica directory (layout in
 * include/morphstore_format.h).  Checks done here at mount time name the
 * lower directory and the device number in every error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"
#include "ondisk.h"

void morph_log(const char *level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "morphstore-fuse: %s: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

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

void morph_replica_name(char *buf, size_t len, u64 id, int tmp)
{
	snprintf(buf, len, "%016llx%s", (unsigned long long)id,
		 tmp ? MORPH_TMP_SUFFIX : "");
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

/*
 * New files go to the devices in turn, skipping any with less than half the
 * free space of the emptiest one (seed 001 section 3.4.1: any device with
 * room will do; turns spread masters, and so load, over the spindles).
 */
int morph_pick_device(struct morph_vol *v)
{
	u64 free[MORPH_MAX_DEVICES], most = 0;
	u32 d, i;

	for (d = 0; d < v->ndev; d++) {
		free[d] = morph_dev_free(v, d);
		if (free[d] > most)
			most = free[d];
	}
	for (i = 0; i < v->ndev; i++) {
		d = __atomic_fetch_add(&v->next_dev, 1, __ATOMIC_RELAXED) % v->ndev;
		if (morph_dev_up(v, d) && free[d] >= most / 2)
			return (int)d;
	}
	for (d = 0; d < v->ndev; d++)	/* every device up is nearly full */
		if (morph_dev_up(v, d))
			return (int)d;
	return 0;
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

int morph_unlink_replicas(struct morph_vol *v, const struct morph_state *st)
{
	char name[32];
	u32 d;
	int ret = 0;

	morph_replica_name(name, sizeof(name), st->id, 0);
	for (d = 0; d < v->ndev; d++) {
		/* one on a lost device is left for the repair pass */
		if (!(st->mask & (1u << d)) || !morph_dev_up(v, d))
			continue;
		if (unlinkat(v->dev[d].rep_fd, name, 0) && errno != ENOENT) {
			morph_err("cannot remove replica %s on device %u (%s): %s",
				  name, d, v->dev[d].path, strerror(errno));
			ret = -errno;
		}
	}
	return ret;
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

/* ---- mounting ---- */

enum label { LABEL_NONE, LABEL_OK, LABEL_BAD, LABEL_IO };

/* the device label ties a lower directory to its place in the volume */
static enum label read_label(struct morph_vol *v, u32 d, unsigned int *ver,
			     unsigned int *idx, unsigned int *cnt, int *err)
{
	struct morph_label label;
	char buf[128];
	int fd, n;

	fd = openat(v->dev[d].fd, MORPH_DEVICE_FILE, O_RDONLY);
	if (fd < 0) {
		*err = errno;
		return errno == ENOENT || errno == ENOTDIR ? LABEL_NONE : LABEL_IO;
	}
	n = (int)read(fd, buf, sizeof(buf) - 1);
	*err = errno;
	close(fd);
	if (n < 0)
		return LABEL_IO;
	buf[n] = 0;
	if (morph_label_parse(buf, &label)) {
		morph_err("lower directory %s (device %u): %s/%s is not a MorphStore device label; move it away if this directory is not part of a volume",
			  v->dev[d].path, d, v->dev[d].path, MORPH_DEVICE_FILE);
		return LABEL_BAD;
	}
	*ver = label.version;
	*idx = label.index;
	*cnt = label.count;
	return LABEL_OK;
}

/* (re)write the label of device @d at version @ver, atomically */
static int write_label(struct morph_vol *v, u32 d, unsigned int ver)
{
	static const char tmp[] = MORPH_DEVICE_FILE MORPH_TMP_SUFFIX;
	char want[128];
	int fd, n;

	n = snprintf(want, sizeof(want), "morphstore %u device %u of %u\n", ver,
		     d, v->ndev);
	fd = openat(v->dev[d].fd, tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		goto io;
	if (write(fd, want, (size_t)n) != n || fsync(fd)) {
		close(fd);
		goto io;
	}
	close(fd);
	if (renameat(v->dev[d].fd, tmp, v->dev[d].fd, MORPH_DEVICE_FILE) ||
	    fsync(v->dev[d].meta_fd))
		goto io;
	v->dev[d].label = ver;
	return 0;
io:
	morph_err("lower directory %s (device %u): cannot write %s: %s",
		  v->dev[d].path, d, MORPH_DEVICE_FILE, strerror(errno));
	return -1;
}

/* leftovers of copies interrupted by a crash are never served: drop them */
static void remove_partial_replicas(struct morph_vol *v, u32 d)
{
	int fd = openat(v->dev[d].rep_fd, ".", O_RDONLY | O_DIRECTORY);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	size_t sl = strlen(MORPH_TMP_SUFFIX);

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);

		if (n > sl && !strcmp(e->d_name + n - sl, MORPH_TMP_SUFFIX))
			unlinkat(v->dev[d].rep_fd, e->d_name, 0);
	}
	closedir(dir);
}

/*
 * The read-ahead window of the block device under a lower file system
 * (queue/read_ahead_kb in sysfs; a partition's is its disk's), which split
 * reads use to fetch ahead (reader.c).  128 KiB, the kernel's default,
 * when sysfs does not say (a file system with no block device).
 */
static u64 lower_read_ahead(dev_t dev)
{
	static const char *const where[] = {
		"/sys/dev/block/%u:%u/queue/read_ahead_kb",
		"/sys/dev/block/%u:%u/../queue/read_ahead_kb",
	};
	unsigned long kb;
	char path[96];
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), where[i], major(dev), minor(dev));
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%lu", &kb) == 1 && kb) {
			fclose(f);
			return (u64)kb << 10;
		}
		fclose(f);
	}
	return 128 << 10;
}

/* the lower root: 0, 1 if it is missing (@why says how), -1 if unusable */
static int open_root(struct morph_vol *v, u32 d, char *why, size_t len)
{
	struct morph_dev *dv = &v->dev[d];
	struct stat st;
	u32 o;

	if (stat(dv->path, &st)) {
		snprintf(why, len, "cannot be used: %s; create it (and mount its file system) or fix -o lower=",
			 strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		morph_err("lower directory %s (device %u) is not a directory; fix -o lower=",
			  dv->path, d);
		return -1;
	}
	dv->st_dev = st.st_dev;
	dv->ra_bytes = lower_read_ahead(st.st_dev);
	for (o = 0; o < d; o++)
		if (v->dev[o].fd >= 0 && v->dev[o].st_dev == st.st_dev) {
			morph_err("lower directories %s (device %u) and %s (device %u) are on the same file system (%u:%u); give each device its own file system",
				  v->dev[o].path, o, dv->path, d,
				  major(st.st_dev), minor(st.st_dev));
			return -1;
		}
	dv->fd = open(dv->path, O_RDONLY | O_DIRECTORY);
	if (dv->fd < 0) {
		snprintf(why, len, "cannot be opened: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* MORPH_DIR and what it holds, on a device that is part of the volume */
static int open_meta(struct morph_vol *v, u32 d)
{
	struct morph_dev *dv = &v->dev[d];

	if ((mkdirat(dv->fd, MORPH_DIR, 0700) && errno != EEXIST) ||
	    (mkdirat(dv->fd, MORPH_REPLICA_DIR, 0700) && errno != EEXIST) ||
	    (mkdirat(dv->fd, MORPH_NAMES_DIR, 0700) && errno != EEXIST) ||
	    faccessat(dv->fd, MORPH_DIR, W_OK, AT_EACCESS)) {
		int e = errno;

		morph_err("lower directory %s (device %u) is not writable: %s%s",
			  dv->path, d, strerror(e),
			  e == EROFS ? "; remount its file system read-write" :
			  "; give the daemon write access to it");
		return -1;
	}
	dv->meta_fd = openat(dv->fd, MORPH_DIR, O_RDONLY | O_DIRECTORY);
	dv->rep_fd = openat(dv->fd, MORPH_REPLICA_DIR, O_RDONLY | O_DIRECTORY);
	dv->names_fd = openat(dv->fd, MORPH_NAMES_DIR, O_RDONLY | O_DIRECTORY);
	if (dv->meta_fd < 0 || dv->rep_fd < 0 || dv->names_fd < 0) {
		morph_err("lower directory %s (device %u): cannot open %s: %s",
			  dv->path, d, MORPH_DIR, strerror(errno));
		return -1;
	}
	if (fsetxattr(dv->meta_fd, MORPH_XATTR_PREFIX ".probe", "1", 1, 0)) {
		int e = errno;

		morph_err("lower directory %s (device %u) has no user extended attributes (setxattr %s.probe: %s); MorphStore keeps replica state in user.* attributes: use ext2/ext4 mounted with user_xattr (their default)",
			  dv->path, d, MORPH_XATTR_PREFIX, strerror(e));
		return -1;
	}
	fremovexattr(dv->meta_fd, MORPH_XATTR_PREFIX ".probe");
	return 0;
}

/*
 * The marks found at mount: devices behind (the union over every device
 * present, then written to each, so that a device coming back learns that
 * it is behind before anything else happens), and whether the last daemon
 * died with the volume mounted.  Returns 1 if it did.
 */
static int read_marks(struct morph_vol *v)
{
	int dirty = 0;
	u32 d;

	for (d = 0; d < v->ndev; d++) {
		char buf[256];
		ssize_t n;

		if (!morph_dev_up(v, d))
			continue;
		n = fgetxattr(v->dev[d].meta_fd, MORPH_XATTR_BEHIND, buf,
			      sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = 0;
			v->behind |= morph_behind_parse(buf, v->ndev);
		}
		if (fgetxattr(v->dev[d].meta_fd, MORPH_XATTR_DIRTY, buf,
			      sizeof(buf)) >= 0)
			dirty = 1;
	}
	v->behind |= morph_lost(v);
	pthread_mutex_lock(&v->mark_lock);
	write_behind(v);
	pthread_mutex_unlock(&v->mark_lock);
	return dirty;
}

static void set_dirty(struct morph_vol *v, int on)
{
	u32 d;

	for (d = 0; d < v->ndev; d++) {
		if (!morph_dev_up(v, d) || v->dev[d].meta_fd < 0)
			continue;
		if (!on)	/* names and states first, then the mark */
			syncfs(v->dev[d].fd);
		if (on)
			fsetxattr(v->dev[d].meta_fd, MORPH_XATTR_DIRTY, "1", 1, 0);
		else
			fremovexattr(v->dev[d].meta_fd, MORPH_XATTR_DIRTY);
		fsync(v->dev[d].meta_fd);
	}
}

/*
 * Open every device.  A device that is missing (no directory, an empty
 * directory where a labelled volume expects its file system, a label that
 * cannot be read) is an error naming it, or with -o degraded is lost from
 * the start; anything else wrong (not a directory, shared file system,
 * wrong order, read-only, no user xattrs) is always an error.
 */
static int open_devices(struct morph_vol *v)
{
	char why[MORPH_MAX_DEVICES][PATH_MAX + 128];
	enum label lab[MORPH_MAX_DEVICES];
	unsigned int ver, idx, cnt;
	u32 d, missing = 0, labelled = 0;
	int ret, err;

	for (d = 0; d < v->ndev; d++) {
		ret = open_root(v, d, why[d], sizeof(why[d]));
		if (ret < 0)
			return -1;
		if (ret)
			missing |= 1u << d;
	}
	for (d = 0; d < v->ndev; d++) {
		lab[d] = LABEL_NONE;
		if (missing & (1u << d))
			continue;
		lab[d] = read_label(v, d, &ver, &idx, &cnt, &err);
		if (lab[d] == LABEL_BAD)
			return -1;
		if (lab[d] == LABEL_IO) {
			snprintf(why[d], sizeof(why[d]), "its label %s cannot be read: %s",
				 MORPH_DEVICE_FILE, strerror(err));
			missing |= 1u << d;
			continue;
		}
		if (lab[d] != LABEL_OK)
			continue;
		labelled |= 1u << d;
		v->dev[d].label = ver;
		if (ver != MORPH_FORMAT_VERSION && ver != MORPH_LABEL_NAMES) {
			morph_err("lower directory %s (device %u) has format version %u, this build reads versions %d and %d",
				  v->dev[d].path, d, ver, MORPH_FORMAT_VERSION,
				  MORPH_LABEL_NAMES);
			return -1;
		}
		if (idx != d || cnt != v->ndev) {
			morph_err("lower directory %s was device %u of %u when the volume was created, but is given as device %u of %u; list the lower directories in their original order",
				  v->dev[d].path, idx, cnt, d, v->ndev);
			return -1;
		}
	}
	if (labelled)
		for (d = 0; d < v->ndev; d++)
			if (!(missing & (1u << d)) && lab[d] == LABEL_NONE) {
				snprintf(why[d], sizeof(why[d]),
					 "holds no %s while device %u does: its file system is probably not mounted",
					 MORPH_DEVICE_FILE,
					 morph_nth_bit(labelled, 0));
				missing |= 1u << d;
			}
	if (missing && (!v->degraded_ok || !labelled ||
			morph_popcount(missing) == v->ndev)) {
		for (d = 0; d < v->ndev; d++)
			if (missing & (1u << d))
				morph_err("lower directory %s (device %u) %s%s",
					  v->dev[d].path, d, why[d],
					  !labelled ? "" : v->degraded_ok ?
					  "; no device of the volume is left" :
					  "; or mount with -o degraded to serve the volume from the other devices");
		return -1;
	}
	for (d = 0; d < v->ndev; d++)
		if (missing & (1u << d)) {
			morph_err("lower directory %s (device %u) %s; mounting degraded (-o degraded) without it",
				  v->dev[d].path, d, why[d]);
			v->lost |= 1u << d;
		}
	for (d = 0; d < v->ndev; d++)
		if (!(missing & (1u << d)) && open_meta(v, d))
			return -1;
	/* labels are written only once every device and every existing
	 * label passed its checks: a refused mount leaves none behind */
	for (d = 0; d < v->ndev; d++)
		if (!(missing & (1u << d)) && lab[d] == LABEL_NONE &&
		    write_label(v, d, MORPH_LABEL_NAMES))
			return -1;
	return 0;
}

int morph_vol_open(struct morph_vol *v, const char *lower)
{
	char *list = strdup(lower), *save = NULL, *tok;
	int dirty, old = 0;
	u32 d;

	if (!list)
		return -1;
	v->ndev = 0;
	pthread_mutex_init(&v->mark_lock, NULL);
	pthread_mutex_init(&v->names_lock, NULL);
	for (tok = strtok_r(list, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		struct morph_dev *dv;

		if (v->ndev == MORPH_MAX_DEVICES) {
			morph_err("-o lower= lists more than %d directories",
				  MORPH_MAX_DEVICES);
			free(list);
			return -1;
		}
		dv = &v->dev[v->ndev++];
		dv->fd = dv->rep_fd = dv->names_fd = dv->meta_fd = -1;
		dv->path = strdup(tok);
	}
	free(list);
	if (v->ndev < 2) {
		morph_err("-o lower= lists %u directories; MorphStore needs 2 to %d, one per device, separated by ':'",
			  v->ndev, MORPH_MAX_DEVICES);
		return -1;
	}
	if (open_devices(v))
		return -1;
	for (d = 0; d < v->ndev; d++)
		if (morph_dev_up(v, d)) {
			remove_partial_replicas(v, d);
			old |= v->dev[d].label != MORPH_LABEL_NAMES;
		}
	dirty = read_marks(v);
	set_dirty(v, 1);
	/* names are trusted only if every device present kept them */
	v->names = !old;
	if (morph_lost(v))
		return 0;
	/*
	 * Every device is here: rebuild the names and replica states if a
	 * device missed changes, the last daemon died, or the volume was
	 * last mounted without names (version 1); then copy what is stale.
	 */
	if (old || dirty || v->behind) {
		if (morph_repair(v, v->behind != 0))
			return -1;
		for (d = 0; d < v->ndev; d++)
			if (v->dev[d].label != MORPH_LABEL_NAMES &&
			    write_label(v, d, MORPH_LABEL_NAMES))
				return -1;
		v->names = 1;
	}
	return 0;
}

/* a clean unmount: the next mount need not repair */
void morph_vol_close(struct morph_vol *v)
{
	set_dirty(v, 0);
}
