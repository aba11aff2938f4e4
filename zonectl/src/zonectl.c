// SPDX-License-Identifier: Apache-2.0
/*
 * zonectl - job-aware zone placement on ext2/ext3/ext4 (seed 002).
 *
 * Thin commands over the zn library: they decide which area is allowed
 * (policy); zn does the bitmap work (mechanism).  Exit codes are the zn
 * error codes (include/zn.h, docs/zone.md).  With -p (--porcelain) the
 * commands that a service calls print exactly one line of key=value pairs
 * on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include "zn.h"

struct opts {
	int dry_run, porcelain, help;
	const char *journal;
	const char *dev;
};

static const struct option common_long[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "porcelain", no_argument, NULL, 'p' },
	{ "journal", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
};

#define COMMON_SHORT "npj:h"

/* Build a long-option table: the command's own options + the common ones. */
static struct option *longopts(const struct option *own, size_t n)
{
	static struct option all[32];
	size_t i, k = 0;

	for (i = 0; i < n && k < 27; i++)
		all[k++] = own[i];
	for (i = 0; i < 4; i++)
		all[k++] = common_long[i];
	memset(&all[k], 0, sizeof(all[k]));
	return all;
}

static int common_opt(int c, struct opts *o)
{
	switch (c) {
	case 'n':
		o->dry_run = 1;
		return 1;
	case 'p':
		o->porcelain = 1;
		return 1;
	case 'j':
		o->journal = optarg;
		return 1;
	case 'h':
		o->help = 1;
		return 1;
	}
	return 0;
}

static int usage_err(const char *cmd, const char *what)
{
	return zn_fail(ZN_EUSAGE, "%s: %s", cmd, what);
}

static int need_dev(const char *cmd, int argc, char **argv, struct opts *o)
{
	if (optind != argc - 1)
		return usage_err(cmd, "expected exactly one DEV (block device or image file)");
	o->dev = argv[optind];
	return ZN_OK;
}

static double mib(const struct zn_fs *fs, uint64_t blocks)
{
	return (double)blocks * fs->block_size / (1024.0 * 1024.0);
}

/* Open the fs and its journal; writers refuse a pending journal. */
static int open_both(struct opts *o, int writable, struct zn_fs *fs,
		     struct zn_journal *j, int *have_j)
{
	char path[4096];
	int err = zn_open(fs, o->dev, writable && !o->dry_run);

	if (err)
		return err;
	err = zn_journal_path(fs, o->journal, path, sizeof(path));
	if (!err)
		err = zn_journal_load(fs, path, j, have_j);
	/* a crash may sit between a bitmap write and its checksum update */
	if (!err && *have_j && j->state == ZN_J_APPLYING)
		fs->trust_bitmaps = 1;
	if (err)
		zn_close(fs);
	return err;
}

static const char *class_name(uint32_t c)
{
	return c == ZN_CLASS_TEMP ? "temp" : c == ZN_CLASS_PERM ? "perm" : "none";
}

static void print_state(struct opts *o, struct zn_fs *fs, struct zn_journal *j,
			int have_j)
{
	uint64_t free_in = 0, start = 0, end = 0;
	const char *state = "none", *cls = "none";

	if (have_j && j->state == ZN_J_APPLYING)
		state = "interrupted";
	else if (have_j && j->end) {
		state = "reserved";
		cls = class_name(j->area_class);
		start = j->start;
		end = j->end;
	}
	if (end)
		zn_zone_free_in(fs, start, end, &free_in);
	else
		zn_zone_free_in(fs, 0, fs->blocks_count, &free_in);
	if (o->porcelain) {
		printf("state=%s class=%s start=%llu end=%llu block_size=%u free_blocks=%llu fs_free_blocks=%llu\n",
		       state, cls, (unsigned long long)start,
		       (unsigned long long)end, fs->block_size,
		       (unsigned long long)free_in,
		       (unsigned long long)fs->free_blocks);
		return;
	}
	if (!strcmp(state, "reserved"))
		printf("%s: allowed area blocks [%llu, %llu) = bytes [%llu, %llu), %.1f MiB free inside\n",
		       o->dev, (unsigned long long)start, (unsigned long long)end,
		       (unsigned long long)(start * fs->block_size),
		       (unsigned long long)(end * fs->block_size),
		       mib(fs, free_in));
	else if (!strcmp(state, "interrupted"))
		printf("%s: an operation was interrupted; run 'zonectl recover %s'\n",
		       o->dev, o->dev);
	else
		printf("%s: no reservation, %.1f MiB free\n", o->dev, mib(fs, free_in));
}

