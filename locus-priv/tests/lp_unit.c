// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests of the checks that need no privileges and no files: the
 * configuration's syntax, path syntax, the caller checks, every verb's
 * argument validation and the exact tool argument vector it builds.
 * Prints "PASS|FAIL name" per test and ends with "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "priv.h"

static int passed, failed, ok;
static char why[4096];

#define CHECK(cond) do { if (!(cond)) { ok = 0; \
	fprintf(stderr, "  %s:%d: %s (why: %s)\n", __FILE__, __LINE__, #cond, why); } } while (0)
#define TEST(name) static void name(void)

static const char good[] =
	"# a comment\n"
	"\n"
	"allowed.users = hdfs, yarn\n"
	"banned.users=root,bin\n"
	"min.user.id=100\n"
	"hdparm.devices=/dev/sdb,/dev/sdc\n"
	"zonectl.devices=/dev/sdd1\n"
	"zonectl.mounts=/grid/0/yarn-local\n"
	"zonectl.state-dir=/var/lib/zonectl\n"
	"zonectl.path=/opt/locus/zonectl\n"
	"mount=/dev/sdd1 /grid/0/yarn-local ext4 noatime\n"
	"mount=/srv/img/local.img /srv/local ext4 loop\n";

static struct lp_config cfg;

static int parse(const char *text)
{
	struct lp_config c;
	int err = lp_config_parse(text, &c, why, sizeof(why));

	lp_config_free(&c);
	return err;
}

TEST(config_with_every_key_parses)
{
	CHECK(lp_config_parse(good, &cfg, why, sizeof(why)) == LP_OK);
	CHECK(cfg.allowed_users.n == 2 && lp_list_has(&cfg.allowed_users, "yarn"));
	CHECK(cfg.banned_users.n == 2 && lp_list_has(&cfg.banned_users, "bin"));
	CHECK(cfg.min_uid == 100);
	CHECK(cfg.nmounts == 2 && !strcmp(cfg.mounts[1].options, "loop"));
	CHECK(!strcmp(cfg.tool_path[LP_ZONECTL], "/opt/locus/zonectl"));
	CHECK(!strcmp(cfg.tool_path[LP_HDPARM], "/usr/sbin/hdparm"));
	CHECK(!strcmp(cfg.zonectl_state_dir, "/var/lib/zonectl"));
}

TEST(defaults_ban_root_and_uids_below_100)
{
	struct lp_config c;

	CHECK(lp_config_parse("allowed.users=hdfs\n", &c, why, sizeof(why)) == LP_OK);
	CHECK(c.banned_users.n == 1 && lp_list_has(&c.banned_users, "root"));
	CHECK(c.min_uid == 100);
	CHECK(!strcmp(c.tool_path[LP_MOUNT], "/usr/bin/mount"));
	CHECK(c.hdparm_devices.n == 0 && c.nmounts == 0 && !c.zonectl_state_dir);
	lp_config_free(&c);
	CHECK(lp_config_parse("allowed.users=hdfs\nbanned.users=\n", &c, why, sizeof(why)) == LP_OK);
	CHECK(c.banned_users.n == 0);
	lp_config_free(&c);
}

TEST(config_refuses_unknown_repeated_and_missing_keys)
{
	CHECK(parse("allowed.users=hdfs\nhdparm.options=-S\n") == LP_ECONFIG);
	CHECK(strstr(why, "line 2: unknown key 'hdparm.options'"));
	CHECK(parse("allowed.users=hdfs\nallowed.users=root\n") == LP_ECONFIG);
	CHECK(strstr(why, "set twice"));
	CHECK(parse("banned.users=bin\n") == LP_ECONFIG);
	CHECK(strstr(why, "allowed.users is not set"));
	CHECK(parse("allowed.users\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=\n") == LP_ECONFIG);
}

TEST(config_refuses_bad_values)
{
	CHECK(parse("allowed.users=hdfs\nmin.user.id=-1\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nhdparm.users=\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nzone.users=yarn,\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nmin.user.id=10x\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nmin.user.id=\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=Hdfs\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs yarn\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs,,yarn\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=*\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nhdparm.devices=sdb\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nhdparm.devices=/dev/sd*\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nhdparm.path=hdparm\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nmount=/dev/sdd1 /mnt xfs\n") == LP_ECONFIG);
	CHECK(strstr(why, "not ext2, ext3 or ext4"));
	CHECK(parse("allowed.users=hdfs\nmount=/dev/sdd1 /mnt\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nmount=/dev/sdd1 /mnt ext4 a b\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nmount=/dev/sdd1 /mnt ext4 suid;x\n") == LP_ECONFIG);
	CHECK(parse("allowed.users=hdfs\nmount=/dev/sdd1 ../mnt ext4\n") == LP_ECONFIG);
}

TEST(paths_are_absolute_clean_and_never_options)
{
	const char *bad[] = { "", "dev/sdb", "-S", "--security-erase", "/dev/../dev/sda",
			      "/dev/./sdb", "/dev//sdb", "/dev/sdb/", "/dev/sd b", "/dev/sdb\n",
			      "/dev/sd*", "/dev/sdb;reboot", "/dev/$(x)", "/..", "/dev/.." };
	size_t i;

	CHECK(lp_path_syntax("/dev/sdb", why, sizeof(why)) == LP_OK);
	CHECK(lp_path_syntax("/dev/disk/by-id/ata-X_Y-1:0", why, sizeof(why)) == LP_OK);
	CHECK(lp_path_syntax("/", why, sizeof(why)) == LP_OK);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = lp_path_syntax(bad[i], why, sizeof(why));

		if (err != LP_EARG)
			fprintf(stderr, "  accepted '%s'\n", bad[i]);
		CHECK(err == LP_EARG);
	}
}

