// SPDX-License-Identifier: Apache-2.0
/*
 * dir.c - directory listing: the union of the directory on every
 * device, the reserved MORPH_DIR hidden at the root.
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

	if (morph_locate(v, morph_rel(path), &st) < 0)
		return -ENOENT;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	fi->fh = (uintptr_t)copy;
	return 0;
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
	int root, found = 0;
	u32 d;
	size_t i;

	(void)off;
	(void)flags;
	rel = morph_rel(path ? path : (const char *)(uintptr_t)fi->fh);
	root = !strcmp(rel, ".");
	for (d = 0; d < v->ndev; d++) {
		int fd = openat(v->dev[d].fd, rel, O_RDONLY | O_DIRECTORY);
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

