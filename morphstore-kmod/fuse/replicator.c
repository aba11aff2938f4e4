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
 *
 * A replica also carries its master's mode, owner and times, a name in
 * MORPH_NAMES_DIR and its own state (names.c): the copy is written with
 * its own state stale, named under names_lock only if its path still
 * names the file, and made fresh only once the master lists it; a drop
 * marks it stale on its own device before the master forgets it.  The
 * master's state changes under names_lock too: rename, link and unlink
 * read it there to know which devices hold names to follow.
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

static void queue(struct morph_vol *v, const char *rel, int repair)
{
	struct morph_job *j = calloc(1, sizeof(*j));

	if (!j || !(j->rel = strdup(rel))) {
		free(j);
		morph_err("out of memory queueing replication of /%s", rel);
		pthread_mutex_lock(&v->qlock);
		v->repair_failed |= repair;
		pthread_mutex_unlock(&v->qlock);
		return;
	}
	j->repair = repair;
	pthread_mutex_lock(&v->qlock);
	v->repair_jobs += repair;
	if (v->qtail)
		v->qtail->next = j;
	else
		v->qhead = j;
	v->qtail = j;
	v->qlen++;
	pthread_cond_signal(&v->qcond);
	pthread_mutex_unlock(&v->qlock);
}

void morph_replicator_queue(struct morph_vol *v, const char *rel)
{
	queue(v, rel, 0);
}

/*
 * A copy the repair pass owes: the devices stay marked behind until every
 * one is done (a crash before that repeats the pass at the next mount).
 */