/* ---- info ---------------------------------------------------------- */

static const char info_help[] =
"usage: zonectl info DEV [--outer SIZE] [-p]\n"
"Show the file system's groups, their block and byte ranges, which side of\n"
"the outer/inner split they are on (default split: half the device), free\n"
"blocks and flags.  Read only.\n";

static int cmd_info(int argc, char **argv)
{
	static const struct option own[] = {
		{ "outer", required_argument, NULL, 'o' },
	};
	struct opts o = { 0 };
	struct zn_fs fs;
	uint64_t outer = 0, split;
	uint32_t g;
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT "o:", longopts(own, 1), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		if (c == 'o') {
			if (zn_parse_size(optarg, &outer))
				return ZN_EUSAGE;
			continue;
		}
		return ZN_EUSAGE;
	}
	if (o.help)
		return fputs(info_help, stdout), 0;
	if ((err = need_dev("info", argc, argv, &o)) || (err = zn_open(&fs, o.dev, 0)))
		return err;
	split = outer ? outer / fs.block_size : fs.blocks_count / 2;
	if (o.porcelain) {
		printf("kind=%s block_size=%u blocks=%llu groups=%u blocks_per_group=%u desc_size=%u free_blocks=%llu flex_bg=%d metadata_csum=%d gdt_csum=%d split=%llu\n",
		       zn_fs_kind(&fs), fs.block_size, (unsigned long long)fs.blocks_count,
		       fs.ngroups, fs.blocks_per_group, fs.desc_size,
		       (unsigned long long)fs.free_blocks,
		       !!(fs.incompat & ZN_INCOMPAT_FLEX_BG), zn_has_metadata_csum(&fs),
		       zn_has_gdt_csum(&fs), (unsigned long long)split);
		zn_close(&fs);
		return 0;
	}
	printf("%s: %s, %u-byte blocks, %llu blocks (%.1f MiB), %u groups of %u blocks\n",
	       o.dev, zn_fs_kind(&fs), fs.block_size, (unsigned long long)fs.blocks_count,
	       mib(&fs, fs.blocks_count), fs.ngroups, fs.blocks_per_group);
	printf("descriptors %u bytes%s%s%s, free blocks %llu, outer/inner split at block %llu\n",
	       fs.desc_size, fs.incompat & ZN_INCOMPAT_FLEX_BG ? ", flex_bg" : "",
	       zn_has_metadata_csum(&fs) ? ", metadata_csum" : "",
	       zn_has_gdt_csum(&fs) ? ", uninit_bg" : "",
	       (unsigned long long)fs.free_blocks, (unsigned long long)split);
	printf("%6s %12s %12s %14s %14s %5s %8s %s\n", "group", "first", "last",
	       "byte_start", "byte_end", "area", "free", "flags");
	for (g = 0; g < fs.ngroups; g++) {
		struct zn_group gi;
		uint64_t first = zn_group_first(&fs, g), n = zn_group_nblocks(&fs, g);

		zn_group_get(&fs, g, &gi);
		printf("%6u %12llu %12llu %14llu %14llu %5s %8u %s%s\n", g,
		       (unsigned long long)first, (unsigned long long)(first + n - 1),
		       (unsigned long long)(first * fs.block_size),
		       (unsigned long long)((first + n) * fs.block_size),
		       first < split ? "outer" : "inner", gi.free_blocks,
		       gi.flags & ZN_BG_BLOCK_UNINIT ? "BLOCK_UNINIT " : "",
		       gi.flags & ZN_BG_INODE_UNINIT ? "INODE_UNINIT" : "");
	}
	zn_close(&fs);
	return 0;
}

