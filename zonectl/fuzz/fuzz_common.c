// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz_common.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* bytes the superblock in @data claims (blocks count times block size), or 0 */
static uint64_t claimed_size(const uint8_t *data, size_t size)
{
	const uint8_t *sb = data + 1024;
	uint64_t blocks;
	uint32_t log;

	if (size < 2048)
		return 0;
	log = le32(sb + 0x18);
	if (log > 6)
		return 0;
	blocks = le32(sb + 0x04);
	if (le32(sb + 0x60) & 0x80)	/* 64bit: s_blocks_count_hi */
		blocks |= (uint64_t)le32(sb + 0x150) << 32;
	if (blocks > FZ_MAX_IMAGE >> (10 + log))
		return 0;
	return blocks << (10 + log);
}

int fz_memfd(const uint8_t *data, size_t size, int extend, char *path, size_t len)
{
	int fd = memfd_create("zonectl-fuzz", MFD_CLOEXEC);
	uint64_t want = extend ? claimed_size(data, size) : 0;

	if (fd < 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	if (want > size && ftruncate(fd, (off_t)want))
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

void fz_expect_content(int fd, const uint8_t *data, size_t size)
{
	struct stat st;
	uint8_t *now;
	size_t i, total;

	if (fstat(fd, &st) || (size_t)st.st_size < size)
		abort();
	total = (size_t)st.st_size;
	if (!total)
		return;
	now = malloc(total);
	if (!now || pread(fd, now, total, 0) != (ssize_t)total ||
	    memcmp(now, data, size))
		abort();	/* zonectl wrote to an image it refused */
	for (i = size; i < total; i++)
		if (now[i])
			abort();
	free(now);
}

void fz_expect_magic(int fd)
{
	uint8_t m[2];

	if (pread(fd, m, 2, 1024 + 0x38) != 2 || m[0] != 0x53 || m[1] != 0xEF)
		abort();	/* a bitmap write landed on the superblock */
}

void fz_journal_path(char *out, size_t len)
{
	static char dir[64];

	if (!dir[0]) {
		/* tmpfs keeps the journal's fsyncs cheap; /tmp where there is none */
		const char *base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";

		snprintf(dir, sizeof(dir), "%s/zonectl-fuzz.%d", base, (int)getpid());
		if (mkdir(dir, 0700) && access(dir, W_OK))
			abort();
	}
	snprintf(out, len, "%s/fs.zj", dir);
}
