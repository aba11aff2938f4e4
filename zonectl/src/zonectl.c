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
#include <time.h>
#include <unistd.h>
#include "zonectl.h"

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
	{ "hold", cmd_hold, "online: keep new blocks in one area of a mounted ext4" },
	{ "hold-release", cmd_hold_release, "online: free every held block" },
	{ "hold-status", cmd_hold_status, "online: show the held area" },
	{ "hold-recover", cmd_hold_recover, "online: finish an interrupted hold operation" },
	{ "hold-monitor", cmd_hold_monitor, "online: expand/shrink the held area by free space" },
	{ "classify", cmd_classify, "temp or perm job from a df profile" },
	{ "probe", cmd_probe, "sequential throughput across the address range" },
};

static void main_help(FILE *out)
{
	size_t i;
	int e;

	fputs("usage: zonectl COMMAND [options] [DEV]   (zonectl COMMAND --help)\n\ncommands:\n", out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].what);
	fprintf(out, "\non-disk back end: %s\n", zn_backend());
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
