// SPDX-License-Identifier: Apache-2.0
/*
 * conform - POSIX behaviours a program relies on, checked by observation:
 * hard links (one inode number for every name, ctime on link and unlink),
 * modes at creation and after chmod, permissions of a user who is not
 * root, name limits, long symlink targets, device nodes.  Each case runs in
 * its own directory under --dir, set up as root, then acted on as the
 * actor (--uid/--gid; 0 is root), and prints one line "case: results".
 * The lines carry no inode numbers or times, only what must be equal on
 * any file system that behaves like ext4 ("same", "advanced", an errno
 * name, a mode), so tests/t_conform.sh runs this on a MorphStore volume and
 * on a plain ext4 directory and compares the two outputs line by line.
 *
 *   conform --dir DIR [--uid U --gid G] [--other U2]
 *
 * --other is the owner of the files the actor does not own (default 4343).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static const char *top;
static uid_t actor_uid, other_uid = 4343;
static gid_t actor_gid;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "conform: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	va_end(ap);
	exit(2);
}

/* "0" or the errno's name, of a call that has just returned @r */
static const char *rc(long r)
{
	static char buf[8][32];
	static int i;
	const char *n;

	if (r >= 0)
		return "0";
	n = strerrorname_np(errno);
	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s", n ? n : "E?");
	return buf[i];
}

static void line(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void line(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s:", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* the case's own directory, made by root with @mode, owned by @uid:@gid */
static void case_dir(const char *name, mode_t mode, uid_t uid, gid_t gid)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", top, name);
	if (mkdir(p, 0700) || chown(p, uid, gid) || chmod(p, mode))
		die("making %s", p);
}

static void enter(const char *name)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", top, name);
	if (chdir(p))
		die("entering %s", p);
}

/* runs @fn as the actor, in @name's directory, with umask 022 */
static void as_actor(const char *name, void (*fn)(const char *name))
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		enter(name);
		if (actor_uid && (setgroups(0, NULL) ||
				  setresgid(actor_gid, actor_gid, actor_gid) ||
				  setresuid(actor_uid, actor_uid, actor_uid)))
			die("becoming uid %u", actor_uid);
		umask(022);
		fn(name);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		line(name, " the actor's process failed (status %d)", status);
}

/* as root, in @name's directory */
static void as_root(const char *name)
{
	enter(name);
	umask(022);
}

/*
 * Until the clock file systems stamp times with (the kernel's coarse
 * realtime clock, which only moves at a timer tick) is 30 ms past where it
 * was: a stamp taken before and one taken after must differ.  A fixed sleep
 * was not enough in a busy TCG guest, whose ticks come late.
 */
