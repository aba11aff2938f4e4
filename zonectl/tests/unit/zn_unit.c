// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the pure parts of zn: checksums against published vectors,
 * size parsing, classification (seed 002 §4.1).  One line per test, then
 * the summary line the harness adds up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zn.h"

static int passed, failed;

static void check(int ok, const char *name)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	if (ok)
		passed++;
	else
		failed++;
}

static enum zn_class classify_str(const char *text, double beta)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	enum zn_class c = 0;
	double max, after;
	char why[100];

	if (f && zn_classify(f, beta, &c, &max, &after, why, sizeof(why)))
		c = 0;
	if (f)
		fclose(f);
	return c;
}

/* encode then decode random, sparse and full masks; must round-trip */
static int runs_roundtrip(uint32_t nbits, int density, unsigned int seed)
{
	static uint8_t m[8192], back[8192];
	static uint32_t runs[65537];
	uint32_t i, n;

	srand(seed);
	memset(m, 0, nbits / 8);
	for (i = 0; i < nbits; i++)
		if (rand() % 100 < density)
			zn_set_bit(m, i);
	n = zn_runs_encode(m, nbits, runs);
	if (n != zn_runs_encode(m, nbits, NULL))
		return 0;
	memset(back, 0xaa, sizeof(back));
	if (zn_runs_decode((const uint8_t *)runs, n, nbits, back))
		return 0;
	if (zn_runs_decode((const uint8_t *)runs, n, nbits + 8, back) == 0)
		return 0;
	return !memcmp(m, back, nbits / 8);
}

int main(void)
{
	static const char digits[] = "123456789";
	uint8_t zeros[32] = { 0 }, ones[32], inc[32];
	uint64_t v = 0;
	int i;

	memset(ones, 0xff, sizeof(ones));
	for (i = 0; i < 32; i++)
		inc[i] = (uint8_t)i;
	/* CRC-32C check value and RFC 3720 B.4 vectors */
	check((zn_crc32c(~0u, digits, 9) ^ ~0u) == 0xE3069283u, "crc32c_check_value_123456789");
	check((zn_crc32c(~0u, zeros, 32) ^ ~0u) == 0x8A9136AAu, "crc32c_rfc3720_32_zero_bytes");
	check((zn_crc32c(~0u, ones, 32) ^ ~0u) == 0x62A8AB43u, "crc32c_rfc3720_32_ff_bytes");
	check((zn_crc32c(~0u, inc, 32) ^ ~0u) == 0x46DD794Eu, "crc32c_rfc3720_incrementing");
	check(zn_crc32c(zn_crc32c(~0u, digits, 4), digits + 4, 5) == zn_crc32c(~0u, digits, 9),
	      "crc32c_is_incremental");
	/* CRC-16/ARC (init 0) and CRC-16/MODBUS (init 0xffff) check values */
	check(zn_crc16(0, digits, 9) == 0xBB3D, "crc16_arc_check_value");
	check(zn_crc16(0xffff, digits, 9) == 0x4B37, "crc16_modbus_check_value");
	check(!zn_parse_size("512M", &v) && v == 512ull << 20, "size_512M");
	check(!zn_parse_size("2GiB", &v) && v == 2ull << 30, "size_2GiB");
	check(!zn_parse_size("4096", &v) && v == 4096, "size_plain_bytes");
	check(zn_parse_size("12Q", &v) == ZN_EUSAGE, "size_rejects_unknown_unit");
	check(classify_str("0 100\n1 900\n2 1000\n3 120\n", 0.1) == ZN_CLASS_TEMP,
	      "classify_shuffle_like_profile_is_temp");
	check(classify_str("0 100\n1 600\n2 1100\n3 1100\n", 0.1) == ZN_CLASS_PERM,
	      "classify_reduce_like_profile_is_perm");
	check(classify_str("0 100\n1 1100\n2 200\n", 0.1) == ZN_CLASS_PERM,
	      "classify_boundary_after_equal_beta_max_is_perm");
	check(classify_str("Filesystem 1K-blocks Used Available Use% Mounted on\n"
			   "/dev/sda1 1000 10 990 1% /d\n/dev/sda1 1000 500 500 50% /d\n"
			   "/dev/sda1 1000 12 988 2% /d\n", 0.1) == ZN_CLASS_TEMP,
	      "classify_reads_raw_df_output");
	check(classify_str("0 100\n", 0.1) == 0, "classify_needs_two_samples");
	check(runs_roundtrip(32768, 50, 1), "runs_roundtrip_random_32768_bits");
	check(runs_roundtrip(8192, 2, 2), "runs_roundtrip_sparse_8192_bits");
	check(runs_roundtrip(65536, 100, 3), "runs_roundtrip_all_ones");
	check(runs_roundtrip(1024, 0, 4), "runs_roundtrip_all_zeros");
	{
		uint8_t full[16];

		memset(full, 0xff, sizeof(full));
		check(zn_runs_encode(full, 128, NULL) == 2, "runs_full_mask_is_two_runs");
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
