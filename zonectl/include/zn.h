/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zn - the zone library behind zonectl (Locus issue 5, seed 002 §4.3).
 *
 * Mechanism only: read and write ext2/ext3/ext4 superblocks, group
 * descriptors and block bitmaps; keep their checksums right; journal every
 * bitmap it changes.  Policy (which area to allow, when) lives in the
 * zonectl commands.
 *
 * The idea (seed §4.3): blocks outside the "allowed area" are marked in use
 * in the block bitmaps, so any allocator that trusts the bitmaps (libext2fs,
 * the kernel after mount) only places new data inside the allowed area.
 * Bits we set are "ours"; release clears exactly those, never a bit the file
 * system set.
 */
#ifndef ZN_H
#define ZN_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* Error codes; they are also zonectl's exit codes.  See zn_error.c. */
enum zn_err {
	ZN_OK = 0,
	ZN_EUSAGE = 1,		/* bad command line */
	ZN_ENOTEXT = 2,		/* not an ext2/3/4 fs, or unsupported layout */
	ZN_EMOUNTED = 3,	/* device in use (mounted) where offline needed */
	ZN_ERANGE = 4,		/* range outside the file system */
	ZN_EJOURNAL = 5,	/* journal foreign, corrupt, or pending */
	ZN_EPERM = 6,		/* no permission to open device or journal */
	ZN_EIO = 7,		/* read/write/fsync failed */
	ZN_ECORRUPT = 8,	/* bad checksum or inconsistent fs: run e2fsck */
	ZN_ESTATE = 9,		/* operation does not fit the current state */
	ZN_ERRMAX
};

const char *zn_strerror(int err);
/* Report an error: "zonectl: <what>: <message of err>" plus a hint. */
int zn_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* crc32c (Castagnoli), raw: no pre/post inversion, as ext4 uses it. */
uint32_t zn_crc32c(uint32_t crc, const void *buf, size_t len);
/* crc16 (poly 0x8005 reflected), as ext4 GDT_CSUM (uninit_bg) uses it. */
uint16_t zn_crc16(uint16_t crc, const void *buf, size_t len);

/* Feature bits we look at (on-disk superblock fields). */
#define ZN_COMPAT_HAS_JOURNAL	0x0004
#define ZN_COMPAT_SPARSE_SUPER2	0x0200
#define ZN_INCOMPAT_RECOVER	0x0004
#define ZN_INCOMPAT_JOURNAL_DEV	0x0008
#define ZN_INCOMPAT_META_BG	0x0010
#define ZN_INCOMPAT_EXTENTS	0x0040
#define ZN_INCOMPAT_64BIT	0x0080
#define ZN_INCOMPAT_FLEX_BG	0x0200
#define ZN_INCOMPAT_CSUM_SEED	0x2000
#define ZN_RO_COMPAT_SPARSE_SUPER 0x0001
#define ZN_RO_COMPAT_GDT_CSUM	0x0010
#define ZN_RO_COMPAT_BIGALLOC	0x0200
#define ZN_RO_COMPAT_METADATA_CSUM 0x0400

#define ZN_BG_INODE_UNINIT	0x0001
#define ZN_BG_BLOCK_UNINIT	0x0002

/* A group descriptor: locations are file system block numbers. */
struct zn_group {
	uint64_t block_bitmap;
	uint64_t inode_bitmap;
	uint64_t inode_table;
	uint32_t free_blocks;
	uint16_t flags;
};

/*
 * The on-disk layer has two back ends behind the functions below (see
 * docs/zone.md): lib/zn_fs.c reads and writes the structures by hand
 * (Apache-2.0, the default zonectl), lib/zn_fs_ext2fs.c goes through
 * e2fsprogs' libext2fs (LGPL, only in the opt-in zonectl-ext2fs).  Each
 * keeps its own state behind fs->od; everything else is shared.
 *
 * Numbers are in allocation units: one unit is what one bit of a block
 * bitmap covers, a block, or a cluster with bigalloc.  block_size is the
 * unit's size in bytes, so a byte offset is always unit * block_size.
 */
struct zn_ondisk;

struct zn_fs {
	int fd;			/* ours: O_EXCL and flock while writable */
	const char *path;
	int writable;
	int trust_bitmaps;	/* recovery: bitmap csum may be stale */
	uint32_t block_size;	/* bytes per unit */
	uint32_t cluster_ratio;	/* file system blocks per unit */
	uint64_t blocks_count;
	uint64_t free_blocks;
	uint32_t first_data_block;
	uint32_t blocks_per_group;
	uint32_t ngroups;
	uint32_t desc_size;
	uint32_t compat, incompat, ro_compat;
	uint8_t uuid[16];
	struct zn_ondisk *od;	/* the back end's own state */
};

/*
 * Open and validate.  Write access also takes the device exclusively.
 * zn_dev_open (zn_dev.c) is the part both back ends share: the file
 * type, the exclusive open, a mounted image, another zonectl.
 */
