// SPDX-License-Identifier: Apache-2.0
/*
 * file.c - open files: open, create, read (routed by LAAS over the
 * file's current copies), write and truncate (every copy, inside a write
 * session, see inode.c), fsync, release.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fops.h"


/* under ino->mu; @fd holds a descriptor for every device in session_mask */
static int truncate_copies(struct morph_vol *v, struct morph_inode *ino,
			   const int *fd, off_t size)
{
	u32 d;
	int ret = morph_inode_session_begin(v, ino);

	if (ret)
		return ret;
	if (ftruncate(fd[ino->dev], size))
		return morph_io_error(v, ino->dev, neg_errno(), "(truncate)");
	for (d = 0; d < v->ndev; d++) {
		if (!(ino->rf.session_mask & ~ino->rf.failed & (1u << d)))
			continue;
		if (fd[d] < 0 || ftruncate(fd[d], size)) {
			int e = fd[d] < 0 ? EBADF : errno;

			morph_err("truncating the replica on device %u (%s) failed: %s; it is stale until re-copied",
				  d, v->dev[d].path, strerror(e));
			morph_io_error(v, d, -e, "(a replica)");
			morph_replica_missed(v, ino, d, fd[d]);
		}
	}
	ino->gen++;
	return 0;
}

int mo_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	const char *rel;
	struct morph_inode *ino;
	int fd[MORPH_MAX_DEVICES], ret;
	char name[32];
	u32 d;

	if (fi && fi->fh) {
		struct morph_handle *h = (void *)(uintptr_t)fi->fh;

		pthread_mutex_lock(&h->ino->mu);
		ret = truncate_copies(v, h->ino, h->fd, size);
		if (!h->ino->writers)
			morph_inode_session_end(v, h->ino);
		pthread_mutex_unlock(&h->ino->mu);
		return ret;
	}
	if (!path)
		return -ESTALE;
	rel = morph_rel(path);
	{
		struct stat sb;
		int standin, m = morph_find(v, rel, &sb, &standin);

		if (m < 0)
			return m;
		if (standin)
			return morph_refuse_degraded(v, "truncate", rel);
	}
	ret = morph_inode_get_path(v, rel, &ino);
	if (ret)
		return ret == -EPERM ? -EISDIR : ret;
	pthread_mutex_lock(&ino->mu);
	morph_replica_name(name, sizeof(name), ino->rf.st.id, 0);
	for (d = 0; d < v->ndev; d++)
		fd[d] = (ino->rf.st.mask & ~ino->rf.st.stale & (1u << d)) &&
			morph_dev_up(v, d) ?
			openat(v->dev[d].rep_fd, name, O_WRONLY) : -1;
	fd[ino->dev] = ino->xfd;
	ret = truncate_copies(v, ino, fd, size);
	if (!ino->writers)
		morph_inode_session_end(v, ino);
	pthread_mutex_unlock(&ino->mu);
	for (d = 0; d < v->ndev; d++)
		if (fd[d] >= 0 && d != ino->dev)
			close(fd[d]);
	morph_inode_put(v, ino);
	return ret;
}

/* ---- open files ---- */

static void close_handle(struct morph_vol *v, struct morph_handle *h)
{
	u32 d;

	for (d = 0; d < v->ndev; d++) {
		if (h->fd[d] >= 0)
			close(h->fd[d]);
		if (h->rfd[d] >= 0)
			close(h->rfd[d]);
	}
	free(h->name);
	free(h);
}

/*
 * Build the handle of master @fd on @dev, or with @standin of the replica
 * @fd on @dev standing in for a master on a lost device (read-only, the one
 * copy it serves); takes ownership of @fd.
 */
