/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A hard disk drive as its datasheet describes it: the policy half of
 * zonedisk's HDD model (docs/zone.md, "An emulated HDD from a datasheet").
 * The figures live in one table, hdd_drives.c; the timing model that uses
 * them is hdd_model.c.
 */
#ifndef HDD_DRIVE_H
#define HDD_DRIVE_H

#include <stdint.h>

struct hdd_drive {
	const char *name;		/* the --drive=NAME that selects it */
	const char *model;		/* vendor and model number */
	double rpm;			/* spindle speed */
	double track_to_track_ms;	/* one-cylinder seek, read */
	double average_seek_ms;		/* read, over all seek distances */
	double full_stroke_ms;		/* outermost to innermost cylinder */
	double outer_mbps;		/* sustained media rate, outer zone, 1e6 B/s */
	double inner_mbps;		/* sustained media rate, inner zone */
	double interface_mbps;		/* buffer to host (SATA 6 Gb/s: 600) */
	uint64_t cylinders;		/* tracks per surface */
	uint64_t cache_bytes;		/* on-disk buffer */
	unsigned int cache_segments;	/* read-ahead segments it is cut into */
	double spinup_s;		/* standby to ready */
};

/* the drive named NAME (case-insensitive), or NULL */
const struct hdd_drive *hdd_drive_find(const char *name);

/* the table, ended by an entry whose name is NULL */
extern const struct hdd_drive hdd_drives[];

#endif
