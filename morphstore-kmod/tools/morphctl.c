// SPDX-License-Identifier: Apache-2.0
/*
 * morphctl - the MorphStore planner and control tool.
 *
 *   morphctl status MOUNTPOINT
 *   morphctl plan --stats FILE.csv --capacity BYTES --devices N
 *   morphctl plan MOUNTPOINT --capacity BYTES
 *   morphctl apply MOUNTPOINT --capacity BYTES [--wait SECONDS]
 *   morphctl replicas FILE [N]
 *
 * The planner is the core's UDR (core/udr.c); this tool only gathers the
 * statistics (a CSV file or a mounted volume's files) and applies the
 * result by writing each file's user.morphstore.replicas attribute; the
 * mounted front end then copies or removes replicas in the background,
 * throttled by its replicate_bps option.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include "../core/udr.h"
#include "../include/morphstore_format.h"
#include "../lib/uenv.h"

struct entry {
	char *path;
	u32 current;	/* copies wanted now (mounted volumes only) */
};

static struct entry *entries;
static struct morph_udr_file *files;
static u32 nfiles, cap_files;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("morphctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void usage(FILE *to)
{
	fputs("usage:\n"
	      "  morphctl status MOUNTPOINT\n"
	      "      per device: load, bound files, free bytes, state (up, lost, behind);\n"
	      "      per file: copies wanted and current, devices, reads, writes\n"
	      "  morphctl plan --stats FILE.csv --capacity BYTES --devices N\n"
	      "      UDR plan (seed 001 Algorithm 1) of a CSV 'path,size,reads,writes'\n"
	      "      (a header line naming those columns is allowed); prints\n"
	      "      'path replicas utility', one decision per line, in decision order\n"
	      "  morphctl plan MOUNTPOINT --capacity BYTES\n"
	      "      the same from the statistics a mounted volume has recorded\n"
	      "  morphctl apply MOUNTPOINT --capacity BYTES [--wait SECONDS]\n"
	      "      plan, then set every file's copy count; replicas are created and\n"
	      "      removed in the background (throttled); --wait waits for that\n"
	      "  morphctl replicas FILE [N]\n"
	      "      show, or set, the copies wanted for one file of a mounted volume\n"
	      "\n"
	      "BYTES accepts a K, M, G or T suffix (powers of 1024); the capacity is the\n"
	      "space replicas may use beyond the masters.\n", to);
}

static int parse_u64(const char *s, u64 *out, int suffix)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (suffix && *end) {
		static const char units[] = "KMGT";
		const char *u = strchr(units, *end);

		if (!u || end[1])
			return -1;
		for (int i = 0; i <= u - units; i++) {
			if (v > ~0ull / 1024)
				return -1;
			v *= 1024;
		}
		end++;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static void add_file(const char *path, u64 size, u64 reads, u64 writes,
		     u32 current)
{
	if (nfiles == cap_files) {
		cap_files = cap_files ? 2 * cap_files : 256;
		entries = realloc(entries, cap_files * sizeof(*entries));
		files = realloc(files, cap_files * sizeof(*files));
		if (!entries || !files)
			die("out of memory reading %u files", nfiles);
	}
	entries[nfiles].path = strdup(path);
	entries[nfiles].current = current;
	files[nfiles].size = size;
	files[nfiles].reads = reads;
	files[nfiles].writes = writes;
	nfiles++;
}

/* path,size,reads,writes; the path may itself contain commas */
static void read_csv(const char *name)
{
	FILE *f = fopen(name, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;

	if (!f)
		die("cannot open stats file %s: %s", name, strerror(errno));
	while ((n = getline(&line, &cap, f)) >= 0) {
		static const char *const col[] = { "writes", "reads", "size" };
		u64 v[3];
		char *comma;
		int i;

		lineno++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (!n)
			continue;
		if (lineno == 1 && !strcmp(line, "path,size,reads,writes"))
			continue;
		for (i = 0; i < 3; i++) {
			comma = strrchr(line, ',');
			if (!comma)
				die("%s:%lu: expected 4 fields 'path,size,reads,writes', found %d: \"%s\"",
				    name, lineno, i + 1, line);
			if (parse_u64(comma + 1, &v[i], 0))
				die("%s:%lu: field '%s' is \"%s\", expected a non-negative integer",
				    name, lineno, col[i], comma + 1);
			*comma = 0;
		}
		if (!*line)
			die("%s:%lu: field 'path' is empty", name, lineno);
		add_file(line, v[2], v[1], v[0], 1);
	}
	free(line);
	fclose(f);
	if (!nfiles)
		die("stats file %s has no rows; expected lines 'path,size,reads,writes'",
		    name);
}

/* the volume attribute of a mount point, or die naming what to do */
static char *volume_info(const char *mnt)
{
	static char buf[65536];
	ssize_t n = getxattr(mnt, MORPH_XATTR_VOLUME, buf, sizeof(buf) - 1);

	if (n < 0)
		die("%s is not a mounted MorphStore volume (no %s attribute: %s); mount it with 'morphstore-fuse -o lower=DIR0:DIR1:... %s' and give the mount point itself",
		    mnt, MORPH_XATTR_VOLUME, strerror(errno), mnt);
	buf[n] = 0;
	return buf;
}

static u32 volume_devices(const char *info)
{
	const char *p = strstr(info, "devices=");

	return p ? (u32)strtoul(p + 8, NULL, 10) : 0;
}

static const char *walk_root;

static int status_field(const char *status, const char *key, u64 *v)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=", key);
	p = strstr(status, pat);
	if (!p)
		return -1;
	*v = strtoull(p + strlen(pat), NULL, 10);
	return 0;
}

static void collect(const char *path, const struct stat *sb)
{
	char status[512];
	ssize_t n;
	u64 reads = 0, writes = 0, wanted = 1;

	if (!S_ISREG(sb->st_mode))
		return;
	n = getxattr(path, MORPH_XATTR_STATUS, status, sizeof(status) - 1);
	if (n < 0) {
		fprintf(stderr, "morphctl: skipping %s: cannot read %s: %s\n",
			path, MORPH_XATTR_STATUS, strerror(errno));
		return;
	}
	status[n] = 0;
	status_field(status, "reads", &reads);
	status_field(status, "writes", &writes);
	status_field(status, "wanted", &wanted);
	add_file(path + strlen(walk_root), (u64)sb->st_size, reads, writes,
		 (u32)wanted);
}

/*
 * Every file below @dir.  An entry that cannot be examined is reported and
 * skipped, not fatal: on a degraded volume a file whose only copy is on a
 * lost device fails with EIO (nftw would stop there).
 */
static void walk(const char *dir, dev_t dev)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "morphctl: skipping %s: %s\n", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		struct stat sb;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (lstat(path, &sb)) {
			fprintf(stderr, "morphctl: skipping %s: %s\n", path,
				strerror(errno));
			continue;
		}
		if (S_ISDIR(sb.st_mode) && sb.st_dev == dev)
			walk(path, dev);
		else
			collect(path, &sb);
	}
	closedir(d);
}

