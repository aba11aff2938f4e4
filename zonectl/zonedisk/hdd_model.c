// SPDX-License-Identifier: Apache-2.0
/*
 * The timing model of an emulated HDD; the layout, the seek curve and the
 * cache are described in hdd_model.h.  The figures come from a struct
 * hdd_drive (hdd_drives.c); nothing here knows a drive by name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hdd_model.h"

static double inner_ratio(const struct hdd *h)
{
	return h->d->inner_mbps / h->d->outer_mbps;
}

double hdd_media_rate(const struct hdd *h, double x)
{
	return h->d->outer_mbps * 1e6 * (1 - (1 - inner_ratio(h)) * x);
}

double hdd_position(const struct hdd *h, uint64_t o)
{
	double r = inner_ratio(h), q = (double)o / (double)h->size * (1 + r) / 2;
	double x;

	if (r >= 1)
		return (double)o / (double)h->size;
	x = (1 - sqrt(fmax(0, 1 - 2 * (1 - r) * q))) / (1 - r);
	return fmin(1, fmax(0, x));
}

uint64_t hdd_offset(const struct hdd *h, double x)
{
	double r = inner_ratio(h);

	x = fmin(1, fmax(0, x));
	return (uint64_t)((double)h->size * (x - (1 - r) * x * x / 2) / ((1 + r) / 2));
}

/* media time from offset 0 to position x, seconds */
static double tau(const struct hdd *h, double x)
{
	return x * (double)h->size / h->mean_bps;
}

static double seek_curve(double a, double b, double k, double d)
{
	if (d <= k)
		return a + b * sqrt(d);
	return a + b * sqrt(k) / 2 + b * d / (2 * sqrt(k));
}

double hdd_seek_time(const struct hdd *h, double d)
{
	if (d < 1)
		return 0;
	return seek_curve(h->seek_a, h->seek_b, h->seek_k, d) / 1e3;
}

/* the curve through track-to-track and full stroke with knee k */
static void seek_fit_k(const struct hdd_drive *d, double k, double *a, double *b)
{
	double c = (double)d->cylinders;

	*b = (d->full_stroke_ms - d->track_to_track_ms) / (sqrt(k) / 2 + c / (2 * sqrt(k)) - 1);
	*a = d->track_to_track_ms - *b;
}

/* mean seek (ms) over all pairs of cylinders: the distance u (fraction of
 * the stroke) has density 2(1 - u); midpoint rule */
static double seek_mean(const struct hdd_drive *d, double a, double b, double k)
{
	const int n = 20000;
	double c = (double)d->cylinders, sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		double u = (i + 0.5) / n, dist = u * c;

		sum += 2 * (1 - u) * (dist < 1 ? d->track_to_track_ms : seek_curve(a, b, k, dist));
	}
	return sum / n;
}

int hdd_init(struct hdd *h, const struct hdd_drive *d, uint64_t size, char *why, int whylen)
{
	double lo = 0, hi, a, b, m_lo, m_hi;
	int i;

	memset(h, 0, sizeof(*h));
	h->d = d;
	h->size = size;
	h->active = -1;
	if (d->rpm <= 0 || d->outer_mbps <= 0 || d->inner_mbps <= 0 ||
	    d->inner_mbps > d->outer_mbps || d->interface_mbps <= 0 || d->cylinders < 2 ||
	    d->track_to_track_ms <= 0 || d->average_seek_ms <= d->track_to_track_ms ||
	    d->full_stroke_ms <= d->average_seek_ms || d->spinup_s < 0 || !size) {
		snprintf(why, whylen, "drive %s: figures out of range (need rpm, rates > 0, "
			 "inner <= outer, track-to-track < average < full stroke)", d->name);
		return -1;
	}
	h->turn = 60 / d->rpm;
	h->mean_bps = d->outer_mbps * 1e6 * (1 + inner_ratio(h)) / 2;
	h->nseg = d->cache_segments;
	if (h->nseg > HDD_MAX_SEGMENTS)
		h->nseg = HDD_MAX_SEGMENTS;
	if (!d->cache_bytes)
		h->nseg = 0;
	/* bisect the knee on a log scale: the mean grows with the knee, from
	 * the straight line (knee 1) to the pure square root (knee = stroke) */
	hi = log((double)d->cylinders);
	seek_fit_k(d, 1, &a, &b);
	m_lo = seek_mean(d, a, b, 1);
	seek_fit_k(d, (double)d->cylinders, &a, &b);
	m_hi = seek_mean(d, a, b, (double)d->cylinders);
	if (d->average_seek_ms < m_lo || d->average_seek_ms > m_hi) {
		snprintf(why, whylen, "drive %s: no square-root/linear seek curve through "
			 "track-to-track %.2f ms, full stroke %.2f ms has an average of %.2f ms "
			 "(possible: %.2f to %.2f ms)", d->name, d->track_to_track_ms,
			 d->full_stroke_ms, d->average_seek_ms, m_lo, m_hi);
		return -1;
	}
	for (i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		seek_fit_k(d, exp(mid), &a, &b);
		if (seek_mean(d, a, b, exp(mid)) < d->average_seek_ms)
			lo = mid;
		else
			hi = mid;
	}
	h->seek_k = exp((lo + hi) / 2);
	seek_fit_k(d, h->seek_k, &h->seek_a, &h->seek_b);
	return 0;
}

static uint64_t segment_bytes(const struct hdd *h)
{
	return h->nseg ? h->d->cache_bytes / h->nseg : 0;
}

/* Move the read-ahead of the active segment on to disk time T: the head
 * streams at the media rate until the segment's limit. */
