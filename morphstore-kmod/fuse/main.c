// SPDX-License-Identifier: Apache-2.0
/*
 * main.c - morphstore-fuse: mount a MorphStore volume through FUSE.
 *
 *   morphstore-fuse -o lower=/d0:/d1:... [-o option...] [-f] MOUNTPOINT
 */
#define FUSE_USE_VERSION 31
#include <fuse.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "morphfs.h"
#include "../lib/uenv.h"

struct options {
	char *lower;
	char *laas;
	char *factor;
	unsigned int window_ms;
	unsigned int chunk;
	unsigned long long replicate_bps;
	unsigned long long seed;
	unsigned int copies;
	int direct_io;
	int degraded;
	int help;
};

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt option_spec[] = {
	OPT("lower=%s", lower),
	OPT("laas=%s", laas),
	OPT("laas_factor=%s", factor),
	OPT("laas_window_ms=%u", window_ms),
	OPT("stripe_chunk=%u", chunk),
	OPT("replicate_bps=%llu", replicate_bps),
	OPT("seed=%llu", seed),
	OPT("copies=%u", copies),
	OPT("direct_io", direct_io),
	OPT("degraded", degraded),
	OPT("-h", help),
	OPT("--help", help),
	FUSE_OPT_END
};

static void usage(const char *prog)
{
	printf("usage: %s -o lower=DIR0:DIR1[:...] [options] MOUNTPOINT\n"
	       "\n"
	       "Mount a MorphStore volume: one lower directory per device (each the root\n"
	       "of its own ext2/ext4 file system), files replicated per file and read\n"
	       "with load-adaptive access scheduling.\n"
	       "\n"
	       "MorphStore options:\n"
	       "  -o lower=D0:D1:...     lower directories, 2..%d, in volume order (required)\n"
	       "  -o laas=POLICY         adaptive (default), stripe or mirror\n"
	       "  -o laas_factor=F       threshold = F x devices open files (default 1.0)\n"
	       "  -o laas_window_ms=MS   load window (default 1000)\n"
	       "  -o stripe_chunk=BYTES  split granularity of striped reads (default 262144)\n"
	       "  -o replicate_bps=N     replication copy rate limit, 0 = none (default 67108864)\n"
	       "  -o seed=N              seed of random replica placement (default: clock)\n"
	       "  -o copies=N            copies wanted of every new file, master included,\n"
	       "                         1..devices (default 1); the replicator makes them\n"
	       "                         once the file's last writer closes it\n"
	       "  -o direct_io           bypass the kernel page cache of the volume (each\n"
	       "                         read() reaches the scheduler; used by the bench)\n"
	       "  -o degraded            mount even if devices are missing: serve every\n"
	       "                         file that has a fresh copy on a device present;\n"
	       "                         a device that fails while mounted is left out\n"
	       "                         the same way, with or without this option\n"
	       "\n"
	       "Files: %s (copies wanted, settable), %s;\n"
	       "volume root: %s.  See docs/morphstore.md.\n"
	       "\n"
	       "FUSE options:\n",
	       prog, MORPH_MAX_DEVICES, MORPH_XATTR_REPLICAS, MORPH_XATTR_STATUS,
	       MORPH_XATTR_VOLUME);
}

static int parse_factor(const char *s, u32 *milli)
{
	char *end;
	double f = strtod(s, &end);

	if (*end || f <= 0 || f > 1000)
		return -1;
	*milli = (u32)(f * 1000 + 0.5);
	return *milli ? 0 : -1;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct options o = { .window_ms = 1000, .chunk = 256 * 1024,
			     .replicate_bps = 64ull << 20, .copies = 1 };
	static struct morph_vol vol;
	int ret;

	if (fuse_opt_parse(&args, &o, option_spec, NULL) == -1)
		return 2;
	if (o.help) {
		usage(argv[0]);
		fuse_opt_add_arg(&args, "--help");
		fuse_main(args.argc, args.argv, &morph_ops, NULL);
		return 0;
	}
	if (!o.lower) {
		morph_err("missing -o lower=DIR0:DIR1[:...] (one lower directory per device); see --help");
		return 2;
	}
	pthread_mutex_init(&vol.lock, NULL);
	morph_uenv_init(&vol.env, o.seed);
	vol.laas_cfg.factor_milli = 1000;
	vol.laas_cfg.policy = MORPH_LAAS_ADAPTIVE;
	if (o.laas) {
		if (!strcmp(o.laas, "stripe"))
			vol.laas_cfg.policy = MORPH_LAAS_STRIPE;
		else if (!strcmp(o.laas, "mirror"))
			vol.laas_cfg.policy = MORPH_LAAS_MIRROR;
		else if (strcmp(o.laas, "adaptive")) {
			morph_err("-o laas=%s: expected adaptive, stripe or mirror",
				  o.laas);
			return 2;
		}
	}
	if (o.factor && parse_factor(o.factor, &vol.laas_cfg.factor_milli)) {
		morph_err("-o laas_factor=%s: expected a number in (0, 1000]",
			  o.factor);
		return 2;
	}
	if (o.chunk < 4096 || o.chunk % 4096) {
		morph_err("-o stripe_chunk=%u: expected a multiple of 4096", o.chunk);
		return 2;
	}
	vol.degraded_ok = o.degraded;
	morph_replicator_init(&vol);
	if (morph_vol_open(&vol, o.lower))
		return 1;
	if (o.copies < 1 || o.copies > vol.ndev) {
		morph_err("-o copies=%u: expected 1..%u (the volume's devices, master included)",
			  o.copies, vol.ndev);
		morph_vol_close(&vol);
		return 2;
	}
	vol.new_copies = o.copies;
	vol.laas_cfg.ndev = vol.ndev;
	vol.laas_cfg.window_ns = (u64)o.window_ms * 1000000ull;
	vol.laas_cfg.chunk = o.chunk;
	vol.replicate_bps = o.replicate_bps;
	vol.direct_io = o.direct_io;
	if (morph_laas_init(&vol.laas, &vol.laas_cfg, &vol.env)) {
		morph_err("invalid LAAS settings");
		morph_vol_close(&vol);
		return 2;
	}
	/* the kernel has applied the caller's umask to the modes it sends;
	 * the daemon's own must not take more bits away */
	umask(0);
	fuse_opt_add_arg(&args, "-odefault_permissions");
	/* as on a local file system mounted by root: every user, device
	 * nodes that open their devices, set-user-ID programs that run as
	 * their owner (libfuse mounts nodev,nosuid otherwise) */
	if (geteuid() == 0) {
		fuse_opt_add_arg(&args, "-oallow_other");
		fuse_opt_add_arg(&args, "-odev");
		fuse_opt_add_arg(&args, "-osuid");
	}
	fuse_opt_add_arg(&args, "-omax_threads=16");
	fuse_opt_add_arg(&args, "-ofsname=morphstore");
	fuse_opt_add_arg(&args, "-osubtype=morphstore");
	ret = fuse_main(args.argc, args.argv, &morph_ops, &vol);
	if (vol.workers_started) {
		morph_replicator_stop(&vol);
		morph_readers_stop(&vol);
	} else if (!ret) {
		ret = 1;	/* init could not start them */
	}
	morph_vol_close(&vol);
	fuse_opt_free_args(&args);
	return ret;
}
