// SPDX-License-Identifier: Apache-2.0
/*
 * The online mechanism: a hold file (seed 002 §4.3 on a mounted ext4).
 *
 * Bitmap edits under a mounted ext4 do not steer this kernel's allocator
 * (docs/zone.md, "Online vs offline").  Instead the forbidden area is made
 * to contain no free block at all, through the kernel's own calls:
 *
 *   fill   fallocate() one file, <mount>/.zonectl-hold, until the file
 *          system is full: every free block, wherever it is, now belongs
 *          to the hold (unwritten extents, no data written);
 *   punch  read the hold's physical extents with FIEMAP and punch holes
 *          (FALLOC_FL_PUNCH_HOLE) where they lie inside the allowed area.
 *
 * Afterwards every free block lies in the allowed area, so every allocator
 * path (mballoc's goal, its preallocations, Orlov, extent-tree blocks)
 * lands there.  The state is ordinary file-system state: the ext4 journal
 * keeps it consistent across crashes and e2fsck sees a regular file.
 * Expanding the area only punches (no fill, so writers never see ENOSPC);
 * shrinking or moving it fills again, which also takes back blocks freed
 * outside the area since the last fill (the "top up").
 *
 * During a fill the file system is full for every other writer (a few
 * milliseconds: unwritten extents cost metadata only), which is why the
 * NodeManager hook moves the area when its node is idle.  ext4 keeps
 * s_resv_clusters (2 % or 4096 clusters) that fallocate may not use; a fill
 * sets /sys/fs/ext4/<dev>/reserved_clusters to 0 and puts the old value back
 * (the record keeps it for hold-recover).
 *
 * The hold record (<state dir>/<fs uuid>.hold, text, crc32c-sealed) says
 * which area is held and whether an operation is under way; each
 * operation is idempotent, so recovery redoes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "zn.h"

#define EXT_SUPER_MAGIC 0xEF53

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Superblock facts of the mounted device (read-only, no O_EXCL). */
static int mnt_read_super(struct zn_mnt *m, dev_t dev)
{
	char sys[128], link[PATH_MAX], devpath[PATH_MAX];
	uint8_t sb[1024];
	ssize_t n;
	char *base;
	int fd;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(sys, link, sizeof(link) - 1);
	if (n <= 0)
		return zn_fail(ZN_ENOTEXT, "%s: no block device behind it (%s)", m->path, sys);
	link[n] = 0;
	base = strrchr(link, '/');
	snprintf(m->dev, sizeof(m->dev), "%.63s", base ? base + 1 : link);
	snprintf(devpath, sizeof(devpath), "/dev/%s", m->dev);
	fd = open(devpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO, "%s: cannot read %s: %s",
			       m->path, devpath, strerror(errno));
	n = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	if (n != (ssize_t)sizeof(sb) || (sb[0x38] | sb[0x39] << 8) != EXT_SUPER_MAGIC)
		return zn_fail(ZN_ENOTEXT, "%s: %s has no ext2/3/4 superblock", m->path, devpath);
	m->block_size = 1024u << le32(sb + 0x18);
	m->first_data_block = le32(sb + 0x14);
	m->blocks_count = le32(sb + 0x04);
	if (le32(sb + 0x60) & ZN_INCOMPAT_64BIT)
		m->blocks_count |= (uint64_t)le32(sb + 0x150) << 32;
	memcpy(m->uuid, sb + 0x68, 16);
	/* fallocate needs extent-mapped files (ext2/ext3 layouts have none) */
	if (!(le32(sb + 0x60) & ZN_INCOMPAT_EXTENTS))
		return zn_fail(ZN_ENOTEXT, "%s: %s has no 'extents' feature; a hold needs fallocate (ext4), use 'zonectl reserve' unmounted",
			       m->path, devpath);
	return ZN_OK;
}

