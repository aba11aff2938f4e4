// SPDX-License-Identifier: Apache-2.0
/*
 * Allowed areas (seed §4.3, made crash safe).
 *
 * For each group the bitmap is   current = real | ours   where "real" are
 * the blocks the file system uses and "ours" the blocks we marked in use to
 * keep allocations out.  Making [start, end) the allowed area sets
 *   ours' = forbidden & ~real,   current' = real | ours'.
 * Release is the case forbidden = {} : current' = real, so blocks the file
 * system allocated or freed meanwhile are kept as they are.
 *
 * Protocol: plan every group, write the journal (prev = ours, target =
 * ours') with state APPLYING and fsync it, then write bitmaps, then the
 * descriptors and superblock (free counts recomputed from the bitmaps,
 * checksums updated), then mark the journal STABLE (or delete it after a
 * release).  Nothing allocates on an unmounted device meanwhile, so
 * real = current & ~(prev | target) holds whichever bitmaps were written
 * when a crash hits; recovery completes a release and undoes anything else.
 * A group that was BLOCK_UNINIT gets its flag and original bitmap block
 * back once none of its bits are ours and it is still untouched.
 */
#include <stdlib.h>
#include <string.h>
#include "zn.h"

struct scratch {
	uint8_t *cur, *syn;
};

static int scratch_init(const struct zn_fs *fs, struct scratch *s)
{
	s->cur = malloc(fs->block_size);
	s->syn = malloc(fs->block_size);
	if (!s->cur || !s->syn) {
		free(s->cur);
		free(s->syn);
		return zn_fail(ZN_EIO, "out of memory");
	}
	return ZN_OK;
}

static void scratch_free(struct scratch *s)
{
	free(s->cur);
	free(s->syn);
}

/* Rewrite group jg->group as real | mask. */
static int apply_group(struct zn_fs *fs, struct zn_jgroup *jg,
		       const uint8_t *mask, struct scratch *s)
{
	uint32_t g = jg->group, i, mlen = fs->blocks_per_group / 8;
	struct zn_group gi;
	int err, empty = 1;

	err = zn_bitmap_read(fs, g, s->cur);
	if (err)
		return err;
	for (i = 0; i < mlen; i++) {
		s->cur[i] = (uint8_t)((s->cur[i] & ~(jg->prev[i] | jg->target[i])) |
				      mask[i]);
		empty &= !mask[i];
	}
	zn_group_get(fs, g, &gi);
	if (empty && (jg->orig_flags & ZN_BG_BLOCK_UNINIT)) {
		zn_bitmap_synth(fs, g, s->syn);
		if (!memcmp(s->syn, s->cur, fs->block_size)) {
			/*
			 * Untouched since reserve: give back the exact original.
			 * Until the BLOCK_UNINIT flag is on disk the block must
			 * stay a valid bitmap, so write the built one now and
			 * the original bytes only after the descriptors.
			 */
			err = zn_bitmap_write(fs, g, s->syn);
			if (err)
				return err;
			zn_group_set_bitmap_csum(fs, g, jg->orig_csum);
			zn_group_set_flags(fs, g, (uint16_t)(gi.flags | ZN_BG_BLOCK_UNINIT));
			zn_group_set_free(fs, g, zn_bitmap_free(fs, g, s->syn));
			jg->restore_raw = 1;
			return ZN_OK;
		}
	}
	err = zn_bitmap_write(fs, g, s->cur);
	if (err)
		return err;
	zn_group_set_flags(fs, g, (uint16_t)(gi.flags & ~ZN_BG_BLOCK_UNINIT));
	zn_group_set_free(fs, g, zn_bitmap_free(fs, g, s->cur));
	return ZN_OK;
}

static int mask_empty(const uint8_t *m, uint32_t len)
{
	while (len--)
		if (*m++)
			return 0;
	return 1;
}

static int all_targets_empty(const struct zn_fs *fs, const struct zn_journal *j)
{
	uint32_t i;

	for (i = 0; i < j->ngroups; i++)
		if (!mask_empty(j->groups[i].target, fs->blocks_per_group / 8))
			return 0;
	return 1;
}