/* ---- reserve / area / release ---------------------------------------- */

static int run_apply(struct opts *o, uint64_t start, uint64_t end, uint32_t cls)
{
	struct zn_fs fs;
	struct zn_journal j;
	struct zn_plan_stats st;
	int have_j, err;

	err = open_both(o, 1, &fs, &j, &have_j);
	if (err)
		return err;
	if (end == UINT64_MAX)	/* "to the end of the device" */
		end = fs.blocks_count;
	if (start == UINT64_MAX)	/* "from the start" */
		start = fs.first_data_block;
	if (end > fs.blocks_count || (end && start >= end)) {
		err = zn_fail(ZN_ERANGE, "%s: requested area blocks [%llu, %llu) but the file system has blocks [%u, %llu)",
			      o->dev, (unsigned long long)start, (unsigned long long)end,
			      fs.first_data_block, (unsigned long long)fs.blocks_count);
		goto out;
	}
	/* the class is recorded with the next journal write, if any */
	if (j.end != end || j.start != start || !j.ngroups)
		j.area_class = cls;
	err = zn_zone_apply(&fs, &j, start, end, o->dry_run, &st);
	if (err)
		goto out;
	if (o->dry_run) {
		printf("%s: dry run: would mark %llu blocks in use and give back %llu, in %u groups\n",
		       o->dev, (unsigned long long)st.blocks_set,
		       (unsigned long long)st.blocks_cleared, st.groups_written);
		goto out;
	}
	if (!o->porcelain)
		printf("%s: marked %llu blocks in use, gave back %llu, %u groups written\n",
		       o->dev, (unsigned long long)st.blocks_set,
		       (unsigned long long)st.blocks_cleared, st.groups_written);
	print_state(o, &fs, &j, j.end != 0);
out:
	zn_journal_free(&j);
	zn_close(&fs);
	return err;
}

static const char reserve_help[] =
"usage: zonectl reserve DEV --keep-outer SIZE | --keep-inner SIZE | --groups A-B\n"
"                       [-n] [-p] [--journal FILE]\n"
"Allow new allocations only in one area: the first SIZE bytes (outer zone,\n"
"low addresses), the last SIZE bytes (inner zone), or groups A..B.  Blocks\n"
"outside are marked in use in the block bitmaps (seed 002 §4.3); the\n"
"original bitmaps are journalled first.  Reserving again moves the area.\n"
"DEV must not be mounted.  -n: show what would change, write nothing.\n";

static int parse_groups(const char *s, uint32_t *a, uint32_t *b)
{
	char *end;
	unsigned long x = strtoul(s, &end, 10), y;

	if (end == s || *end != '-')
		return zn_fail(ZN_EUSAGE, "--groups '%s': expected A-B", s);
	s = end + 1;
	y = strtoul(s, &end, 10);
	if (end == s || *end || y < x || y > UINT32_MAX)
		return zn_fail(ZN_EUSAGE, "--groups: expected A-B with A <= B");
	*a = (uint32_t)x;
	*b = (uint32_t)y;
	return ZN_OK;
}

