// SPDX-License-Identifier: Apache-2.0
/*
 * zonedisk - an emulated zoned HDD (seed 002 §3.2) for machines without
 * one.  SIMULATED HARDWARE: the speed is set by the model below, not by a
 * platter.
 *
 * A FUSE daemon serves one file, MOUNT/disk, stored in a backing file.
 * A loop device over MOUNT/disk is a block device whose bandwidth falls
 * with the address, as on a real disk whose outer zones (low addresses)
 * pass more sectors under the head per turn:
 *
 *	bw(o) = outer * (1 - (1 - r) * o / size)      r = inner / outer
 *
 * linear from `outer` MB/s at offset 0 to `r * outer` at the end (seed
 * Fig. 11: the innermost zone about half as fast as the outermost; the
 * default r = 0.5).  A request of n bytes at offset o occupies the disk
 * for n / bw(o + n/2) seconds.
 *
 * Pacing: the disk is one server with a clock.  A request starts at
 * max(busy_until, now - credit), busy_until moves on by its service time,
 * and the reply waits until busy_until (an absolute deadline, never a
 * relative sleep).  Sleeping n / bw after the host's own work would add
 * the host's cost (FUSE round trip, loop driver, a loaded CPU) to every
 * request: the same absolute time at both ends, so the outer end would
 * lose more of its speed than the inner one and the ratio would shrink.
 * With the clock, a request that arrives late because the host was slow
 * starts where the previous one ended, up to `credit` seconds in the past
 * (--credit-ms, default 25): a stream then takes the sum of its service
 * times whenever the host could keep up on average, and a disk left idle
 * for longer banks no more than 25 ms of work.
 * An optional per-request seek time (--seek-ms) is added when a request
 * does not start where the previous one ended.
 *
 * With --drive=NAME the service time comes instead from the HDD model of
 * a named drive's datasheet (hdd_model.c: seek by head travel, rotation on
 * the disk clock, read-ahead cache, spin-up; the figures in hdd_drives.c),
 * paced on the same clock.  MOUNT/power then reports the spindle's state
 * and takes "standby" or "active".
 *
 * MOUNT/stats (read-only text) counts requests, bytes and busy time, read
 * and write, for measurements.  Files are opened direct_io so that every
 * request reaches the daemon (no page cache in between).
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "hdd_model.h"

struct zd_conf {
	char *backing;
	char *size_s;
	char *drive;
	double outer_mbps;
	double inner_ratio;
	double seek_ms;
	double credit_ms;
};

static struct zd {
	struct zd_conf c;
	int fd;
	uint64_t size;
	pthread_mutex_t lock;
	double busy_until;	/* CLOCK_MONOTONIC seconds */
	uint64_t next_off;	/* where the last request ended (seeks) */
	uint64_t nreq[2], bytes[2], seeks;
	double busy[2];
	struct hdd hdd;		/* the HDD model, with --drive */
	const struct hdd_drive *drive;
	double seek_s, rotation_s, spinup_wait_s;
} zd = { .lock = PTHREAD_MUTEX_INITIALIZER };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* bytes per second at byte offset o */
static double bandwidth(uint64_t o)
{
	double a = zd.size ? (double)o / (double)zd.size : 0;

	if (a > 1)
		a = 1;
	return zd.c.outer_mbps * 1e6 * (1 - (1 - zd.c.inner_ratio) * a);
}

/* the bandwidth curve's service time for one request (no --drive) */
static double curve_service(uint64_t off, size_t n)
{
	double svc = n / bandwidth(off + n / 2);

	if (zd.c.seek_ms > 0 && off != zd.next_off) {
		svc += zd.c.seek_ms / 1e3;
		zd.seeks++;
	}
	zd.next_off = off + n;
	return svc;
}

/* the HDD model's service time for a request starting at disk time start */
static double drive_service(double start, uint64_t off, size_t n, int write)
{
	struct hdd_cost c;
	double svc = hdd_service(&zd.hdd, start, off, n, write, &c);

	if (c.seek > 0)
		zd.seeks++;
	zd.seek_s += c.seek;
	zd.rotation_s += c.rotation;
	zd.spinup_wait_s += c.spinup;
	return svc;
}

