// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target: zonectl's own journal, mutated, against a good image.
 *
 * The image is a file system made by mke2fs (ZN_FUZZ_IMAGE names it; the
 * Makefile passes one); the input is the journal file (layout in
 * lib/zn_journal.c).  Before each run the harness writes the image's UUID
 * into the journal and recomputes its trailing crc32c, so that mutations
 * reach the group records instead of stopping at the checksum; an input
 * whose byte 9 is 0xff is left as it is, which keeps the UUID and
 * checksum refusals in reach too.  A journal zn_journal_load accepts is
 * then acted on as 'zonectl recover' (an interrupted operation) or
 * 'zonectl reserve' and 'release' (a stable one) would.  What must hold:
 * no crash, leak or undefined behaviour; refusals with a known error code;
 * the image's superblock still in place afterwards.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "zn.h"
#include "fuzz_common.h"

static uint8_t *image;
static size_t image_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *p = getenv("ZN_FUZZ_IMAGE");
	struct stat st;
	int fd;

	(void)argc;
	(void)argv;
	if (!p || (fd = open(p, O_RDONLY)) < 0 || fstat(fd, &st)) {
		fprintf(stderr, "fuzz_journal: set ZN_FUZZ_IMAGE to an ext2/3/4 image\n");
		exit(2);
	}
	image_len = (size_t)st.st_size;
	image = malloc(image_len);
	if (!image || read(fd, image, image_len) != (ssize_t)image_len)
		exit(2);
	close(fd);
	return 0;
}

static void write_journal(const char *path, const uint8_t *data, size_t size,
			  const uint8_t *uuid)
{
	uint8_t *buf = malloc(size ? size : 1);
	int fd;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (size >= 92 && buf[9] != 0xff) {
		uint32_t crc;

		memcpy(buf + 32, uuid, 16);
		crc = zn_crc32c(~0u, buf, size - 4);
		memcpy(buf + size - 4, &crc, 4);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, buf, size) != (ssize_t)size)
		abort();
	close(fd);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zn_fs fs;
	struct zn_journal j;
	struct zn_plan_stats st;
	char path[64], jpath[256];
	int fd, err, exists;

	fd = fz_memfd(image, image_len, 1, path, sizeof(path));
	if (zn_open(&fs, path, 1))
		abort();	/* the seed image must open */
	fz_journal_path(jpath, sizeof(jpath));
	write_journal(jpath, data, size, fs.uuid);
	err = zn_journal_load(&fs, jpath, &j, &exists);
	if (err) {
		if (err <= ZN_OK || err >= ZN_ERRMAX || j.groups)
			abort();
	} else if (exists) {
		if (j.state == ZN_J_APPLYING)
			zn_zone_recover(&fs, &j);
		else if (!zn_zone_apply(&fs, &j, j.start, j.end, 0, &st))
			zn_zone_apply(&fs, &j, 0, 0, 0, &st);
		zn_journal_free(&j);
	}
	unlink(jpath);
	zn_close(&fs);
	fz_expect_magic(fd);
	close(fd);
	return 0;
}
