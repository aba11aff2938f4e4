// SPDX-License-Identifier: Apache-2.0
/*
 * The verbs: what a caller may ask for, the shape of its arguments, and the
 * exact argument vector of the tool that does it.  Nothing a caller passes
 * becomes an option: every option word below is fixed, and an argument only
 * fills a slot after it has been checked against its kind (a listed path, a
 * number in range, a class word, a size).
 *
 * Energy (docs/energy.md, "hdparm and the helper") uses hdparm -S N, -y, -Y
 * and --read-sector 0; the zone hook (docs/zone.md) uses zonectl's offline
 * area/release/status/recover on a device, its online hold commands on a
 * mount point, and mount/umount around offline edits.  zonectl is always run
 * with -p where the hook parses its one-line answer; never with --journal,
 * -n or any other option.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "priv.h"

enum lp_arg {
	LP_A_NONE,
	LP_A_DISK,		/* in hdparm.devices, a block device */
	LP_A_ZONE_DEV,		/* in zonectl.devices, a block device or image file */
	LP_A_ZONE_MOUNT,	/* in zonectl.mounts, a directory */
	LP_A_MOUNT_DEV,		/* the device of a mount line */
	LP_A_MOUNT_DIR,		/* the mount point of a mount line */
	LP_A_TIMEOUT,		/* hdparm -S code, 0..251 */
	LP_A_CLASS,		/* temp or perm */
	LP_A_SIZE,		/* zonectl size: digits, optional K/M/G/T[i][B] */
};

struct lp_verb {
	const char *name;
	enum lp_tool tool;
	int nargs;
	enum lp_arg arg[3];
	/* "%1".."%3": the checked arguments; "%t", "%o": the mount line's type, options */
	const char *argv[LP_MAX_ARGV - 2];
	const char *what;
};

static const struct lp_verb verbs[] = {
	{ "standby-timeout", LP_HDPARM, 2, { LP_A_DISK, LP_A_TIMEOUT },
	  { "-S", "%2", "%1" }, "DISK N: the drive's own idle timer (hdparm -S N, N 0..251)" },
	{ "spin-down", LP_HDPARM, 1, { LP_A_DISK },
	  { "-y", "%1" }, "DISK: standby now (hdparm -y)" },
	{ "sleep", LP_HDPARM, 1, { LP_A_DISK },
	  { "-Y", "%1" }, "DISK: sleep now (hdparm -Y)" },
	{ "spin-up", LP_HDPARM, 1, { LP_A_DISK },
	  { "--read-sector", "0", "%1" }, "DISK: wake by an uncached read (hdparm --read-sector 0)" },
	{ "area", LP_ZONECTL, 3, { LP_A_ZONE_DEV, LP_A_CLASS, LP_A_SIZE },
	  { "area", "--class", "%2", "--outer", "%3", "-p", "%1" },
	  "DEV temp|perm SIZE: zonectl area DEV --class C --outer SIZE -p" },
	{ "release", LP_ZONECTL, 1, { LP_A_ZONE_DEV },
	  { "release", "-p", "%1" }, "DEV: zonectl release DEV -p" },
	{ "status", LP_ZONECTL, 1, { LP_A_ZONE_DEV },
	  { "status", "-p", "%1" }, "DEV: zonectl status DEV -p" },
	{ "recover", LP_ZONECTL, 1, { LP_A_ZONE_DEV },
	  { "recover", "%1" }, "DEV: zonectl recover DEV" },
	{ "hold", LP_ZONECTL, 3, { LP_A_ZONE_MOUNT, LP_A_CLASS, LP_A_SIZE },
	  { "hold", "--class", "%2", "--outer", "%3", "-p", "%1" },
	  "MOUNT temp|perm SIZE: zonectl hold MOUNT --class C --outer SIZE -p" },
	{ "hold-release", LP_ZONECTL, 1, { LP_A_ZONE_MOUNT },
	  { "hold-release", "-p", "%1" }, "MOUNT: zonectl hold-release MOUNT -p" },
	{ "hold-status", LP_ZONECTL, 1, { LP_A_ZONE_MOUNT },
	  { "hold-status", "-p", "%1" }, "MOUNT: zonectl hold-status MOUNT -p" },
	{ "hold-recover", LP_ZONECTL, 1, { LP_A_ZONE_MOUNT },
	  { "hold-recover", "-p", "%1" }, "MOUNT: zonectl hold-recover MOUNT -p" },
	{ "hold-monitor", LP_ZONECTL, 2, { LP_A_ZONE_MOUNT, LP_A_SIZE },
	  { "hold-monitor", "--expand-below", "%2", "--count", "1", "-p", "%1" },
	  "MOUNT FREE: zonectl hold-monitor MOUNT --expand-below FREE --count 1 -p" },
	{ "mount", LP_MOUNT, 2, { LP_A_MOUNT_DEV, LP_A_MOUNT_DIR },
	  { "-t", "%t", "-o", "%o", "%1", "%2" },
	  "DEV MOUNT: mount -t TYPE -o nosuid,nodev[,OPTIONS] DEV MOUNT (a mount line)" },
	{ "umount", LP_UMOUNT, 1, { LP_A_MOUNT_DIR },
	  { "%1" }, "MOUNT: umount MOUNT (the mount point of a mount line)" },
};

