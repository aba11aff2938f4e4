// SPDX-License-Identifier: Apache-2.0
/*
 * unit_ondisk - the parsers of what MorphStore reads off its lower devices
 * (fuse/ondisk.c): device labels, behind lists, replica names.  Inputs the
 * fuzz target (fuzz/) found or would have to find are pinned here.
 */
#include <string.h>
#include "harness.h"
#include "../fuse/ondisk.h"

TEST(label_as_written_by_the_daemon_parses)
{
	struct morph_label l;

	CHECK_EQ(morph_label_parse("morphstore 2 device 1 of 3\n", &l), 0);
	CHECK_EQ(l.version, 2);
	CHECK_EQ(l.index, 1);
	CHECK_EQ(l.count, 3);
	CHECK_EQ(morph_label_parse("morphstore 1 device 0 of 2", &l), 0);
}

TEST(label_with_a_sign_or_an_overflowing_number_is_refused)
{
	struct morph_label l;

	/* sscanf's %u took both: -1 as 4294967295, 2^32 as 0 */
	CHECK_EQ(morph_label_parse("morphstore -1 device 0 of 2\n", &l), -1);
	CHECK_EQ(morph_label_parse("morphstore 1 device 0 of 4294967298\n", &l), -1);
	CHECK_EQ(morph_label_parse("morphstore 1 device +1 of 2\n", &l), -1);
	CHECK_EQ(morph_label_parse("morphstore 1 device 01 of 2\n", &l), -1);
}

TEST(label_with_more_or_other_text_is_refused)
{
	struct morph_label l;

	CHECK_EQ(morph_label_parse("morphstore 1 device 0 of 2 extra\n", &l), -1);
	CHECK_EQ(morph_label_parse("morphstore 1 device 0 of 2\n\n", &l), -1);
	CHECK_EQ(morph_label_parse("morphstore  1 device 0 of 2\n", &l), -1);
	CHECK_EQ(morph_label_parse("morphstore 1 device 0 of\n", &l), -1);
	CHECK_EQ(morph_label_parse("", &l), -1);
}

TEST(behind_list_keeps_devices_of_the_volume_only)
{
	CHECK_EQ(morph_behind_parse("0,3", 4), 0x9);
	CHECK_EQ(morph_behind_parse("1", 2), 0x2);
	CHECK_EQ(morph_behind_parse("5,1", 4), 0x2);
	CHECK_EQ(morph_behind_parse("31", 32), 0x80000000u);
	/* device 32 of a (never valid) 33-device count: was a shift by 32 (fuzz) */
	CHECK_EQ(morph_behind_parse("32", 33), 0);
	CHECK_EQ(morph_behind_parse("-1,99999999999999999999", 32), 0);
	CHECK_EQ(morph_behind_parse("", 4), 0);
	CHECK_EQ(morph_behind_parse("x,1", 4), 0);
}

TEST(replica_name_is_exactly_sixteen_lower_case_hex_digits)
{
	u64 id = 0;

	CHECK_EQ(morph_replica_name_parse("00000000000000ff", &id), 1);
	CHECK_EQ(id, 0xff);
	CHECK_EQ(morph_replica_name_parse("ffffffffffffffff", &id), 1);
	CHECK(id == ~0ull);
	CHECK_EQ(morph_replica_name_parse("00000000000000ff.tmp", &id), 0);
	CHECK_EQ(morph_replica_name_parse("00000000000000FF", &id), 0);
	CHECK_EQ(morph_replica_name_parse("00000000000000f", &id), 0);
	CHECK_EQ(morph_replica_name_parse("", &id), 0);
}

#define T(x) { #x, x }
static const struct morph_test tests[] = {
	T(label_as_written_by_the_daemon_parses),
	T(label_with_a_sign_or_an_overflowing_number_is_refused),
	T(label_with_more_or_other_text_is_refused),
	T(behind_list_keeps_devices_of_the_volume_only),
	T(replica_name_is_exactly_sixteen_lower_case_hex_digits),
};

int main(void)
{
	return morph_run_tests(tests, (int)(sizeof(tests) / sizeof(tests[0])));
}
