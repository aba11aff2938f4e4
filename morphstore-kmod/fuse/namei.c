// SPDX-License-Identifier: Apache-2.0
/*
 * namei.c - the namespace: mknod, mkdir, symlink, readlink, unlink,
 * rmdir, rename, link.  Directories are made, renamed and removed on every
 * device; anything else lives on its master device only.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fops.h"


int mo_mknod(const char *path, mode_t mode, dev_t rdev)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int d, ret;

	if (morph_reserved(rel))
		return -EPERM;
	if (morph_locate(v, rel, &st) >= 0)
		return -EEXIST;
	d = morph_pick_device(v);
	ret = morph_make_parents(v, (u32)d, rel);
	if (ret)
		return ret;
	if (mknodat(v->dev[d].fd, rel, mode, rdev))
		return neg_errno();
	morph_give_to_caller(v->dev[d].fd, rel);
	return 0;
}

int mo_mkdir(const char *path, mode_t mode)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	u32 d, k;
	int ret;

	if (morph_reserved(rel))
		return -EPERM;
	if (morph_locate(v, rel, &st) >= 0)
		return -EEXIST;
	for (d = 0; d < v->ndev; d++) {
		ret = morph_make_parents(v, d, rel);
		if (!ret && mkdirat(v->dev[d].fd, rel, mode))
			ret = neg_errno();
		if (ret) {
			for (k = 0; k < d; k++)
				unlinkat(v->dev[k].fd, rel, AT_REMOVEDIR);
			return ret;
		}
		morph_give_to_caller(v->dev[d].fd, rel);
	}
	return 0;
}

int mo_symlink(const char *target, const char *path)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int d, ret;

	if (morph_reserved(rel))
		return -EPERM;
	if (morph_locate(v, rel, &st) >= 0)
		return -EEXIST;
	d = morph_pick_device(v);
	ret = morph_make_parents(v, (u32)d, rel);
	if (ret)
		return ret;
	if (symlinkat(target, v->dev[d].fd, rel))
		return neg_errno();
	morph_give_to_caller(v->dev[d].fd, rel);
	return 0;
}

int mo_readlink(const char *path, char *buf, size_t size)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int d = morph_locate(v, rel, &st);
	ssize_t n;

	if (d < 0)
		return d;
	n = readlinkat(v->dev[d].fd, rel, buf, size - 1);
	if (n < 0)
		return neg_errno();
	buf[n] = 0;
	return 0;
}

/* remove the non-directory @rel on @dev, and its replicas if last link */
static int remove_file(struct morph_vol *v, u32 dev, const char *rel)
{
	struct stat sb;
	struct morph_state st;
	int have_state = 0;

	if (fstatat(v->dev[dev].fd, rel, &sb, AT_SYMLINK_NOFOLLOW))
		return neg_errno();
	if (S_ISREG(sb.st_mode) && sb.st_nlink == 1)
		have_state = !morph_read_state(v, dev, rel, &st) && st.mask;
	if (unlinkat(v->dev[dev].fd, rel, 0))
		return neg_errno();
	if (have_state)
		morph_unlink_replicas(v, &st);
	return 0;
}

int mo_unlink(const char *path)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int d = morph_locate(v, rel, &st);

	if (d < 0)
		return d;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return remove_file(v, (u32)d, rel);
}

/* 0 if @rel is an empty directory (or absent) on every device */
static int dir_empty_everywhere(struct morph_vol *v, const char *rel)
{
	u32 d;

	for (d = 0; d < v->ndev; d++) {
		int fd = openat(v->dev[d].fd, rel, O_RDONLY | O_DIRECTORY);
		DIR *dir;
		struct dirent *e;
		int full = 0;

		if (fd < 0) {
			if (errno == ENOENT)
				continue;
			return neg_errno();
		}
		dir = fdopendir(fd);
		if (!dir) {
			close(fd);
			return -EIO;
		}
		while ((e = readdir(dir)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				full = 1;
				break;
			}
		closedir(dir);
		if (full)
			return -ENOTEMPTY;
	}
	return 0;
}

int mo_rmdir(const char *path)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int d = morph_locate(v, rel, &st), ret;
	u32 k;

	if (d < 0)
		return d;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (!strcmp(rel, "."))
		return -EBUSY;
	ret = dir_empty_everywhere(v, rel);
	if (ret)
		return ret;
	for (k = 0; k < v->ndev; k++)
		if (unlinkat(v->dev[k].fd, rel, AT_REMOVEDIR) && errno != ENOENT &&
		    !ret)
			ret = neg_errno();
	return ret;
}

