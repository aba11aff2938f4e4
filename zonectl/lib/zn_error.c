// SPDX-License-Identifier: Apache-2.0
/*
 * One table of error codes (they are zonectl's exit codes) and one
 * reporting function, in the e2fsprogs manner.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include "zn.h"

static const struct {
	const char *msg;
	const char *hint;
} zn_errors[ZN_ERRMAX] = {
	[ZN_OK] = { "success", NULL },
	[ZN_EUSAGE] = { "bad usage", "see 'zonectl COMMAND --help'" },
	[ZN_ENOTEXT] = { "not a supported ext2/ext3/ext4 file system",
			 "check the device path; zonectl refuses layouts it does not understand" },
	[ZN_EMOUNTED] = { "device is mounted or in use",
			  "unmount it first: editing bitmaps of a mounted file system does not steer the ext4 driver (see docs/zone.md)" },
	[ZN_ERANGE] = { "range outside the file system",
			"run 'zonectl info DEV' for the valid block and group ranges" },
	[ZN_EJOURNAL] = { "zone journal problem",
			  "run 'zonectl recover DEV' for a pending journal; never reuse a journal of another file system" },
	[ZN_EPERM] = { "permission denied", "run as root or as the owner of the device" },
	[ZN_EIO] = { "I/O error", "check the device and dmesg" },
	[ZN_ECORRUPT] = { "file system metadata inconsistent",
			  "run 'e2fsck -f DEV' before using zonectl" },
	[ZN_ESTATE] = { "operation does not fit the current state",
			"run 'zonectl status DEV'" },
};

const char *zn_strerror(int err)
{
	if (err < 0 || err >= ZN_ERRMAX)
		return "unknown error";
	return zn_errors[err].msg;
}

int zn_fail(int err, const char *fmt, ...)
{
	va_list ap;

	fputs("zonectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", zn_strerror(err));
	if (err > 0 && err < ZN_ERRMAX && zn_errors[err].hint)
		fprintf(stderr, "zonectl: hint: %s\n", zn_errors[err].hint);
	return err;
}

/*
 * Crash-test hook: ZONECTL_CRASH_AT=<name> kills the process with SIGKILL
 * at the named point.  What it wrote is then in the page cache, and the
 * last close of a block device writes that back, so a kill is the weaker
 * case.  With ZONECTL_CRASH_HOW=stop the process stops itself (SIGSTOP)
 * instead, keeping its descriptors open and its writes unflushed, for a
 * power cut of the whole machine at that point (tests/vm-powercut).
 */
void zn_crash_point(const char *name)
{
	const char *want = getenv("ZONECTL_CRASH_AT");
	const char *how = getenv("ZONECTL_CRASH_HOW");
	int stop = how && strcmp(how, "stop") == 0;

	if (want && strcmp(want, name) == 0) {
		fprintf(stderr, "zonectl: crash hook at %s%s\n", name,
			stop ? ": stopped" : "");
		fflush(NULL);
		raise(stop ? SIGSTOP : SIGKILL);
	}
}
