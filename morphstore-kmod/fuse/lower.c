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

char *morph_full_path(struct morph_vol *v, u32 dev, const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", v->dev[dev].path, rel) < 0)
		return NULL;
	return p;
}

void morph_replica_name(char *buf, size_t len, u64 id, int tmp)
{
	snprintf(buf, len, "%016llx%s", (unsigned long long)id,
		 tmp ? MORPH_TMP_SUFFIX : "");
}

/* first device holding @rel; directories are found on device 0 */
int morph_locate(struct morph_vol *v, const char *rel, struct stat *st)
{
	u32 d;

	if (morph_reserved(rel))
		return -ENOENT;
	for (d = 0; d < v->ndev; d++)
		if (!fstatat(v->dev[d].fd, rel, st, AT_SYMLINK_NOFOLLOW))
			return (int)d;
	return -ENOENT;
}

u64 morph_dev_free(struct morph_vol *v, u32 dev)
{
	struct statvfs s;

	if (fstatvfs(v->dev[dev].rep_fd, &s))
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
		if (free[d] >= most / 2)
			return (int)d;
	}
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
				if (!fstatat(v->dev[d].fd, buf, &st,
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
		if (!(st->mask & (1u << d)))
			continue;
		if (unlinkat(v->dev[d].rep_fd, name, 0) && errno != ENOENT) {
			morph_err("cannot remove replica %s on device %u (%s): %s",
				  name, d, v->dev[d].path, strerror(errno));
			ret = -errno;
		}
	}
	return ret;
}

/* the device label ties a lower directory to its place in the volume */
/* @write 0: check an existing label; @write 1: write a missing one */
static int check_label(struct morph_vol *v, u32 d, int write_missing)
{
	char buf[128], want[128];
	int fd, n;
	unsigned int ver, idx, cnt;

	snprintf(want, sizeof(want), "morphstore %d device %u of %u\n",
		 MORPH_FORMAT_VERSION, d, v->ndev);
	fd = openat(v->dev[d].fd, MORPH_DEVICE_FILE, O_RDONLY);
	if (fd < 0) {
		if (errno != ENOENT)
			goto io;
		if (!write_missing)
			return 0;
		fd = openat(v->dev[d].fd, MORPH_DEVICE_FILE,
			    O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			goto io;
		n = (int)strlen(want);
		if (write(fd, want, n) != n || fsync(fd)) {
			close(fd);
			goto io;
		}
		close(fd);
		return 0;
	}
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		goto io;
	buf[n] = 0;
	if (sscanf(buf, "morphstore %u device %u of %u", &ver, &idx, &cnt) != 3) {
		morph_err("lower directory %s (device %u): %s/%s is not a MorphStore device label; move it away if this directory is not part of a volume",
			  v->dev[d].path, d, v->dev[d].path, MORPH_DEVICE_FILE);
		return -1;
	}
	if (ver != MORPH_FORMAT_VERSION) {
		morph_err("lower directory %s (device %u) has format version %u, this build reads version %d",
			  v->dev[d].path, d, ver, MORPH_FORMAT_VERSION);
		return -1;
	}
	if (idx != d || cnt != v->ndev) {
		morph_err("lower directory %s was device %u of %u when the volume was created, but is given as device %u of %u; list the lower directories in their original order",
			  v->dev[d].path, idx, cnt, d, v->ndev);
		return -1;
	}
	return 0;
io:
	morph_err("lower directory %s (device %u): cannot use %s: %s",
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

static int open_device(struct morph_vol *v, u32 d)
{
	struct morph_dev *dv = &v->dev[d];
	struct stat st;
	u32 o;

	if (stat(dv->path, &st)) {
		morph_err("lower directory %s (device %u) cannot be used: %s; create it (and mount its file system) or fix -o lower=",
			  dv->path, d, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		morph_err("lower directory %s (device %u) is not a directory; fix -o lower=",
			  dv->path, d);
		return -1;
	}
	dv->st_dev = st.st_dev;
	for (o = 0; o < d; o++)
		if (v->dev[o].st_dev == st.st_dev) {
			morph_err("lower directories %s (device %u) and %s (device %u) are on the same file system (%u:%u); give each device its own file system",
				  v->dev[o].path, o, dv->path, d,
				  major(st.st_dev), minor(st.st_dev));
			return -1;
		}
	dv->fd = open(dv->path, O_RDONLY | O_DIRECTORY);
	if (dv->fd < 0) {
		morph_err("lower directory %s (device %u) cannot be opened: %s",
			  dv->path, d, strerror(errno));
		return -1;
	}
	if ((mkdirat(dv->fd, MORPH_DIR, 0700) && errno != EEXIST) ||
	    (mkdirat(dv->fd, MORPH_REPLICA_DIR, 0700) && errno != EEXIST) ||
	    faccessat(dv->fd, MORPH_DIR, W_OK, AT_EACCESS)) {
		int e = errno;

		morph_err("lower directory %s (device %u) is not writable: %s%s",
			  dv->path, d, strerror(e),
			  e == EROFS ? "; remount its file system read-write" :
			  "; give the daemon write access to it");
		return -1;
	}
	dv->rep_fd = openat(dv->fd, MORPH_REPLICA_DIR, O_RDONLY | O_DIRECTORY);
	if (dv->rep_fd < 0) {
		morph_err("lower directory %s (device %u): cannot open %s: %s",
			  dv->path, d, MORPH_REPLICA_DIR, strerror(errno));
		return -1;
	}
	{
		char *probe = morph_full_path(v, d, MORPH_DIR);

		if (!probe || setxattr(probe, MORPH_XATTR_PREFIX ".probe", "1",
				       1, 0)) {
			int e = errno;

			morph_err("lower directory %s (device %u) has no user extended attributes (setxattr %s.probe: %s); MorphStore keeps replica state in user.* attributes: use ext2/ext4 mounted with user_xattr (their default)",
				  dv->path, d, MORPH_XATTR_PREFIX, strerror(e));
			free(probe);
			return -1;
		}
		removexattr(probe, MORPH_XATTR_PREFIX ".probe");
		free(probe);
	}
	return 0;
}

int morph_vol_open(struct morph_vol *v, const char *lower)
{
	char *list = strdup(lower), *save = NULL, *tok;
	u32 d;

	if (!list)
		return -1;
	v->ndev = 0;
	for (tok = strtok_r(list, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		if (v->ndev == MORPH_MAX_DEVICES) {
			morph_err("-o lower= lists more than %d directories",
				  MORPH_MAX_DEVICES);
			free(list);
			return -1;
		}
		v->dev[v->ndev].fd = v->dev[v->ndev].rep_fd = -1;
		v->dev[v->ndev++].path = strdup(tok);
	}
	free(list);
	if (v->ndev < 2) {
		morph_err("-o lower= lists %u directories; MorphStore needs 2 to %d, one per device, separated by ':'",
			  v->ndev, MORPH_MAX_DEVICES);
		return -1;
	}
	for (d = 0; d < v->ndev; d++)
		if (open_device(v, d))
			return -1;
	/* labels are written only once every device and every existing
	 * label passed its checks: a refused mount leaves none behind */
	for (d = 0; d < v->ndev; d++)
		if (check_label(v, d, 0))
			return -1;
	for (d = 0; d < v->ndev; d++)
		if (check_label(v, d, 1))
			return -1;
	for (d = 0; d < v->ndev; d++)
		remove_partial_replicas(v, d);
	return 0;
}