static void read_ahead_until(struct hdd *h, double t)
{
	struct hdd_segment *s;
	double x0, x1;
	uint64_t o;

	if (h->active < 0)
		return;
	s = &h->seg[h->active];
	if (s->end >= s->limit || t <= s->at)
		return;
	x0 = hdd_position(h, s->end);
	x1 = x0 + (t - s->at) * h->mean_bps / (double)h->size;
	o = hdd_offset(h, x1);
	if (o >= s->limit) {
		s->at += tau(h, hdd_position(h, s->limit)) - tau(h, x0);
		s->end = s->limit;
	} else if (o > s->end) {
		s->end = o;
		s->at = t;
	}
	h->head_x = hdd_position(h, s->end);
}

/* wait until byte O passes under the head, from disk time T */
static double rotation_wait(const struct hdd *h, uint64_t o, double t)
{
	double want = tau(h, hdd_position(h, o)) / h->turn, now = t / h->turn;
	double w = (want - floor(want)) - (now - floor(now));

	if (w < 0)
		w += 1;
	if (w > 1 - 1e-9)	/* rounding of a request that follows on exactly */
		w = 0;
	return w * h->turn;
}

/* seek to byte O and wait for it: time from T until the head is on it */
static double position_at(struct hdd *h, uint64_t o, double t, struct hdd_cost *c)
{
	double x = hdd_position(h, o);
	double seek = hdd_seek_time(h, fabs(x - h->head_x) * (double)h->d->cylinders);
	double rot = rotation_wait(h, o, t + seek);

	c->seek += seek;
	c->rotation += rot;
	return seek + rot;
}

/* the segment holding byte O; the active one also when O is just past its
 * end (a stream that continues where the read-ahead is) */
static int segment_holding(struct hdd *h, uint64_t o)
{
	unsigned int i;

	for (i = 0; i < h->nseg; i++)
		if (h->seg[i].end > h->seg[i].start && h->seg[i].start <= o &&
		    (o < h->seg[i].end || ((int)i == h->active && o == h->seg[i].end)))
			return (int)i;
	return -1;
}

static int segment_lru(struct hdd *h)
{
	unsigned int i, best = 0;

	for (i = 1; i < h->nseg; i++)
		if (h->seg[i].used < h->seg[best].used)
			best = i;
	return (int)best;
}

void hdd_standby(struct hdd *h, double t)
{
	read_ahead_until(h, t);
	h->active = -1;
	h->standby = 1;
}

double hdd_spin_up(struct hdd *h, double t)
{
	if (h->standby) {
		h->standby = 0;
		h->ready_at = t + h->d->spinup_s;
		h->spinups++;
	}
	return h->ready_at > t ? h->ready_at : t;
}

static double serve_read(struct hdd *h, double t, uint64_t o, uint64_t n, struct hdd_cost *c)
{
	uint64_t end = o + n, from = o, segsz = segment_bytes(h);
	int i = h->nseg ? segment_holding(h, o) : -1;
	struct hdd_segment *s;
	double t0 = t;

	if (i >= 0 && end <= h->seg[i].end) {
		h->seg[i].used = ++h->stamp;
		h->cache_hits++;
		c->cache_hit = 1;
		c->interface = (double)n / (h->d->interface_mbps * 1e6);
		return c->interface;
	}
	/* a read a little ahead of the running read-ahead (two halves of one
	 * host request that arrive swapped): the drive reads on to it rather
	 * than seek, and the bytes it passes stay in the segment */
	if (i < 0 && h->active >= 0 && h->seg[h->active].end < h->seg[h->active].limit &&
	    o > h->seg[h->active].end && o < h->seg[h->active].limit)
		i = h->active;
	if (i >= 0) {
		s = &h->seg[i];
		from = s->end;
		/* the read-ahead is still running: the head is on `from` */
		if (i != h->active || s->end >= s->limit)
			t += position_at(h, from, t, c);
	} else {
		t += position_at(h, o, t, c);
		if (h->nseg) {
			i = segment_lru(h);
			h->seg[i].start = o;
		}
	}
	c->media = tau(h, hdd_position(h, end)) - tau(h, hdd_position(h, from));
	t += c->media;
	h->head_x = hdd_position(h, end);
	h->active = i;
	if (i >= 0) {
		s = &h->seg[i];
		s->end = end;
		if (s->end - s->start > segsz)
			s->start = s->end - segsz;
		s->limit = end + segsz < h->size ? end + segsz : h->size;
		s->at = t;
		s->used = ++h->stamp;
	}
	return t - t0;
}

static double serve_write(struct hdd *h, double t, uint64_t o, uint64_t n, struct hdd_cost *c)
{
	unsigned int i;
	double t0 = t;

	h->active = -1;
	for (i = 0; i < h->nseg; i++)
		if (h->seg[i].start < o + n && o < h->seg[i].end)
			h->seg[i].start = h->seg[i].end = 0;
	t += position_at(h, o, t, c);
	c->media = tau(h, hdd_position(h, o + n)) - tau(h, hdd_position(h, o));
	t += c->media;
	h->head_x = hdd_position(h, o + n);
	return t - t0;
}

double hdd_service(struct hdd *h, double start, uint64_t o, uint64_t n, int write,
		   struct hdd_cost *cost)
{
	struct hdd_cost c = { 0 };
	double t = start;

	if (o >= h->size)
		return 0;
	if (o + n > h->size)
		n = h->size - o;
	if (h->standby || h->ready_at > t) {
		double ready = hdd_spin_up(h, t);

		c.spinup = ready - t;
		t = ready;
	}
	read_ahead_until(h, t);
	t += write ? serve_write(h, t, o, n, &c) : serve_read(h, t, o, n, &c);
	if (cost)
		*cost = c;
	return t - start;
}
