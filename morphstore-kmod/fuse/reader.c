// SPDX-License-Identifier: Apache-2.0
/*
 * reader.c - reads split over copies run in parallel (seed 001 section
 * 3.3.1, intra-request parallelism).  The first segment is read by the
 * calling thread, the others by a small pool, one request per segment.
 *
 * While a file is split, its lower files are read through descriptors
 * opened POSIX_FADV_RANDOM, so that no copy reads ahead over the pieces
 * another copy serves (which would move every byte from every device).
 * A stream still needs its devices busy ahead of it: the kernel sends the
 * daemon reads of at most 128 KiB, one or two at a time, far too few to
 * keep two disks reading.  So each read first starts its own pieces and,
 * when it continues the handle's last read, the pieces of the reads of the
 * same size that will follow, each on the device that will serve it
 * (POSIX_FADV_WILLNEED submits the I/O without waiting), up to the copies'
 * read-ahead windows together, as the kernel module does (kmod/file.c).
 *
 * That is for mounts without direct_io, where the kernel's page cache
 * reads ahead in requests of one size.  With direct_io the daemon sees the
 * application's reads as they come (a large one possibly as several
 * requests at once), and a read is split into one piece per copy, read in
 * parallel through the random-access descriptors, without fetch-ahead: in
 * the VM bench (Linux 6.1, fio, 1 MiB reads) fetch-ahead over direct_io
 * moved 2.03 disk bytes per byte read at one stream, at half the
 * throughput.  Pieces fetched ahead for one request size are not the pieces
 * a read of another size is split into, which is the likely cause; it was
 * not reproduced on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "morphfs.h"

#define MORPH_RA_MAX	(64ull << 20)	/* the most fetched ahead of a stream */

struct read_batch {
	pthread_mutex_t mu;
	pthread_cond_t done;
	int left;
};

struct read_req {
	struct read_req *next;
	struct read_batch *batch;
	int fd;
	char *buf;
	u64 off, len;
	ssize_t got;
	int err;
};

static pthread_mutex_t rq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rq_cond = PTHREAD_COND_INITIALIZER;
static struct read_req *rq_head;
static int rq_stop;

/* read fully unless end of file or error */
static void do_read(struct read_req *r)
{
	u64 at = 0;

	r->err = 0;
	while (at < r->len) {
		ssize_t n = pread(r->fd, r->buf + at, r->len - at,
				  (off_t)(r->off + at));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r->err = errno;
			break;
		}
		if (n == 0)
			break;
		at += (u64)n;
	}
	r->got = (ssize_t)at;
}

static void *reader_main(void *arg)
{
	struct read_req *r;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&rq_lock);
		while (!rq_head && !rq_stop)
			pthread_cond_wait(&rq_cond, &rq_lock);
		if (!rq_head) {
			pthread_mutex_unlock(&rq_lock);
			return NULL;
		}
		r = rq_head;
		rq_head = r->next;
		pthread_mutex_unlock(&rq_lock);
		do_read(r);
		pthread_mutex_lock(&r->batch->mu);
		if (--r->batch->left == 0)
			pthread_cond_signal(&r->batch->done);
		pthread_mutex_unlock(&r->batch->mu);
	}
}

int morph_readers_start(struct morph_vol *v)
{
	int i;

	v->nreaders = 2 * (int)v->ndev;
	v->readers = calloc((size_t)v->nreaders, sizeof(*v->readers));
	if (!v->readers)
		return -ENOMEM;
	for (i = 0; i < v->nreaders; i++)
		if (pthread_create(&v->readers[i], NULL, reader_main, NULL))
			return -EAGAIN;
	return 0;
}

void morph_readers_stop(struct morph_vol *v)
{
	int i;

	pthread_mutex_lock(&rq_lock);
	rq_stop = 1;
	pthread_cond_broadcast(&rq_cond);
	pthread_mutex_unlock(&rq_lock);
	for (i = 0; i < v->nreaders; i++)
		pthread_join(v->readers[i], NULL);
	free(v->readers);
}