int zn_open(struct zn_fs *fs, const char *path, int writable);
void zn_close(struct zn_fs *fs);
/* Which back end this binary has, for --help. */
const char *zn_backend(void);
int zn_dev_open(struct zn_fs *fs, const char *path, int writable);
void zn_dev_close(struct zn_fs *fs);
/* Refuse a file system of @blocks blocks that does not fit the device. */
int zn_dev_check_size(const struct zn_fs *fs, uint64_t blocks, uint32_t block_size);
int zn_has_metadata_csum(const struct zn_fs *fs);
int zn_has_gdt_csum(const struct zn_fs *fs);
const char *zn_fs_kind(const struct zn_fs *fs);

void zn_group_get(const struct zn_fs *fs, uint32_t g, struct zn_group *out);
uint64_t zn_group_first(const struct zn_fs *fs, uint32_t g);
uint32_t zn_group_nblocks(const struct zn_fs *fs, uint32_t g);
/* Block number -> group, bit. */
uint32_t zn_block_group(const struct zn_fs *fs, uint64_t blk);

/*
 * Bitmaps: "bm" buffers are block_size bytes (one unit): the group's bitmap
 * block, then zeros if a cluster is larger than a block.  zn_bitmap_read
 * returns the bitmap the allocator believes in: for BLOCK_UNINIT groups it
 * is built from the layout (what ext4 would build), not read from disk.
 */
int zn_bitmap_read(struct zn_fs *fs, uint32_t g, uint8_t *bm);
int zn_bitmap_read_raw(struct zn_fs *fs, uint32_t g, uint8_t *bm);
void zn_bitmap_synth(const struct zn_fs *fs, uint32_t g, uint8_t *bm);
int zn_bitmap_write(struct zn_fs *fs, uint32_t g, const uint8_t *bm);
/* Write the block only: no checksum update (for BLOCK_UNINIT groups). */
int zn_bitmap_write_raw(struct zn_fs *fs, uint32_t g, const uint8_t *bm);
int zn_sync(struct zn_fs *fs);
uint32_t zn_bitmap_free(const struct zn_fs *fs, uint32_t g, const uint8_t *bm);

/* Descriptor edits in memory; zn_gdt_flush writes table + superblock. */
void zn_group_set_free(struct zn_fs *fs, uint32_t g, uint32_t free_blocks);
void zn_group_set_flags(struct zn_fs *fs, uint32_t g, uint16_t flags);
void zn_group_set_bitmap_csum(struct zn_fs *fs, uint32_t g, uint32_t csum);
uint32_t zn_group_bitmap_csum_stored(const struct zn_fs *fs, uint32_t g);
int zn_gdt_flush(struct zn_fs *fs);

static inline int zn_test_bit(const uint8_t *bm, uint32_t bit)
{
	return (bm[bit >> 3] >> (bit & 7)) & 1;
}

static inline void zn_set_bit(uint8_t *bm, uint32_t bit)
{
	bm[bit >> 3] |= (uint8_t)(1u << (bit & 7));
}

/*
 * Journal and zones (zn_zone.c, zn_journal.c).
 *
 * A reservation is the allowed block range [start, end).  The journal file
 * holds, per group ever touched: the original bitmap block and flags, and
 * two masks of "our" bits - before (prev) and after (target) the operation
 * in progress.  It is written and fsync'd before any bitmap changes.
 */
#define ZN_J_STABLE	1
#define ZN_J_APPLYING	2

struct zn_jgroup {
	uint32_t group;
	uint32_t orig_flags;
	uint32_t orig_csum;	/* block bitmap checksum, lo | hi << 16 */
	uint8_t *orig_bitmap;	/* as on disk; only if it was BLOCK_UNINIT */
	uint8_t *prev;		/* bpg/8 bytes */
	uint8_t *target;	/* bpg/8 bytes */
	int restore_raw;	/* in memory: put orig_bitmap back after the flag */
};

struct zn_journal {
	char path[4096];
	uint32_t state;
	uint32_t releasing;	/* operation in progress is a release */
	uint8_t uuid[16];
	uint32_t block_size;
	uint32_t blocks_per_group;
	uint64_t start, end;		/* target allowed area */
	uint64_t prev_start, prev_end;	/* allowed area before the op */
	uint32_t area_class;		/* enum zn_class of the area, 0 = none */
	uint32_t ngroups;
	struct zn_jgroup *groups;
};

/*
 * Run-length code of a bit string (journal masks): u32 lengths of
 * alternating runs of 0 and 1 bits, the first run of 0s (maybe empty).
 * encode returns the number of runs; out may be NULL to count only.
 * decode returns 0, or -1 if the runs do not cover exactly nbits.
 */
uint32_t zn_runs_encode(const uint8_t *m, uint32_t nbits, uint32_t *out);
int zn_runs_decode(const uint8_t *p, uint32_t nruns, uint32_t nbits,
		   uint8_t *m);

int zn_journal_path(const struct zn_fs *fs, const char *override,
		    char *out, size_t len);
/* ZN_OK and *exists=0 when there is no journal. */
int zn_journal_load(const struct zn_fs *fs, const char *path,
		    struct zn_journal *j, int *exists);
int zn_journal_store(struct zn_journal *j);
int zn_journal_remove(struct zn_journal *j);
void zn_journal_free(struct zn_journal *j);
struct zn_jgroup *zn_journal_group(struct zn_journal *j, uint32_t g);

