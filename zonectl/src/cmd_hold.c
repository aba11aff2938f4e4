// SPDX-License-Identifier: Apache-2.0
/*
 * Online commands: the allowed area of a *mounted* ext4, held by the hold
 * file (lib/zn_hold.c).  hold (reserve / area), hold-release, hold-status,
 * hold-recover, and the hold mechanism of hold-monitor (seed 002 §4.3
 * dynamic usable area), whose loop is cmd_monitor.c.  Policy only: which
 * area, when; the mechanism is zn_hold_*.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "zonectl.h"

static const char *class_name(uint32_t c)
{
	return c == ZN_CLASS_TEMP ? "temp" : c == ZN_CLASS_PERM ? "perm" : "none";
}

static double mnt_mib(const struct zn_mnt *m, uint64_t blocks)
{
	return (double)blocks * m->block_size / (1024.0 * 1024.0);
}

/* Open the mount and its record; writers refuse an interrupted operation. */
static int open_mnt(struct opts *o, struct zn_mnt *m, struct zn_hold_rec *r, int *have,
		    int writer)
{
	char path[4096];
	int err = zn_mnt_open(m, o->dev);

	if (err)
		return err;
	zn_hold_rec_path(m, o->journal, path, sizeof(path));
	err = zn_hold_rec_load(m, path, r, have);
	if (!err && writer && *have && r->state == ZN_J_APPLYING)
		err = zn_fail(ZN_EJOURNAL, "%s: an operation was interrupted; run 'zonectl hold-recover %s'",
			      o->dev, o->dev);
	if (err)
		zn_mnt_close(m);
	return err;
}

static void print_hold(struct opts *o, struct zn_mnt *m, struct zn_hold_rec *r, int have)
{
	uint64_t freeb = 0, held = 0, start = 0, end = 0;
	const char *state = "none", *cls = "none";

	if (have && r->state == ZN_J_APPLYING) {
		state = "interrupted";
	} else if (have) {
		state = "held";
		cls = class_name(r->area_class);
		start = r->start;
		end = r->end;
	}
	zn_mnt_free(m, &freeb);
	zn_hold_held(m, 0, m->blocks_count, &held);
	if (o->porcelain) {
		printf("state=%s class=%s start=%llu end=%llu block_size=%u free_blocks=%llu held_blocks=%llu\n",
		       state, cls, (unsigned long long)start, (unsigned long long)end,
		       m->block_size, (unsigned long long)freeb, (unsigned long long)held);
		return;
	}
	if (!strcmp(state, "held"))
		printf("%s: allowed area blocks [%llu, %llu) (%s), %.1f MiB free, %.1f MiB held outside\n",
		       o->dev, (unsigned long long)start, (unsigned long long)end, cls,
		       mnt_mib(m, freeb), mnt_mib(m, held));
	else if (!strcmp(state, "interrupted"))
		printf("%s: an operation was interrupted; run 'zonectl hold-recover %s'\n",
		       o->dev, o->dev);
	else
		printf("%s: no hold, %.1f MiB free\n", o->dev, mnt_mib(m, freeb));
}

/* ---- hold ------------------------------------------------------------ */

static const char hold_help[] =
"usage: zonectl hold DIR --keep-outer SIZE | --keep-inner SIZE | --blocks A-B\n"
"                    | --class temp|perm --outer SIZE   [-n] [-p] [--journal FILE]\n"
"Online reservation of the ext4 file system mounted on DIR: new allocations\n"
"land only in the allowed area (the first SIZE bytes, the last SIZE bytes,\n"
"blocks A..B-1, or seed 002 §4.2's job-aware area: temp -> [0, SIZE),\n"
"perm -> [SIZE, end)).  Every free block outside the area is held by\n"
"DIR/.zonectl-hold (fallocate until full, then punch holes inside the area;\n"
"FIEMAP finds them).  While it fills, other writers see a full file system\n"
"for a moment: move the area when the node is idle.  Again with the same\n"
"area: top up (take blocks freed outside since).  The operation is recorded\n"
"in <state dir>/<uuid>.hold first ('zonectl hold-recover DIR' after a\n"
"crash).  Root only (writes /sys/fs/ext4/<dev>/reserved_clusters).  -p:\n"
"  state=held class=C start=B end=B block_size=N free_blocks=N held_blocks=N\n"
"For an unmounted device use 'zonectl reserve' / 'area' (bitmaps).\n";

static int parse_blocks(const char *s, uint64_t *a, uint64_t *b)
{
	char *end;

	*a = strtoull(s, &end, 10);
	if (end == s || *end != '-')
		return zn_fail(ZN_EUSAGE, "--blocks '%s': expected A-B", s);
	s = end + 1;
	*b = strtoull(s, &end, 10);
	if (end == s || *end || *b <= *a)
		return zn_fail(ZN_EUSAGE, "--blocks '%s': expected A-B with A < B", s);
	return ZN_OK;
}

