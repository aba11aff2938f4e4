/* SPDX-License-Identifier: Apache-2.0 */
/*
 * locus-priv - the one privileged helper of Locus (docs/security.md).
 *
 * A DataNode (energy: hdparm) and a NodeManager (zone hook: zonectl, mount,
 * umount) reach root only through this program: a fixed table of verbs,
 * each with a fixed argument shape and a fixed argument vector of a tool
 * whose absolute path comes from a root-owned configuration file, on devices
 * and mount points that file lists.  Policy (who may call, on what) is in the
 * configuration; this header is the mechanism's one vocabulary.
 *
 * Exit codes 200-206 are the helper's own refusals (lp_code); any other exit
 * code is the tool's own, as the helper replaces itself with the tool.
 */
#ifndef LOCUS_PRIV_H
#define LOCUS_PRIV_H

#include <stddef.h>
#include <sys/types.h>

enum lp_code {
	LP_OK = 0,
	LP_EUSAGE = 200,	/* unknown verb, wrong number of arguments */
	LP_ECONFIG = 201,	/* configuration missing, unsafe or malformed */
	LP_ECALLER = 202,	/* calling user not allowed, banned or below min uid */
	LP_ELISTED = 203,	/* device or mount point not allow-listed (or a link) */
	LP_EARG = 204,		/* an argument's value is not allowed */
	LP_EEXEC = 205,		/* the tool is unsafe, missing or failed to start */
	LP_EPRIV = 206,		/* not running as root (neither setuid nor sudo) */
};

#define LP_MAX_LIST 32		/* entries per list in the configuration */
#define LP_MAX_MOUNTS 16	/* mount entries */
#define LP_MAX_VALUE 1024	/* longest value or path */
#define LP_MAX_ARGV 16		/* longest tool argument vector, NULL included */

/* The tools a verb may run. */
enum lp_tool { LP_HDPARM, LP_ZONECTL, LP_MOUNT, LP_UMOUNT, LP_NTOOLS };

/* One allowed mount: device, mount point, file system type, extra options. */
struct lp_mount {
	char *device;
	char *dir;
	char *fstype;
	char *options;		/* "" when none */
};

struct lp_list {
	char *item[LP_MAX_LIST];
	int n;
};

/* The parsed configuration file (config.c). */
struct lp_config {
	struct lp_list allowed_users;
	struct lp_list banned_users;
	struct lp_list hdparm_users;	/* empty: every allowed user */
	struct lp_list zone_users;	/* empty: every allowed user */
	long min_uid;
	char *tool_path[LP_NTOOLS];
	struct lp_list hdparm_devices;
	struct lp_list zonectl_devices;
	struct lp_list zonectl_mounts;
	char *zonectl_state_dir;	/* NULL: zonectl's own default */
	struct lp_mount mounts[LP_MAX_MOUNTS];
	int nmounts;
};

/* error.c: every refusal is one line on stderr naming what was refused. */
int lp_refuse(enum lp_code code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Like lp_refuse, but into a buffer (for the pure checks unit-tested). */
int lp_fail(char *why, size_t len, enum lp_code code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *lp_code_name(enum lp_code code);

/* config.c */
int lp_config_parse(const char *text, struct lp_config *cfg, char *why, size_t len);
int lp_config_load(const char *path, struct lp_config *cfg, char *why, size_t len);
void lp_config_free(struct lp_config *cfg);
int lp_list_has(const struct lp_list *list, const char *item);
const char *lp_tool_key(enum lp_tool tool);

/* path.c */
int lp_path_syntax(const char *path, char *why, size_t len);
int lp_path_trusted(const char *path, int check_self, char *why, size_t len);
int lp_path_canonical(const char *path, char *why, size_t len);

/* caller.c */
uid_t lp_caller_uid(uid_t ruid, const char *sudo_uid);
int lp_caller_check(const struct lp_config *cfg, uid_t uid, const char *name,
		    char *why, size_t len);
int lp_caller_may_run(const struct lp_config *cfg, enum lp_tool tool, const char *verb,
		      const char *name, char *why, size_t len);

/* verbs.c */
struct lp_verb;
const struct lp_verb *lp_verb_find(const char *name);
enum lp_tool lp_verb_tool(const struct lp_verb *v);
int lp_verb_build(const struct lp_verb *v, const struct lp_config *cfg,
		  int argc, char **argv, const char **out, char *why, size_t len);
int lp_verb_check_files(const struct lp_verb *v, int argc, char **argv, char *why,
			size_t len);
void lp_verb_usage(void *stream);

#endif