/* Test hook: kill (or stop, ZONECTL_CRASH_HOW=stop) at a named point
 * if ZONECTL_CRASH_AT names it. */
void zn_crash_point(const char *name);

struct zn_plan_stats {
	uint64_t blocks_set;		/* bits that become ours */
	uint64_t blocks_cleared;	/* bits we give back */
	uint32_t groups_written;
};

/*
 * Make [start, end) the allowed area (start == end == 0: release all).
 * dry_run: compute and report only.
 */
int zn_zone_apply(struct zn_fs *fs, struct zn_journal *j, uint64_t start,
		  uint64_t end, int dry_run, struct zn_plan_stats *st);
/* Finish or undo an interrupted operation (see zn_zone.c). */
int zn_zone_recover(struct zn_fs *fs, struct zn_journal *j);
/* Free blocks inside [start, end) as the file system sees them. */
int zn_zone_free_in(struct zn_fs *fs, uint64_t start, uint64_t end,
		    uint64_t *free_out);
int zn_zone_find_end(struct zn_fs *fs, struct zn_journal *j, uint64_t start,
		     uint64_t want, uint64_t *end_out);

/*
 * Online mechanism (zn_hold.c): on a mounted ext4 the forbidden area is
 * held by one file, <mount>/.zonectl-hold, whose unwritten extents cover
 * every free block outside the allowed area (fallocate until full, then
 * punch holes where the extents lie inside the area, FIEMAP to find them).
 */
#define ZN_HOLD_NAME ".zonectl-hold"

struct zn_mnt {
	char path[4096];
	int dirfd;
	int hold_fd;		/* -1 until opened */
	unsigned long st_dev;
	char dev[64];		/* kernel name: /sys/fs/ext4/<dev> */
	uint32_t block_size;
	uint32_t first_data_block;
	uint64_t blocks_count;
	uint8_t uuid[16];
};

struct zn_hold_ext {
	uint64_t logical, physical, len;	/* blocks */
};

/* <state dir>/<uuid>.hold: the held area and the operation in progress. */
struct zn_hold_rec {
	char path[4096];
	uint32_t state;		/* ZN_J_STABLE / ZN_J_APPLYING */
	uint32_t releasing;
	uint64_t start, end;	/* allowed area (target of the operation) */
	uint64_t prev_start, prev_end;
	uint32_t area_class;
	int64_t saved_resv;	/* reserved_clusters before a fill, -1 none */
};

struct zn_hold_stats {
	uint64_t taken;		/* blocks the fill took */
	uint64_t given;		/* held blocks punched inside the area */
};

int zn_mnt_open(struct zn_mnt *m, const char *dir);
void zn_mnt_close(struct zn_mnt *m);
int zn_mnt_free(struct zn_mnt *m, uint64_t *free_blocks);
int zn_hold_extents(struct zn_mnt *m, struct zn_hold_ext **out, uint32_t *n);
int zn_hold_held(struct zn_mnt *m, uint64_t start, uint64_t end, uint64_t *held);
int zn_hold_fill(struct zn_mnt *m, int64_t saved_resv, uint64_t *added);
int zn_hold_punch(struct zn_mnt *m, uint64_t start, uint64_t end, uint64_t *freed);
int zn_hold_edge(struct zn_mnt *m, uint64_t from, uint64_t want, uint64_t *end);
int zn_hold_edge_down(struct zn_mnt *m, uint64_t from, uint64_t want, uint64_t *start);
int zn_hold_remove(struct zn_mnt *m);
int64_t zn_hold_resv_get(struct zn_mnt *m);
int zn_hold_resv_set(struct zn_mnt *m, int64_t v);
int zn_hold_rec_path(const struct zn_mnt *m, const char *override, char *out, size_t len);
int zn_hold_rec_load(const struct zn_mnt *m, const char *path, struct zn_hold_rec *r,
		     int *exists);
int zn_hold_rec_store(const struct zn_mnt *m, struct zn_hold_rec *r);
int zn_hold_rec_remove(struct zn_hold_rec *r);
int zn_hold_apply(struct zn_mnt *m, struct zn_hold_rec *r, uint64_t start, uint64_t end,
		  uint32_t cls, int fill, struct zn_hold_stats *st);
int zn_hold_shrink(struct zn_mnt *m, struct zn_hold_rec *r, uint64_t want,
		   struct zn_hold_stats *st);
int zn_hold_release(struct zn_mnt *m, struct zn_hold_rec *r);
int zn_hold_recover(struct zn_mnt *m, struct zn_hold_rec *r, int *did);

/* seed §4.1: temp-file job if used-after < beta * max-used. */
enum zn_class { ZN_CLASS_TEMP = 1, ZN_CLASS_PERM = 2 };
int zn_classify(FILE *in, double beta, enum zn_class *out, double *max_used,
		double *after, char *why, size_t whylen);

/* Parse sizes like 512M, 2G, 4096, 100%? (no): returns bytes. */
int zn_parse_size(const char *s, uint64_t *out);

#endif /* ZN_H */