int cmd_hold(int argc, char **argv)
{
	static const struct option own[] = {
		{ "keep-outer", required_argument, NULL, 'O' },
		{ "keep-inner", required_argument, NULL, 'I' },
		{ "blocks", required_argument, NULL, 'B' },
		{ "class", required_argument, NULL, 'c' },
		{ "outer", required_argument, NULL, 'o' },
	};
	struct opts o = { 0 };
	uint64_t outer = 0, keep_o = 0, keep_i = 0, ba = 0, bb = 0, start, end, fsb;
	const char *cls = NULL;
	struct zn_hold_stats st;
	struct zn_hold_rec r;
	struct zn_mnt m;
	uint32_t cl = 0;
	int c, err, have, modes = 0;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 5), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		switch (c) {
		case 'O':
			modes++;
			if (zn_parse_size(optarg, &keep_o))
				return ZN_EUSAGE;
			break;
		case 'I':
			modes++;
			if (zn_parse_size(optarg, &keep_i))
				return ZN_EUSAGE;
			break;
		case 'B':
			modes++;
			if (parse_blocks(optarg, &ba, &bb))
				return ZN_EUSAGE;
			break;
		case 'c':
			cls = optarg;
			break;
		case 'o':
			if (zn_parse_size(optarg, &outer))
				return ZN_EUSAGE;
			break;
		default:
			return ZN_EUSAGE;
		}
	}
	if (o.help)
		return fputs(hold_help, stdout), 0;
	if ((err = need_dir("hold", argc, argv, &o)))
		return err;
	if (cls) {
		modes++;
		if (strcmp(cls, "temp") && strcmp(cls, "perm"))
			return usage_err("hold", "--class must be temp or perm");
		if (!outer)
			return usage_err("hold", "--class needs --outer SIZE (the outer area's size)");
		cl = !strcmp(cls, "temp") ? ZN_CLASS_TEMP : ZN_CLASS_PERM;
	} else if (outer) {
		return usage_err("hold", "--outer goes with --class temp|perm");
	}
	if (modes != 1)
		return usage_err("hold", "give exactly one of --keep-outer, --keep-inner, --blocks, --class");
	if ((err = open_mnt(&o, &m, &r, &have, 1)))
		return err;
	fsb = m.first_data_block;
	if (keep_o) {
		start = fsb;
		end = fsb + keep_o / m.block_size;
	} else if (keep_i) {
		start = keep_i / m.block_size >= m.blocks_count ? 0 :
			m.blocks_count - keep_i / m.block_size;
		end = m.blocks_count;
	} else if (cl) {
		start = cl == ZN_CLASS_TEMP ? fsb : fsb + outer / m.block_size;
		end = cl == ZN_CLASS_TEMP ? fsb + outer / m.block_size : m.blocks_count;
	} else {
		start = ba;
		end = bb;
	}
	if (start < fsb || end > m.blocks_count || start >= end ||
	    (cl && (fsb + outer / m.block_size >= m.blocks_count))) {
		err = zn_fail(ZN_ERANGE, "%s: requested area blocks [%llu, %llu) but the file system has blocks [%u, %llu)",
			      o.dev, (unsigned long long)start, (unsigned long long)end,
			      (unsigned)fsb, (unsigned long long)m.blocks_count);
		goto out;
	}
	if (o.dry_run) {
		uint64_t held = 0;

		zn_hold_held(&m, 0, m.blocks_count, &held);
		printf("%s: dry run: would hold every free block outside [%llu, %llu); %llu blocks held now\n",
		       o.dev, (unsigned long long)start, (unsigned long long)end,
		       (unsigned long long)held);
		goto out;
	}
	err = zn_hold_apply(&m, &r, start, end, cl, 1, &st);
	if (err)
		goto out;
	if (!o.porcelain)
		printf("%s: took %llu free blocks, gave back %llu inside the area\n", o.dev,
		       (unsigned long long)st.taken, (unsigned long long)st.given);
	print_hold(&o, &m, &r, 1);
out:
	zn_mnt_close(&m);
	return err;
}

/* ---- hold-release / hold-status / hold-recover ----------------------- */

static const char release_help[] =
"usage: zonectl hold-release DIR [-p] [--journal FILE]\n"
"Delete DIR/.zonectl-hold: every held block is free again.  No hold: exit 0.\n";

static const char status_help[] =
"usage: zonectl hold-status DIR [-p] [--journal FILE]\n"
"Show the held area of the mounted file system: state=held|none|interrupted,\n"
"the area, free blocks (all inside the area) and blocks held outside.\n";