static int cmd_reserve(int argc, char **argv)
{
	static const struct option own[] = {
		{ "keep-outer", required_argument, NULL, 'O' },
		{ "keep-inner", required_argument, NULL, 'I' },
		{ "groups", required_argument, NULL, 'G' },
	};
	struct opts o = { 0 };
	uint64_t size = 0;
	uint32_t ga = 0, gb = 0;
	int c, mode = 0, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 3), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		if (c != 'O' && c != 'I' && c != 'G')
			return ZN_EUSAGE;
		if (mode)
			return usage_err("reserve", "give only one of --keep-outer, --keep-inner, --groups");
		mode = c;
		err = c == 'G' ? parse_groups(optarg, &ga, &gb) : zn_parse_size(optarg, &size);
		if (err)
			return err;
	}
	if (o.help)
		return fputs(reserve_help, stdout), 0;
	if ((err = need_dev("reserve", argc, argv, &o)))
		return err;
	if (!mode)
		return usage_err("reserve", "one of --keep-outer SIZE, --keep-inner SIZE, --groups A-B is required");
	if (mode != 'G' && !size)
		return usage_err("reserve", "SIZE must be larger than 0");
	if (mode == 'G') {
		struct zn_fs fs;
		uint64_t s, e;

		if ((err = zn_open(&fs, o.dev, 0)))
			return err;
		if (gb >= fs.ngroups) {
			zn_close(&fs);
			return zn_fail(ZN_ERANGE, "%s: --groups %u-%u but the file system has groups 0-%u",
				       o.dev, ga, gb, fs.ngroups - 1);
		}
		s = zn_group_first(&fs, ga);
		e = zn_group_first(&fs, gb) + zn_group_nblocks(&fs, gb);
		zn_close(&fs);
		return run_apply(&o, s, e, 0);
	}
	{
		struct zn_fs fs;
		uint64_t blocks, s, e;

		if ((err = zn_open(&fs, o.dev, 0)))
			return err;
		blocks = size / fs.block_size;
		if (blocks == 0 || blocks > fs.blocks_count - fs.first_data_block) {
			zn_close(&fs);
			return zn_fail(ZN_ERANGE, "%s: %llu bytes is not between one block and the file system size %llu",
				       o.dev, (unsigned long long)size,
				       (unsigned long long)(fs.blocks_count * fs.block_size));
		}
		if (mode == 'O') {
			s = fs.first_data_block;
			e = s + blocks;
		} else {
			e = fs.blocks_count;
			s = e - blocks;
		}
		zn_close(&fs);
		return run_apply(&o, s, e, 0);
	}
}

static const char area_help[] =
"usage: zonectl area DEV --class temp|perm --outer SIZE [-n] [-p] [--journal FILE]\n"
"Job-aware placement (seed 002 §4.2): temp-file jobs may allocate only in the\n"
"outer area (the first SIZE bytes), perm-file jobs only in the inner area\n"
"(the rest).  Idempotent.  With -p prints one line:\n"
"  state=reserved class=temp start=B end=B block_size=N free_blocks=N fs_free_blocks=N\n"
"Exit 0 on success, else the code from 'zonectl --help'.\n";

static int cmd_area(int argc, char **argv)
{
	static const struct option own[] = {
		{ "class", required_argument, NULL, 'c' },
		{ "outer", required_argument, NULL, 'o' },
	};
	struct opts o = { 0 };
	const char *cls = NULL;
	uint64_t outer = 0;
	struct zn_fs fs;
	uint64_t split;
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 2), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		if (c == 'c')
			cls = optarg;
		else if (c == 'o') {
			if (zn_parse_size(optarg, &outer))
				return ZN_EUSAGE;
		} else {
			return ZN_EUSAGE;
		}
	}
	if (o.help)
		return fputs(area_help, stdout), 0;
	if ((err = need_dev("area", argc, argv, &o)))
		return err;
	if (!cls || (strcmp(cls, "temp") && strcmp(cls, "perm")))
		return usage_err("area", "--class must be temp or perm");
	if (!outer)
		return usage_err("area", "--outer SIZE (the outer area's size) is required");
	if ((err = zn_open(&fs, o.dev, 0)))
		return err;
	split = fs.first_data_block + outer / fs.block_size;
	if (split <= fs.first_data_block || split >= fs.blocks_count) {
		zn_close(&fs);
		return zn_fail(ZN_ERANGE, "%s: --outer %llu bytes leaves no inner or no outer area (fs is %llu bytes)",
			       o.dev, (unsigned long long)outer,
			       (unsigned long long)(fs.blocks_count * fs.block_size));
	}
	zn_close(&fs);
	if (!strcmp(cls, "temp"))
		return run_apply(&o, UINT64_MAX, split, ZN_CLASS_TEMP);
	return run_apply(&o, split, UINT64_MAX, ZN_CLASS_PERM);
}

static const char release_help[] =
"usage: zonectl release DEV [-n] [-p] [--journal FILE]\n"
"Give back every block a reservation marked in use; blocks the file system\n"
"allocated or freed meanwhile stay as they are.  Groups that were\n"
"BLOCK_UNINIT and are untouched get their flag back.  No reservation: exit 0.\n";

