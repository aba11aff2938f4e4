// SPDX-License-Identifier: Apache-2.0
/*
 * replicator.c - the FUSE daemon's side of the replica protocol
 * (core/replica.c holds its rules and steps): the I/O the core does through
 * struct morph_replica_io, and the background thread that creates, removes
 * and re-synchronises replicas, one file at a time, throttled to
 * replicate_bps (seed 001 section 3.3.2: replication runs off the critical
 * path).
 *
 * The copy runs without ino->mu; the commit (rename, then the mask) takes
 * it back and is abandoned if the file was written meanwhile (ino->gen
 * moved) or has an open writer, whose handle would not know the new copy.
 * A replica is removed only while no handle is open, so no reader can
 * still be using it.
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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
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

#ifdef MORPH_TEST_HOOKS
/*
 * Tests only (tests/t_rename_race.sh runs build/test/morphstore-fuse, built
 * with this): MORPHSTORE_TEST_NAMING_PAUSE_US microseconds of pause under
 * names_lock, between finding the master still at its path and naming the
 * new copy there, which widens the window a rename or unlink that does not
 * take names_lock in time would race.  Only the replicator thread calls it.
 */
static void test_naming_pause(void)
{
	static long us = -1;

	if (us < 0) {
		const char *s = getenv("MORPHSTORE_TEST_NAMING_PAUSE_US");

		us = s ? strtol(s, NULL, 10) : 0;
	}
	if (us > 0)
		usleep((useconds_t)us);
}

/*
 * Tests only (tests/t_rename_crash.sh): the daemon dies at the step named
 * by MORPHSTORE_TEST_EXIT_AT, as a crash or a power cut that kept every
 * step before it and none after leaves the lowers.
 */
void morph_test_point(const char *step)
{
	const char *at = getenv("MORPHSTORE_TEST_EXIT_AT");

	if (at && !strcmp(at, step)) {
		morph_err("test: exiting at %s (MORPHSTORE_TEST_EXIT_AT)", step);
		_exit(99);
	}
}
#else
static inline void test_naming_pause(void)
{
}

void morph_test_point(const char *step)
{
	(void)step;
}
#endif

/* ---- the replica protocol's I/O (struct morph_replica_io) ---- */

static struct morph_inode *inode_of(struct morph_replica_file *f)
{
	return (struct morph_inode *)((char *)f -
				      offsetof(struct morph_inode, rf));
}

/* a copy in flight: what its commit needs besides the core's */
struct copy_job {
	const char *rel;	/* the path it is copied for */
	u64 gen;		/* the file's content, as copied */
	int out;		/* the open copy */
	enum step declined;	/* why commit_begin gave up */
};

static u64 io_dev_free(void *ctx, u32 dev)
{
	return morph_dev_free(ctx, dev);
}

static u32 io_next_turn(void *ctx)
{
	struct morph_vol *v = ctx;

	return __atomic_fetch_add(&v->next_dev, 1, __ATOMIC_RELAXED);
}

static int io_write_state(void *ctx, struct morph_replica_file *f,
			  const u8 *buf, int sync)
{
	struct morph_vol *v = ctx;
	struct morph_inode *ino = inode_of(f);

	if (fsetxattr(ino->xfd, MORPH_XATTR_STATE, buf, MORPH_STATE_SIZE, 0)) {
		int e = errno;

		morph_io_error(v, ino->dev, -e, "(a file's " MORPH_XATTR_STATE ")");
		morph_err("cannot write %s of inode %llu on device %u (%s): %s",
			  MORPH_XATTR_STATE, (unsigned long long)ino->key_ino,
			  ino->dev, v->dev[ino->dev].path, strerror(e));
		return -e;
	}
	if (sync && fsync(ino->xfd))
		return -errno;
	return 0;
}

static int io_persist(void *ctx, struct morph_replica_file *f,
		      u32 extra_stale, int sync)
{
	return morph_inode_persist(ctx, inode_of(f), extra_stale, sync);
}

/*
 * Under ino->mu, at the end of a write session: the master's data and that
 * of the replicas on @copies reach the disk before the state calls them
 * fresh (core/replica.h).  A replica that cannot be synced says stale on
 * itself and is returned; all of them if the master cannot be.
 */
