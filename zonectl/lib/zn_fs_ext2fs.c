// SPDX-License-Identifier: Apache-2.0
/*
 * The libext2fs on-disk back end: zonectl-ext2fs, opt-in, because it links
 * e2fsprogs' libext2fs (LGPL-2; docs/zone.md).  Same contract as zn_fs.c,
 * but the library does the layout work, so bigalloc and meta_bg work too:
 * ext2fs_open2 reads the superblock and the descriptors wherever meta_bg
 * puts them, ext2fs_check_desc validates them, ext2fs_reserve_super_and_bgd
 * names the blocks each group's superblock and descriptor copies take, the
 * ext2fs_*csum* calls verify and set every checksum, and ext2fs_flush2
 * writes the descriptors and the superblock.
 *
 * What stays here is the write order the zone journal relies on.
 * libext2fs writes all dirty bitmaps in one call; here each group's bitmap
 * block is written alone with io_channel_write_blk64 at
 * ext2fs_block_bitmap_loc, with the channel's cache off, so a write has
 * reached the kernel when the call returns, as pwrite has in zn_fs.c.
 * Bitmaps are never loaded into libext2fs, so ext2fs_flush2 writes only
 * descriptors and the superblock, and the handle is freed, never closed:
 * ext2fs_close would flush whatever a failed operation left in memory.
 *
 * bigalloc: a block bitmap has one bit per cluster, so zonectl's unit is
 * the cluster (zn.h): block_size is the cluster size and every count in
 * struct zn_fs is in clusters.  A bitmap buffer is one unit long; the
 * bitmap block fills its first file system block, the rest stays zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ext2fs/ext2fs.h>
#include "zn.h"

struct zn_ondisk {
	ext2_filsys e2;
	ext2fs_block_bitmap meta;	/* see build_meta_map */
};

/* Bytes of a group's bitmap that hold bits (what the checksum covers). */
static int bitmap_bytes(const struct zn_fs *fs)
{
	return (int)(fs->blocks_per_group / 8);
}

static int uninit(const struct zn_fs *fs, uint32_t g)
{
	ext2_filsys e2 = fs->od->e2;

	return ext2fs_has_group_desc_csum(e2) &&
	       ext2fs_bg_flags_test(e2, g, EXT2_BG_BLOCK_UNINIT);
}

/*
 * Superblock and descriptor copies (meta_bg puts them elsewhere), bitmaps
 * and inode tables of every group: what a BLOCK_UNINIT group's bitmap holds
 * where they lie in it.  A cluster bitmap with bigalloc; an rbtree, so it
 * costs memory by extents, not by blocks.
 */
static errcode_t build_meta_map(struct zn_fs *fs)
{
	ext2_filsys e2 = fs->od->e2;
	ext2fs_block_bitmap m;
	errcode_t e;
	dgrp_t g;

	e = ext2fs_allocate_block_bitmap(e2, "zonectl metadata", &m);
	if (e)
		return e;
	for (g = 0; g < e2->group_desc_count; g++) {
		ext2fs_reserve_super_and_bgd(e2, g, m);
		ext2fs_mark_block_bitmap2(m, ext2fs_block_bitmap_loc(e2, g));
		ext2fs_mark_block_bitmap2(m, ext2fs_inode_bitmap_loc(e2, g));
		ext2fs_mark_block_bitmap_range2(m, ext2fs_inode_table_loc(e2, g),
						e2->inode_blocks_per_group);
	}
	fs->od->meta = m;
	return 0;
}

/*
 * zn_fs.c's refusals in its words, bigalloc and meta_bg aside, and what
 * ext2fs_check_desc finds wrong with the descriptors.
 */
static int check_layout(struct zn_fs *fs, int writable)
{
	ext2_filsys e2 = fs->od->e2;
	struct ext2_super_block *sb = e2->super;
	errcode_t e;
	dgrp_t g;

	if (ext2fs_has_feature_journal_dev(sb))
		return zn_fail(ZN_ENOTEXT, "%s: is an external journal device, not a file system",
			       fs->path);
	if (ext2fs_has_feature_metadata_csum(sb)) {
		if (!ext2fs_verify_csum_type(e2, sb))
			return zn_fail(ZN_ENOTEXT, "%s: metadata checksum type %u is not crc32c",
				       fs->path, sb->s_checksum_type);
		if (!ext2fs_superblock_csum_verify(e2, sb))
			return zn_fail(ZN_ECORRUPT, "%s: superblock checksum is wrong",
				       fs->path);
	}
	if (writable && ext2fs_has_feature_journal_needs_recovery(sb))
		return zn_fail(ZN_ECORRUPT, "%s: the ext3/4 journal needs recovery (mount and unmount it, or e2fsck)",
			       fs->path);
	for (g = 0; g < e2->group_desc_count; g++)
		if (!ext2fs_group_desc_csum_verify(e2, g))
			return zn_fail(ZN_ECORRUPT, "%s: descriptor checksum of group %u is wrong",
				       fs->path, g);
	e = ext2fs_check_desc(e2);
	if (e)
		return zn_fail(ZN_ECORRUPT, "%s: group descriptors: %s", fs->path,
			       error_message(e));
	return ZN_OK;
}