static void nap(void)
{
	struct timespec t0, t, step = { 0, 5 * 1000 * 1000 };

	clock_gettime(CLOCK_REALTIME_COARSE, &t0);
	do {
		nanosleep(&step, NULL);
		clock_gettime(CLOCK_REALTIME_COARSE, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		 (t.tv_nsec - t0.tv_nsec) < 30 * 1000 * 1000L);
}

static const char *advanced(const struct timespec *before,
			    const struct timespec *after)
{
	if (after->tv_sec != before->tv_sec)
		return after->tv_sec > before->tv_sec ? "advanced" : "went-back";
	if (after->tv_nsec != before->tv_nsec)
		return after->tv_nsec > before->tv_nsec ? "advanced" : "went-back";
	return "same";
}

static const char *same_ino(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino ? "same" :
	       "differ";
}

static int write_all(const char *p, const char *s)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* ---- hard links ---- */

static const char *const node_kinds[] = { "reg", "fifo", "sock", "chr", "blk" };

static mode_t kind_mode(const char *k)
{
	return !strcmp(k, "reg") ? S_IFREG : !strcmp(k, "fifo") ? S_IFIFO :
	       !strcmp(k, "sock") ? S_IFSOCK : !strcmp(k, "chr") ? S_IFCHR :
	       S_IFBLK;
}

/* link, rename and unlink of one node: a name of the case's directory */
static void act_links(const char *name)
{
	struct stat a0, a1, b, c, d0, d1;
	int r;

	lstat("a", &a0);
	lstat(".", &d0);
	nap();
	r = link("a", "b");
	lstat("a", &a1);
	lstat("b", &b);
	lstat(".", &d1);
	line(name, " link=%s ino(a,b)=%s nlink(a)=%ju nlink(b)=%ju ctime(a)=%s mtime(dir)=%s",
	     rc(r), same_ino(&a1, &b), (uintmax_t)a1.st_nlink,
	     (uintmax_t)b.st_nlink, advanced(&a0.st_ctim, &a1.st_ctim),
	     advanced(&d0.st_mtim, &d1.st_mtim));
	line(name, " link-over-existing=%s", rc(link("a", "b")));
	line(name, " link-into-subdir=%s", rc(link("a", "sub/x")));
	unlink("sub/x");
	nap();
	r = rename("b", "c");
	lstat("c", &c);
	line(name, " rename=%s ino(a,c)=%s", rc(r), same_ino(&a1, &c));
	lstat("a", &a0);
	nap();
	r = unlink("c");
	lstat("a", &a1);
	line(name, " unlink=%s nlink(a)=%ju ctime(a)=%s", rc(r),
	     (uintmax_t)a1.st_nlink, advanced(&a0.st_ctim, &a1.st_ctim));
}

static void case_links(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(node_kinds) / sizeof(node_kinds[0]); i++) {
		char name[64];
		mode_t m = kind_mode(node_kinds[i]);

		snprintf(name, sizeof(name), "links-%s", node_kinds[i]);
		case_dir(name, 0755, actor_uid, actor_gid);
		as_root(name);
		if (mknod("a", m | 0644, S_ISCHR(m) || S_ISBLK(m) ?
			  makedev(1, 3) : 0) || lchown("a", actor_uid, actor_gid))
			die("making the %s of %s", node_kinds[i], name);
		if (mkdir("sub", 0755) || chown("sub", actor_uid, actor_gid))
			die("mkdir %s/sub", name);
		as_actor(name, act_links);
	}
}

static void act_link_misc(const char *name)
{
	struct stat a, b;

	mkdir("d", 0755);
	line(name, " link-of-directory=%s", rc(link("d", "d2")));
	line(name, " link-of-missing=%s", rc(link("none", "x")));
	symlink("target-nowhere", "s");
	line(name, " link-of-symlink=%s", rc(link("s", "s2")));
	lstat("s", &a);
	lstat("s2", &b);
	line(name, " ino(s,s2)=%s type(s2)=%s", same_ino(&a, &b),
	     S_ISLNK(b.st_mode) ? "symlink" : "other");
	line(name, " link-into-missing-dir=%s", rc(link("s", "none/x")));
}

/*
 * A DataNode's rolling upgrade: every block file of a directory tree is hard
 * linked into a new tree; each block must stay one inode with two names.
 */
#define BLOCKS 120
static void act_block_tree(const char *name)
{
	struct stat s[BLOCKS], t;
	unsigned int i, j, same = 0, two = 0, distinct = 0, data = 0;
	char p[256], q[256], buf[64];

	mkdir("current", 0755);
	mkdir("previous", 0755);
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "current/subdir%u", i);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "previous/subdir%u", i);
		mkdir(p, 0755);
	}
	for (i = 0; i < BLOCKS; i++) {
		snprintf(p, sizeof(p), "current/subdir%u/blk_%u", i % 4, 1000 + i);
		snprintf(buf, sizeof(buf), "block %u\n", i);
		write_all(p, buf);
	}
	for (i = 0; i < BLOCKS; i++) {
		snprintf(p, sizeof(p), "current/subdir%u/blk_%u", i % 4, 1000 + i);
		snprintf(q, sizeof(q), "previous/subdir%u/blk_%u", i % 4, 1000 + i);
		link(p, q);
		lstat(p, &s[i]);
		lstat(q, &t);
		same += !strcmp(same_ino(&s[i], &t), "same");
		two += s[i].st_nlink == 2 && t.st_nlink == 2;
	}
	for (i = 0; i < BLOCKS; i++) {
		for (j = 0; j < i; j++)
			if (s[j].st_ino == s[i].st_ino)
				break;
		distinct += j == i;
	}
	for (i = 0; i < BLOCKS; i++) {
		snprintf(p, sizeof(p), "current/subdir%u/blk_%u", i % 4, 1000 + i);
		unlink(p);
		snprintf(q, sizeof(q), "previous/subdir%u/blk_%u", i % 4, 1000 + i);
		snprintf(buf, sizeof(buf), "block %u\n", i);
		{
			char got[64] = "";
			int fd = open(q, O_RDONLY);

			if (fd >= 0) {
				if (read(fd, got, sizeof(got) - 1) < 0)
					got[0] = 0;
				close(fd);
			}
			data += !strcmp(got, buf) && !lstat(q, &t) &&
				t.st_nlink == 1;
		}
	}
	line(name, " blocks=%u one-inode-two-names=%u nlink-2=%u distinct-inodes=%u after-unlink-old-tree-data-and-nlink-1=%u",
	     BLOCKS, same, two, distinct, data);
}