TEST(sudo_uid_counts_only_when_the_real_uid_is_root)
{
	CHECK(lp_caller_uid(1000, "0") == 1000);
	CHECK(lp_caller_uid(1000, NULL) == 1000);
	CHECK(lp_caller_uid(0, "998") == 998);
	CHECK(lp_caller_uid(0, NULL) == 0);
	CHECK(lp_caller_uid(0, "") == 0);
	CHECK(lp_caller_uid(0, "12x") == 0);
	CHECK(lp_caller_uid(0, "-1") == 0);
	CHECK(lp_caller_uid(0, "99999999999") == 0);
}

TEST(caller_must_be_allowed_not_banned_and_at_least_min_uid)
{
	CHECK(lp_caller_check(&cfg, 998, "hdfs", why, sizeof(why)) == LP_OK);
	CHECK(lp_caller_check(&cfg, 997, "yarn", why, sizeof(why)) == LP_OK);
	CHECK(lp_caller_check(&cfg, 1001, "mallory", why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "user mallory (uid 1001) is not in allowed.users"));
	CHECK(lp_caller_check(&cfg, 99, "hdfs", why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "below min.user.id 100"));
	CHECK(lp_caller_check(&cfg, 2, "bin", why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "banned.users"));
	CHECK(lp_caller_check(&cfg, 4321, NULL, why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "uid 4321 has no user name"));
}

TEST(family_lists_keep_each_daemon_to_its_own_verbs)
{
	struct lp_config c;

	CHECK(lp_config_parse("allowed.users=hdfs,yarn\nhdparm.users=hdfs\nzone.users=yarn\n",
			      &c, why, sizeof(why)) == LP_OK);
	CHECK(lp_caller_may_run(&c, LP_HDPARM, "spin-down", "hdfs", why, sizeof(why)) == LP_OK);
	CHECK(lp_caller_may_run(&c, LP_HDPARM, "spin-down", "yarn", why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "spin-down: user yarn is not in hdparm.users"));
	CHECK(lp_caller_may_run(&c, LP_ZONECTL, "hold", "yarn", why, sizeof(why)) == LP_OK);
	CHECK(lp_caller_may_run(&c, LP_ZONECTL, "hold", "hdfs", why, sizeof(why)) == LP_ECALLER);
	CHECK(lp_caller_may_run(&c, LP_MOUNT, "mount", "hdfs", why, sizeof(why)) == LP_ECALLER);
	CHECK(lp_caller_may_run(&c, LP_UMOUNT, "umount", "hdfs", why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "not in zone.users"));
	lp_config_free(&c);
	/* unset: every allowed user */
	CHECK(lp_caller_may_run(&cfg, LP_HDPARM, "sleep", "yarn", why, sizeof(why)) == LP_OK);
	CHECK(lp_caller_may_run(&cfg, LP_MOUNT, "mount", "hdfs", why, sizeof(why)) == LP_OK);
}

