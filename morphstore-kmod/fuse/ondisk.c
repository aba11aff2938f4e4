// SPDX-License-Identifier: Apache-2.0
/*
 * ondisk.c - parsing the text MorphStore finds on its lower devices (see
 * ondisk.h; the writers are write_label in mount.c, write_behind in
 * device.c and morph_replica_name in core/replica.c).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "ondisk.h"
#include "../include/morphstore_format.h"

/* a decimal number without sign or leading zero; advances *@s past it */
static int parse_uint(const char **s, unsigned int *out)
{
	const char *p = *s;
	unsigned long v = 0;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > UINT_MAX)
			return -1;
	}
	*out = (unsigned int)v;
	*s = p;
	return 0;
}

static int parse_word(const char **s, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(*s, word, n))
		return -1;
	*s += n;
	return 0;
}

int morph_label_parse(const char *text, struct morph_label *out)
{
	const char *p = text;

	if (parse_word(&p, "morphstore ") || parse_uint(&p, &out->version) ||
	    parse_word(&p, " device ") || parse_uint(&p, &out->index) ||
	    parse_word(&p, " of ") || parse_uint(&p, &out->count))
		return -1;
	if (*p == '\n')
		p++;
	return *p ? -1 : 0;
}

u32 morph_behind_parse(const char *s, u32 ndev)
{
	u32 mask = 0;

	while (*s) {
		char *end;
		unsigned long d = strtoul(s, &end, 10);

		if (end == s)
			break;
		/* a u32 mask holds MORPH_MAX_DEVICES devices, whatever @ndev says */
		if (d < ndev && d < MORPH_MAX_DEVICES)
			mask |= 1u << d;
		s = *end == ',' ? end + 1 : end;
	}
	return mask;
}

int morph_replica_name_parse(const char *name, u64 *id)
{
	u64 v = 0;
	int i;

	for (i = 0; i < 16; i++) {
		char c = name[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (u64)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (u64)(c - 'a' + 10);
		else
			return 0;
	}
	if (name[16])
		return 0;
	*id = v;
	return 1;
}
