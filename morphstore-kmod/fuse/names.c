// SPDX-License-Identifier: Apache-2.0
/*
 * names.c - what lets a file outlive its master's device (degraded mode).
 *
 * A volume path lives only on its master's device, and so does the
 * replication state.  So that a file whose master's device is lost can
 * still be found by name and served from a replica, every replica also
 * carries (label version 2, include/morphstore_format.h):
 *
 *   <lower k>/.morphstore/names/<path>  a hard link to replicas/<id>, one
 *                         for each name of the master; being the replica
 *                         itself, it needs no pointer that could go stale
 *   MORPH_XATTR_RSTATE    on the replica inode: the master's state, with
 *                         the replica's own stale bit
 *
 * The rule that keeps a stand-in from serving old data: a replica's own
 * state says fresh only while the replica has every write its master
 * acknowledged.  It is set stale on the replica before a write it missed
 * is acknowledged (morph_replica_missed), before it is dropped, before its
 * master takes writes while it is stale, and a new copy is written stale
 * and made fresh only after its master lists it.  When that cannot be
 * written (its device failed), the device is marked behind on every other
 * device (device.c) and none of its replicas stands in until a repair pass
 * (repair.c) has rebuilt their states from the masters.
 *
 * Names follow unlink, rename and link under vol->names_lock; a crash in
 * between leaves a name missing or at the old path, which the repair pass
 * run at the next mount (the volume is marked dirty while mounted) fixes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"

/* the missing parents of @rel under @dirfd */
static void make_dirs(int dirfd, const char *rel)
{
	char buf[PATH_MAX];
	char *s;

	if (strlen(rel) >= sizeof(buf))
		return;
	strcpy(buf, rel);
	for (s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdirat(dirfd, buf, 0700);
		*s = '/';
	}
}

/*
 * Name the replica <id> on @dev as @rel, replacing any older name there in
 * one rename (a link made beside the replica, then moved into place).
 */
int morph_name_link(struct morph_vol *v, u32 dev, u64 id, const char *rel)
{
	struct morph_dev *dv = &v->dev[dev];
	char name[32], tmp[48];
	int ret = 0;

	morph_replica_name(name, sizeof(name), id, 0);
	snprintf(tmp, sizeof(tmp), "%s.name%s", name, MORPH_TMP_SUFFIX);
	unlinkat(dv->rep_fd, tmp, 0);
	if (linkat(dv->rep_fd, name, dv->rep_fd, tmp, 0))
		return -errno;
	make_dirs(dv->names_fd, rel);
	if (renameat(dv->rep_fd, tmp, dv->names_fd, rel))
		ret = -errno;
	/* renaming a link onto another link of the same file does nothing */
	unlinkat(dv->rep_fd, tmp, 0);
	if (ret)
		morph_err("cannot name the replica of /%s on device %u (%s): %s",
			  rel, dev, dv->path, strerror(-ret));
	return ret;
}

/* fsync the directory holding @rel below @dirfd; 0 or -errno */
int morph_sync_parent_at(int dirfd, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	char dir[PATH_MAX];
	int fd, ret = 0;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - rel) : 1,
		 slash ? rel : ".");
	fd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		ret = errno ? -errno : -EIO;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* fsync the directory holding the replica name of /@rel on @dev */
int morph_name_sync(struct morph_vol *v, u32 dev, const char *rel)
{
	return morph_sync_parent_at(v->dev[dev].names_fd, rel);
}

void morph_names_unlink(struct morph_vol *v, u32 devs, const char *rel)
{
	u32 d;

	for (d = 0; d < v->ndev; d++)
		if ((devs & (1u << d)) && morph_dev_up(v, d) &&
		    unlinkat(v->dev[d].names_fd, rel, 0) && errno != ENOENT)
			morph_err("cannot remove the replica name /%s on device %u (%s): %s",
				  rel, d, v->dev[d].path, strerror(errno));
}

void morph_names_rename(struct morph_vol *v, u32 devs, const char *from,
			const char *to)
{
	u32 d;

	for (d = 0; d < v->ndev; d++) {
		if (!(devs & (1u << d)) || !morph_dev_up(v, d))
			continue;
		make_dirs(v->dev[d].names_fd, to);
		if (renameat(v->dev[d].names_fd, from, v->dev[d].names_fd, to) &&
		    errno != ENOENT)
			morph_err("cannot rename the replica name /%s to /%s on device %u (%s): %s",
				  from, to, d, v->dev[d].path, strerror(errno));
	}
}

/* the replica on @dev (open as @fd) of a master whose state is @st */
int morph_rstate_write(struct morph_vol *v, u32 dev, int fd,
		       const struct morph_state *st, int fresh, int sync)
{
	struct morph_state r = *st;
	u8 buf[MORPH_STATE_SIZE];

	(void)v;
	r.mask |= 1u << dev;
	r.stale = fresh ? 0 : 1u << dev;
	morph_state_encode(&r, buf);
	if (fsetxattr(fd, MORPH_XATTR_RSTATE, buf, sizeof(buf), 0))
		return -errno;
	if (sync && fsync(fd))
		return -errno;
	return 0;
}

