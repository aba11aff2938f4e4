// SPDX-License-Identifier: Apache-2.0
/*
 * Checksums used by ext4 metadata.
 *
 * crc32c: Castagnoli polynomial 0x1EDC6F41, bit-reflected 0x82F63B78.  ext4
 * calls it "raw": the caller passes the seed (~0 for the superblock, the fs
 * seed for groups and bitmaps) and no final inversion is applied.
 * crc16: polynomial 0x8005, bit-reflected 0xA001; used for group
 * descriptors when only GDT_CSUM (uninit_bg) is enabled.
 * Both are byte-at-a-time table driven; tables are built on first use.
 */
#include "zn.h"

static uint32_t crc32c_table[256];
static uint16_t crc16_table[256];
static int tables_ready;

static void build_tables(void)
{
	uint32_t i, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;
		uint16_t d = (uint16_t)i;

		for (k = 0; k < 8; k++) {
			c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
			d = (d & 1) ? (uint16_t)((d >> 1) ^ 0xA001u) :
				      (uint16_t)(d >> 1);
		}
		crc32c_table[i] = c;
		crc16_table[i] = d;
	}
	tables_ready = 1;
}

uint32_t zn_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!tables_ready)
		build_tables();
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

uint16_t zn_crc16(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!tables_ready)
		build_tables();
	while (len--)
		crc = (uint16_t)(crc16_table[(crc ^ *p++) & 0xff] ^ (crc >> 8));
	return crc;
}
