// SPDX-License-Identifier: Apache-2.0
/*
 * namei.c - the namespace: mknod, mkdir, symlink, readlink, unlink,
 * rmdir, rename, link.  Directories are made, renamed and removed on every
 * device; anything else lives on its master device only, and its replicas'
 * names (names.c) follow it.
 *
 * While a device is lost, a name is new only if no device that is up has
 * it and no lost device still shows it; directories are made on the
 * devices that are up (the repair pass makes them on the others), and
 * removing or renaming a directory, or changing a file whose master is
 * lost, is refused (EROFS): the lost device would keep the old state and
 * nothing could tell which is right when it returns.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fops.h"


/* 0 if @rel is a new name; else -EEXIST, or -EIO if a lost device has it */
static int new_name(struct morph_vol *v, const char *rel)
{
	struct stat st;
	int standin, d;

	if (morph_reserved(rel))
		return -EPERM;
	d = morph_find(v, rel, &st, &standin);
	if (d >= 0)
		return -EEXIST;
	return d == -ENOENT ? 0 : d;
}

int mo_mknod(const char *path, mode_t mode, dev_t rdev)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	int d, ret = new_name(v, rel);

	if (ret)
		return ret;
	d = morph_pick_device(v);
	ret = morph_make_parents(v, (u32)d, rel);
	if (ret)
		return morph_io_error(v, (u32)d, ret, rel);
	if (mknodat(v->dev[d].fd, rel, mode, rdev))
		return morph_io_error(v, (u32)d, neg_errno(), rel);
	morph_give_to_caller(v->dev[d].fd, rel);
	morph_dir_changed(v, (u32)d, rel);
	return 0;
}

