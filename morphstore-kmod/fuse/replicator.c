// SPDX-License-Identifier: Apache-2.0
/*
 * replicator.c - creates, removes and re-synchronises replicas in the
 * background, one file at a time, throttled to replicate_bps
 * (seed 001 section 3.3.2: replication runs off the critical path).
 *
 * A replica is copied to <id>.tmp, made durable, and only then renamed to
 * <id> and entered in the replica mask, so a replica is readable only once
 * complete.  The commit happens under ino->mu and is abandoned if the file
 * was written meanwhile (ino->gen moved) or has an open writer, whose
 * handle would not know the new copy.  A replica is removed only while no
 * handle is open, so no reader can still be using it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "morphfs.h"

#define COPY_BUF	(1024 * 1024)
#define RETRY_NS	100000000ull
#define MAX_TRIES	600

enum step { STEP_DONE, STEP_AGAIN, STEP_RETRY_LATER, STEP_FAILED };

void morph_replicator_queue(struct morph_vol *v, const char *rel)
{
	struct morph_job *j = calloc(1, sizeof(*j));

	if (!j || !(j->rel = strdup(rel))) {
		free(j);
		morph_err("out of memory queueing replication of /%s", rel);
		return;
	}
	pthread_mutex_lock(&v->qlock);
	if (v->qtail)
		v->qtail->next = j;
	else
		v->qhead = j;
	v->qtail = j;
	v->qlen++;
	pthread_cond_signal(&v->qcond);
	pthread_mutex_unlock(&v->qlock);
}

int morph_replicator_pending(struct morph_vol *v)
{
	int n;

	pthread_mutex_lock(&v->qlock);
	n = v->qlen + v->busy;
	pthread_mutex_unlock(&v->qlock);
	return n;
}

static int stopping(struct morph_vol *v)
{
	return __atomic_load_n(&v->stopping, __ATOMIC_SEQ_CST);
}

/* sleep until @bytes are due at replicate_bps, in slices, so that an
 * unmount is never held up by a slow copy */
static void throttle(struct morph_vol *v, u64 start_ns, u64 bytes)
{
	u64 due, now;
	struct timespec ts = { 0, 0 };

	if (!v->replicate_bps)
		return;
	due = start_ns + (u64)((double)bytes * 1e9 / (double)v->replicate_bps);
	while (!stopping(v) && (now = v->env.now_ns(v->env.ctx)) < due) {
		ts.tv_nsec = (long)(due - now < RETRY_NS ? due - now : RETRY_NS);
		nanosleep(&ts, NULL);
	}
}