static int cmd_release(int argc, char **argv)
{
	struct opts o = { 0 };
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(NULL, 0), NULL)) != -1)
		if (!common_opt(c, &o))
			return ZN_EUSAGE;
	if (o.help)
		return fputs(release_help, stdout), 0;
	if ((err = need_dev("release", argc, argv, &o)))
		return err;
	return run_apply(&o, 0, 0, 0);
}

/* ---- status / recover ----------------------------------------------- */

static const char status_help[] =
"usage: zonectl status DEV [-p] [--journal FILE]\n"
"Show the active reservation (allowed block range, free blocks inside), or\n"
"that an interrupted operation needs 'recover'.  Read only.\n"
"With -p: state=none|reserved|interrupted class=none start=B end=B ...\n";

static int cmd_status(int argc, char **argv)
{
	struct opts o = { 0 };
	struct zn_fs fs;
	struct zn_journal j;
	int c, err, have_j;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(NULL, 0), NULL)) != -1)
		if (!common_opt(c, &o))
			return ZN_EUSAGE;
	if (o.help)
		return fputs(status_help, stdout), 0;
	if ((err = need_dev("status", argc, argv, &o)))
		return err;
	if ((err = open_both(&o, 0, &fs, &j, &have_j)))
		return err;
	print_state(&o, &fs, &j, have_j);
	zn_journal_free(&j);
	zn_close(&fs);
	return 0;
}

static const char recover_help[] =
"usage: zonectl recover DEV [-n] [--journal FILE]\n"
"After a crash: finish an interrupted release, or undo an interrupted\n"
"reserve/area/monitor step (back to the area before it).  Idempotent; does\n"
"nothing when no operation was interrupted.  A journal written for another\n"
"file system (UUID mismatch) is refused.\n";

static int cmd_recover(int argc, char **argv)
{
	struct opts o = { 0 };
	struct zn_fs fs;
	struct zn_journal j;
	int c, err, have_j;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(NULL, 0), NULL)) != -1)
		if (!common_opt(c, &o))
			return ZN_EUSAGE;
	if (o.help)
		return fputs(recover_help, stdout), 0;
	if ((err = need_dev("recover", argc, argv, &o)))
		return err;
	if ((err = open_both(&o, 1, &fs, &j, &have_j)))
		return err;
	if (!have_j || j.state != ZN_J_APPLYING) {
		printf("%s: nothing to recover\n", o.dev);
	} else if (o.dry_run) {
		printf("%s: dry run: would %s the interrupted operation on %u groups\n",
		       o.dev, j.releasing ? "finish" : "undo", j.ngroups);
	} else {
		err = zn_zone_recover(&fs, &j);
		if (!err)
			printf("%s: %s the interrupted operation\n", o.dev,
			       j.releasing ? "finished" : "undid");
	}
	zn_journal_free(&j);
	zn_close(&fs);
	return err;
}

/* ---- monitor -------------------------------------------------------- */

static const char monitor_help[] =
"usage: zonectl monitor DEV --expand-below FREE --shrink-above FREE\n"
"                       [--interval S] [--count N] [--mount DIR] [-n] [-p]\n"
"Dynamic usable area (seed 002 §4.3): every S seconds (default 5) count the\n"
"free space inside the reserved area; below FREE expand the area's end\n"
"until FREE is free, above the shrink threshold shrink it back to that much.\n"
"Needs an active reservation (its start stays).  --count N stops after N\n"
"checks (0 = forever).  On this kernel editing the bitmaps of a mounted\n"
"file system does not steer the ext4 driver, so DEV must be unmounted\n"
"between checks; --mount DIR is refused while DIR is mounted (docs/zone.md).\n";