int mo_mkdir(const char *path, mode_t mode)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	u32 d, k;
	int ret = new_name(v, rel);

	if (ret)
		return ret;
	for (d = 0; d < v->ndev; d++) {
		if (!morph_dev_up(v, d))
			continue;	/* made there by the repair pass */
		ret = morph_make_parents(v, d, rel);
		if (!ret && mkdirat(v->dev[d].fd, rel, mode))
			ret = neg_errno();
		if (ret) {
			morph_io_error(v, d, ret, rel);
			for (k = 0; k < d; k++)
				if (morph_dev_up(v, k))
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
	int d, ret = new_name(v, rel);

	if (ret)
		return ret;
	d = morph_pick_device(v);
	ret = morph_make_parents(v, (u32)d, rel);
	if (ret)
		return morph_io_error(v, (u32)d, ret, rel);
	if (symlinkat(target, v->dev[d].fd, rel))
		return morph_io_error(v, (u32)d, neg_errno(), rel);
	morph_give_to_caller(v->dev[d].fd, rel);
	morph_dir_changed(v, (u32)d, rel);
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
		return morph_io_error(v, (u32)d, neg_errno(), rel);
	buf[n] = 0;
	return 0;
}

/*
 * fsync the directory holding @rel on @dev.  A master's removal is made
 * durable before its replicas go: they are on other file systems, whose
 * journals may commit first, and a power cut would bring the master back
 * listing fresh copies that are gone (found by vm/powercut).
 */
static int sync_parent(struct morph_vol *v, u32 dev, const char *rel)
{
	int ret = morph_sync_parent_at(v->dev[dev].fd, rel);

	if (ret)
		morph_err("cannot make the removal of /%s durable on device %u: %s; its replicas stay",
			  rel, dev, strerror(-ret));
	return ret;
}

/*
 * The copies of a file about to be removed, replaced or renamed say stale
 * on themselves, durably: its replica names are removed or moved without
 * an fsync of their own and its replica files removed only once the
 * removal or rename is durable, so a power cut can bring a name back at a
 * path where no master backs it; it must not say fresh there (found by
 * vm/powercut: "a name no master backs says fresh").
 */
static void mark_copies_stale(struct morph_vol *v, const struct morph_state *st)
{
	char name[MORPH_REPLICA_NAME_MAX];
	u32 d;

	morph_replica_name(name, sizeof(name), st->id, 0);
	for (d = 0; d < v->ndev; d++) {
		int fd;

		if (!(st->mask & (1u << d)) || !morph_dev_up(v, d))
			continue;
		fd = openat(v->dev[d].rep_fd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (morph_rstate_write(v, d, fd, st, 0, 1))
			morph_err("cannot mark the replica %s on device %u (%s) stale before its file is removed or renamed: %s",
				  name, d, v->dev[d].path, strerror(errno));
		close(fd);
	}
}

/*
 * Remove the non-directory @rel on @dev, and its replicas if last link.
 * The state is read under names_lock, which the replicator holds while it
 * adds a copy, so it lists every named copy.  The last link: its copies
 * say stale on themselves (durably), the master's unlink is made durable,
 * then its names and copies go; a cut in between leaves the master with
 * all its names, or names that say stale and that no master backs (the
 * repair pass removes them), never a master listing copies with no name
 * nor a name that could stand in for a removed file.  Another link: the
 * master stays, so its name here goes first (it says MORPH_STATE_LINKED:
 * names may lag behind).
 */
static int remove_file(struct morph_vol *v, u32 dev, const char *rel)
{
	struct stat sb;
	struct morph_state st;
	int have_state = 0, last, gone = 0, ret = 0;

	if (fstatat(v->dev[dev].fd, rel, &sb, AT_SYMLINK_NOFOLLOW))
		return morph_io_error(v, dev, neg_errno(), rel);
	last = sb.st_nlink == 1;
	pthread_mutex_lock(&v->names_lock);
	if (S_ISREG(sb.st_mode))
		have_state = !morph_read_state(v, dev, rel, &st) && st.mask;
	if (have_state && last)
		mark_copies_stale(v, &st);
	else if (have_state)
		morph_names_unlink(v, st.mask, rel);
	morph_test_point("unlink-marked");
	if (unlinkat(v->dev[dev].fd, rel, 0))
		ret = neg_errno();
	else if (have_state && last)
		gone = !sync_parent(v, dev, rel);
	morph_test_point("unlink-master");
	if (gone)
		morph_names_unlink(v, st.mask, rel);
	pthread_mutex_unlock(&v->names_lock);
	if (ret)
		return morph_io_error(v, dev, ret, rel);
	morph_dir_changed(v, dev, rel);
	if (gone)
		morph_replica_remove_all(&v->rio, &st);
	return 0;
}

int mo_unlink(const char *path)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path);
	struct stat st;
	int standin, d = morph_find(v, rel, &st, &standin);

	if (d < 0)
		return d;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (standin)
		return morph_refuse_degraded(v, "unlink", rel);
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
	ret = morph_refuse_degraded(v, "rmdir", rel);
	if (ret)
		return ret;
	ret = dir_empty_everywhere(v, rel);
	if (ret)
		return ret;
	for (k = 0; k < v->ndev; k++)
		if (unlinkat(v->dev[k].fd, rel, AT_REMOVEDIR) && errno != ENOENT &&
		    !ret)
			ret = morph_io_error(v, k, neg_errno(), rel);
	/* an empty directory of replica names goes too (one still holding
	 * a left-over name stays: the names are checked on use) */
	for (k = 0; k < v->ndev; k++)
		unlinkat(v->dev[k].names_fd, rel, AT_REMOVEDIR);
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
	/* names_lock from the first move to the last: the replicator names a
	 * new copy under it only if the master is still at its path, so no
	 * name can be made under the old directory once the masters move */
	pthread_mutex_lock(&v->names_lock);
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
			pthread_mutex_unlock(&v->names_lock);
			morph_err("renaming directory /%s to /%s failed on device %u (%s): %s",
				  from, to, d, v->dev[d].path, strerror(-ret));
			return morph_io_error(v, d, ret, from);
		}
	}
	/* the names of the replicas of every file below move with it */
	for (d = 0; d < v->ndev; d++) {
		struct stat st;

		if (fstatat(v->dev[d].names_fd, from, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		unlinkat(v->dev[d].names_fd, to, AT_REMOVEDIR);
		morph_names_rename(v, 1u << d, from, to);
	}
	pthread_mutex_unlock(&v->names_lock);
	return 0;
}

/*
 * The names have moved (or the rename failed): once they are durable, the
 * copies that are current say fresh again and MORPH_STATE_LINKED goes if
 * names_will_move set it.  Left as they are if the names cannot be made
 * durable: the repair pass at the next mount renames them.
 */
static void names_moved(struct morph_vol *v, struct morph_inode *ino,
			const char *rel, int linked_here)
{
	u32 fresh = ino->rf.st.mask & ~ino->rf.st.stale & ~ino->rf.failed &
		    ~ino->rstale, d;
	char name[MORPH_REPLICA_NAME_MAX];

	for (d = 0; d < v->ndev; d++)
		if ((ino->rf.st.mask & (1u << d)) && morph_dev_up(v, d) &&
		    morph_name_sync(v, d, rel))
			return;
	morph_replica_name(name, sizeof(name), ino->rf.st.id, 0);
	for (d = 0; d < v->ndev; d++) {
		int fd;

		if (!(fresh & (1u << d)) || !morph_dev_up(v, d))
			continue;
		fd = openat(v->dev[d].rep_fd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		morph_rstate_write(v, d, fd, &ino->rf.st, 1, 0);
		close(fd);
	}
	if (linked_here) {
		ino->rf.st.flags &= ~MORPH_STATE_LINKED;
		if (morph_inode_persist(v, ino, 0, 0))
			ino->rf.st.flags |= MORPH_STATE_LINKED;
	}
}

/*
 * Under ino->mu and names_lock, before a file with copies is renamed: its
 * copies say stale on themselves and its master says it may lack replica
 * names (MORPH_STATE_LINKED), both durably.  The rename and the names'
 * move are on different file systems: a power cut between them leaves the
 * names at the old path, where no master backs them, and none at the new
 * one.  Returns 1 if it set MORPH_STATE_LINKED, 0 if it was set, or an
 * error (the copies are fresh again).
 */
static int names_will_move(struct morph_vol *v, struct morph_inode *ino,
			   const char *rel)
{
	int ret;

	mark_copies_stale(v, &ino->rf.st);
	if (ino->rf.st.flags & MORPH_STATE_LINKED)
		return 0;
	ino->rf.st.flags |= MORPH_STATE_LINKED;
	ret = morph_inode_persist(v, ino, 0, 1);
	if (!ret)
		return 1;
	ino->rf.st.flags &= ~MORPH_STATE_LINKED;
	morph_err("not renaming /%s: its state cannot say first that its replica names may lag behind: %s",
		  rel, strerror(-ret));
	names_moved(v, ino, rel, 0);
	return ret;
}

int mo_rename(const char *path, const char *newpath, unsigned int flags)
{
	struct morph_vol *v = fuse_vol();
	const char *from = morph_rel(path), *to = morph_rel(newpath);
	struct stat sf, sto;
	struct morph_state old, now;
	struct morph_inode *ino;
	int df, dt, ret, have_old = 0, sin_f, sin_t, linked_here = 0;
	int old_gone = 0, requeue;
	u32 copies;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if (morph_reserved(to))
		return -EPERM;
	df = morph_find(v, from, &sf, &sin_f);
	if (df < 0)
		return df;
	dt = morph_find(v, to, &sto, &sin_t);
	if (dt < 0 && dt != -ENOENT)
		return dt;
	if (dt >= 0 && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (sin_f || (dt >= 0 && sin_t))
		return morph_refuse_degraded(v, "rename", sin_f ? from : to);
	if (S_ISDIR(sf.st_mode)) {
		if (dt >= 0 && !S_ISDIR(sto.st_mode))
			return -ENOTDIR;
		ret = morph_refuse_degraded(v, "renaming directory", from);
		return ret ? ret : rename_dir(v, from, to, dt >= 0);
	}
	if (dt >= 0 && S_ISDIR(sto.st_mode))
		return -EISDIR;
	if (dt >= 0 && sf.st_dev == sto.st_dev && sf.st_ino == sto.st_ino)
		return 0;
	ret = morph_make_parents(v, (u32)df, to);
	if (ret)
		return morph_io_error(v, (u32)df, ret, to);
	/* the renamed file's state is its inode's, locked before names_lock
	 * as the replicator locks them: no copy is committed meanwhile */
	ino = NULL;
	if (S_ISREG(sf.st_mode)) {
		ret = morph_inode_get_path(v, from, &ino);
		if (ret)
			return ret;
		pthread_mutex_lock(&ino->mu);
	}
	pthread_mutex_lock(&v->names_lock);
	/* the replaced file's state is read here, under names_lock, like
	 * remove_file's: read before, it could miss a copy the replicator
	 * committed and named meanwhile, whose name would stay at @to saying
	 * fresh for a file that is gone */
	if (dt >= 0 && S_ISREG(sto.st_mode) &&
	    !fstatat(v->dev[dt].fd, to, &sto, AT_SYMLINK_NOFOLLOW))
		have_old = !morph_read_state(v, (u32)dt, to, &old) && old.mask;
	if (have_old)
		mark_copies_stale(v, &old);
	copies = ino && !ino->rf.state_bad ? ino->rf.st.mask : 0;
	ret = copies ? names_will_move(v, ino, from) : 0;
	linked_here = ret > 0;
	morph_test_point("rename-marked");
	if (ret >= 0 && renameat(v->dev[df].fd, from, v->dev[df].fd, to)) {
		ret = morph_io_error(v, (u32)df, neg_errno(), from);
		if (copies)
			names_moved(v, ino, from, linked_here);
	}
	if (ret < 0) {
		pthread_mutex_unlock(&v->names_lock);
		if (ino) {
			pthread_mutex_unlock(&ino->mu);
			morph_inode_put(v, ino);
		}
		return ret;
	}
	ret = 0;
	/* the rename is durable before anything on another device follows
	 * it (found by vm/powercut): the old name's unlink there, so that a
	 * power cut in between leaves old or new at the name, never neither;
	 * the replica names' moves (a journalled lower commits the rename
	 * whole, so its new directory's fsync is enough) */
	if ((dt >= 0 && dt != df) || have_old || copies)
		ret = sync_parent(v, (u32)df, to);
	old_gone = !ret && dt == df;
	morph_test_point("rename-master");
	/* the replaced file's removal is durable before its names go: a cut
	 * in between would leave it listing copies with no name (found by
	 * vm/powercut, "no fresh copy disagrees with its master") */
	if (dt >= 0 && dt != df && !ret) {
		if (unlinkat(v->dev[dt].fd, to, 0))
			ret = morph_io_error(v, (u32)dt, neg_errno(), to);
		else
			old_gone = !(ret = sync_parent(v, (u32)dt, to));
	}
	morph_test_point("rename-old-master");
	/* the replaced file's names go (they say stale already; kept while
	 * its removal is not durable), then this file's move over */
	if (have_old && old_gone)
		morph_names_unlink(v, old.mask, to);
	morph_test_point("rename-old-names");
	if (copies) {
		morph_names_rename(v, copies, from, to);
		names_moved(v, ino, to, linked_here);
	}
	morph_test_point("rename-new-names");
	pthread_mutex_unlock(&v->names_lock);
	requeue = 0;
	if (ino) {
		now = ino->rf.st;
		requeue = !ino->rf.state_bad &&
			  (now.stale || morph_popcount(now.mask) + 1 != now.wanted);
		pthread_mutex_unlock(&ino->mu);
		morph_inode_put(v, ino);
	}
	morph_dir_changed(v, (u32)df, from);
	morph_dir_changed(v, (u32)df, to);
	if (have_old && sto.st_nlink == 1 && old_gone)
		morph_replica_remove_all(&v->rio, &old);
	/* copies still owed are made, and extra ones dropped, under the new
	 * name: a job queued under the old one finds nothing there */
	if (requeue)
		morph_replicator_queue(v, to);
	return ret;
}

/*
 * A replica made later is named only under the path it is copied for, and
 * nothing finds a file's other names: the state says so (the repair pass
 * names every one).
 */
static void note_linked(struct morph_vol *v, const char *rel)
{
	struct morph_inode *ino;

	if (morph_inode_get_path(v, rel, &ino))
		return;
	pthread_mutex_lock(&ino->mu);
	if (!ino->rf.state_bad && !(ino->rf.st.flags & MORPH_STATE_LINKED)) {
		ino->rf.st.flags |= MORPH_STATE_LINKED;
		if (morph_inode_persist(v, ino, 0, 0))
			ino->rf.st.flags &= ~MORPH_STATE_LINKED;
	}
	pthread_mutex_unlock(&ino->mu);
	morph_inode_put(v, ino);
}

int mo_link(const char *path, const char *newpath)
{
	struct morph_vol *v = fuse_vol();
	const char *from = morph_rel(path), *to = morph_rel(newpath);
	struct morph_state st;
	struct stat sb;
	int standin, d = morph_find(v, from, &sb, &standin), ret;
	u32 k;

	if (d < 0)
		return d;
	if (standin)
		return morph_refuse_degraded(v, "link", from);
	ret = new_name(v, to);
	if (ret)
		return ret;
	ret = morph_make_parents(v, (u32)d, to);
	if (ret)
		return morph_io_error(v, (u32)d, ret, to);
	pthread_mutex_lock(&v->names_lock);
	if (linkat(v->dev[d].fd, from, v->dev[d].fd, to, 0))
		ret = morph_io_error(v, (u32)d, neg_errno(), from);
	else if (S_ISREG(sb.st_mode) &&
		 !morph_read_state(v, (u32)d, to, &st))
		for (k = 0; k < v->ndev; k++)
			if ((st.mask & (1u << k)) && morph_dev_up(v, k))
				morph_name_link(v, k, st.id, to);
	pthread_mutex_unlock(&v->names_lock);
	if (!ret)
		morph_dir_changed(v, (u32)d, to);
	if (!ret && S_ISREG(sb.st_mode))
		note_linked(v, to);
	return ret;
}

