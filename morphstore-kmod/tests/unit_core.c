// SPDX-License-Identifier: Apache-2.0
/*
 * unit_core.c - specifications of the portable core: UDR planner, LAAS
 * scheduler, replica map.  Runs against a fake clock and a seeded random
 * generator so every result is reproducible.
 */
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "../core/udr.h"
#include "../core/laas.h"
#include "../core/replica.h"
#include "../core/rmap.h"
#include "../core/status.h"
#include "../lib/uenv.h"

#define GIB (1024ull * 1024 * 1024)
#define MIB (1024ull * 1024)

static u64 fake_now;
static u64 fake_clock(void *ctx)
{
	(void)ctx;
	return fake_now;
}

static struct morph_env test_env(void)
{
	struct morph_env env;

	morph_uenv_init(&env, 42);
	env.now_ns = fake_clock;
	return env;
}

/*
 * seed 001 Figure 3.3: A is replicated first (utility 100), then C (60),
 * then A again; B and D never.  The figure's printed second utility of A
 * (40) cannot come from the cost formula (it needs negative writes), so A
 * and C here are read-only files with first utilities 100 and 60; B and D
 * are write-heavy enough that no copy has positive utility.
 */
static struct morph_udr_file figure33[4] = {
	{ .size = GIB, .reads = 200, .writes = 0 },	/* A */
	{ .size = GIB, .reads = 30, .writes = 20 },	/* B */
	{ .size = GIB, .reads = 120, .writes = 0 },	/* C */
	{ .size = GIB, .reads = 8, .writes = 4 },	/* D */
};

static int plan(struct morph_udr_file *f, u32 n, u32 ndev, u64 cap,
		struct morph_udr_step *steps, u32 *nsteps, u64 *used)
{
	struct morph_env env = test_env();

	return morph_udr_plan(&env, f, n, ndev, cap, steps, nsteps, used);
}

TEST(udr_figure33_replicates_A_then_C_then_A)
{
	struct morph_udr_file f[4];
	struct morph_udr_step s[16];
	u32 n;
	u64 used;

	memcpy(f, figure33, sizeof(f));
	CHECK_EQ(plan(f, 4, 4, 3 * GIB, s, &n, &used), 0);
	CHECK_EQ(n, 3);
	CHECK_EQ(s[0].file, 0);
	CHECK_EQ(s[0].replicas, 2);
	CHECK_EQ(s[0].utility.num / s[0].utility.den, 100);
	CHECK_EQ(s[1].file, 2);
	CHECK_EQ(s[1].utility.num / s[1].utility.den, 60);
	CHECK_EQ(s[2].file, 0);
	CHECK_EQ(s[2].replicas, 3);
	CHECK_EQ(f[1].replicas, 1);
	CHECK_EQ(f[3].replicas, 1);
	CHECK_EQ(used, 3 * GIB);
}

TEST(udr_figure33_never_replicates_B_or_D_even_with_unlimited_capacity)
{
	struct morph_udr_file f[4];
	struct morph_udr_step s[16];
	static const u32 want[6] = { 0, 2, 0, 2, 0, 2 };
	u32 n, i;
	u64 used;

	memcpy(f, figure33, sizeof(f));
	CHECK_EQ(plan(f, 4, 4, 100 * GIB, s, &n, &used), 0);
	CHECK_EQ(n, 6);
	for (i = 0; i < n; i++)
		CHECK_EQ(s[i].file, want[i]);
	CHECK_EQ(f[0].replicas, 4);
	CHECK_EQ(f[2].replicas, 4);
	CHECK_EQ(f[1].replicas, 1);
	CHECK_EQ(f[3].replicas, 1);
	/* utilities never increase along the plan */
	for (i = 1; i < n; i++)
		CHECK(morph_utility_cmp(s[i].utility, s[i - 1].utility) <= 0);
}

