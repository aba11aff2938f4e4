// SPDX-License-Identifier: Apache-2.0
/*
 * reader.c - reads split over copies run in parallel (seed 001 section
 * 3.3.1, intra-request parallelism).  The first segment is read by the
 * calling thread, the others by a small pool, one request per segment.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "morphfs.h"

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
ssize_t morph_read_segments(struct morph_vol *v, struct morph_handle *h,
			    char *buf, u64 off,
			    const struct morph_laas_segment *seg, u32 n,
			    u32 *bad_dev)
{
	struct read_req req[MORPH_MAX_DEVICES];
	struct read_batch batch;
	ssize_t total = 0;
	u32 i;

	(void)v;
	for (i = 0; i < n; i++) {
		req[i].fd = n > 1 && h->rfd[seg[i].dev] >= 0 ?
			    h->rfd[seg[i].dev] : h->fd[seg[i].dev];
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