static int setup_handle(struct morph_vol *v, u32 dev, int fd, int standin,
			const char *rel, struct fuse_file_info *fi)
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
		close_handle(v, h);
		return -ENOMEM;
	}
	ret = morph_inode_get(v, dev, fd, standin, &ino);
	if (ret) {
		close_handle(v, h);
		return ret;
	}
	h->ino = ino;
	pthread_mutex_lock(&ino->mu);
	if (h->writable)
		ino->writers++;
	h->copies = ino->rf.state_bad || standin ? 1u << dev :
		    morph_state_readable(&ino->rf.st) & ~ino->rf.failed &
		    ~morph_lost(v);
	morph_replica_name(name, sizeof(name), ino->rf.st.id, 0);
	for (d = 0; d < v->ndev; d++) {
		if (d == dev || !(h->copies & (1u << d)))
			continue;
		h->fd[d] = openat(v->dev[d].rep_fd, name,
				  h->writable ? O_RDWR : O_RDONLY);
		if (h->fd[d] < 0) {
			int e = errno;

			morph_err("replica of /%s on device %u (%s) cannot be opened: %s; not serving it",
				  rel, d, v->dev[d].path, strerror(e));
			h->copies &= ~(1u << d);
			morph_io_error(v, d, -e, rel);
			if (h->writable)	/* it will miss this handle's writes */
				morph_replica_missed(v, ino, d, -1);
			else
				__atomic_or_fetch(&ino->rf.failed, 1u << d,
						  __ATOMIC_SEQ_CST);
		}
	}
	resync = !ino->rf.state_bad && !standin && !ino->writers &&
		 (ino->rf.st.stale || morph_popcount(ino->rf.st.mask) + 1 !=
		  ino->rf.st.wanted);
	pthread_mutex_unlock(&ino->mu);
	if (morph_popcount(h->copies) > 1)
		for (d = 0; d < v->ndev; d++) {
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
	pthread_mutex_lock(&v->lock);
	morph_laas_open(&v->laas, &ino->laas);
	pthread_mutex_unlock(&v->lock);
	fi->fh = (uintptr_t)h;
	fi->direct_io = v->direct_io;
	if (resync)
		morph_replicator_queue(v, rel);
	return 0;
}

static int lower_flags(int flags)
{
	return (flags & (O_ACCMODE | O_SYNC | O_DSYNC | O_NOATIME)) |
	       O_NOFOLLOW;
}


int mo_open(const char *path, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct morph_handle *h;
	struct stat st;
	int d, fd, ret, standin;
	u32 tries = 0;

again:
	d = morph_find(v, rel, &st, &standin);
	if (d < 0)
		return d;
	if (standin) {
		if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC))
			return morph_refuse_degraded(v, "opening for writing",
						     rel);
		fd = openat(v->dev[d].names_fd, rel, O_RDONLY | O_NOFOLLOW);
	} else {
		fd = openat(v->dev[d].fd, rel, lower_flags(fi->flags));
	}
	if (fd < 0) {
		ret = morph_io_error(v, (u32)d, neg_errno(), rel);
		/* its device just failed: look again, a replica may serve */
		if (!morph_dev_up(v, (u32)d) && ++tries < v->ndev)
			goto again;
		return ret;
	}
	ret = setup_handle(v, (u32)d, fd, standin, rel, fi);
	if (ret || !(fi->flags & O_TRUNC))
		return ret;
	/* libfuse passes O_TRUNC to open (atomic_o_trunc): every copy */
	h = (void *)(uintptr_t)fi->fh;
	pthread_mutex_lock(&h->ino->mu);
	ret = truncate_copies(v, h->ino, h->fd, 0);
	pthread_mutex_unlock(&h->ino->mu);
	if (ret) {
		mo_release(path, fi);
		fi->fh = 0;
	}
	return ret;
}

