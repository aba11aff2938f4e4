#!/bin/bash
# Clear errors that name what is wrong, and the planner's command line.
source "$(dirname "$0")/lib.sh"
ms_setup

# mount_fails NAME PATTERN LOWER: the daemon must refuse and say PATTERN
mount_fails() {
	local name=$1 pattern=$2 lower=$3 out rc
	mkdir -p "$MS_TMP/mnt"
	out=$(timeout 20 "$MS_FUSE" -f -o "lower=$lower" "$MS_TMP/mnt" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qE -- "$pattern" <<<"$out"; then
		pass "$name"
	else
		fail "$name" "exit $rc, said: $out"
		mountpoint -q "$MS_TMP/mnt" && umount -l "$MS_TMP/mnt"
	fi
}

ms_device d0 32 ext4
ms_device d1 32 ext4
ms_device d2 32 ext2
D0=$MS_TMP/d0 D1=$MS_TMP/d1 D2=$MS_TMP/d2

mount_fails "a missing lower directory is named, with what to do" \
	"lower directory $MS_TMP/nowhere \(device 1\) cannot be used: No such file or directory; create it" \
	"$D0:$MS_TMP/nowhere"

mkdir -p "$MS_TMP/rodir"
ms_device ro 16 ext4
umount "$MS_TMP/ro" && mount -o ro "${MS_LOOPS[-1]}" "$MS_TMP/ro"
mount_fails "a read-only lower file system is named and the fix given" \
	"lower directory $MS_TMP/ro \(device 1\) is not writable: Read-only file system; remount its file system read-write" \
	"$D0:$MS_TMP/ro"

mkdir -p "$MS_TMP/noxattr"
mount -t ramfs ramfs "$MS_TMP/noxattr" && MS_MOUNTS+=("$MS_TMP/noxattr")
mount_fails "a lower file system without user xattrs is refused" \
	"lower directory $MS_TMP/noxattr \(device 2\) has no user extended attributes .*Operation not supported.*user_xattr" \
	"$D0:$D1:$MS_TMP/noxattr"

mount_fails "a single lower directory is refused" \
	"lists 1 directories; MorphStore needs 2 to 32" "$D0"

mkdir -p "$D0/sub"
mount_fails "two lower directories on one file system are refused" \
	"are on the same file system" "$D0:$D0/sub"

# first mount labels the devices; a later mount in another order fails
MS_LOWER="$D0:$D1:$D2"
ms_mount "$MS_TMP/mnt" && echo data >"$MS_TMP/mnt/f" && ms_umount "$MS_TMP/mnt"
mount_fails "lower directories given in another order are refused" \
	"lower directory $D1 was device 1 of 3 when the volume was created, but is given as device 0 of 3" \
	"$D1:$D0:$D2"

# a corrupt replica state is reported and the master still served
ms_mount "$MS_TMP/mnt" "replicate_bps=0"
f=$(ls "$D0/f" "$D1/f" "$D2/f" 2>/dev/null | head -1)
setfattr -n user.morphstore.state -v 0x0900 "$f"
check "a file with a corrupt state attribute is still read from its master" \
	bash -c "[ \"\$(cat '$MS_TMP/mnt/f')\" = data ]"
check "the corrupt state attribute is reported with the device" \
	grep -q "user.morphstore.state: replica state attribute is shorter than its header says" "$MS_TMP/daemon.log"
out=$(setfattr -n user.morphstore.replicas -v 9 "$MS_TMP/mnt/f" 2>&1)
check "an out-of-range copy count is refused (EINVAL)" grep -q "Invalid argument" <<<"$out"
check "the refused copy count is explained in the log" \
	grep -q "'9' is not a copy count in 1..3" "$MS_TMP/daemon.log"
out=$(setfattr -n user.morphstore.state -v x "$MS_TMP/mnt/f" 2>&1)
check "reserved attributes cannot be set through the volume" grep -q "not permitted" <<<"$out"
ms_umount "$MS_TMP/mnt"

# morphctl
out=$("$MS_CTL" apply "$MS_TMP/mnt" --capacity 1G 2>&1)
rc=$?
check "apply on an unmounted path fails and says how to mount" \
	bash -c "[ $rc -ne 0 ] && grep -q 'is not a mounted MorphStore volume.*morphstore-fuse -o lower=' <<<\"\$1\"" _ "$out"

csv() { printf '%s\n' "$@" >"$MS_TMP/stats.csv"; }
plan_fails() {
	local name=$1 pattern=$2 out rc
	out=$("$MS_CTL" plan --stats "$MS_TMP/stats.csv" --capacity 10G --devices 4 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -qE -- "$pattern" <<<"$out"; then pass "$name"; else fail "$name" "$out"; fi
}
csv "path,size,reads,writes" "a,1,2,3" "b,10,x,3"
plan_fails "a malformed stats CSV names file, line and field" "stats.csv:3: field 'reads' is \"x\", expected a non-negative integer"
csv "a,1,2"
plan_fails "a stats CSV row with too few fields is named" "stats.csv:1: expected 4 fields"
csv "a,-1,2,3"
plan_fails "a negative size is refused" "field 'size' is \"-1\""
out=$("$MS_CTL" plan --stats "$MS_TMP/stats.csv" --capacity 10Q --devices 4 2>&1)
check "a malformed capacity is named" grep -q -- "--capacity 10Q: expected a non-negative integer of bytes" <<<"$out"

# seed 001 Figure 3.3 through the command line: A, C, A; B and D never
csv "path,size,reads,writes" "A,1073741824,200,0" "B,1073741824,30,20" \
	"C,1073741824,120,0" "D,1073741824,8,4"
out=$("$MS_CTL" plan --stats "$MS_TMP/stats.csv" --capacity 3G --devices 4 2>/dev/null)
check "plan prints Figure 3.3's decisions in order: A, C, A" \
	[ "$out" = $'A 2 100\nC 2 60\nA 3 33.333' ]
used=$("$MS_CTL" plan --stats "$MS_TMP/stats.csv" --capacity 3500M --devices 4 2>&1 >/dev/null)
check "plan never spends more than the capacity" \
	bash -c "grep -q '3 decisions, 3221225472 of 3670016000 bytes used' <<<\"\$1\"" _ "$used"
out=$("$MS_CTL" plan --stats "$MS_TMP/stats.csv" --capacity 1T --devices 4 2>/dev/null)
check "with unlimited capacity B and D are still never replicated" \
	bash -c "! grep -qE '^(B|D) ' <<<\"\$1\" && [ \$(wc -l <<<\"\$1\") -eq 6 ]" _ "$out"
check "morphctl --help documents every command" \
	bash -c "'$MS_CTL' --help | grep -q 'apply MOUNTPOINT --capacity BYTES'"
check "morphstore-fuse --help documents the lower= option" \
	bash -c "'$MS_FUSE' --help 2>&1 | grep -q 'lower=D0:D1'"
ms_summary
