// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target: everything MorphStore parses that a disk or a mounted
 * volume hands it, mutated.  The first byte picks the parser:
 *   0  MORPH_XATTR_STATE / MORPH_XATTR_RSTATE (core/rmap.c), as the FUSE
 *      daemon decodes it for every master and replica it opens (fuse/inode.c,
 *      fuse/names.c); the second byte is the volume's device count
 *   1  the device label, .morphstore/device (fuse/ondisk.c)
 *   2  the MORPH_XATTR_BEHIND list (fuse/ondisk.c); second byte: devices
 *   3  a name in the replica directory (fuse/ondisk.c)
 *   4  the volume and file status lines morphctl reads (tools/morphctl.c,
 *      compiled into this target with its main renamed): the volume
 *      attribute, then NUL-separated status lines, planned as 'morphctl
 *      plan MOUNTPOINT' plans them
 * What must hold, besides no crash, leak or undefined behaviour: what a
 * parser accepts is within the volume (device numbers below the device
 * count, a state whose fields the daemon may index arrays with) and
 * writes back as it was read.
 */
#define main morphctl_main
#include "../tools/morphctl.c"
#undef main
#include "../core/rmap.h"
#include "../fuse/ondisk.h"

static void check_state(const uint8_t *p, size_t n, u32 ndev)
{
	struct morph_state st, again;
	struct morph_env env;
	u8 buf[MORPH_STATE_SIZE];
	int drop, pick;

	if (morph_state_decode(p, n, ndev, &st))
		return;
	/* accepted: every device number in it indexes a volume of ndev */
	if (st.master >= ndev || st.wanted < 1 || st.wanted > ndev ||
	    (ndev < 32 && (st.mask >> ndev)) || (st.stale & ~st.mask))
		abort();
	morph_state_encode(&st, buf);
	if (morph_state_decode(buf, sizeof(buf), ndev, &again) ||
	    again.wanted != st.wanted || again.master != st.master ||
	    again.mask != st.mask || again.stale != st.stale ||
	    again.flags != st.flags || again.id != st.id ||
	    again.reads != st.reads || again.writes != st.writes ||
	    memcmp(buf, p, MORPH_STATE_SIZE))
		abort();
	if (!(morph_state_readable(&st) & (1u << st.master)) ||
	    morph_state_copies(&st) < 1 || morph_state_copies(&st) > ndev)
		abort();
	drop = morph_rmap_pick_drop(&st);
	if (drop >= 0 && !(st.mask & (1u << drop)))
		abort();
	morph_uenv_init(&env, 1);
	pick = morph_rmap_pick_new(&st, ndev, ~0u, &env);
	if (pick >= 0 && ((u32)pick >= ndev || (st.mask & (1u << pick)) ||
			  (u32)pick == st.master))
		abort();
}

static void check_label(const char *text)
{
	struct morph_label l, again;
	char buf[128];

	if (morph_label_parse(text, &l))
		return;
	snprintf(buf, sizeof(buf), "morphstore %u device %u of %u\n", l.version,
		 l.index, l.count);
	if (morph_label_parse(buf, &again) || memcmp(&l, &again, sizeof(l)))
		abort();
}

static void check_behind(const char *text, u32 ndev)
{
	u32 mask = morph_behind_parse(text, ndev);

	if (ndev < 32 && (mask >> ndev))
		abort();
}

static void check_replica_name(const char *name)
{
	char again[32];
	u64 id;

	if (!morph_replica_name_parse(name, &id))
		return;
	snprintf(again, sizeof(again), "%016llx", (unsigned long long)id);
	if (strcmp(again, name))
		abort();
}

/* 'morphctl status' and 'plan MOUNTPOINT' on the lines a volume returned */
static void check_status(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char lost[32], behind[32], devs[128];
	u32 ndev, nsteps;
	u64 used;

	ndev = volume_devices(text);
	volume_field(text, "lost", lost, sizeof(lost));
	volume_field(text, "behind", behind, sizeof(behind));
	if (strlen(lost) >= sizeof(lost) || strlen(behind) >= sizeof(behind))
		abort();
	for (p += strlen(p) + 1; p < end; p += strlen(p) + 1) {
		u64 reads = 0, writes = 0, wanted = 1, copies = 0;
		const char *d;

		status_field(p, "reads", &reads);
		status_field(p, "writes", &writes);
		status_field(p, "wanted", &wanted);
		status_field(p, "copies", &copies);
		d = strstr(p, "devices=");
		if (d)
			sscanf(d + 8, "%127s", devs);
		add_file("/f", 4096, reads, writes, (u32)wanted);
	}
	if (nfiles && ndev >= 1 && ndev <= MORPH_MAX_DEVICES)
		free(run_plan(ndev, 1 << 20, &nsteps, &used));
	while (nfiles)
		free((char *)entries[--nfiles].path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 2)
		return 0;
	if (data[0] % 5 == 0) {
		check_state(data + 2, size - 2, data[1] % (MORPH_MAX_DEVICES + 2));
		return 0;
	}
	/* the text parsers get what a read of the attribute or file gives:
	 * the bytes, NUL-terminated by the caller */
	text = malloc(size);
	if (!text)
		abort();
	memcpy(text, data + 2, size - 2);
	text[size - 2] = 0;
	switch (data[0] % 5) {
	case 1:
		check_label(text);
		break;
	case 2:
		check_behind(text, data[1] % (MORPH_MAX_DEVICES + 2));
		break;
	case 3:
		check_replica_name(text);
		break;
	case 4:
		check_status(text, size - 2);
		break;
	}
	free(text);
	return 0;
}
