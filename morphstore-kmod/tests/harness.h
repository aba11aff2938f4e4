/* SPDX-License-Identifier: Apache-2.0 */
/*
 * harness.h - a minimal test harness: each TEST is one behaviour; CHECK
 * records a failure with file, line and the failed condition and ends the
 * test; the program ends with the line "N passed, N failed".
 */
#ifndef MORPH_HARNESS_H
#define MORPH_HARNESS_H

#include <stdio.h>

struct morph_test {
	const char *name;
	void (*fn)(int *failed);
};

#define TEST(name) static void name(int *morph_failed_)
#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n",	\
				__FILE__, __LINE__, #cond);		\
			*morph_failed_ = 1;				\
			return;						\
		}							\
	} while (0)
#define CHECK_EQ(a, b)							\
	do {								\
		long long a_ = (long long)(a), b_ = (long long)(b);	\
		if (a_ != b_) {						\
			fprintf(stderr, "  %s:%d: %s == %lld, want %s == %lld\n", \
				__FILE__, __LINE__, #a, a_, #b, b_);	\
			*morph_failed_ = 1;				\
			return;						\
		}							\
	} while (0)

static inline int morph_run_tests(const struct morph_test *t, int n)
{
	int i, passed = 0, failed = 0;

	for (i = 0; i < n; i++) {
		int f = 0;

		t[i].fn(&f);
		printf("%s %s\n", f ? "FAIL" : "ok  ", t[i].name);
		if (f)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif
