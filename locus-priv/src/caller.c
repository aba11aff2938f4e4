// SPDX-License-Identifier: Apache-2.0
/*
 * Who is calling.  Set-user-ID root, the caller is the real uid.  Under
 * sudo the real uid is root and sudo names the caller in SUDO_UID; that
 * variable is believed only when the real uid is root, because only root
 * (or sudo, which sets it itself) can start the helper with real uid 0, and
 * root could run the tools anyway.
 *
 * The checks follow Hadoop's container-executor: a banned user is refused
 * even when listed, a listed user below min.user.id is refused too (so a
 * careless list cannot hand the helper to a system account such as bin),
 * and only listed users pass.  The callers are daemon accounts (hdfs, yarn),
 * which Debian creates with uids 100-999: hence the default minimum 100, not
 * container-executor's 1000, which guards job submitters.
 *
 * Least privilege between the two callers: hdparm.users and zone.users, when
 * set, name who of the allowed users may call the hdparm verbs (the
 * DataNode) and the zonectl, mount and umount verbs (the NodeManager).
 */
#include <stdlib.h>
#include <string.h>
#include "priv.h"

uid_t lp_caller_uid(uid_t ruid, const char *sudo_uid)
{
	unsigned long v;
	char *end;

	if (ruid != 0 || !sudo_uid || !*sudo_uid || *sudo_uid < '0' || *sudo_uid > '9')
		return ruid;
	v = strtoul(sudo_uid, &end, 10);
	if (*end || v > 2147483647UL)
		return ruid;
	return (uid_t)v;
}

int lp_caller_check(const struct lp_config *cfg, uid_t uid, const char *name,
		    char *why, size_t len)
{
	if (!name)
		return lp_fail(why, len, LP_ECALLER, "uid %u has no user name", (unsigned)uid);
	if (lp_list_has(&cfg->banned_users, name))
		return lp_fail(why, len, LP_ECALLER, "user %s (uid %u) is in banned.users", name,
			       (unsigned)uid);
	if (!lp_list_has(&cfg->allowed_users, name))
		return lp_fail(why, len, LP_ECALLER, "user %s (uid %u) is not in allowed.users",
			       name, (unsigned)uid);
	if ((long)uid < cfg->min_uid)
		return lp_fail(why, len, LP_ECALLER, "user %s has uid %u, below min.user.id %ld",
			       name, (unsigned)uid, cfg->min_uid);
	return LP_OK;
}

int lp_caller_may_run(const struct lp_config *cfg, enum lp_tool tool, const char *verb,
		      const char *name, char *why, size_t len)
{
	const struct lp_list *users = tool == LP_HDPARM ? &cfg->hdparm_users : &cfg->zone_users;
	const char *key = tool == LP_HDPARM ? "hdparm.users" : "zone.users";

	if (users->n && !lp_list_has(users, name))
		return lp_fail(why, len, LP_ECALLER, "%s: user %s is not in %s", verb, name, key);
	return LP_OK;
}
