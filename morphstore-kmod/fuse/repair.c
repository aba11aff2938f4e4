// SPDX-License-Identifier: Apache-2.0
/*
 * repair.c - one pass over the whole volume, at mount, with every device
 * present, before the volume is served.  It runs when a device missed
 * changes while lost (marked behind), when the last daemon died with the
 * volume mounted (marked dirty), and when the volume was last mounted
 * without replica names (label version 1: a new volume of an older daemon,
 * or one the kernel module mounted).  It brings back what degraded mode
 * and names.c rely on:
 *
 *   - every directory on every device (made while a device was lost);
 *   - one device per name: a name a lost device kept and the others
 *     re-made meanwhile, or that a power cut mid-rename left on two
 *     devices, is kept on one (morph_name_keeper: not behind, the lowest)
 *     and the other files moved to <lower k>/MORPH_LOST_DIR, logged;
 *   - for each replica a master lists: its file exists (else the master
 *     forgets it), its own state agrees with the master's stale bit, its
 *     name is a link to it, a fresh one has the master's mode and owner;
 *   - no replica name that no master backs, no replica file that no master
 *     lists (both are left-overs of crashes or of a device that was away);
 *   - with @queue (a device was behind), a copy queued for every file whose
 *     master says a replica is stale or missing; the replicator clears the
 *     behind marks once the last of them is done, so a crash during the
 *     copies repeats the pass at the next mount.
 *
 * Masters are authoritative: a returning device's masters were read-only
 * while it was away, and a replica the master says is stale is copied
 * again from the master.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "morphfs.h"
#include "ondisk.h"

/* ids of files with replicas, and the devices their masters list */
struct live {
	u64 *id;
	u32 *mask;
	size_t cap, n;
};

struct repair {
	struct morph_vol *v;
	int queue;
	int unsure;		/* something could not be read: keep orphans */
	struct live live;
	unsigned long files, named, restated, dirs, moved, unnamed, orphans,
		      forgotten, queued;
};

struct entry {
	char *name;
	u32 dev;
	int dir;
};

static size_t slot(const struct live *t, u64 id)
{
	size_t i = (size_t)(id * 0x9e3779b97f4a7c15ull) & (t->cap - 1);

	while (t->id[i] && t->id[i] != id)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static int live_add(struct live *t, u64 id, u32 mask)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct live g = { .cap = t->cap ? 2 * t->cap : 1024 };
		size_t k;

		g.id = calloc(g.cap, sizeof(*g.id));
		g.mask = calloc(g.cap, sizeof(*g.mask));
		if (!g.id || !g.mask) {
			free(g.id);
			free(g.mask);
			return -ENOMEM;
		}
		for (k = 0; k < t->cap; k++)
			if (t->id[k]) {
				i = slot(&g, t->id[k]);
				g.id[i] = t->id[k];
				g.mask[i] = t->mask[k];
				g.n++;
			}
		free(t->id);
		free(t->mask);
		*t = g;
	}
	i = slot(t, id);
	if (!t->id[i]) {
		t->id[i] = id;
		t->n++;
	}
	t->mask[i] |= mask;
	return 0;
}

static u32 live_mask(const struct live *t, u64 id)
{
	size_t i;

	if (!t->cap)
		return 0;
	i = slot(t, id);
	return t->id[i] == id ? t->mask[i] : 0;
}

