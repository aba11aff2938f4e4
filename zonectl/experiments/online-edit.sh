#!/bin/bash
# Does editing the block bitmaps of a MOUNTED ext2/ext3/ext4 steer the
# kernel's later allocations?  (docs/zone.md, "Online vs offline").
# zonectl refuses a mounted device, so the edit goes through a second loop
# device on the same image - what any userspace tool writing the disk
# under a mounted file system amounts to.  Cases: cold (nothing written
# since mount) and warm (a file written before the edit), for ext4 and for
# ext2 (served by the ext4 driver here).  Root only; scratch files in /tmp.
set -u
Z=$(cd "$(dirname "$0")/.." && pwd)/zonectl
W=$(mktemp -d /tmp/zonectl-online.XXXXXX)
export ZONECTL_STATE_DIR=$W/state
trap 'umount $W/mnt 2>/dev/null; for l in $(losetup -a | grep "($W/" | cut -d: -f1); do losetup -d $l; done; rm -rf $W' EXIT

run_case() {
	local fstype=$1 warm=$2 L1 L2 s e rc
	truncate -s 128M $W/img && mke2fs -q -F -t ${fstype%%,*} -b 4096 -g 8192 \
		$([ "${fstype#*,}" != "$fstype" ] && echo "-O ${fstype#*,}") $W/img
	L1=$(losetup -f --show $W/img); mkdir -p $W/mnt; mount $L1 $W/mnt
	[ $warm = warm ] && { dd if=/dev/zero of=$W/mnt/warm bs=1M count=4 status=none; sync; }
	local seen=$(dmesg | wc -l)
	L2=$(losetup -f --show $W/img)
	$Z reserve $L2 --keep-inner 40M >/dev/null 2>$W/err; rc=$?
	if [ $rc -ne 0 ]; then
		echo "$fstype $warm: zonectl refused (exit $rc): $(head -1 $W/err)"
		losetup -d $L2; umount $W/mnt; losetup -d $L1
		return
	fi
	read -r s e < <($Z status -p $L2 | sed 's/.* start=\([0-9]*\) end=\([0-9]*\).*/\1 \2/')
	losetup -d $L2
	dd if=/dev/zero of=$W/mnt/after bs=1M count=8 status=none; sync
	local first=$(filefrag -v $W/mnt/after | awk '/^ *0:/ {print $4}' | tr -d .)
	umount $W/mnt; losetup -d $L1
	local errs=$(dmesg | tail -n +$((seen + 1)) | grep -c 'EXT4-fs error')
	local fsck=clean; e2fsck -fn $W/img >/dev/null 2>&1 || fsck=errors
	echo "$fstype $warm: allowed [$s,$e), new file starts at block ${first:-?}" \
	     "-> $( [ -n "$first" ] && [ "$first" -ge "$s" ] && echo inside || echo OUTSIDE)," \
	     "EXT4-fs errors in dmesg: $errs, e2fsck -fn while reserved: $fsck"
	dmesg | tail -n +$((seen + 1)) | grep 'EXT4-fs' | grep -v 'mounted\|unmounting\|mounting' | head -3 | sed 's/^/    /'
	$Z release $W/img >/dev/null 2>&1
	e2fsck -fn $W/img >/dev/null 2>&1 && echo "    after release: e2fsck -fn clean" ||
		echo "    after release: e2fsck -fn NOT clean"
}

uname -r
for fs in ext4 ext4,^has_journal ext2; do
	run_case $fs cold
	run_case $fs warm
done
