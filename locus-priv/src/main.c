// SPDX-License-Identifier: Apache-2.0
/*
 * locus-priv VERB ARGS...: the order of the checks, then the tool.
 *
 * 1. privileges: the effective uid must be root (set-user-ID root, or sudo);
 * 2. the configuration LP_CONFIG_PATH (fixed when built, never from the
 *    caller): root's, writable by root only, every directory above it too;
 * 3. the caller (caller.c) against allowed.users, banned.users, min.user.id;
 * 4. the verb, the caller against its family's hdparm.users or zone.users,
 *    its arguments (verbs.c), then the files they name (path.c);
 * 5. the tool: the configured absolute path, root's and writable by root
 *    only, run with execve (no shell, no PATH search) as uid and gid 0 with
 *    no supplementary groups, umask 022 and an environment that holds
 *    nothing of the caller's (only ZONECTL_STATE_DIR from the configuration,
 *    for zonectl).  The tool's exit code and output are the helper's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "priv.h"

#ifndef LP_CONFIG_PATH
#define LP_CONFIG_PATH "/etc/locus/locus-priv.cfg"
#endif

/* A set-user-ID program must not write its refusals into a file the caller closed fd 2 onto. */
static void open_standard_fds(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			_exit(LP_EPRIV);
}

static int check_tool(const char *path, char *why, size_t len)
{
	char inner[2 * LP_MAX_VALUE];
	struct stat st;

	if (lp_path_canonical(path, inner, sizeof(inner)) ||
	    lp_path_trusted(path, 1, inner, sizeof(inner)))
		return lp_fail(why, len, LP_EEXEC, "tool %s: %.1800s", path, inner);
	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
		return lp_fail(why, len, LP_EEXEC, "tool %s is not an executable file", path);
	return LP_OK;
}

int main(int argc, char **argv)
{
	char why[2 * LP_MAX_VALUE], sudo_uid[16] = "", name[64] = "", state_env[LP_MAX_VALUE + 32];
	const char *tool_argv[LP_MAX_ARGV];
	char *envp[2] = { NULL, NULL };
	const struct lp_verb *verb;
	struct lp_config cfg;
	struct passwd *pw;
	const char *env;
	uid_t caller;
	int err;

	open_standard_fds();
	env = getenv("SUDO_UID");
	if (env && strlen(env) < sizeof(sudo_uid))
		strcpy(sudo_uid, env);
	clearenv();
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		lp_verb_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? LP_EUSAGE : 0;
	}
	if (geteuid() != 0)
		return lp_refuse(LP_EPRIV, "%s: not running as root; install the helper set-user-ID root or call it through sudo (docs/security.md)",
				 argv[1]);
	if ((err = lp_config_load(LP_CONFIG_PATH, &cfg, why, sizeof(why))))
		return lp_refuse(err, "%s", why);
	caller = lp_caller_uid(getuid(), sudo_uid);
	pw = getpwuid(caller);
	if (pw && strlen(pw->pw_name) < sizeof(name))
		strcpy(name, pw->pw_name);
	if ((err = lp_caller_check(&cfg, caller, *name ? name : NULL, why, sizeof(why))))
		return lp_refuse(err, "%s", why);
	verb = lp_verb_find(argv[1]);
	if (!verb)
		return lp_refuse(LP_EUSAGE, "unknown verb '%.64s' (locus-priv --help lists them)",
				 argv[1]);
	if ((err = lp_caller_may_run(&cfg, lp_verb_tool(verb), argv[1], name, why, sizeof(why))) ||
	    (err = lp_verb_build(verb, &cfg, argc - 2, argv + 2, tool_argv, why, sizeof(why))) ||
	    (err = lp_verb_check_files(verb, argc - 2, argv + 2, why, sizeof(why))) ||
	    (err = check_tool(tool_argv[0], why, sizeof(why))))
		return lp_refuse(err, "%s", why);
	if (lp_verb_tool(verb) == LP_ZONECTL && cfg.zonectl_state_dir) {
		snprintf(state_env, sizeof(state_env), "ZONECTL_STATE_DIR=%s", cfg.zonectl_state_dir);
		envp[0] = state_env;
	}
	if (setgroups(0, NULL) || setresgid(0, 0, 0) || setresuid(0, 0, 0))
		return lp_refuse(LP_EPRIV, "%s: cannot become root fully: %s", argv[1],
				 strerror(errno));
	umask(022);
	execve(tool_argv[0], (char *const *)tool_argv, envp);
	return lp_refuse(LP_EEXEC, "%s: cannot run %s: %s", argv[1], tool_argv[0],
			 strerror(errno));
}
