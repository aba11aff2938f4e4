/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the zonectl command files: option handling and the output
 * every writer ends with.  Each cmd_*.c holds the policy of its commands;
 * the mechanism is the zn library (include/zn.h).
 */
#ifndef ZONECTL_H
#define ZONECTL_H

#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include "zn.h"

struct opts {
	int dry_run, porcelain, help;
	const char *journal;
	const char *dev;
};

#define COMMON_SHORT "npj:h"

struct option *longopts(const struct option *own, size_t n);
int common_opt(int c, struct opts *o);
int usage_err(const char *cmd, const char *what);
int need_dev(const char *cmd, int argc, char **argv, struct opts *o);
int need_dir(const char *cmd, int argc, char **argv, struct opts *o);
double mib(const struct zn_fs *fs, uint64_t blocks);
int open_both(struct opts *o, int writable, struct zn_fs *fs,
	      struct zn_journal *j, int *have_j);
void print_state(struct opts *o, struct zn_fs *fs, struct zn_journal *j,
		 int have_j);

/*
 * One check of the dynamic usable area (seed 002 §4.3), as a mechanism's
 * tick leaves it for the monitor loop (cmd_monitor.c) to print.  action is
 * NULL when the check has nothing to report.
 */
struct monitor_check {
	const char *action;	/* "expand", "shrink" or "keep" */
	uint64_t start, end;	/* the area after the check, in blocks */
	uint64_t free_blocks;	/* free blocks inside it */
	char said[PATH_MAX + 128];	/* the line without -p */
};

int zone_monitor_tick(struct opts *o, uint64_t expand_below, uint64_t shrink_above,
		      struct monitor_check *mc);
int zone_refuse_mounted(const struct opts *o, const char *mnt);
int hold_monitor_tick(struct opts *o, uint64_t expand_below, uint64_t shrink_above,
		      struct monitor_check *mc);

int cmd_info(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_reserve(int argc, char **argv);
int cmd_area(int argc, char **argv);
int cmd_release(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_recover(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_hold(int argc, char **argv);
int cmd_hold_release(int argc, char **argv);
int cmd_hold_status(int argc, char **argv);
int cmd_hold_recover(int argc, char **argv);
int cmd_hold_monitor(int argc, char **argv);

#endif /* ZONECTL_H */
