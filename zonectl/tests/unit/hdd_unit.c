// SPDX-License-Identifier: Apache-2.0
/*
 * The HDD timing model against its drive's datasheet (issue 48, item 2),
 * without FUSE: the model is driven on its own disk clock, so every figure
 * is modelled time and the test is deterministic.  Each check is within
 * 10 % of what the datasheet implies (docs/zone.md, "The datasheet
 * check").  One line per test, then the summary line the harness adds up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../zonedisk/hdd_model.h"

#define DRIVE "ST4000NM0033"
#define SIZE (2ull << 30)

static int passed, failed;

static void check(int ok, const char *name, double got, double want)
{
	printf("%s %s (model %.3f, datasheet %.3f)\n", ok ? "PASS" : "FAIL", name, got, want);
	if (ok)
		passed++;
	else
		failed++;
}

static int within(double got, double want, double tol)
{
	return fabs(got - want) <= tol * want;
}

/* a fixed sequence, so that runs are identical */
static double uniform(unsigned long long *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*state >> 11) / 9007199254740992.0;
}

static struct hdd fresh(void)
{
	struct hdd h;
	char why[256];

	if (hdd_init(&h, hdd_drive_find(DRIVE), SIZE, why, sizeof(why))) {
		fprintf(stderr, "%s\n", why);
		exit(1);
	}
	return h;
}

/* mean access (ms) of N random 4 KiB reads whose cylinders are uniform in
 * [0, band] of the stroke, each arriving 0-2 ms after the previous one
 * ended (a host's round trip), so the spindle's angle is random.  Longer
 * idle gaps would let the read-ahead cover a noticeable share of a small
 * emulated disk's band (a 2 GiB disk stands for 4 TB), which the
 * datasheet's figures do not count. */
static double random_reads(struct hdd *h, double band, int n)
{
	unsigned long long st = 48;
	double t = 1, sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t o = hdd_offset(h, band * uniform(&st)) & ~4095ull;
		double s = hdd_service(h, t, o, 4096, 0, NULL);

		sum += s;
		t += s + 0.002 * uniform(&st);
	}
	return sum / n * 1e3;
}

/* MB/s of a back-to-back pass of 1 MiB requests over [o, o + len) */
static double sequential(struct hdd *h, uint64_t o, uint64_t len, int write)
{
	double t = 1, busy = 0;
	uint64_t p;

	for (p = o; p < o + len; p += 1 << 20) {
		double s = hdd_service(h, t, p, 1 << 20, write, NULL);

		busy += s;
		t += s;
	}
	return (double)len / busy / 1e6;
}