static u32 read_volume(const char *mnt)
{
	u32 ndev = volume_devices(volume_info(mnt));
	struct stat sb;

	walk_root = mnt;
	if (lstat(mnt, &sb))
		die("cannot walk %s: %s", mnt, strerror(errno));
	walk(mnt, sb.st_dev);
	return ndev;
}

/* the value of @key= in the first line of the volume attribute, or "-" */
static const char *volume_field(const char *info, const char *key,
				char *buf, size_t len)
{
	const char *eol = strchr(info, '\n'), *p;
	char pat[32];

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(info, pat);
	if (len < 32 || !p || (eol && p > eol) ||
	    sscanf(p + strlen(pat), "%31s", buf) != 1)
		snprintf(buf, len, "-");
	return buf;
}

static void print_utility(struct morph_utility u)
{
	s64 whole = u.num / u.den, frac = u.num % u.den;

	if (!frac) {
		printf("%lld", (long long)whole);
		return;
	}
	printf("%.3f", (double)u.num / u.den);
}

static struct morph_udr_step *run_plan(u32 ndev, u64 capacity, u32 *nsteps,
				       u64 *used)
{
	struct morph_env env;
	struct morph_udr_step *steps;
	int ret;

	morph_uenv_init(&env, 1);
	steps = calloc((size_t)nfiles * ndev + 1, sizeof(*steps));
	if (!steps)
		die("out of memory planning %u files", nfiles);
	ret = morph_udr_plan(&env, files, nfiles, ndev, capacity, steps,
			     nsteps, used);
	if (ret)
		die("planning failed: %s (devices %u, expected 1..%d)",
		    morph_strerror(ret), ndev, MORPH_MAX_DEVICES);
	return steps;
}

