// SPDX-License-Identifier: Apache-2.0
/*
 * What both on-disk back ends derive the same way from the geometry in
 * struct zn_fs (units, see zn.h): group ranges, the feature tests the
 * commands show, and a group's free count from its bitmap.
 */
#include "zn.h"

int zn_has_metadata_csum(const struct zn_fs *fs)
{
	return !!(fs->ro_compat & ZN_RO_COMPAT_METADATA_CSUM);
}

int zn_has_gdt_csum(const struct zn_fs *fs)
{
	return !zn_has_metadata_csum(fs) &&
	       (fs->ro_compat & ZN_RO_COMPAT_GDT_CSUM);
}

const char *zn_fs_kind(const struct zn_fs *fs)
{
	if (fs->incompat & (ZN_INCOMPAT_EXTENTS | ZN_INCOMPAT_64BIT |
			    ZN_INCOMPAT_FLEX_BG) ||
	    fs->ro_compat & (ZN_RO_COMPAT_METADATA_CSUM | ZN_RO_COMPAT_GDT_CSUM))
		return "ext4";
	if (fs->compat & ZN_COMPAT_HAS_JOURNAL)
		return "ext3";
	return "ext2";
}

uint64_t zn_group_first(const struct zn_fs *fs, uint32_t g)
{
	return fs->first_data_block + (uint64_t)g * fs->blocks_per_group;
}

uint32_t zn_group_nblocks(const struct zn_fs *fs, uint32_t g)
{
	uint64_t first = zn_group_first(fs, g);
	uint64_t left = fs->blocks_count - first;

	return left < fs->blocks_per_group ? (uint32_t)left :
					     fs->blocks_per_group;
}

uint32_t zn_block_group(const struct zn_fs *fs, uint64_t blk)
{
	return (uint32_t)((blk - fs->first_data_block) / fs->blocks_per_group);
}

uint32_t zn_bitmap_free(const struct zn_fs *fs, uint32_t g, const uint8_t *bm)
{
	uint32_t i, n = zn_group_nblocks(fs, g), free_blocks = 0;

	for (i = 0; i < n; i++)
		free_blocks += !zn_test_bit(bm, i);
	return free_blocks;
}
