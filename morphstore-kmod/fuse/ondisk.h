/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ondisk.h - parsing the text MorphStore finds on its lower devices.
 *
 * A device's label, its MORPH_XATTR_BEHIND list and the names in its
 * replica directory come off a disk that anyone may have edited, damaged
 * or half-written (layouts in include/morphstore_format.h).  These are
 * the only functions that read them: pure, no I/O, so that the daemon and
 * the fuzz targets (fuzz/) run the same code.
 */
#ifndef MORPH_ONDISK_H
#define MORPH_ONDISK_H

#include "../core/morph_env.h"

struct morph_label {
	unsigned int version;	/* the volume's format version */
	unsigned int index;	/* this device's place, 0-based */
	unsigned int count;	/* devices in the volume */
};

/*
 * Parse the text of MORPH_DEVICE_FILE, "morphstore V device I of N\n" (the
 * newline may be missing).  Returns 0, or -1 if the text is anything else:
 * other words, signs, leading zeros, numbers that overflow, or more text.
 */
int morph_label_parse(const char *text, struct morph_label *out);

/*
 * Parse a MORPH_XATTR_BEHIND list ("1", "0,3"); devices >= @ndev (or >=
 * MORPH_MAX_DEVICES, what the mask holds) are ignored.
 */
u32 morph_behind_parse(const char *text, u32 ndev);

/*
 * Is @name a complete replica's name in the replica directory (exactly 16
 * lower-case hex digits)?  If so, *@id is the file id it names.
 */
int morph_replica_name_parse(const char *name, u64 *id);

#endif /* MORPH_ONDISK_H */
