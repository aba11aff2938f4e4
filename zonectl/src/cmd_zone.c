// SPDX-License-Identifier: Apache-2.0
/*
 * Commands that move the allowed area: reserve, area (job-aware, seed
 * §4.2), release, status, recover; and the bitmap mechanism of monitor
 * (dynamic usable area, §4.3), whose loop is cmd_monitor.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "zonectl.h"

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

int cmd_reserve(int argc, char **argv)
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

int cmd_area(int argc, char **argv)
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

int cmd_release(int argc, char **argv)
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

int cmd_status(int argc, char **argv)
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

int cmd_recover(int argc, char **argv)
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

/* ---- monitor: the bitmap mechanism of the loop in cmd_monitor.c ------ */

/* One check on the unmounted DEV: the reserved area's end moves, its start stays. */
int zone_monitor_tick(struct opts *o, uint64_t expand_below, uint64_t shrink_above,
		      struct monitor_check *mc)
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
		*mc = (struct monitor_check){ .action = action, .start = j.start, .end = end,
					       .free_blocks = free_in };
		snprintf(mc->said, sizeof(mc->said), "%s: %.1f MiB free in area, %s: end %llu -> %llu",
			 o->dev, mib(&fs, free_in), action, (unsigned long long)j.end,
			 (unsigned long long)end);
	}
out:
	zn_journal_free(&j);
	zn_close(&fs);
	return err;
}

/* monitor --mount DIR: bitmap edits do not steer a mounted ext4 (docs/zone.md). */
int zone_refuse_mounted(const struct opts *o, const char *mnt)
{
	struct stat a, b;
	char parent[PATH_MAX];

	snprintf(parent, sizeof(parent), "%s/..", mnt);
	if (stat(mnt, &a) || stat(parent, &b))
		return zn_fail(ZN_EUSAGE, "--mount %s: %s", mnt, strerror(errno));
	if (a.st_dev != b.st_dev || a.st_ino == b.st_ino)
		return zn_fail(ZN_EMOUNTED, "--mount %s: %s is mounted there; online bitmap edits do not steer this kernel's ext4 allocator and raise EXT4-fs errors",
			       mnt, o->dev);
	return ZN_OK;
}