static u32 io_sync_data(void *ctx, struct morph_replica_file *f, u32 copies)
{
	struct morph_vol *v = ctx;
	struct morph_inode *ino = inode_of(f);
	char name[MORPH_REPLICA_NAME_MAX];
	u32 failed = 0, d;

	if (ino->synced_gen == ino->gen)
		return 0;	/* synced since the last write (file.c) */
	if (fdatasync(ino->xfd)) {
		morph_io_error(v, ino->dev, -errno, "(a master at its last close)");
		return copies;
	}
	morph_replica_name(name, sizeof(name), f->st.id, 0);
	for (d = 0; d < v->ndev; d++) {
		int fd, e = 0;

		if (!(copies & (1u << d)))
			continue;
		fd = morph_dev_up(v, d) ?
		     openat(v->dev[d].rep_fd, name, O_RDONLY | O_CLOEXEC) : -1;
		if (fd < 0 || fdatasync(fd))
			e = errno ? errno : EIO;
		if (e) {
			morph_err("the replica of inode %llu on device %u (%s) cannot be synced at its last close: %s; it is stale until re-copied",
				  (unsigned long long)ino->key_ino, d,
				  v->dev[d].path, strerror(e));
			morph_io_error(v, d, -e, "(a replica at its last close)");
			morph_replica_missed(v, ino, d, fd);
			failed |= 1u << d;
		}
		if (fd >= 0)
			close(fd);
	}
	if (!failed)
		ino->synced_gen = ino->gen;
	return failed;
}

/*
 * Copy the master to <id>.tmp on @c->dev, with the master's mode, owner
 * and times and its own state saying stale; the copy stays open for the
 * commit.
 */
static int io_copy(void *ctx, struct morph_replica_file *f,
		   struct morph_copy *c)
{
	struct morph_vol *v = ctx;
	struct morph_inode *ino = inode_of(f);
	struct copy_job *j = c->priv;
	char *buf = malloc(COPY_BUF);
	int out, ret = 0;
	u64 at = 0, start = v->env.now_ns(v->env.ctx);
	ssize_t n;
	struct stat sb;

	if (!buf)
		return -ENOMEM;
	out = openat(v->dev[c->dev].rep_fd, c->tmp, O_RDWR | O_CREAT | O_TRUNC,
		     0600);
	if (out < 0) {
		ret = morph_io_error(v, c->dev, -errno, "(a new replica)");
		goto failed;
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
			morph_io_error(v, c->dev, ret, "(a new replica)");
			break;
		}
		at += (u64)n;
		throttle(v, start, at);
		if (stopping(v)) {
			ret = -ECANCELED;
			break;
		}
	}
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
		ret = morph_rstate_write(v, c->dev, out, &c->st, 0, 1);
	if (ret)
		close(out);
failed:
	free(buf);
	if (ret && ret != -ECANCELED)
		morph_err("copying /%s to device %u (%s) failed: %s%s", j->rel,
			  c->dev, v->dev[c->dev].path, strerror(-ret),
			  ret == -ENOSPC ? "; the device is full, the master is unchanged" : "");
	j->out = ret ? -1 : out;
	return ret;
}

/* under names_lock: does @rel on the master's device still name @ino? */
static int still_named(struct morph_vol *v, struct morph_inode *ino,
		       const char *rel)
{
	struct stat sb;

	return !fstatat(v->dev[ino->dev].fd, rel, &sb, AT_SYMLINK_NOFOLLOW) &&
	       sb.st_dev == ino->key_dev && sb.st_ino == ino->key_ino;
}

/* takes ino->mu and names_lock, held until io_commit_end */
static int io_commit_begin(void *ctx, struct morph_replica_file *f,
			   struct morph_copy *c)
{
	struct morph_vol *v = ctx;
	struct morph_inode *ino = inode_of(f);
	struct copy_job *j = c->priv;

