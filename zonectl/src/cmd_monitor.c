// SPDX-License-Identifier: Apache-2.0
/*
 * The dynamic usable area (seed 002 §4.3): one monitor loop over two
 * mechanisms.  monitor edits the block bitmaps of an unmounted DEV
 * (cmd_zone.c), hold-monitor moves the hold file of a mounted DIR
 * (cmd_hold.c).  The loop owns what both commands share: the thresholds,
 * the interval and count, and the line each check prints; a mechanism's
 * tick decides expand, shrink or keep on its own file system and applies it.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <time.h>
#include "zonectl.h"

struct monitor_mechanism {
	const char *command;
	const char *help;
	/* checks the one operand (DEV or DIR) and sets o->dev */
	int (*need_operand)(const char *cmd, int argc, char **argv, struct opts *o);
	int needs_shrink;	/* --shrink-above is required, not optional */
	const char *thresholds_usage;
	/* --mount DIR: refused while DIR is mounted; NULL: no such option */
	int (*refuse_mounted)(const struct opts *o, const char *mnt);
	int (*tick)(struct opts *o, uint64_t expand_below, uint64_t shrink_above,
		    struct monitor_check *mc);
};

enum { MONITOR_BITMAPS, MONITOR_HOLD };

static const struct monitor_mechanism monitors[] = {
	[MONITOR_BITMAPS] = {
		.command = "monitor",
		.help =
"usage: zonectl monitor DEV --expand-below FREE --shrink-above FREE\n"
"                       [--interval S] [--count N] [--mount DIR] [-n] [-p]\n"
"Dynamic usable area (seed 002 §4.3): every S seconds (default 5) count the\n"
"free space inside the reserved area; below FREE expand the area's end\n"
"until FREE is free, above the shrink threshold shrink it back to that much.\n"
"Needs an active reservation (its start stays).  --count N stops after N\n"
"checks (0 = forever).  On this kernel editing the bitmaps of a mounted\n"
"file system does not steer the ext4 driver, so DEV must be unmounted\n"
"between checks; --mount DIR is refused while DIR is mounted (docs/zone.md).\n",
		.need_operand = need_dev,
		.needs_shrink = 1,
		.thresholds_usage = "--expand-below FREE and --shrink-above FREE are required, shrink above expand",
		.refuse_mounted = zone_refuse_mounted,
		.tick = zone_monitor_tick,
	},
	[MONITOR_HOLD] = {
		.command = "hold-monitor",
		.help =
"usage: zonectl hold-monitor DIR --expand-below FREE [--shrink-above FREE]\n"
"                            [--interval S] [--count N] [-p] [--journal FILE]\n"
"Dynamic usable area (seed 002 §4.3) on a mounted file system with a hold:\n"
"every S seconds (default 5) read the free space (all of it lies in the\n"
"area); below FREE move the area's end inward until FREE is free - or its\n"
"start outward when the area already ends at the end of the file system -\n"
"(punch only: writers never see a full file system); above the shrink\n"
"threshold (if given) fill and give back only that much from the area's\n"
"start, which stays (the fill makes the file system full for a moment).\n"
"--count N stops after N checks (0 = forever).  -p prints per check:\n"
"  action=expand|shrink|keep start=B end=B free_blocks=N\n",
		.need_operand = need_dir,
		.needs_shrink = 0,
		.thresholds_usage = "--expand-below FREE is required; --shrink-above, if given, above it",
		.refuse_mounted = NULL,
		.tick = hold_monitor_tick,
	},
};

/* With -p the line a service parses, the same for both; else the mechanism's. */
static void report(const struct opts *o, const struct monitor_check *mc)
{
	if (o->porcelain)
		printf("action=%s start=%llu end=%llu free_blocks=%llu\n", mc->action,
		       (unsigned long long)mc->start, (unsigned long long)mc->end,
		       (unsigned long long)mc->free_blocks);
	else
		printf("%s\n", mc->said);
	fflush(stdout);
}

static int monitor_run(const struct monitor_mechanism *mech, int argc, char **argv)
{
	/* --mount last: only a mechanism that refuses a mounted DIR has it */
	static const struct option own[] = {
		{ "expand-below", required_argument, NULL, 'E' },
		{ "shrink-above", required_argument, NULL, 'S' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "mount", required_argument, NULL, 'm' },
	};
	size_t nown = mech->refuse_mounted ? 5 : 4;
	struct opts o = { 0 };
	uint64_t eb = 0, sa = 0;
	double interval = 5;
	long count = 0, n;
	const char *mnt = NULL;
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, nown), NULL)) != -1) {
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
		return fputs(mech->help, stdout), 0;
	if ((err = mech->need_operand(mech->command, argc, argv, &o)))
		return err;
	if (!eb || (sa ? sa <= eb : mech->needs_shrink))
		return usage_err(mech->command, mech->thresholds_usage);
	if (interval < 0 || count < 0)
		return usage_err(mech->command, "--interval and --count must not be negative");
	if (mnt && (err = mech->refuse_mounted(&o, mnt)))
		return err;
	for (n = 0; !count || n < count; n++) {
		struct monitor_check mc = { 0 };
		struct timespec ts;

		if (n) {
			ts.tv_sec = (time_t)interval;
			ts.tv_nsec = (long)((interval - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
		if ((err = mech->tick(&o, eb, sa, &mc)))
			return err;
		if (mc.action)
			report(&o, &mc);
	}
	return 0;
}

int cmd_monitor(int argc, char **argv)
{
	return monitor_run(&monitors[MONITOR_BITMAPS], argc, argv);
}

int cmd_hold_monitor(int argc, char **argv)
{
	return monitor_run(&monitors[MONITOR_HOLD], argc, argv);
}
