#!/bin/bash
# kill -9 of the daemon: in the middle of writes to a replicated file, and
# in the middle of copying a replica.  After a remount no stale copy is
# served, nothing that was fsync'd is lost, and the replicas are repaired.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 4 64 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
status_of() { getfattr --only-values -n user.morphstore.status "$M/$1" 2>/dev/null; }
master_path() {	# lower path of a volume file's master
	local d
	for d in "${MS_DEV[@]}"; do [ -f "$d/$1" ] && echo "$d/$1"; done
}
raw_stale() {	# stale mask in the on-disk state, in decimal
	python3 -c 'import os,struct,sys; print(struct.unpack("<HHIIIIIQQQ", os.getxattr(sys.argv[1], "user.morphstore.state")[:48])[5])' "$1"
}

ms_mount "$M" "replicate_bps=0,seed=3"
dd if=/dev/urandom of="$M/f" bs=1M count=8 status=none
setfattr -n user.morphstore.replicas -v 3 "$M/f"
ms_wait_idle "$M"
check "the file starts with 3 fresh copies" grep -q "copies=3 .*stale=0x0" <<<"$(status_of f)"

# a writer that fsyncs a known first MiB, then keeps writing until killed
python3 - "$M/f" "$MS_TMP/synced" <<'PY' &
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
block = os.urandom(1 << 20)
os.pwrite(fd, block, 0)
os.fsync(fd)
open(sys.argv[2], "wb").write(block)
i = 0
try:
    while True:
        os.pwrite(fd, os.urandom(65536), (1 << 20) + (i % 100) * 65536)
        i += 1
except OSError:
    pass
PY
writer=$!
for i in $(seq 100); do [ -s "$MS_TMP/synced" ] && break; sleep 0.05; done
sleep 0.3
kill -9 "$MS_PID"
wait "$writer" 2>/dev/null
wait "$MS_PID" 2>/dev/null
umount -l "$M"
master=$(master_path f)
check "after kill -9 mid-write the replicas are marked stale on disk" [ "$(raw_stale "$master")" -ne 0 ]
check "every replica not marked stale equals the master" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"

# remount with replication held back, so stale copies would be visible
ms_mount "$M" "replicate_bps=1,laas=stripe"
check "the remounted volume serves only the master (stale copies excluded)" \
	grep -q "copies=1 " <<<"$(status_of f)"
echo 3 >/proc/sys/vm/drop_caches
check "no stale data is served: the volume reads exactly the master" cmp -s "$M/f" "$master"
check "the fsync'd first MiB survived the crash" \
	cmp -s -n $((1 << 20)) "$M/f" "$MS_TMP/synced"
ms_umount "$M"
ms_mount "$M" "replicate_bps=0"
cat "$M/f" >/dev/null
ms_wait_idle "$M"
check "the replicator re-synchronises the stale replicas" \
	grep -q "wanted=3 copies=3 .*stale=0x0" <<<"$(status_of f)"
check "the re-synchronised replicas equal the master" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
ms_umount "$M"

# kill -9 while a replica is being copied (throttled to 1 MiB/s)
ms_mount "$M" "replicate_bps=1048576,seed=5"
dd if=/dev/urandom of="$M/g" bs=1M count=8 status=none
setfattr -n user.morphstore.replicas -v 2 "$M/g"
# at 1 MiB/s the copy lasts about 8 s
ms_kill_while_copying "$M" "${MS_DEV[@]/%//.morphstore/replicas}"
check "a partial replica was being copied when the daemon died" [ "$MS_TMP_SEEN" -eq 1 ]
ms_mount "$M" "replicate_bps=1"
check "after a remount the partial replica is gone" \
	[ "$(find "${MS_DEV[@]/%//.morphstore/replicas}" -name '*.tmp' | wc -l)" -eq 0 ]
check "the partial replica is never counted as a copy" grep -q "wanted=2 copies=1 " <<<"$(status_of g)"
ms_umount "$M"
ms_mount "$M" "replicate_bps=0"
cat "$M/g" >/dev/null
ms_wait_idle "$M"
check "opening the file resumes the interrupted replication" grep -q "wanted=2 copies=2 " <<<"$(status_of g)"
check "all replicas equal their masters" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
ms_summary
