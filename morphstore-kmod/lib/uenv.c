// SPDX-License-Identifier: Apache-2.0
/* uenv.c - struct morph_env for userspace programs. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "uenv.h"

static pthread_mutex_t uenv_lock = PTHREAD_MUTEX_INITIALIZER;
static u64 uenv_state = 88172645463325252ull;

static void *uenv_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size ? size : 1);
}

static void uenv_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static u64 uenv_now_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static u32 uenv_random_u32(void *ctx)
{
	u64 x;

	(void)ctx;
	pthread_mutex_lock(&uenv_lock);
	x = uenv_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	uenv_state = x;
	pthread_mutex_unlock(&uenv_lock);
	return (u32)(x >> 32);
}

void morph_uenv_init(struct morph_env *env, u64 seed)
{
	if (!seed)
		seed = uenv_now_ns(NULL) ^ ((u64)getpid() << 32);
	pthread_mutex_lock(&uenv_lock);
	uenv_state = seed ? seed : 1;
	pthread_mutex_unlock(&uenv_lock);
	env->ctx = NULL;
	env->alloc = uenv_alloc;
	env->free = uenv_free;
	env->now_ns = uenv_now_ns;
	env->random_u32 = uenv_random_u32;
}