static int monitor_tick(struct opts *o, uint64_t expand_below, uint64_t shrink_above)
{
	struct zn_fs fs;
	struct zn_journal j;
	struct zn_plan_stats st;
	uint64_t free_in, want, end, eb, sa;
	const char *action = "keep";
	int err, have_j;

	if ((err = open_both(o, 1, &fs, &j, &have_j)))
		return err;
	if (!have_j || !j.end) {
		err = zn_fail(ZN_ESTATE, "%s: monitor needs an active reservation (run 'zonectl reserve' or 'area' first)",
			      o->dev);
		goto out;
	}
	eb = expand_below / fs.block_size;
	sa = shrink_above / fs.block_size;
	if ((err = zn_zone_free_in(&fs, j.start, j.end, &free_in)))
		goto out;
	end = j.end;
	if (free_in < eb) {
		want = eb;
		action = "expand";
	} else if (free_in > sa) {
		want = sa;
		action = "shrink";
	} else {
		want = 0;
	}
	if (want) {
		uint64_t e;

		if ((err = zn_zone_find_end(&fs, &j, j.start, want, &e)))
			goto out;
		if ((*action == 'e' && e > end) || (*action == 's' && e < end))
			end = e;
		else
			action = "keep";
	}
	if (end != j.end && !o->dry_run)
		err = zn_zone_apply(&fs, &j, j.start, end, 0, &st);
	if (!err) {
		if (o->porcelain)
			printf("action=%s start=%llu end=%llu free_blocks=%llu\n", action,
			       (unsigned long long)j.start, (unsigned long long)end,
			       (unsigned long long)free_in);
		else
			printf("%s: %.1f MiB free in area, %s: end %llu -> %llu\n", o->dev,
			       mib(&fs, free_in), action, (unsigned long long)j.end,
			       (unsigned long long)end);
		fflush(stdout);
	}
out:
	zn_journal_free(&j);
	zn_close(&fs);
	return err;
}

static int cmd_monitor(int argc, char **argv)
{
	static const struct option own[] = {
		{ "expand-below", required_argument, NULL, 'E' },
		{ "shrink-above", required_argument, NULL, 'S' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "mount", required_argument, NULL, 'm' },
	};
	struct opts o = { 0 };
	uint64_t eb = 0, sa = 0;
	long count = 0, n;
	double interval = 5;
	const char *mnt = NULL;
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 5), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		switch (c) {
		case 'E':
			if (zn_parse_size(optarg, &eb))
				return ZN_EUSAGE;
			break;
		case 'S':
			if (zn_parse_size(optarg, &sa))
				return ZN_EUSAGE;
			break;
		case 'i':
			interval = atof(optarg);
			break;
		case 'c':
			count = atol(optarg);
			break;
		case 'm':
			mnt = optarg;
			break;
		default:
			return ZN_EUSAGE;
		}
	}
	if (o.help)
		return fputs(monitor_help, stdout), 0;
	if ((err = need_dev("monitor", argc, argv, &o)))
		return err;
	if (!eb || !sa || sa <= eb)
		return usage_err("monitor", "--expand-below FREE and --shrink-above FREE are required, shrink above expand");
	if (interval < 0 || count < 0)
		return usage_err("monitor", "--interval and --count must not be negative");
	if (mnt) {
		struct stat a, b;
		char parent[PATH_MAX];

		snprintf(parent, sizeof(parent), "%s/..", mnt);
		if (stat(mnt, &a) || stat(parent, &b))
			return zn_fail(ZN_EUSAGE, "--mount %s: %s", mnt, strerror(errno));
		if (a.st_dev != b.st_dev || a.st_ino == b.st_ino)
			return zn_fail(ZN_EMOUNTED, "--mount %s: %s is mounted there; online bitmap edits do not steer this kernel's ext4 allocator and raise EXT4-fs errors",
				       mnt, o.dev);
	}
	for (n = 0; !count || n < count; n++) {
		struct timespec ts;

		if (n) {
			ts.tv_sec = (time_t)interval;
			ts.tv_nsec = (long)((interval - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
		err = monitor_tick(&o, eb, sa);
		if (err)
			return err;
	}
	return 0;
}

/* ---- classify ------------------------------------------------------- */

static const char classify_help[] =
"usage: zonectl classify --profile FILE [--beta 0.1] [-p]\n"
"Classify a job from its disk-usage profile (seed 002 §4.1): repeated 'df'\n"
"output, 'TIME USED' pairs, or one USED per line, sampled from before the\n"
"job starts until after it ends.  temp if used-after < beta x max-used,\n"
"else perm.  Prints 'temp' or 'perm' (with -p: class=... max=... after=...).\n";

static int cmd_classify(int argc, char **argv)
{
	static const struct option own[] = {
		{ "profile", required_argument, NULL, 'f' },
		{ "beta", required_argument, NULL, 'b' },
	};
	struct opts o = { 0 };
	const char *prof = NULL;
	double beta = 0.1, max, after;
	enum zn_class cls;
	char why[160];
	FILE *f;
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 2), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		if (c == 'f') {
			prof = optarg;
		} else if (c == 'b') {
			char *end;

			beta = strtod(optarg, &end);
			if (*end || beta <= 0 || beta >= 1)
				return usage_err("classify", "--beta must be a number in (0, 1)");
		} else {
			return ZN_EUSAGE;
		}
	}
	if (o.help)
		return fputs(classify_help, stdout), 0;
	if (!prof || optind != argc)
		return usage_err("classify", "--profile FILE is required ('-' for stdin)");
	f = strcmp(prof, "-") ? fopen(prof, "r") : stdin;
	if (!f)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EUSAGE, "--profile %s: %s",
			       prof, strerror(errno));
	err = zn_classify(f, beta, &cls, &max, &after, why, sizeof(why));
	if (f != stdin)
		fclose(f);
	if (err)
		return err;
	if (o.porcelain)
		printf("class=%s max=%.0f after=%.0f beta=%g\n",
		       cls == ZN_CLASS_TEMP ? "temp" : "perm", max, after, beta);
	else
		printf("%s (%s)\n", cls == ZN_CLASS_TEMP ? "temp" : "perm", why);
	return 0;
}

