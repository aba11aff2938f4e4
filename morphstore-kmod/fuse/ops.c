// SPDX-License-Identifier: Apache-2.0
/*
 * ops.c - the POSIX file and directory operations of the FUSE front end.
 *
 * Directories live on every device, so directory operations are applied to
 * all of them; anything else lives on its master device only.  Reads are
 * routed by the LAAS scheduler over the file's current copies; writes and
 * truncates go to every copy inside a write session (inode.c).
 */
#define FUSE_USE_VERSION 31
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"

#define V morph_vol

static const char *const policy_names[] = {
	[MORPH_LAAS_ADAPTIVE] = "adaptive",
	[MORPH_LAAS_STRIPE] = "stripe",
	[MORPH_LAAS_MIRROR] = "mirror",
};

static int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

static void give_to_caller(int dirfd, const char *rel)
{
	struct fuse_context *c = fuse_get_context();

	if (fchownat(dirfd, rel, c->uid, c->gid, AT_SYMLINK_NOFOLLOW))
		morph_warn("cannot give /%s to uid %u: %s", rel, c->uid,
			   strerror(errno));
}

/* ---- attributes ---- */

static int mo_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	if (fi && fi->fh) {
		struct morph_handle *h = (void *)(uintptr_t)fi->fh;

		return fstat(h->fd[h->ino->dev], st) ? neg_errno() : 0;
	}
	if (!path)
		return -ESTALE;
	return morph_locate(V, morph_rel(path), st) < 0 ? -ENOENT : 0;
}

static int mo_access(const char *path, int mask)
{
	struct stat st;

	(void)mask;
	return morph_locate(V, morph_rel(path), &st) < 0 ? -ENOENT : 0;
}

/* apply @fn to the entry on every device holding it */
static int on_all(const char *rel, int (*fn)(int dirfd, const char *rel,
					     const void *arg), const void *arg)
{
	struct stat st;
	int d = morph_locate(V, rel, &st), ret = 0;
	u32 k;

	if (d < 0)
		return d;
	if (!S_ISDIR(st.st_mode))
		return fn(V->dev[d].fd, rel, arg);
	for (k = 0; k < V->ndev; k++) {
		int r = fn(V->dev[k].fd, rel, arg);

		if (r && r != -ENOENT && !ret)
			ret = r;
	}
	return ret;
}

static int do_chmod(int dirfd, const char *rel, const void *arg)
{
	return fchmodat(dirfd, rel, *(const mode_t *)arg, 0) ? neg_errno() : 0;
}

static int mo_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	(void)fi;
	return on_all(morph_rel(path), do_chmod, &mode);
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

static int mo_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	struct owner o = { uid, gid };

	(void)fi;
	return on_all(morph_rel(path), do_chown, &o);
}

static int do_utimens(int dirfd, const char *rel, const void *arg)
{
	return utimensat(dirfd, rel, arg, AT_SYMLINK_NOFOLLOW) ? neg_errno() : 0;
}

static int mo_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	(void)fi;
	return on_all(morph_rel(path), do_utimens, tv);
}

/* ---- content changes: every copy, inside a write session ---- */

/* under ino->mu; @fd holds a descriptor for every device in session_mask */
static int truncate_copies(struct morph_inode *ino, const int *fd, off_t size)
{
	u32 d;
	int ret = morph_session_begin(V, ino);

	if (ret)
		return ret;
	if (ftruncate(fd[ino->dev], size))
		return neg_errno();
	for (d = 0; d < V->ndev; d++) {
		if (!(ino->session_mask & ~ino->failed & (1u << d)))
			continue;
		if (fd[d] < 0 || ftruncate(fd[d], size)) {
			morph_err("truncating the replica on device %u (%s) failed: %s; it is stale until re-copied",
				  d, V->dev[d].path, strerror(errno));
			__atomic_or_fetch(&ino->failed, 1u << d, __ATOMIC_SEQ_CST);
		}
	}
	ino->gen++;
	return 0;
}