TEST(banned_wins_over_allowed)
{
	struct lp_config c;

	CHECK(lp_config_parse("allowed.users=root,hdfs\nmin.user.id=0\n", &c, why, sizeof(why)) == 0);
	CHECK(lp_caller_check(&c, 0, "root", why, sizeof(why)) == LP_ECALLER);
	CHECK(strstr(why, "banned.users"));
	lp_config_free(&c);
}

/* Builds VERB ARGS... and compares the tool's vector with the expected words. */
static int build(const char *verb, const char **args, int n, const char **out)
{
	const struct lp_verb *v = lp_verb_find(verb);

	if (!v)
		return -1;
	return lp_verb_build(v, &cfg, n, (char **)args, out, why, sizeof(why));
}

static int same(const char **out, const char *expected)
{
	char joined[2048] = "";
	int i;

	for (i = 0; out[i]; i++) {
		if (i)
			strcat(joined, " ");
		strcat(joined, out[i]);
	}
	if (strcmp(joined, expected))
		fprintf(stderr, "  built '%s'\n  wanted '%s'\n", joined, expected);
	return !strcmp(joined, expected);
}

#define BUILDS(verb, expected, ...) do { \
	const char *a_[] = { __VA_ARGS__ }; const char *o_[LP_MAX_ARGV]; \
	int e_ = build(verb, a_, sizeof(a_) / sizeof(a_[0]), o_); \
	CHECK(e_ == LP_OK); if (!e_) CHECK(same(o_, expected)); } while (0)
#define REFUSES(code, verb, ...) do { \
	const char *a_[] = { __VA_ARGS__ }; const char *o_[LP_MAX_ARGV]; \
	int e_ = build(verb, a_, sizeof(a_) / sizeof(a_[0]), o_); \
	if (e_ != (code)) fprintf(stderr, "  %s: got %d\n", verb, e_); \
	CHECK(e_ == (code)); } while (0)

TEST(hdparm_verbs_build_exactly_energys_commands)
{
	BUILDS("standby-timeout", "/usr/sbin/hdparm -S 12 /dev/sdb", "/dev/sdb", "12");
	BUILDS("standby-timeout", "/usr/sbin/hdparm -S 0 /dev/sdc", "/dev/sdc", "0");
	BUILDS("standby-timeout", "/usr/sbin/hdparm -S 251 /dev/sdc", "/dev/sdc", "251");
	BUILDS("spin-down", "/usr/sbin/hdparm -y /dev/sdb", "/dev/sdb");
	BUILDS("sleep", "/usr/sbin/hdparm -Y /dev/sdb", "/dev/sdb");
	BUILDS("spin-up", "/usr/sbin/hdparm --read-sector 0 /dev/sdb", "/dev/sdb");
}

