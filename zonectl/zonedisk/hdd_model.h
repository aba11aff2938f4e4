/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The timing model of an emulated HDD (zonedisk --drive): the mechanism
 * half, driven by a struct hdd_drive (hdd_drive.h).  Pure computation on a
 * disk clock the caller passes in, so it can be tested without FUSE.
 *
 * Geometry.  The emulated disk's SIZE bytes are laid over the drive's whole
 * stroke: x in [0, 1] is the head's radial position (0 = outermost
 * cylinder), and the media rate falls linearly with x from outer to inner
 * (constant linear density, radius linear in x).  Every cylinder takes one
 * turn to read, so the bytes before position x are
 *	o(x) = SIZE * (x - (1 - r) x^2 / 2) / ((1 + r) / 2),   r = inner/outer
 * and the media time to stream from 0 to x is tau(x) = x * SIZE / mean_rate.
 * A byte passes under the head when the spindle's angle (disk time / turn,
 * fractional part) equals frac(tau(x) / turn), so sequential requests that
 * follow each other without a gap wait no rotation, and a random one waits
 * a fraction of a turn set by where the spindle is on the disk clock.
 *
 * Seek: t(d) for d cylinders, square root for short seeks, linear for long
 * ones, continuous in value and slope at the knee k:
 *	t(d) = a + b sqrt(d)		1 <= d <= k
 *	t(d) = a + b sqrt(k)/2 + b d / (2 sqrt(k))	d > k
 * fitted so that t(1) = track-to-track, t(cylinders) = full stroke and the
 * mean over all pairs of cylinders (density 2(1 - u) of the distance u as
 * a fraction of the stroke) = average seek.
 *
 * Cache: cache_segments read-ahead segments.  After a read from the media
 * the drive goes on reading into that segment while it is idle, up to the
 * segment's size; a read inside a segment is served at interface speed, a
 * read that runs on past what the read-ahead has reached, or starts ahead
 * of it but within its reach, continues on the media without a seek.
 * Writes go to the media (write cache not modelled) and drop the segments
 * they overlap.
 *
 * Power: hdd_standby() stops the spindle; the next request, or
 * hdd_spin_up(), waits spinup_s first.
 */
#ifndef HDD_MODEL_H
#define HDD_MODEL_H

#include <stdint.h>
#include "hdd_drive.h"

#define HDD_MAX_SEGMENTS 64

struct hdd_segment {
	uint64_t start, end;	/* cached bytes [start, end) */
	uint64_t limit;		/* the read-ahead stops here */
	double at;		/* disk time at which end was reached */
	uint64_t used;		/* LRU stamp */
};

struct hdd_cost {		/* where one request's time went, seconds */
	double spinup, seek, rotation, media, interface;
	int cache_hit;		/* served wholly from the cache */
};

struct hdd {
	const struct hdd_drive *d;
	uint64_t size;
	double turn;		/* seconds per revolution */
	double mean_bps;	/* mean media rate, bytes/s */
	double seek_a, seek_b, seek_k;	/* the fitted seek curve */
	double head_x;		/* radial position of the head */
	int standby;
	double ready_at;	/* disk time the spindle is up (after a spin-up) */
	unsigned int nseg;
	int active;		/* the segment the read-ahead fills, or -1 */
	uint64_t stamp;
	struct hdd_segment seg[HDD_MAX_SEGMENTS];
	uint64_t spinups, cache_hits;
};

/* Set up H for drive D over SIZE bytes; 0, or -1 if D's figures cannot be
 * fitted (the message names the figure). */
int hdd_init(struct hdd *h, const struct hdd_drive *d, uint64_t size, char *why, int whylen);

/* The time a seek of D cylinders takes (0 for D < 1), seconds. */
double hdd_seek_time(const struct hdd *h, double cylinders);

/* Radial position of byte offset O, and the offset at position X. */
double hdd_position(const struct hdd *h, uint64_t o);
uint64_t hdd_offset(const struct hdd *h, double x);

/* Media rate at position X, bytes/s. */
double hdd_media_rate(const struct hdd *h, double x);

/* Serve N bytes at O starting at disk time START (not before the previous
 * request's end); returns the service time in seconds, COST (may be NULL)
 * its parts. */
double hdd_service(struct hdd *h, double start, uint64_t o, uint64_t n, int write,
		   struct hdd_cost *cost);

/* Spin down at disk time T / start spinning up at T (returns when ready). */
void hdd_standby(struct hdd *h, double t);
double hdd_spin_up(struct hdd *h, double t);

#endif