static int mo_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	const char *rel;
	struct morph_inode *ino;
	int fd[MORPH_MAX_DEVICES], ret;
	char name[32];
	u32 d;

	if (fi && fi->fh) {
		struct morph_handle *h = (void *)(uintptr_t)fi->fh;

		pthread_mutex_lock(&h->ino->mu);
		ret = truncate_copies(h->ino, h->fd, size);
		if (!h->ino->writers)
			morph_session_end(V, h->ino);
		pthread_mutex_unlock(&h->ino->mu);
		return ret;
	}
	if (!path)
		return -ESTALE;
	rel = morph_rel(path);
	ret = morph_inode_get_path(V, rel, &ino);
	if (ret)
		return ret == -EPERM ? -EISDIR : ret;
	pthread_mutex_lock(&ino->mu);
	morph_replica_name(name, sizeof(name), ino->st.id, 0);
	for (d = 0; d < V->ndev; d++)
		fd[d] = (ino->st.mask & ~ino->st.stale & (1u << d)) ?
			openat(V->dev[d].rep_fd, name, O_WRONLY) : -1;
	fd[ino->dev] = ino->xfd;
	ret = truncate_copies(ino, fd, size);
	if (!ino->writers)
		morph_session_end(V, ino);
	pthread_mutex_unlock(&ino->mu);
	for (d = 0; d < V->ndev; d++)
		if (fd[d] >= 0 && d != ino->dev)
			close(fd[d]);
	morph_inode_put(V, ino);
	return ret;
}

/* ---- open files ---- */

static void close_handle(struct morph_handle *h)
{
	u32 d;

	for (d = 0; d < V->ndev; d++) {
		if (h->fd[d] >= 0)
			close(h->fd[d]);
		if (h->rfd[d] >= 0)
			close(h->rfd[d]);
	}
	free(h->name);
	free(h);
}

/* build the handle of master @fd on @dev; takes ownership of @fd */
static int setup_handle(u32 dev, int fd, const char *rel,
			struct fuse_file_info *fi)
{
	struct morph_handle *h = calloc(1, sizeof(*h));
	struct morph_inode *ino;
	int acc = fi->flags & O_ACCMODE, ret, resync;
	char name[32];
	u32 d;

	if (!h) {
		close(fd);
		return -ENOMEM;
	}
	for (d = 0; d < MORPH_MAX_DEVICES; d++)
		h->fd[d] = h->rfd[d] = -1;
	h->fd[dev] = fd;
	h->writable = acc != O_RDONLY;
	h->name = strdup(rel);
	if (!h->name) {
		close_handle(h);
		return -ENOMEM;
	}
	ret = morph_inode_get(V, dev, fd, &ino);
	if (ret) {
		close_handle(h);
		return ret;
	}
	h->ino = ino;
	pthread_mutex_lock(&ino->mu);
	if (h->writable)
		ino->writers++;
	h->copies = ino->state_bad ? 1u << dev :
		    morph_state_readable(&ino->st) & ~ino->failed;
	morph_replica_name(name, sizeof(name), ino->st.id, 0);
	for (d = 0; d < V->ndev; d++) {
		if (d == dev || !(h->copies & (1u << d)))
			continue;
		h->fd[d] = openat(V->dev[d].rep_fd, name,
				  h->writable ? O_RDWR : O_RDONLY);
		if (h->fd[d] < 0) {
			morph_err("replica of /%s on device %u (%s) cannot be opened: %s; not serving it",
				  rel, d, V->dev[d].path, strerror(errno));
			h->copies &= ~(1u << d);
			__atomic_or_fetch(&ino->failed, 1u << d,
					  __ATOMIC_SEQ_CST);
		}
	}
	resync = !ino->state_bad && !ino->writers &&
		 (ino->st.stale || morph_popcount(ino->st.mask) + 1 !=
		  ino->st.wanted);
	pthread_mutex_unlock(&ino->mu);
	if (morph_popcount(h->copies) > 1)
		for (d = 0; d < V->ndev; d++) {
			char self[64];

			if (!(h->copies & (1u << d)))
				continue;
			snprintf(self, sizeof(self), "/proc/self/fd/%d",
				 h->fd[d]);
			h->rfd[d] = open(self, O_RDONLY);
			if (h->rfd[d] >= 0)
				posix_fadvise(h->rfd[d], 0, 0,
					      POSIX_FADV_RANDOM);
			else
				h->copies &= ~(1u << d) | (1u << dev);
		}
	pthread_mutex_lock(&V->lock);
	morph_laas_open(&V->laas, &ino->laas);
	pthread_mutex_unlock(&V->lock);
	fi->fh = (uintptr_t)h;
	fi->direct_io = V->direct_io;
	if (resync)
		morph_replicator_queue(V, rel);
	return 0;
}