static void print_plan(u32 ndev, u64 capacity)
{
	u32 n, i;
	u64 used;
	struct morph_udr_step *s = run_plan(ndev, capacity, &n, &used);

	for (i = 0; i < n; i++) {
		printf("%s %u ", entries[s[i].file].path, s[i].replicas);
		print_utility(s[i].utility);
		putchar('\n');
	}
	fprintf(stderr, "morphctl: %u decisions, %llu of %llu bytes used\n", n,
		(unsigned long long)used, (unsigned long long)capacity);
	free(s);
}

static int all_settled(const char *mnt)
{
	u32 i;

	for (i = 0; i < nfiles; i++) {
		char path[PATH_MAX], status[512];
		u64 copies = 0, wanted = 0;
		ssize_t n;

		snprintf(path, sizeof(path), "%s%s", mnt, entries[i].path);
		n = getxattr(path, MORPH_XATTR_STATUS, status, sizeof(status) - 1);
		if (n < 0)
			continue;
		status[n] = 0;
		status_field(status, "copies", &copies);
		status_field(status, "wanted", &wanted);
		if (copies != wanted)
			return 0;
	}
	return 1;
}

static int cmd_apply(const char *mnt, u64 capacity, long wait_s)
{
	u32 ndev = read_volume(mnt), n, i, changed = 0, failed = 0;
	u64 used;
	struct morph_udr_step *s = run_plan(ndev, capacity, &n, &used);
	time_t deadline = time(NULL) + wait_s;

	for (i = 0; i < nfiles; i++) {
		char path[PATH_MAX], val[16];

		if (files[i].replicas == entries[i].current)
			continue;
		snprintf(path, sizeof(path), "%s%s", mnt, entries[i].path);
		snprintf(val, sizeof(val), "%u", files[i].replicas);
		if (setxattr(path, MORPH_XATTR_REPLICAS, val, strlen(val), 0)) {
			fprintf(stderr, "morphctl: cannot set %s of %s to %s: %s\n",
				MORPH_XATTR_REPLICAS, path, val, strerror(errno));
			failed++;
			continue;
		}
		printf("%s %u -> %u\n", entries[i].path, entries[i].current,
		       files[i].replicas);
		changed++;
	}
	printf("%u files changed, %llu of %llu bytes of replica capacity planned\n",
	       changed, (unsigned long long)used, (unsigned long long)capacity);
	free(s);
	if (failed)
		return 1;
	while (wait_s > 0 && !all_settled(mnt)) {
		if (time(NULL) >= deadline) {
			fprintf(stderr, "morphctl: replication of %s not finished after %ld s; it continues in the background ('morphctl status %s' shows progress)\n",
				mnt, wait_s, mnt);
			return 1;
		}
		usleep(100000);
	}
	return 0;
}

static int cmd_status(const char *mnt)
{
	char *info = volume_info(mnt);
	u32 i;

	char lost[32], behind[32];

	fputs(info, stdout);
	if (strcmp(volume_field(info, "lost", lost, sizeof(lost)), "-"))
		printf("DEGRADED: devices %s lost; a file whose master is there is read-only, one whose only copy is there fails with EIO; mount the volume again once they are back to repair them\n",
		       lost);
	else if (strcmp(volume_field(info, "behind", behind, sizeof(behind)), "-"))
		printf("REPAIRING: devices %s missed changes while lost; their copies are being brought up to date\n",
		       behind);
	read_volume(mnt);
	printf("%-40s %6s %6s %-12s %10s %10s\n", "path", "wanted", "copies",
	       "devices", "reads", "writes");
	for (i = 0; i < nfiles; i++) {
		char path[PATH_MAX], status[512], devs[128] = "-";
		u64 copies = 0, reads = 0, writes = 0;
		const char *p;
		ssize_t n;

		snprintf(path, sizeof(path), "%s%s", mnt, entries[i].path);
		n = getxattr(path, MORPH_XATTR_STATUS, status, sizeof(status) - 1);
		if (n < 0)
			continue;
		status[n] = 0;
		status_field(status, "copies", &copies);
		status_field(status, "reads", &reads);
		status_field(status, "writes", &writes);
		p = strstr(status, "devices=");
		if (p)
			sscanf(p + 8, "%127s", devs);
		printf("%-40s %6u %6llu %-12s %10llu %10llu\n", entries[i].path,
		       entries[i].current, (unsigned long long)copies, devs,
		       (unsigned long long)reads, (unsigned long long)writes);
	}
	return 0;
}

