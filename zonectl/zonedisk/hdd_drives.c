// SPDX-License-Identifier: Apache-2.0
/*
 * The drives zonedisk can emulate, one entry per datasheet.  Every figure
 * is cited in docs/zone.md ("The drive"), with where it comes from: read
 * in the manufacturer's manual, or derived (and how) where the manual
 * gives none.  Change a figure only with its citation, and before any
 * bench result that is to be compared with an earlier one (issue 48).
 */
#include <stddef.h>
#include <strings.h>
#include "hdd_drive.h"

const struct hdd_drive hdd_drives[] = {
	{
		/* Seagate Constellation ES.3, 4 TB, SATA 6 Gb/s, 7200 rpm */
		.name = "ST4000NM0033",
		.model = "Seagate Constellation ES.3 ST4000NM0033 (4 TB, SATA, 7200 rpm)",
		.rpm = 7200,
		.track_to_track_ms = 1.0,	/* derived: not in the manual */
		.average_seek_ms = 8.5,		/* data sheet: average read */
		.full_stroke_ms = 17.0,		/* derived: 2 x average */
		.outer_mbps = 175,		/* manual 4.1.2: 83 to 175 MB/s */
		.inner_mbps = 83,
		.interface_mbps = 600,		/* SATA 6 Gb/s, 8b/10b */
		.cylinders = 320800,		/* manual 4.1: tracks/surface */
		.cache_bytes = 128ull << 20,	/* data sheet: 128 MB */
		.cache_segments = 16,		/* derived: not in the manual */
		.spinup_s = 15,			/* derived: see docs/zone.md */
	},
	{ .name = NULL }
};

const struct hdd_drive *hdd_drive_find(const char *name)
{
	const struct hdd_drive *d;

	for (d = hdd_drives; name && d->name; d++)
		if (!strcasecmp(d->name, name))
			return d;
	return NULL;
}