static struct zn_jgroup *add_record(struct zn_fs *fs, struct zn_journal *j,
				    uint32_t g, const uint8_t *raw)
{
	struct zn_jgroup *r, *grown;
	struct zn_group gi;
	uint32_t mlen = fs->blocks_per_group / 8;

	grown = realloc(j->groups, (j->ngroups + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	j->groups = grown;
	r = &j->groups[j->ngroups];
	memset(r, 0, sizeof(*r));
	zn_group_get(fs, g, &gi);
	if (gi.flags & ZN_BG_BLOCK_UNINIT)
		r->orig_bitmap = malloc(fs->block_size);
	r->prev = calloc(1, mlen);
	r->target = calloc(1, mlen);
	if ((!r->orig_bitmap && (gi.flags & ZN_BG_BLOCK_UNINIT)) ||
	    !r->prev || !r->target) {
		free(r->orig_bitmap);
		free(r->prev);
		free(r->target);
		return NULL;
	}
	r->group = g;
	r->orig_flags = gi.flags;
	r->orig_csum = zn_group_bitmap_csum_stored(fs, g);
	if (r->orig_bitmap)
		memcpy(r->orig_bitmap, raw, fs->block_size);
	j->ngroups++;
	return r;
}

static int write_all_groups(struct zn_fs *fs, struct zn_journal *j,
			    int forward, struct scratch *s)
{
	uint32_t i, written = 0;
	int err;

	for (i = 0; i < j->ngroups; i++) {
		struct zn_jgroup *r = &j->groups[i];

		if (!memcmp(r->prev, r->target, fs->blocks_per_group / 8))
			continue;
		err = apply_group(fs, r, forward ? r->target : r->prev, s);
		if (err)
			return err;
		if (written++ == 0)
			zn_crash_point("after-first-bitmap");
	}
	zn_crash_point("before-descriptors");
	err = zn_gdt_flush(fs);
	for (i = 0; i < j->ngroups && !err; i++) {
		if (!j->groups[i].restore_raw)
			continue;
		j->groups[i].restore_raw = 0;
		err = zn_bitmap_write_raw(fs, j->groups[i].group,
					  j->groups[i].orig_bitmap);
	}
	return err ? err : zn_sync(fs);
}

/* Journal says the operation is done: make prev == target, drop or keep. */
static int settle(struct zn_fs *fs, struct zn_journal *j)
{
	uint32_t i;

	if (all_targets_empty(fs, j)) {
		j->start = j->end = 0;
		return zn_journal_remove(j);
	}
	for (i = 0; i < j->ngroups; i++)
		memcpy(j->groups[i].prev, j->groups[i].target,
		       fs->blocks_per_group / 8);
	j->state = ZN_J_STABLE;
	j->releasing = 0;
	j->prev_start = j->start;
	j->prev_end = j->end;
	return zn_journal_store(j);
}

int zn_zone_apply(struct zn_fs *fs, struct zn_journal *j, uint64_t start,
		  uint64_t end, int dry_run, struct zn_plan_stats *st)
{
	uint32_t g, b, mlen = fs->blocks_per_group / 8, changed = 0;
	int release = (start == 0 && end == 0), err = ZN_OK;
	uint8_t *target = NULL;
	struct scratch s;

	memset(st, 0, sizeof(*st));
	if (j->state == ZN_J_APPLYING)
		return zn_fail(ZN_EJOURNAL, "journal %s records an interrupted operation on %s; run 'zonectl recover' first",
			       j->path, fs->path);
	if (!release && (start < fs->first_data_block || start >= end ||
			 end > fs->blocks_count))
		return zn_fail(ZN_ERANGE, "%s: allowed area [%llu, %llu) is not inside blocks [%u, %llu)",
			       fs->path, (unsigned long long)start,
			       (unsigned long long)end, fs->first_data_block,
			       (unsigned long long)fs->blocks_count);
	err = scratch_init(fs, &s);
	if (err)
		return err;
	target = malloc(mlen);
	if (!target) {
		scratch_free(&s);
		return zn_fail(ZN_EIO, "out of memory");
	}
	for (g = 0; g < fs->ngroups && !err; g++) {
		uint64_t first = zn_group_first(fs, g);
		uint32_t n = zn_group_nblocks(fs, g);
		struct zn_jgroup *r = zn_journal_group(j, g);

		err = zn_bitmap_read(fs, g, s.cur);
		if (err)
			break;
		memset(target, 0, mlen);
		for (b = 0; b < n && !release; b++) {
			uint64_t blk = first + b;
			int ours = r && zn_test_bit(r->target, b);
			int real = zn_test_bit(s.cur, b) && !ours;

			if ((blk < start || blk >= end) && !real)
				zn_set_bit(target, b);
		}
		if (r) {
			memcpy(r->prev, r->target, mlen);
			if (!memcmp(r->prev, target, mlen))
				continue;
		} else {
			if (mask_empty(target, mlen))
				continue;
			err = zn_bitmap_read_raw(fs, g, s.syn);
			if (err)
				break;
			r = add_record(fs, j, g, s.syn);
			if (!r) {
				err = zn_fail(ZN_EIO, "out of memory");
				break;
			}
		}
		for (b = 0; b < n; b++) {
			int was = zn_test_bit(r->prev, b), will = zn_test_bit(target, b);

			st->blocks_set += !was && will;
			st->blocks_cleared += was && !will;
		}
		memcpy(r->target, target, mlen);
		changed++;
	}
	free(target);
	st->groups_written = changed;
	if (err || dry_run || !changed) {
		scratch_free(&s);
		if (!err && !dry_run && release && j->ngroups)
			err = zn_journal_remove(j);
		return err;
	}
	j->prev_start = j->start;
	j->prev_end = j->end;
	j->start = start;
	j->end = end;
	j->releasing = release;
	j->state = ZN_J_APPLYING;
	err = zn_journal_store(j);
	if (!err) {
		zn_crash_point("after-journal");
		err = write_all_groups(fs, j, 1, &s);
	}
	scratch_free(&s);
	if (err)
		return err;
	zn_crash_point("before-settle");
	return settle(fs, j);
}

int zn_zone_recover(struct zn_fs *fs, struct zn_journal *j)
{
	struct scratch s;
	uint32_t i;
	int err, forward = j->releasing;

	if (j->state != ZN_J_APPLYING)
		return ZN_OK;
	/* a crash may sit between a bitmap write and its checksum update */
	fs->trust_bitmaps = 1;
	err = scratch_init(fs, &s);
	if (err)
		return err;
	err = write_all_groups(fs, j, forward, &s);
	scratch_free(&s);
	if (err)
		return err;
	if (!forward) {
		for (i = 0; i < j->ngroups; i++)
			memcpy(j->groups[i].target, j->groups[i].prev,
			       fs->blocks_per_group / 8);
		j->start = j->prev_start;
		j->end = j->prev_end;
	}
	return settle(fs, j);
}

int zn_zone_free_in(struct zn_fs *fs, uint64_t start, uint64_t end,
		    uint64_t *free_out)
{
	uint8_t *bm = malloc(fs->block_size);
	uint64_t total = 0;
	uint32_t g;
	int err = ZN_OK;

	if (!bm)
		return zn_fail(ZN_EIO, "out of memory");
	for (g = 0; g < fs->ngroups; g++) {
		uint64_t first = zn_group_first(fs, g);
		uint32_t b, n = zn_group_nblocks(fs, g);

		if (first + n <= start || first >= end)
			continue;
		err = zn_bitmap_read(fs, g, bm);
		if (err)
			break;
		for (b = 0; b < n; b++)
			if (first + b >= start && first + b < end &&
			    !zn_test_bit(bm, b))
				total++;
	}
	free(bm);
	*free_out = total;
	return err;
}

/*
 * Smallest end >= start such that [start, end) holds `want` blocks that are
 * free for the file system (bits that are ours count as free: they only
 * exist because of the reservation).  blocks_count if there are not enough.
 */
int zn_zone_find_end(struct zn_fs *fs, struct zn_journal *j, uint64_t start,
		     uint64_t want, uint64_t *end_out)
{
	uint8_t *bm = malloc(fs->block_size);
	uint64_t seen = 0;
	uint32_t g;
	int err = ZN_OK;

	if (!bm)
		return zn_fail(ZN_EIO, "out of memory");
	*end_out = fs->blocks_count;
	for (g = zn_block_group(fs, start); g < fs->ngroups; g++) {
		uint64_t first = zn_group_first(fs, g);
		uint32_t b, n = zn_group_nblocks(fs, g);
		struct zn_jgroup *r = zn_journal_group(j, g);

		err = zn_bitmap_read(fs, g, bm);
		if (err)
			break;
		for (b = 0; b < n; b++) {
			if (first + b < start)
				continue;
			if (seen >= want) {
				*end_out = first + b;
				goto out;
			}
			if (!zn_test_bit(bm, b) || (r && zn_test_bit(r->target, b)))
				seen++;
		}
	}
out:
	free(bm);
	return err;
}