int mo_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int d, fd, ret, standin;

	if (morph_reserved(rel))
		return -EPERM;
	d = morph_find(v, rel, &st, &standin);
	if (d >= 0) {
		if (fi->flags & O_EXCL)
			return -EEXIST;
		return mo_open(path, fi);
	}
	if (d != -ENOENT)
		return d;
	d = morph_pick_device(v);
	ret = morph_make_parents(v, (u32)d, rel);
	if (ret)
		return morph_io_error(v, (u32)d, ret, rel);
	fd = openat(v->dev[d].fd, rel, lower_flags(fi->flags) | O_CREAT | O_EXCL,
		    mode);
	if (fd < 0)
		return morph_io_error(v, (u32)d, neg_errno(), rel);
	morph_give_to_caller(v->dev[d].fd, rel);
	morph_dir_changed(v, (u32)d, rel);
	ret = setup_handle(v, (u32)d, fd, 0, rel, fi);
	if (ret || v->new_copies <= 1)
		return ret;
	/* -o copies=N: the new file wants N copies; made after its last close */
	{
		struct morph_handle *h = (void *)(uintptr_t)fi->fh;

		pthread_mutex_lock(&h->ino->mu);
		h->ino->rf.st.wanted = v->new_copies;
		ret = morph_inode_persist(v, h->ino, 0, 1);
		if (ret)
			h->ino->rf.st.wanted = 1;
		pthread_mutex_unlock(&h->ino->mu);
	}
	if (ret) {
		morph_err("new file /%s: cannot record the %u copies it wants: %s",
			  rel, v->new_copies, strerror(-ret));
		mo_release(path, fi);
		fi->fh = 0;
	}
	return ret;
}

int mo_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	struct morph_inode *ino = h->ino;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 copies, n, bad, tries;
	ssize_t got = -EIO;
	int split;

	(void)path;
	__atomic_add_fetch(&ino->reads, 1, __ATOMIC_RELAXED);
	/* a copy that fails is dropped from this handle and the read is
	 * done again from the others: a lost device is only noticed here */
	for (tries = 0; tries < v->ndev; tries++) {
		copies = h->copies &
			 ~__atomic_load_n(&ino->rf.failed, __ATOMIC_SEQ_CST) &
			 ~__atomic_load_n(&h->bad, __ATOMIC_SEQ_CST) &
			 ~morph_lost(v);
		if (!copies) {
			morph_err("/%s: no copy left to read (devices %s are lost)",
				  h->name, morph_dev_list(morph_lost(v),
							  (char[128]){ 0 }, 128));
			return (int)got;
		}
		pthread_mutex_lock(&v->lock);
		n = morph_laas_route(&v->laas, &ino->laas, copies, (u64)off,
				     size, seg, MORPH_MAX_DEVICES);
		/* page-cache mounts only: with direct_io the kernel passes
		 * the application's reads through, split as they come (and
		 * several at once for one large read), as before fetch-ahead */
		split = !v->direct_io && morph_popcount(copies) > 1 &&
			ino->laas.bound < 0;
		pthread_mutex_unlock(&v->lock);
		if (!n)
			return 0;
		if (split)
			morph_fetch_ahead(v, h, copies, (u64)off, size, seg, n);
		got = morph_read_segments(v, h, buf, (u64)off, seg, n, split,
					  &bad);
		if (got >= 0) {
			__atomic_store_n(&h->ra_next, (u64)off + (u64)got,
					 __ATOMIC_RELAXED);
			return (int)got;
		}
		morph_io_error(v, bad, (int)got, h->name);
		if (got != -EIO && got != -ENXIO && got != -ENODEV)
			return (int)got;
		__atomic_or_fetch(&h->bad, 1u << bad, __ATOMIC_SEQ_CST);
	}
	return (int)got;
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

