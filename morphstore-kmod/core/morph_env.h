/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * morph_env.h - what the portable core needs from its host.
 *
 * The core (replica map, replica protocol, status text, UDR planner, LAAS
 * scheduler) is compiled both into userspace programs and into the kernel
 * module (Kbuild).  It therefore calls
 * no libc function: fixed-width types come from the compiler's freestanding
 * headers (or <linux/types.h> in the kernel), and allocation, time and
 * randomness come through struct morph_env, filled in by each front end.
 * The core takes no locks; a front end serialises calls on one object.
 */
#ifndef MORPH_ENV_H
#define MORPH_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#include <stddef.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

struct morph_env {
	void *ctx;
	/* zero-filled memory, or NULL */
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *p);
	/* monotonic nanoseconds */
	u64 (*now_ns)(void *ctx);
	/* uniformly distributed 32 random bits */
	u32 (*random_u32)(void *ctx);
};

/* core error codes; returned negated, like kernel errnos */
enum morph_err {
	MORPH_OK = 0,
	MORPH_ERR_NOMEM,
	MORPH_ERR_SHORT,
	MORPH_ERR_VERSION,
	MORPH_ERR_FIELD,
	MORPH_ERR_RANGE,
	MORPH_ERR_NODEV,
	MORPH_ERR_MAX
};

/* a fixed English message for a (positive or negated) morph_err */
const char *morph_strerror(int err);

#endif /* MORPH_ENV_H */
