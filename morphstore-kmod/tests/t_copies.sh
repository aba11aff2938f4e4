#!/bin/bash
# The copies=N mount option: every new file wants N copies (what a BoostDFS
# REPLICATED volume needs of the block files a DataNode writes), made once
# its last writer closes it, also when it was renamed in between, as a
# DataNode moves a finished block from rbw/ to finalized/.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 2 64 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
status_of() { getfattr --only-values -n user.morphstore.status "$M/$1" 2>/dev/null; }

ms_mount "$M" "copies=3,replicate_bps=0" && ms_umount "$M"
check "copies beyond the volume's devices is refused" \
	grep -q "copies=3: expected 1..2" "$MS_TMP/daemon.log"

ms_mount "$M" "copies=2,replicate_bps=0,seed=3" || { fail "mount"; ms_summary; exit 1; }
mkdir -p "$M/rbw" "$M/finalized"
dd if=/dev/urandom of="$M/rbw/blk_1" bs=64K count=40 status=none
sum=$(md5sum <"$M/rbw/blk_1")
ms_wait_idle "$M"
check "a new file wants 2 copies and has them once closed" \
	grep -q "wanted=2 copies=2" <<<"$(status_of rbw/blk_1)"
mv "$M/rbw/blk_1" "$M/finalized/blk_1"
check "the copies follow the file's rename" \
	grep -q "wanted=2 copies=2" <<<"$(status_of finalized/blk_1)"
# written, closed and renamed at once, before the replicator gets to it
for i in 2 3 4 5 6 7 8 9; do
	dd if=/dev/urandom of="$M/rbw/blk_$i" bs=64K count=8 status=none &&
		mv "$M/rbw/blk_$i" "$M/finalized/blk_$i"
done
ms_wait_idle "$M"
n=0
for i in 2 3 4 5 6 7 8 9; do
	grep -q "wanted=2 copies=2" <<<"$(status_of "finalized/blk_$i")" && n=$((n + 1))
done
check "files renamed right after close still get their second copy (8 of 8)" [ "$n" -eq 8 ]
# a file renamed while its writer still has it open
exec 8>"$M/rbw/blk_open"
printf 'abc' >&8
mv "$M/rbw/blk_open" "$M/finalized/blk_open"
printf 'def' >&8
exec 8>&-
ms_wait_idle "$M"
check "a file renamed while open gets its copies after the close" \
	grep -q "wanted=2 copies=2" <<<"$(status_of finalized/blk_open)"
check "and holds what was written before and after the rename" \
	[ "$(cat "$M/finalized/blk_open")" = abcdef ]
check "every copy is identical to its master" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
echo 3 >/proc/sys/vm/drop_caches
check "a two-copy file reads back intact" [ "$(md5sum <"$M/finalized/blk_1")" = "$sum" ]
setfattr -n user.morphstore.replicas -v 1 "$M/finalized/blk_1"
ms_wait_idle "$M"
check "a file's own replicas attribute still lowers it to one copy" \
	grep -q "wanted=1 copies=1" <<<"$(status_of finalized/blk_1)"
ms_umount "$M"

ms_mount "$M" "replicate_bps=0" || { fail "mount without copies"; ms_summary; exit 1; }
echo one >"$M/plain"
ms_wait_idle "$M"
check "without the option a new file has one copy" \
	grep -q "wanted=1 copies=1" <<<"$(status_of plain)"
check "files made under copies=2 keep their two copies after a remount" \
	grep -q "wanted=2 copies=2" <<<"$(status_of finalized/blk_2)"
ms_summary
