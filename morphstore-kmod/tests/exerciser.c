// SPDX-License-Identifier: Apache-2.0
/*
 * exerciser - random POSIX operations applied in lockstep to a MorphStore
 * mount and to a plain reference directory; every result (success, errno,
 * data read, attributes) must agree.  Reproducible: the same --seed gives
 * the same operations.  On a mount it also changes files' copy counts
 * (user.morphstore.replicas) at random, so replicas are added and removed
 * while the run reads and writes.
 *
 *   exerciser --seed S --ops N --mount DIR --ref DIR [--devices N]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define NAMES	24
#define DIRS	4
#define MAXSIZE	(512 * 1024)

static uint64_t rng;
static const char *mnt, *ref;
static long op_no;
static int ndev = 4;
static long replica_changes, compares;
static int trace;
static char *buf_a, *buf_b, *data;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32) % n;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "exerciser: operation %ld: ", op_no);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void path_of(char *out, const char *root, const char *rel)
{
	snprintf(out, 4096, "%s/ex/%s", root, rel);
}

static void random_file(char *rel)
{
	int d = (int)rnd(DIRS + 1);

	if (d == DIRS)
		sprintf(rel, "f%u", rnd(NAMES));
	else
		sprintf(rel, "d%d/f%u", d, rnd(NAMES));
}

/* both results must agree: same success, or the same errno */
static void agree(const char *what, const char *rel, long a, int ea, long b,
		  int eb)
{
	if ((a < 0) != (b < 0) || (a < 0 && ea != eb) || (a >= 0 && a != b))
		fail("%s %s: mount gave %ld (%s), reference gave %ld (%s)", what,
		     rel, a, a < 0 ? strerror(ea) : "ok", b,
		     b < 0 ? strerror(eb) : "ok");
}

#define BOTH(what, rel, call)						\
	do {								\
		char pm[4096], pr[4096];				\
		long ra, rb;						\
		int ea, eb;						\
		path_of(pm, mnt, rel);					\
		path_of(pr, ref, rel);					\
		{ const char *p = pm; errno = 0; ra = (long)(call); ea = errno; } \
		{ const char *p = pr; errno = 0; rb = (long)(call); eb = errno; } \
		if (trace)						\
			fprintf(stderr, "%ld %s %s -> %ld\n", op_no, what, rel, ra); \
		agree(what, rel, ra, ea, rb, eb);			\
	} while (0)

static long write_file(const char *p, int flags, off_t off, size_t len)
{
	int fd = open(p, flags, 0644);
	long n;

	if (fd < 0)
		return -1;
	n = off < 0 ? write(fd, data, len) : pwrite(fd, data, len, off);
	if (rnd(8) == 0 && fsync(fd))
		n = -1;
	if (close(fd))
		n = -1;
	return n;
}

static long read_range(const char *p, char *out, off_t off, size_t len)
{
	int fd = open(p, O_RDONLY);
	long n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len) {
		n = pread(fd, out + got, len - (size_t)got, off + got);
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	return got;
}

static void compare_content(const char *rel, off_t off, size_t len)
{
	char pm[4096], pr[4096];
	long a, b;

	path_of(pm, mnt, rel);
	path_of(pr, ref, rel);
	a = read_range(pm, buf_a, off, len);
	b = read_range(pr, buf_b, off, len);
	agree("read", rel, a, errno, b, errno);
	if (a > 0 && memcmp(buf_a, buf_b, (size_t)a)) {
		long i = 0;

		while (buf_a[i] == buf_b[i])
			i++;
		fail("read %s [%lld, +%zu): data differs from the reference at byte %lld",
		     rel, (long long)off, len, (long long)off + i);
	}
}

static void fill_data(size_t len)
{
	size_t i;
	uint32_t x = rnd(0xffffffffu);

	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (char)(x >> 16);
	}
}