void morph_replicator_queue_repair(struct morph_vol *v, const char *rel)
{
	queue(v, rel, 1);
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

/*
 * Copy the master to <id>.tmp on @dev, with the master's mode, owner and
 * times and its own state saying stale; returns the open copy or -errno.
 */
static int copy_master(struct morph_vol *v, struct morph_inode *ino, u32 dev,
		       const char *tmp, const struct morph_state *st)
{
	char *buf = malloc(COPY_BUF);
	int out, ret = 0;
	u64 at = 0, start = v->env.now_ns(v->env.ctx);
	ssize_t n;
	struct stat sb;

	if (!buf)
		return -ENOMEM;
	out = openat(v->dev[dev].rep_fd, tmp, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (out < 0) {
		free(buf);
		return morph_io_error(v, dev, -errno, "(a new replica)");
	}
	for (;;) {
		n = pread(ino->xfd, buf, COPY_BUF, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? morph_io_error(v, ino->dev, -errno,
						     "(a master being copied)") : 0;
			break;
		}
		if (write(out, buf, (size_t)n) != n) {
			ret = errno ? -errno : -EIO;
			morph_io_error(v, dev, ret, "(a new replica)");
			break;
		}
		at += (u64)n;
		throttle(v, start, at);
		if (stopping(v)) {
			ret = -ECANCELED;
			break;
		}
	}
	free(buf);
	if (!ret && !fstat(ino->xfd, &sb)) {
		struct timespec t[2] = { sb.st_atim, sb.st_mtim };

		/* what the copy shows if it ever stands in for the master */
		if (fchown(out, sb.st_uid, sb.st_gid) && errno != EPERM)
			ret = -errno;
		if (!ret && (fchmod(out, sb.st_mode & 07777) ||
			     futimens(out, t)))
			ret = -errno;
	}
	if (!ret)
		ret = morph_rstate_write(v, dev, out, st, 0, 1);
	if (ret) {
		close(out);
		unlinkat(v->dev[dev].rep_fd, tmp, 0);
		return ret;
	}
	return out;
}

/* under names_lock: does @rel on the master's device still name @ino? */
static int still_named(struct morph_vol *v, struct morph_inode *ino,
		       const char *rel)
{
	struct stat sb;

	return !fstatat(v->dev[ino->dev].fd, rel, &sb, AT_SYMLINK_NOFOLLOW) &&
	       sb.st_dev == ino->key_dev && sb.st_ino == ino->key_ino;
}

static enum step add_copy(struct morph_vol *v, struct morph_inode *ino,
			  const char *rel)
{
	struct morph_state st;
	char tmp[32], name[32];
	u64 gen;
	u32 eligible = 0, d, lost = morph_lost(v);
	int dev, ret, out;
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
	if (st.stale & ~lost) {
		dev = morph_nth_bit(st.stale & ~lost, 0);	/* resync in place */
	} else if (1 + morph_popcount(st.mask) >= st.wanted) {
		return STEP_DONE;	/* only copies on lost devices are owed */
	} else {
		for (d = 0; d < v->ndev; d++)
			if (morph_dev_free(v, d) > (u64)sb.st_size + COPY_BUF)
				eligible |= 1u << d;
		dev = morph_rmap_pick_new(&st, v->ndev, eligible, &v->env);
		if (dev < 0 && lost) {
			morph_warn("no device that is up can take another copy of /%s; it is made when the lost devices are back",
				   rel);
			return STEP_DONE;
		}
		if (dev < 0) {
			morph_err("no device has room for another copy of /%s (%lld bytes); free space or lower its %s",
				  rel, (long long)sb.st_size,
				  MORPH_XATTR_REPLICAS);
			return STEP_FAILED;
		}
	}
	morph_replica_name(tmp, sizeof(tmp), st.id, 1);
	morph_replica_name(name, sizeof(name), st.id, 0);
	st.mask |= 1u << dev;
	st.stale &= ~(1u << dev);
	out = copy_master(v, ino, (u32)dev, tmp, &st);
	if (out == -ECANCELED)
		return STEP_DONE;
	if (out < 0) {
		morph_err("copying /%s to device %d (%s) failed: %s%s", rel, dev,
			  v->dev[dev].path, strerror(-out),
			  out == -ENOSPC ? "; the device is full, the master is unchanged" : "");
		return STEP_FAILED;
	}
	pthread_mutex_lock(&ino->mu);
	pthread_mutex_lock(&v->names_lock);
	if (ino->gen != gen || ino->writers || !still_named(v, ino, rel)) {
		/* written, or renamed: the job under the new name copies */
		pthread_mutex_unlock(&v->names_lock);
		pthread_mutex_unlock(&ino->mu);
		close(out);
		unlinkat(v->dev[dev].rep_fd, tmp, 0);
		return ino->gen != gen || ino->writers ? STEP_RETRY_LATER :
		       STEP_DONE;
	}
	if (v->test_naming_pause_us)
		usleep(v->test_naming_pause_us);
	if (ino->st.mask & (1u << dev)) {
		/* the copy it replaces may keep another name: never fresh */
		int old = openat(v->dev[dev].rep_fd, name, O_RDONLY);

		if (old >= 0) {
			morph_rstate_write(v, (u32)dev, old, &ino->st, 0, 0);
			close(old);
		}
	}
	if (renameat(v->dev[dev].rep_fd, tmp, v->dev[dev].rep_fd, name)) {
		ret = -errno;
		pthread_mutex_unlock(&v->names_lock);
		pthread_mutex_unlock(&ino->mu);
		close(out);
		unlinkat(v->dev[dev].rep_fd, tmp, 0);
		morph_err("cannot commit replica of /%s on device %d: %s", rel,
			  dev, strerror(-ret));
		return STEP_FAILED;
	}
	morph_name_link(v, (u32)dev, st.id, rel);
	ino->st.mask |= 1u << dev;
	ino->st.stale &= ~(1u << dev);
	/* the master lists the copy before a rename or unlink can read its
	 * state, or the new name would stay behind at the old path */
	ret = morph_inode_persist(v, ino, 0, 1);
	pthread_mutex_unlock(&v->names_lock);
	/* fresh on its own device only once its master lists it */
	if (!ret && !morph_rstate_write(v, (u32)dev, out, &ino->st, 1, 0))
		ino->rstale &= ~(1u << dev);
	pthread_mutex_unlock(&ino->mu);
	close(out);
	return ret ? STEP_FAILED : STEP_AGAIN;
}

static enum step drop_copy(struct morph_vol *v, struct morph_inode *ino,
			   const char *rel)
{
	struct morph_state one, was;
	char name[32];
	int dev, busy, fd;

	pthread_mutex_lock(&v->lock);
	busy = ino->refs > 1;
	pthread_mutex_unlock(&v->lock);
	if (busy)
		return STEP_RETRY_LATER;
	pthread_mutex_lock(&ino->mu);
	/* names_lock throughout: a rename or unlink reads the state once and
	 * moves or removes the names it lists */
	pthread_mutex_lock(&v->names_lock);
	dev = morph_rmap_pick_drop(&ino->st);
	if (dev < 0 || !still_named(v, ino, rel)) {
		/* renamed: the job under the new name drops */
		pthread_mutex_unlock(&v->names_lock);
		pthread_mutex_unlock(&ino->mu);
		return STEP_DONE;
	}
	/* stale on its own device first (durably), so that a crash before
	 * the unlink leaves a copy that never stands in for the master; one
	 * on a lost device is left for the repair pass */
	morph_replica_name(name, sizeof(name), ino->st.id, 0);
	if (morph_dev_up(v, (u32)dev)) {
		int err = 0;

		fd = openat(v->dev[dev].rep_fd, name, O_RDONLY);
		if (fd < 0 && errno != ENOENT)
			err = -errno;
		if (fd >= 0) {
			err = morph_rstate_write(v, (u32)dev, fd, &ino->st, 0, 1);
			close(fd);
		}
		if (err) {
			pthread_mutex_unlock(&v->names_lock);
			pthread_mutex_unlock(&ino->mu);
			morph_io_error(v, (u32)dev, err, rel);
			morph_err("not dropping the replica of /%s on device %d (%s): it cannot be marked stale first: %s",
				  rel, dev, v->dev[dev].path, strerror(-err));
			return STEP_FAILED;
		}
	}
	was = ino->st;
	ino->st.mask &= ~(1u << dev);
	ino->st.stale &= ~(1u << dev);
	if (morph_inode_persist(v, ino, 0, 1)) {
		ino->st = was;
		pthread_mutex_unlock(&v->names_lock);
		pthread_mutex_unlock(&ino->mu);
		return STEP_FAILED;
	}
	one = ino->st;
	one.mask = 1u << dev;
	morph_names_unlink(v, one.mask, rel);
	pthread_mutex_unlock(&v->names_lock);
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
		s = drop_copy(v, ino, rel);
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
	int last;

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
		last = 0;
		if (j->repair) {
			last = --v->repair_jobs == 0;
			if (s != STEP_DONE && s != STEP_AGAIN)
				v->repair_failed = 1;
			last = last && !v->repair_failed;
			if (!v->repair_jobs && v->repair_failed)
				morph_err("repair incomplete: a copy it owed failed (see above); the next mount repeats the repair");
		}
		pthread_mutex_unlock(&v->qlock);
		if (last)	/* before going idle: waiting for idle sees it */
			morph_clear_behind(v);
		pthread_mutex_lock(&v->qlock);
		v->busy = 0;
		pthread_mutex_unlock(&v->qlock);
		free(j->rel);
		free(j);
	}
}

/* the queue exists from the mount on: the repair pass fills it early */
void morph_replicator_init(struct morph_vol *v)
{
	pthread_mutex_init(&v->qlock, NULL);
	pthread_cond_init(&v->qcond, NULL);
}

int morph_replicator_start(struct morph_vol *v)
{
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
