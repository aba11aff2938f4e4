// SPDX-License-Identifier: Apache-2.0
/*
 * Job classification (seed §4.1) and size parsing.
 *
 * A profile is the disk usage sampled with repeated `df` while a job runs.
 * With max = the largest usage above the first sample and after = the last
 * sample above the first, the job is a temp-file job if after < beta * max
 * (seed: beta = 0.1), else a perm-file job.
 * Accepted lines: raw `df` output (the "Used" column, header skipped),
 * "TIME USED" pairs, or one USED number per line; '#' starts a comment.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "zn.h"

static int parse_used(char *line, double *used)
{
	char *f[8], *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, " \t\r\n", &save); t && n < 8;
	     t = strtok_r(NULL, " \t\r\n", &save))
		f[n++] = t;
	if (n == 0 || f[0][0] == '#' || !strcmp(f[0], "Filesystem"))
		return 0;
	if (n >= 6 && f[4][strlen(f[4]) - 1] == '%')
		t = f[2];
	else if (n == 2)
		t = f[1];
	else if (n == 1)
		t = f[0];
	else
		return -1;
	{
		char *end;

		*used = strtod(t, &end);
		if (end == t || *end)
			return -1;
	}
	return 1;
}

int zn_classify(FILE *in, double beta, enum zn_class *out, double *max_used,
		double *after, char *why, size_t whylen)
{
	char line[1024];
	double first = 0, used, max = 0, last = 0;
	int have = 0, lineno = 0, rc;

	while (fgets(line, sizeof(line), in)) {
		lineno++;
		rc = parse_used(line, &used);
		if (rc < 0)
			return zn_fail(ZN_EUSAGE, "profile line %d: expected df output, 'TIME USED' or 'USED'",
				       lineno);
		if (!rc)
			continue;
		if (!have++)
			first = used;
		if (used - first > max)
			max = used - first;
		last = used - first;
	}
	if (have < 2)
		return zn_fail(ZN_EUSAGE, "profile has %d samples; need at least 2 (before and after the job)",
			       have);
	if (last < 0)
		last = 0;
	*max_used = max;
	*after = last;
	*out = last < beta * max || max <= 0 ? ZN_CLASS_TEMP : ZN_CLASS_PERM;
	snprintf(why, whylen, "after %.0f %s %.2f x max %.0f", last,
		 *out == ZN_CLASS_TEMP ? "<" : ">=", beta, max);
	return ZN_OK;
}

int zn_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!s || !isdigit((unsigned char)*s))
		return zn_fail(ZN_EUSAGE, "size '%s': expected a number with optional K, M, G or T",
			       s ? s : "");
	v = strtoull(s, &end, 10);
	switch (toupper((unsigned char)*end)) {
	case 'T':
		mul <<= 10;
		/* fall through */
	case 'G':
		mul <<= 10;
		/* fall through */
	case 'M':
		mul <<= 10;
		/* fall through */
	case 'K':
		mul <<= 10;
		end++;
		if (toupper((unsigned char)*end) == 'I')
			end++;
		if (toupper((unsigned char)*end) == 'B')
			end++;
		break;
	case 0:
		break;
	default:
		return zn_fail(ZN_EUSAGE, "size '%s': unknown unit", s);
	}
	if (*end)
		return zn_fail(ZN_EUSAGE, "size '%s': trailing characters", s);
	*out = (uint64_t)v * mul;
	return ZN_OK;
}