/* Occupy the emulated disk for one request, then wait for its end. */
static void pace(uint64_t off, size_t n, int write)
{
	double t = now(), svc, until;
	struct timespec ts;

	pthread_mutex_lock(&zd.lock);
	if (zd.busy_until < t - zd.c.credit_ms / 1e3)
		zd.busy_until = t - zd.c.credit_ms / 1e3;
	svc = zd.drive ? drive_service(zd.busy_until, off, n, write) : curve_service(off, n);
	zd.busy_until += svc;
	until = zd.busy_until;
	zd.nreq[write]++;
	zd.bytes[write] += n;
	zd.busy[write] += svc;
	pthread_mutex_unlock(&zd.lock);
	ts.tv_sec = (time_t)until;
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int stats_text(char *buf, size_t len)
{
	int n;

	pthread_mutex_lock(&zd.lock);
	n = snprintf(buf, len,
		     "size %llu\nouter_mbps %.3f\ninner_ratio %.3f\nseek_ms %.3f\n"
		     "read_requests %llu\nread_bytes %llu\nread_busy_s %.6f\n"
		     "write_requests %llu\nwrite_bytes %llu\nwrite_busy_s %.6f\nseeks %llu\n",
		     (unsigned long long)zd.size, zd.c.outer_mbps, zd.c.inner_ratio, zd.c.seek_ms,
		     (unsigned long long)zd.nreq[0], (unsigned long long)zd.bytes[0], zd.busy[0],
		     (unsigned long long)zd.nreq[1], (unsigned long long)zd.bytes[1], zd.busy[1],
		     (unsigned long long)zd.seeks);
	if (zd.drive && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n,
			      "drive %s\npower %s\nseek_s %.6f\nrotation_s %.6f\ncache_hits %llu\n"
			      "spinups %llu\nspinup_wait_s %.6f\n",
			      zd.drive->name, zd.hdd.standby ? "standby" : "active", zd.seek_s,
			      zd.rotation_s, (unsigned long long)zd.hdd.cache_hits,
			      (unsigned long long)zd.hdd.spinups, zd.spinup_wait_s);
	pthread_mutex_unlock(&zd.lock);
	return n;
}

/* MOUNT/power: "active" (spinning, or spinning up) or "standby" */
static int power_text(char *buf, size_t len)
{
	int n;

	pthread_mutex_lock(&zd.lock);
	n = snprintf(buf, len, "%s\n", zd.hdd.standby ? "standby" : "active");
	pthread_mutex_unlock(&zd.lock);
	return n;
}

/* Take "standby" or "active" (a trailing newline allowed).  Both act at
 * the end of the work the disk already has: a standby stops the spindle
 * once the queued requests are served; "active" starts the spin-up then,
 * and the next request waits for its end. */
static int power_write(const char *buf, size_t n)
{
	char word[16];
	double t;

	if (n >= sizeof(word))
		n = sizeof(word) - 1;
	memcpy(word, buf, n);
	word[n] = 0;
	word[strcspn(word, "\n")] = 0;
	pthread_mutex_lock(&zd.lock);
	t = now();
	if (zd.busy_until > t)
		t = zd.busy_until;
	if (!strcmp(word, "standby")) {
		hdd_standby(&zd.hdd, t);
	} else if (!strcmp(word, "active")) {
		hdd_spin_up(&zd.hdd, t);
	} else {
		pthread_mutex_unlock(&zd.lock);
		fprintf(stderr, "zonedisk: MOUNT/power takes \"standby\" or \"active\", not \"%s\"\n",
			word);
		return -EINVAL;
	}
	pthread_mutex_unlock(&zd.lock);
	return 0;
}

static int zd_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (!strcmp(path, "/disk")) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)zd.size;
	} else if (!strcmp(path, "/stats")) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = 4096;
	} else if (!strcmp(path, "/power") && zd.drive) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		st->st_size = 4096;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int zd_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "disk", NULL, 0, 0);
	fill(buf, "stats", NULL, 0, 0);
	if (zd.drive)
		fill(buf, "power", NULL, 0, 0);
	return 0;
}

static int zd_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/disk") && strcmp(path, "/stats") &&
	    (strcmp(path, "/power") || !zd.drive))
		return -ENOENT;
	if (!strcmp(path, "/stats") && (fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	fi->direct_io = 1;
	return 0;
}

static int zd_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	ssize_t r;

	(void)fi;
	if (!strcmp(path, "/stats") || !strcmp(path, "/power")) {
		char s[4096];
		int len = path[1] == 's' ? stats_text(s, sizeof(s)) : power_text(s, sizeof(s));

		if (off >= len)
			return 0;
		if ((size_t)(len - off) < n)
			n = len - off;
		memcpy(buf, s + off, n);
		return (int)n;
	}
	if ((uint64_t)off >= zd.size)
		return 0;
	if (off + n > zd.size)
		n = zd.size - off;
	r = pread(zd.fd, buf, n, off);
	if (r < 0)
		return -errno;
	pace(off, n, 0);
	return (int)r;
}

