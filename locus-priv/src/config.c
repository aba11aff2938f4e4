// SPDX-License-Identifier: Apache-2.0
/*
 * The configuration file (docs/security.md, "The helper's configuration").
 *
 * Layout: one "key=value" per line; blank lines and lines starting with '#'
 * are ignored; blanks around key and value are dropped.  Lists are comma
 * separated.  Every key may appear once, except "mount", one line per
 * allowed mount.  An unknown key, a repeated key or a bad value refuses the
 * whole file: a typo must not silently widen or narrow what is allowed.
 *
 *   allowed.users    callers allowed (required; user names)
 *   banned.users     callers refused even when allowed (default: root)
 *   hdparm.users     of those, who may call the hdparm verbs (default: all)
 *   zone.users       of those, who may call the zonectl, mount and umount
 *                    verbs (default: all)
 *   min.user.id      callers below this uid are refused (default: 100)
 *   hdparm.path, zonectl.path, mount.path, umount.path
 *                    the tools (defaults: /usr/sbin/hdparm,
 *                    /usr/local/sbin/zonectl, /usr/bin/mount, /usr/bin/umount)
 *   hdparm.devices   disks the hdparm verbs may act on
 *   zonectl.devices  devices or images the offline zonectl verbs may edit
 *   zonectl.mounts   mount points the online (hold) zonectl verbs may use
 *   zonectl.state-dir  zonectl's journal directory (ZONECTL_STATE_DIR)
 *   mount            DEVICE MOUNTPOINT FSTYPE [OPTIONS]: one allowed mount
 *
 * The file and every directory above it must be root's and writable by root
 * only; so must the tools (checked where they are run, main.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "priv.h"

#define LP_MAX_FILE 65536

static const char *const tool_keys[LP_NTOOLS] = {
	[LP_HDPARM] = "hdparm.path",
	[LP_ZONECTL] = "zonectl.path",
	[LP_MOUNT] = "mount.path",
	[LP_UMOUNT] = "umount.path",
};

static const char *const tool_defaults[LP_NTOOLS] = {
	[LP_HDPARM] = "/usr/sbin/hdparm",
	[LP_ZONECTL] = "/usr/local/sbin/zonectl",
	[LP_MOUNT] = "/usr/bin/mount",
	[LP_UMOUNT] = "/usr/bin/umount",
};

const char *lp_tool_key(enum lp_tool tool)
{
	return tool_keys[tool];
}

int lp_list_has(const struct lp_list *list, const char *item)
{
	int i;

	for (i = 0; i < list->n; i++)
		if (!strcmp(list->item[i], item))
			return 1;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

static int user_name_ok(const char *s)
{
	if (!*s || strlen(s) > 32 || !((*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && !strchr("_.-", *s))
			return 0;
	return 1;
}

/* A comma-separated list of user names (paths == 0) or of paths. */
static int parse_list(const char *key, char *value, int paths, struct lp_list *list,
		      int lineno, char *why, size_t len)
{
	char inner[LP_MAX_VALUE], *rest = value, *tok;

	while (list->n)
		free(list->item[--list->n]);
	while ((tok = strsep(&rest, ","))) {
		tok = trim(tok);
		if (!*tok)
			return lp_fail(why, len, LP_ECONFIG, "line %d: %s has an empty entry",
				       lineno, key);
		if (paths && lp_path_syntax(tok, inner, sizeof(inner)))
			return lp_fail(why, len, LP_ECONFIG, "line %d: %s: %s", lineno, key, inner);
		if (!paths && !user_name_ok(tok))
			return lp_fail(why, len, LP_ECONFIG, "line %d: %s: '%.64s' is not a user name",
				       lineno, key, tok);
		if (list->n == LP_MAX_LIST)
			return lp_fail(why, len, LP_ECONFIG, "line %d: %s has more than %d entries",
				       lineno, key, LP_MAX_LIST);
		list->item[list->n] = strdup(tok);
		if (!list->item[list->n])
			return lp_fail(why, len, LP_ECONFIG, "out of memory");
		list->n++;
	}
	return LP_OK;
}

static int word_ok(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && !strchr(extra, *s))
			return 0;
	return 1;
}

