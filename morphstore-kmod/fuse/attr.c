// SPDX-License-Identifier: Apache-2.0
/*
 * attr.c - attributes: getattr, access, chmod, chown, utimens.  Directories
 * exist on every device, so their attribute changes go to all of them (and
 * are refused while a device is lost); a file's go to its master and its
 * replicas, whose mode, owner and times are what a replica standing in for
 * a lost master shows (names.c).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fops.h"

/* the directory part of @rel ("." for a name in the root) */
static void parent_of(const char *rel, char *buf, size_t len)
{
	const char *slash = strrchr(rel, '/');
	size_t n = slash ? (size_t)(slash - rel) : 0;

	if (!n || n >= len) {
		snprintf(buf, len, ".");
		return;
	}
	memcpy(buf, rel, n);
	buf[n] = 0;
}

/*
 * The daemon (root) made @rel: it becomes the caller's, as if the caller
 * had made it on ext4.  In a set-group-ID directory it keeps the group the
 * lower file system gave it (the directory's), and the set-user-ID and
 * set-group-ID bits it was made with (the kernel has already removed those
 * the caller may not set) survive the change of owner, which clears them.
 */
void morph_give_to_caller(int dirfd, const char *rel)
{
	struct fuse_context *c = fuse_get_context();
	struct stat made, parent;
	char dir[PATH_MAX];
	gid_t gid = c->gid;

	if (fstatat(dirfd, rel, &made, AT_SYMLINK_NOFOLLOW)) {
		morph_warn("cannot give /%s to uid %u: %s", rel, c->uid,
			   strerror(errno));
		return;
	}
	parent_of(rel, dir, sizeof(dir));
	if (!fstatat(dirfd, dir, &parent, 0) && (parent.st_mode & S_ISGID))
		gid = (gid_t)-1;
	if (made.st_uid == c->uid && (gid == (gid_t)-1 || made.st_gid == gid))
		return;
	if (fchownat(dirfd, rel, c->uid, gid, AT_SYMLINK_NOFOLLOW)) {
		morph_warn("cannot give /%s to uid %u: %s", rel, c->uid,
			   strerror(errno));
		return;
	}
	if (!S_ISLNK(made.st_mode) && (made.st_mode & (S_ISUID | S_ISGID)) &&
	    fchmodat(dirfd, rel, made.st_mode & 07777, 0))
		morph_warn("cannot give /%s back its mode %04o: %s", rel,
			   made.st_mode & 07777, strerror(errno));
}

/*
 * A name was made or removed in the directory of @rel on device @dev: the
 * directory's times, which the volume shows from the first device holding
 * it, change there too (a file lives on its master device only, so its
 * directory on the first device would not see the change).
 */
void morph_dir_changed(struct morph_vol *v, u32 dev, const char *rel)
{
	static const struct timespec now[2] = { { 0, UTIME_OMIT },
						{ 0, UTIME_NOW } };
	char dir[PATH_MAX];
	struct stat st;
	int d;

	parent_of(rel, dir, sizeof(dir));
	d = morph_locate(v, dir, &st);
	if (d >= 0 && (u32)d != dev &&
	    utimensat(v->dev[d].fd, dir, now, AT_SYMLINK_NOFOLLOW))
		morph_warn("cannot update the times of directory /%s on device %d (%s): %s",
			   dir, d, v->dev[d].path, strerror(errno));
}

int mo_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();

	if (fi && fi->fh) {
		struct morph_handle *h = (void *)(uintptr_t)fi->fh;

		if (fstat(h->fd[h->ino->dev], st))
			return morph_io_error(v, h->ino->dev, neg_errno(),
					      h->name);
		if (h->ino->standin && st->st_nlink > 1)
			st->st_nlink--;
		st->st_ino = morph_volume_ino(st->st_ino, h->ino->dev);
		return 0;
	}
	if (!path)
		return -ESTALE;
	{
		int standin, d = morph_find(v, morph_rel(path), st, &standin);

		if (d < 0)
			return d;
		st->st_ino = morph_volume_ino(st->st_ino, (u32)d);
		return 0;
	}
}

int mo_access(const char *path, int mask)
{
	struct morph_vol *v = fuse_vol();
	struct stat st;
	int standin, d = morph_find(v, morph_rel(path), &st, &standin);

	(void)mask;
	return d < 0 ? d : 0;
}

/*
 * Apply @fn to the entry on every device holding it: a directory on every
 * device, a file on its master, then on its replicas (best effort).
 */
int morph_on_all(struct morph_vol *v, const char *rel,
		 int (*fn)(int dirfd, const char *rel, const void *arg),
		 const void *arg)
{
	struct stat st;
	int standin, d = morph_find(v, rel, &st, &standin), ret = 0;
	u32 k;

	if (d < 0)
		return d;
	if (standin)
		return morph_refuse_degraded(v, "changing attributes of", rel);
	if (!S_ISDIR(st.st_mode)) {
		ret = fn(v->dev[d].fd, rel, arg);
		if (ret)
			return morph_io_error(v, (u32)d, ret, rel);
		return 0;
	}
	ret = morph_refuse_degraded(v, "changing attributes of directory", rel);
	if (ret)
		return ret;
	for (k = 0; k < v->ndev; k++) {
		int r = fn(v->dev[k].fd, rel, arg);

		if (r && r != -ENOENT && !ret)
			ret = morph_io_error(v, k, r, rel);
	}
	return ret;
}

/* a file's mode, owner and times go to its replicas too */
static int on_file_and_replicas(struct morph_vol *v, const char *rel,
				int (*fn)(int dirfd, const char *rel,
					  const void *arg),
				const void *arg)
{
	int ret = morph_on_all(v, rel, fn, arg);

	if (!ret)
		morph_replicas_attr(v, rel, fn, arg);
	return ret;
}

static int do_chmod(int dirfd, const char *rel, const void *arg)
{
	return fchmodat(dirfd, rel, *(const mode_t *)arg, 0) ? neg_errno() : 0;
}

int mo_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();

	(void)fi;
	return on_file_and_replicas(v, morph_rel(path), do_chmod, &mode);
}

struct owner {
	uid_t uid;
	gid_t gid;
};

static int do_chown(int dirfd, const char *rel, const void *arg)
{
	const struct owner *o = arg;

	return fchownat(dirfd, rel, o->uid, o->gid, AT_SYMLINK_NOFOLLOW) ?
	       neg_errno() : 0;
}

int mo_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	struct owner o = { uid, gid };

	(void)fi;
	return on_file_and_replicas(v, morph_rel(path), do_chown, &o);
}

static int do_utimens(int dirfd, const char *rel, const void *arg)
{
	return utimensat(dirfd, rel, arg, AT_SYMLINK_NOFOLLOW) ? neg_errno() : 0;
}

int mo_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();

	(void)fi;
	return on_file_and_replicas(v, morph_rel(path), do_utimens, tv);
}