/*
 * A directory's mtime and ctime after each kind of change of its entries,
 * four times each: new entries go to the devices in turn, so some of them
 * are made on a device other than the directory's first.
 */
static void act_dir_times(const char *name)
{
	static const char *const ops[] = { "create", "mkfifo", "symlink",
					   "link", "rename-within", "rename-out",
					   "rename-in", "unlink", "mkdir",
					   "rmdir" };
	unsigned int i, k;

	mkdir("other", 0755);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		unsigned int adv = 0, other_adv = 0;

		for (k = 0; k < 4; k++) {
			struct stat d0, d1, o0, o1;
			char a[32], b[48];
			int fd;

			snprintf(a, sizeof(a), "%s%u", ops[i], k);
			snprintf(b, sizeof(b), "other/%s%u", ops[i], k);
			if (!strcmp(ops[i], "rename-in") || !strcmp(ops[i], "unlink") ||
			    !strcmp(ops[i], "rename-within") ||
			    !strcmp(ops[i], "rename-out") || !strcmp(ops[i], "link"))
				write_all(!strcmp(ops[i], "rename-in") ? b : a, "x");
			if (!strcmp(ops[i], "rmdir"))
				mkdir(a, 0755);
			lstat(".", &d0);
			lstat("other", &o0);
			nap();
			if (!strcmp(ops[i], "create")) {
				fd = open(a, O_CREAT | O_WRONLY, 0644);
				if (fd >= 0)
					close(fd);
			} else if (!strcmp(ops[i], "mkfifo")) {
				mknod(a, S_IFIFO | 0644, 0);
			} else if (!strcmp(ops[i], "symlink")) {
				symlink("t", a);
			} else if (!strcmp(ops[i], "link")) {
				link(a, b);
			} else if (!strcmp(ops[i], "rename-within")) {
				snprintf(b, sizeof(b), "%s-new", a);
				rename(a, b);
			} else if (!strcmp(ops[i], "rename-out")) {
				rename(a, b);
			} else if (!strcmp(ops[i], "rename-in")) {
				rename(b, a);
			} else if (!strcmp(ops[i], "unlink")) {
				unlink(a);
			} else if (!strcmp(ops[i], "mkdir")) {
				mkdir(a, 0755);
			} else {
				rmdir(a);
			}
			lstat(".", &d1);
			lstat("other", &o1);
			adv += !strcmp(advanced(&d0.st_mtim, &d1.st_mtim), "advanced") &&
			       !strcmp(advanced(&d0.st_ctim, &d1.st_ctim), "advanced");
			other_adv += !strcmp(advanced(&o0.st_mtim, &o1.st_mtim), "advanced");
		}
		line(name, " %s: mtime-and-ctime-advanced=%u/4 other-dir-mtime-advanced=%u/4",
		     ops[i], adv, other_adv);
	}
}

static void case_link_misc(void)
{
	case_dir("dir-times", 0755, actor_uid, actor_gid);
	as_actor("dir-times", act_dir_times);
	case_dir("link-misc", 0755, actor_uid, actor_gid);
	as_actor("link-misc", act_link_misc);
	case_dir("block-tree", 0755, actor_uid, actor_gid);
	as_actor("block-tree", act_block_tree);
}