static int lower_flags(int flags)
{
	return (flags & (O_ACCMODE | O_SYNC | O_DSYNC | O_NOATIME)) |
	       O_NOFOLLOW;
}

static int mo_release(const char *path, struct fuse_file_info *fi);

static int mo_open(const char *path, struct fuse_file_info *fi)
{
	const char *rel = morph_rel(path);
	struct morph_handle *h;
	struct stat st;
	int d = morph_locate(V, rel, &st), fd, ret;

	if (d < 0)
		return d;
	fd = openat(V->dev[d].fd, rel, lower_flags(fi->flags));
	if (fd < 0)
		return neg_errno();
	ret = setup_handle((u32)d, fd, rel, fi);
	if (ret || !(fi->flags & O_TRUNC))
		return ret;
	/* libfuse passes O_TRUNC to open (atomic_o_trunc): every copy */
	h = (void *)(uintptr_t)fi->fh;
	pthread_mutex_lock(&h->ino->mu);
	ret = truncate_copies(h->ino, h->fd, 0);
	pthread_mutex_unlock(&h->ino->mu);
	if (ret) {
		mo_release(path, fi);
		fi->fh = 0;
	}
	return ret;
}

static int mo_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	const char *rel = morph_rel(path);
	struct stat st;
	int d, fd, ret;

	if (morph_reserved(rel))
		return -EPERM;
	d = morph_locate(V, rel, &st);
	if (d >= 0) {
		if (fi->flags & O_EXCL)
			return -EEXIST;
		return mo_open(path, fi);
	}
	d = morph_pick_device(V);
	ret = morph_make_parents(V, (u32)d, rel);
	if (ret)
		return ret;
	fd = openat(V->dev[d].fd, rel, lower_flags(fi->flags) | O_CREAT | O_EXCL,
		    mode);
	if (fd < 0)
		return neg_errno();
	give_to_caller(V->dev[d].fd, rel);
	return setup_handle((u32)d, fd, rel, fi);
}

static int mo_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	struct morph_inode *ino = h->ino;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 copies, n;

	(void)path;
	copies = h->copies & ~__atomic_load_n(&ino->failed, __ATOMIC_SEQ_CST);
	copies |= 1u << ino->dev;
	pthread_mutex_lock(&V->lock);
	n = morph_laas_route(&V->laas, &ino->laas, copies, (u64)off, size, seg,
			     MORPH_MAX_DEVICES);
	pthread_mutex_unlock(&V->lock);
	__atomic_add_fetch(&ino->reads, 1, __ATOMIC_RELAXED);
	if (!n)
		return 0;
	return (int)morph_read_segments(V, h, buf, (u64)off, seg, n);
}

static ssize_t write_all(int fd, const char *buf, size_t size, off_t off)
{
	size_t at = 0;

	while (at < size) {
		ssize_t n = pwrite(fd, buf + at, size - at, off + (off_t)at);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return at ? (ssize_t)at : -errno;
		}
		at += (size_t)n;
	}
	return (ssize_t)at;
}

static int mo_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	struct morph_inode *ino = h->ino;
	ssize_t n, r;
	int ret;
	u32 d;

	pthread_mutex_lock(&ino->mu);
	ret = morph_session_begin(V, ino);
	if (ret) {
		pthread_mutex_unlock(&ino->mu);
		morph_err("not writing /%s: its replicas could not be marked stale first",
			  h->name);
		return ret;
	}
	(void)path;
	n = write_all(h->fd[ino->dev], buf, size, off);
	if (n > 0) {
		for (d = 0; d < V->ndev; d++) {
			if (!(ino->session_mask & ~ino->failed & (1u << d)))
				continue;
			r = h->fd[d] >= 0 ? write_all(h->fd[d], buf, (size_t)n, off)
					  : -EBADF;
			if (r != n) {
				morph_err("write to the replica of /%s on device %u (%s) failed: %s; the replica is stale until re-copied",
					  h->name, d, V->dev[d].path,
					  r < 0 ? strerror((int)-r) : "short write");
				__atomic_or_fetch(&ino->failed, 1u << d,
						  __ATOMIC_SEQ_CST);
			}
		}
		ino->gen++;
	}
	pthread_mutex_unlock(&ino->mu);
	__atomic_add_fetch(&ino->writes, 1, __ATOMIC_RELAXED);
	return (int)n;
}