static int zd_write(const char *path, const char *buf, size_t n, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t r;

	(void)fi;
	if (!strcmp(path, "/power") && zd.drive) {
		int rc = power_write(buf, n);

		return rc ? rc : (int)n;
	}
	if (strcmp(path, "/disk"))
		return -EACCES;
	if ((uint64_t)off >= zd.size)
		return -ENOSPC;
	if (off + n > zd.size)
		n = zd.size - off;
	r = pwrite(zd.fd, buf, n, off);
	if (r < 0)
		return -errno;
	pace(off, n, 1);
	return (int)r;
}

static int zd_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)fi;
	if (!strcmp(path, "/power") && zd.drive)
		return 0;	/* echo WORD > MOUNT/power opens it with O_TRUNC */
	if (strcmp(path, "/disk"))
		return -EACCES;
	return (uint64_t)size == zd.size ? 0 : -EPERM;	/* a disk has a fixed size */
}

static int zd_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return (datasync ? fdatasync(zd.fd) : fsync(zd.fd)) ? -errno : 0;
}

/* Ask for 1 MiB requests: fewer round trips per byte. */
static void *zd_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)cfg;
	conn->max_write = 1 << 20;
	conn->max_readahead = 0;
	return NULL;
}

static const struct fuse_operations zd_ops = {
	.init = zd_init,
	.getattr = zd_getattr,
	.readdir = zd_readdir,
	.open = zd_open,
	.read = zd_read,
	.write = zd_write,
	.truncate = zd_truncate,
	.fsync = zd_fsync,
};

#define ZD_OPT(t, p) { t, offsetof(struct zd_conf, p), 1 }
static const struct fuse_opt zd_opts[] = {
	ZD_OPT("--backing=%s", backing),
	ZD_OPT("--size=%s", size_s),
	ZD_OPT("--drive=%s", drive),
	ZD_OPT("--outer-mbps=%lf", outer_mbps),
	ZD_OPT("--inner-ratio=%lf", inner_ratio),
	ZD_OPT("--seek-ms=%lf", seek_ms),
	ZD_OPT("--credit-ms=%lf", credit_ms),
	FUSE_OPT_END
};

static const char usage[] =
"usage: zonedisk --backing=FILE --size=SIZE [--outer-mbps=60] [--inner-ratio=0.5]\n"
"                [--seek-ms=0] [--credit-ms=25] MOUNTPOINT [-f] [FUSE options]\n"
"       zonedisk --backing=FILE --size=SIZE --drive=NAME [--credit-ms=25]\n"
"                MOUNTPOINT [-f] [FUSE options]\n"
"Emulated zoned HDD (simulated hardware, seed 002 §3.2): MOUNTPOINT/disk is a\n"
"SIZE-byte file whose reads and writes are paced to\n"
"  bw(o) = outer * (1 - (1 - inner_ratio) * o / SIZE)   bytes/s\n"
"(outer MB/s at offset 0, linear down to inner_ratio * outer at the end),\n"
"one request at a time, plus --seek-ms for a request that does not continue\n"
"the previous one.  Paced by deadlines on a disk clock that may lag the\n"
"wall clock by --credit-ms, so the host's own overhead is not charged twice.  Data lives in FILE (created sparse if missing).\n"
"MOUNTPOINT/stats: requests, bytes and busy seconds, read and write.\n"
"Put a loop device over it:  losetup -f --show MOUNTPOINT/disk\n"
"\n"
"--drive=NAME: an HDD model of a named drive from its datasheet instead of\n"
"the curve (docs/zone.md): SIZE bytes laid over the whole stroke, the media\n"
"rate falling linearly from the outer to the inner cylinder, seek time by\n"
"head travel (square root for short seeks, linear for long ones, through\n"
"the track-to-track, average and full-stroke figures), rotational latency\n"
"from the spindle's angle on the disk clock, a read-ahead cache, spin-up\n"
"after standby.  Not with --outer-mbps, --inner-ratio or --seek-ms.\n"
"MOUNTPOINT/power (with --drive): reads \"active\" or \"standby\"; write\n"
"\"standby\" to stop the spindle, \"active\" to spin it up (a request in\n"
"standby spins it up and waits the spin-up time).  Drives:\n";

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v = strtod(s, &end);
	uint64_t mul = 1;

	switch (*end) {
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	case 't': case 'T': mul = 1ull << 40; end++; break;
	}
	if (end == s || *end || v <= 0)
		return -1;
	*out = (uint64_t)(v * mul);
	return 0;
}