const char *zn_backend(void)
{
	static char name[96];
	const char *ver = "?";

	ext2fs_get_library_version(&ver, NULL);
	snprintf(name, sizeof(name), "libext2fs %s (LGPL-2; lib/zn_fs_ext2fs.c)", ver);
	return name;
}

int zn_open(struct zn_fs *fs, const char *path, int writable)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_JOURNAL_DEV_OK |
		    EXT2_FLAG_IGNORE_CSUM_ERRORS | EXT2_FLAG_SKIP_MMP;
	struct ext2_super_block *sb;
	ext2_filsys e2;
	errcode_t e;
	int err = zn_dev_open(fs, path, writable);

	if (err)
		return err;
	initialize_ext2_error_table();
	fs->od = calloc(1, sizeof(*fs->od));
	if (!fs->od) {
		zn_close(fs);
		return zn_fail(ZN_EIO, "out of memory");
	}
	/* backups stay as they are, as the kernel leaves them */
	if (writable)
		flags |= EXT2_FLAG_RW | EXT2_FLAG_MASTER_SB_ONLY;
	e = ext2fs_open2(path, "cache=off", flags, 0, 0, unix_io_manager, &fs->od->e2);
	if (e) {
		zn_close(fs);
		if (e == EXT2_ET_BAD_MAGIC)
			return zn_fail(ZN_ENOTEXT, "%s: no ext2/3/4 superblock (magic 0xEF53) at byte 1024",
				       path);
		return zn_fail(ZN_ENOTEXT, "%s: libext2fs cannot open it: %s", path,
			       error_message(e));
	}
	e2 = fs->od->e2;
	sb = e2->super;
	e2->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	err = check_layout(fs, writable);
	if (err) {
		zn_close(fs);
		return err;
	}
	err = zn_dev_check_size(fs, ext2fs_blocks_count(sb), EXT2_BLOCK_SIZE(sb));
	if (err) {
		zn_close(fs);
		return err;
	}
	e = build_meta_map(fs);
	if (e) {
		zn_close(fs);
		return zn_fail(ZN_EIO, "%s: %s", path, error_message(e));
	}
	fs->cluster_ratio = EXT2FS_CLUSTER_RATIO(e2);
	fs->block_size = EXT2_CLUSTER_SIZE(sb);
	fs->blocks_count = EXT2FS_NUM_B2C(e2, ext2fs_blocks_count(sb));
	fs->free_blocks = EXT2FS_B2C(e2, ext2fs_free_blocks_count(sb));
	fs->first_data_block = EXT2FS_B2C(e2, sb->s_first_data_block);
	fs->blocks_per_group = EXT2_CLUSTERS_PER_GROUP(sb);
	fs->ngroups = e2->group_desc_count;
	fs->desc_size = EXT2_DESC_SIZE(sb);
	fs->compat = sb->s_feature_compat;
	fs->incompat = sb->s_feature_incompat;
	fs->ro_compat = sb->s_feature_ro_compat;
	memcpy(fs->uuid, sb->s_uuid, 16);
	return ZN_OK;
}

void zn_close(struct zn_fs *fs)
{
	if (fs->od) {
		if (fs->od->meta)
			ext2fs_free_block_bitmap(fs->od->meta);
		if (fs->od->e2)
			ext2fs_free(fs->od->e2);
		free(fs->od);
		fs->od = NULL;
	}
	zn_dev_close(fs);
}

void zn_group_get(const struct zn_fs *fs, uint32_t g, struct zn_group *o)
{
	ext2_filsys e2 = fs->od->e2;

	o->block_bitmap = ext2fs_block_bitmap_loc(e2, g);
	o->inode_bitmap = ext2fs_inode_bitmap_loc(e2, g);
	o->inode_table = ext2fs_inode_table_loc(e2, g);
	o->free_blocks = ext2fs_bg_free_blocks_count(e2, g);
	o->flags = ext2fs_bg_flags(e2, g);
}

void zn_group_set_free(struct zn_fs *fs, uint32_t g, uint32_t n)
{
	ext2fs_bg_free_blocks_count_set(fs->od->e2, g, n);
}

void zn_group_set_flags(struct zn_fs *fs, uint32_t g, uint16_t flags)
{
	ext2fs_bg_flags_zap(fs->od->e2, g);
	ext2fs_bg_flags_set(fs->od->e2, g, flags);
}

uint32_t zn_group_bitmap_csum_stored(const struct zn_fs *fs, uint32_t g)
{
	return ext2fs_block_bitmap_checksum(fs->od->e2, g);
}

/*
 * Put back a stored bitmap checksum (a BLOCK_UNINIT group's, which need
 * not match any bitmap).  libext2fs only sets one computed from a buffer,
 * so the fields are set as ext2fs_block_bitmap_csum_set sets them.
 */