static int cmd_replicas(int argc, char **argv)
{
	char buf[16];
	ssize_t n;

	if (argc == 3) {
		n = getxattr(argv[2], MORPH_XATTR_REPLICAS, buf, sizeof(buf) - 1);
		if (n < 0)
			die("cannot read %s of %s: %s (is it a regular file on a mounted MorphStore volume?)",
			    MORPH_XATTR_REPLICAS, argv[2], strerror(errno));
		printf("%.*s\n", (int)n, buf);
		return 0;
	}
	if (setxattr(argv[2], MORPH_XATTR_REPLICAS, argv[3], strlen(argv[3]), 0))
		die("cannot set %s of %s to '%s': %s%s", MORPH_XATTR_REPLICAS,
		    argv[2], argv[3], strerror(errno),
		    errno == EINVAL ? " (expected 1..number of devices)" : "");
	return 0;
}

int main(int argc, char **argv)
{
	const char *stats = NULL, *mnt = NULL, *cmd;
	u64 capacity = 0, ndev = 0, v;
	long wait_s = 0;
	int have_cap = 0, have_dev = 0, i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "replicas")) {
		if (argc < 3 || argc > 4)
			die("usage: morphctl replicas FILE [N]");
		return cmd_replicas(argc, argv);
	}
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--stats") || !strcmp(a, "--capacity") ||
		    !strcmp(a, "--devices") || !strcmp(a, "--wait")) {
			if (i + 1 == argc)
				die("%s needs a value; see --help", a);
			if (!strcmp(a, "--stats")) {
				stats = argv[++i];
				continue;
			}
			if (parse_u64(argv[++i], &v, !strcmp(a, "--capacity")))
				die("%s %s: expected a non-negative integer%s", a,
				    argv[i], !strcmp(a, "--capacity") ?
				    " of bytes, optionally with K, M, G or T" : "");
			if (!strcmp(a, "--capacity")) {
				capacity = v;
				have_cap = 1;
			} else if (!strcmp(a, "--devices")) {
				ndev = v;
				have_dev = 1;
			} else {
				wait_s = (long)v;
			}
		} else if (a[0] == '-') {
			die("unknown option %s; see --help", a);
		} else if (!mnt) {
			mnt = a;
		} else {
			die("unexpected argument %s; see --help", a);
		}
	}
	if (!strcmp(cmd, "status")) {
		if (!mnt)
			die("status needs a MOUNTPOINT");
		return cmd_status(mnt);
	}
	if (!strcmp(cmd, "plan") || !strcmp(cmd, "apply")) {
		if (!have_cap)
			die("%s needs --capacity BYTES (space replicas may use)", cmd);
		if (!strcmp(cmd, "apply")) {
			if (!mnt || stats)
				die("apply needs a MOUNTPOINT (and no --stats)");
			return cmd_apply(mnt, capacity, wait_s);
		}
		if (stats) {
			if (mnt)
				die("plan takes --stats FILE.csv or a MOUNTPOINT, not both");
			if (!have_dev)
				die("plan --stats needs --devices N");
			if (ndev < 1 || ndev > MORPH_MAX_DEVICES)
				die("--devices %llu: expected 1..%d",
				    (unsigned long long)ndev, MORPH_MAX_DEVICES);
			read_csv(stats);
		} else if (mnt) {
			ndev = read_volume(mnt);
		} else {
			die("plan needs --stats FILE.csv --devices N, or a MOUNTPOINT");
		}
		print_plan((u32)ndev, capacity);
		return 0;
	}
	die("unknown command '%s'; see --help", cmd);
}
