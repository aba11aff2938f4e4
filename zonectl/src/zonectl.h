/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the zonectl command files: option handling and the output
 * every writer ends with.  Each cmd_*.c holds the policy of its commands;
 * the mechanism is the zn library (include/zn.h).
 */
#ifndef ZONECTL_H
#define ZONECTL_H

#include <getopt.h>
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
double mib(const struct zn_fs *fs, uint64_t blocks);
int open_both(struct opts *o, int writable, struct zn_fs *fs,
	      struct zn_journal *j, int *have_j);
void print_state(struct opts *o, struct zn_fs *fs, struct zn_journal *j,
		 int have_j);

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