void zn_group_set_bitmap_csum(struct zn_fs *fs, uint32_t g, uint32_t csum)
{
	ext2_filsys e2 = fs->od->e2;
	struct ext4_group_desc *d;

	if (!ext2fs_has_feature_metadata_csum(e2->super))
		return;
	d = (struct ext4_group_desc *)ext2fs_group_desc(e2, e2->group_desc, g);
	d->bg_block_bitmap_csum_lo = (__u16)csum;
	if (EXT2_DESC_SIZE(e2->super) >= EXT4_BG_BLOCK_BITMAP_CSUM_HI_LOCATION)
		d->bg_block_bitmap_csum_hi = (__u16)(csum >> 16);
}

/*
 * What ext4 builds for a BLOCK_UNINIT group: the metadata lying in it,
 * and all bits past the group's last unit up to the end of the block.
 */
void zn_bitmap_synth(const struct zn_fs *fs, uint32_t g, uint8_t *bm)
{
	uint32_t i, n = zn_group_nblocks(fs, g);

	memset(bm, 0, fs->block_size);
	ext2fs_get_block_bitmap_range2(fs->od->meta, zn_group_first(fs, g), n, bm);
	for (i = n; i < fs->od->e2->blocksize * 8; i++)
		zn_set_bit(bm, i);
}

int zn_bitmap_read_raw(struct zn_fs *fs, uint32_t g, uint8_t *bm)
{
	blk64_t blk = ext2fs_block_bitmap_loc(fs->od->e2, g);

	memset(bm, 0, fs->block_size);
	if (io_channel_read_blk64(fs->od->e2->io, blk, 1, bm))
		return zn_fail(ZN_EIO, "%s: reading block bitmap of group %u at block %llu",
			       fs->path, g, (unsigned long long)blk);
	return ZN_OK;
}

int zn_bitmap_read(struct zn_fs *fs, uint32_t g, uint8_t *bm)
{
	ext2_filsys e2 = fs->od->e2;
	uint32_t want, have;
	int err;

	if (uninit(fs, g)) {
		zn_bitmap_synth(fs, g, bm);
		return ZN_OK;
	}
	err = zn_bitmap_read_raw(fs, g, bm);
	if (err || fs->trust_bitmaps ||
	    ext2fs_block_bitmap_csum_verify(e2, g, (char *)bm, bitmap_bytes(fs)))
		return err;
	want = ext2fs_block_bitmap_checksum(e2, g);
	have = ext2fs_crc32c_le(e2->csum_seed, bm, (size_t)bitmap_bytes(fs));
	if (EXT2_DESC_SIZE(e2->super) < EXT4_BG_BLOCK_BITMAP_CSUM_HI_LOCATION)
		have &= 0xffff;
	return zn_fail(ZN_ECORRUPT, "%s: block bitmap checksum of group %u is wrong (stored %08x, computed %08x)",
		       fs->path, g, want, have);
}

int zn_bitmap_write_raw(struct zn_fs *fs, uint32_t g, const uint8_t *bm)
{
	blk64_t blk = ext2fs_block_bitmap_loc(fs->od->e2, g);

	if (io_channel_write_blk64(fs->od->e2->io, blk, 1, bm))
		return zn_fail(ZN_EIO, "%s: writing block bitmap of group %u at block %llu",
			       fs->path, g, (unsigned long long)blk);
	return ZN_OK;
}

int zn_bitmap_write(struct zn_fs *fs, uint32_t g, const uint8_t *bm)
{
	int err = zn_bitmap_write_raw(fs, g, bm);

	if (!err)
		ext2fs_block_bitmap_csum_set(fs->od->e2, g, (char *)bm, bitmap_bytes(fs));
	return err;
}

int zn_sync(struct zn_fs *fs)
{
	if (io_channel_flush(fs->od->e2->io))
		return zn_fail(ZN_EIO, "%s: fsync", fs->path);
	return ZN_OK;
}

/*
 * Descriptor checksums and the superblock free count (in blocks, also with
 * bigalloc), then ext2fs_flush2: descriptors, superblock with its checksum,
 * each fsync'd.  The bitmaps they describe are made durable first.
 */
int zn_gdt_flush(struct zn_fs *fs)
{
	ext2_filsys e2 = fs->od->e2;
	uint64_t total = 0;
	errcode_t e;
	dgrp_t g;
	int err = zn_sync(fs);

	if (err)
		return err;
	for (g = 0; g < e2->group_desc_count; g++) {
		ext2fs_group_desc_csum_set(e2, g);
		total += ext2fs_bg_free_blocks_count(e2, g);
	}
	ext2fs_free_blocks_count_set(e2->super, EXT2FS_C2B(e2, total));
	fs->free_blocks = total;
	ext2fs_mark_super_dirty(e2);
	e = ext2fs_flush2(e2, 0);
	if (e)
		return zn_fail(ZN_EIO, "%s: writing group descriptors and superblock: %s",
			       fs->path, error_message(e));
	return ZN_OK;
}