static const char recover_help[] =
"usage: zonectl hold-recover DIR [-p] [--journal FILE]\n"
"Finish an operation a crash interrupted: restore reserved_clusters, then\n"
"redo the hold (fill + punch) or the release.  Idempotent.\n";

static int simple_cmd(int argc, char **argv, const char *name, const char *help, int kind)
{
	struct opts o = { 0 };
	struct zn_hold_rec r;
	struct zn_mnt m;
	int c, err, have, did;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(NULL, 0), NULL)) != -1)
		if (!common_opt(c, &o))
			return ZN_EUSAGE;
	if (o.help)
		return fputs(help, stdout), 0;
	if ((err = need_dir(name, argc, argv, &o)))
		return err;
	if ((err = open_mnt(&o, &m, &r, &have, kind == 'r')))
		return err;
	if (kind == 'r') {
		/* no record: a hold file left without one is ours too */
		err = have ? zn_hold_release(&m, &r) : zn_hold_remove(&m);
		if (!err)
			print_hold(&o, &m, &r, 0);
	} else if (kind == 'c') {
		err = have ? zn_hold_recover(&m, &r, &did) : (did = 0, 0);
		if (!err && !o.porcelain)
			printf("%s: %s\n", o.dev, did ? "finished the interrupted operation" :
			       "nothing to recover");
		if (!err && o.porcelain)
			print_hold(&o, &m, &r, have && (!did || !r.releasing));
	} else {
		print_hold(&o, &m, &r, have);
	}
	zn_mnt_close(&m);
	return err;
}

int cmd_hold_release(int argc, char **argv)
{
	return simple_cmd(argc, argv, "hold-release", release_help, 'r');
}

int cmd_hold_status(int argc, char **argv)
{
	return simple_cmd(argc, argv, "hold-status", status_help, 's');
}

int cmd_hold_recover(int argc, char **argv)
{
	return simple_cmd(argc, argv, "hold-recover", recover_help, 'c');
}

/* ---- hold-monitor: the hold mechanism of the loop in cmd_monitor.c ---- */

/* One check on the mounted DIR: grow by punching only, shrink by a fill. */
int hold_monitor_tick(struct opts *o, uint64_t eb_bytes, uint64_t sa_bytes,
		      struct monitor_check *mc)
{
	struct zn_hold_stats st;
	struct zn_hold_rec r;
	struct zn_mnt m;
	uint64_t freeb, eb, sa, end, e;
	const char *action = "keep";
	int err, have;

	if ((err = open_mnt(o, &m, &r, &have, 1)))
		return err;
	if (!have) {
		err = zn_fail(ZN_ESTATE, "%s: hold-monitor needs a hold (run 'zonectl hold' first)",
			      o->dev);
		goto out;
	}
	eb = eb_bytes / m.block_size;
	sa = sa_bytes / m.block_size;
	end = r.end;
	if ((err = zn_mnt_free(&m, &freeb)))
		goto out;
	if (freeb < eb && r.end < m.blocks_count) {
		if ((err = zn_hold_edge(&m, r.end, eb - freeb, &e)))
			goto out;
		if (e > r.end) {
			action = "expand";
			end = e;
			if (!o->dry_run)
				err = zn_hold_apply(&m, &r, r.start, e, r.area_class, 0, &st);
		}
	} else if (freeb < eb && r.start > m.first_data_block) {
		/* an inner area ends at the fs end: grow its start outward */
		if ((err = zn_hold_edge_down(&m, r.start, eb - freeb, &e)))
			goto out;
		if (e < r.start) {
			action = "expand";
			if (!o->dry_run)
				err = zn_hold_apply(&m, &r, e, r.end, r.area_class, 0, &st);
			else
				r.start = e;
		}
	} else if (sa && freeb > sa && !o->dry_run) {
		if ((err = zn_hold_shrink(&m, &r, sa, &st)))
			goto out;
		action = r.end < end ? "shrink" : "keep";
		end = r.end;
	} else if (sa && freeb > sa) {
		action = "shrink";
	}
	/* the free count after the change; none, no line */
	if (!err && zn_mnt_free(&m, &freeb) == ZN_OK) {
		*mc = (struct monitor_check){ .action = action, .start = r.start, .end = end,
					       .free_blocks = freeb };
		snprintf(mc->said, sizeof(mc->said), "%s: %s: area [%llu, %llu), %.1f MiB free",
			 o->dev, action, (unsigned long long)r.start, (unsigned long long)end,
			 mnt_mib(&m, freeb));
	}
out:
	zn_mnt_close(&m);
	return err;
}