static int mo_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	u32 d;
	int ret = 0;

	(void)path;
	for (d = 0; d < V->ndev; d++) {
		if (h->fd[d] < 0)
			continue;
		if ((datasync ? fdatasync(h->fd[d]) : fsync(h->fd[d])) &&
		    d == h->ino->dev)
			ret = neg_errno();
	}
	return ret;
}

static int mo_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return 0;
}

static int mo_release(const char *path, struct fuse_file_info *fi)
{
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	struct morph_inode *ino = h->ino;
	int resync;

	pthread_mutex_lock(&V->lock);
	morph_laas_close(&V->laas, &ino->laas);
	pthread_mutex_unlock(&V->lock);
	pthread_mutex_lock(&ino->mu);
	if (h->writable && --ino->writers == 0)
		morph_session_end(V, ino);
	resync = !ino->writers && ino->st.stale && !ino->state_bad;
	pthread_mutex_unlock(&ino->mu);
	(void)path;
	if (resync)	/* by its name at open; a renamed file waits for its next open */
		morph_replicator_queue(V, h->name);
	h->ino = NULL;
	close_handle(h);
	morph_inode_put(V, ino);
	return 0;
}

/* ---- namespace ---- */

static int mo_mknod(const char *path, mode_t mode, dev_t rdev)
{
	const char *rel = morph_rel(path);
	struct stat st;
	int d, ret;

	if (morph_reserved(rel))
		return -EPERM;
	if (morph_locate(V, rel, &st) >= 0)
		return -EEXIST;
	d = morph_pick_device(V);
	ret = morph_make_parents(V, (u32)d, rel);
	if (ret)
		return ret;
	if (mknodat(V->dev[d].fd, rel, mode, rdev))
		return neg_errno();
	give_to_caller(V->dev[d].fd, rel);
	return 0;
}

static int mo_mkdir(const char *path, mode_t mode)
{
	const char *rel = morph_rel(path);
	struct stat st;
	u32 d, k;
	int ret;

	if (morph_reserved(rel))
		return -EPERM;
	if (morph_locate(V, rel, &st) >= 0)
		return -EEXIST;
	for (d = 0; d < V->ndev; d++) {
		ret = morph_make_parents(V, d, rel);
		if (!ret && mkdirat(V->dev[d].fd, rel, mode))
			ret = neg_errno();
		if (ret) {
			for (k = 0; k < d; k++)
				unlinkat(V->dev[k].fd, rel, AT_REMOVEDIR);
			return ret;
		}
		give_to_caller(V->dev[d].fd, rel);
	}
	return 0;
}

static int mo_symlink(const char *target, const char *path)
{
	const char *rel = morph_rel(path);
	struct stat st;
	int d, ret;

	if (morph_reserved(rel))
		return -EPERM;
	if (morph_locate(V, rel, &st) >= 0)
		return -EEXIST;
	d = morph_pick_device(V);
	ret = morph_make_parents(V, (u32)d, rel);
	if (ret)
		return ret;
	if (symlinkat(target, V->dev[d].fd, rel))
		return neg_errno();
	give_to_caller(V->dev[d].fd, rel);
	return 0;
}

static int mo_readlink(const char *path, char *buf, size_t size)
{
	const char *rel = morph_rel(path);
	struct stat st;
	int d = morph_locate(V, rel, &st);
	ssize_t n;

	if (d < 0)
		return d;
	n = readlinkat(V->dev[d].fd, rel, buf, size - 1);
	if (n < 0)
		return neg_errno();
	buf[n] = 0;
	return 0;
}

/* remove the non-directory @rel on @dev, and its replicas if last link */
static int remove_file(u32 dev, const char *rel)
{
	struct stat sb;
	struct morph_state st;
	int have_state = 0;

	if (fstatat(V->dev[dev].fd, rel, &sb, AT_SYMLINK_NOFOLLOW))
		return neg_errno();
	if (S_ISREG(sb.st_mode) && sb.st_nlink == 1)
		have_state = !morph_read_state(V, dev, rel, &st) && st.mask;
	if (unlinkat(V->dev[dev].fd, rel, 0))
		return neg_errno();
	if (have_state)
		morph_unlink_replicas(V, &st);
	return 0;
}

static int mo_unlink(const char *path)
{
	const char *rel = morph_rel(path);
	struct stat st;
	int d = morph_locate(V, rel, &st);

	if (d < 0)
		return d;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return remove_file((u32)d, rel);
}

