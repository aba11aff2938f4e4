// SPDX-License-Identifier: GPL-2.0
/*
 * super.c - mounting a volume: "mount -t morphstore -o lower=/d0:/d1:... none
 * MNT".  Parses the options, opens and checks the lower directories (the
 * same checks and device labels as the FUSE front end), and sums statfs.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/string.h>
#include <linux/xattr.h>
#include "msk.h"

static struct kmem_cache *msk_inode_cache;

/* ---- the core's host: struct morph_env ---- */

static void *env_alloc(void *ctx, size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static void env_free(void *ctx, void *p)
{
	kvfree(p);
}

static u64 env_now(void *ctx)
{
	return ktime_get_ns();
}

/* under sbi->lock or from the one caller holding mi->mu: a data race on
 * the generator state only costs randomness */
static u32 env_random(void *ctx)
{
	struct msk_sb *s = ctx;
	u64 x = READ_ONCE(s->rnd);

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	WRITE_ONCE(s->rnd, x);
	return (u32)(x >> 16);
}

/* ---- devices ---- */

u64 msk_dev_free(struct msk_sb *s, u32 d)
{
	struct kstatfs st;

	if (vfs_statfs(&s->dev[d].root, &st))
		return 0;
	return st.f_bavail * st.f_bsize;
}

/* lower/@name relative to @base, created as a directory if missing */
int msk_ensure_dir(struct dentry *base, struct vfsmount *mnt,
		   const char *name, umode_t mode, struct path *out)
{
	struct inode *dir = d_inode(base);
	struct dentry *d;
	int ret = 0;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	d = lookup_one_len(name, base, strlen(name));
	if (IS_ERR(d)) {
		inode_unlock(dir);
		return PTR_ERR(d);
	}
	if (d_is_negative(d))
		ret = vfs_mkdir(mnt_user_ns(mnt), dir, d, mode);
	inode_unlock(dir);
	if (!ret && (d_is_negative(d) || !d_is_dir(d)))
		ret = -ENOTDIR;
	if (ret) {
		dput(d);
		return ret;
	}
	out->mnt = mntget(mnt);
	out->dentry = d;
	return 0;
}

/*
 * A label of version MORPH_LABEL_NAMES says every replica has a name and a
 * replica state (include/morphstore_format.h) that the FUSE front end's
 * degraded mode trusts.  This module keeps neither, so it writes version 1
 * back before changing anything: the next FUSE mount rebuilds them.  The
 * version is one digit at a fixed place, so one byte is rewritten in
 * place, which a crash cannot leave half done.
 */
static int label_without_names(struct msk_sb *s, u32 d, struct path *p,
			       const char *buf)
{
	static const char head[] = "morphstore ";
	char one = '0' + MORPH_FORMAT_VERSION;
	loff_t pos = sizeof(head) - 1;
	struct file *f;
	int ret;

	if (strncmp(buf, head, sizeof(head) - 1) ||
	    buf[pos] != '0' + MORPH_LABEL_NAMES || buf[pos + 1] != ' ')
		return -EINVAL;
	f = dentry_open(p, O_WRONLY, current_cred());
	ret = PTR_ERR_OR_ZERO(f);
	if (ret)
		return ret;
	ret = kernel_write(f, &one, 1, &pos) == 1 ? vfs_fsync(f, 0) : -EIO;
	fput(f);
	if (!ret)
		pr_info(MSK_NAME ": lower directory %s (device %u): label set to version %d: this module keeps no replica names; the next FUSE mount rebuilds them\n",
			s->dev[d].name, d, MORPH_FORMAT_VERSION);
	return ret;
}

/* the device label ties a lower directory to its place in the volume */
static int check_label(struct msk_sb *s, u32 d, struct path *md)
{
	char want[64], buf[64];
	struct path p = { .mnt = md->mnt };
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	unsigned int ver, idx, cnt;
	int ret = 0;

	snprintf(want, sizeof(want), "morphstore %d device %u of %u\n",
		 MORPH_FORMAT_VERSION, d, s->ndev);
	p.dentry = lookup_one_len_unlocked("device", md->dentry, 6);
	if (IS_ERR(p.dentry))
		return PTR_ERR(p.dentry);
	if (d_is_negative(p.dentry)) {
		struct inode *dir = d_inode(md->dentry);

		dput(p.dentry);
		inode_lock_nested(dir, I_MUTEX_PARENT);
		p.dentry = lookup_one_len("device", md->dentry, 6);
		if (!IS_ERR(p.dentry) && d_is_negative(p.dentry))
			ret = vfs_create(mnt_user_ns(md->mnt), dir, p.dentry,
					 S_IFREG | 0644, true);
		inode_unlock(dir);
		if (IS_ERR(p.dentry))
			return PTR_ERR(p.dentry);
		if (ret)
			goto out;
		f = dentry_open(&p, O_WRONLY, current_cred());
		ret = PTR_ERR_OR_ZERO(f);
		if (ret)
			goto out;
		n = kernel_write(f, want, strlen(want), &pos);
		ret = n == strlen(want) ? vfs_fsync(f, 0) : -EIO;
		fput(f);
		goto out;
	}
	f = dentry_open(&p, O_RDONLY, current_cred());
	ret = PTR_ERR_OR_ZERO(f);
	if (ret)
		goto out;
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	fput(f);
	ret = -EINVAL;
	if (n < 0)
		goto out;
	buf[n] = 0;
	if (sscanf(buf, "morphstore %u device %u of %u", &ver, &idx, &cnt) != 3)
		msk_err("lower directory %s (device %u): %s is not a MorphStore device label",
			s->dev[d].name, d, MORPH_DEVICE_FILE);
	else if (ver != MORPH_FORMAT_VERSION && ver != MORPH_LABEL_NAMES)
		msk_err("lower directory %s (device %u) has format version %u, this build reads versions %d and %d",
			s->dev[d].name, d, ver, MORPH_FORMAT_VERSION,
			MORPH_LABEL_NAMES);
	else if (idx != d || cnt != s->ndev)
		msk_err("lower directory %s was device %u of %u when the volume was created, but is given as device %u of %u; list the lower directories in their original order",
			s->dev[d].name, idx, cnt, d, s->ndev);
	else if (ver == MORPH_LABEL_NAMES)
		ret = label_without_names(s, d, &p, buf);
	else
		ret = 0;
out:
	dput(p.dentry);
	return ret;
}

static int open_device(struct msk_sb *s, u32 d)
{
	struct msk_dev *dv = &s->dev[d];
	struct path md;
	u32 k;
	int ret;

	ret = kern_path(dv->name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dv->root);
	if (ret) {
		msk_err("lower directory %s (device %u): %s; expected an existing directory",
			dv->name, d, ret == -ENOTDIR ? "not a directory" : "cannot be opened");
		return ret;
	}
	if (__mnt_is_readonly(dv->root.mnt) || sb_rdonly(dv->root.mnt->mnt_sb)) {
		msk_err("lower directory %s (device %u) is read-only; MorphStore writes to every device",
			dv->name, d);
		return -EROFS;
	}
	if (!(dv->root.mnt->mnt_sb->s_xattr)) {
		msk_err("lower directory %s (device %u) has no extended attributes; use ext2/ext4 with user_xattr",
			dv->name, d);
		return -EOPNOTSUPP;
	}
	for (k = 0; k < d; k++)
		if (s->dev[k].root.mnt->mnt_sb == dv->root.mnt->mnt_sb) {
			msk_err("lower directories %s and %s are on the same file system; give one file system per device",
				s->dev[k].name, dv->name);
			return -EINVAL;
		}
	ret = msk_ensure_dir(dv->root.dentry, dv->root.mnt, MORPH_DIR, 0755,
			     &md);
	if (ret) {
		msk_err("lower directory %s (device %u): cannot make %s (%d)",
			dv->name, d, MORPH_DIR, ret);
		return ret;
	}
	ret = check_label(s, d, &md);
	if (!ret)
		ret = msk_ensure_dir(md.dentry, md.mnt, "replicas", 0755,
				     &dv->rep);
	path_put(&md);
	if (!ret)
		ret = msk_clean_tmp(s, d);
	return ret;
}

/* ---- options ---- */

enum { OPT_LOWER, OPT_LAAS, OPT_FACTOR, OPT_WINDOW, OPT_CHUNK, OPT_BPS,
       OPT_SEED, OPT_DIRECT, OPT_COPIES };

static const char *const opt_names[] = {
	"lower", "laas", "laas_factor", "laas_window_ms", "stripe_chunk",
	"replicate_bps", "seed", "direct_io", "copies",
};

static int parse_factor(const char *v, u32 *milli)
{
	unsigned int whole = 0, frac = 0, scale = 1000;
	const char *p = v;

	if (!*p)
		return -EINVAL;
	while (*p >= '0' && *p <= '9' && whole <= 1000)
		whole = whole * 10 + (*p++ - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
	if (*p || whole > 1000)
		return -EINVAL;
	*milli = whole * 1000 + frac;
	return *milli ? 0 : -EINVAL;
}

static int parse_options(struct msk_sb *s, char *data, char **lower)
{
	char *opt, *val;
	unsigned long long n;
	unsigned int i;

	s->cfg.factor_milli = 1000;
	s->cfg.window_ns = 1000ull * NSEC_PER_MSEC;
	s->cfg.chunk = 256 * 1024;
	s->cfg.policy = MORPH_LAAS_ADAPTIVE;
	s->new_copies = 1;
	s->rnd = get_random_u64() | 1;
	while ((opt = strsep(&data, ",")) != NULL) {
		if (!*opt)
			continue;
		val = strchr(opt, '=');
		if (val)
			*val++ = 0;
		for (i = 0; i < ARRAY_SIZE(opt_names); i++)
			if (!strcmp(opt, opt_names[i]))
				break;
		if (i != OPT_DIRECT && i < ARRAY_SIZE(opt_names) && !val)
			goto bad;
		switch (i) {
		case OPT_LOWER:
			*lower = val;
			break;
		case OPT_LAAS:
			if (!strcmp(val, "stripe"))
				s->cfg.policy = MORPH_LAAS_STRIPE;
			else if (!strcmp(val, "mirror"))
				s->cfg.policy = MORPH_LAAS_MIRROR;
			else if (strcmp(val, "adaptive"))
				goto bad;
			break;
		case OPT_FACTOR:
			if (parse_factor(val, &s->cfg.factor_milli))
				goto bad;
			break;
		case OPT_WINDOW:
			if (kstrtoull(val, 10, &n))
				goto bad;
			s->cfg.window_ns = n * NSEC_PER_MSEC;
			break;
		case OPT_CHUNK:
			if (kstrtoull(val, 10, &n) || n < 4096 || n % 4096 ||
			    n > (1u << 30))
				goto bad;
			s->cfg.chunk = n;
			break;
		case OPT_BPS:	/* accepted for FUSE compatibility: copies run at once */
			if (kstrtoull(val, 10, &n))
				goto bad;
			break;
		case OPT_SEED:
			if (kstrtoull(val, 10, &n))
				goto bad;
			s->rnd = n * 2654435761ull + 0x9e3779b97f4a7c15ull;
			break;
		case OPT_DIRECT:	/* the module never caches file data itself */
			break;
		case OPT_COPIES:	/* checked against the devices below */
			if (kstrtoull(val, 10, &n) || n < 1 || n > MORPH_MAX_DEVICES)
				goto bad;
			s->new_copies = n;
			break;
		default:
			msk_err("unknown mount option '%s'; see docs/morphstore.md", opt);
			return -EINVAL;
		}
	}
	if (!*lower) {
		msk_err("missing -o lower=DIR0:DIR1[:...] (one lower directory per device)");
		return -EINVAL;
	}
	return 0;
bad:
	msk_err("mount option %s=%s: invalid value; see docs/morphstore.md",
		opt, val ? val : "");
	return -EINVAL;
}

/* ---- super block ---- */

static void free_sbi(struct msk_sb *s)
{
	u32 d;

	for (d = 0; d < MORPH_MAX_DEVICES; d++) {
		path_put(&s->dev[d].rep);
		path_put(&s->dev[d].root);
		kfree(s->dev[d].name);
	}
	if (s->creds)
		put_cred(s->creds);
	kfree(s);
}

static struct inode *msk_alloc_inode(struct super_block *sb)
{
	struct msk_inode *mi = alloc_inode_sb(sb, msk_inode_cache, GFP_KERNEL);

	if (!mi)
		return NULL;
	mi->dev = -1;
	mi->lmaster = NULL;
	mi->rf.state_bad = 0;
	mi->opens = mi->writers = mi->rf.session = 0;
	mi->rf.session_mask = mi->rf.failed = 0;
	atomic64_set(&mi->reads, 0);
	atomic64_set(&mi->writes, 0);
	morph_laas_file_init(&mi->laas);
	return &mi->vfs;
}

static void msk_free_inode(struct inode *inode)
{
	kmem_cache_free(msk_inode_cache, MSK_I(inode));
}

static void msk_evict_inode(struct inode *inode)
{
	struct msk_inode *mi = MSK_I(inode);
	struct msk_sb *s = MSK_SB(inode->i_sb);

	clear_inode(inode);
	spin_lock(&s->lock);
	morph_laas_forget(&s->laas, &mi->laas);
	spin_unlock(&s->lock);
	dput(mi->lmaster);
	mi->lmaster = NULL;
}

static int msk_statfs(struct dentry *dentry, struct kstatfs *out)
{
	struct msk_sb *s = MSK_SB(dentry->d_sb);
	struct kstatfs st;
	u32 d;
	int ret;

	/* the first device's block size is the volume's */
	ret = vfs_statfs(&s->dev[0].root, out);
	if (ret)
		return ret;
	for (d = 1; d < s->ndev; d++) {
		ret = vfs_statfs(&s->dev[d].root, &st);
		if (ret)
			return ret;
		out->f_blocks += st.f_blocks * st.f_bsize / out->f_bsize;
		out->f_bfree += st.f_bfree * st.f_bsize / out->f_bsize;
		out->f_bavail += st.f_bavail * st.f_bsize / out->f_bsize;
		out->f_files += st.f_files;
		out->f_ffree += st.f_ffree;
	}
	out->f_type = 0x4d4f5250;	/* "MORP" */
	memset(&out->f_fsid, 0, sizeof(out->f_fsid));
	return 0;
}

static int msk_show_options(struct seq_file *m, struct dentry *root)
{
	struct msk_sb *s = MSK_SB(root->d_sb);
	static const char *const pol[] = { "adaptive", "stripe", "mirror" };
	u32 d;

	seq_puts(m, ",lower=");
	for (d = 0; d < s->ndev; d++)
		seq_printf(m, "%s%s", d ? ":" : "", s->dev[d].name);
	seq_printf(m, ",laas=%s", pol[s->cfg.policy]);
	return 0;
}

static const struct super_operations msk_sops = {
	.alloc_inode = msk_alloc_inode,
	.free_inode = msk_free_inode,
	.evict_inode = msk_evict_inode,
	.statfs = msk_statfs,
	.show_options = msk_show_options,
};

static void msk_d_release(struct dentry *dentry)
{
	struct msk_dentry *md = dentry->d_fsdata;
	u32 d;

	if (!md)
		return;
	for (d = 0; d < MORPH_MAX_DEVICES; d++)
		dput(md->lower[d]);
	kfree(md);
}

const struct dentry_operations msk_dops = {
	.d_release = msk_d_release,
};

static int msk_fill_super(struct super_block *sb, void *data, int silent)
{
	struct msk_sb *s;
	struct msk_dentry *md;
	struct inode *root;
	char *lower = NULL, *name;
	const struct cred *old;
	int ret;
	u32 d;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	sb->s_fs_info = s;
	spin_lock_init(&s->lock);
	ret = parse_options(s, data, &lower);
	if (ret)
		return ret;
	while ((name = strsep(&lower, ":")) != NULL) {
		if (!*name)
			continue;
		if (s->ndev == MORPH_MAX_DEVICES) {
			msk_err("more than %d lower directories", MORPH_MAX_DEVICES);
			return -EINVAL;
		}
		s->dev[s->ndev].name = kstrdup(name, GFP_KERNEL);
		if (!s->dev[s->ndev++].name)
			return -ENOMEM;
	}
	if (s->ndev < 2) {
		msk_err("lower=%s: a volume needs 2 to %d lower directories, separated by ':'",
			s->ndev ? s->dev[0].name : "", MORPH_MAX_DEVICES);
		return -EINVAL;
	}
	if (s->new_copies > s->ndev) {
		msk_err("copies=%u: expected 1..%u (the volume's devices, master included)",
			s->new_copies, s->ndev);
		return -EINVAL;
	}
	s->creds = prepare_kernel_cred(NULL);
	if (!s->creds)
		return -ENOMEM;
	s->env.ctx = s;
	s->env.alloc = env_alloc;
	s->env.free = env_free;
	s->env.now_ns = env_now;
	s->env.random_u32 = env_random;
	msk_replica_io_init(s);
	s->cfg.ndev = s->ndev;
	if (morph_laas_init(&s->laas, &s->cfg, &s->env)) {
		msk_err("invalid LAAS settings");
		return -EINVAL;
	}
	old = override_creds(s->creds);
	for (d = 0, ret = 0; d < s->ndev && !ret; d++)
		ret = open_device(s, d);
	revert_creds(old);
	if (ret)
		return ret;

	sb->s_magic = 0x4d4f5250;
	sb->s_op = &msk_sops;
	sb->s_d_op = &msk_dops;
	sb->s_xattr = msk_xattr_handlers;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_time_gran = 1;
	sb->s_stack_depth = 1;
	for (d = 0; d < s->ndev; d++) {
		struct super_block *lsb = s->dev[d].root.mnt->mnt_sb;

		sb->s_stack_depth = max(sb->s_stack_depth, lsb->s_stack_depth + 1);
	}
	if (sb->s_stack_depth > FILESYSTEM_MAX_STACK_DEPTH) {
		msk_err("lower directories are stacked too deep");
		return -EINVAL;
	}
	md = msk_dentry_alloc(-1);
	if (!md)
		return -ENOMEM;
	for (d = 0; d < s->ndev; d++)
		md->lower[d] = dget(s->dev[d].root.dentry);
	root = msk_iget(sb, md);
	if (IS_ERR(root)) {
		ret = PTR_ERR(root);
		goto put_md;
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		ret = -ENOMEM;
		goto put_md;
	}
	sb->s_root->d_fsdata = md;
	return 0;
put_md:
	for (d = 0; d < s->ndev; d++)
		dput(md->lower[d]);
	kfree(md);
	return ret;
}

static struct dentry *msk_mount(struct file_system_type *fs, int flags,
				const char *dev_name, void *data)
{
	return mount_nodev(fs, flags, data, msk_fill_super);
}

static void msk_kill_sb(struct super_block *sb)
{
	struct msk_sb *s = MSK_SB(sb);

	kill_anon_super(sb);
	if (s)
		free_sbi(s);
}

static struct file_system_type msk_fs_type = {
	.owner = THIS_MODULE,
	.name = MSK_NAME,
	.mount = msk_mount,
	.kill_sb = msk_kill_sb,
};
MODULE_ALIAS_FS(MSK_NAME);

static void msk_inode_once(void *p)
{
	struct msk_inode *mi = p;

	inode_init_once(&mi->vfs);
	mutex_init(&mi->mu);
}

static int __init msk_init(void)
{
	int ret;

	msk_inode_cache = kmem_cache_create("morphstore_inode",
					    sizeof(struct msk_inode), 0,
					    SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					    msk_inode_once);
	if (!msk_inode_cache)
		return -ENOMEM;
	ret = register_filesystem(&msk_fs_type);
	if (ret)
		kmem_cache_destroy(msk_inode_cache);
	return ret;
}

static void __exit msk_exit(void)
{
	unregister_filesystem(&msk_fs_type);
	rcu_barrier();	/* inodes are freed after an RCU grace period */
	kmem_cache_destroy(msk_inode_cache);
}

module_init(msk_init);
module_exit(msk_exit);
MODULE_DESCRIPTION("MorphStore: a stacking file system that replicates popular files over lower ext2/ext4 devices and schedules reads by load (LAAS)");
MODULE_LICENSE("GPL");
