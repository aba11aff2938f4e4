// SPDX-License-Identifier: Apache-2.0
/*
 * The zone journal: one file per file system, named after its UUID, in
 * $ZONECTL_STATE_DIR or /var/lib/zonectl (or --journal FILE).  It is both
 * the undo log and the record of the active reservation.
 *
 * Layout (host byte order; the journal never leaves the host):
 *   0  magic "LZNJRNL2"          8  version (2)       12 state
 *   16 releasing                 20 block size        24 blocks per group
 *   28 number of group records   32 fs UUID[16]
 *   48 start  56 end  64 prev start  72 prev end      (u64 block numbers)
 *   80 area class (0 none, 1 temp, 2 perm)   84 reserved
 *   88 records: u32 group, u32 original bg_flags, u32 original bitmap
 *      checksum (lo | hi << 16), u32 runs in the original bitmap block,
 *      u32 runs in prev, u32 runs in target; then those three bit strings
 *      run-length coded: u32 lengths of alternating runs of 0 and 1 bits,
 *      starting with 0s.  The original bitmap block (block size * 8 bits)
 *      is kept only for a group that was BLOCK_UNINIT (0 runs otherwise):
 *      it is the only case that needs it.  prev and target cover blocks
 *      per group bits.
 *      A fully forbidden group codes in a few words, not a block.
 *   end: u32 crc32c(~0) of everything before it.
 * It is replaced atomically: written to FILE.tmp, fsync'd, renamed, and the
 * directory fsync'd, before any bitmap on the device changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "zn.h"

#define ZN_J_MAGIC "LZNJRNL2"
#define ZN_J_HDR 88

static void uuid_str(const uint8_t *u, char *out)
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", u[i]);
}

int zn_journal_path(const struct zn_fs *fs, const char *override,
		    char *out, size_t len)
{
	const char *dir = getenv("ZONECTL_STATE_DIR");
	char u[33];

	if (override) {
		if (strlen(override) >= len)
			return zn_fail(ZN_EUSAGE, "journal path too long");
		strcpy(out, override);
		return ZN_OK;
	}
	if (!dir || !*dir)
		dir = "/var/lib/zonectl";
	if (mkdir(dir, 0700) && errno != EEXIST)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO,
			       "cannot create journal directory %s (%s)", dir,
			       strerror(errno));
	uuid_str(fs->uuid, u);
	snprintf(out, len, "%s/%s.zj", dir, u);
	return ZN_OK;
}

static size_t mask_len(const struct zn_journal *j)
{
	return j->blocks_per_group / 8;
}

/* Run-length code a mask: alternating 0/1 runs, first run of 0s. */
uint32_t zn_runs_encode(const uint8_t *m, uint32_t nbits, uint32_t *out)
{
	uint32_t i, n = 0, len = 0;
	int cur = 0;

	for (i = 0; i < nbits; i++) {
		/* whole bytes that continue the current run */
		while (!(i & 7) && i + 8 <= nbits && m[i >> 3] == (cur ? 0xff : 0)) {
			len += 8;
			i += 8;
		}
		if (i >= nbits)
			break;
		if (zn_test_bit(m, i) != cur) {
			if (out)
				out[n] = len;
			n++;
			len = 0;
			cur = !cur;
		}
		len++;
	}
	if (out)
		out[n] = len;
	return n + 1;
}

int zn_runs_decode(const uint8_t *p, uint32_t nruns, uint32_t nbits,
		   uint8_t *m)
{
	uint32_t i, pos = 0, len, b;

	memset(m, 0, nbits / 8);
	for (i = 0; i < nruns; i++) {
		memcpy(&len, p + 4 * i, 4);
		if (len > nbits - pos)
			return -1;
		if (i & 1)
			for (b = pos; b < pos + len; b++)
				zn_set_bit(m, b);
		pos += len;
	}
	return pos == nbits ? 0 : -1;
}

void zn_journal_free(struct zn_journal *j)
{
	uint32_t i;

	for (i = 0; i < j->ngroups; i++) {
		free(j->groups[i].orig_bitmap);
		free(j->groups[i].prev);
		free(j->groups[i].target);
	}
	free(j->groups);
	j->groups = NULL;
	j->ngroups = 0;
}

struct zn_jgroup *zn_journal_group(struct zn_journal *j, uint32_t g)
{
	uint32_t i;

	for (i = 0; i < j->ngroups; i++)
		if (j->groups[i].group == g)
			return &j->groups[i];
	return NULL;
}