static char *child_of(const char *rel, const char *name)
{
	char *p;

	if (!strcmp(rel, "."))
		return strdup(name);
	return asprintf(&p, "%s/%s", rel, name) < 0 ? NULL : p;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

/* the names in directory @rel under @dirfd; -1 if it cannot be read */
static int list_dir(int base, const char *rel, int skip_meta, u32 dev,
		    struct entry **ents, size_t *n, size_t *cap)
{
	int fd = openat(base, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return errno == ENOENT ? 0 : -1;
	}
	while ((e = readdir(dir))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (skip_meta && !strcmp(e->d_name, MORPH_DIR)))
			continue;
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 64;
			struct entry *g = realloc(*ents, c * sizeof(*g));

			if (!g)
				break;
			*ents = g;
			*cap = c;
		}
		(*ents)[*n].name = strdup(e->d_name);
		(*ents)[*n].dev = dev;
		(*ents)[*n].dir = e->d_type == DT_DIR ||
			(e->d_type == DT_UNKNOWN &&
			 !fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
			 S_ISDIR(st.st_mode));
		if ((*ents)[*n].name)
			(*n)++;
	}
	closedir(dir);
	return 0;
}

/* a directory exists on every device: make it where it is missing */
static void make_dir(struct repair *r, const char *rel, u32 have)
{
	struct morph_vol *v = r->v;
	u32 ref = morph_nth_bit(have, 0), d;
	struct stat st;

	if (fstatat(v->dev[ref].fd, rel, &st, AT_SYMLINK_NOFOLLOW))
		return;
	for (d = 0; d < v->ndev; d++) {
		if (have & (1u << d))
			continue;
		if (mkdirat(v->dev[d].fd, rel, st.st_mode & 07777) &&
		    errno != EEXIST) {
			morph_err("repair: cannot make directory /%s on device %u (%s): %s",
				  rel, d, v->dev[d].path, strerror(errno));
			r->unsure = 1;
			continue;
		}
		fchownat(v->dev[d].fd, rel, st.st_uid, st.st_gid,
			 AT_SYMLINK_NOFOLLOW);
		r->dirs++;
	}
}

/*
 * @rel is a file on several devices: one keeps it (morph_name_keeper, the
 * rule the module follows too); the others move to MORPH_LOST_DIR on their
 * device, without their state (their replicas, listed by nobody now, go
 * with the orphans).
 */
