#!/bin/bash
# Measure how precisely a hold confines new writes on a mounted ext4
# (docs/zone.md, "Online: the hold file").  Root.  For each layout and area:
# mount, hold, write a job's mix (one large file, 40 small files, an
# appended log, two concurrent writers), and count the new files' blocks
# (FIEMAP) inside the area; "no hold" is the same run without zonectl.
# Usage: experiments/online-hold.sh [SIZE]   (default 1G)
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
export Z="$HERE/zonectl"
SIZE=${1:-1G}
T=$(mktemp -d /tmp/zonectl-exp.XXXXXX)
export T ZONECTL_STATE_DIR="$T/state" IMG="$T/img"
. "$HERE/tests/lib.sh"
trap 'umount "$T/mnt" 2>/dev/null; [ -n "${L:-}" ] && losetup -d "$L" 2>/dev/null; rm -rf "$T"' EXIT

run() {	# LABEL MKFS-ARGS HOLD-ARGS...
	local label=$1 mk=$2 s e t0 t1 line
	shift 2
	rm -f "$IMG" && truncate -s "$SIZE" "$IMG" && mke2fs -q -F $mk "$IMG"
	online_mount
	local n; n=$(dumpe2fs -h "$L" 2>/dev/null | awk -F: '/^Block count/ {print $2+0}')
	t0=$(date +%s.%N)
	[ "$1" = --blocks ] && set -- --blocks "$((n / 4))-$((n / 2))"
	if [ "$1" = none ]; then
		s=$((n * 3 / 4)); e=$n	# baseline: share that lands in the inner quarter anyway
	else
		"$Z" hold "$M" "$@" >/dev/null || { echo "$label: hold failed"; online_umount; return; }
		read -r s e < <(hold_area)
	fi
	t1=$(date +%s.%N)
	write_mix job $((n * $(stat -f -c %S "$M") / 1048576 / 10)) 2>/dev/null
	dd if=/dev/urandom of="$M/par1" bs=1M count=16 status=none &
	dd if=/dev/urandom of="$M/par2" bs=1M count=16 status=none &
	wait; sync
	line=$(share_in "$s" "$e" $(files_of job) "$M/par1" "$M/par2" 2>&1 >/dev/null)
	printf '%-28s %-26s hold %.2f s  %s\n' "$label" "$*" "$(echo "$t1 - $t0" | bc)" "$line"
	rm -rf "$M"/job-* "$M"/par*
	[ "$1" = none ] || "$Z" hold-release "$M" >/dev/null
	online_umount
	e2fsck -fn "$IMG" >/dev/null 2>&1 || echo "    e2fsck -fn NOT clean"
}

uname -r
for mk in "-t ext4 -b 4096" "-t ext4 -b 4096 -O ^flex_bg" "-t ext4 -b 1024" "-t ext4 -b 4096 -O ^flex_bg,metadata_csum,64bit"; do
	run "$mk" "$mk" none
	run "$mk" "$mk" --keep-outer $(( ${SIZE%G} * 256 ))M
	run "$mk" "$mk" --keep-inner $(( ${SIZE%G} * 256 ))M
	run "$mk" "$mk" --blocks QUARTER
done
