// SPDX-License-Identifier: Apache-2.0
/* log.c - the daemon's messages: "morphstore-fuse: LEVEL: text" on stderr. */
#include <stdarg.h>
#include <stdio.h>
#include "morphfs.h"

void morph_log(const char *level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "morphstore-fuse: %s: ", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