int zn_journal_load(const struct zn_fs *fs, const char *path,
		    struct zn_journal *j, int *exists)
{
	struct stat st;
	uint8_t *buf, *p;
	uint32_t crc, i, n;
	size_t len;
	int fd;
	char a[33], b[33];

	memset(j, 0, sizeof(*j));
	snprintf(j->path, sizeof(j->path), "%s", path);
	memcpy(j->uuid, fs->uuid, 16);
	j->block_size = fs->block_size;
	j->blocks_per_group = fs->blocks_per_group;
	j->state = ZN_J_STABLE;
	*exists = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return ZN_OK;
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO,
			       "journal %s: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) || st.st_size < ZN_J_HDR + 4) {
		close(fd);
		return zn_fail(ZN_EJOURNAL, "journal %s: too short to be a zone journal", path);
	}
	len = (size_t)st.st_size;
	buf = malloc(len);
	if (!buf || read(fd, buf, len) != (ssize_t)len) {
		free(buf);
		close(fd);
		return zn_fail(ZN_EIO, "journal %s: cannot read", path);
	}
	close(fd);
	memcpy(&crc, buf + len - 4, 4);
	if (memcmp(buf, ZN_J_MAGIC, 8) || crc != zn_crc32c(~0u, buf, len - 4)) {
		free(buf);
		return zn_fail(ZN_EJOURNAL, "journal %s: bad magic or checksum (not a zone journal, or torn)",
			       path);
	}
	if (memcmp(buf + 32, fs->uuid, 16)) {
		uuid_str(buf + 32, a);
		uuid_str(fs->uuid, b);
		free(buf);
		return zn_fail(ZN_EJOURNAL, "journal %s belongs to file system %s, but %s is %s; refusing to apply it",
			       path, a, fs->path, b);
	}
	memcpy(&j->state, buf + 12, 4);
	memcpy(&j->releasing, buf + 16, 4);
	memcpy(&j->block_size, buf + 20, 4);
	memcpy(&j->blocks_per_group, buf + 24, 4);
	memcpy(&n, buf + 28, 4);
	memcpy(&j->start, buf + 48, 8);
	memcpy(&j->end, buf + 56, 8);
	memcpy(&j->prev_start, buf + 64, 8);
	memcpy(&j->prev_end, buf + 72, 8);
	memcpy(&j->area_class, buf + 80, 4);
	if (j->block_size != fs->block_size ||
	    j->blocks_per_group != fs->blocks_per_group || n > fs->ngroups) {
		free(buf);
		return zn_fail(ZN_EJOURNAL, "journal %s: geometry does not match %s",
			       path, fs->path);
	}
	j->groups = calloc(n ? n : 1, sizeof(*j->groups));
	if (!j->groups) {
		free(buf);
		return zn_fail(ZN_EIO, "out of memory");
	}
	p = buf + ZN_J_HDR;
	for (i = 0; i < n; i++) {
		struct zn_jgroup *r = &j->groups[i];
		uint32_t nb, np, nt;
		size_t need;

		j->ngroups = i + 1;
		if ((size_t)(buf + len - 4 - p) < 24)
			goto bad;
		memcpy(&r->group, p, 4);
		memcpy(&r->orig_flags, p + 4, 4);
		memcpy(&r->orig_csum, p + 8, 4);
		memcpy(&nb, p + 12, 4);
		memcpy(&np, p + 16, 4);
		memcpy(&nt, p + 20, 4);
		p += 24;
		need = 4 * ((size_t)nb + np + nt);
		if (r->group >= fs->ngroups || nb > j->block_size * 8 + 1 ||
		    np > j->blocks_per_group + 1 || nt > j->blocks_per_group + 1 ||
		    (size_t)(buf + len - 4 - p) < need ||
		    !nb != !(r->orig_flags & ZN_BG_BLOCK_UNINIT))
			goto bad;
		r->prev = malloc(mask_len(j));
		r->target = malloc(mask_len(j));
		if (!r->prev || !r->target)
			goto bad;
		if (nb) {
			r->orig_bitmap = malloc(j->block_size);
			if (!r->orig_bitmap ||
			    zn_runs_decode(p, nb, j->block_size * 8, r->orig_bitmap))
				goto bad;
			p += 4 * (size_t)nb;
		}
		if (zn_runs_decode(p, np, j->blocks_per_group, r->prev) ||
		    zn_runs_decode(p + 4 * (size_t)np, nt, j->blocks_per_group, r->target))
			goto bad;
		p += 4 * ((size_t)np + nt);
	}
	if (p != buf + len - 4)
		goto bad;
	free(buf);
	*exists = 1;
	return ZN_OK;