int mo_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	struct morph_inode *ino = h->ino;
	ssize_t n, r;
	int ret;
	u32 d;

	pthread_mutex_lock(&ino->mu);
	ret = morph_inode_session_begin(v, ino);
	if (ret) {
		pthread_mutex_unlock(&ino->mu);
		morph_err("not writing /%s: its replicas could not be marked stale first",
			  h->name);
		return ret;
	}
	(void)path;
	n = write_all(h->fd[ino->dev], buf, size, off);
	if (n < 0)
		morph_io_error(v, ino->dev, (int)n, h->name);
	if (n > 0) {
		for (d = 0; d < v->ndev; d++) {
			if (!(ino->rf.session_mask & ~ino->rf.failed & (1u << d)))
				continue;
			r = h->fd[d] >= 0 ? write_all(h->fd[d], buf, (size_t)n, off)
					  : -EBADF;
			if (r != n) {
				morph_err("write to the replica of /%s on device %u (%s) failed: %s; the replica is stale until re-copied",
					  h->name, d, v->dev[d].path,
					  r < 0 ? strerror((int)-r) : "short write");
				if (r < 0)
					morph_io_error(v, d, (int)r, h->name);
				morph_replica_missed(v, ino, d, h->fd[d]);
			}
		}
		ino->gen++;
	}
	pthread_mutex_unlock(&ino->mu);
	__atomic_add_fetch(&ino->writes, 1, __ATOMIC_RELAXED);
	return (int)n;
}

/*
 * fsync or fdatasync @h's master and every copy it has open; the master's
 * error is the caller's.  When every copy kept in step was synced without
 * error and nothing was written meanwhile, the file's data is durable as
 * of that gen: the end of its write session then has nothing to sync.
 */
static int sync_handle(struct morph_vol *v, struct morph_handle *h,
		       int datasync)
{
	struct morph_inode *ino = h->ino;
	u32 synced = 0, d;
	u64 gen;
	int ret = 0;

	pthread_mutex_lock(&ino->mu);
	gen = ino->gen;
	pthread_mutex_unlock(&ino->mu);
	for (d = 0; d < v->ndev; d++) {
		if (h->fd[d] < 0)
			continue;
		if (!(datasync ? fdatasync(h->fd[d]) : fsync(h->fd[d])))
			synced |= 1u << d;
		else if (d == ino->dev)
			ret = morph_io_error(v, d, neg_errno(), h->name);
	}
	pthread_mutex_lock(&ino->mu);
	if (!ret && ino->gen == gen &&
	    !(ino->rf.session_mask & ~ino->rf.failed & ~synced))
		ino->synced_gen = gen;
	pthread_mutex_unlock(&ino->mu);
	return ret;
}

int mo_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	return sync_handle(fuse_vol(), (void *)(uintptr_t)fi->fh, datasync);
}

/*
 * At each close.  The last writer's close syncs the data of the master and
 * of the copies it kept in step, which the release that follows must have
 * durable before it calls the copies fresh (morph_session_end): done here,
 * close() waits for it, and the release, which the kernel sends after
 * close() has returned, stays short.  A long release widens a race in
 * libfuse: an unlink that finds the file still open hides it as
 * .fuse_hidden*, and a release that ends before the hiding is done leaves
 * it there for good (seen by t_exerciser).
 */
int mo_flush(const char *path, struct fuse_file_info *fi)
{
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	int last;

	(void)path;
	if (!h->writable)
		return 0;
	pthread_mutex_lock(&h->ino->mu);
	last = h->ino->rf.session && h->ino->writers == 1 &&
	       h->ino->synced_gen != h->ino->gen;
	pthread_mutex_unlock(&h->ino->mu);
	return last ? sync_handle(fuse_vol(), h, 1) : 0;
}

int mo_release(const char *path, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	struct morph_handle *h = (void *)(uintptr_t)fi->fh;
	struct morph_inode *ino = h->ino;
	int resync;

	pthread_mutex_lock(&v->lock);
	morph_laas_close(&v->laas, &ino->laas);
	pthread_mutex_unlock(&v->lock);
	pthread_mutex_lock(&ino->mu);
	if (h->writable && --ino->writers == 0)
		morph_inode_session_end(v, ino);
	resync = !ino->writers && !ino->rf.state_bad &&
		 (ino->rf.st.stale ||
		  morph_popcount(ino->rf.st.mask) + 1 < ino->rf.st.wanted);
	pthread_mutex_unlock(&ino->mu);
	(void)path;
	if (resync)	/* by its name at open; a renamed file waits for its next open */
		morph_replicator_queue(v, h->name);
	h->ino = NULL;
	close_handle(v, h);
	morph_inode_put(v, ino);
	return 0;
}