static int rename_dir(struct morph_vol *v, const char *from, const char *to,
		      int to_exists)
{
	u32 d;
	int ret;

	if (to_exists) {
		ret = dir_empty_everywhere(v, to);
		if (ret)
			return ret;
	}
	for (d = 0; d < v->ndev; d++) {
		struct stat st;

		if (fstatat(v->dev[d].fd, from, &st, AT_SYMLINK_NOFOLLOW)) {
			unlinkat(v->dev[d].fd, to, AT_REMOVEDIR);
			continue;
		}
		ret = morph_make_parents(v, d, to);
		if (!ret && renameat(v->dev[d].fd, from, v->dev[d].fd, to))
			ret = neg_errno();
		if (ret) {
			morph_err("renaming directory /%s to /%s failed on device %u (%s): %s",
				  from, to, d, v->dev[d].path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int mo_rename(const char *path, const char *newpath, unsigned int flags)
{
	struct morph_vol *v = fuse_vol();
	const char *from = morph_rel(path), *to = morph_rel(newpath);
	struct stat sf, sto;
	struct morph_state old;
	int df, dt, ret, drop_old = 0;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if (morph_reserved(to))
		return -EPERM;
	df = morph_locate(v, from, &sf);
	if (df < 0)
		return df;
	dt = morph_locate(v, to, &sto);
	if (dt >= 0 && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (S_ISDIR(sf.st_mode)) {
		if (dt >= 0 && !S_ISDIR(sto.st_mode))
			return -ENOTDIR;
		return rename_dir(v, from, to, dt >= 0);
	}
	if (dt >= 0 && S_ISDIR(sto.st_mode))
		return -EISDIR;
	if (dt >= 0 && sf.st_dev == sto.st_dev && sf.st_ino == sto.st_ino)
		return 0;
	if (dt == df && S_ISREG(sto.st_mode) && sto.st_nlink == 1)
		drop_old = !morph_read_state(v, (u32)dt, to, &old) && old.mask;
	ret = morph_make_parents(v, (u32)df, to);
	if (ret)
		return ret;
	if (renameat(v->dev[df].fd, from, v->dev[df].fd, to))
		return neg_errno();
	if (drop_old)
		morph_unlink_replicas(v, &old);
	if (dt >= 0 && dt != df) {
		ret = remove_file(v, (u32)dt, to);
		if (ret)
			return ret;
	}
	/* copies still owed are made under the new name: a job queued under
	 * the old one finds nothing there */
	{
		struct morph_state now;

		if (!morph_read_state(v, (u32)df, to, &now) &&
		    (now.stale || morph_popcount(now.mask) + 1 < now.wanted))
			morph_replicator_queue(v, to);
	}
	return 0;
}

int mo_link(const char *path, const char *newpath)
{
	struct morph_vol *v = fuse_vol();
	const char *from = morph_rel(path), *to = morph_rel(newpath);
	struct stat st;
	int d = morph_locate(v, from, &st), ret;

	if (d < 0)
		return d;
	if (morph_reserved(to))
		return -EPERM;
	if (morph_locate(v, to, &st) >= 0)
		return -EEXIST;
	ret = morph_make_parents(v, (u32)d, to);
	if (ret)
		return ret;
	return linkat(v->dev[d].fd, from, v->dev[d].fd, to, 0) ? neg_errno() : 0;
}