/* ---- modes ---- */

static const mode_t modes[] = { 0620, 0777, 0644, 0400, 0, 04755, 02755,
				06777, 01777, 07777 };
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static void act_create_modes(const char *name)
{
	unsigned int i, u;
	struct stat st;
	char p[64];

	for (u = 0; u < 2; u++) {
		umask(u ? 0 : 022);
		for (i = 0; i < NMODES; i++) {
			const char *rf, *rd, *rn;
			mode_t mf = 0, md = 0, mn = 0;
			int fd;

			snprintf(p, sizeof(p), "f%u-%o", u, modes[i]);
			fd = open(p, O_CREAT | O_EXCL | O_WRONLY, modes[i]);
			rf = rc(fd);
			if (fd >= 0)
				close(fd);
			if (!lstat(p, &st))
				mf = st.st_mode;
			snprintf(p, sizeof(p), "d%u-%o", u, modes[i]);
			rd = rc(mkdir(p, modes[i]));
			if (!lstat(p, &st))
				md = st.st_mode;
			snprintf(p, sizeof(p), "p%u-%o", u, modes[i]);
			rn = rc(mknod(p, S_IFIFO | modes[i], 0));
			if (!lstat(p, &st))
				mn = st.st_mode;
			line(name, " umask=%03o mode=%04o open=%s %06o mkdir=%s %06o mkfifo=%s %06o",
			     u ? 0 : 022, modes[i], rf, mf, rd, md, rn, mn);
		}
	}
}

static void act_chmod_modes(const char *name)
{
	unsigned int i;
	struct stat st;

	write_all("f", "x");
	mkdir("d", 0755);
	for (i = 0; i < NMODES; i++) {
		mode_t mf = 0, md = 0;
		const char *rf = rc(chmod("f", modes[i]));
		const char *rd = rc(chmod("d", modes[i]));

		if (!lstat("f", &st))
			mf = st.st_mode;
		if (!lstat("d", &st))
			md = st.st_mode;
		line(name, " chmod %04o: file=%s %06o dir=%s %06o", modes[i], rf,
		     mf, rd, md);
	}
	chmod("d", 0755);
	chmod("f", 06755);
	{
		int fd = open("f", O_WRONLY);

		if (fd >= 0 && write(fd, "y", 1) != 1)
			line(name, " write failed");
		if (fd >= 0)
			close(fd);
	}
	lstat("f", &st);
	line(name, " owner's write to 06755: %06o", st.st_mode);
}

/* a file of mode @m owned by the other user, written by the actor */
static void act_write_others(const char *name)
{
	static const mode_t m[] = { 0777, 0666, 0646, 0644, 0600, 04777, 06777 };
	unsigned int i;
	char p[32];

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct stat st;
		const char *ow;
		int fd, r;

		snprintf(p, sizeof(p), "o%04o", m[i]);
		fd = open(p, O_WRONLY);
		r = fd;
		if (fd >= 0) {
			r = (int)write(fd, "z", 1);
			close(fd);
		}
		ow = rc(r);
		lstat(p, &st);
		r = open(p, O_RDONLY);
		line(name, " other's %04o: open-write=%s read=%s mode-after=%06o",
		     m[i], ow, rc(r), st.st_mode);
		if (r >= 0)
			close(r);
	}
}

static void case_modes(void)
{
	static const mode_t m[] = { 0777, 0666, 0646, 0644, 0600, 04777, 06777 };
	unsigned int i;
	char p[32];

	case_dir("create-modes", 0755, actor_uid, actor_gid);
	as_actor("create-modes", act_create_modes);
	case_dir("chmod-modes", 0755, actor_uid, actor_gid);
	as_actor("chmod-modes", act_chmod_modes);
	case_dir("write-others", 0755, other_uid, other_uid);
	as_root("write-others");
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		snprintf(p, sizeof(p), "o%04o", m[i]);
		if (write_all(p, "x") || chown(p, other_uid, other_uid) ||
		    chmod(p, m[i]))
			die("making %s", p);
	}
	as_actor("write-others", act_write_others);
}

