// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target: zonectl's on-disk parser on a mutated ext2/3/4 image.
 *
 * The input is the image up to its last block holding data (the seeds are
 * small file systems made by mke2fs, see make-seeds); the harness extends
 * it with zeros to the size its superblock claims (fz_memfd).  It goes
 * into a memfd that zn_open opens for
 * writing, the way 'zonectl reserve' opens a device, so every check on
 * the superblock, the descriptor table, the checksums and the bitmaps runs
 * on mutated bytes.  What must hold:
 *  - no crash, leak or undefined behaviour (ASan, UBSan, libFuzzer);
 *  - an image zn_open refuses is byte for byte what it was: zonectl never
 *    writes to an image it cannot parse;
 *  - an image it accepts goes through a whole reserve and release (the
 *    journal in a private directory under /dev/shm), which either works or
 *    refuses with an error code, and leaves the superblock's magic where
 *    it was.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "zn.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zn_fs fs;
	struct zn_journal j;
	struct zn_plan_stats st;
	char path[64], jpath[256];
	uint8_t *bm;
	uint64_t free_in, end;
	uint32_t g;
	int fd, err, exists;

	fd = fz_memfd(data, size, 1, path, sizeof(path));
	err = zn_open(&fs, path, 1);
	if (err) {
		if (err <= ZN_OK || err >= ZN_ERRMAX)
			abort();	/* every refusal is a known error code */
		fz_expect_content(fd, data, size);
		close(fd);
		return 0;
	}
	bm = malloc(fs.block_size);
	if (!bm)
		abort();
	for (g = 0; g < fs.ngroups; g++)
		if (!zn_bitmap_read(&fs, g, bm))
			zn_bitmap_free(&fs, g, bm);
	free(bm);
	zn_zone_free_in(&fs, fs.first_data_block, fs.blocks_count, &free_in);

	fz_journal_path(jpath, sizeof(jpath));
	unlink(jpath);
	if (zn_journal_load(&fs, jpath, &j, &exists) || exists)
		abort();	/* no journal yet: an empty one */
	end = fs.first_data_block + (fs.blocks_count - fs.first_data_block) / 2;
	if (end > fs.first_data_block &&
	    !zn_zone_find_end(&fs, &j, fs.first_data_block, 8, &end) &&
	    end > fs.first_data_block &&
	    !zn_zone_apply(&fs, &j, fs.first_data_block, end, 1, &st) &&
	    !zn_zone_apply(&fs, &j, fs.first_data_block, end, 0, &st))
		zn_zone_apply(&fs, &j, 0, 0, 0, &st);
	zn_journal_free(&j);
	unlink(jpath);
	zn_close(&fs);
	fz_expect_magic(fd);
	close(fd);
	return 0;
}