/* 0 if @rel is an empty directory (or absent) on every device */
static int dir_empty_everywhere(const char *rel)
{
	u32 d;

	for (d = 0; d < V->ndev; d++) {
		int fd = openat(V->dev[d].fd, rel, O_RDONLY | O_DIRECTORY);
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

static int mo_rmdir(const char *path)
{
	const char *rel = morph_rel(path);
	struct stat st;
	int d = morph_locate(V, rel, &st), ret;
	u32 k;

	if (d < 0)
		return d;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (!strcmp(rel, "."))
		return -EBUSY;
	ret = dir_empty_everywhere(rel);
	if (ret)
		return ret;
	for (k = 0; k < V->ndev; k++)
		if (unlinkat(V->dev[k].fd, rel, AT_REMOVEDIR) && errno != ENOENT &&
		    !ret)
			ret = neg_errno();
	return ret;
}

static int rename_dir(const char *from, const char *to, int to_exists)
{
	u32 d;
	int ret;

	if (to_exists) {
		ret = dir_empty_everywhere(to);
		if (ret)
			return ret;
	}
	for (d = 0; d < V->ndev; d++) {
		struct stat st;

		if (fstatat(V->dev[d].fd, from, &st, AT_SYMLINK_NOFOLLOW)) {
			unlinkat(V->dev[d].fd, to, AT_REMOVEDIR);
			continue;
		}
		ret = morph_make_parents(V, d, to);
		if (!ret && renameat(V->dev[d].fd, from, V->dev[d].fd, to))
			ret = neg_errno();
		if (ret) {
			morph_err("renaming directory /%s to /%s failed on device %u (%s): %s",
				  from, to, d, V->dev[d].path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int mo_rename(const char *path, const char *newpath, unsigned int flags)
{
	const char *from = morph_rel(path), *to = morph_rel(newpath);
	struct stat sf, sto;
	struct morph_state old;
	int df, dt, ret, drop_old = 0;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if (morph_reserved(to))
		return -EPERM;
	df = morph_locate(V, from, &sf);
	if (df < 0)
		return df;
	dt = morph_locate(V, to, &sto);
	if (dt >= 0 && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (S_ISDIR(sf.st_mode)) {
		if (dt >= 0 && !S_ISDIR(sto.st_mode))
			return -ENOTDIR;
		return rename_dir(from, to, dt >= 0);
	}
	if (dt >= 0 && S_ISDIR(sto.st_mode))
		return -EISDIR;
	if (dt >= 0 && sf.st_dev == sto.st_dev && sf.st_ino == sto.st_ino)
		return 0;
	if (dt == df && S_ISREG(sto.st_mode) && sto.st_nlink == 1)
		drop_old = !morph_read_state(V, (u32)dt, to, &old) && old.mask;
	ret = morph_make_parents(V, (u32)df, to);
	if (ret)
		return ret;
	if (renameat(V->dev[df].fd, from, V->dev[df].fd, to))
		return neg_errno();
	if (drop_old)
		morph_unlink_replicas(V, &old);
	if (dt >= 0 && dt != df)
		return remove_file((u32)dt, to);
	return 0;
}

static int mo_link(const char *path, const char *newpath)
{
	const char *from = morph_rel(path), *to = morph_rel(newpath);
	struct stat st;
	int d = morph_locate(V, from, &st), ret;

	if (d < 0)
		return d;
	if (morph_reserved(to))
		return -EPERM;
	if (morph_locate(V, to, &st) >= 0)
		return -EEXIST;
	ret = morph_make_parents(V, (u32)d, to);
	if (ret)
		return ret;
	return linkat(V->dev[d].fd, from, V->dev[d].fd, to, 0) ? neg_errno() : 0;
}

struct name_set {
	char **names;
	size_t len, cap;
};

static int name_seen(struct name_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->len; i++)
		if (!strcmp(s->names[i], name))
			return 1;
	if (s->len == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		char **n = realloc(s->names, cap * sizeof(*n));

		if (!n)
			return 1;
		s->names = n;
		s->cap = cap;
	}
	s->names[s->len++] = strdup(name);
	return 0;
}

/* a directory handle remembers its path: readdir may get none */
static int mo_opendir(const char *path, struct fuse_file_info *fi)
{
	struct stat st;
	char *copy;

	if (morph_locate(V, morph_rel(path), &st) < 0)
		return -ENOENT;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	fi->fh = (uintptr_t)copy;
	return 0;
}

static int mo_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	free((void *)(uintptr_t)fi->fh);
	return 0;
}

static int mo_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	const char *rel;
	struct name_set seen = { 0 };
	int root, found = 0;
	u32 d;
	size_t i;

	(void)off;
	(void)flags;
	rel = morph_rel(path ? path : (const char *)(uintptr_t)fi->fh);
	root = !strcmp(rel, ".");
	for (d = 0; d < V->ndev; d++) {
		int fd = openat(V->dev[d].fd, rel, O_RDONLY | O_DIRECTORY);
		DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
		struct dirent *e;

		if (!dir) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		found = 1;
		while ((e = readdir(dir))) {
			struct stat st = { .st_ino = e->d_ino,
					   .st_mode = (mode_t)DTTOIF(e->d_type) };

			if (root && !strcmp(e->d_name, MORPH_DIR))
				continue;
			if (name_seen(&seen, e->d_name))
				continue;
			fill(buf, e->d_name, &st, 0, 0);
		}
		closedir(dir);
	}
	for (i = 0; i < seen.len; i++)
		free(seen.names[i]);
	free(seen.names);
	return found ? 0 : -ENOENT;
}

static int mo_statfs(const char *path, struct statvfs *out)
{
	struct statvfs s;
	u32 d;

	(void)path;
	memset(out, 0, sizeof(*out));
	for (d = 0; d < V->ndev; d++) {
		if (fstatvfs(V->dev[d].fd, &s))
			return neg_errno();
		if (!d) {
			*out = s;
			continue;
		}
		out->f_blocks += s.f_blocks * s.f_frsize / out->f_frsize;
		out->f_bfree += s.f_bfree * s.f_frsize / out->f_frsize;
		out->f_bavail += s.f_bavail * s.f_frsize / out->f_frsize;
		out->f_files += s.f_files;
		out->f_ffree += s.f_ffree;
		out->f_favail += s.f_favail;
	}
	return 0;
}

/* ---- extended attributes ---- */

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

static int file_status(const char *rel, char *out, size_t len, int replicas)
{
	struct morph_inode *ino;
	struct morph_state st;
	char devs[128] = "", *p = devs;
	u32 d, copies;
	u64 r, w;
	int ret = morph_inode_get_path(V, rel, &ino);

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
	morph_inode_put(V, ino);
	if (replicas) {
		snprintf(out, len, "%u", st.wanted);
		return 0;
	}
	for (d = 0; d < V->ndev; d++)
		if (copies & (1u << d))
			p += sprintf(p, "%s%u", p == devs ? "" : ",", d);
	snprintf(out, len,
		 "wanted=%u copies=%u master=%u devices=%s stale=0x%x reads=%llu writes=%llu id=%016llx%s",
		 st.wanted, morph_popcount(copies), st.master, devs, st.stale,
		 (unsigned long long)r, (unsigned long long)w,
		 (unsigned long long)st.id, ret ? " state=unreadable" : "");
	return 0;
}

static void volume_status(char *out, size_t len)
{
	u32 d, load, thr;
	int striping, n;

	pthread_mutex_lock(&V->lock);
	load = morph_laas_load(&V->laas);
	thr = morph_laas_threshold(&V->laas);
	striping = morph_laas_striping(&V->laas);
	pthread_mutex_unlock(&V->lock);
	n = snprintf(out, len,
		     "version=%d devices=%u load=%u threshold=%u mode=%s policy=%s chunk=%u window_ms=%llu pending=%d\n",
		     MORPH_FORMAT_VERSION, V->ndev, load, thr,
		     striping ? "stripe" : "mirror",
		     policy_names[V->laas_cfg.policy], V->laas_cfg.chunk,
		     (unsigned long long)(V->laas_cfg.window_ns / 1000000),
		     morph_replicator_pending(V));
	for (d = 0; d < V->ndev && n > 0 && (size_t)n < len; d++)
		n += snprintf(out + n, len - (size_t)n,
			      "dev=%u path=%s load=%u mode=%s free=%llu\n", d,
			      V->dev[d].path, V->laas.dev_bound[d],
			      striping ? "stripe" : "mirror",
			      (unsigned long long)morph_dev_free(V, d));
}

static int mo_getxattr(const char *path, const char *name, char *value,
		       size_t size)
{
	const char *rel = morph_rel(path);
	struct stat st;
	char *full, text[8192];
	int d = morph_locate(V, rel, &st), ret;
	ssize_t n;

	if (d < 0)
		return d;
	if (is_ours(name)) {
		if (!strcmp(name, MORPH_XATTR_VOLUME) && !strcmp(rel, ".")) {
			volume_status(text, sizeof(text));
			return put_text(text, value, size);
		}
		if (!S_ISREG(st.st_mode) ||
		    (strcmp(name, MORPH_XATTR_STATUS) &&
		     strcmp(name, MORPH_XATTR_REPLICAS)))
			return -ENODATA;
		ret = file_status(rel, text, sizeof(text),
				  !strcmp(name, MORPH_XATTR_REPLICAS));
		return ret ? ret : put_text(text, value, size);
	}
	full = morph_full_path(V, (u32)d, rel);
	if (!full)
		return -ENOMEM;
	n = lgetxattr(full, name, value, size);
	free(full);
	return n < 0 ? neg_errno() : (int)n;
}

static int set_replicas(const char *rel, const char *value, size_t size)
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
	if (*end || n < 1 || n > (long)V->ndev)
		goto bad;
	ret = morph_inode_get_path(V, rel, &ino);
	if (ret)
		return ret;
	pthread_mutex_lock(&ino->mu);
	if (ino->state_bad) {
		ret = -EIO;
	} else {
		u32 old = ino->st.wanted;

		ino->st.wanted = (u32)n;
		ret = morph_inode_persist(V, ino, 0, 1);
		if (ret)
			ino->st.wanted = old;
	}
	pthread_mutex_unlock(&ino->mu);
	morph_inode_put(V, ino);
	if (!ret)
		morph_replicator_queue(V, rel);
	return ret;
bad:
	morph_err("%s of /%s: '%.*s' is not a copy count in 1..%u (master included)",
		  MORPH_XATTR_REPLICAS, rel, (int)(size < 16 ? size : 16),
		  value, V->ndev);
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

static int mo_setxattr(const char *path, const char *name, const char *value,
		       size_t size, int flags)
{
	const char *rel = morph_rel(path);
	struct stat st;
	struct xattr_arg a = { name, value, size, flags };

	if (is_ours(name)) {
		if (strcmp(name, MORPH_XATTR_REPLICAS))
			return -EPERM;
		if (morph_locate(V, rel, &st) < 0)
			return -ENOENT;
		if (!S_ISREG(st.st_mode))
			return -EPERM;
		return set_replicas(rel, value, size);
	}
	return on_all(rel, do_setxattr, &a);
}

static int mo_removexattr(const char *path, const char *name)
{
	struct xattr_arg a = { name, NULL, 0, 0 };

	if (is_ours(name))
		return -EPERM;
	return on_all(morph_rel(path), do_setxattr, &a);
}

static int mo_listxattr(const char *path, char *list, size_t size)
{
	const char *rel = morph_rel(path);
	struct stat st;
	char raw[65536], out[65536 + 128], *p, *full;
	int d = morph_locate(V, rel, &st);
	ssize_t n;
	size_t len = 0;

	if (d < 0)
		return d;
	full = morph_full_path(V, (u32)d, rel);
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

static void *mo_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* an unlinked open file is renamed .fuse_hidden* until closed, so
	 * that stat of it still finds a path (attributes are not cached) */
	cfg->hard_remove = 0;
	cfg->nullpath_ok = 1;
	/* the high-level API gives each name of a hard-linked file its own
	 * kernel inode; only uncached attributes keep their sizes in step */
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	return V;
}

const struct fuse_operations morph_ops = {
	.init = mo_init,
	.getattr = mo_getattr,
	.access = mo_access,
	.readlink = mo_readlink,
	.mknod = mo_mknod,
	.mkdir = mo_mkdir,
	.symlink = mo_symlink,
	.unlink = mo_unlink,
	.rmdir = mo_rmdir,
	.rename = mo_rename,
	.link = mo_link,
	.chmod = mo_chmod,
	.chown = mo_chown,
	.truncate = mo_truncate,
	.utimens = mo_utimens,
	.open = mo_open,
	.create = mo_create,
	.read = mo_read,
	.write = mo_write,
	.flush = mo_flush,
	.release = mo_release,
	.fsync = mo_fsync,
	.statfs = mo_statfs,
	.opendir = mo_opendir,
	.readdir = mo_readdir,
	.releasedir = mo_releasedir,
	.setxattr = mo_setxattr,
	.getxattr = mo_getxattr,
	.listxattr = mo_listxattr,
	.removexattr = mo_removexattr,
};