/* in a set-group-ID directory of the other user's group, writable by all */
static void act_sgid_dir(const char *name)
{
	struct stat st;
	int fd;

	fd = open("f", O_CREAT | O_WRONLY, 02775);
	if (fd >= 0)
		close(fd);
	lstat("f", &st);
	line(name, " file: gid-is-dir's=%s mode=%06o",
	     st.st_gid == other_uid ? "yes" : "no", st.st_mode);
	mkdir("d", 0755);
	lstat("d", &st);
	line(name, " dir: gid-is-dir's=%s mode=%06o",
	     st.st_gid == other_uid ? "yes" : "no", st.st_mode);
	mknod("p", S_IFIFO | 0644, 0);
	lstat("p", &st);
	line(name, " fifo: gid-is-dir's=%s", st.st_gid == other_uid ? "yes" : "no");
	symlink("f", "s");
	lstat("s", &st);
	line(name, " symlink: gid-is-dir's=%s", st.st_gid == other_uid ? "yes" : "no");
}

static void act_chown(const char *name)
{
	line(name, " chown own file to other=%s", rc(chown("f", other_uid, (gid_t)-1)));
	line(name, " chown own file to self=%s", rc(chown("f", actor_uid, actor_gid)));
	line(name, " chgrp own file to other's group=%s",
	     rc(chown("f", (gid_t)-1, other_uid)));
	line(name, " lchown own symlink to self=%s", rc(lchown("s", actor_uid, actor_gid)));
	line(name, " chown other's file=%s", rc(chown("o", actor_uid, actor_gid)));
	line(name, " chmod other's file=%s", rc(chmod("o", 0777)));
	line(name, " utimes other's file=%s",
	     rc(utimensat(AT_FDCWD, "o", NULL, 0)));
}

static void case_owners(void)
{
	case_dir("sgid-dir", 02777, other_uid, other_uid);
	as_actor("sgid-dir", act_sgid_dir);
	case_dir("chown", 0755, actor_uid, actor_gid);
	as_root("chown");
	if (write_all("f", "x") || lchown("f", actor_uid, actor_gid) ||
	    symlink("f", "s") || lchown("s", actor_uid, actor_gid) ||
	    write_all("o", "x") || chown("o", other_uid, other_uid) ||
	    chmod("o", 0666))
		die("setting up chown");
	as_actor("chown", act_chown);
}

/* ---- permissions of directory operations ---- */

/*
 * Names under the case's directory (the other user's unless said):
 *   sticky/     01777 root's:  mine, theirs, theirdir/ (the other user's)
 *   open/       0777:          mine, theirs, mydir/
 *   closed/     0755:          theirs
 *   noexec/     0666:          theirs
 *   theirs-dir/ 0755 (the other user's), in open/
 */
static void act_rename_perms(const char *name)
{
	line(name, " sticky: rename own file=%s", rc(rename("sticky/mine", "sticky/mine2")));
	line(name, " sticky: rename other's file=%s", rc(rename("sticky/theirs", "sticky/x")));
	line(name, " sticky: rename own file over other's=%s",
	     rc(rename("sticky/mine2", "sticky/theirs")));
	line(name, " sticky: rename other's dir=%s", rc(rename("sticky/theirdir", "open/y")));
	line(name, " sticky: unlink other's file=%s", rc(unlink("sticky/theirs")));
	line(name, " sticky: rmdir other's dir=%s", rc(rmdir("sticky/theirdir")));
	line(name, " sticky: create=%s", rc(mkdir("sticky/new", 0755)));
	line(name, " closed: rename out=%s", rc(rename("closed/theirs", "open/t2")));
	line(name, " closed: rename in=%s", rc(rename("open/mine", "closed/m2")));
	line(name, " closed: create=%s", rc(open("closed/new", O_CREAT | O_WRONLY, 0644)));
	line(name, " closed: unlink=%s", rc(unlink("closed/theirs")));
	line(name, " closed: link in=%s", rc(link("open/mine", "closed/l")));
	line(name, " closed: mkdir=%s", rc(mkdir("closed/d", 0755)));
	line(name, " closed: symlink=%s", rc(symlink("x", "closed/s")));
	line(name, " closed: mkfifo=%s", rc(mknod("closed/p", S_IFIFO | 0644, 0)));
	line(name, " noexec: stat=%s", rc(access("noexec/theirs", F_OK)));
	line(name, " noexec: rename out=%s", rc(rename("noexec/theirs", "open/t3")));
	line(name, " noexec: create=%s", rc(open("noexec/new", O_CREAT | O_WRONLY, 0644)));
	line(name, " open: rename other's dir to another parent=%s",
	     rc(rename("open/theirs-dir", "sticky/td")));
	line(name, " open: rename other's dir in place=%s",
	     rc(rename("open/theirs-dir", "open/td2")));
	line(name, " open: rename own dir into other's dir=%s",
	     rc(rename("open/mydir", "open/td2/md")));
	line(name, " open: rename other's file=%s", rc(rename("open/theirs", "open/t4")));
	line(name, " open: unlink other's file=%s", rc(unlink("open/t4")));
}

