// SPDX-License-Identifier: Apache-2.0
/*
 * super.c - the volume as a whole: statfs, init, and the table of
 * operations (the rest live in attr.c, file.c, namei.c, dir.c, xattr.c).
 */
#include <string.h>
#include <sys/statvfs.h>
#include "fops.h"

static int mo_statfs(const char *path, struct statvfs *out)
{
	struct morph_vol *v = fuse_vol();
	struct statvfs s;
	u32 d;
	int first = 1;

	(void)path;
	memset(out, 0, sizeof(*out));
	for (d = 0; d < v->ndev; d++) {
		if (!morph_dev_up(v, d))	/* a lost device adds nothing */
			continue;
		if (fstatvfs(v->dev[d].fd, &s))
			return morph_io_error(v, d, neg_errno(), "(statfs)");
		if (first) {
			*out = s;
			first = 0;
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

static void *mo_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	struct morph_vol *v = fuse_vol();

	(void)conn;
	/* an unlinked open file is renamed .fuse_hidden* until closed, so
	 * that stat of it still finds a path (attributes are not cached) */
	cfg->hard_remove = 0;
	cfg->nullpath_ok = 1;
	/* stat shows the inode numbers getattr gives (morph_volume_ino), not
	 * libfuse's own, which differ for each name of a hard link */
	cfg->use_ino = 1;
	/* the high-level API gives each name of a hard-linked file its own
	 * kernel inode; only uncached attributes keep their sizes in step */
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->negative_timeout = 0;
	/* The worker threads start here, not in main: without -f, fuse_main
	 * forks into the background before it serves the mount, and a thread
	 * started before the fork does not exist in the child. */
	if (morph_readers_start(v) || morph_replicator_start(v)) {
		morph_err("cannot start worker threads");
		fuse_exit(fuse_get_context()->fuse);
		return v;
	}
	v->workers_started = 1;
	return v;
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
	.fsyncdir = mo_fsyncdir,
	.setxattr = mo_setxattr,
	.getxattr = mo_getxattr,
	.listxattr = mo_listxattr,
	.removexattr = mo_removexattr,
};
