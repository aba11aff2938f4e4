// SPDX-License-Identifier: Apache-2.0
/* classify: temp or perm job from a df profile (seed §4.1). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "zonectl.h"

static const char classify_help[] =
"usage: zonectl classify --profile FILE [--beta 0.1] [-p]\n"
"Classify a job from its disk-usage profile (seed 002 §4.1): repeated 'df'\n"
"output, 'TIME USED' pairs, or one USED per line, sampled from before the\n"
"job starts until after it ends.  temp if used-after < beta x max-used,\n"
"else perm.  Prints 'temp' or 'perm' (with -p: class=... max=... after=...).\n";

int cmd_classify(int argc, char **argv)
{
	static const struct option own[] = {
		{ "profile", required_argument, NULL, 'f' },
		{ "beta", required_argument, NULL, 'b' },
	};
	struct opts o = { 0 };
	const char *prof = NULL;
	double beta = 0.1, max, after;
	enum zn_class cls;
	char why[160];
	FILE *f;
	int c, err;

	while ((c = getopt_long(argc, argv, COMMON_SHORT, longopts(own, 2), NULL)) != -1) {
		if (common_opt(c, &o))
			continue;
		if (c == 'f') {
			prof = optarg;
		} else if (c == 'b') {
			char *end;

			beta = strtod(optarg, &end);
			if (*end || beta <= 0 || beta >= 1)
				return usage_err("classify", "--beta must be a number in (0, 1)");
		} else {
			return ZN_EUSAGE;
		}
	}
	if (o.help)
		return fputs(classify_help, stdout), 0;
	if (!prof || optind != argc)
		return usage_err("classify", "--profile FILE is required ('-' for stdin)");
	f = strcmp(prof, "-") ? fopen(prof, "r") : stdin;
	if (!f)
		return zn_fail(errno == EACCES ? ZN_EPERM : ZN_EUSAGE, "--profile %s: %s",
			       prof, strerror(errno));
	err = zn_classify(f, beta, &cls, &max, &after, why, sizeof(why));
	if (f != stdin)
		fclose(f);
	if (err)
		return err;
	if (o.porcelain)
		printf("class=%s max=%.0f after=%.0f beta=%g\n",
		       cls == ZN_CLASS_TEMP ? "temp" : "perm", max, after, beta);
	else
		printf("%s (%s)\n", cls == ZN_CLASS_TEMP ? "temp" : "perm", why);
	return 0;
}