/* copy the master to <id>.tmp on @dev; 0 or -errno */
static int copy_master(struct morph_vol *v, struct morph_inode *ino, u32 dev,
		       const char *tmp)
{
	char *buf = malloc(COPY_BUF);
	int out, ret = 0;
	u64 at = 0, start = v->env.now_ns(v->env.ctx);
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	out = openat(v->dev[dev].rep_fd, tmp, O_WRONLY | O_CREAT | O_TRUNC,
		     0600);
	if (out < 0) {
		free(buf);
		return -errno;
	}
	for (;;) {
		n = pread(ino->xfd, buf, COPY_BUF, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		if (write(out, buf, (size_t)n) != n) {
			ret = errno ? -errno : -EIO;
			break;
		}
		at += (u64)n;
		throttle(v, start, at);
		if (stopping(v)) {
			ret = -ECANCELED;
			break;
		}
	}
	if (!ret && fsync(out))
		ret = -errno;
	close(out);
	free(buf);
	if (ret)
		unlinkat(v->dev[dev].rep_fd, tmp, 0);
	return ret;
}

static enum step add_copy(struct morph_vol *v, struct morph_inode *ino,
			  const char *rel)
{
	struct morph_state st;
	char tmp[32], name[32];
	u64 gen;
	u32 eligible = 0, d;
	int dev, ret;
	struct stat sb;

	pthread_mutex_lock(&ino->mu);
	if (!ino->st.id && morph_inode_persist(v, ino, 0, 1)) {
		pthread_mutex_unlock(&ino->mu);
		return STEP_FAILED;
	}
	st = ino->st;
	gen = ino->gen;
	pthread_mutex_unlock(&ino->mu);
	if (fstat(ino->xfd, &sb))
		return STEP_FAILED;
	if (st.stale) {
		dev = morph_nth_bit(st.stale, 0);	/* resync in place */
	} else {
		for (d = 0; d < v->ndev; d++)
			if (morph_dev_free(v, d) > (u64)sb.st_size + COPY_BUF)
				eligible |= 1u << d;
		dev = morph_rmap_pick_new(&st, v->ndev, eligible, &v->env);
		if (dev < 0) {
			morph_err("no device has room for another copy of /%s (%lld bytes); free space or lower its %s",
				  rel, (long long)sb.st_size,
				  MORPH_XATTR_REPLICAS);
			return STEP_FAILED;
		}
	}
	morph_replica_name(tmp, sizeof(tmp), st.id, 1);
	morph_replica_name(name, sizeof(name), st.id, 0);
	ret = copy_master(v, ino, (u32)dev, tmp);
	if (ret == -ECANCELED)
		return STEP_DONE;
	if (ret) {
		morph_err("copying /%s to device %d (%s) failed: %s%s", rel, dev,
			  v->dev[dev].path, strerror(-ret),
			  ret == -ENOSPC ? "; the device is full, the master is unchanged" : "");
		return STEP_FAILED;
	}
	pthread_mutex_lock(&ino->mu);
	if (ino->gen != gen || ino->writers) {
		pthread_mutex_unlock(&ino->mu);
		unlinkat(v->dev[dev].rep_fd, tmp, 0);
		return STEP_RETRY_LATER;
	}
	if (renameat(v->dev[dev].rep_fd, tmp, v->dev[dev].rep_fd, name)) {
		ret = -errno;
		pthread_mutex_unlock(&ino->mu);
		unlinkat(v->dev[dev].rep_fd, tmp, 0);
		morph_err("cannot commit replica of /%s on device %d: %s", rel,
			  dev, strerror(-ret));
		return STEP_FAILED;
	}
	ino->st.mask |= 1u << dev;
	ino->st.stale &= ~(1u << dev);
	ret = morph_inode_persist(v, ino, 0, 1);
	pthread_mutex_unlock(&ino->mu);
	return ret ? STEP_FAILED : STEP_AGAIN;
}

static enum step drop_copy(struct morph_vol *v, struct morph_inode *ino)
{
	struct morph_state one;
	int dev, busy;

	pthread_mutex_lock(&v->lock);
	busy = ino->refs > 1;
	pthread_mutex_unlock(&v->lock);
	if (busy)
		return STEP_RETRY_LATER;
	pthread_mutex_lock(&ino->mu);
	dev = morph_rmap_pick_drop(&ino->st);
	if (dev < 0) {
		pthread_mutex_unlock(&ino->mu);
		return STEP_DONE;
	}
	ino->st.mask &= ~(1u << dev);
	ino->st.stale &= ~(1u << dev);
	if (morph_inode_persist(v, ino, 0, 1)) {
		ino->st.mask |= 1u << dev;
		pthread_mutex_unlock(&ino->mu);
		return STEP_FAILED;
	}
	one = ino->st;
	one.mask = 1u << dev;
	pthread_mutex_unlock(&ino->mu);
	morph_unlink_replicas(v, &one);
	return STEP_AGAIN;
}

/* one step towards the wanted state of /rel */
static enum step work_on(struct morph_vol *v, const char *rel)
{
	struct morph_inode *ino;
	enum step s;
	u32 have, wanted;
	int stale;

	if (morph_inode_get_path(v, rel, &ino))
		return STEP_DONE;	/* gone, or not a regular file */
	if (ino->state_bad) {
		morph_inode_put(v, ino);
		return STEP_FAILED;
	}
	pthread_mutex_lock(&ino->mu);
	have = 1 + morph_popcount(ino->st.mask);
	stale = ino->st.stale != 0;
	wanted = ino->st.wanted;
	pthread_mutex_unlock(&ino->mu);
	if (have > wanted)
		s = drop_copy(v, ino);
	else if (stale || have < wanted)
		s = add_copy(v, ino, rel);
	else
		s = STEP_DONE;
	morph_inode_put(v, ino);
	return s;
}

static void *replicator_main(void *arg)
{
	struct morph_vol *v = arg;
	struct morph_job *j;
	enum step s;

	for (;;) {
		pthread_mutex_lock(&v->qlock);
		while (!v->qhead && !v->stopping)
			pthread_cond_wait(&v->qcond, &v->qlock);
		if (v->stopping) {
			pthread_mutex_unlock(&v->qlock);
			return NULL;
		}
		j = v->qhead;
		v->qhead = j->next;
		if (!v->qhead)
			v->qtail = NULL;
		v->qlen--;
		v->busy = 1;
		pthread_mutex_unlock(&v->qlock);

		do
			s = work_on(v, j->rel);
		while (s == STEP_AGAIN && !stopping(v));

		if (s == STEP_RETRY_LATER && ++j->tries < MAX_TRIES) {
			struct timespec ts = { 0, (long)RETRY_NS };

			if (!stopping(v))
				nanosleep(&ts, NULL);
			j->next = NULL;
			pthread_mutex_lock(&v->qlock);
			if (v->qtail)
				v->qtail->next = j;
			else
				v->qhead = j;
			v->qtail = j;
			v->qlen++;
			v->busy = 0;
			pthread_mutex_unlock(&v->qlock);
			continue;
		}
		if (s == STEP_RETRY_LATER)
			morph_err("gave up replicating /%s: it stayed open for writing; set %s again later",
				  j->rel, MORPH_XATTR_REPLICAS);
		pthread_mutex_lock(&v->qlock);
		v->busy = 0;
		pthread_mutex_unlock(&v->qlock);
		free(j->rel);
		free(j);
	}
}

int morph_replicator_start(struct morph_vol *v)
{
	pthread_mutex_init(&v->qlock, NULL);
	pthread_cond_init(&v->qcond, NULL);
	return pthread_create(&v->replicator, NULL, replicator_main, v) ?
	       -EAGAIN : 0;
}

void morph_replicator_stop(struct morph_vol *v)
{
	pthread_mutex_lock(&v->qlock);
	v->stopping = 1;
	pthread_cond_signal(&v->qcond);
	pthread_mutex_unlock(&v->qlock);
	pthread_join(v->replicator, NULL);
}