#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

const struct lp_verb *lp_verb_find(const char *name)
{
	size_t i;

	for (i = 0; i < NVERBS; i++)
		if (!strcmp(verbs[i].name, name))
			return &verbs[i];
	return NULL;
}

enum lp_tool lp_verb_tool(const struct lp_verb *v)
{
	return v->tool;
}

void lp_verb_usage(void *stream)
{
	size_t i;

	fputs("usage: locus-priv VERB ARGS...   (root-owned configuration: docs/security.md)\n"
	      "verbs:\n", stream);
	for (i = 0; i < NVERBS; i++)
		fprintf(stream, "  %-16s %s\n", verbs[i].name, verbs[i].what);
	fputs("exit codes: 200 usage, 201 configuration, 202 caller, 203 not listed,\n"
	      "  204 argument, 205 tool, 206 privileges; any other: the tool's own\n", stream);
}

/* hdparm -S codes energy uses: 0 (off), 1..240 (5 s steps), 241..251 (30 min steps) */
static int timeout_ok(const char *s)
{
	size_t n = strlen(s);
	int v = 0;

	if (n == 0 || n > 3 || strspn(s, "0123456789") != n || (n > 1 && s[0] == '0'))
		return 0;
	while (*s)
		v = v * 10 + (*s++ - '0');
	return v <= 251;
}

/* zonectl's size syntax (zn_parse_size): digits, then K, M, G or T, then i, then B */
static int size_ok(const char *s)
{
	size_t digits = strspn(s, "0123456789");

	if (digits == 0 || digits > 15)
		return 0;
	s += digits;
	if (!*s)
		return 1;
	if (!strchr("KMGTkmgt", *s))
		return 0;
	s++;
	if (*s == 'i' || *s == 'I')
		s++;
	if (*s == 'B' || *s == 'b')
		s++;
	return !*s;
}

static const struct lp_mount *mount_line(const struct lp_config *cfg, const char *dev,
					 const char *dir)
{
	int i;

	for (i = 0; i < cfg->nmounts; i++)
		if ((!dev || !strcmp(cfg->mounts[i].device, dev)) &&
		    (!dir || !strcmp(cfg->mounts[i].dir, dir)))
			return &cfg->mounts[i];
	return NULL;
}

