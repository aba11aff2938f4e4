#!/bin/bash
# A full lower device: writes fail with ENOSPC and lose nothing already
# stored, replicas on the full device become stale instead of serving
# short data, and replication skips it with a clear message.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 4 32 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
status_of() { getfattr --only-values -n user.morphstore.status "$M/$1" 2>/dev/null; }
ms_mount "$M" "replicate_bps=0,seed=11"

# h: a small file with a copy on every device, before device 3 fills up
dd if=/dev/urandom of="$MS_TMP/h.src" bs=1M count=1 status=none
cp "$MS_TMP/h.src" "$M/h"
setfattr -n user.morphstore.replicas -v 4 "$M/h"
ms_wait_idle "$M"
check "h has a copy on every device" grep -q "copies=4 " <<<"$(status_of h)"

# fill the device that the next new files land on, up to ENOSPC
dd if=/dev/urandom of="$MS_TMP/src" bs=1M count=40 status=none
for i in 0 1 2 3; do : >"$M/fill$i"; done
full=""
for i in 0 1 2 3; do
	grep -q "master=3 " <<<"$(status_of fill$i)" && full=fill$i
done
check "a file was placed on device 3" [ -n "$full" ]
out=$(dd if="$MS_TMP/src" of="$M/$full" bs=64K conv=notrunc 2>&1)
rc=$?
check "writing past the end of the device fails" [ $rc -ne 0 ]
check "the failure is ENOSPC" grep -q "No space left on device" <<<"$out"
size=$(stat -c %s "$M/$full")
check "the device really filled up (more than 20 MiB stored)" [ "$size" -gt $((20 << 20)) ]
check "everything accepted before ENOSPC reads back intact" \
	cmp -s -n "$size" "$M/$full" "$MS_TMP/src"

# a write to h reaches its master but not the full device's replica
out=$(dd if=/dev/urandom of="$M/h" bs=1M count=2 seek=1 conv=notrunc status=none 2>&1)
check "a write to a file with a replica on the full device still succeeds" [ -z "$out" ]
check "that replica is marked stale, the others stay fresh" \
	grep -q "copies=3 .*stale=0x8" <<<"$(status_of h)"
check "the stale replica is reported with its device" \
	grep -q "replica of /h on device 3 .* failed: No space left on device; the replica is stale" "$MS_TMP/daemon.log"
echo 3 >/proc/sys/vm/drop_caches
check "h reads back whole from its fresh copies" \
	cmp -s -n $((1 << 20)) "$M/h" "$MS_TMP/h.src"
check "fresh replicas equal their masters" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"

# new files avoid the full device
echo fine >"$M/after"
check "a new file is placed on a device with room and written" \
	bash -c "[ \"\$(cat '$M/after')\" = fine ] && ! grep -q 'master=3 ' <<<\"\$1\"" _ "$(status_of after)"
dd if=/dev/urandom of="$M/g" bs=1M count=2 status=none
setfattr -n user.morphstore.replicas -v 4 "$M/g"
ms_wait_idle "$M"
check "replication skips the full device and says so" \
	grep -q "no device has room for another copy of /g" "$MS_TMP/daemon.log"
check "g keeps the copies that fit" grep -q "wanted=4 copies=3 " <<<"$(status_of g)"
check "no partial replica is left behind" \
	[ "$(find "${MS_DEV[@]/%//.morphstore/replicas}" -name '*.tmp' | wc -l)" -eq 0 ]

# free the device: the next open re-synchronises h's stale replica
rm "$M/$full"
cat "$M/h" >/dev/null
ms_wait_idle "$M"
check "once space is back the stale replica is re-copied" \
	grep -q "copies=4 .*stale=0x0" <<<"$(status_of h)"
check "all replicas equal their masters" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
ms_summary
