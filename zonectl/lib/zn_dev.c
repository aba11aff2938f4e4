// SPDX-License-Identifier: Apache-2.0
/*
 * Opening the device: the refusals both on-disk back ends share.
 *
 * Bitmap edits are offline only (docs/zone.md, "Online vs offline"), so a
 * writer opens a block device with O_EXCL, which fails with EBUSY while it
 * is mounted; refuses an image file that a mounted loop device is backed
 * by; and takes a flock so that two zonectl never edit one file system at
 * once.  The descriptor stays open until zn_dev_close: it holds all three.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <unistd.h>
#include "zn.h"

static int open_errno(const char *path, int e)
{
	if (e == EACCES || e == EPERM || e == EROFS)
		return zn_fail(ZN_EPERM, "%s: cannot open for the needed access (%s)",
			       path, strerror(e));
	if (e == EBUSY)
		return zn_fail(ZN_EMOUNTED, "%s: device is busy (mounted?)", path);
	return zn_fail(ZN_EIO, "%s: %s", path, strerror(e));
}

/*
 * A regular-file image counts as mounted when a loop device backed by it
 * cannot be opened exclusively (a mounted file system holds it).
 */
static int image_in_use(const char *path, const struct stat *st)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int busy = 0;

	if (!d)
		return 0;
	while (!busy && (de = readdir(d))) {
		char p[512], back[4096], dev[300];
		struct stat bst;
		ssize_t n;
		int fd, lfd;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		fd = open(p, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, back, sizeof(back) - 1);
		close(fd);
		if (n <= 0)
			continue;
		back[n] = 0;
		if (back[n - 1] == '\n')
			back[n - 1] = 0;
		if (stat(back, &bst) || bst.st_dev != st->st_dev ||
		    bst.st_ino != st->st_ino)
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
		lfd = open(dev, O_RDONLY | O_EXCL);
		if (lfd < 0 && errno == EBUSY) {
			fprintf(stderr, "zonectl: %s is attached to %s, which is mounted\n",
				path, dev);
			busy = 1;
		}
		if (lfd >= 0)
			close(lfd);
	}
	closedir(d);
	return busy;
}

/*
 * Fuzz builds (zonectl/fuzz; clang defines the macro there by convention)
 * skip the loop device scan: their images are private memfds no loop device
 * holds, and the scan of /sys/block was most of each run's time.
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
static const int scan_loop_devices;
#else
static const int scan_loop_devices = 1;
#endif

int zn_dev_open(struct zn_fs *fs, const char *path, int writable)
{
	struct stat st;
	int flags = writable ? O_RDWR : O_RDONLY;

	memset(fs, 0, sizeof(*fs));
	fs->fd = -1;
	fs->path = path;
	fs->writable = writable;
	if (stat(path, &st))
		return open_errno(path, errno);
	if (S_ISBLK(st.st_mode) && writable)
		flags |= O_EXCL;	/* fails with EBUSY while mounted */
	else if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return zn_fail(ZN_ENOTEXT, "%s: neither a block device nor an image file",
			       path);
	fs->fd = open(path, flags | O_CLOEXEC);
	if (fs->fd < 0)
		return open_errno(path, errno);
	if (writable && scan_loop_devices && S_ISREG(st.st_mode) &&
	    image_in_use(path, &st)) {
		zn_dev_close(fs);
		return zn_fail(ZN_EMOUNTED, "%s: image is mounted through a loop device",
			       path);
	}
	if (writable && flock(fs->fd, LOCK_EX | LOCK_NB)) {
		zn_dev_close(fs);
		return zn_fail(ZN_EMOUNTED, "%s: another zonectl holds it", path);
	}
	return ZN_OK;
}

void zn_dev_close(struct zn_fs *fs)
{
	if (fs->fd >= 0)
		close(fs->fd);
	fs->fd = -1;
}

/*
 * The superblock's block count must fit the device: the descriptor table
 * and the bitmaps are read and written at offsets computed from it, and a
 * count that is too large (a damaged superblock, or an image cut short)
 * would have zonectl allocate a descriptor table of gigabytes, or mark in
 * use blocks that do not exist.
 */
int zn_dev_check_size(const struct zn_fs *fs, uint64_t blocks, uint32_t block_size)
{
	struct stat st;
	uint64_t bytes;

	if (fstat(fs->fd, &st))
		return zn_fail(ZN_EIO, "%s: %s", fs->path, strerror(errno));
	bytes = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fs->fd, BLKGETSIZE64, &bytes))
		return zn_fail(ZN_EIO, "%s: cannot read the device size (%s)", fs->path,
			       strerror(errno));
	if (blocks > bytes / block_size)
		return zn_fail(ZN_ECORRUPT, "%s: the superblock says %llu blocks of %u bytes, but the device holds %llu bytes",
			       fs->path, (unsigned long long)blocks, block_size,
			       (unsigned long long)bytes);
	return ZN_OK;
}