static void case_rename_perms(void)
{
	case_dir("rename-perms", 0755, 0, 0);
	as_root("rename-perms");
	if (mkdir("sticky", 0700) || chmod("sticky", 01777) ||
	    write_all("sticky/mine", "m") ||
	    chown("sticky/mine", actor_uid, actor_gid) ||
	    write_all("sticky/theirs", "t") ||
	    chown("sticky/theirs", other_uid, other_uid) ||
	    mkdir("sticky/theirdir", 0755) ||
	    chown("sticky/theirdir", other_uid, other_uid) ||
	    mkdir("open", 0700) || chmod("open", 0777) ||
	    write_all("open/mine", "m") ||
	    chown("open/mine", actor_uid, actor_gid) ||
	    write_all("open/theirs", "t") ||
	    chown("open/theirs", other_uid, other_uid) ||
	    mkdir("open/mydir", 0755) ||
	    chown("open/mydir", actor_uid, actor_gid) ||
	    mkdir("open/theirs-dir", 0755) ||
	    chown("open/theirs-dir", other_uid, other_uid) ||
	    mkdir("closed", 0755) || chown("closed", other_uid, other_uid) ||
	    write_all("closed/theirs", "t") ||
	    chown("closed/theirs", other_uid, other_uid) ||
	    mkdir("noexec", 0755) || write_all("noexec/theirs", "t") ||
	    chown("noexec", other_uid, other_uid) || chmod("noexec", 0666))
		die("setting up rename-perms");
	as_actor("rename-perms", act_rename_perms);
}

/* ---- names ---- */

static char long_name[300], max_name[300];

static void act_long_names(const char *name)
{
	const char *r[6];
	char p[700];
	struct stat st;
	int fd;

	fd = open(max_name, O_CREAT | O_WRONLY, 0644);
	r[0] = rc(fd);
	if (fd >= 0)
		close(fd);
	r[1] = rc(lstat(max_name, &st));
	r[2] = rc(unlink(max_name));
	line(name, " 255-byte name: create=%s stat=%s unlink=%s", r[0], r[1],
	     r[2]);
	r[0] = rc(open(long_name, O_CREAT | O_WRONLY, 0644));
	r[1] = rc(open(long_name, O_RDONLY));
	r[2] = rc(stat(long_name, &st));
	r[3] = rc(lstat(long_name, &st));
	r[4] = rc(access(long_name, F_OK));
	line(name, " open-creat=%s open=%s stat=%s lstat=%s access=%s", r[0],
	     r[1], r[2], r[3], r[4]);
	r[0] = rc(chmod(long_name, 0644));
	r[1] = rc(chown(long_name, actor_uid, actor_gid));
	r[2] = rc(lchown(long_name, actor_uid, actor_gid));
	r[3] = rc(truncate(long_name, 0));
	r[4] = rc(utimensat(AT_FDCWD, long_name, NULL, 0));
	line(name, " chmod=%s chown=%s lchown=%s truncate=%s utimes=%s", r[0],
	     r[1], r[2], r[3], r[4]);
	r[0] = rc(unlink(long_name));
	r[1] = rc(rmdir(long_name));
	r[2] = rc(mkdir(long_name, 0755));
	r[3] = rc(mknod(long_name, S_IFIFO | 0644, 0));
	r[4] = rc(symlink("f", long_name));
	r[5] = rc(symlink(long_name, "s"));
	line(name, " unlink=%s rmdir=%s mkdir=%s mkfifo=%s symlink-at=%s symlink-to=%s",
	     r[0], r[1], r[2], r[3], r[4], r[5]);
	r[0] = rc(link(long_name, "l"));
	r[1] = rc(link("f", long_name));
	r[2] = rc(rename(long_name, "r"));
	r[3] = rc(rename("f", long_name));
	line(name, " link-from=%s link-to=%s rename-from=%s rename-to=%s", r[0],
	     r[1], r[2], r[3]);
	snprintf(p, sizeof(p), "d/%s/x", long_name);
	r[0] = rc(open(p, O_CREAT | O_WRONLY, 0644));
	r[1] = rc(lstat(p, &st));
	r[2] = rc(mkdir(p, 0755));
	line(name, " as a middle component: create=%s stat=%s mkdir=%s", r[0],
	     r[1], r[2]);
	snprintf(p, sizeof(p), "d/%s", max_name);
	r[0] = rc(mkdir(p, 0755));
	r[1] = rc(rename(p, "d/ok"));
	line(name, " 255 bytes in a subdirectory: mkdir=%s rename-to=%s", r[0],
	     r[1]);
}

