// SPDX-License-Identifier: Apache-2.0
/* Option handling and state output shared by the zonectl commands. */
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

static const struct option common_long[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "porcelain", no_argument, NULL, 'p' },
	{ "journal", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
};

/* Build a long-option table: the command's own options + the common ones. */
struct option *longopts(const struct option *own, size_t n)
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

int common_opt(int c, struct opts *o)
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

int usage_err(const char *cmd, const char *what)
{
	return zn_fail(ZN_EUSAGE, "%s: %s", cmd, what);
}

/* The one operand left after the options: what the command works on. */
static int need_operand(const char *cmd, const char *what, int argc, char **argv,
			struct opts *o)
{
	if (optind != argc - 1)
		return usage_err(cmd, what);
	o->dev = argv[optind];
	return ZN_OK;
}

int need_dev(const char *cmd, int argc, char **argv, struct opts *o)
{
	return need_operand(cmd, "expected exactly one DEV (block device or image file)",
			    argc, argv, o);
}

int need_dir(const char *cmd, int argc, char **argv, struct opts *o)
{
	return need_operand(cmd, "expected exactly one DIR (mount point)", argc, argv, o);
}

double mib(const struct zn_fs *fs, uint64_t blocks)
{
	return (double)blocks * fs->block_size / (1024.0 * 1024.0);
}

/* Open the fs and its journal; writers refuse a pending journal. */
int open_both(struct opts *o, int writable, struct zn_fs *fs,
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

void print_state(struct opts *o, struct zn_fs *fs, struct zn_journal *j,
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