TEST(udr_stops_when_capacity_runs_out_and_never_exceeds_it)
{
	struct morph_udr_file f[4];
	struct morph_udr_step s[16];
	u32 n;
	u64 used;

	memcpy(f, figure33, sizeof(f));
	CHECK_EQ(plan(f, 4, 4, 2 * GIB + GIB / 2, s, &n, &used), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(used, 2 * GIB);
	CHECK_EQ(f[0].replicas, 2);
	CHECK_EQ(f[2].replicas, 2);
}

TEST(udr_skips_a_file_too_big_for_the_rest_of_the_budget_but_fills_it_with_smaller_ones)
{
	struct morph_udr_file f[2] = {
		{ .size = 10 * GIB, .reads = 1000 },
		{ .size = GIB, .reads = 10 },
	};
	struct morph_udr_step s[8];
	u32 n;
	u64 used;

	CHECK_EQ(plan(f, 2, 4, 5 * GIB, s, &n, &used), 0);
	CHECK_EQ(f[0].replicas, 1);
	CHECK_EQ(f[1].replicas, 4);
	CHECK_EQ(n, 3);
	CHECK(used <= 5 * GIB);
}

TEST(udr_zero_capacity_plans_nothing)
{
	struct morph_udr_file f[4];
	struct morph_udr_step s[16];
	u32 n;
	u64 used;

	memcpy(f, figure33, sizeof(f));
	CHECK_EQ(plan(f, 4, 4, 0, s, &n, &used), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(f[0].replicas, 1);
}

TEST(udr_write_heavy_files_get_no_replica)
{
	struct morph_udr_file f[3] = {
		{ .size = 1, .reads = 10, .writes = 5 },	/* 10/2 - 5 = 0 */
		{ .size = 1, .reads = 0, .writes = 1 },
		{ .size = 1, .reads = 0, .writes = 0 },
	};
	struct morph_udr_step s[8];
	u32 n;
	u64 used;

	CHECK_EQ(plan(f, 3, 4, 1000, s, &n, &used), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(used, 0);
}

TEST(udr_terminates_with_at_most_ndev_copies_per_file)
{
	struct morph_udr_file f[64];
	struct morph_udr_step s[64 * 7];
	u32 n, i;
	u64 used;

	for (i = 0; i < 64; i++) {
		f[i].size = 0;		/* free copies: only ndev stops it */
		f[i].reads = ~0ull;	/* clamped, no overflow */
		f[i].writes = i % 3;
	}
	CHECK_EQ(plan(f, 64, 8, 1, s, &n, &used), 0);
	CHECK_EQ(n, 64 * 7);
	for (i = 0; i < 64; i++)
		CHECK_EQ(f[i].replicas, 8);
}

TEST(udr_equal_utilities_are_decided_in_input_order)
{
	struct morph_udr_file f[3] = {
		{ .size = 1, .reads = 50 },
		{ .size = 1, .reads = 50 },
		{ .size = 1, .reads = 50 },
	};
	struct morph_udr_step s[8];
	u32 n;
	u64 used;

	CHECK_EQ(plan(f, 3, 2, 2, s, &n, &used), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(s[0].file, 0);
	CHECK_EQ(s[1].file, 1);
	CHECK_EQ(f[2].replicas, 1);
}

TEST(udr_rejects_a_device_count_out_of_range)
{
	struct morph_udr_file f[1] = { { .size = 1, .reads = 5 } };
	struct morph_udr_step s[64];
	u32 n;
	u64 used;

	CHECK_EQ(plan(f, 1, 0, 10, s, &n, &used), -MORPH_ERR_RANGE);
	CHECK_EQ(plan(f, 1, MORPH_MAX_DEVICES + 1, 10, s, &n, &used),
		 -MORPH_ERR_RANGE);
}

TEST(udr_utility_is_the_cost_difference_of_algorithm1_line3)
{
	/* reads/R + writes*R: R=2 -> 3: 60/2 + 2*2 - (60/3 + 2*3) = 8 */
	struct morph_utility u = morph_udr_utility(60, 2, 2);

	CHECK_EQ(u.num * 1, 60 - 2 * 6);
	CHECK_EQ(u.den, 6);
	CHECK_EQ(u.num / u.den, 8);
}

/* ---- LAAS ---- */

static struct morph_env laas_env;

static void laas_setup(struct morph_laas *l, u32 ndev,
		       enum morph_laas_policy policy)
{
	struct morph_laas_config cfg = {
		.ndev = ndev, .factor_milli = 1000, .window_ns = 1000000000ull,
		.chunk = 256 * 1024, .policy = policy,
	};

	laas_env = test_env();
	fake_now = 1000000000000ull;
	morph_laas_init(l, &cfg, &laas_env);
}

TEST(laas_threshold_is_factor_times_devices)
{
	struct morph_laas l;
	struct morph_laas_config cfg = {
		.ndev = 4, .factor_milli = 1500, .window_ns = 1, .chunk = 4096,
	};

	laas_env = test_env();
	CHECK_EQ(morph_laas_init(&l, &cfg, &laas_env), 0);
	CHECK_EQ(morph_laas_threshold(&l), 6);
	cfg.chunk = 0;
	CHECK_EQ(morph_laas_init(&l, &cfg, &laas_env), -MORPH_ERR_RANGE);
}

TEST(laas_low_load_splits_a_large_read_evenly_over_the_copies)
{
	struct morph_laas l;
	struct morph_laas_file f;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 n;

	laas_setup(&l, 4, MORPH_LAAS_ADAPTIVE);
	morph_laas_file_init(&f);
	morph_laas_open(&l, &f);
	n = morph_laas_route(&l, &f, 0x5, 0, 1 * MIB, seg, MORPH_MAX_DEVICES);
	CHECK_EQ(n, 2);
	CHECK_EQ(seg[0].dev, 0);
	CHECK_EQ(seg[0].off, 0);
	CHECK_EQ(seg[0].len, MIB / 2);
	CHECK_EQ(seg[1].dev, 2);
	CHECK_EQ(seg[1].off, MIB / 2);
	CHECK_EQ(seg[1].len, MIB / 2);
	CHECK_EQ(f.bound, -1);
}

TEST(laas_small_reads_alternate_between_copies_by_chunk)
{
	struct morph_laas l;
	struct morph_laas_file f;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];

	laas_setup(&l, 4, MORPH_LAAS_ADAPTIVE);
	morph_laas_file_init(&f);
	morph_laas_open(&l, &f);
	CHECK_EQ(morph_laas_route(&l, &f, 0x3, 0, 4096, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 0);
	CHECK_EQ(morph_laas_route(&l, &f, 0x3, 256 * 1024, 4096, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 1);
}

/* 1 when @n segments cover [@off, @off + @len) in order, each non-empty and
 * on a device in @copies, and there is one to popcount(@copies) of them */
static int covers(const struct morph_laas_segment *seg, u32 n, u32 copies,
		  u64 off, u64 len)
{
	u64 at = off;
	u32 k;

	if (n < 1 || n > morph_popcount(copies))
		return 0;
	for (k = 0; k < n; k++) {
		if (seg[k].off != at || !seg[k].len ||
		    !(copies & (1u << seg[k].dev)))
			return 0;
		at += seg[k].len;
	}
	return at == off + len;
}

TEST(laas_segments_cover_any_range_exactly_and_only_use_copies)
{
	struct morph_laas l;
	struct morph_laas_file f;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 i, n;

	laas_setup(&l, 8, MORPH_LAAS_STRIPE);
	morph_laas_file_init(&f);
	srand(7);
	for (i = 0; i < 5000; i++) {
		u32 copies = (u32)rand() & 0xff;
		u64 off = (u64)rand() % (64 * MIB), len = 1 + (u64)rand() % (8 * MIB);

		if (!copies)
			copies = 1;
		n = morph_laas_route(&l, &f, copies, off, len, seg, 32);
		CHECK(covers(seg, n, copies, off, len));
	}
}

TEST(laas_split_names_the_pieces_a_split_read_takes_without_binding)
{
	struct morph_laas l;
	struct morph_laas_file f;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES], ahead[MORPH_MAX_DEVICES];
	u32 i, n, k;

	laas_setup(&l, 4, MORPH_LAAS_STRIPE);
	morph_laas_file_init(&f);
	morph_laas_open(&l, &f);
	srand(11);
	for (i = 0; i < 2000; i++) {
		u32 copies = ((u32)rand() & 0xf) | 1;
		u64 off = (u64)rand() % (64 * MIB), len = 1 + (u64)rand() % (4 * MIB);

		/* asked first, as read-ahead does, then routed for real */
		n = morph_laas_split(&l, copies, off, len, ahead, MORPH_MAX_DEVICES);
		CHECK_EQ(morph_laas_route(&l, &f, copies, off, len, seg,
					  MORPH_MAX_DEVICES), n);
		for (k = 0; k < n; k++) {
			CHECK_EQ(ahead[k].dev, seg[k].dev);
			CHECK_EQ(ahead[k].off, seg[k].off);
			CHECK_EQ(ahead[k].len, seg[k].len);
		}
	}
	CHECK_EQ(morph_laas_split(&l, 0x3, 0, 0, seg, 4), 0);
	CHECK_EQ(morph_laas_split(&l, 0, 0, 4096, seg, 4), 0);
	/* a file bound by the mirror policy stays bound */
	laas_setup(&l, 4, MORPH_LAAS_MIRROR);
	morph_laas_route(&l, &f, 0x3, 0, MIB, seg, MORPH_MAX_DEVICES);
	CHECK(f.bound >= 0);
	CHECK_EQ(morph_laas_split(&l, 0x3, 0, MIB, seg, MORPH_MAX_DEVICES), 2);
	CHECK(f.bound >= 0);
}

TEST(laas_split_readers_sharing_a_device_take_less_of_it)
{
	struct morph_laas l;
	struct morph_laas_file a, b, c;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 i, k, n;

	laas_setup(&l, 4, MORPH_LAAS_ADAPTIVE);
	morph_laas_file_init(&a);
	morph_laas_file_init(&b);
	morph_laas_open(&l, &a);
	morph_laas_open(&l, &b);
	/* a alone on devices 0 and 1: even */
	CHECK_EQ(morph_laas_route(&l, &a, 0x3, 0, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[0].dev, 0);
	CHECK_EQ(seg[0].len, 3 * MIB / 2);
	CHECK_EQ(seg[1].dev, 1);
	CHECK_EQ(seg[1].len, 3 * MIB / 2);
	/* b on devices 1 and 2 shares device 1 with a: a third from it */
	CHECK_EQ(morph_laas_route(&l, &b, 0x6, 0, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[0].dev, 1);
	CHECK_EQ(seg[0].off, 0);
	CHECK_EQ(seg[0].len, MIB);
	CHECK_EQ(seg[1].dev, 2);
	CHECK_EQ(seg[1].off, MIB);
	CHECK_EQ(seg[1].len, 2 * MIB);
	/* and a too, now that b reads from device 1 */
	CHECK_EQ(morph_laas_route(&l, &a, 0x3, 3 * MIB, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[0].dev, 0);
	CHECK_EQ(seg[0].len, 2 * MIB);
	CHECK_EQ(seg[1].dev, 1);
	CHECK_EQ(seg[1].len, MIB);
	/* what read-ahead is told is what the read gets */
	CHECK_EQ(morph_laas_split(&l, 0x3, 3 * MIB, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[0].len, 2 * MIB);
	/* b closed: a is the only split reader again */
	morph_laas_close(&l, &b);
	CHECK_EQ(morph_laas_route(&l, &a, 0x3, 0, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[0].len, 3 * MIB / 2);
	/* a file forgotten, or read from one copy, stops counting */
	morph_laas_open(&l, &b);
	morph_laas_route(&l, &b, 0x6, 0, MIB, seg, 32);
	morph_laas_route(&l, &b, 0x4, 0, MIB, seg, 32);
	CHECK_EQ(morph_laas_route(&l, &a, 0x3, 0, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[1].len, 3 * MIB / 2);
	morph_laas_route(&l, &b, 0x6, 0, MIB, seg, 32);
	morph_laas_forget(&l, &b);
	CHECK_EQ(morph_laas_route(&l, &a, 0x3, 0, 3 * MIB, seg, 32), 2);
	CHECK_EQ(seg[1].len, 3 * MIB / 2);
	/* uneven splits still cover any range exactly, from copies only */
	morph_laas_file_init(&b);	/* a new inode */
	morph_laas_file_init(&c);
	morph_laas_open(&l, &b);
	morph_laas_open(&l, &c);
	srand(13);
	for (i = 0; i < 5000; i++) {
		u32 copies = ((u32)rand() & 0xf) | 1;
		u64 off = (u64)rand() % (64 * MIB), len = 1 + (u64)rand() % (8 * MIB);

		morph_laas_route(&l, i % 2 ? &b : &c, ((u32)rand() & 0xf) | 2,
				 off, len, seg, 32);
		n = morph_laas_route(&l, &a, copies, off, len, seg, 32);
		CHECK(covers(seg, n, copies, off, len));
	}
	/* every reader closed: no device counts a split reader */
	morph_laas_close(&l, &a);
	morph_laas_close(&l, &b);
	morph_laas_close(&l, &c);
	for (k = 0; k < MORPH_MAX_DEVICES; k++)
		CHECK_EQ(l.dev_split[k], 0);
}

TEST(laas_at_threshold_binds_files_to_least_loaded_devices)
{
	struct morph_laas l;
	struct morph_laas_file f[4];
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 i;

	laas_setup(&l, 4, MORPH_LAAS_ADAPTIVE);
	for (i = 0; i < 4; i++) {
		morph_laas_file_init(&f[i]);
		morph_laas_open(&l, &f[i]);
	}
	CHECK_EQ(morph_laas_load(&l), 4);
	CHECK(!morph_laas_striping(&l));
	/* all four files have copies on devices 1 and 2 */
	CHECK_EQ(morph_laas_route(&l, &f[0], 0x6, 0, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 1);
	CHECK_EQ(seg[0].len, MIB);
	CHECK_EQ(morph_laas_route(&l, &f[1], 0x6, 0, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 2);
	CHECK_EQ(morph_laas_route(&l, &f[2], 0x6, 0, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 1);
	/* a bound file stays on its device while open */
	CHECK_EQ(morph_laas_route(&l, &f[0], 0x6, 5 * MIB, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 1);
	CHECK_EQ(l.dev_bound[1], 2);
	CHECK_EQ(l.dev_bound[2], 1);
	morph_laas_close(&l, &f[0]);
	CHECK_EQ(l.dev_bound[1], 1);
	CHECK_EQ(f[0].bound, -1);
}

TEST(laas_ties_between_devices_go_to_the_files_home)
{
	struct morph_laas l;
	struct morph_laas_file f[3];
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];
	u32 i;

	laas_setup(&l, 4, MORPH_LAAS_MIRROR);
	for (i = 0; i < 3; i++) {
		morph_laas_file_init(&f[i]);
		morph_laas_open(&l, &f[i]);
	}
	f[0].home = 2;
	f[1].home = 1;
	f[2].home = 2;
	/* devices 1 and 2 both idle: the home wins over the lower index */
	CHECK_EQ(morph_laas_route(&l, &f[0], 0x6, 0, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 2);
	CHECK_EQ(morph_laas_route(&l, &f[1], 0x6, 0, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 1);
	/* load still comes first: device 3 is idle, home 2 is not */
	CHECK_EQ(morph_laas_route(&l, &f[2], 0xc, 0, MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 3);
}

TEST(laas_load_is_the_most_files_open_at_once_within_the_window)
{
	struct morph_laas l;
	struct morph_laas_file f[5];
	u32 i;

	laas_setup(&l, 4, MORPH_LAAS_ADAPTIVE);
	for (i = 0; i < 5; i++) {
		morph_laas_file_init(&f[i]);
		morph_laas_open(&l, &f[i]);
	}
	for (i = 0; i < 5; i++)
		morph_laas_close(&l, &f[i]);
	/* five were open at once: they count until the window passes */
	CHECK_EQ(morph_laas_load(&l), 5);
	CHECK(!morph_laas_striping(&l));
	fake_now += 999999999ull;
	CHECK_EQ(morph_laas_load(&l), 5);
	fake_now += 2;
	CHECK_EQ(morph_laas_load(&l), 0);
	CHECK(morph_laas_striping(&l));
	/* one reader moving from file to file is one unit of load */
	for (i = 0; i < 5; i++) {
		morph_laas_open(&l, &f[i]);
		CHECK_EQ(morph_laas_load(&l), 1);
		morph_laas_close(&l, &f[i]);
	}
	/* reopening one file counts it once */
	morph_laas_open(&l, &f[0]);
	morph_laas_open(&l, &f[0]);
	CHECK_EQ(morph_laas_load(&l), 1);
	/* a file forgotten while open stops counting once the peak is old */
	morph_laas_forget(&l, &f[0]);
	fake_now += 1000000001ull;
	CHECK_EQ(morph_laas_load(&l), 0);
}

TEST(laas_forced_policies_ignore_load)
{
	struct morph_laas l;
	struct morph_laas_file f;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];

	laas_setup(&l, 4, MORPH_LAAS_MIRROR);
	morph_laas_file_init(&f);
	morph_laas_open(&l, &f);
	CHECK_EQ(morph_laas_route(&l, &f, 0xf, 0, 4 * MIB, seg, 32), 1);
	laas_setup(&l, 4, MORPH_LAAS_STRIPE);
	for (fake_now = 0; fake_now < 100; fake_now++)
		morph_laas_open(&l, &f);
	CHECK_EQ(morph_laas_route(&l, &f, 0xf, 0, 4 * MIB, seg, 32), 4);
}

TEST(laas_single_copy_files_read_their_only_device)
{
	struct morph_laas l;
	struct morph_laas_file f;
	struct morph_laas_segment seg[MORPH_MAX_DEVICES];

	laas_setup(&l, 4, MORPH_LAAS_STRIPE);
	morph_laas_file_init(&f);
	CHECK_EQ(morph_laas_route(&l, &f, 0x8, 0, 4 * MIB, seg, 32), 1);
	CHECK_EQ(seg[0].dev, 3);
}

/* ---- replica map ---- */

TEST(rmap_state_round_trips_through_its_48_byte_encoding)
{
	struct morph_state a, b;
	u8 buf[MORPH_STATE_SIZE];

	morph_state_init(&a, 0x0123456789abcdefull, 2);
	a.wanted = 3;
	a.mask = 0x9;
	a.stale = 0x8;
	a.reads = 1ull << 41;
	a.writes = 77;
	morph_state_encode(&a, buf);
	CHECK_EQ(buf[0], 1);
	CHECK_EQ(buf[2], 48);
	CHECK_EQ(buf[24], 0xef);	/* little-endian id */
	CHECK_EQ(morph_state_decode(buf, sizeof(buf), 4, &b), 0);
	CHECK(a.wanted == b.wanted && a.master == b.master &&
	      a.mask == b.mask && a.stale == b.stale && a.flags == b.flags &&
	      a.id == b.id && a.reads == b.reads && a.writes == b.writes);
	CHECK_EQ(morph_state_readable(&b), 0x5);
	CHECK_EQ(morph_state_copies(&b), 2);
}

TEST(rmap_decode_rejects_short_unknown_and_inconsistent_states)
{
	struct morph_state a, b;
	u8 buf[MORPH_STATE_SIZE];

	morph_state_init(&a, 1, 0);
	morph_state_encode(&a, buf);
	CHECK_EQ(morph_state_decode(buf, 20, 4, &b), -MORPH_ERR_SHORT);
	buf[0] = 9;
	CHECK_EQ(morph_state_decode(buf, sizeof(buf), 4, &b), -MORPH_ERR_VERSION);
	a.master = 4;
	morph_state_encode(&a, buf);
	CHECK_EQ(morph_state_decode(buf, sizeof(buf), 4, &b), -MORPH_ERR_FIELD);
	a.master = 0;
	a.mask = 0x1;	/* a replica on the master's own device */
	morph_state_encode(&a, buf);
	CHECK_EQ(morph_state_decode(buf, sizeof(buf), 4, &b), -MORPH_ERR_FIELD);
	a.mask = 0x2;
	a.stale = 0x4;	/* stale replica that does not exist */
	morph_state_encode(&a, buf);
	CHECK_EQ(morph_state_decode(buf, sizeof(buf), 4, &b), -MORPH_ERR_FIELD);
	CHECK(strstr(morph_strerror(-MORPH_ERR_FIELD), "out of range"));
}

TEST(rmap_new_replicas_go_to_random_devices_without_a_copy)
{
	struct morph_env env = test_env();
	struct morph_state st;
	u32 seen = 0, i;

	morph_state_init(&st, 1, 1);
	st.mask = 0x4;
	for (i = 0; i < 200; i++) {
		int d = morph_rmap_pick_new(&st, 5, 0xffffffffu, &env);

		CHECK(d == 0 || d == 3 || d == 4);
		seen |= 1u << d;
	}
	CHECK_EQ(seen, 0x19);
	CHECK_EQ(morph_rmap_pick_new(&st, 5, 0x6, &env), -MORPH_ERR_NODEV);
}

TEST(rmap_drops_stale_replicas_first)
{
	struct morph_state st;

	morph_state_init(&st, 1, 0);
	CHECK_EQ(morph_rmap_pick_drop(&st), -MORPH_ERR_NODEV);
	st.mask = 0xe;
	CHECK_EQ(morph_rmap_pick_drop(&st), 3);
	st.stale = 0x2;
	CHECK_EQ(morph_rmap_pick_drop(&st), 1);
}

/* ---- the replica protocol (core/replica.c), against a fake front end ---- */

struct fake_vol {
	u64 free[MORPH_MAX_DEVICES];
	u32 turn;
	char log[512];		/* the steps, in order */
	u8 state[MORPH_STATE_SIZE];	/* the master's attribute as written */
	int fail_copy, fail_persist;
	u32 sync_fails;		/* replicas whose data sync_data cannot sync */
};

static void fake_step(struct fake_vol *fv, const char *step)
{
	strncat(fv->log, step, sizeof(fv->log) - strlen(fv->log) - 1);
	strncat(fv->log, ";", sizeof(fv->log) - strlen(fv->log) - 1);
}

static u64 fake_dev_free(void *ctx, u32 dev)
{
	return ((struct fake_vol *)ctx)->free[dev];
}

static u32 fake_next_turn(void *ctx)
{
	return ((struct fake_vol *)ctx)->turn++;
}

static int fake_write_state(void *ctx, struct morph_replica_file *f,
			    const u8 *buf, int sync)
{
	struct fake_vol *fv = ctx;

	(void)f;
	if (fv->fail_persist)
		return -5;
	memcpy(fv->state, buf, MORPH_STATE_SIZE);
	fake_step(fv, sync ? "state+sync" : "state");
	return 0;
}

static const struct morph_replica_io *fake_io(struct fake_vol *fv,
					      struct morph_replica_io *io);

static int fake_persist(void *ctx, struct morph_replica_file *f,
			u32 extra_stale, int sync)
{
	struct morph_replica_io io;

	return morph_replica_persist(fake_io(ctx, &io), f, extra_stale, 0, 0,
				     sync);
}

static int fake_copy(void *ctx, struct morph_replica_file *f,
		     struct morph_copy *c)
{
	struct fake_vol *fv = ctx;

	(void)f;
	fake_step(fv, "copy");
	fake_step(fv, c->tmp);
	return fv->fail_copy ? -28 : 0;
}

static u32 fake_sync_data(void *ctx, struct morph_replica_file *f, u32 copies)
{
	struct fake_vol *fv = ctx;
	char step[32];

	(void)f;
	snprintf(step, sizeof(step), "sync %x", copies);
	fake_step(fv, step);
	return fv->sync_fails;
}

static int fake_rename(void *ctx, struct morph_replica_file *f,
		       struct morph_copy *c)
{
	(void)f;
	fake_step(ctx, "rename");
	fake_step(ctx, c->name);
	return 0;
}

static int fake_remove(void *ctx, u32 dev, const char *name)
{
	(void)dev;
	fake_step(ctx, "remove");
	fake_step(ctx, name);
	return 0;
}

static const struct morph_replica_io *fake_io(struct fake_vol *fv,
					      struct morph_replica_io *io)
{
	static struct morph_env env;

	env = test_env();
	memset(io, 0, sizeof(*io));
	io->ctx = fv;
	io->env = &env;
	io->ndev = 4;
	io->dev_free = fake_dev_free;
	io->next_turn = fake_next_turn;
	io->write_state = fake_write_state;
	io->persist = fake_persist;
	io->copy = fake_copy;
	io->sync_data = fake_sync_data;
	io->rename = fake_rename;
	io->remove = fake_remove;
	return io;
}

TEST(replica_names_are_the_id_in_16_hex_digits_and_a_copy_in_progress_ends_in_tmp)
{
	char buf[MORPH_REPLICA_NAME_MAX];

	CHECK_EQ(morph_replica_name(buf, sizeof(buf), 0xabc, 0), 16);
	CHECK(!strcmp(buf, "0000000000000abc"));
	CHECK_EQ(morph_replica_name(buf, sizeof(buf), ~0ull, 1), 20);
	CHECK(!strcmp(buf, "ffffffffffffffff.tmp"));
	CHECK_EQ(morph_replica_name(buf, 16, 1, 0), 0);
}

TEST(a_name_on_several_devices_stays_on_the_lowest_device_not_behind)
{
	CHECK_EQ(morph_name_keeper(0x6, 0), 1);
	CHECK_EQ(morph_name_keeper(0x9, 0), 0);
	CHECK_EQ(morph_name_keeper(0x6, 0x2), 2);	/* 1 missed changes */
	CHECK_EQ(morph_name_keeper(0x6, 0x6), 1);	/* all behind */
}

TEST(a_file_set_aside_is_named_its_name_a_dot_and_its_inode_number)
{
	char buf[16];

	CHECK_EQ(morph_lost_name(buf, sizeof(buf), "rep.tmp", 3, 1207), 8);
	CHECK(!strcmp(buf, "rep.1207"));
	CHECK_EQ(morph_lost_name(buf, sizeof(buf), "x", 1, 0), 3);
	CHECK(!strcmp(buf, "x.0"));
	CHECK_EQ(morph_lost_name(buf, 9, "abcdef", 6, 12), 0);	/* no room for the NUL */
	CHECK_EQ(morph_lost_name(buf, 10, "abcdef", 6, 12), 9);
}

TEST(new_files_go_to_devices_in_turn_skipping_those_with_less_than_half_the_room)
{
	struct fake_vol fv = { .free = { 100, 40, 60, 100 } };
	struct morph_replica_io io;
	const struct morph_replica_io *p = fake_io(&fv, &io);

	CHECK_EQ(morph_place_file(p, 0xf), 0);
	CHECK_EQ(morph_place_file(p, 0xf), 2);	/* 1 has 40 < 100 / 2 */
	CHECK_EQ(morph_place_file(p, 0xf), 3);
	CHECK_EQ(morph_place_file(p, 0x2), 1);	/* the only one allowed */
	CHECK_EQ(morph_place_file(p, 0), -MORPH_ERR_NODEV);
}

TEST(a_replica_is_copied_to_tmp_then_renamed_and_only_then_listed_in_the_mask)
{
	struct fake_vol fv = { 0 };
	struct morph_replica_io io;
	struct morph_replica_file f = { 0 };
	struct morph_state on_disk;

	morph_state_init(&f.st, 0x10, 0);
	f.st.wanted = 2;
	CHECK_EQ(morph_replica_make(fake_io(&fv, &io), &f, &f.st, 2, NULL), 0);
	CHECK(!strcmp(fv.log, "remove;0000000000000010.tmp;copy;0000000000000010.tmp;"
		      "rename;0000000000000010;state+sync;"));
	CHECK_EQ(f.st.mask, 1u << 2);
	CHECK_EQ(morph_state_decode(fv.state, sizeof(fv.state), 4, &on_disk), 0);
	CHECK_EQ(on_disk.mask, 1u << 2);
}

TEST(a_failed_copy_removes_its_tmp_and_leaves_the_mask_as_it_was)
{
	struct fake_vol fv = { .fail_copy = 1 };
	struct morph_replica_io io;
	struct morph_replica_file f = { 0 };

	morph_state_init(&f.st, 0x10, 0);
	CHECK_EQ(morph_replica_make(fake_io(&fv, &io), &f, &f.st, 1, NULL), -28);
	CHECK(strstr(fv.log, "copy;0000000000000010.tmp;remove;0000000000000010.tmp;"));
	CHECK(!strstr(fv.log, "rename"));
	CHECK_EQ(f.st.mask, 0);
}

TEST(a_mask_that_cannot_be_written_is_not_changed_in_memory_either)
{
	struct fake_vol fv = { 0 };
	struct morph_replica_io io;
	struct morph_replica_file f = { 0 };
	u32 dev = 9;

	morph_state_init(&f.st, 0x10, 0);
	f.st.mask = 0x6;
	f.st.stale = 0x4;
	fv.fail_persist = 1;
	CHECK_EQ(morph_replica_drop(fake_io(&fv, &io), &f, NULL, &dev), -5);
	CHECK_EQ(f.st.mask, 0x6);
	CHECK_EQ(dev, 9);
	fv.fail_persist = 0;
	/* the stale one goes first */
	CHECK_EQ(morph_replica_drop(fake_io(&fv, &io), &f, NULL, &dev), 0);
	CHECK_EQ(dev, 2);
	CHECK_EQ(f.st.mask, 0x2);
	CHECK_EQ(f.st.stale, 0);
}

TEST(a_write_session_marks_current_replicas_stale_on_disk_before_the_first_write)
{
	struct fake_vol fv = { 0 };
	struct morph_replica_io io;
	const struct morph_replica_io *p = fake_io(&fv, &io);
	struct morph_replica_file f = { 0 };
	struct morph_state on_disk;

	morph_state_init(&f.st, 0x10, 0);
	f.st.mask = 0x6;
	CHECK_EQ(morph_session_begin(p, &f, 0x4), 0);
	CHECK(!strcmp(fv.log, "state+sync;"));
	CHECK_EQ(morph_state_decode(fv.state, sizeof(fv.state), 4, &on_disk), 0);
	CHECK_EQ(on_disk.stale, 0x6);
	CHECK_EQ(f.st.stale, 0);	/* in memory: served until it misses one */
	CHECK_EQ(f.failed, 0x4);	/* on a lost device: missed already */
	morph_session_end(p, &f);
	CHECK_EQ(f.st.stale, 0x4);
	CHECK_EQ(morph_state_decode(fv.state, sizeof(fv.state), 4, &on_disk), 0);
	CHECK_EQ(on_disk.stale, 0x4);
}

TEST(a_state_written_during_a_write_session_keeps_its_replicas_stale_on_disk)
{
	struct fake_vol fv = { 0 };
	struct morph_replica_io io;
	const struct morph_replica_io *p = fake_io(&fv, &io);
	struct morph_replica_file f = { 0 };
	struct morph_state on_disk;

	morph_state_init(&f.st, 0x10, 0);
	f.st.mask = 0x6;
	CHECK_EQ(morph_session_begin(p, &f, 0), 0);
	/* e.g. the copies wanted changed while the file is open for writing */
	f.st.wanted = 2;
	CHECK_EQ(morph_replica_persist(p, &f, 0, 0, 0, 1), 0);
	CHECK_EQ(morph_state_decode(fv.state, sizeof(fv.state), 4, &on_disk), 0);
	CHECK_EQ(on_disk.stale, 0x6);
	CHECK_EQ(on_disk.wanted, 2);
}

TEST(a_session_end_syncs_the_data_before_the_state_calls_its_replicas_fresh)
{
	struct fake_vol fv = { 0 };
	struct morph_replica_io io;
	const struct morph_replica_io *p = fake_io(&fv, &io);
	struct morph_replica_file f = { 0 };
	struct morph_state on_disk;

	morph_state_init(&f.st, 0x10, 0);
	f.st.mask = 0xe;
	CHECK_EQ(morph_session_begin(p, &f, 0x8), 0);
	morph_session_end(p, &f);
	/* the replica on the lost device missed the writes: not synced */
	CHECK(!strcmp(fv.log, "state+sync;sync 6;state;"));
	CHECK_EQ(morph_state_decode(fv.state, sizeof(fv.state), 4, &on_disk), 0);
	CHECK_EQ(on_disk.stale, 0x8);
}

TEST(a_replica_whose_data_cannot_be_synced_stays_stale_after_the_session)
{
	struct fake_vol fv = { .sync_fails = 0x4 };
	struct morph_replica_io io;
	const struct morph_replica_io *p = fake_io(&fv, &io);
	struct morph_replica_file f = { 0 };
	struct morph_state on_disk;

	morph_state_init(&f.st, 0x10, 0);
	f.st.mask = 0x6;
	CHECK_EQ(morph_session_begin(p, &f, 0), 0);
	morph_session_end(p, &f);
	CHECK_EQ(f.st.stale, 0x4);
	CHECK_EQ(morph_state_decode(fv.state, sizeof(fv.state), 4, &on_disk), 0);
	CHECK_EQ(on_disk.stale, 0x4);
}

TEST(copies_wanted_are_a_number_from_1_to_the_devices_with_an_optional_newline)
{
	u32 n = 0;

	CHECK_EQ(morph_replicas_parse("3", 1, 4, &n), 0);
	CHECK_EQ(n, 3);
	CHECK_EQ(morph_replicas_parse("4\n", 2, 4, &n), 0);
	CHECK_EQ(n, 4);
	CHECK_EQ(morph_replicas_parse("+2", 2, 4, &n), 0);
	CHECK_EQ(n, 2);
	CHECK(morph_replicas_parse("0", 1, 4, &n));
	CHECK(morph_replicas_parse("5", 1, 4, &n));
	CHECK(morph_replicas_parse("", 0, 4, &n));
	CHECK(morph_replicas_parse("\n", 1, 4, &n));
	CHECK(morph_replicas_parse("2x", 2, 4, &n));
	CHECK(morph_replicas_parse("99999999999", 11, 4, &n));
}

TEST(the_status_line_lists_the_copies_and_the_lost_devices_last)
{
	struct morph_file_status fs = { .copies = 0x5, .reads = 7,
					.writes = 1, .lost = 0x8 };
	char out[256];

	morph_state_init(&fs.st, 0xbeef, 0);
	fs.st.wanted = 3;
	fs.st.mask = 0xc;
	fs.st.stale = 0x8;
	morph_file_status_format(out, sizeof(out), &fs);
	CHECK(!strcmp(out, "wanted=3 copies=2 master=0 devices=0,2 stale=0x8 reads=7 writes=1 id=000000000000beef lost=3"));
	fs.lost = 0;
	fs.state_bad = 1;
	CHECK_EQ(morph_file_status_format(out, 20, &fs), 19);
	CHECK(!strcmp(out, "wanted=3 copies=2 m"));
}

TEST(the_volume_line_ends_with_pending_and_each_device_says_its_state)
{
	struct morph_volume_status vs = { .version = 2, .ndev = 2,
		.degraded_mode = 1, .lost = 0x2, .load = 1, .threshold = 2,
		.policy = MORPH_LAAS_MIRROR, .chunk = 4096, .window_ms = 1000,
		.pending = 3 };
	struct morph_device_status ds = { .dev = 1, .path = "/d1", .free = 9 };
	char out[256];

	morph_volume_status_format(out, sizeof(out), &vs);
	CHECK(!strcmp(out, "version=2 devices=2 lost=1 behind=- load=1 threshold=2 mode=mirror policy=mirror chunk=4096 window_ms=1000 pending=3\n"));
	morph_device_status_format(out, sizeof(out), &vs, &ds);
	CHECK(!strcmp(out, "dev=1 path=/d1 load=0 split=0 mode=mirror free=9 state=lost\n"));
	vs.degraded_mode = 0;
	morph_device_status_format(out, sizeof(out), &vs, &ds);
	CHECK(!strcmp(out, "dev=1 path=/d1 load=0 split=0 mode=mirror free=9\n"));
}


#define T(x) { #x, x }
static const struct morph_test tests[] = {
	T(replica_names_are_the_id_in_16_hex_digits_and_a_copy_in_progress_ends_in_tmp),
	T(a_name_on_several_devices_stays_on_the_lowest_device_not_behind),
	T(a_file_set_aside_is_named_its_name_a_dot_and_its_inode_number),
	T(new_files_go_to_devices_in_turn_skipping_those_with_less_than_half_the_room),
	T(a_replica_is_copied_to_tmp_then_renamed_and_only_then_listed_in_the_mask),
	T(a_failed_copy_removes_its_tmp_and_leaves_the_mask_as_it_was),
	T(a_mask_that_cannot_be_written_is_not_changed_in_memory_either),
	T(a_write_session_marks_current_replicas_stale_on_disk_before_the_first_write),
	T(a_state_written_during_a_write_session_keeps_its_replicas_stale_on_disk),
	T(a_session_end_syncs_the_data_before_the_state_calls_its_replicas_fresh),
	T(a_replica_whose_data_cannot_be_synced_stays_stale_after_the_session),
	T(copies_wanted_are_a_number_from_1_to_the_devices_with_an_optional_newline),
	T(the_status_line_lists_the_copies_and_the_lost_devices_last),
	T(the_volume_line_ends_with_pending_and_each_device_says_its_state),
	T(udr_figure33_replicates_A_then_C_then_A),
	T(udr_figure33_never_replicates_B_or_D_even_with_unlimited_capacity),
	T(udr_stops_when_capacity_runs_out_and_never_exceeds_it),
	T(udr_skips_a_file_too_big_for_the_rest_of_the_budget_but_fills_it_with_smaller_ones),
	T(udr_zero_capacity_plans_nothing),
	T(udr_write_heavy_files_get_no_replica),
	T(udr_terminates_with_at_most_ndev_copies_per_file),
	T(udr_equal_utilities_are_decided_in_input_order),
	T(udr_rejects_a_device_count_out_of_range),
	T(udr_utility_is_the_cost_difference_of_algorithm1_line3),
	T(laas_threshold_is_factor_times_devices),
	T(laas_low_load_splits_a_large_read_evenly_over_the_copies),
	T(laas_small_reads_alternate_between_copies_by_chunk),
	T(laas_segments_cover_any_range_exactly_and_only_use_copies),
	T(laas_split_names_the_pieces_a_split_read_takes_without_binding),
	T(laas_split_readers_sharing_a_device_take_less_of_it),
	T(laas_at_threshold_binds_files_to_least_loaded_devices),
	T(laas_ties_between_devices_go_to_the_files_home),
	T(laas_load_is_the_most_files_open_at_once_within_the_window),
	T(laas_forced_policies_ignore_load),
	T(laas_single_copy_files_read_their_only_device),
	T(rmap_state_round_trips_through_its_48_byte_encoding),
	T(rmap_decode_rejects_short_unknown_and_inconsistent_states),
	T(rmap_new_replicas_go_to_random_devices_without_a_copy),
	T(rmap_drops_stale_replicas_first),
};

int main(void)
{
	return morph_run_tests(tests, (int)(sizeof(tests) / sizeof(tests[0])));
}
