// SPDX-License-Identifier: Apache-2.0
/* Read-only commands: info (layout, split, free) and probe (seed Fig. 11). */
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

static const char info_help[] =
"usage: zonectl info DEV [--outer SIZE] [-p]\n"
"Show the file system's groups, their block and byte ranges, which side of\n"
"the outer/inner split they are on (default split: half the device), free\n"
"blocks and flags.  Read only.\n";

int cmd_info(int argc, char **argv)
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
	if (fs.cluster_ratio > 1)
		printf("bigalloc: a zonectl block is one cluster (one bitmap bit) of %u file system blocks of %u bytes\n",
		       fs.cluster_ratio, fs.block_size / fs.cluster_ratio);
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

static const char probe_help[] =
"usage: zonectl probe DEV [--points N] [--size SIZE] [--simulate MBPS] [-p]\n"
"Sequential read throughput at N evenly spaced addresses from the first\n"
"(outermost) to the last (innermost), SIZE each (default 16 points x 64M,\n"
"seed 002 §3.2 / Fig. 11).  O_DIRECT where the device allows it.  Read only.\n"
"--simulate MBPS: no I/O; print the zone model instead, MBPS at the outer\n"
"edge falling linearly to half of it at the inner edge (seed §3.2) - the\n"
"backend for images and loop devices, which have no zones.\n";

int cmd_probe(int argc, char **argv)
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
