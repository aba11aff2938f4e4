// SPDX-License-Identifier: Apache-2.0
/*
 * inode.c - in-memory inodes of open master files (seed 001 section 3.4.3).
 *
 * An inode is created at first open from MORPH_XATTR_STATE and freed at
 * last close, when the read/write counters are written back (statistics
 * persist on close, as in the seed).
 *
 * Write sessions keep replicas safe across a crash: before the first write
 * to a file with replicas, the replicas are marked stale on disk (and that
 * is made durable); writes then go to the master and every replica; when the
 * last writer closes, replicas that took every write are marked fresh again.
 * A daemon killed in between leaves them stale, so they are never served
 * until the replicator has copied them again.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"

static unsigned int bucket(dev_t dev, ino_t ino)
{
	return (unsigned int)((ino * 2654435761u) ^ dev) & 255;
}

static void load_state(struct morph_vol *v, struct morph_inode *ino)
{
	u8 buf[MORPH_STATE_SIZE + 16];
	ssize_t n;
	int ret;

	morph_state_init(&ino->rf.st, 0, ino->dev);
	if (ino->standin) {	/* the replica's own state (names.c) */
		if (morph_rstate_read(v, ino->dev, ino->xfd, &ino->rf.st))
			morph_state_init(&ino->rf.st, 0, ino->dev);
		return;
	}
	n = fgetxattr(ino->xfd, MORPH_XATTR_STATE, buf, sizeof(buf));
	if (n < 0) {
		if (errno != ENODATA)
			morph_err("reading %s of a file on device %u (%s): %s; serving its master copy only",
				  MORPH_XATTR_STATE, ino->dev,
				  v->dev[ino->dev].path, strerror(errno));
		ino->rf.state_bad = errno != ENODATA;
		return;
	}
	ret = morph_state_load(buf, (size_t)n, v->ndev, ino->dev, &ino->rf.st);
	if (ret) {
		morph_err("file inode %llu on device %u (%s): %s: %s; serving its master copy only, not changing it",
			  (unsigned long long)ino->key_ino, ino->dev,
			  v->dev[ino->dev].path, MORPH_XATTR_STATE,
			  morph_strerror(ret));
		ino->rf.state_bad = 1;
	}
}

/*
 * Takes a reference on the inode of the open master @fd on @dev, or with
 * @standin of the open replica @fd on @dev standing in for a master on a
 * lost device (its inode is the replica's, so the two never share one).
 */
int morph_inode_get(struct morph_vol *v, u32 dev, int fd, int standin,
		    struct morph_inode **out)
{
	struct stat st;
	struct morph_inode *ino, *fresh;
	unsigned int b;

	if (fstat(fd, &st))
		return -errno;
	b = bucket(st.st_dev, st.st_ino);
	pthread_mutex_lock(&v->lock);
	for (ino = v->table[b]; ino; ino = ino->next)
		if (ino->key_dev == st.st_dev && ino->key_ino == st.st_ino) {
			ino->refs++;
			pthread_mutex_unlock(&v->lock);
			*out = ino;
			return 0;
		}
	pthread_mutex_unlock(&v->lock);

	fresh = calloc(1, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	fresh->key_dev = st.st_dev;
	fresh->key_ino = st.st_ino;
	fresh->dev = dev;
	fresh->standin = standin;
	fresh->refs = 1;
	{
		/* a read-write descriptor of our own: the caller's may be
		 * write-only, and the replicator reads through this one */
		char self[64];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		fresh->xfd = open(self, O_RDWR);
	}
	if (fresh->xfd < 0) {
		free(fresh);
		return -errno;
	}
	pthread_mutex_init(&fresh->mu, NULL);
	morph_laas_file_init(&fresh->laas);
	fresh->laas.home = (int)dev;
	load_state(v, fresh);

	pthread_mutex_lock(&v->lock);
	for (ino = v->table[b]; ino; ino = ino->next)
		if (ino->key_dev == st.st_dev && ino->key_ino == st.st_ino)
			break;
	if (ino) {		/* lost a race with another opener */
		ino->refs++;
		pthread_mutex_unlock(&v->lock);
		close(fresh->xfd);
		pthread_mutex_destroy(&fresh->mu);
		free(fresh);
		*out = ino;
		return 0;
	}
	fresh->next = v->table[b];
	v->table[b] = fresh;
	pthread_mutex_unlock(&v->lock);
	*out = fresh;
	return 0;
}

int morph_inode_get_path(struct morph_vol *v, const char *rel,
			 struct morph_inode **out)
{
	struct stat st;
	int dev = morph_locate(v, rel, &st), fd, ret;

	if (dev < 0)
		return dev;
	if (!S_ISREG(st.st_mode))
		return -EPERM;
	fd = openat(v->dev[dev].fd, rel, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return morph_io_error(v, (u32)dev, -errno, rel);
	ret = morph_inode_get(v, (u32)dev, fd, 0, out);
	close(fd);
	return ret;
}

/*
 * Write the state back (morph_replica_persist) with the requests counted
 * since: @extra_stale marks more replicas stale on disk only; @sync makes
 * it durable before returning.  A stand-in's state is not its own.
 */
int morph_inode_persist(struct morph_vol *v, struct morph_inode *ino,
			u32 extra_stale, int sync)
{
	int ret;

	if (ino->standin)
		return -EROFS;
	if (ino->rf.state_bad || !morph_dev_up(v, ino->dev))
		return -EIO;
	ret = morph_replica_persist(&v->rio, &ino->rf, extra_stale, ino->reads,
				    ino->writes, sync);
	if (!ret)
		ino->reads = ino->writes = 0;
	return ret;
}

/*
 * Under ino->mu: before the first change of content in a session.  A
 * replica that is already stale misses what follows: it says so itself
 * first (names.c), so that it never stands in for its master.
 */
int morph_inode_session_begin(struct morph_vol *v, struct morph_inode *ino)
{
	u32 behind = ino->rf.st.mask & ino->rf.st.stale & ~ino->rstale, d;

	if (ino->rf.session)
		return 0;
	for (d = 0; d < v->ndev; d++)
		if (behind & (1u << d))
			morph_replica_missed(v, ino, d, -1);
	/* a replica on a lost device is written by nobody */
	return morph_session_begin(&v->rio, &ino->rf, morph_lost(v));
}

/* under ino->mu: the last writer is gone */
void morph_inode_session_end(struct morph_vol *v, struct morph_inode *ino)
{
	morph_session_end(&v->rio, &ino->rf);
}

void morph_inode_put(struct morph_vol *v, struct morph_inode *ino)
{
	struct morph_inode **pp;

	pthread_mutex_lock(&v->lock);
	if (--ino->refs) {
		pthread_mutex_unlock(&v->lock);
		return;
	}
	/* counters are written while still in the table, so that a new
	 * opener cannot load the state without them */
	if (ino->reads || ino->writes)
		morph_inode_persist(v, ino, 0, 0);
	for (pp = &v->table[bucket(ino->key_dev, ino->key_ino)]; *pp;
	     pp = &(*pp)->next)
		if (*pp == ino) {
			*pp = ino->next;
			break;
		}
	morph_laas_forget(&v->laas, &ino->laas);
	pthread_mutex_unlock(&v->lock);
	close(ino->xfd);
	pthread_mutex_destroy(&ino->mu);
	free(ino);
}
