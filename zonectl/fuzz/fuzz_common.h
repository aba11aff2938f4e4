/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What zonectl's fuzz targets share: the image as a file zn_open can open
 * (a memfd, reached through /proc/self/fd), the journal's private place,
 * and the checks on what the code under test left in the image.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/*
 * A memfd holding @size bytes of @data; its path goes to @path.  With
 * @extend, a file shorter than the block count its superblock claims is
 * extended with zeros (sparse, no copy) to that size, up to FZ_MAX_IMAGE:
 * the inputs then hold only the blocks up to the last one with data in
 * them, which keeps them small and the fuzzer fast.
 */
#define FZ_MAX_IMAGE (4u << 20)
int fz_memfd(const uint8_t *data, size_t size, int extend, char *path, size_t len);
/* abort() unless @fd holds exactly @data, then zeros up to its size then. */
void fz_expect_content(int fd, const uint8_t *data, size_t size);
/* abort() unless the ext2 magic is still at byte 1024 + 0x38. */
void fz_expect_magic(int fd);
/* A journal path in a directory of this process under /dev/shm (or /tmp). */
void fz_journal_path(char *out, size_t len);

#endif /* FUZZ_COMMON_H */
