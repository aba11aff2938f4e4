// SPDX-License-Identifier: Apache-2.0
/*
 * The hand-written on-disk back end (the default zonectl, Apache-2.0 only):
 * superblock, group descriptors, block bitmaps and their checksums of
 * ext2/ext3/ext4, read and written at the byte offsets below.  Refuses
 * bigalloc and meta_bg; zn_fs_ext2fs.c is the libext2fs back end that
 * takes them (docs/zone.md says why both exist).
 *
 * On-disk facts used (all little endian):
 *  - The superblock is 1024 bytes at byte offset 1024.  Fields read here:
 *    0x04 s_blocks_count_lo, 0x0C s_free_blocks_count_lo,
 *    0x14 s_first_data_block, 0x18 s_log_block_size (block = 1024 << n),
 *    0x1C s_log_cluster_size, 0x20 s_blocks_per_group,
 *    0x28 s_inodes_per_group, 0x38 s_magic (0xEF53), 0x4C s_rev_level,
 *    0x58 s_inode_size, 0x5C/0x60/0x64 compat/incompat/ro_compat,
 *    0x68 s_uuid[16], 0xCE s_reserved_gdt_blocks, 0xFE s_desc_size,
 *    0x150 s_blocks_count_hi, 0x158 s_free_blocks_count_hi,
 *    0x175 s_checksum_type, 0x24C s_backup_bgs[2], 0x270 s_checksum_seed,
 *    0x3FC s_checksum = crc32c(~0, superblock[0..0x3FC)).
 *  - The group descriptor table starts in the block after the superblock's
 *    block (block s_first_data_block + 1).  A descriptor is 32 bytes, or
 *    s_desc_size (>= 64) with INCOMPAT_64BIT; the seed's "4096 + 32 * X"
 *    (seed §4.3) is the 4 KiB / 32-byte case of this rule.
 *  - Descriptor fields: 0x00 block bitmap lo, 0x04 inode bitmap lo,
 *    0x08 inode table lo, 0x0C free blocks lo (16 bit), 0x12 bg_flags,
 *    0x18 block bitmap csum lo (16), 0x1E bg_checksum (16); with 64-byte
 *    descriptors 0x20/0x24/0x28 the hi halves, 0x2C free blocks hi,
 *    0x38 block bitmap csum hi.
 *  - bg_checksum: with metadata_csum, low 16 bits of crc32c(seed, le32
 *    group, descriptor with bg_checksum zeroed); with GDT_CSUM only,
 *    crc16(~0, uuid, le32 group, descriptor up to bg_checksum, then the
 *    rest of a 64-bit descriptor).  The seed is s_checksum_seed with
 *    INCOMPAT_CSUM_SEED, else crc32c(~0, s_uuid).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "zn.h"

struct zn_extent {
	uint64_t start;
	uint64_t len;
};

/* The hand-written back end's state: the raw structures it edits. */
struct zn_ondisk {
	uint8_t sb[1024];	/* raw superblock, little endian */
	uint32_t inodes_per_group;
	uint32_t inode_size;
	uint32_t gdt_blocks;
	uint32_t reserved_gdt;
	uint32_t itable_blocks;
	uint32_t csum_seed;	/* metadata_csum seed */
	uint8_t *gdt;		/* raw descriptor table, gdt_blocks blocks */
	struct zn_extent *meta;	/* all groups' bitmaps and inode tables, */
	uint32_t nmeta;		/* sorted by start (for BLOCK_UNINIT) */
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static uint8_t *desc(const struct zn_fs *fs, uint32_t g)
{
	return fs->od->gdt + (size_t)g * fs->desc_size;
}

static uint16_t desc_csum(const struct zn_fs *fs, uint32_t g)
{
	uint8_t le[4], zero[2] = { 0, 0 };
	const uint8_t *d = desc(fs, g);

	put32(le, g);
	if (zn_has_metadata_csum(fs)) {
		uint32_t c = zn_crc32c(fs->od->csum_seed, le, 4);

		c = zn_crc32c(c, d, 0x1E);
		c = zn_crc32c(c, zero, 2);
		if (fs->desc_size > 0x20)
			c = zn_crc32c(c, d + 0x20, fs->desc_size - 0x20);
		return (uint16_t)(c & 0xffff);
	}
	if (zn_has_gdt_csum(fs)) {
		uint16_t c = zn_crc16(0xffff, fs->uuid, 16);

		c = zn_crc16(c, le, 4);
		c = zn_crc16(c, d, 0x1E);
		if ((fs->incompat & ZN_INCOMPAT_64BIT) && fs->desc_size > 0x20)
			c = zn_crc16(c, d + 0x20, fs->desc_size - 0x20);
		return c;
	}
	return 0;
}

static int group_csum_ok(const struct zn_fs *fs, uint32_t g)
{
	if (!zn_has_metadata_csum(fs) && !zn_has_gdt_csum(fs))
		return 1;
	return get16(desc(fs, g) + 0x1E) == desc_csum(fs, g);
}

void zn_group_get(const struct zn_fs *fs, uint32_t g, struct zn_group *o)
{
	const uint8_t *d = desc(fs, g);
	int wide = fs->desc_size >= 64;

	o->block_bitmap = get32(d);
	o->inode_bitmap = get32(d + 4);
	o->inode_table = get32(d + 8);
	o->free_blocks = get16(d + 0x0C);
	o->flags = get16(d + 0x12);
	if (wide) {
		o->block_bitmap |= (uint64_t)get32(d + 0x20) << 32;
		o->inode_bitmap |= (uint64_t)get32(d + 0x24) << 32;
		o->inode_table |= (uint64_t)get32(d + 0x28) << 32;
		o->free_blocks |= (uint32_t)get16(d + 0x2C) << 16;
	}
}

void zn_group_set_free(struct zn_fs *fs, uint32_t g, uint32_t n)
{
	uint8_t *d = desc(fs, g);

	put16(d + 0x0C, (uint16_t)n);
	if (fs->desc_size >= 64)
		put16(d + 0x2C, (uint16_t)(n >> 16));
}

void zn_group_set_flags(struct zn_fs *fs, uint32_t g, uint16_t flags)
{
	put16(desc(fs, g) + 0x12, flags);
}

void zn_group_set_bitmap_csum(struct zn_fs *fs, uint32_t g, uint32_t csum)
{
	uint8_t *d = desc(fs, g);

	if (!zn_has_metadata_csum(fs))
		return;
	put16(d + 0x18, (uint16_t)csum);
	if (fs->desc_size >= 64)
		put16(d + 0x38, (uint16_t)(csum >> 16));
}

static int power_of(uint32_t g, uint32_t base)
{
	uint64_t p = base;

	while (p < g)
		p *= base;
	return p == g;
}

/* Does group g carry a superblock + descriptor table backup? */
static int group_has_super(const struct zn_fs *fs, uint32_t g)
{
	if (g == 0)
		return 1;
	if (fs->compat & ZN_COMPAT_SPARSE_SUPER2)
		return g == get32(fs->od->sb + 0x24C) || g == get32(fs->od->sb + 0x250);
	if (!(fs->ro_compat & ZN_RO_COMPAT_SPARSE_SUPER))
		return 1;
	return g == 1 || power_of(g, 3) || power_of(g, 5) || power_of(g, 7);
}

/* Mark blocks [b, b + n) that lie in group g: at most the group's blocks. */
static void mark_range(const struct zn_fs *fs, uint32_t g, uint8_t *bm,
		       uint64_t b, uint64_t n)
{
	uint64_t first = zn_group_first(fs, g), end = first + zn_group_nblocks(fs, g);
	uint64_t last = n > UINT64_MAX - b ? UINT64_MAX : b + n;

	for (b = b > first ? b : first; b < end && b < last; b++)
		zn_set_bit(bm, (uint32_t)(b - first));
}

/*
 * What ext4 builds for a BLOCK_UNINIT group: superblock backup and
 * descriptor table (+ reserved GDT blocks) where the group has a backup,
 * every group's bitmaps and inode table that lie inside this group
 * (flex_bg packs them), and all bits past the group's last block set.
 */
void zn_bitmap_synth(const struct zn_fs *fs, uint32_t g, uint8_t *bm)
{
	uint64_t first = zn_group_first(fs, g), from;
	uint32_t i, n = zn_group_nblocks(fs, g), lo = 0, hi = fs->od->nmeta;

	memset(bm, 0, fs->block_size);
	if (group_has_super(fs, g))
		mark_range(fs, g, bm, first, 1 + fs->od->gdt_blocks + fs->od->reserved_gdt);
	/* no extent is longer than an inode table: start the scan there */
	from = first > fs->od->itable_blocks ? first - fs->od->itable_blocks : 0;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (fs->od->meta[mid].start < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < fs->od->nmeta && fs->od->meta[i].start < first + n; i++)
		mark_range(fs, g, bm, fs->od->meta[i].start, fs->od->meta[i].len);
	for (i = n; i < fs->block_size * 8; i++)
		zn_set_bit(bm, i);
}

static int extent_cmp(const void *a, const void *b)
{
	const struct zn_extent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Index every group's bitmaps and inode table by block (flex_bg moves them). */
static int build_meta_index(struct zn_fs *fs)
{
	uint32_t g;

	fs->od->meta = malloc((size_t)fs->ngroups * 3 * sizeof(*fs->od->meta));
	if (!fs->od->meta)
		return -1;
	for (g = 0; g < fs->ngroups; g++) {
		struct zn_group gi;

		zn_group_get(fs, g, &gi);
		fs->od->meta[fs->od->nmeta++] = (struct zn_extent){ gi.block_bitmap, 1 };
		fs->od->meta[fs->od->nmeta++] = (struct zn_extent){ gi.inode_bitmap, 1 };
		fs->od->meta[fs->od->nmeta++] = (struct zn_extent){ gi.inode_table,
							    fs->od->itable_blocks };
	}
	qsort(fs->od->meta, fs->od->nmeta, sizeof(*fs->od->meta), extent_cmp);
	return 0;
}

int zn_bitmap_read_raw(struct zn_fs *fs, uint32_t g, uint8_t *bm)
{
	struct zn_group gi;

	zn_group_get(fs, g, &gi);
	if (pread_all(fs->fd, bm, fs->block_size, gi.block_bitmap * fs->block_size))
		return zn_fail(ZN_EIO, "%s: reading block bitmap of group %u at block %llu",
			       fs->path, g, (unsigned long long)gi.block_bitmap);
	return ZN_OK;
}

static uint32_t bitmap_csum(const struct zn_fs *fs, const uint8_t *bm)
{
	return zn_crc32c(fs->od->csum_seed, bm, fs->blocks_per_group / 8);
}

int zn_bitmap_read(struct zn_fs *fs, uint32_t g, uint8_t *bm)
{
	struct zn_group gi;
	int err;

	zn_group_get(fs, g, &gi);
	if (gi.flags & ZN_BG_BLOCK_UNINIT) {
		zn_bitmap_synth(fs, g, bm);
		return ZN_OK;
	}
	err = zn_bitmap_read_raw(fs, g, bm);
	if (err)
		return err;
	if (zn_has_metadata_csum(fs) && !fs->trust_bitmaps) {
		const uint8_t *d = desc(fs, g);
		uint32_t want = get16(d + 0x18), have = bitmap_csum(fs, bm);

		if (fs->desc_size >= 64)
			want |= (uint32_t)get16(d + 0x38) << 16;
		else
			have &= 0xffff;
		if (want != have)
			return zn_fail(ZN_ECORRUPT, "%s: block bitmap checksum of group %u is wrong (stored %08x, computed %08x)",
				       fs->path, g, want, have);
	}
	return ZN_OK;
}

int zn_bitmap_write_raw(struct zn_fs *fs, uint32_t g, const uint8_t *bm)
{
	struct zn_group gi;

	zn_group_get(fs, g, &gi);
	if (pwrite_all(fs->fd, bm, fs->block_size, gi.block_bitmap * fs->block_size))
		return zn_fail(ZN_EIO, "%s: writing block bitmap of group %u at block %llu",
			       fs->path, g, (unsigned long long)gi.block_bitmap);
	return ZN_OK;
}

int zn_bitmap_write(struct zn_fs *fs, uint32_t g, const uint8_t *bm)
{
	int err = zn_bitmap_write_raw(fs, g, bm);

	if (!err)
		zn_group_set_bitmap_csum(fs, g, bitmap_csum(fs, bm));
	return err;
}

int zn_sync(struct zn_fs *fs)
{
	if (fsync(fs->fd))
		return zn_fail(ZN_EIO, "%s: fsync", fs->path);
	return ZN_OK;
}

/*
 * Write the descriptor table and the superblock, with checksums and the
 * superblock free count recomputed from the descriptors.  Backups are left
 * alone, as the kernel does.
 */
int zn_gdt_flush(struct zn_fs *fs)
{
	uint64_t total = 0;
	uint32_t g;

	if (fsync(fs->fd))
		return zn_fail(ZN_EIO, "%s: fsync", fs->path);
	for (g = 0; g < fs->ngroups; g++) {
		struct zn_group gi;

		if (zn_has_metadata_csum(fs) || zn_has_gdt_csum(fs))
			put16(desc(fs, g) + 0x1E, desc_csum(fs, g));
		zn_group_get(fs, g, &gi);
		total += gi.free_blocks;
	}
	if (pwrite_all(fs->fd, fs->od->gdt, (size_t)fs->od->gdt_blocks * fs->block_size,
		       (uint64_t)(fs->first_data_block + 1) * fs->block_size))
		return zn_fail(ZN_EIO, "%s: writing group descriptors", fs->path);
	put32(fs->od->sb + 0x0C, (uint32_t)total);
	if (fs->incompat & ZN_INCOMPAT_64BIT)
		put32(fs->od->sb + 0x158, (uint32_t)(total >> 32));
	fs->free_blocks = total;
	if (zn_has_metadata_csum(fs))
		put32(fs->od->sb + 0x3FC, zn_crc32c(~0u, fs->od->sb, 0x3FC));
	if (pwrite_all(fs->fd, fs->od->sb, 1024, 1024))
		return zn_fail(ZN_EIO, "%s: writing superblock", fs->path);
	if (fsync(fs->fd))
		return zn_fail(ZN_EIO, "%s: fsync", fs->path);
	return ZN_OK;
}

static int check_layout(struct zn_fs *fs, int writable)
{
	const uint8_t *sb = fs->od->sb;
	uint32_t log = get32(sb + 0x18);

	if (get16(sb + 0x38) != 0xEF53)
		return zn_fail(ZN_ENOTEXT, "%s: no ext2/3/4 superblock (magic 0xEF53) at byte 1024",
			       fs->path);
	if (log > 6)
		return zn_fail(ZN_ENOTEXT, "%s: block size 1024 << %u is outside 1 KiB..64 KiB",
			       fs->path, log);
	fs->block_size = 1024u << log;
	fs->compat = get32(sb + 0x5C);
	fs->incompat = get32(sb + 0x60);
	fs->ro_compat = get32(sb + 0x64);
	memcpy(fs->uuid, sb + 0x68, 16);
	fs->blocks_count = get32(sb + 0x04);
	fs->free_blocks = get32(sb + 0x0C);
	if (fs->incompat & ZN_INCOMPAT_64BIT) {
		fs->blocks_count |= (uint64_t)get32(sb + 0x150) << 32;
		fs->free_blocks |= (uint64_t)get32(sb + 0x158) << 32;
		fs->desc_size = get16(sb + 0xFE);
		if (fs->desc_size < 64 || fs->desc_size > 1024 ||
		    (fs->desc_size & (fs->desc_size - 1)))
			return zn_fail(ZN_ENOTEXT, "%s: 64bit descriptor size %u is not a power of two in 64..1024",
				       fs->path, fs->desc_size);
	} else {
		fs->desc_size = 32;
	}
	fs->first_data_block = get32(sb + 0x14);
	fs->blocks_per_group = get32(sb + 0x20);
	fs->od->inodes_per_group = get32(sb + 0x28);
	fs->od->inode_size = get32(sb + 0x4C) ? get16(sb + 0x58) : 128;
	if (fs->ro_compat & ZN_RO_COMPAT_BIGALLOC)
		return zn_fail(ZN_ENOTEXT, "%s: bigalloc (cluster bitmaps) is not supported",
			       fs->path);
	if (fs->incompat & ZN_INCOMPAT_META_BG)
		return zn_fail(ZN_ENOTEXT, "%s: meta_bg descriptor layout is not supported",
			       fs->path);
	if (fs->incompat & ZN_INCOMPAT_JOURNAL_DEV)
		return zn_fail(ZN_ENOTEXT, "%s: is an external journal device, not a file system",
			       fs->path);
	if (!fs->blocks_per_group || fs->blocks_per_group > fs->block_size * 8 ||
	    fs->blocks_per_group % 8 || !fs->od->inodes_per_group || !fs->od->inode_size ||
	    fs->first_data_block >= fs->blocks_count ||
	    fs->first_data_block != (fs->block_size == 1024 ? 1u : 0u))
		return zn_fail(ZN_ENOTEXT, "%s: implausible geometry (blocks per group %u, first data block %u)",
			       fs->path, fs->blocks_per_group, fs->first_data_block);
	fs->ngroups = (uint32_t)((fs->blocks_count - fs->first_data_block +
				  fs->blocks_per_group - 1) / fs->blocks_per_group);
	fs->od->gdt_blocks = (uint32_t)(((uint64_t)fs->ngroups * fs->desc_size +
				     fs->block_size - 1) / fs->block_size);
	fs->od->reserved_gdt = get16(sb + 0xCE);
	fs->od->itable_blocks = (uint32_t)(((uint64_t)fs->od->inodes_per_group * fs->od->inode_size +
					fs->block_size - 1) / fs->block_size);
	/* one inode bitmap block per group, and its inode table fits the group */
	if (fs->od->inodes_per_group > fs->block_size * 8 ||
	    fs->od->itable_blocks > fs->blocks_per_group)
		return zn_fail(ZN_ENOTEXT, "%s: implausible geometry (%u inodes of %u bytes per group of %u blocks)",
			       fs->path, fs->od->inodes_per_group, fs->od->inode_size,
			       fs->blocks_per_group);
	if (zn_has_metadata_csum(fs)) {
		if (sb[0x175] != 1)
			return zn_fail(ZN_ENOTEXT, "%s: metadata checksum type %u is not crc32c",
				       fs->path, sb[0x175]);
		if (get32(sb + 0x3FC) != zn_crc32c(~0u, sb, 0x3FC))
			return zn_fail(ZN_ECORRUPT, "%s: superblock checksum is wrong",
				       fs->path);
		fs->od->csum_seed = (fs->incompat & ZN_INCOMPAT_CSUM_SEED) ?
				get32(sb + 0x270) : zn_crc32c(~0u, fs->uuid, 16);
	}
	if (writable && (fs->incompat & ZN_INCOMPAT_RECOVER))
		return zn_fail(ZN_ECORRUPT, "%s: the ext3/4 journal needs recovery (mount and unmount it, or e2fsck)",
			       fs->path);
	return ZN_OK;
}

const char *zn_backend(void)
{
	return "hand-written (lib/zn_fs.c; refuses bigalloc and meta_bg)";
}

int zn_open(struct zn_fs *fs, const char *path, int writable)
{
	uint32_t g;
	size_t gdt_len;
	int err = zn_dev_open(fs, path, writable);

	if (err)
		return err;
	fs->cluster_ratio = 1;
	fs->od = calloc(1, sizeof(*fs->od));
	if (!fs->od) {
		zn_close(fs);
		return zn_fail(ZN_EIO, "out of memory");
	}
	if (pread_all(fs->fd, fs->od->sb, 1024, 1024)) {
		zn_close(fs);
		return zn_fail(ZN_ENOTEXT, "%s: too small to hold a superblock", path);
	}
	err = check_layout(fs, writable);
	if (!err)
		err = zn_dev_check_size(fs, fs->blocks_count, fs->block_size);
	if (err) {
		zn_close(fs);
		return err;
	}
	gdt_len = (size_t)fs->od->gdt_blocks * fs->block_size;
	fs->od->gdt = malloc(gdt_len);
	if (!fs->od->gdt || pread_all(fs->fd, fs->od->gdt, gdt_len,
				      (uint64_t)(fs->first_data_block + 1) * fs->block_size)) {
		zn_close(fs);
		return zn_fail(ZN_ENOTEXT, "%s: cannot read group descriptors", path);
	}
	for (g = 0; g < fs->ngroups; g++) {
		struct zn_group gi;

		zn_group_get(fs, g, &gi);
		if (!group_csum_ok(fs, g)) {
			zn_close(fs);
			return zn_fail(ZN_ECORRUPT, "%s: descriptor checksum of group %u is wrong",
				       path, g);
		}
		if (gi.block_bitmap < fs->first_data_block ||
		    gi.block_bitmap >= fs->blocks_count) {
			zn_close(fs);
			return zn_fail(ZN_ENOTEXT, "%s: block bitmap of group %u at %llu is outside the file system",
				       path, g, (unsigned long long)gi.block_bitmap);
		}
	}
	if (build_meta_index(fs)) {
		zn_close(fs);
		return zn_fail(ZN_EIO, "out of memory");
	}
	return ZN_OK;
}

void zn_close(struct zn_fs *fs)
{
	zn_dev_close(fs);
	if (!fs->od)
		return;
	free(fs->od->gdt);
	free(fs->od->meta);
	free(fs->od);
	fs->od = NULL;
}

uint32_t zn_group_bitmap_csum_stored(const struct zn_fs *fs, uint32_t g)
{
	const uint8_t *d = desc(fs, g);
	uint32_t c = get16(d + 0x18);

	if (fs->desc_size >= 64)
		c |= (uint32_t)get16(d + 0x38) << 16;
	return c;
}
