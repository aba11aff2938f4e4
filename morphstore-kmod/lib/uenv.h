/* SPDX-License-Identifier: Apache-2.0 */
/* uenv.h - the userspace host of the portable core (struct morph_env). */
#ifndef MORPH_UENV_H
#define MORPH_UENV_H

#include "../core/morph_env.h"

/* calloc/free, CLOCK_MONOTONIC, and a xorshift generator seeded by @seed
 * (0 = seed from the clock and pid); thread-safe */
void morph_uenv_init(struct morph_env *env, u64 seed);

#endif
