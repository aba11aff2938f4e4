// SPDX-License-Identifier: Apache-2.0
/*
 * Refusals.  Every refusal is one line, "locus-priv: refused (NAME): WHAT",
 * on stderr, and one exit code per kind (priv.h), so an operator reading a
 * DataNode's or NodeManager's log sees what was asked and why it was not
 * done, and a caller can tell the helper's refusal from the tool's failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include "priv.h"

static const struct {
	enum lp_code code;
	const char *name;
} names[] = {
	{ LP_EUSAGE, "usage" },
	{ LP_ECONFIG, "configuration" },
	{ LP_ECALLER, "caller" },
	{ LP_ELISTED, "not listed" },
	{ LP_EARG, "argument" },
	{ LP_EEXEC, "tool" },
	{ LP_EPRIV, "privileges" },
};

const char *lp_code_name(enum lp_code code)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == code)
			return names[i].name;
	return "unknown";
}

int lp_fail(char *why, size_t len, enum lp_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return code;
}

int lp_refuse(enum lp_code code, const char *fmt, ...)
{
	char why[2 * LP_MAX_VALUE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "locus-priv: refused (%s): %s\n", lp_code_name(code), why);
	return code;
}