/* the whole tree: same names, types, sizes and contents */
static void compare_tree(const char *rel)
{
	char pm[4096], pr[4096], sub[1024];
	DIR *dr;
	struct dirent *e;
	struct stat sm, sr;
	int nref = 0, nmnt = 0;

	path_of(pr, ref, rel);
	path_of(pm, mnt, rel);
	dr = opendir(pr);
	if (!dr)
		fail("cannot open reference %s: %s", pr, strerror(errno));
	while ((e = readdir(dr))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		nref++;
		snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name);
		path_of(pr, ref, sub);
		path_of(pm, mnt, sub);
		if (lstat(pr, &sr))
			fail("lstat %s: %s", pr, strerror(errno));
		if (lstat(pm, &sm))
			fail("%s exists in the reference but not on the mount: %s",
			     sub, strerror(errno));
		if ((sm.st_mode & S_IFMT) != (sr.st_mode & S_IFMT) ||
		    (sm.st_mode & 07777) != (sr.st_mode & 07777))
			fail("%s: mode %o on the mount, %o in the reference", sub,
			     sm.st_mode, sr.st_mode);
		if (S_ISDIR(sr.st_mode)) {
			compare_tree(sub);
		} else if (S_ISREG(sr.st_mode)) {
			if (sm.st_size != sr.st_size)
				fail("%s: size %lld on the mount, %lld in the reference",
				     sub, (long long)sm.st_size, (long long)sr.st_size);
			if (sm.st_nlink != sr.st_nlink)
				fail("%s: %lu links on the mount, %lu in the reference",
				     sub, (unsigned long)sm.st_nlink,
				     (unsigned long)sr.st_nlink);
			compare_content(sub, 0, (size_t)sr.st_size);
		}
	}
	closedir(dr);
	path_of(pm, mnt, rel);
	dr = opendir(pm);
	if (!dr)
		fail("cannot open %s on the mount: %s", pm, strerror(errno));
	while ((e = readdir(dr)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			nmnt++;
	closedir(dr);
	if (nmnt != nref)
		fail("directory %s has %d entries on the mount, %d in the reference",
		     rel, nmnt, nref);
	compares++;
}

static void one_op(void)
{
	char rel[64], rel2[64], pm[4096];
	size_t len;
	off_t off;
	uint32_t what = rnd(100);

	random_file(rel);
	if (what < 15) {		/* create or overwrite */
		len = rnd(8) ? rnd(64 * 1024) : rnd(MAXSIZE);
		fill_data(len);
		BOTH("create", rel, write_file(p, O_WRONLY | O_CREAT | O_TRUNC, -1, len));
	} else if (what < 30) {		/* write inside or past the end */
		len = 1 + rnd(rnd(4) ? 16 * 1024 : 128 * 1024);
		off = rnd(MAXSIZE);
		fill_data(len);
		BOTH("pwrite", rel, write_file(p, O_WRONLY, off, len));
	} else if (what < 36) {		/* append */
		len = 1 + rnd(32 * 1024);
		fill_data(len);
		BOTH("append", rel, write_file(p, O_WRONLY | O_APPEND, -1, len));
	} else if (what < 42) {
		off = rnd(MAXSIZE);
		BOTH("truncate", rel, truncate(p, off));
	} else if (what < 62) {		/* read a random range */
		compare_content(rel, rnd(MAXSIZE), 1 + rnd(256 * 1024));
	} else if (what < 68) {
		random_file(rel2);
		{
			char pm2[4096], pr2[4096];

			path_of(pm2, mnt, rel2);
			path_of(pr2, ref, rel2);
			if (trace)
				fprintf(stderr, "%ld rename to %s\n", op_no, rel2);
			BOTH("rename", rel, rename(p, p == pm ? pm2 : pr2));
		}
	} else if (what < 73) {
		BOTH("unlink", rel, unlink(p));
	} else if (what < 76) {
		sprintf(rel, "d%u", rnd(DIRS + 2));
		BOTH("mkdir", rel, mkdir(p, 0755));
	} else if (what < 78) {
		sprintf(rel, "d%u", rnd(DIRS + 2));
		BOTH("rmdir", rel, rmdir(p));
	} else if (what < 82) {
		char val[32];

		sprintf(val, "v%u", rnd(1000));
		BOTH("setxattr", rel, setxattr(p, "user.test", val, strlen(val), 0));
	} else if (what < 85) {
		char va[64], vb[64];
		long a, b;
		int ea, eb;

		path_of(pm, mnt, rel);
		a = getxattr(pm, "user.test", va, sizeof(va));
		ea = errno;
		path_of(pm, ref, rel);
		b = getxattr(pm, "user.test", vb, sizeof(vb));
		eb = errno;
		agree("getxattr", rel, a, ea, b, eb);
		if (a > 0 && memcmp(va, vb, (size_t)a))
			fail("getxattr %s: values differ", rel);
	} else if (what < 88) {
		random_file(rel2);
		{
			char pm2[4096], pr2[4096];

			path_of(pm2, mnt, rel2);
			path_of(pr2, ref, rel2);
			if (trace)
				fprintf(stderr, "%ld link to %s\n", op_no, rel2);
			BOTH("link", rel, link(p, p == pm ? pm2 : pr2));
		}
	} else if (what < 90) {
		mode_t mode = 0600 | (rnd(2) ? 044 : 0);

		BOTH("chmod", rel, chmod(p, mode));
	} else if (what < 96) {		/* change the copy count, mount only */
		char val[16];

		path_of(pm, mnt, rel);
		sprintf(val, "%u", 1 + rnd((uint32_t)ndev));
		if (!setxattr(pm, "user.morphstore.replicas", val, strlen(val), 0))
			replica_changes++;
		else if (errno != ENOENT)
			fail("setting user.morphstore.replicas of %s to %s: %s", rel,
			     val, strerror(errno));
	} else {
		struct stat a, b;
		long ra, rb;
		int ea, eb;

		path_of(pm, mnt, rel);
		ra = stat(pm, &a);
		ea = errno;
		path_of(pm, ref, rel);
		rb = stat(pm, &b);
		eb = errno;
		agree("stat", rel, ra, ea, rb, eb);
		if (!ra && a.st_size != b.st_size)
			fail("stat %s: size %lld vs %lld", rel, (long long)a.st_size,
			     (long long)b.st_size);
	}
}

/* let queued replication finish, so later reads are served by replicas */
static void wait_replicator(void)
{
	char v[4096];
	int i;

	for (i = 0; i < 200; i++) {
		ssize_t n = getxattr(mnt, "user.morphstore.volume", v, sizeof(v) - 1);

		if (n < 0)
			return;
		v[n] = 0;
		if (strstr(v, " pending=0\n"))
			return;
		usleep(50000);
	}
}

int main(int argc, char **argv)
{
	long ops = 10000;
	int k;
	char p[4096];

	rng = 1;
	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--help")) {
			puts("usage: exerciser --seed S --ops N --mount DIR --ref DIR [--devices N]");
			return 0;
		}
		if (!strcmp(argv[k], "--trace")) {
			trace = 1;
			continue;
		}
		if (k + 1 == argc)
			break;
		if (!strcmp(argv[k], "--seed"))
			rng = strtoull(argv[++k], NULL, 10) * 2654435761u + 1;
		else if (!strcmp(argv[k], "--ops"))
			ops = atol(argv[++k]);
		else if (!strcmp(argv[k], "--mount"))
			mnt = argv[++k];
		else if (!strcmp(argv[k], "--ref"))
			ref = argv[++k];
		else if (!strcmp(argv[k], "--devices"))
			ndev = atoi(argv[++k]);
	}
	if (!mnt || !ref) {
		fputs("exerciser: --mount DIR and --ref DIR are required\n", stderr);
		return 2;
	}
	buf_a = malloc(MAXSIZE * 2);
	buf_b = malloc(MAXSIZE * 2);
	data = malloc(MAXSIZE);
	if (!buf_a || !buf_b || !data)
		return 2;
	snprintf(p, sizeof(p), "%s/ex", mnt);
	if (mkdir(p, 0755))
		fail("mkdir %s: %s", p, strerror(errno));
	snprintf(p, sizeof(p), "%s/ex", ref);
	if (mkdir(p, 0755))
		fail("mkdir %s: %s", p, strerror(errno));
	for (op_no = 0; op_no < ops; op_no++) {
		one_op();
		if (op_no % 2000 == 1999)
			wait_replicator();
		if (op_no % 500 == 499)
			compare_tree(".");
	}
	compare_tree(".");
	printf("exerciser: %ld operations, %ld copy-count changes, %ld tree comparisons, all agree\n",
	       ops, replica_changes, compares);
	return 0;
}
