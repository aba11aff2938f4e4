#!/bin/bash
# One reader streaming a two-copy file while the volume splits its reads
# (low load): every byte comes off the disks once, half from each copy's
# device.  The reads reach the volume in the kernel's page-cache sizes
# (64-128 KiB), as a DataNode's do; without fetch-ahead over the
# POSIX_FADV_RANDOM lower descriptors, each copy's own read-ahead fetched
# the other copy's pieces too (about 1.4 bytes off the disks per byte
# read, and less than two disks' worth of bandwidth).
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 2 96 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
ms_mount "$M" "replicate_bps=0,seed=3,copies=2" || { fail mount; ms_summary; exit 1; }
dd if=/dev/urandom of="$MS_TMP/ref" bs=1M count=24 status=none
cp "$MS_TMP/ref" "$M/blk"
ms_wait_idle "$M"
check "the file has two copies" bash -c "getfattr --absolute-names --only-values -n user.morphstore.status '$M/blk' | grep -q 'copies=2 '"

sectors() {	# sectors read so far from the lower devices, one number each
	local l
	for l in "${MS_LOOPS[@]}"; do awk '{ print $3 }' "/sys/block/$(basename "$(readlink -f "$l")")/stat"; done
}
python3 "$MS_ROOT/bench/dropcache.py" "${MS_DEV[@]}"
sync
echo 1 >/proc/sys/vm/drop_caches	# the volume's own cached pages of the file
before=($(sectors))
dd if="$M/blk" of="$MS_TMP/got" bs=64k status=none
after=($(sectors))
check "the stream reads back byte-identical" cmp -s "$MS_TMP/ref" "$MS_TMP/got"
d0=$(((after[0] - before[0]) * 512))
d1=$(((after[1] - before[1]) * 512))
size=$((24 << 20))
echo "     disks read $d0 + $d1 bytes for a $size-byte file"
check "the disks read the file about once (1.00-1.15 bytes per byte)" \
	[ $((d0 + d1)) -ge "$size" -a $((d0 + d1)) -le $((size * 115 / 100)) ]
check "both copies' devices served it (each 35-65 %)" \
	[ $((d0 * 100)) -ge $(((d0 + d1) * 35)) -a $((d0 * 100)) -le $(((d0 + d1) * 65)) ]
ms_umount "$M"
ms_summary