static void act_long_targets(const char *name)
{
	static const size_t len[] = { 1, 255, 256, 1023, 1024, 4000, 4094, 4095,
				      4096, 5000 };
	static char t[6000], back[6000];
	unsigned int i;

	for (i = 0; i < sizeof(len) / sizeof(len[0]); i++) {
		char p[32];
		size_t k;
		ssize_t n;
		int r;
		struct stat st = { 0 };

		for (k = 0; k < len[i]; k++)	/* "a/b/..." as a real path */
			t[k] = k % 2 ? '/' : 'a' + (char)(k % 26);
		t[len[i]] = 0;
		snprintf(p, sizeof(p), "s%zu", len[i]);
		r = symlink(t, p);
		n = readlink(p, back, sizeof(back));
		lstat(p, &st);
		line(name, " target of %zu bytes: symlink=%s readlink=%s size=%jd equal=%s",
		     len[i], rc(r), rc(n), (intmax_t)st.st_size,
		     n == (ssize_t)len[i] && !memcmp(back, t, len[i]) ? "yes" : "no");
	}
}

/*
 * Paths near PATH_MAX: directories of 250-byte names nested until the path
 * of a file is @len bytes long (the volume's root adds about 16, still
 * under PATH_MAX; a front end that joins the lower directory's path to it
 * goes over).
 */
static void act_deep_paths(const char *name)
{
	static const size_t len[] = { 3950, 4030, 4070 };
	static char d[4200], f[4200], g[4200], back[64];
	unsigned int i;

	for (i = 0; i < sizeof(len) / sizeof(len[0]); i++) {
		const char *r[12];
		struct stat st;
		size_t n = 0;
		int fd;

		snprintf(d, sizeof(d), "%u", i);
		mkdir(d, 0755);
		n = strlen(d);
		while (n + 1 + 250 + 1 + 8 < len[i]) {
			d[n] = '/';
			memset(d + n + 1, 'p', 250);
			n += 251;
			d[n] = 0;
			mkdir(d, 0755);
		}
		memcpy(f, d, n);
		f[n] = '/';
		memset(f + n + 1, 'f', len[i] - n - 1);
		f[len[i]] = 0;
		memcpy(g, f, len[i] + 1);
		g[len[i] - 1] = 'g';
		fd = open(f, O_CREAT | O_WRONLY, 0644);
		r[0] = rc(fd);
		if (fd >= 0) {
			r[1] = rc(write(fd, "deep", 4));
			close(fd);
		} else {
			r[1] = "-";
		}
		r[2] = rc(lstat(f, &st));
		r[3] = rc(setxattr(f, "user.deep", "1", 1, 0));
		r[4] = rc(getxattr(f, "user.deep", back, sizeof(back)));
		r[5] = rc(listxattr(f, back, sizeof(back)));
		r[6] = rc(link(f, g));
		r[7] = rc(unlink(g));
		r[8] = rc(rename(f, g));
		r[9] = rc(chmod(g, 0600));
		r[10] = rc(truncate(g, 2));
		r[11] = rc(unlink(g));
		line(name, " %zu bytes: create=%s write=%s stat=%s setxattr=%s getxattr=%s listxattr=%s link=%s unlink=%s rename=%s chmod=%s truncate=%s unlink=%s",
		     len[i], r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
		     r[8], r[9], r[10], r[11]);
		g[len[i] - 1] = 's';
		r[0] = rc(symlink("target", g));
		r[1] = rc(readlink(g, back, sizeof(back)));
		r[2] = rc(unlink(g));
		line(name, " %zu bytes: symlink=%s readlink=%s unlink=%s", len[i],
		     r[0], r[1], r[2]);
	}
}