/* "DEVICE MOUNTPOINT FSTYPE [OPTIONS]" */
static int parse_mount(char *value, struct lp_config *cfg, int lineno, char *why, size_t len)
{
	char *field[5], *save = NULL, *tok;
	char inner[LP_MAX_VALUE];
	struct lp_mount *m;
	int n = 0, i;

	for (tok = strtok_r(value, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (n == 4)
			return lp_fail(why, len, LP_ECONFIG,
				       "line %d: mount: expected DEVICE MOUNTPOINT FSTYPE [OPTIONS]", lineno);
		field[n++] = tok;
	}
	if (n < 3)
		return lp_fail(why, len, LP_ECONFIG,
			       "line %d: mount: expected DEVICE MOUNTPOINT FSTYPE [OPTIONS]", lineno);
	for (i = 0; i < 2; i++)
		if (lp_path_syntax(field[i], inner, sizeof(inner)))
			return lp_fail(why, len, LP_ECONFIG, "line %d: mount: %s", lineno, inner);
	if (strcmp(field[2], "ext2") && strcmp(field[2], "ext3") && strcmp(field[2], "ext4"))
		return lp_fail(why, len, LP_ECONFIG,
			       "line %d: mount: file system type '%.32s' is not ext2, ext3 or ext4",
			       lineno, field[2]);
	if (n == 4 && !word_ok(field[3], ",=_.-"))
		return lp_fail(why, len, LP_ECONFIG,
			       "line %d: mount: options '%.64s' may hold only a-z 0-9 , = _ . -",
			       lineno, field[3]);
	if (cfg->nmounts == LP_MAX_MOUNTS)
		return lp_fail(why, len, LP_ECONFIG, "line %d: more than %d mount lines", lineno,
			       LP_MAX_MOUNTS);
	m = &cfg->mounts[cfg->nmounts++];
	m->device = strdup(field[0]);
	m->dir = strdup(field[1]);
	m->fstype = strdup(field[2]);
	m->options = strdup(n == 4 ? field[3] : "");
	if (!m->device || !m->dir || !m->fstype || !m->options)
		return lp_fail(why, len, LP_ECONFIG, "out of memory");
	return LP_OK;
}

static int parse_single_path(const char *key, const char *value, char **out, int lineno,
			     char *why, size_t len)
{
	char inner[LP_MAX_VALUE];

	if (lp_path_syntax(value, inner, sizeof(inner)))
		return lp_fail(why, len, LP_ECONFIG, "line %d: %s: %s", lineno, key, inner);
	free(*out);
	*out = strdup(value);
	return *out ? LP_OK : lp_fail(why, len, LP_ECONFIG, "out of memory");
}

static int parse_line(char *key, char *value, struct lp_config *cfg, int lineno,
		      char *why, size_t len)
{
	char *end;
	int t;

	if (!strcmp(key, "mount"))
		return parse_mount(value, cfg, lineno, why, len);
	if (!strcmp(key, "allowed.users"))
		return parse_list(key, value, 0, &cfg->allowed_users, lineno, why, len);
	if (!strcmp(key, "banned.users")) {
		if (!*value) {
			while (cfg->banned_users.n)
				free(cfg->banned_users.item[--cfg->banned_users.n]);
			return LP_OK;
		}
		return parse_list(key, value, 0, &cfg->banned_users, lineno, why, len);
	}
	if (!strcmp(key, "hdparm.users"))
		return parse_list(key, value, 0, &cfg->hdparm_users, lineno, why, len);
	if (!strcmp(key, "zone.users"))
		return parse_list(key, value, 0, &cfg->zone_users, lineno, why, len);
	if (!strcmp(key, "hdparm.devices"))
		return parse_list(key, value, 1, &cfg->hdparm_devices, lineno, why, len);
	if (!strcmp(key, "zonectl.devices"))
		return parse_list(key, value, 1, &cfg->zonectl_devices, lineno, why, len);
	if (!strcmp(key, "zonectl.mounts"))
		return parse_list(key, value, 1, &cfg->zonectl_mounts, lineno, why, len);
	if (!strcmp(key, "zonectl.state-dir"))
		return parse_single_path(key, value, &cfg->zonectl_state_dir, lineno, why, len);
	if (!strcmp(key, "min.user.id")) {
		errno = 0;
		cfg->min_uid = strtol(value, &end, 10);
		if (!*value || *end || errno || cfg->min_uid < 0 || cfg->min_uid > 2147483647L ||
		    !(*value >= '0' && *value <= '9'))
			return lp_fail(why, len, LP_ECONFIG,
				       "line %d: min.user.id must be a uid 0..2147483647, got '%.32s'",
				       lineno, value);
		return LP_OK;
	}
	for (t = 0; t < LP_NTOOLS; t++)
		if (!strcmp(key, tool_keys[t]))
			return parse_single_path(key, value, &cfg->tool_path[t], lineno, why, len);
	return lp_fail(why, len, LP_ECONFIG, "line %d: unknown key '%.64s'", lineno, key);
}

int lp_config_parse(const char *text, struct lp_config *cfg, char *why, size_t len)
{
	static const char *const once[] = {
		"allowed.users", "banned.users", "hdparm.users", "zone.users", "min.user.id",
		"hdparm.path", "zonectl.path",
		"mount.path", "umount.path", "hdparm.devices", "zonectl.devices",
		"zonectl.mounts", "zonectl.state-dir",
	};
	int seen[sizeof(once) / sizeof(once[0])] = { 0 };
	char *copy, *line, *save = NULL, *eq, *key;
	int lineno = 0, err = LP_OK, t;
	size_t i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->min_uid = 100;
	cfg->banned_users.item[0] = strdup("root");
	cfg->banned_users.n = 1;
	for (t = 0; t < LP_NTOOLS; t++)
		cfg->tool_path[t] = strdup(tool_defaults[t]);
	copy = strdup(text);
	if (!copy)
		return lp_fail(why, len, LP_ECONFIG, "out of memory");
	/* strtok_r would merge empty lines and shift line numbers: split by hand */
	for (line = copy; line && !err; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = 0;
		lineno++;
		line = trim(line);
		if (!*line || *line == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			err = lp_fail(why, len, LP_ECONFIG, "line %d: expected key=value", lineno);
			break;
		}
		*eq = 0;
		key = trim(line);
		for (i = 0; i < sizeof(once) / sizeof(once[0]); i++)
			if (!strcmp(key, once[i]) && seen[i]++) {
				err = lp_fail(why, len, LP_ECONFIG, "line %d: %s is set twice",
					      lineno, key);
				break;
			}
		if (!err)
			err = parse_line(key, trim(eq + 1), cfg, lineno, why, len);
	}
	free(copy);
	if (!err && cfg->allowed_users.n == 0)
		err = lp_fail(why, len, LP_ECONFIG, "allowed.users is not set: nobody may call");
	return err;
}

int lp_config_load(const char *path, struct lp_config *cfg, char *why, size_t len)
{
	char text[LP_MAX_FILE + 1];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, err;

	if ((err = lp_path_trusted(path, 1, why, len)))
		return err;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return lp_fail(why, len, LP_ECONFIG, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return lp_fail(why, len, LP_ECONFIG,
			       "%s is not a regular file owned by root and writable by root only", path);
	}
	while ((n = read(fd, text + got, LP_MAX_FILE + 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (n < 0)
		return lp_fail(why, len, LP_ECONFIG, "%s: %s", path, strerror(errno));
	if (got > LP_MAX_FILE)
		return lp_fail(why, len, LP_ECONFIG, "%s is larger than %d bytes", path,
			       LP_MAX_FILE);
	text[got] = 0;
	if (memchr(text, 0, got))
		return lp_fail(why, len, LP_ECONFIG, "%s holds a NUL byte", path);
	if ((err = lp_config_parse(text, cfg, why, len))) {
		char inner[2 * LP_MAX_VALUE];

		snprintf(inner, sizeof(inner), "%s", why);
		return lp_fail(why, len, err, "%s: %.1800s", path, inner);
	}
	return LP_OK;
}

static void free_list(struct lp_list *list)
{
	int i;

	for (i = 0; i < list->n; i++)
		free(list->item[i]);
	list->n = 0;
}

void lp_config_free(struct lp_config *cfg)
{
	int i;

	free_list(&cfg->allowed_users);
	free_list(&cfg->banned_users);
	free_list(&cfg->hdparm_users);
	free_list(&cfg->zone_users);
	free_list(&cfg->hdparm_devices);
	free_list(&cfg->zonectl_devices);
	free_list(&cfg->zonectl_mounts);
	for (i = 0; i < LP_NTOOLS; i++)
		free(cfg->tool_path[i]);
	free(cfg->zonectl_state_dir);
	for (i = 0; i < cfg->nmounts; i++) {
		free(cfg->mounts[i].device);
		free(cfg->mounts[i].dir);
		free(cfg->mounts[i].fstype);
		free(cfg->mounts[i].options);
	}
	memset(cfg, 0, sizeof(*cfg));
}