/*
 * Read @n segments covering [off, ...) into @buf; returns the bytes read
 * up to the first short segment (end of file) or -errno, the device that
 * failed in *@bad_dev.
 */
static int split_fd(const struct morph_handle *h, u32 dev)
{
	return h->rfd[dev] >= 0 ? h->rfd[dev] : h->fd[dev];
}

static void start_pieces(const struct morph_handle *h,
			 const struct morph_laas_segment *seg, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		posix_fadvise(split_fd(h, seg[i].dev), (off_t)seg[i].off,
			      (off_t)seg[i].len, POSIX_FADV_WILLNEED);
}

/* before a split read of [@off, @off + @len) of @h: see the top of the file.
 * Concurrent reads of one handle may race on ra_next/ra_end; the worst a
 * race does is fetch a piece twice or not ahead, never a wrong byte. */
void morph_fetch_ahead(struct morph_vol *v, struct morph_handle *h,
		       u32 copies, u64 off, u64 len,
		       const struct morph_laas_segment *seg, u32 n)
{
	struct morph_laas_segment next[MORPH_MAX_DEVICES];
	u64 end = off + len, window = 0, at, stop;
	u32 d, k;

	start_pieces(h, seg, n);
	if (!len || off != __atomic_load_n(&h->ra_next, __ATOMIC_RELAXED)) {
		__atomic_store_n(&h->ra_end, end, __ATOMIC_RELAXED);	/* not a stream (yet) */
		return;
	}
	for (d = 0; d < v->ndev; d++)
		if (copies & (1u << d))
			window += v->dev[d].ra_bytes;
	stop = end + (window < MORPH_RA_MAX ? window : MORPH_RA_MAX);
	at = __atomic_load_n(&h->ra_end, __ATOMIC_RELAXED);
	/* reads of this size from here on start at end + i * len */
	at = at > end ? end + (at - end + len - 1) / len * len : end;
	for (; at < stop; at += len) {
		pthread_mutex_lock(&v->lock);
		k = morph_laas_split(&v->laas, copies, at, len, next,
				     MORPH_MAX_DEVICES);
		pthread_mutex_unlock(&v->lock);
		start_pieces(h, next, k);
	}
	__atomic_store_n(&h->ra_end, at > end ? at : end, __ATOMIC_RELAXED);
}

ssize_t morph_read_segments(struct morph_vol *v, struct morph_handle *h,
			    char *buf, u64 off,
			    const struct morph_laas_segment *seg, u32 n,
			    int split, u32 *bad_dev)
{
	struct read_req req[MORPH_MAX_DEVICES];
	struct read_batch batch;
	ssize_t total = 0;
	u32 i;

	(void)v;
	for (i = 0; i < n; i++) {
		req[i].fd = split || n > 1 ? split_fd(h, seg[i].dev) :
			    h->fd[seg[i].dev];
		req[i].buf = buf + (seg[i].off - off);
		req[i].off = seg[i].off;
		req[i].len = seg[i].len;
		req[i].batch = &batch;
	}
	if (n > 1) {
		pthread_mutex_init(&batch.mu, NULL);
		pthread_cond_init(&batch.done, NULL);
		batch.left = (int)n - 1;
		pthread_mutex_lock(&rq_lock);
		for (i = 1; i < n; i++) {
			req[i].next = rq_head;
			rq_head = &req[i];
		}
		pthread_cond_broadcast(&rq_cond);
		pthread_mutex_unlock(&rq_lock);
	}
	do_read(&req[0]);
	if (n > 1) {
		pthread_mutex_lock(&batch.mu);
		while (batch.left)
			pthread_cond_wait(&batch.done, &batch.mu);
		pthread_mutex_unlock(&batch.mu);
		pthread_mutex_destroy(&batch.mu);
		pthread_cond_destroy(&batch.done);
	}
	for (i = 0; i < n; i++) {
		if (req[i].err) {
			*bad_dev = seg[i].dev;
			return -req[i].err;
		}
		total += req[i].got;
		if ((u64)req[i].got < req[i].len)
			break;
	}
	return total;
}