static void print_drives(FILE *f)
{
	const struct hdd_drive *d;

	for (d = hdd_drives; d->name; d++)
		fprintf(f, "  %-14s %s\n", d->name, d->model);
}

/* --drive=NAME: the drive, and no option of the curve beside it */
static int configure_drive(void)
{
	static const char *const curve_opts[] = { "--outer-mbps", "--inner-ratio", "--seek-ms" };
	const double given[] = { zd.c.outer_mbps, zd.c.inner_ratio, zd.c.seek_ms };
	unsigned int i;

	zd.drive = hdd_drive_find(zd.c.drive);
	if (!zd.drive) {
		fprintf(stderr, "zonedisk: --drive=%s: no such drive; the drives are:\n",
			zd.c.drive);
		print_drives(stderr);
		return -1;
	}
	for (i = 0; i < 3; i++)
		if (!isnan(given[i])) {
			fprintf(stderr, "zonedisk: %s does not go with --drive=%s: the drive's "
				"datasheet sets its speed (drop %s)\n", curve_opts[i], zd.c.drive,
				curve_opts[i]);
			return -1;
		}
	/* the curve's figures as the drive's, for MOUNT/stats */
	zd.c.outer_mbps = zd.drive->outer_mbps;
	zd.c.inner_ratio = zd.drive->inner_mbps / zd.drive->outer_mbps;
	zd.c.seek_ms = 0;
	return 0;
}

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct stat st;
	int i, rc;

	/* NAN: not given (the curve's defaults, or an error with --drive) */
	zd.c.outer_mbps = NAN;
	zd.c.inner_ratio = NAN;
	zd.c.seek_ms = NAN;
	zd.c.credit_ms = 25;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			print_drives(stdout);
			return 0;
		}
	if (fuse_opt_parse(&args, &zd.c, zd_opts, NULL))
		return 1;
	if (zd.c.drive && configure_drive())
		return 1;
	if (isnan(zd.c.outer_mbps))
		zd.c.outer_mbps = 60;
	if (isnan(zd.c.inner_ratio))
		zd.c.inner_ratio = 0.5;
	if (isnan(zd.c.seek_ms))
		zd.c.seek_ms = 0;
	if (!zd.c.backing || !zd.c.size_s || parse_size(zd.c.size_s, &zd.size)) {
		fprintf(stderr, "zonedisk: --backing=FILE and --size=SIZE (e.g. 2G) are required\n%s",
			usage);
		return 1;
	}
	if (zd.c.outer_mbps <= 0 || zd.c.inner_ratio <= 0 || zd.c.inner_ratio > 1 ||
	    zd.c.seek_ms < 0 || zd.c.credit_ms < 0) {
		fprintf(stderr, "zonedisk: --outer-mbps must be > 0, --inner-ratio in (0, 1], --seek-ms and --credit-ms >= 0\n");
		return 1;
	}
	zd.size &= ~(uint64_t)4095;	/* whole 4 KiB sectors */
	if (zd.drive) {
		char why[256];

		if (hdd_init(&zd.hdd, zd.drive, zd.size, why, sizeof(why))) {
			fprintf(stderr, "zonedisk: --drive=%s: %s\n", zd.c.drive, why);
			return 1;
		}
	}
	zd.fd = open(zd.c.backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	/* never cut an existing backing file: only extend it */
	if (zd.fd < 0 || fstat(zd.fd, &st) ||
	    ((uint64_t)st.st_size < zd.size && ftruncate(zd.fd, (off_t)zd.size))) {
		fprintf(stderr, "zonedisk: --backing=%s: %s\n", zd.c.backing, strerror(errno));
		return 1;
	}
	rc = fuse_main(args.argc, args.argv, &zd_ops, NULL);
	fuse_opt_free_args(&args);
	close(zd.fd);
	return rc;
}