/* ---- probe ---------------------------------------------------------- */

static const char probe_help[] =
"usage: zonectl probe DEV [--points N] [--size SIZE] [--simulate MBPS] [-p]\n"
"Sequential read throughput at N evenly spaced addresses from the first\n"
"(outermost) to the last (innermost), SIZE each (default 16 points x 64M,\n"
"seed 002 §3.2 / Fig. 11).  O_DIRECT where the device allows it.  Read only.\n"
"--simulate MBPS: no I/O; print the zone model instead, MBPS at the outer\n"
"edge falling linearly to half of it at the inner edge (seed §3.2) - the\n"
"backend for images and loop devices, which have no zones.\n";

static int cmd_probe(int argc, char **argv)
{
	static const struct option own[] = {
		{ "points", required_argument, NULL, 'P' },
		{ "size", required_argument, NULL, 's' },
		{ "simulate", required_argument, NULL, 'S' },
	};
	struct opts o = { 0 };
	uint64_t size = 64ull << 20, devsize;
	double sim = 0;
	long points = 16, i;
	void *buf;
	int c, err, fd, direct = 1;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 3), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		if (c == 'S') {
			sim = atof(optarg);
			if (sim <= 0)
				return usage_err("probe", "--simulate MBPS must be positive");
		} else if (c == 'P')
			points = atol(optarg);
		else if (c == 's') {
			if (zn_parse_size(optarg, &size))
				return ZN_EUSAGE;
		} else {
			return ZN_EUSAGE;
		}
	}
	if (o.help)
		return fputs(probe_help, stdout), 0;
	if ((err = need_dev("probe", argc, argv, &o)))
		return err;
	if (points < 2 || size < 4096)
		return usage_err("probe", "--points >= 2 and --size >= 4K");
	size &= ~(uint64_t)4095;
	fd = open(o.dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL) {
		direct = 0;
		fd = open(o.dev, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EIO, "%s: %s", o.dev, strerror(errno));
	devsize = (uint64_t)lseek(fd, 0, SEEK_END);
	if (devsize < size) {
		close(fd);
		return zn_fail(ZN_ERANGE, "%s: %llu bytes is smaller than one probe of %llu",
			       o.dev, (unsigned long long)devsize, (unsigned long long)size);
	}
	if (sim) {
		if (!o.porcelain)
			printf("%14s %10s   (zone model)\n", "offset", "MB/s");
		for (i = 0; i < points; i++) {
			uint64_t off = ((devsize - size) / (uint64_t)(points - 1) * (uint64_t)i) &
				       ~(uint64_t)4095;
			double mbps = sim * (1.0 - 0.5 * (double)off / (double)devsize);

			printf(o.porcelain ? "offset=%llu mbps=%.1f\n" : "%14llu %10.1f\n",
			       (unsigned long long)off, mbps);
		}
		close(fd);
		return 0;
	}
	if (posix_memalign(&buf, 4096, 1 << 20)) {
		close(fd);
		return zn_fail(ZN_EIO, "out of memory");
	}
	if (!o.porcelain)
		printf("%14s %10s   (%s)\n", "offset", "MB/s", direct ? "O_DIRECT" : "buffered");
	for (i = 0; i < points; i++) {
		uint64_t off = ((devsize - size) / (uint64_t)(points - 1) * (uint64_t)i) & ~(uint64_t)4095;
		uint64_t done = 0;
		struct timespec t0, t1;
		double secs;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (done < size) {
			size_t chunk = size - done < (1 << 20) ? (size_t)(size - done) : (1 << 20);
			ssize_t r = pread(fd, buf, chunk, (off_t)(off + done));

			if (r <= 0) {
				free(buf);
				close(fd);
				return zn_fail(ZN_EIO, "%s: read at %llu", o.dev,
					       (unsigned long long)(off + done));
			}
			done += (uint64_t)r;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (o.porcelain)
			printf("offset=%llu mbps=%.1f\n", (unsigned long long)off, (double)size / 1e6 / secs);
		else
			printf("%14llu %10.1f\n", (unsigned long long)off, (double)size / 1e6 / secs);
	}
	free(buf);
	close(fd);
	return 0;
}

/* ---- bench ---------------------------------------------------------- */

static int cmd_bench(int argc, char **argv)
{
	char exe[PATH_MAX], script[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("ZONECTL_BENCH");
	char *slash;

	(void)argc;
	if (env) {
		snprintf(script, sizeof(script), "%s", env);
	} else {
		if (n <= 0)
			return zn_fail(ZN_EIO, "cannot find my own path");
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(script, sizeof(script), "%s/bench/run", exe);
	}
	argv[0] = script;
	execv(script, argv);
	return zn_fail(ZN_EIO, "bench: cannot run %s (%s)", script, strerror(errno));
}

/* ---- main ----------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *what;
} commands[] = {
	{ "info", cmd_info, "groups, block/byte ranges, outer/inner split, free blocks" },
	{ "reserve", cmd_reserve, "allow allocations only in one area" },
	{ "release", cmd_release, "give back everything a reservation took" },
	{ "status", cmd_status, "show the active reservation" },
	{ "recover", cmd_recover, "finish or undo an interrupted operation" },
	{ "monitor", cmd_monitor, "expand/shrink the usable area by free space" },
	{ "area", cmd_area, "job-aware: temp jobs outer area, perm jobs inner" },
	{ "classify", cmd_classify, "temp or perm job from a df profile" },
	{ "probe", cmd_probe, "sequential throughput across the address range" },
	{ "bench", cmd_bench, "replay seed 002's job set (bench/run --help)" },
};

static void main_help(FILE *out)
{
	size_t i;
	int e;

	fputs("usage: zonectl COMMAND [options] [DEV]   (zonectl COMMAND --help)\n\ncommands:\n", out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].what);
	fputs("\nexit codes:\n", out);
	for (e = 0; e < ZN_ERRMAX; e++)
		fprintf(out, "  %2d  %s\n", e, zn_strerror(e));
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		main_help(argc < 2 ? stderr : stdout);
		return argc < 2 ? ZN_EUSAGE : 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);

			return rc;
		}
	main_help(stderr);
	return zn_fail(ZN_EUSAGE, "unknown command '%s'", argv[1]);
}