bad:
	free(buf);
	zn_journal_free(j);
	return zn_fail(ZN_EJOURNAL, "journal %s: bad group record %u", path, i);
}

static int fsync_dir(const char *path)
{
	char tmp[4096];
	int fd, rc;

	snprintf(tmp, sizeof(tmp), "%s", path);
	fd = open(dirname(tmp), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int zn_journal_store(struct zn_journal *j)
{
	size_t len = ZN_J_HDR + 4;
	uint8_t *buf, *p;
	char tmp[4200];
	uint32_t i, ver = 2, crc;
	int fd;

	for (i = 0; i < j->ngroups; i++) {
		struct zn_jgroup *r = &j->groups[i];

		len += 24 + 4 * (size_t)(zn_runs_encode(r->prev, j->blocks_per_group, NULL) +
					 zn_runs_encode(r->target, j->blocks_per_group, NULL));
		if (r->orig_bitmap)
			len += 4 * (size_t)zn_runs_encode(r->orig_bitmap, j->block_size * 8, NULL);
	}
	buf = calloc(1, len);
	if (!buf)
		return zn_fail(ZN_EIO, "out of memory");
	memcpy(buf, ZN_J_MAGIC, 8);
	memcpy(buf + 8, &ver, 4);
	memcpy(buf + 12, &j->state, 4);
	memcpy(buf + 16, &j->releasing, 4);
	memcpy(buf + 20, &j->block_size, 4);
	memcpy(buf + 24, &j->blocks_per_group, 4);
	memcpy(buf + 28, &j->ngroups, 4);
	memcpy(buf + 32, j->uuid, 16);
	memcpy(buf + 48, &j->start, 8);
	memcpy(buf + 56, &j->end, 8);
	memcpy(buf + 64, &j->prev_start, 8);
	memcpy(buf + 72, &j->prev_end, 8);
	memcpy(buf + 80, &j->area_class, 4);
	p = buf + ZN_J_HDR;
	for (i = 0; i < j->ngroups; i++) {
		struct zn_jgroup *r = &j->groups[i];
		uint32_t nb = 0, np, nt;

		if (r->orig_bitmap)
			nb = zn_runs_encode(r->orig_bitmap, j->block_size * 8, NULL);
		np = zn_runs_encode(r->prev, j->blocks_per_group, NULL);
		nt = zn_runs_encode(r->target, j->blocks_per_group, NULL);
		memcpy(p, &r->group, 4);
		memcpy(p + 4, &r->orig_flags, 4);
		memcpy(p + 8, &r->orig_csum, 4);
		memcpy(p + 12, &nb, 4);
		memcpy(p + 16, &np, 4);
		memcpy(p + 20, &nt, 4);
		p += 24;
		if (nb) {
			zn_runs_encode(r->orig_bitmap, j->block_size * 8, (uint32_t *)(void *)p);
			p += 4 * (size_t)nb;
		}
		zn_runs_encode(r->prev, j->blocks_per_group, (uint32_t *)(void *)p);
		p += 4 * (size_t)np;
		zn_runs_encode(r->target, j->blocks_per_group, (uint32_t *)(void *)p);
		p += 4 * (size_t)nt;
	}
	crc = zn_crc32c(~0u, buf, len - 4);
	memcpy(buf + len - 4, &crc, 4);
	snprintf(tmp, sizeof(tmp), "%s.tmp", j->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(buf);
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO,
			       "journal %s: %s", tmp, strerror(errno));
	}
	if (write(fd, buf, len) != (ssize_t)len || fsync(fd)) {
		close(fd);
		free(buf);
		unlink(tmp);
		return zn_fail(ZN_EIO, "journal %s: write/fsync failed", tmp);
	}
	close(fd);
	free(buf);
	if (rename(tmp, j->path) || fsync_dir(j->path))
		return zn_fail(ZN_EIO, "journal %s: rename/fsync failed", j->path);
	return ZN_OK;
}

int zn_journal_remove(struct zn_journal *j)
{
	if (unlink(j->path) && errno != ENOENT)
		return zn_fail(ZN_EIO, "journal %s: %s", j->path, strerror(errno));
	fsync_dir(j->path);
	return ZN_OK;
}