static void case_names(void)
{
	case_dir("deep-paths", 0755, actor_uid, actor_gid);
	as_actor("deep-paths", act_deep_paths);
	memset(long_name, 'n', 256);
	memset(max_name, 'm', 255);
	case_dir("long-names", 0755, actor_uid, actor_gid);
	as_root("long-names");
	if (write_all("f", "x") || lchown("f", actor_uid, actor_gid) ||
	    mkdir("d", 0755) || chown("d", actor_uid, actor_gid))
		die("setting up long-names");
	as_actor("long-names", act_long_names);
	case_dir("long-targets", 0755, actor_uid, actor_gid);
	as_actor("long-targets", act_long_targets);
}

/* ---- device nodes ---- */

static void act_mknod(const char *name)
{
	static const struct { const char *n; mode_t m; unsigned int ma, mi; } k[] = {
		{ "c1", S_IFCHR | 0644, 1, 3 },
		{ "c2", S_IFCHR | 0600, 136, 1000 },
		{ "c3", S_IFCHR | 06755, 4095, 1048575 },
		{ "b1", S_IFBLK | 0660, 7, 0 },
		{ "b2", S_IFBLK | 0640, 259, 70000 },
		{ "p1", S_IFIFO | 0640, 0, 0 },
		{ "s1", S_IFSOCK | 0755, 0, 0 },
		{ "r1", S_IFREG | 0604, 0, 0 },
		{ "r2", 0604, 0, 0 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct stat st = { 0 };
		int r = mknod(k[i].n, k[i].m, makedev(k[i].ma, k[i].mi));

		lstat(k[i].n, &st);
		line(name, " %s %06o %u:%u: mknod=%s mode=%06o rdev=%u:%u owner-is-actor=%s",
		     k[i].n, k[i].m, k[i].ma, k[i].mi, rc(r), st.st_mode,
		     major(st.st_rdev), minor(st.st_rdev),
		     st.st_uid == actor_uid && st.st_gid == actor_gid ? "yes" : "no");
	}
	{
		int fd = open("c1", O_RDONLY);	/* 1:3 is /dev/null */
		char b;

		line(name, " open c1=%s", rc(fd));
		if (fd >= 0)
			line(name, " read c1=%s", rc(read(fd, &b, 1)));
		if (fd >= 0)
			close(fd);
	}
}

static void case_nodes(void)
{
	case_dir("mknod", 0755, actor_uid, actor_gid);
	as_actor("mknod", act_mknod);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--dir"))
			top = argv[i + 1];
		else if (!strcmp(argv[i], "--uid"))
			actor_uid = (uid_t)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--gid"))
			actor_gid = (gid_t)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--other"))
			other_uid = (uid_t)strtoul(argv[i + 1], NULL, 10);
		else
			break;
	}
	if (!top || i != argc) {
		fprintf(stderr, "usage: conform --dir DIR [--uid U --gid G] [--other U2]\n");
		return 2;
	}
	if (geteuid())
		die("conform sets cases up as root; run it as root");
	setvbuf(stdout, NULL, _IOLBF, 0);
	case_links();
	case_link_misc();
	case_modes();
	case_owners();
	case_rename_perms();
	case_names();
	case_nodes();
	return 0;
}
