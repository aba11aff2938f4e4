/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * morphstore_format.h - the persistent format of a MorphStore volume.
 *
 * Shared, unchanged, by both front ends (the FUSE daemon and the kernel
 * module) and by the userspace tools.  Nothing here depends on libc.
 *
 * A volume is N "devices", 2 <= N <= MORPH_MAX_DEVICES.  Each device is one
 * lower directory, the root of one ext2/ext4 file system on one spindle, so a
 * file never crosses a device boundary (seed 001 section 3.4.1).  Layout of
 * device k:
 *
 *   <lower k>/...                 the namespace: every directory of the volume
 *                                 exists on every device; a regular file (or
 *                                 symlink, fifo) exists on exactly one device,
 *                                 its master device
 *   <lower k>/.morphstore/        reserved, hidden from the volume
 *   <lower k>/.morphstore/device  text "morphstore <version> device <k> of <N>\n"
 *                                 written at first mount; a later mount with
 *                                 the lower directories in another order fails
 *   <lower k>/.morphstore/replicas/<id>      complete replica (16 hex digits)
 *   <lower k>/.morphstore/replicas/<id>.tmp  replica being copied: never
 *                                 served, removed at the next mount (so is
 *                                 any other name ending in .tmp there)
 *   <lower k>/.morphstore/names/<path>  label version 2 only: a hard link to
 *                                 replicas/<id> for every volume path <path>
 *                                 of a master that has a replica on device
 *                                 k, so that the file can still be found by
 *                                 name when its master's device is lost
 *   <lower k>/.morphstore/lost+found/  files a repair pass set aside: a name
 *                                 that device k kept while it was lost and
 *                                 the other devices made again meanwhile
 *
 * The label's version says what the volume keeps: 1 (MORPH_FORMAT_VERSION)
 * the base format above; MORPH_LABEL_NAMES (2) also names and a replica
 * state on every replica, kept by the FUSE front end, which upgrades a
 * version 1 volume at a mount with every device present.  A front end that
 * does not keep them (the kernel module) writes 1 back at mount, so that
 * names it may have left out of date are never trusted.
 *
 * Per-file replication state lives in one extended attribute of the master
 * file, MORPH_XATTR_STATE (seed 001 section 3.4.2: replica count, replica
 * mask, master location, read/write statistics), MORPH_STATE_SIZE bytes,
 * all integers little-endian:
 *
 *   offset size field
 *   0      2    version      MORPH_FORMAT_VERSION
 *   2      2    size         MORPH_STATE_SIZE (lets a later version grow)
 *   4      4    wanted       copies wanted, master included, 1..N
 *   8      4    master       device index of the master copy
 *   12     4    mask         bit k: a replica file exists on device k
 *   16     4    stale        subset of mask: replica may differ from the
 *                            master; never served until re-synchronised
 *   20     4    flags        MORPH_STATE_LINKED, else 0
 *   24     8    id           volume-unique file id; names the replicas
 *   32     8    reads        read requests served, persisted at close
 *   40     8    writes       write requests served, persisted at close
 *
 * One attribute, replaced atomically, so mask and stale can never disagree
 * after a crash.  A master without the attribute is a plain single-copy file.
 *
 * Degraded mode (label version 2): each replica inode also carries
 * MORPH_XATTR_RSTATE, the same 48-byte layout, a copy of its master's state
 * in which the replica's own stale bit says whether it may stand in for the
 * master while the master's device is lost.  The bit is set on the replica
 * itself before a write it missed is acknowledged, before it is dropped,
 * and until a new copy is committed; it is cleared only with its master's.
 *
 * Per device, on <lower k>/.morphstore:
 *   MORPH_XATTR_BEHIND  devices that missed changes while lost, as a comma
 *                       list ("1", "0,3"); their replica states are not
 *                       trusted until a repair pass with every device
 *                       present has rebuilt them, then it is removed
 *   MORPH_XATTR_DIRTY   present while a FUSE daemon has the volume mounted;
 *                       found at mount, the last daemon died and a repair
 *                       pass rebuilds the names and replica states
 *
 * Through a mounted volume the front ends expose virtual attributes:
 *   MORPH_XATTR_REPLICAS  (file, read/write) copies wanted, decimal text;
 *                         writing it queues background (re)replication
 *   MORPH_XATTR_STATUS    (file, read-only) one line of key=value pairs
 *   MORPH_XATTR_VOLUME    (root, read-only) volume and per-device state,
 *                         present only on a mounted volume
 * Every other "user.morphstore" name is reserved.
 */
#ifndef MORPHSTORE_FORMAT_H
#define MORPHSTORE_FORMAT_H

#define MORPH_FORMAT_VERSION	1
#define MORPH_LABEL_NAMES	2	/* label version: names kept */
#define MORPH_MAX_DEVICES	32
#define MORPH_STATE_SIZE	48

#define MORPH_DIR		".morphstore"
#define MORPH_DEVICE_FILE	".morphstore/device"
#define MORPH_REPLICA_DIR	".morphstore/replicas"
#define MORPH_NAMES_DIR		".morphstore/names"
#define MORPH_LOST_DIR		".morphstore/lost+found"
#define MORPH_TMP_SUFFIX	".tmp"

#define MORPH_XATTR_PREFIX	"user.morphstore"
#define MORPH_XATTR_STATE	"user.morphstore.state"
#define MORPH_XATTR_REPLICAS	"user.morphstore.replicas"
#define MORPH_XATTR_STATUS	"user.morphstore.status"
#define MORPH_XATTR_VOLUME	"user.morphstore.volume"
#define MORPH_XATTR_RSTATE	"user.morphstore.rstate"
#define MORPH_XATTR_BEHIND	"user.morphstore.behind"
#define MORPH_XATTR_DIRTY	"user.morphstore.dirty"

/*
 * flags: the file has had more than one name (a hard link); a replica is
 * named only under the names its front end knew of (names.c), so some of
 * them may be missing until a repair pass names them all
 */
#define MORPH_STATE_LINKED	0x1

/* byte offsets inside MORPH_XATTR_STATE */
#define MORPH_OFF_VERSION	0
#define MORPH_OFF_SIZE		2
#define MORPH_OFF_WANTED	4
#define MORPH_OFF_MASTER	8
#define MORPH_OFF_MASK		12
#define MORPH_OFF_STALE		16
#define MORPH_OFF_FLAGS		20
#define MORPH_OFF_ID		24
#define MORPH_OFF_READS		32
#define MORPH_OFF_WRITES	40

#endif /* MORPHSTORE_FORMAT_H */
