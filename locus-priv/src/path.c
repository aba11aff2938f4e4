// SPDX-License-Identifier: Apache-2.0
/*
 * Paths a caller names (devices, mount points) and paths the configuration
 * names (the tools, the file itself).
 *
 * A caller's path is compared with the allow-list as a string, so it must be
 * written one way only: absolute, no empty, "." or ".." component, no
 * trailing slash, a small character set (no blank, no control character, and
 * never a leading '-', so it can never be read as an option by the tool).
 * It must also be canonical: a listed name that is, or passes through, a
 * symbolic link could be pointed at a device nobody listed.  Finally every
 * directory above it must be root's and writable by root only, so nobody
 * else can swap the name for a link between the check and the tool's open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "priv.h"

int lp_path_syntax(const char *path, char *why, size_t len)
{
	const char *p, *c;
	size_t n = strlen(path);

	if (n == 0 || path[0] != '/')
		return lp_fail(why, len, LP_EARG, "'%.64s' is not an absolute path", path);
	if (n >= LP_MAX_VALUE)
		return lp_fail(why, len, LP_EARG, "path '%.64s...' is longer than %d bytes",
			       path, LP_MAX_VALUE - 1);
	for (p = path; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && !strchr("/._-+:@", *p))
			return lp_fail(why, len, LP_EARG,
				       "path '%.64s' has a character other than letters, digits and / . _ - + : @",
				       path);
	if (n > 1 && path[n - 1] == '/')
		return lp_fail(why, len, LP_EARG, "path '%s' ends in '/'", path);
	for (c = path + 1; c <= path + n; c = p + 1) {
		p = strchr(c, '/');
		if (!p)
			p = path + n;
		if (p == c && n > 1)
			return lp_fail(why, len, LP_EARG, "path '%s' has an empty component", path);
		if ((p - c == 1 && c[0] == '.') || (p - c == 2 && c[0] == '.' && c[1] == '.'))
			return lp_fail(why, len, LP_EARG, "path '%s' has a '.' or '..' component",
				       path);
	}
	return LP_OK;
}

/* Owned by root and writable by nobody else (no group or other write bit). */
static int root_only(const char *path, const struct stat *st, const char *what,
		     char *why, size_t len)
{
	if (st->st_uid != 0)
		return lp_fail(why, len, LP_ECONFIG, "%s %s is owned by uid %u, not root", what,
			       path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return lp_fail(why, len, LP_ECONFIG,
			       "%s %s is writable by its group or by others (mode %04o)", what,
			       path, (unsigned)(st->st_mode & 07777));
	return LP_OK;
}

int lp_path_trusted(const char *path, int check_self, char *why, size_t len)
{
	char dir[LP_MAX_VALUE];
	struct stat st;
	char *slash;
	int err;

	if (strlen(path) >= sizeof(dir))
		return lp_fail(why, len, LP_EARG, "path '%.64s...' is too long", path);
	if (check_self) {
		if (lstat(path, &st))
			return lp_fail(why, len, LP_ECONFIG, "%s: %s", path, strerror(errno));
		if ((err = root_only(path, &st, "file", why, len)))
			return err;
	}
	strcpy(dir, path);
	while ((slash = strrchr(dir, '/'))) {
		if (slash == dir)
			slash[1] = 0;
		else
			*slash = 0;
		if (lstat(dir, &st))
			return lp_fail(why, len, LP_ECONFIG, "%s: %s", dir, strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return lp_fail(why, len, LP_ECONFIG, "%s (above %s) is not a directory", dir,
				       path);
		if ((err = root_only(dir, &st, "directory", why, len)))
			return err;
		if (slash == dir)
			break;
	}
	return LP_OK;
}

int lp_path_canonical(const char *path, char *why, size_t len)
{
	char *real = realpath(path, NULL);
	int err = LP_OK;

	if (!real)
		return lp_fail(why, len, LP_ELISTED, "%s: %s", path, strerror(errno));
	if (strcmp(real, path))
		err = lp_fail(why, len, LP_ELISTED,
			      "%s is or passes through a symbolic link (to %s); list and pass the real path",
			      path, real);
	free(real);
	return err;
}