static int check_arg(const struct lp_verb *v, const struct lp_config *cfg, enum lp_arg kind,
		     const char *a, char *why, size_t len)
{
	char inner[LP_MAX_VALUE];

	switch (kind) {
	case LP_A_TIMEOUT:
		if (!timeout_ok(a))
			return lp_fail(why, len, LP_EARG,
				       "%s: standby timeout '%.32s' is not a number 0..251", v->name, a);
		return LP_OK;
	case LP_A_CLASS:
		if (strcmp(a, "temp") && strcmp(a, "perm"))
			return lp_fail(why, len, LP_EARG, "%s: class '%.32s' is not temp or perm",
				       v->name, a);
		return LP_OK;
	case LP_A_SIZE:
		if (!size_ok(a))
			return lp_fail(why, len, LP_EARG,
				       "%s: size '%.32s' is not digits with an optional K, M, G or T",
				       v->name, a);
		return LP_OK;
	default:
		break;
	}
	if (lp_path_syntax(a, inner, sizeof(inner)))
		return lp_fail(why, len, LP_EARG, "%s: %s", v->name, inner);
	switch (kind) {
	case LP_A_DISK:
		if (!lp_list_has(&cfg->hdparm_devices, a))
			return lp_fail(why, len, LP_ELISTED, "%s: device %s is not in hdparm.devices",
				       v->name, a);
		break;
	case LP_A_ZONE_DEV:
		if (!lp_list_has(&cfg->zonectl_devices, a))
			return lp_fail(why, len, LP_ELISTED, "%s: device %s is not in zonectl.devices",
				       v->name, a);
		break;
	case LP_A_ZONE_MOUNT:
		if (!lp_list_has(&cfg->zonectl_mounts, a))
			return lp_fail(why, len, LP_ELISTED, "%s: mount point %s is not in zonectl.mounts",
				       v->name, a);
		break;
	case LP_A_MOUNT_DEV:
		if (!mount_line(cfg, a, NULL))
			return lp_fail(why, len, LP_ELISTED, "%s: device %s is in no mount line",
				       v->name, a);
		break;
	case LP_A_MOUNT_DIR:
		if (!mount_line(cfg, NULL, a))
			return lp_fail(why, len, LP_ELISTED, "%s: mount point %s is in no mount line",
				       v->name, a);
		break;
	default:
		break;
	}
	return LP_OK;
}

int lp_verb_build(const struct lp_verb *v, const struct lp_config *cfg,
		  int argc, char **argv, const char **out, char *why, size_t len)
{
	static char options[LP_MAX_VALUE + 16];
	const struct lp_mount *m = NULL;
	const char *t;
	int i, n = 0, err;

	if (argc != v->nargs)
		return lp_fail(why, len, LP_EUSAGE, "%s takes %d argument%s (%s), got %d", v->name,
			       v->nargs, v->nargs == 1 ? "" : "s", v->what, argc);
	for (i = 0; i < argc; i++)
		if ((err = check_arg(v, cfg, v->arg[i], argv[i], why, len)))
			return err;
	if (v->tool == LP_MOUNT) {
		m = mount_line(cfg, argv[0], argv[1]);
		if (!m)
			return lp_fail(why, len, LP_ELISTED, "mount: %s on %s is not a mount line",
				       argv[0], argv[1]);
		snprintf(options, sizeof(options), "nosuid,nodev%s%s", *m->options ? "," : "",
			 m->options);
	}
	out[n++] = cfg->tool_path[v->tool];
	for (i = 0; i < LP_MAX_ARGV - 2 && (t = v->argv[i]); i++) {
		if (t[0] == '%' && t[1] >= '1' && t[1] <= '3')
			out[n++] = argv[t[1] - '1'];
		else if (!strcmp(t, "%t"))
			out[n++] = m->fstype;
		else if (!strcmp(t, "%o"))
			out[n++] = options;
		else
			out[n++] = t;
	}
	out[n] = NULL;
	return LP_OK;
}

int lp_verb_check_files(const struct lp_verb *v, int argc, char **argv, char *why,
			size_t len)
{
	struct stat st;
	int i, err, ok;

	for (i = 0; i < argc; i++) {
		enum lp_arg kind = v->arg[i];

		if (kind == LP_A_TIMEOUT || kind == LP_A_CLASS || kind == LP_A_SIZE)
			continue;
		if ((err = lp_path_canonical(argv[i], why, len)))
			return err;
		if ((err = lp_path_trusted(argv[i], 0, why, len)))
			return err;
		if (stat(argv[i], &st))
			return lp_fail(why, len, LP_ELISTED, "%s: cannot stat it", argv[i]);
		if (kind == LP_A_DISK)
			ok = S_ISBLK(st.st_mode);
		else if (kind == LP_A_ZONE_DEV || kind == LP_A_MOUNT_DEV)
			ok = S_ISBLK(st.st_mode) || S_ISREG(st.st_mode);
		else
			ok = S_ISDIR(st.st_mode);
		if (!ok)
			return lp_fail(why, len, LP_ELISTED, "%s: %s is not a %s", v->name, argv[i],
				       kind == LP_A_DISK ? "block device" :
				       kind == LP_A_ZONE_DEV || kind == LP_A_MOUNT_DEV ?
				       "block device or image file" : "directory");
	}
	return LP_OK;
}