	pthread_mutex_lock(&ino->mu);
	pthread_mutex_lock(&v->names_lock);
	if (ino->gen != j->gen || ino->writers || !still_named(v, ino, j->rel)) {
		/* written, or renamed: the job under the new name copies */
		j->declined = ino->gen != j->gen || ino->writers ?
			      STEP_RETRY_LATER : STEP_DONE;
		pthread_mutex_unlock(&v->names_lock);
		pthread_mutex_unlock(&ino->mu);
		close(j->out);
		return 1;
	}
	test_naming_pause();
	if (ino->rf.st.mask & (1u << c->dev)) {
		/* the copy it replaces may keep another name: never fresh */
		int old = openat(v->dev[c->dev].rep_fd, c->name, O_RDONLY);

		if (old >= 0) {
			morph_rstate_write(v, c->dev, old, &ino->rf.st, 0, 0);
			close(old);
		}
	}
	return 0;
}

/* the copy takes its place, and its name in MORPH_NAMES_DIR */
static int io_rename(void *ctx, struct morph_replica_file *f,
		     struct morph_copy *c)
{
	struct morph_vol *v = ctx;
	struct copy_job *j = c->priv;
	int rep = v->dev[c->dev].rep_fd, ret = 0;

	(void)f;
	if (renameat(rep, c->tmp, rep, c->name)) {
		int e = errno;

		morph_err("cannot commit replica of /%s on device %u: %s", j->rel,
			  c->dev, strerror(e));
		return -e;
	}
	morph_name_link(v, c->dev, c->st.id, j->rel);
	/*
	 * the copy and its name are durable before the master lists it: the
	 * master is on another file system, whose journal may commit first,
	 * and a power cut would leave a fresh copy in its state with no file
	 * under its name, or none a degraded mount could find (found by
	 * vm/powercut)
	 */
	if (fsync(rep) || (ret = morph_name_sync(v, c->dev, j->rel))) {
		int e = ret ? -ret : errno;

		morph_err("cannot commit replica of /%s on device %u: fsync of its directory: %s",
			  j->rel, c->dev, strerror(e));
		return -e;
	}
	return 0;
}

/*
 * The master lists the copy (under names_lock, before a rename or unlink
 * can read its state, or the new name would stay behind at the old path);
 * the copy is fresh on its own device only from then on.
 */
static void io_commit_end(void *ctx, struct morph_replica_file *f,
			  struct morph_copy *c, int ret)
{
	struct morph_vol *v = ctx;
	struct morph_inode *ino = inode_of(f);
	struct copy_job *j = c->priv;

	pthread_mutex_unlock(&v->names_lock);
	if (!ret && !morph_rstate_write(v, c->dev, j->out, &ino->rf.st, 1, 0))
		ino->rstale &= ~(1u << c->dev);
	pthread_mutex_unlock(&ino->mu);
	close(j->out);
}

/*
 * Stale on its own device first (durably), so that a crash before the
 * unlink leaves a copy that never stands in for the master; one on a lost
 * device is left for the repair pass.
 */
static int io_drop_begin(void *ctx, struct morph_replica_file *f, u32 dev,
			 void *priv)
{
	struct morph_vol *v = ctx;
	struct morph_inode *ino = inode_of(f);
	const char *rel = priv;
	char name[MORPH_REPLICA_NAME_MAX];
	int fd, err = 0;

	if (!morph_dev_up(v, dev))
		return 0;
	morph_replica_name(name, sizeof(name), f->st.id, 0);
	fd = openat(v->dev[dev].rep_fd, name, O_RDONLY);
	if (fd < 0 && errno != ENOENT)
		err = -errno;
	if (fd >= 0) {
		err = morph_rstate_write(v, dev, fd, &ino->rf.st, 0, 1);
		close(fd);
	}
	if (err) {
		morph_io_error(v, dev, err, rel);
		morph_err("not dropping the replica of /%s on device %u (%s): it cannot be marked stale first: %s",
			  rel, dev, v->dev[dev].path, strerror(-err));
	}
	return err;
}

