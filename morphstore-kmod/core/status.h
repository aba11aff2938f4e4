/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * status.h - the text of the virtual attributes a mounted volume shows
 * (include/morphstore_format.h), written and read here for both front ends:
 *
 *   MORPH_XATTR_REPLICAS  copies wanted, decimal ("2", or "2\n" as echo
 *                         writes it); 1..devices
 *   MORPH_XATTR_STATUS    one line: "wanted=W copies=C master=M devices=L
 *                         stale=0xS reads=R writes=W id=I", then
 *                         " state=unreadable" if the state attribute could
 *                         not be read, then " lost=L" while a device with
 *                         a copy is lost (L: a comma list of devices)
 *   MORPH_XATTR_VOLUME    a volume line "version= devices= [lost= behind=]
 *                         load= threshold= mode= policy= chunk= window_ms=
 *                         pending=" (pending= stays last: scripts wait for
 *                         " pending=0" at its end), then a line per device
 *                         "dev= path= load= split= mode= free= [state=]";
 *                         the bracketed fields come from a front end that
 *                         keeps degraded mode (the FUSE daemon)
 *
 * Nothing here calls libc: the core stays freestanding.  Every writer
 * returns the length of the text, which it always ends with a NUL and cuts
 * short if @len is too small.
 */
#ifndef MORPH_STATUS_H
#define MORPH_STATUS_H

#include "morph_env.h"
#include "laas.h"
#include "rmap.h"

/*
 * Parse @size bytes written to MORPH_XATTR_REPLICAS: digits (a '+' before
 * them and a newline after them allowed) naming 1..@ndev.  0 with *@copies
 * set, or -MORPH_ERR_RANGE.
 */
int morph_replicas_parse(const char *value, size_t size, u32 ndev,
			 u32 *copies);

struct morph_file_status {
	struct morph_state st;
	u32 copies;		/* devices serving a current copy now */
	u64 reads, writes;	/* persisted plus counted since */
	int state_bad;		/* the state attribute could not be read */
	u32 lost;		/* lost devices holding a copy (FUSE) */
};

u32 morph_file_status_format(char *out, u32 len,
			     const struct morph_file_status *fs);

struct morph_volume_status {
	u32 version;		/* the label version the volume keeps */
	u32 ndev;
	int degraded_mode;	/* show lost=, behind= and state= */
	u32 lost, behind;
	u32 load, threshold;
	int striping;
	enum morph_laas_policy policy;
	u32 chunk;
	u64 window_ms;
	u32 pending;		/* replication jobs queued or running */
};

struct morph_device_status {
	u32 dev;
	const char *path;	/* the lower directory as given */
	u32 load, split;	/* bound files, split readers */
	u64 free;		/* bytes */
};

/* the volume line */
u32 morph_volume_status_format(char *out, u32 len,
			       const struct morph_volume_status *vs);
/* the line of one device */
u32 morph_device_status_format(char *out, u32 len,
			       const struct morph_volume_status *vs,
			       const struct morph_device_status *ds);

#endif /* MORPH_STATUS_H */