int main(void)
{
	const struct hdd_drive *d = hdd_drive_find(DRIVE);
	unsigned long long st = 7;
	struct hdd h = fresh();
	struct hdd_cost c;
	double turn_ms = 60e3 / d->rpm, sum = 0, want, got, t;
	int i;

	check(within(hdd_seek_time(&h, 1) * 1e3, d->track_to_track_ms, 0.01),
	      "seek_curve_track_to_track_ms", hdd_seek_time(&h, 1) * 1e3, d->track_to_track_ms);
	check(within(hdd_seek_time(&h, (double)d->cylinders) * 1e3, d->full_stroke_ms, 0.01),
	      "seek_curve_full_stroke_ms", hdd_seek_time(&h, (double)d->cylinders) * 1e3,
	      d->full_stroke_ms);
	for (i = 0; i < 200000; i++)
		sum += hdd_seek_time(&h, fabs(uniform(&st) - uniform(&st)) * (double)d->cylinders);
	check(within(sum / 200000 * 1e3, d->average_seek_ms, 0.02),
	      "seek_curve_average_over_all_cylinder_pairs_ms", sum / 200000 * 1e3,
	      d->average_seek_ms);
	check(within(turn_ms / 2, 4.16, 0.01), "half_a_turn_is_the_average_latency_ms",
	      turn_ms / 2, 4.16);

	/* average access = average seek + half a turn (+ 4 KiB on the media) */
	h = fresh();
	want = d->average_seek_ms + turn_ms / 2;
	got = random_reads(&h, 1, 4000);
	check(within(got, want, 0.10), "random_4k_reads_full_stroke_ms", got, want);

	/* short stroke: the outer 10 % of the cylinders; the seek curve fitted
	 * to the datasheet gives its mean seek (distance density 2(1 - u)) */
	for (sum = 0, i = 0; i < 200000; i++)
		sum += hdd_seek_time(&h, 0.1 * fabs(uniform(&st) - uniform(&st)) *
					 (double)d->cylinders);
	want = sum / 200000 * 1e3 + turn_ms / 2;
	h = fresh();
	got = random_reads(&h, 0.1, 4000);
	check(within(got, want, 0.10) && got < 0.75 * (d->average_seek_ms + turn_ms / 2),
	      "random_4k_reads_short_stroke_outer_10pct_ms", got, want);

	h = fresh();
	got = sequential(&h, 0, 64 << 20, 0);
	check(within(got, d->outer_mbps, 0.10), "sequential_read_outer_mbps", got, d->outer_mbps);
	h = fresh();
	got = sequential(&h, SIZE - (64 << 20), 64 << 20, 0);
	check(within(got, d->inner_mbps, 0.10), "sequential_read_inner_mbps", got, d->inner_mbps);
	h = fresh();
	got = sequential(&h, 0, 64 << 20, 1);
	check(within(got, d->outer_mbps, 0.10), "sequential_write_outer_mbps", got, d->outer_mbps);

	/* a stream from a host that leaves 1 ms between 1 MiB requests: the
	 * read-ahead streams on in the gaps, so from its first request to its
	 * last the disk still moves the bytes at the media rate */
	h = fresh();
	for (t = 1, i = 0; i < 64; i++)
		t += hdd_service(&h, t, (uint64_t)i << 20, 1 << 20, 0, NULL) + 0.001;
	got = (64 << 20) / (t - 0.001 - 1) / 1e6;
	check(within(got, d->outer_mbps, 0.10), "sequential_read_with_host_gaps_outer_mbps",
	      got, d->outer_mbps);

	/* the two halves of each 1 MiB host read arrive swapped (a loop device
	 * splits it, FUSE threads race): the drive reads through, no seek */
	h = fresh();
	for (sum = 0, t = 1, i = 0; i < 64; i++) {
		uint64_t o = (uint64_t)i << 20;

		t += hdd_service(&h, t, o + (512 << 10), 512 << 10, 0, &c);
		if (i > 0)	/* the first pair starts the stream */
			sum += c.seek;
		t += hdd_service(&h, t, o, 512 << 10, 0, &c);
	}
	got = (64 << 20) / (t - 1) / 1e6;
	check(within(got, d->outer_mbps, 0.10) && sum == 0 && c.cache_hit,
	      "sequential_read_halves_swapped_outer_mbps", got, d->outer_mbps);

	/* read-ahead: after a read and 50 ms idle, the next 64 KiB are in the
	 * cache and come at interface speed */
	h = fresh();
	t = 1 + hdd_service(&h, 1, 1 << 30, 65536, 0, NULL) + 0.05;
	got = hdd_service(&h, t, (1 << 30) + 65536, 65536, 0, &c) * 1e3;
	want = 65536 / (d->interface_mbps * 1e6) * 1e3;
	check(c.cache_hit && within(got, want, 0.10), "read_ahead_hit_at_interface_speed_ms",
	      got, want);
	got = hdd_service(&h, t + 1, 1 << 20, 4096, 1, &c) * 1e3;
	check(!c.cache_hit && c.seek > 0, "a_write_goes_to_the_media", got, got);

	/* standby: the next request waits the spin-up */
	h = fresh();
	hdd_service(&h, 1, 0, 4096, 0, NULL);
	hdd_standby(&h, 2);
	got = hdd_service(&h, 3, 1 << 30, 4096, 0, &c);
	check(within(c.spinup, d->spinup_s, 0.001) && got >= d->spinup_s && h.spinups == 1,
	      "request_after_standby_waits_the_spin_up_s", c.spinup, d->spinup_s);
	got = hdd_service(&h, 3 + got, 1 << 29, 4096, 0, &c);
	check(c.spinup == 0, "spun_up_disk_serves_without_spin_up_s", c.spinup, 0);

	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