static u32 set_aside(struct repair *r, const char *rel, u32 devs)
{
	struct morph_vol *v = r->v;
	u32 keep = morph_name_keeper(devs, v->behind), d;
	const char *base = strrchr(rel, '/');

	base = base ? base + 1 : rel;
	for (d = 0; d < v->ndev; d++) {
		char to[PATH_MAX], lost[NAME_MAX + 1];
		struct stat st;

		if (d == keep || !(devs & (1u << d)) ||
		    fstatat(v->dev[d].fd, rel, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		mkdirat(v->dev[d].fd, MORPH_LOST_DIR, 0700);
		if (!morph_lost_name(lost, sizeof(lost), base, strlen(base),
				     st.st_ino)) {
			morph_err("repair: /%s is on devices %u and %u and its name is too long to be set aside",
				  rel, keep, d);
			r->unsure = 1;
			continue;
		}
		snprintf(to, sizeof(to), "%s/%s", MORPH_LOST_DIR, lost);
		if (renameat(v->dev[d].fd, rel, v->dev[d].fd, to)) {
			morph_err("repair: /%s is on devices %u and %u and cannot be moved aside: %s",
				  rel, keep, d, strerror(errno));
			r->unsure = 1;
			continue;
		}
		morph_lsetxattr(v, d, to, MORPH_XATTR_STATE, NULL, 0);
		morph_err("repair: /%s was on device %u and on device %u; kept the one on device %u, moved the other to %s/%s",
			  rel, keep, d, keep, v->dev[d].path, to);
		r->moved++;
	}
	return keep;
}

/* a master's replicas: their files, own states, names, mode and owner */
static void repair_file(struct repair *r, const char *rel, u32 m)
{
	struct morph_vol *v = r->v;
	struct morph_state st;
	struct stat sb;
	char name[32];
	u32 d, listed;
	int changed = 0;

	if (fstatat(v->dev[m].fd, rel, &sb, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISREG(sb.st_mode))
		return;
	r->files++;
	if (morph_read_state(v, m, rel, &st)) {
		r->unsure = 1;	/* reported when the file is opened */
		return;
	}
	morph_replica_name(name, sizeof(name), st.id, 0);
	listed = st.mask;
	for (d = 0; d < v->ndev; d++) {
		struct morph_state rs;
		struct stat rb, nb;
		int fd, fresh = !(st.stale & (1u << d));

		if (!(listed & (1u << d)))
			continue;
		fd = openat(v->dev[d].rep_fd, name, O_RDONLY);
		if (fd < 0) {
			if (errno != ENOENT) {
				r->unsure = 1;
				continue;
			}
			morph_err("repair: the replica of /%s on device %u (%s) is missing; the master forgets it",
				  rel, d, v->dev[d].path);
			st.mask &= ~(1u << d);
			st.stale &= ~(1u << d);
			changed = 1;
			r->forgotten++;
			continue;
		}
		if (morph_rstate_read(v, d, fd, &rs) || rs.id != st.id ||
		    rs.master != m || (!(rs.stale & (1u << d))) != fresh) {
			if (morph_rstate_write(v, d, fd, &st, fresh, 0))
				r->unsure = 1;
			else
				r->restated++;
		}
		if (!fstat(fd, &rb) && fresh) {
			if (rb.st_uid != sb.st_uid || rb.st_gid != sb.st_gid)
				fchown(fd, sb.st_uid, sb.st_gid);
			if ((rb.st_mode & 07777) != (sb.st_mode & 07777))
				fchmod(fd, sb.st_mode & 07777);
		}
		if (fstatat(v->dev[d].names_fd, rel, &nb, AT_SYMLINK_NOFOLLOW) ||
		    nb.st_ino != rb.st_ino) {
			if (morph_name_link(v, d, st.id, rel))
				r->unsure = 1;
			else
				r->named++;
		}
		close(fd);
	}
	if ((st.flags & MORPH_STATE_LINKED) && sb.st_nlink == 1) {
		st.flags &= ~MORPH_STATE_LINKED;	/* its one name is named */
		changed = 1;
	}
	if (changed) {
		u8 buf[MORPH_STATE_SIZE];

		morph_state_encode(&st, buf);
		if (morph_lsetxattr(v, m, rel, MORPH_XATTR_STATE, buf,
				    sizeof(buf)))
			r->unsure = 1;
	}
	if (st.mask && live_add(&r->live, st.id, st.mask))
		r->unsure = 1;
	if (r->queue && (st.stale ||
			 morph_popcount(st.mask) + 1 != st.wanted)) {
		morph_replicator_queue_repair(v, rel);
		r->queued++;
	}
}

static void walk(struct repair *r, const char *rel)
{
	struct morph_vol *v = r->v;
	struct entry *ents = NULL;
	size_t n = 0, cap = 0, i, k;
	u32 d;

	for (d = 0; d < v->ndev; d++)
		if (list_dir(v->dev[d].fd, rel, !strcmp(rel, "."), d, &ents, &n,
			     &cap)) {
			morph_err("repair: cannot read directory /%s on device %u (%s): %s",
				  rel, d, v->dev[d].path, strerror(errno));
			r->unsure = 1;
		}
	if (n)
		qsort(ents, n, sizeof(*ents), by_name);
	for (i = 0; i < n; i = k) {
		u32 devs = 0, dirs = 0;
		char *child;

		for (k = i; k < n && !strcmp(ents[k].name, ents[i].name); k++) {
			devs |= 1u << ents[k].dev;
			if (ents[k].dir)
				dirs |= 1u << ents[k].dev;
		}
		child = child_of(rel, ents[i].name);
		if (!child) {
			r->unsure = 1;
			continue;
		}
		if (dirs) {
			if (dirs != devs)
				morph_err("repair: /%s is a directory on devices %s and something else on others; left as it is",
					  child, morph_dev_list(dirs, (char[128]){ 0 }, 128));
			else
				make_dir(r, child, dirs);
			walk(r, child);
		} else {
			repair_file(r, child, morph_popcount(devs) > 1 ?
					      set_aside(r, child, devs) :
					      morph_nth_bit(devs, 0));
		}
		free(child);
	}
	for (i = 0; i < n; i++)
		free(ents[i].name);
	free(ents);
}

/* is the replica name @rel on @dev (inode @ino) backed by its master? */
static int name_backed(struct morph_vol *v, u32 dev, const char *rel,
		       ino_t ino)
{
	struct morph_state st;
	struct stat sb;
	char name[32];
	int m = morph_locate(v, rel, &sb);

	if (m < 0 || !S_ISREG(sb.st_mode) ||
	    morph_read_state(v, (u32)m, rel, &st) || !(st.mask & (1u << dev)))
		return 0;
	morph_replica_name(name, sizeof(name), st.id, 0);
	return !fstatat(v->dev[dev].rep_fd, name, &sb, 0) && sb.st_ino == ino;
}

static void sweep_names(struct repair *r, u32 dev, const char *rel)
{
	struct morph_vol *v = r->v;
	struct entry *ents = NULL;
	size_t n = 0, cap = 0, i;

	if (list_dir(v->dev[dev].names_fd, rel, 0, dev, &ents, &n, &cap))
		r->unsure = 1;
	for (i = 0; i < n; i++) {
		char *child = child_of(rel, ents[i].name);
		struct stat st;

		if (child && ents[i].dir) {
			sweep_names(r, dev, child);
			unlinkat(v->dev[dev].names_fd, child, AT_REMOVEDIR);
		} else if (child &&
			   !fstatat(v->dev[dev].names_fd, child, &st,
				    AT_SYMLINK_NOFOLLOW) &&
			   !name_backed(v, dev, child, st.st_ino) &&
			   !unlinkat(v->dev[dev].names_fd, child, 0)) {
			r->unnamed++;
		}
		free(child);
		free(ents[i].name);
	}
	free(ents);
}

static void sweep_orphans(struct repair *r, u32 dev)
{
	struct morph_vol *v = r->v;
	struct entry *ents = NULL;
	size_t n = 0, cap = 0, i;

	if (list_dir(v->dev[dev].rep_fd, ".", 0, dev, &ents, &n, &cap))
		r->unsure = 1;
	for (i = 0; i < n; i++) {
		u64 id;

		if (!r->unsure && morph_replica_name_parse(ents[i].name, &id) &&
		    !(live_mask(&r->live, id) & (1u << dev)) &&
		    !unlinkat(v->dev[dev].rep_fd, ents[i].name, 0))
			r->orphans++;
		free(ents[i].name);
	}
	free(ents);
}

int morph_repair(struct morph_vol *v, int queue)
{
	struct repair r = { .v = v, .queue = queue };
	char list[128];
	u32 d;

	morph_log("info", "repair pass over every device (devices behind: %s)",
		  morph_dev_list(v->behind, list, sizeof(list)));
	walk(&r, ".");
	for (d = 0; d < v->ndev; d++)
		sweep_names(&r, d, ".");
	for (d = 0; d < v->ndev; d++)
		sweep_orphans(&r, d);
	free(r.live.id);
	free(r.live.mask);
	morph_log("info", "repair pass done: %lu files; %lu replica names and %lu replica states rewritten, %lu left-over names and %lu orphan replicas removed, %lu missing replicas forgotten, %lu directories made, %lu files set aside; %lu copies queued%s",
		  r.files, r.named, r.restated, r.unnamed, r.orphans,
		  r.forgotten, r.dirs, r.moved, r.queued,
		  r.unsure ? "; some entries could not be read (see above): devices stay behind" : "");
	if (r.unsure) {		/* the copies queued cannot clear it either */
		pthread_mutex_lock(&v->qlock);
		v->repair_failed = 1;
		pthread_mutex_unlock(&v->qlock);
	} else if (!r.queued) {
		morph_clear_behind(v);
	}
	return 0;
}