int zn_mnt_open(struct zn_mnt *m, const char *dir)
{
	char parent[PATH_MAX];
	struct stat a, b;
	struct statfs sf;
	struct statvfs sv;
	int err;

	memset(m, 0, sizeof(*m));
	m->hold_fd = -1;
	snprintf(m->path, sizeof(m->path), "%s", dir);
	snprintf(parent, sizeof(parent), "%s/..", dir);
	if (stat(dir, &a) || !S_ISDIR(a.st_mode))
		return zn_fail(ZN_EUSAGE, "%s: expected the mount point of an ext4 file system", dir);
	if (stat(parent, &b))
		return zn_fail(ZN_EIO, "%s: %s", parent, strerror(errno));
	if (a.st_dev == b.st_dev && a.st_ino != b.st_ino)
		return zn_fail(ZN_EUSAGE, "%s is not a mount point (give the directory the local-dir file system is mounted on)",
			       dir);
	if (statfs(dir, &sf) || sf.f_type != EXT_SUPER_MAGIC)
		return zn_fail(ZN_ENOTEXT, "%s: not an ext2/ext3/ext4 mount", dir);
	if (statvfs(dir, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		return zn_fail(ZN_ESTATE, "%s: mounted read-only", dir);
	m->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m->dirfd < 0)
		return zn_fail(ZN_EIO, "%s: %s", dir, strerror(errno));
	m->st_dev = a.st_dev;
	err = mnt_read_super(m, a.st_dev);
	if (err) {
		close(m->dirfd);
		m->dirfd = -1;
	}
	return err;
}

void zn_mnt_close(struct zn_mnt *m)
{
	if (m->hold_fd >= 0)
		close(m->hold_fd);
	if (m->dirfd >= 0)
		close(m->dirfd);
	m->hold_fd = m->dirfd = -1;
}

int zn_mnt_free(struct zn_mnt *m, uint64_t *free_blocks)
{
	struct statvfs sv;

	if (fstatvfs(m->dirfd, &sv))
		return zn_fail(ZN_EIO, "%s: statvfs: %s", m->path, strerror(errno));
	*free_blocks = (uint64_t)sv.f_bfree * sv.f_frsize / m->block_size;
	return ZN_OK;
}

/* Open (create) the hold file: a regular file of this fs, never a link. */
static int hold_open(struct zn_mnt *m, int create)
{
	struct stat st;

	if (m->hold_fd >= 0)
		return ZN_OK;
	m->hold_fd = openat(m->dirfd, ZN_HOLD_NAME,
			    O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
	if (m->hold_fd < 0) {
		if (errno == ENOENT && !create)
			return ZN_OK;
		return zn_fail(errno == EACCES || errno == EPERM ? ZN_EPERM : ZN_EIO,
			       "%s/%s: %s", m->path, ZN_HOLD_NAME, strerror(errno));
	}
	if (fstat(m->hold_fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != m->st_dev) {
		close(m->hold_fd);
		m->hold_fd = -1;
		return zn_fail(ZN_ESTATE, "%s/%s: not a regular file of this file system; remove it",
			       m->path, ZN_HOLD_NAME);
	}
	return ZN_OK;
}

/*
 * The hold's physical extents, in blocks, in logical order.  *out is
 * malloc'd; logical and physical are block numbers.
 */
int zn_hold_extents(struct zn_mnt *m, struct zn_hold_ext **out, uint32_t *n_out)
{
	enum { BATCH = 256 };
	struct fiemap *fm;
	struct zn_hold_ext *v = NULL;
	uint32_t n = 0, cap = 0, i;
	uint64_t pos = 0;
	int last = 0, err;

	*out = NULL;
	*n_out = 0;
	if ((err = hold_open(m, 0)) || m->hold_fd < 0)
		return err;
	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		return zn_fail(ZN_EIO, "out of memory");
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = pos;
		fm->fm_length = FIEMAP_MAX_OFFSET - pos;
		fm->fm_extent_count = BATCH;
		if (ioctl(m->hold_fd, FS_IOC_FIEMAP, fm)) {
			free(fm);
			free(v);
			return zn_fail(ZN_EIO, "%s/%s: FIEMAP: %s", m->path, ZN_HOLD_NAME,
				       strerror(errno));
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *e = &fm->fm_extents[i];

			if (n == cap) {
				struct zn_hold_ext *nv;

				cap = cap ? 2 * cap : 1024;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(fm);
					free(v);
					return zn_fail(ZN_EIO, "out of memory");
				}
				v = nv;
			}
			v[n].logical = e->fe_logical / m->block_size;
			v[n].physical = e->fe_physical / m->block_size;
			v[n].len = e->fe_length / m->block_size;
			n++;
			pos = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
		}
	}
	free(fm);
	*out = v;
	*n_out = n;
	return ZN_OK;
}

/* Held blocks whose physical address lies in [start, end). */
int zn_hold_held(struct zn_mnt *m, uint64_t start, uint64_t end, uint64_t *held)
{
	struct zn_hold_ext *v;
	uint32_t n, i;
	int err = zn_hold_extents(m, &v, &n);

	*held = 0;
	for (i = 0; !err && i < n; i++) {
		uint64_t a = v[i].physical, b = a + v[i].len;

		a = a > start ? a : start;
		b = b < end ? b : end;
		if (b > a)
			*held += b - a;
	}
	free(v);
	return err;
}

/* /sys/fs/ext4/<dev>/reserved_clusters: -1 = cannot be read. */
static int64_t resv_get(struct zn_mnt *m)
{
	char p[128];
	long long v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/sys/fs/ext4/%s/reserved_clusters", m->dev);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int zn_hold_resv_set(struct zn_mnt *m, int64_t v)
{
	char p[128];
	FILE *f;
	int bad;

	if (v < 0)
		return ZN_OK;
	snprintf(p, sizeof(p), "/sys/fs/ext4/%s/reserved_clusters", m->dev);
	f = fopen(p, "w");
	if (!f)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO, "%s: %s", p, strerror(errno));
	bad = fprintf(f, "%lld\n", (long long)v) < 0;
	bad |= fclose(f) != 0;
	return bad ? zn_fail(ZN_EIO, "%s: cannot write %lld", p, (long long)v) : ZN_OK;
}

int64_t zn_hold_resv_get(struct zn_mnt *m)
{
	return resv_get(m);
}

/*
 * Fill: allocate (unwritten) every free block of the file system to the
 * hold.  The caller has saved reserved_clusters in the record; the fill
 * sets it to 0, and the caller restores it after the punches (also on
 * failure): with the reserve in force and nothing free, ext4 refuses even
 * the extent-tree block a punch may need.
 */
int zn_hold_fill(struct zn_mnt *m, int64_t saved_resv, uint64_t *added)
{
	uint64_t before = 0, after = 0, chunk = 0, freeb;
	int err, tries = 0;
	struct stat st;

	*added = 0;
	if ((err = hold_open(m, 1)))
		return err;
	/* delayed allocations of other files become real blocks first */
	if (syncfs(m->dirfd))
		return zn_fail(ZN_EIO, "%s: syncfs: %s", m->path, strerror(errno));
	if ((err = zn_mnt_free(m, &before)))
		return err;
	if ((err = zn_hold_resv_set(m, saved_resv >= 0 ? 0 : -1)))
		return err;
	for (;;) {
		if (!chunk) {
			if ((err = zn_mnt_free(m, &freeb)))
				break;
			if (!freeb)
				break;
			chunk = freeb;
		}
		if (fstat(m->hold_fd, &st)) {
			err = zn_fail(ZN_EIO, "%s/%s: %s", m->path, ZN_HOLD_NAME, strerror(errno));
			break;
		}
		if (!fallocate(m->hold_fd, 0, st.st_size, (off_t)(chunk * m->block_size))) {
			chunk = 0;
		} else if (errno == ENOSPC) {
			if (chunk == 1)
				break;
			chunk /= 2;
		} else {
			err = zn_fail(errno == EOPNOTSUPP ? ZN_ENOTEXT : ZN_EIO,
				      "%s/%s: fallocate: %s", m->path, ZN_HOLD_NAME,
				      strerror(errno));
			break;
		}
		if (++tries > 4096) {
			err = zn_fail(ZN_EIO, "%s: fill does not converge (another writer frees and takes space?)",
				      m->path);
			break;
		}
	}
	zn_crash_point("after-fill");
	if (!err && fsync(m->hold_fd))
		err = zn_fail(ZN_EIO, "%s/%s: fsync: %s", m->path, ZN_HOLD_NAME, strerror(errno));
	if (!err && !(err = zn_mnt_free(m, &after)))
		*added = before > after ? before - after : 0;
	return err;
}

static int punch_range(struct zn_mnt *m, uint64_t logical, uint64_t len)
{
	if (!fallocate(m->hold_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		       (off_t)(logical * m->block_size), (off_t)(len * m->block_size)))
		return ZN_OK;
	return zn_fail(ZN_EIO, "%s/%s: punch hole: %s", m->path, ZN_HOLD_NAME, strerror(errno));
}

static int punch_pass(struct zn_mnt *m, uint64_t start, uint64_t end, uint64_t *freed)
{
	struct zn_hold_ext *v;
	uint32_t n, i;
	int err = zn_hold_extents(m, &v, &n), punched = 0;

	for (i = 0; !err && i < n; i++) {
		uint64_t a = v[i].physical, b = a + v[i].len;

		a = a > start ? a : start;
		b = b < end ? b : end;
		if (b <= a)
			continue;
		err = punch_range(m, v[i].logical + a - v[i].physical, b - a);
		*freed += b - a;
		if (!punched++)
			zn_crash_point("after-first-punch");
	}
	free(v);
	return err;
}

/*
 * Punch every held block whose physical address is in [start, end).
 *
 * Punching the head or the middle of an extent splits it, and a split may
 * need a new extent-tree block: on a file system the fill left with no free
 * block at all that fails with ENOSPC.  So when nothing is free, the last
 * SLACK blocks of the hold's logical end are punched first (a tail punch
 * never splits) and committed (freed blocks are busy until then), the area is punched, and the slack is allocated again
 * (its goal is where it was); a second pass gives back whatever of it
 * landed inside the area.
 */
#define SLACK 64
int zn_hold_punch(struct zn_mnt *m, uint64_t start, uint64_t end, uint64_t *freed)
{
	uint64_t freeb, sl = 0, sn = 0, dummy = 0;
	struct zn_hold_ext *v;
	uint32_t n;
	int err;

	*freed = 0;
	if ((err = zn_hold_extents(m, &v, &n)) || !n) {
		free(v);
		return err;
	}
	if (!(err = zn_mnt_free(m, &freeb)) && !freeb) {
		sn = v[n - 1].len < SLACK ? v[n - 1].len : SLACK;
		sl = v[n - 1].logical + v[n - 1].len - sn;
		err = punch_range(m, sl, sn);
		/* freed blocks are reusable once their transaction commits */
		if (!err && fsync(m->hold_fd))
			err = zn_fail(ZN_EIO, "%s/%s: fsync: %s", m->path, ZN_HOLD_NAME,
				      strerror(errno));
	}
	free(v);
	if (!err)
		err = punch_pass(m, start, end, freed);
	if (!err && sn) {
		if (fallocate(m->hold_fd, FALLOC_FL_KEEP_SIZE, (off_t)(sl * m->block_size),
			      (off_t)(sn * m->block_size)) && errno != ENOSPC)
			err = zn_fail(ZN_EIO, "%s/%s: fallocate: %s", m->path, ZN_HOLD_NAME,
				      strerror(errno));
		if (!err)
			err = punch_pass(m, start, end, &dummy);
	}
	if (!err && fsync(m->hold_fd))
		err = zn_fail(ZN_EIO, "%s/%s: fsync: %s", m->path, ZN_HOLD_NAME, strerror(errno));
	return err;
}

static int cmp_phys(const void *x, const void *y)
{
	const struct zn_hold_ext *a = x, *b = y;

	return a->physical < b->physical ? -1 : a->physical > b->physical;
}

/*
 * Smallest end >= from such that the hold has `want` blocks in
 * [from, end) (the monitor's new edge: punching them gives that much room);
 * the file system's end if it has fewer.
 */
int zn_hold_edge(struct zn_mnt *m, uint64_t from, uint64_t want, uint64_t *end)
{
	struct zn_hold_ext *v;
	uint32_t n, i;
	uint64_t got = 0;
	int err = zn_hold_extents(m, &v, &n);

	*end = m->blocks_count;
	if (err)
		return err;
	qsort(v, n, sizeof(*v), cmp_phys);
	for (i = 0; i < n && want; i++) {
		uint64_t a = v[i].physical, b = a + v[i].len;

		if (b <= from)
			continue;
		a = a > from ? a : from;
		if (got + (b - a) >= want) {
			*end = a + (want - got);
			break;
		}
		got += b - a;
	}
	if (!want)
		*end = from;
	free(v);
	return ZN_OK;
}

/*
 * Largest start <= from such that the hold has `want` blocks in
 * [start, from): the edge for an area that already ends at the end of the
 * file system (seed §4.2's inner area) and grows toward the outer edge.
 */
int zn_hold_edge_down(struct zn_mnt *m, uint64_t from, uint64_t want, uint64_t *start)
{
	struct zn_hold_ext *v;
	uint32_t n, i;
	uint64_t got = 0;
	int err = zn_hold_extents(m, &v, &n);

	*start = m->first_data_block;
	if (err)
		return err;
	qsort(v, n, sizeof(*v), cmp_phys);
	for (i = n; i-- > 0 && want;) {
		uint64_t a = v[i].physical, b = a + v[i].len;

		if (a >= from)
			continue;
		b = b < from ? b : from;
		if (got + (b - a) >= want) {
			*start = b - (want - got);
			break;
		}
		got += b - a;
	}
	if (!want)
		*start = from;
	free(v);
	return ZN_OK;
}

int zn_hold_remove(struct zn_mnt *m)
{
	if (m->hold_fd >= 0) {
		close(m->hold_fd);
		m->hold_fd = -1;
	}
	if (unlinkat(m->dirfd, ZN_HOLD_NAME, 0) && errno != ENOENT)
		return zn_fail(errno == EACCES || errno == EPERM ? ZN_EPERM : ZN_EIO,
			       "%s/%s: %s", m->path, ZN_HOLD_NAME, strerror(errno));
	if (syncfs(m->dirfd))
		return zn_fail(ZN_EIO, "%s: syncfs: %s", m->path, strerror(errno));
	return ZN_OK;
}

/* ---- the hold record ------------------------------------------------- */

int zn_hold_rec_path(const struct zn_mnt *m, const char *override, char *out, size_t len)
{
	const char *dir = getenv("ZONECTL_STATE_DIR");
	char hex[33];
	int i;

	if (override) {
		snprintf(out, len, "%s", override);
		return ZN_OK;
	}
	for (i = 0; i < 16; i++)
		sprintf(hex + 2 * i, "%02x", m->uuid[i]);
	snprintf(out, len, "%s/%s.hold", dir && *dir ? dir : "/var/lib/zonectl", hex);
	return ZN_OK;
}

static int rec_format(const struct zn_hold_rec *r, const uint8_t *uuid, char *buf, size_t len)
{
	char hex[33];
	int i, n;

	for (i = 0; i < 16; i++)
		sprintf(hex + 2 * i, "%02x", uuid[i]);
	n = snprintf(buf, len,
		     "zonectl-hold 1\nuuid %s\nstate %u\nreleasing %u\narea %" PRIu64 " %" PRIu64
		     "\nprev %" PRIu64 " %" PRIu64 "\nclass %u\nresv %" PRId64 "\n",
		     hex, r->state, r->releasing, r->start, r->end, r->prev_start, r->prev_end,
		     r->area_class, r->saved_resv);
	n += snprintf(buf + n, len - n, "crc %08x\n", zn_crc32c(~0u, buf, n));
	return n;
}

int zn_hold_rec_load(const struct zn_mnt *m, const char *path, struct zn_hold_rec *r, int *exists)
{
	char buf[1024], again[1024], hex[33], want[33];
	unsigned crc;
	size_t n;
	FILE *f;
	int i;

	memset(r, 0, sizeof(*r));
	r->saved_resv = -1;
	snprintf(r->path, sizeof(r->path), "%s", path);
	*exists = 0;
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return ZN_OK;
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO, "%s: %s", path, strerror(errno));
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (sscanf(buf, "zonectl-hold 1\nuuid %32s\nstate %u\nreleasing %u\narea %" SCNu64 " %" SCNu64
		   "\nprev %" SCNu64 " %" SCNu64 "\nclass %u\nresv %" SCNd64 "\ncrc %x",
		   hex, &r->state, &r->releasing, &r->start, &r->end, &r->prev_start,
		   &r->prev_end, &r->area_class, &r->saved_resv, &crc) != 10)
		return zn_fail(ZN_EJOURNAL, "%s: not a zonectl hold record (torn or foreign)", path);
	for (i = 0; i < 16; i++)
		sprintf(want + 2 * i, "%02x", m->uuid[i]);
	if (strcmp(hex, want))
		return zn_fail(ZN_EJOURNAL, "%s: record of another file system (uuid %s, this one %s)",
			       path, hex, want);
	rec_format(r, m->uuid, again, sizeof(again));
	if (strcmp(again, buf))
		return zn_fail(ZN_EJOURNAL, "%s: checksum mismatch (torn record)", path);
	*exists = 1;
	return ZN_OK;
}