TEST(standby_timeout_is_a_plain_number_up_to_251)
{
	const char *bad[] = { "252", "255", "-1", "07", "1e3", " 5", "5 ", "0x10", "", "+5",
			      "1000", "-S" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		REFUSES(LP_EARG, "standby-timeout", "/dev/sdb", bad[i]);
}

TEST(hdparm_verbs_refuse_unlisted_devices_and_smuggled_options)
{
	REFUSES(LP_ELISTED, "spin-down", "/dev/sda");
	CHECK(strstr(why, "device /dev/sda is not in hdparm.devices"));
	REFUSES(LP_ELISTED, "sleep", "/dev/sdd1");
	REFUSES(LP_EARG, "spin-down", "-S");
	REFUSES(LP_EARG, "spin-down", "--security-erase");
	REFUSES(LP_EARG, "spin-up", "--fwdownload");
	REFUSES(LP_EARG, "spin-up", "/dev/sdb/../sda");
	REFUSES(LP_EARG, "standby-timeout", "-S", "1");
	REFUSES(LP_EUSAGE, "spin-down", "/dev/sdb", "--security-erase");
	REFUSES(LP_EUSAGE, "spin-down");
	REFUSES(LP_EUSAGE, "standby-timeout", "/dev/sdb");
	REFUSES(LP_EUSAGE, "standby-timeout", "/dev/sdb", "1", "/dev/sdc");
}

TEST(zonectl_verbs_build_the_hooks_commands)
{
	BUILDS("area", "/opt/locus/zonectl area --class temp --outer 40G -p /dev/sdd1",
	       "/dev/sdd1", "temp", "40G");
	BUILDS("area", "/opt/locus/zonectl area --class perm --outer 1048576 -p /dev/sdd1",
	       "/dev/sdd1", "perm", "1048576");
	BUILDS("release", "/opt/locus/zonectl release -p /dev/sdd1", "/dev/sdd1");
	BUILDS("status", "/opt/locus/zonectl status -p /dev/sdd1", "/dev/sdd1");
	BUILDS("recover", "/opt/locus/zonectl recover /dev/sdd1", "/dev/sdd1");
	BUILDS("hold", "/opt/locus/zonectl hold --class temp --outer 4GiB -p /grid/0/yarn-local",
	       "/grid/0/yarn-local", "temp", "4GiB");
	BUILDS("hold-release", "/opt/locus/zonectl hold-release -p /grid/0/yarn-local",
	       "/grid/0/yarn-local");
	BUILDS("hold-status", "/opt/locus/zonectl hold-status -p /grid/0/yarn-local",
	       "/grid/0/yarn-local");
	BUILDS("hold-recover", "/opt/locus/zonectl hold-recover -p /grid/0/yarn-local",
	       "/grid/0/yarn-local");
	BUILDS("hold-monitor", "/opt/locus/zonectl hold-monitor --expand-below 2g --count 1 -p "
	       "/grid/0/yarn-local", "/grid/0/yarn-local", "2g");
}

TEST(zonectl_verbs_refuse_bad_classes_sizes_and_places)
{
	const char *sizes[] = { "", "G", "-5", "1.5G", "5X", "5Gx", "1234567890123456", "5 G",
				"--journal", "0x10" };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		REFUSES(LP_EARG, "area", "/dev/sdd1", "temp", sizes[i]);
	REFUSES(LP_EARG, "hold-monitor", "/grid/0/yarn-local", "-n");
	REFUSES(LP_EARG, "area", "/dev/sdd1", "TEMP", "40G");
	REFUSES(LP_EARG, "hold", "/grid/0/yarn-local", "--journal=/etc/shadow", "40G");
	REFUSES(LP_ELISTED, "area", "/dev/sdb", "temp", "40G");
	REFUSES(LP_ELISTED, "area", "/grid/0/yarn-local", "temp", "40G");
	REFUSES(LP_ELISTED, "hold", "/dev/sdd1", "temp", "40G");
	REFUSES(LP_ELISTED, "hold-release", "/tmp");
	REFUSES(LP_EARG, "release", "--journal");
	REFUSES(LP_EARG, "recover", "-n");
	REFUSES(LP_EARG, "hold-status", "/grid/0/yarn-local/../../etc");
	REFUSES(LP_EUSAGE, "release", "/dev/sdd1", "-p");
	REFUSES(LP_EUSAGE, "hold", "/grid/0/yarn-local", "temp");
}

TEST(mount_uses_the_mount_lines_type_and_options_plus_nosuid_nodev)
{
	BUILDS("mount", "/usr/bin/mount -t ext4 -o nosuid,nodev,noatime /dev/sdd1 "
	       "/grid/0/yarn-local", "/dev/sdd1", "/grid/0/yarn-local");
	BUILDS("mount", "/usr/bin/mount -t ext4 -o nosuid,nodev,loop /srv/img/local.img "
	       "/srv/local", "/srv/img/local.img", "/srv/local");
	BUILDS("umount", "/usr/bin/umount /grid/0/yarn-local", "/grid/0/yarn-local");
	BUILDS("umount", "/usr/bin/umount /srv/local", "/srv/local");
}

TEST(mount_refuses_pairs_and_places_not_in_a_mount_line)
{
	REFUSES(LP_ELISTED, "mount", "/dev/sdd1", "/srv/local");
	CHECK(strstr(why, "is not a mount line"));
	REFUSES(LP_ELISTED, "mount", "/dev/sda1", "/grid/0/yarn-local");
	REFUSES(LP_ELISTED, "mount", "/dev/sdd1", "/etc");
	REFUSES(LP_ELISTED, "umount", "/");
	REFUSES(LP_EARG, "mount", "--bind", "/grid/0/yarn-local");
	REFUSES(LP_EARG, "mount", "-o", "/grid/0/yarn-local");
	REFUSES(LP_EARG, "umount", "-l");
	REFUSES(LP_EUSAGE, "mount", "/dev/sdd1", "/grid/0/yarn-local", "-o");
	REFUSES(LP_EUSAGE, "umount", "/grid/0/yarn-local", "/srv/local");
}

TEST(unknown_verbs_do_not_exist)
{
	CHECK(!lp_verb_find("hdparm"));
	CHECK(!lp_verb_find("exec"));
	CHECK(!lp_verb_find("bench"));
	CHECK(!lp_verb_find("classify"));
	CHECK(!lp_verb_find("-S"));
	CHECK(!lp_verb_find(""));
}

/*
 * Whatever a caller passes, the option words of the tool's vector are the
 * verb's own: every argument slot of every verb is tried with option-like
 * words, and every vector that is built holds no option outside the tool's
 * fixed set.
 */
TEST(no_argument_ever_becomes_an_option)
{
	static const char *const verbs[] = { "standby-timeout", "spin-down", "sleep", "spin-up",
		"area", "release", "status", "recover", "hold", "hold-release", "hold-status",
		"hold-recover", "hold-monitor", "mount", "umount" };
	static const char *const valid[][3] = {
		{ "/dev/sdb", "5" }, { "/dev/sdb" }, { "/dev/sdb" }, { "/dev/sdb" },
		{ "/dev/sdd1", "temp", "40G" }, { "/dev/sdd1" }, { "/dev/sdd1" }, { "/dev/sdd1" },
		{ "/grid/0/yarn-local", "perm", "40G" }, { "/grid/0/yarn-local" },
		{ "/grid/0/yarn-local" }, { "/grid/0/yarn-local" }, { "/grid/0/yarn-local", "2G" },
		{ "/dev/sdd1", "/grid/0/yarn-local" }, { "/grid/0/yarn-local" } };
	static const int nargs[] = { 2, 1, 1, 1, 3, 1, 1, 1, 3, 1, 1, 1, 2, 2, 1 };
	static const char *const options[] = { "-S", "-y", "-Y", "-C", "--security-erase",
		"--security-unlock", "--fwdownload", "--write-sector", "--read-sector", "-W0",
		"--journal", "-j", "-n", "-p", "--bench", "-o", "-t", "--bind", "-l", "-f",
		"-a", "--", "-", "-o=remount", "--class=temp", "--outer", "--count", "--help" };
	static const char *const allowed = " -S -y -Y --read-sector --class --outer -p "
		"--expand-below --count -t -o ";
	const char *out[LP_MAX_ARGV], *args[3];
	size_t v, o;
	int slot, i, built = 0;

	for (v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++) {
		CHECK(build(verbs[v], (const char **)valid[v], nargs[v], out) == LP_OK);
		for (slot = 0; slot < nargs[v]; slot++)
			for (o = 0; o < sizeof(options) / sizeof(options[0]); o++) {
				memcpy(args, valid[v], sizeof(args));
				args[slot] = options[o];
				if (build(verbs[v], args, nargs[v], out) != LP_OK)
					continue;
				built++;
				for (i = 1; out[i]; i++) {
					char word[64];

					snprintf(word, sizeof(word), " %s ", out[i]);
					if (out[i][0] == '-' && !strstr(allowed, word)) {
						fprintf(stderr, "  %s slot %d '%s' gave option %s\n",
							verbs[v], slot, options[o], out[i]);
						ok = 0;
					}
				}
			}
	}
	CHECK(built == 0);
}

int main(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
#define T(n) { #n, n }
		T(config_with_every_key_parses),
		T(defaults_ban_root_and_uids_below_100),
		T(config_refuses_unknown_repeated_and_missing_keys),
		T(config_refuses_bad_values),
		T(paths_are_absolute_clean_and_never_options),
		T(sudo_uid_counts_only_when_the_real_uid_is_root),
		T(caller_must_be_allowed_not_banned_and_at_least_min_uid),
		T(family_lists_keep_each_daemon_to_its_own_verbs),
		T(banned_wins_over_allowed),
		T(hdparm_verbs_build_exactly_energys_commands),
		T(standby_timeout_is_a_plain_number_up_to_251),
		T(hdparm_verbs_refuse_unlisted_devices_and_smuggled_options),
		T(zonectl_verbs_build_the_hooks_commands),
		T(zonectl_verbs_refuse_bad_classes_sizes_and_places),
		T(mount_uses_the_mount_lines_type_and_options_plus_nosuid_nodev),
		T(mount_refuses_pairs_and_places_not_in_a_mount_line),
		T(unknown_verbs_do_not_exist),
		T(no_argument_ever_becomes_an_option),
	};
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		ok = 1;
		why[0] = 0;
		tests[i].fn();
		printf("%s %s\n", ok ? "PASS" : "FAIL", tests[i].name);
		if (ok)
			passed++;
		else
			failed++;
	}
	lp_config_free(&cfg);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
