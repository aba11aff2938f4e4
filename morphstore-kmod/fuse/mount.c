// SPDX-License-Identifier: Apache-2.0
/*
 * mount.c - mounting a volume: the lower directories given are opened and
 * checked, their labels read (and written at first mount), leftover
 * temporary copies removed, and the marks read; a volume that needs it is
 * repaired (repair.c) before it is served.  Every error names the lower
 * directory, the device number and the fix.  Unmounting clears the mark
 * that says the volume is mounted.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"
#include "ondisk.h"

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
	morph_set_behind(v, v->behind | morph_lost(v));
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
	v->rio.ndev = v->ndev;
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
