// SPDX-License-Identifier: GPL-2.0
/*
 * dir.c - directory listing: the union of the directory on every device,
 * each name once (a directory exists on every device, anything else on one),
 * the reserved MORPH_DIR hidden at the root.  The listing is collected at
 * the first read of an open directory and served from memory after that.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include "msk.h"

struct msk_dirent {
	struct msk_dirent *next;
	u64 ino;
	unsigned int type;
	int len;
	char name[];
};

struct msk_dirlist {
	struct msk_dirent *head, **tail;
	loff_t count;
	int filled;
	int err;
};

struct collect {
	struct dir_context ctx;
	struct msk_dirlist *list;
	int root;
	int empty_check;	/* count entries other than . and .. only */
	int found;
};

static int same(struct msk_dirent *e, const char *name, int len)
{
	return e->len == len && !memcmp(e->name, name, len);
}

static bool collect_one(struct dir_context *ctx, const char *name, int len,
			loff_t off, u64 ino, unsigned int type)
{
	struct collect *c = container_of(ctx, struct collect, ctx);
	struct msk_dirlist *l = c->list;
	struct msk_dirent *e;

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	if (c->empty_check) {
		c->found = 1;
		return false;
	}
	if (c->root && len == strlen(MORPH_DIR) && !memcmp(name, MORPH_DIR, len))
		return true;
	/* only directories can appear on more than one device */
	if (type == DT_DIR || type == DT_UNKNOWN)
		for (e = l->head; e; e = e->next)
			if (same(e, name, len))
				return true;
	e = kmalloc(sizeof(*e) + len + 1, GFP_KERNEL);
	if (!e) {
		l->err = -ENOMEM;
		return false;
	}
	e->next = NULL;
	e->ino = ino;
	e->type = type;
	e->len = len;
	memcpy(e->name, name, len);
	e->name[len] = 0;
	*l->tail = e;
	l->tail = &e->next;
	l->count++;
	return true;
}

/* run @c over lower directory @d of @md */
static int walk(struct msk_sb *s, struct msk_dentry *md, u32 d,
		struct collect *c)
{
	struct path p = { .mnt = s->dev[d].root.mnt, .dentry = md->lower[d] };
	struct file *f = dentry_open(&p, O_RDONLY | O_DIRECTORY, current_cred());
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = iterate_dir(f, &c->ctx);
	fput(f);
	return ret;
}

int msk_dir_empty(struct msk_sb *s, struct msk_dentry *md)
{
	struct collect c = { .ctx.actor = collect_one, .empty_check = 1 };
	u32 d;
	int ret;

	for (d = 0; d < s->ndev; d++) {
		if (!md->lower[d])
			continue;
		ret = walk(s, md, d, &c);
		if (ret)
			return ret;
		if (c.found)
			return -ENOTEMPTY;
	}
	return 0;
}

static void free_list(struct msk_dirlist *l)
{
	struct msk_dirent *e, *n;

	for (e = l->head; e; e = n) {
		n = e->next;
		kfree(e);
	}
	l->head = NULL;
	l->tail = &l->head;
	l->count = 0;
	l->filled = 0;
}

static int msk_dir_open(struct inode *inode, struct file *file)
{
	struct msk_dirlist *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return -ENOMEM;
	l->tail = &l->head;
	file->private_data = l;
	return 0;
}

static int msk_dir_release(struct inode *inode, struct file *file)
{
	free_list(file->private_data);
	kfree(file->private_data);
	return 0;
}

static int msk_iterate(struct file *file, struct dir_context *ctx)
{
	struct msk_sb *s = MSK_SB(file_inode(file)->i_sb);
	struct msk_dirlist *l = file->private_data;
	struct msk_dentry *md = MSK_D(file->f_path.dentry);
	struct msk_dirent *e;
	loff_t i;
	u32 d;
	int ret;

	if (ctx->pos == 0) {	/* (re)start: a fresh listing */
		free_list(l);
	}
	if (!l->filled) {
		struct collect c = { .ctx.actor = collect_one, .list = l,
				     .root = IS_ROOT(file->f_path.dentry) };

		for (d = 0; d < s->ndev; d++) {
			if (!md->lower[d])
				continue;
			c.ctx.pos = 0;
			ret = walk(s, md, d, &c);
			if (!ret)
				ret = l->err;
			if (ret) {
				free_list(l);
				return ret;
			}
		}
		l->filled = 1;
	}
	if (!dir_emit_dots(file, ctx))
		return 0;
	for (e = l->head, i = 2; e && i < ctx->pos; e = e->next, i++)
		;
	for (; e; e = e->next) {
		if (!dir_emit(ctx, e->name, e->len, e->ino, e->type))
			return 0;
		ctx->pos++;
	}
	return 0;
}

/*
 * fsync of a directory: the directory on every device holding it (a new
 * name or a rename is in the master's directory, and a directory exists on
 * every device).  Without it fsync(dirfd) failed with EINVAL, so nothing
 * made a rename durable (found by vm/powercut).
 */
static int msk_dir_fsync(struct file *file, loff_t start, loff_t end,
			 int datasync)
{
	struct msk_sb *s = MSK_SB(file_inode(file)->i_sb);
	struct msk_dentry *md = MSK_D(file->f_path.dentry);
	u32 d;
	int ret = 0, err;

	for (d = 0; d < s->ndev; d++) {
		struct path p = { .mnt = s->dev[d].root.mnt, .dentry = md->lower[d] };
		struct file *f;

		if (!md->lower[d])
			continue;
		f = dentry_open(&p, O_RDONLY | O_DIRECTORY, s->creds);
		err = PTR_ERR_OR_ZERO(f);
		if (!err) {
			err = vfs_fsync_range(f, start, end, datasync);
			fput(f);
		}
		if (err && !ret)
			ret = err;
	}
	return ret;
}

static loff_t msk_dir_llseek(struct file *file, loff_t off, int whence)
{
	return generic_file_llseek_size(file, off, whence, LLONG_MAX, LLONG_MAX);
}

const struct file_operations msk_dir_fops = {
	.open = msk_dir_open,
	.release = msk_dir_release,
	.iterate_shared = msk_iterate,
	.read = generic_read_dir,
	.llseek = msk_dir_llseek,
	.fsync = msk_dir_fsync,
};