int morph_rstate_read(struct morph_vol *v, u32 dev, int fd,
		      struct morph_state *st)
{
	u8 buf[MORPH_STATE_SIZE + 16];
	ssize_t n = fgetxattr(fd, MORPH_XATTR_RSTATE, buf, sizeof(buf));

	if (n < 0)
		return -errno;
	if (morph_state_decode(buf, (size_t)n, v->ndev, st) ||
	    !(st->mask & (1u << dev)))
		return -EINVAL;
	return 0;
}

/*
 * Under ino->mu: the replica on @dev (open as @fd, or -1) missed a change
 * its master took.  It must say so itself before the change is
 * acknowledged; if it cannot, its whole device is marked behind.
 */
void morph_replica_missed(struct morph_vol *v, struct morph_inode *ino,
			  u32 dev, int fd)
{
	u32 bit = 1u << dev;
	char name[32];
	int own = -1, ret;

	__atomic_or_fetch(&ino->rf.failed, bit, __ATOMIC_SEQ_CST);
	if (!morph_dev_up(v, dev) || (ino->rstale & bit))
		return;
	if (fd < 0) {
		morph_replica_name(name, sizeof(name), ino->rf.st.id, 0);
		fd = own = openat(v->dev[dev].rep_fd, name, O_RDONLY);
		if (fd < 0 && errno == ENOENT) {
			ino->rstale |= bit;	/* nothing there to serve */
			return;
		}
	}
	ret = fd < 0 ? -errno : morph_rstate_write(v, dev, fd, &ino->rf.st, 0, 0);
	if (own >= 0)
		close(own);
	if (!ret) {
		ino->rstale |= bit;
		return;
	}
	morph_io_error(v, dev, ret, "(a replica's " MORPH_XATTR_RSTATE ")");
	if (morph_dev_up(v, dev)) {
		morph_err("cannot mark a replica on device %u (%s) stale: %s; none of that device's replicas stands in for a lost master until the next repair",
			  dev, v->dev[dev].path, strerror(-ret));
		morph_mark_behind(v, bit);
	}
}

/* apply @fn to every replica of @rel on a device that is up */
void morph_replicas_attr(struct morph_vol *v, const char *rel,
			 int (*fn)(int dirfd, const char *name,
				   const void *arg),
			 const void *arg)
{
	struct morph_state st;
	struct stat sb;
	char name[32];
	int m = morph_locate(v, rel, &sb);
	u32 d;

	if (m < 0 || !S_ISREG(sb.st_mode) ||
	    morph_read_state(v, (u32)m, rel, &st) || !st.mask)
		return;
	morph_replica_name(name, sizeof(name), st.id, 0);
	for (d = 0; d < v->ndev; d++)
		if ((st.mask & (1u << d)) && morph_dev_up(v, d))
			fn(v->dev[d].rep_fd, name, arg);
}

/*
 * @rel on the volume: its master's device, or, while its master's device
 * is lost, a device whose fresh replica stands in for it (*@standin set;
 * @st is the replica's, with the link count of the master).  -EIO if the
 * file exists but no copy that is up may be served.
 */
int morph_find(struct morph_vol *v, const char *rel, struct stat *st,
	       int *standin)
{
	int m = morph_locate(v, rel, st), stale = -1;
	u32 lost = morph_lost(v), behind, j;

	*standin = 0;
	if (m >= 0 || !lost || (m != -ENOENT && m != -EIO))
		return m;
	if (!v->names) {
		if (m == -EIO)
			morph_err("/%s is on a lost device only (and the volume keeps no replica names yet: it was last mounted without them)",
				  rel);
		return m;
	}
	behind = __atomic_load_n(&v->behind, __ATOMIC_SEQ_CST);
	for (j = 0; j < v->ndev; j++) {
		struct morph_state r;
		struct stat s;
		int fd, ret;

		if (!morph_dev_up(v, j) ||
		    fstatat(v->dev[j].names_fd, rel, &s, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(s.st_mode))
			continue;
		fd = openat(v->dev[j].names_fd, rel, O_RDONLY | O_NOFOLLOW);
		if (fd < 0) {
			morph_io_error(v, j, -errno, rel);
			continue;
		}
		ret = morph_rstate_read(v, j, fd, &r);
		close(fd);
		/* a name whose master's device is up is left over: the
		 * master, not found, decides */
		if (ret || !(lost & (1u << r.master)))
			continue;
		if ((r.stale & (1u << j)) || (behind & (1u << j))) {
			stale = (int)j;
			continue;
		}
		*st = s;
		if (st->st_nlink > 1)
			st->st_nlink--;		/* the replica's own name */
		*standin = 1;
		return (int)j;
	}
	if (stale >= 0)
		morph_err("/%s cannot be read: its master's device is lost and its replica on device %d (%s) is stale",
			  rel, stale, v->dev[stale].path);
	else if (m == -EIO)
		morph_err("/%s cannot be read: its only copy is on a lost device", rel);
	return stale >= 0 ? -EIO : m;
}
