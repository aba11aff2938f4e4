/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fops.h - the FUSE operations of the front end, split by concern the way
 * fs/ext2 is: attr.c (attributes), file.c (open files: reads routed by
 * LAAS, writes to every copy inside a write session), namei.c (the
 * namespace), dir.c (directory listing), xattr.c (extended attributes and
 * the volume's virtual ones), super.c (statfs, init, the operations table).
 *
 * Every operation takes its volume from the FUSE context (the private data
 * main() hands to fuse_main()) and passes it explicitly from there on.
 */
#ifndef MORPH_FOPS_H
#define MORPH_FOPS_H

#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdint.h>
#include "morphfs.h"

static inline struct morph_vol *fuse_vol(void)
{
	return fuse_get_context()->private_data;
}

static inline int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

/* attr.c */
void morph_give_to_caller(int dirfd, const char *rel);
void morph_dir_changed(struct morph_vol *v, u32 dev, const char *rel);
int morph_on_all(struct morph_vol *v, const char *rel,
		 int (*fn)(int dirfd, const char *rel, const void *arg),
		 const void *arg);
int mo_getattr(const char *path, struct stat *st, struct fuse_file_info *fi);
int mo_access(const char *path, int mask);
int mo_chmod(const char *path, mode_t mode, struct fuse_file_info *fi);
int mo_chown(const char *path, uid_t uid, gid_t gid,
	     struct fuse_file_info *fi);
int mo_utimens(const char *path, const struct timespec tv[2],
	       struct fuse_file_info *fi);

/* file.c */
int mo_truncate(const char *path, off_t size, struct fuse_file_info *fi);
int mo_open(const char *path, struct fuse_file_info *fi);
int mo_create(const char *path, mode_t mode, struct fuse_file_info *fi);
int mo_read(const char *path, char *buf, size_t size, off_t off,
	    struct fuse_file_info *fi);
int mo_write(const char *path, const char *buf, size_t size, off_t off,
	     struct fuse_file_info *fi);
int mo_fsync(const char *path, int datasync, struct fuse_file_info *fi);
int mo_flush(const char *path, struct fuse_file_info *fi);
int mo_release(const char *path, struct fuse_file_info *fi);

/* namei.c */
int mo_mknod(const char *path, mode_t mode, dev_t rdev);
int mo_mkdir(const char *path, mode_t mode);
int mo_symlink(const char *target, const char *path);
int mo_readlink(const char *path, char *buf, size_t size);
int mo_unlink(const char *path);
int mo_rmdir(const char *path);
int mo_rename(const char *path, const char *newpath, unsigned int flags);
int mo_link(const char *path, const char *newpath);

/* dir.c */
int mo_opendir(const char *path, struct fuse_file_info *fi);
int mo_releasedir(const char *path, struct fuse_file_info *fi);
int mo_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi);
int mo_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
	       struct fuse_file_info *fi, enum fuse_readdir_flags flags);

/* xattr.c */
int mo_getxattr(const char *path, const char *name, char *value,
		size_t size);
int mo_setxattr(const char *path, const char *name, const char *value,
		size_t size, int flags);
int mo_removexattr(const char *path, const char *name);
int mo_listxattr(const char *path, char *list, size_t size);

#endif /* MORPH_FOPS_H */