/* Atomic replace: FILE.tmp, fsync, rename, fsync the directory. */
int zn_hold_rec_store(const struct zn_mnt *m, struct zn_hold_rec *r)
{
	char buf[1024], tmp[4200], dir[4096], *slash;
	int fd, n, bad, dfd;

	n = rec_format(r, m->uuid, buf, sizeof(buf));
	snprintf(dir, sizeof(dir), "%s", r->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	mkdir(dir, 0700);
	snprintf(tmp, sizeof(tmp), "%s.tmp", r->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EJOURNAL, "%s: %s", tmp,
			       strerror(errno));
	bad = write(fd, buf, n) != n;
	bad |= fsync(fd) != 0;
	bad |= close(fd) != 0;
	if (bad || rename(tmp, r->path))
		return zn_fail(ZN_EJOURNAL, "%s: cannot write the hold record: %s", r->path,
			       strerror(errno));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return ZN_OK;
}

int zn_hold_rec_remove(struct zn_hold_rec *r)
{
	if (unlink(r->path) && errno != ENOENT)
		return zn_fail(ZN_EJOURNAL, "%s: %s", r->path, strerror(errno));
	return ZN_OK;
}

/* ---- operations: each one is journalled and redone by recovery ------- */

/*
 * Make [start, end) the only free space of the file system.  fill: top up
 * first (take every free block, also blocks freed outside the area since
 * the last fill); without it only the held blocks inside the area are
 * given back (an expansion: never a full file system for other writers).
 */
int zn_hold_apply(struct zn_mnt *m, struct zn_hold_rec *r, uint64_t start, uint64_t end,
		  uint32_t cls, int fill, struct zn_hold_stats *st)
{
	int err;

	memset(st, 0, sizeof(*st));
	if (r->state == ZN_J_STABLE) {
		r->prev_start = r->start;
		r->prev_end = r->end;
	}
	r->state = ZN_J_APPLYING;
	r->releasing = 0;
	r->start = start;
	r->end = end;
	r->area_class = cls;
	if (fill)
		r->saved_resv = zn_hold_resv_get(m);
	if ((err = zn_hold_rec_store(m, r)))
		return err;
	zn_crash_point("after-record");
	if (fill)
		err = zn_hold_fill(m, r->saved_resv, &st->taken);
	if (!err)
		err = zn_hold_punch(m, start, end, &st->given);
	if (fill) {
		int e2 = zn_hold_resv_set(m, r->saved_resv);

		err = err ? err : e2;
	}
	if (err)
		return err;
	zn_crash_point("before-settle");
	r->state = ZN_J_STABLE;
	return zn_hold_rec_store(m, r);
}

/*
 * Shrink the area's end so that `want` blocks are free in it (seed §4.3):
 * take every free block (the record still names the old area, a valid
 * redo target), then give back the `want` lowest-addressed held blocks
 * from the start.  The end never grows here.
 */
int zn_hold_shrink(struct zn_mnt *m, struct zn_hold_rec *r, uint64_t want,
		   struct zn_hold_stats *st)
{
	uint64_t end;
	int err, e2;

	memset(st, 0, sizeof(*st));
	r->prev_start = r->start;
	r->prev_end = r->end;
	r->state = ZN_J_APPLYING;
	r->saved_resv = zn_hold_resv_get(m);
	if ((err = zn_hold_rec_store(m, r)))
		return err;
	err = zn_hold_fill(m, r->saved_resv, &st->taken);
	if (!err)
		err = zn_hold_edge(m, r->start, want, &end);
	if (!err) {
		uint64_t taken = st->taken;

		err = zn_hold_apply(m, r, r->start, end < r->end ? end : r->end,
				    r->area_class, 0, st);
		st->taken = taken;
	}
	e2 = zn_hold_resv_set(m, r->saved_resv);
	return err ? err : e2;
}

int zn_hold_release(struct zn_mnt *m, struct zn_hold_rec *r)
{
	int err;

	r->state = ZN_J_APPLYING;
	r->releasing = 1;
	if ((err = zn_hold_rec_store(m, r)))
		return err;
	zn_crash_point("after-record");
	if ((err = zn_hold_remove(m)))
		return err;
	zn_crash_point("before-settle");
	return zn_hold_rec_remove(r);
}

int zn_hold_recover(struct zn_mnt *m, struct zn_hold_rec *r, int *did)
{
	struct zn_hold_stats st;
	int err;

	*did = 0;
	if (r->state != ZN_J_APPLYING)
		return ZN_OK;
	*did = 1;
	/* a fill killed mid-way leaves reserved_clusters at 0 */
	if ((err = zn_hold_resv_set(m, r->saved_resv)))
		return err;
	if (r->releasing)
		return zn_hold_release(m, r);
	return zn_hold_apply(m, r, r->start, r->end, r->area_class, 1, &st);
}