/* one on a lost device is left for the repair pass */
static int io_remove(void *ctx, u32 dev, const char *name)
{
	struct morph_vol *v = ctx;
	int e;

	if (!morph_dev_up(v, dev) || !unlinkat(v->dev[dev].rep_fd, name, 0) ||
	    errno == ENOENT)
		return 0;
	e = errno;
	morph_err("cannot remove replica %s on device %u (%s): %s", name, dev,
		  v->dev[dev].path, strerror(e));
	return -e;
}

/* ---- the background replicator ---- */

static enum step add_copy(struct morph_vol *v, struct morph_inode *ino,
			  const char *rel)
{
	struct copy_job j = { .rel = rel, .out = -1 };
	struct morph_state st;
	u32 lost = morph_lost(v);
	int dev, ret;
	struct stat sb;

	pthread_mutex_lock(&ino->mu);
	if (!ino->rf.st.id && morph_inode_persist(v, ino, 0, 1)) {
		pthread_mutex_unlock(&ino->mu);
		return STEP_FAILED;
	}
	st = ino->rf.st;
	j.gen = ino->gen;
	pthread_mutex_unlock(&ino->mu);
	if (fstat(ino->xfd, &sb))
		return STEP_FAILED;
	if (st.stale & ~lost) {
		dev = morph_nth_bit(st.stale & ~lost, 0);	/* resync in place */
	} else if (1 + morph_popcount(st.mask) >= st.wanted) {
		return STEP_DONE;	/* only copies on lost devices are owed */
	} else {
		dev = morph_rmap_pick_new(&st, v->ndev,
					  morph_devices_with_room(&v->rio,
						(u64)sb.st_size + COPY_BUF),
					  &v->env);
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
	ret = morph_replica_make(&v->rio, &ino->rf, &st, (u32)dev, &j);
	if (ret > 0)
		return j.declined;
	if (ret)
		return ret == -ECANCELED ? STEP_DONE : STEP_FAILED;
	return STEP_AGAIN;
}

static enum step drop_copy(struct morph_vol *v, struct morph_inode *ino,
			   const char *rel)
{
	int busy, ret;
	u32 dev;
	u64 id;

	pthread_mutex_lock(&v->lock);
	busy = ino->refs > 1;
	pthread_mutex_unlock(&v->lock);
	if (busy)
		return STEP_RETRY_LATER;
	pthread_mutex_lock(&ino->mu);
	/* names_lock throughout: a rename or unlink reads the state once and
	 * moves or removes the names it lists */
	pthread_mutex_lock(&v->names_lock);
	/* renamed: the job under the new name drops */
	ret = still_named(v, ino, rel) ?
	      morph_replica_drop(&v->rio, &ino->rf, (void *)rel, &dev) : 1;
	if (!ret)
		morph_names_unlink(v, 1u << dev, rel);
	id = ino->rf.st.id;
	pthread_mutex_unlock(&v->names_lock);
	pthread_mutex_unlock(&ino->mu);
	if (ret)
		return ret > 0 ? STEP_DONE : STEP_FAILED;
	morph_replica_remove(&v->rio, dev, id);
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
	if (ino->rf.state_bad) {
		morph_inode_put(v, ino);
		return STEP_FAILED;
	}
	pthread_mutex_lock(&ino->mu);
	have = 1 + morph_popcount(ino->rf.st.mask);
	stale = ino->rf.st.stale != 0;
	wanted = ino->rf.st.wanted;
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

/*
 * The queue exists from the mount on: the repair pass fills it early.  So
 * does the replica protocol's I/O (its device count comes with the lower
 * directories, mount.c).
 */
void morph_replicator_init(struct morph_vol *v)
{
	static const struct morph_replica_io io = {
		.dev_free = io_dev_free,
		.next_turn = io_next_turn,
		.write_state = io_write_state,
		.persist = io_persist,
		.sync_data = io_sync_data,
		.copy = io_copy,
		.commit_begin = io_commit_begin,
		.rename = io_rename,
		.commit_end = io_commit_end,
		.drop_begin = io_drop_begin,
		.remove = io_remove,
	};

	pthread_mutex_init(&v->qlock, NULL);
	pthread_cond_init(&v->qcond, NULL);
	v->rio = io;
	v->rio.ctx = v;
	v->rio.env = &v->env;
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
