// SPDX-License-Identifier: Apache-2.0
/*
 * dir.c - directory listing: the union of the directory on every
 * device, the reserved MORPH_DIR hidden at the root.  While a device is
 * lost the listing adds the replica names kept on the others (so files
 * whose master is lost are listed), and whatever the lost device itself
 * can still list (its files then fail with EIO rather than vanish).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fops.h"

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
int mo_opendir(const char *path, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	struct stat st;
	char *copy;
	int d = morph_locate(v, morph_rel(path), &st);

	if (d < 0)
		return d;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	fi->fh = (uintptr_t)copy;
	return 0;
}

/*
 * fsync of a directory: the directory on every device that is up (a new
 * name or a rename is in the master's directory, and a directory exists
 * on every device).  Without this operation the kernel took ENOSYS for
 * "nothing to do" and fsync(dirfd) returned 0 having made nothing durable:
 * a renamed file came back under its old name after a power cut (found by
 * vm/powercut).
 */
int mo_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct morph_vol *v = fuse_vol();
	const char *rel = morph_rel(path ? path : (const char *)(uintptr_t)fi->fh);
	int ret = 0, fd;
	u32 d;

	for (d = 0; d < v->ndev; d++) {
		if (!morph_dev_up(v, d))
			continue;
		fd = openat(v->dev[d].fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT && !ret)
				ret = morph_io_error(v, d, neg_errno(), rel);
			continue;
		}
		if ((datasync ? fdatasync(fd) : fsync(fd)) && !ret)
			ret = morph_io_error(v, d, neg_errno(), rel);
		close(fd);
	}
	return ret;
}

int mo_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	free((void *)(uintptr_t)fi->fh);
	return 0;
}

int mo_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	struct morph_vol *v = fuse_vol();
	const char *rel;
	struct name_set seen = { 0 };
	int root, found = 0, err = 0;
	u32 d, lost, pass;
	size_t i;

	(void)off;
	(void)flags;
	rel = morph_rel(path ? path : (const char *)(uintptr_t)fi->fh);
	root = !strcmp(rel, ".");
	lost = morph_lost(v);
	/* pass 0: the devices that are up; while degraded, pass 1: their
	 * replica names, pass 2: what lost devices can still list */
	for (pass = 0; pass < (lost ? 3u : 1u); pass++)
	for (d = 0; d < v->ndev; d++) {
		int base = pass == 1 ? v->dev[d].names_fd : v->dev[d].fd;
		int fd = -1;
		DIR *dir;
		struct dirent *e;

		if ((pass == 2) == morph_dev_up(v, d) || base < 0 ||
		    (pass == 1 && !v->names))
			continue;
		fd = openat(base, rel, O_RDONLY | O_DIRECTORY);
		if (fd < 0 && pass == 0 && errno != ENOENT)
			err = morph_io_error(v, d, neg_errno(), rel);
		dir = fd >= 0 ? fdopendir(fd) : NULL;
		if (!dir) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		found = 1;
		while ((e = readdir(dir))) {
			struct stat st = { .st_ino = morph_volume_ino(e->d_ino, d),
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
	return found ? 0 : err ? err : -ENOENT;
}

