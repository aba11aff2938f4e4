#!/bin/bash
# Degraded mode: a copies=2 volume (a BoostDFS REPLICATED volume) loses one
# of its two devices while mounted and keeps serving every file from the
# other; a file whose only copy was there fails with EIO; the device comes
# back, the next mount repairs it; a device missing at mount needs
# -o degraded; a crash during the repair repeats it; a device that missed
# writes never stands in with old data.
#
# Two ways to lose a device while mounted (device-mapper, whose error
# target would fail a disk, is not in this host's kernel):
#   lose_dev N   the lower ext4 is shut down without flushing its log
#                (FS_IOC_SHUTDOWN, NOLOGFLUSH), which is what Linux (6.6 on)
#                does to an ext4 whose disk is removed; every open, read,
#                write and xattr call then fails with EIO;
#   kill_disk 1  device 1's ext4 lives on a loop device over an image on a
#                file system of its own (its "disk"); that one is shut down,
#                so the lower ext4 gets EIO from the block layer for every
#                block it has not cached, and knows nothing else, as with a
#                disk that dies.
# Bringing a device back is what an operator does: unmount the volume,
# umount the lower file system (and re-attach its disk), e2fsck -p (which
# replays the journal), mount it, mount the volume.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_device d0 64 ext4 && ms_device disk1 80 ext4 ||
	{ fail "set up devices"; ms_summary; exit 1; }
truncate -s 64M "$MS_TMP/disk1/d1.img"
mkfs.ext4 -q -F "$MS_TMP/disk1/d1.img" >/dev/null 2>&1
DEV_LOOP=("${MS_LOOPS[0]}" "$(losetup -f --show "$MS_TMP/disk1/d1.img")")
DISK_LOOP=${MS_LOOPS[1]}
# the cleanup detaches loops in this order: device 1's before its disk's
MS_LOOPS=("${DEV_LOOP[@]}" "$DISK_LOOP")
mkdir -p "$MS_TMP/d1"
mount "${DEV_LOOP[1]}" "$MS_TMP/d1" || { fail "set up devices"; ms_summary; exit 1; }
MS_MOUNTS+=("$MS_TMP/d1")
MS_DEV=("$MS_TMP/d0" "$MS_TMP/d1")
MS_LOWER="$MS_TMP/d0:$MS_TMP/d1"
M=$MS_TMP/mnt
status_of() { getfattr --only-values -n user.morphstore.status "$M/$1" 2>/dev/null; }
volume() { getfattr --only-values -n user.morphstore.volume "$M" 2>/dev/null; }
master_of() { status_of "$1" | sed -n 's/.* master=\([0-9]*\) .*/\1/p'; echo; }
verify() { "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"; }
drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }
# shutdown DIR FLAG: FS_IOC_SHUTDOWN of the ext4 at DIR (0: sync first,
# 2: without flushing the log)
shutdown_fs() {
	python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, 0x8004587D, struct.pack("I", int(sys.argv[2])))' "$1" "$2"
}
# lose_dev N: the kernel's answer to a disk that was removed; it is synced
# first so that the test knows what it held (what a real disk had not
# written yet is lost with it; the repair pass copes with that too)
lose_dev() { sync -f "$MS_TMP/d$1" && shutdown_fs "$MS_TMP/d$1" 2; }
# kill_disk: device 1's disk stops answering (it keeps what reached it)
kill_disk() { sync -f "$MS_TMP/d1" && shutdown_fs "$MS_TMP/disk1" 0; }
# return_dev N: check and mount the lower file system again (volume unmounted)
return_dev() {
	umount "$MS_TMP/d$1" || return 1
	e2fsck -p "${DEV_LOOP[$1]}" >/dev/null
	[ $? -le 1 ] || return 1
	mount "${DEV_LOOP[$1]}" "$MS_TMP/d$1"
}
# return_disk: device 1's disk is replaced by itself, then as return_dev
return_disk() {
	umount "$MS_TMP/d1" && losetup -d "${DEV_LOOP[1]}" &&
		umount "$MS_TMP/disk1" || return 1
	e2fsck -p "$DISK_LOOP" >/dev/null
	[ $? -le 1 ] && mount "$DISK_LOOP" "$MS_TMP/disk1" || return 1
	DEV_LOOP[1]=$(losetup -f --show "$MS_TMP/disk1/d1.img") || return 1
	MS_LOOPS=("${DEV_LOOP[@]}" "$DISK_LOOP")
	e2fsck -p "${DEV_LOOP[1]}" >/dev/null
	[ $? -le 1 ] && mount "${DEV_LOOP[1]}" "$MS_TMP/d1"
}
# every file of the sums list reads back byte-identical
all_intact() { drop_caches; (cd "$M" && md5sum --quiet -c "$MS_TMP/sums" >/dev/null 2>&1); }
same_files() { cmp -s "$1" "$2"; }
eio() { local out; out=$(timeout 20 cat "$M/$1" 2>&1 >/dev/null); [ $? -ne 124 ] && grep -q "Input/output error" <<<"$out"; }
erofs() { grep -q "Read-only file system" <<<"$("$@" 2>&1)"; }
wait_repaired() {	# the replicator finished what the repair owed
	local i
	ms_wait_idle "$M" 60 || return 1
	for ((i = 0; i < 100; i++)); do
		grep -q ' behind=- ' <<<"$(volume)" && return 0
		sleep 0.05
	done
	return 1
}

ms_mount "$M" "copies=2,replicate_bps=0,seed=11" || { fail "mount"; ms_summary; exit 1; }
mkdir -p "$M/blocks/sub"
for i in 0 1 2 3 4 5; do
	head -c $((700000 + i * 100003)) /dev/urandom >"$M/blocks/blk_$i"
done
head -c 300000 /dev/urandom >"$M/blocks/sub/blk_6"
ms_wait_idle "$M"
# one single-copy file on each device, single_N on device N
for i in 0 1; do
	echo x >"$M/single_$i"
	setfattr -n user.morphstore.replicas -v 1 "$M/single_$i"
done
ms_wait_idle "$M"
if [ "$(master_of single_0)" != 0 ]; then	# placement went the other way
	mv "$M/single_0" "$M/single_x"
	mv "$M/single_1" "$M/single_0"
	mv "$M/single_x" "$M/single_1"
fi
for i in 0 1; do echo "only copy $i" >"$M/single_$i"; done
(cd "$M" && md5sum blocks/blk_* blocks/sub/blk_6 >"$MS_TMP/sums")
masters=$(for f in blocks/blk_0 blocks/blk_1 blocks/blk_2 blocks/blk_3 blocks/blk_4 blocks/blk_5 blocks/sub/blk_6; do master_of "$f"; done | sort | uniq -c | wc -l)
check "the two-copy files have their masters on both devices" [ "$masters" -eq 2 ]
check "every file has its two copies before the loss" \
	bash -c "! for f in blocks/blk_0 blocks/blk_5 blocks/sub/blk_6; do getfattr --only-values -n user.morphstore.status '$M'/\$f; echo; done | grep -v 'copies=2 '"
check "the single-copy files are one on each device" \
	[ "$(master_of single_0)$(master_of single_1)" = 01 ]
check "every replica is named in its device's name index" verify

# ---- device 1 fails while mounted ----
lose_dev 1
check "with device 1 lost, every two-copy file reads back byte-identical" all_intact
check "the daemon names the lost device and says what it does" \
	grep -q "device 1 ($MS_TMP/d1) is lost: .*Input/output error.*degraded" "$MS_TMP/daemon.log"
check "user.morphstore.volume reports device 1 lost and behind" \
	bash -c "grep -q ' lost=1 behind=1 ' <<<\"\$1\" && grep -q 'dev=1 .* state=lost' <<<\"\$1\"" _ "$(volume)"
check "morphctl status shows the lost device" \
	bash -c "'$MS_CTL' status '$M' | grep -q 'lost'"
BLOCKS="blocks/blk_0 blocks/blk_1 blocks/blk_2 blocks/blk_3 blocks/blk_4 blocks/blk_5"
on_dev() { local f; for f in $BLOCKS; do [ "$(master_of "$f")" = "$1" ] && echo "$f"; done; }
f1=$(on_dev 1 | sed -n 1p)		# master lost: served from device 0
f0=$(on_dev 0 | sed -n 1p)		# changed while degraded
f0b=$(on_dev 0 | sed -n 2p)		# renamed while degraded
f0c=$(on_dev 0 | sed -n 3p)		# removed while degraded
check "a file whose master is lost is served from its replica (status master=1 devices=0)" \
	grep -q "copies=1 master=1 devices=0 .*lost=1" <<<"$(status_of "$f1")"
check "a file whose master is lost keeps its size and owner in stat" \
	[ "$(stat -c %s:%U:%a "$M/$f1")" = "$(stat -c %s "$MS_TMP/d0/.morphstore/names/$f1"):root:644" ]
check "the single-copy file on the lost device fails with EIO, no hang" eio single_1
check "the single-copy file on the surviving device reads" [ "$(cat "$M/single_0")" = "only copy 0" ]
check "ls lists every file, whichever device holds its master" \
	[ "$(ls "$M/blocks" | tr '\n' ' ')" = "blk_0 blk_1 blk_2 blk_3 blk_4 blk_5 sub " ]
check "a change to a file whose master is lost is refused (EROFS)" \
	erofs bash -c "echo x >>'$M/$f1'"
check "removing a file whose master is lost is refused (EROFS)" erofs rm "$M/$f1"
check "removing or renaming a directory is refused while degraded (EROFS)" \
	bash -c "erofs() { grep -q 'Read-only file system' <<<\"\$(\"\$@\" 2>&1)\"; }; erofs rmdir '$M/blocks/sub' && erofs mv '$M/blocks' '$M/b2'"
# writes that degraded mode allows: new files, files mastered on device 0
mkdir "$M/blocks/new"
head -c 500000 /dev/urandom >"$M/blocks/new/blk_7"
head -c 200000 /dev/urandom | dd of="$M/$f0" bs=100000 seek=2 conv=notrunc status=none
mv "$M/$f0b" "$M/blocks/renamed"
id_gone=$(status_of "$f0c" | sed 's/.* id=\([0-9a-f]*\).*/\1/')
rm "$M/$f0c"
sed -i -e "\|  $f0c\$|d" -e "s|  $f0b\$|  blocks/renamed|" -e "\|  $f0\$|d" "$MS_TMP/sums"
(cd "$M" && md5sum blocks/new/blk_7 "$f0" >>"$MS_TMP/sums")
check "files written while degraded read back" all_intact
check "a new file made while degraded waits for its second copy" \
	grep -q "wanted=2 copies=1 master=0 " <<<"$(status_of blocks/new/blk_7)"
ms_umount "$M"

# ---- device 1 comes back ----
check "the lost file system is checked and mounted again" return_dev 1
ms_mount "$M" "replicate_bps=0" || { fail "mount after the return"; ms_summary; exit 1; }
check "the mount with device 1 back runs the repair pass" \
	grep -q "repair pass over every device (devices behind: 1)" "$MS_TMP/daemon.log"
check "the repair ends with no device behind" wait_repaired
check "after the repair every file reads back byte-identical" all_intact
check "after the repair both copies of every file are identical and named" verify
check "the file written while degraded got its second copy on device 1" \
	grep -q "wanted=2 copies=2 master=0 devices=0,1 stale=0x0" <<<"$(status_of blocks/new/blk_7)"
check "the file changed while degraded has a fresh copy on device 1 again" \
	bash -c "grep -q 'copies=2 .*stale=0x0' <<<\"\$1\" && cmp -s '$M/$f0' \"\$2\"" _ \
	"$(status_of "$f0")" "$MS_TMP/d1/.morphstore/replicas/$(status_of "$f0" | sed 's/.* id=\([0-9a-f]*\).*/\1/')"
check "the copy of a file removed while degraded is gone from device 1" \
	bash -c "[ -n '$id_gone' ] && [ ! -e '$MS_TMP/d1/.morphstore/replicas/$id_gone' ]"
check "the file renamed while degraded is named on device 1 under its new name only" \
	bash -c "[ -e '$MS_TMP/d1/.morphstore/names/blocks/renamed' ] && [ ! -e '$MS_TMP/d1/.morphstore/names/$f0b' ]"
check "the directory made while degraded exists on device 1 too" [ -d "$MS_TMP/d1/blocks/new" ]
check "the single-copy file on device 1 is back" [ "$(cat "$M/single_1")" = "only copy 1" ]
ms_umount "$M"

# ---- device 1's disk dies under its file system ----
ms_mount "$M" "replicate_bps=0" || { fail "mount"; ms_summary; exit 1; }
(cd "$M" && md5sum --quiet -c "$MS_TMP/sums" >/dev/null)	# all cached now
: >"$MS_TMP/daemon.log"
kill_disk
check "with device 1's disk dead, every two-copy file reads back byte-identical" all_intact
check "the dead disk is found by reading its label past the page cache" \
	grep -q "device 1 ($MS_TMP/d1) is lost: .*its label .morphstore/device: Input/output error" "$MS_TMP/daemon.log"
check "a file whose master is on the dead disk is served from its replica" \
	grep -q "copies=1 master=1 devices=0 " <<<"$(status_of "$f1")"
ms_umount "$M"
check "the dead disk is attached again, checked and mounted" return_disk
ms_mount "$M" "replicate_bps=0" || { fail "mount"; ms_summary; exit 1; }
check "the repair after the dead disk ends with no device behind" wait_repaired
check "after it every replica equals its master" verify
ms_umount "$M"

# ---- device 1 missing at mount ----
umount "$MS_TMP/d1"
ms_mount "$M" "replicate_bps=0" && ms_umount "$M"
check "without -o degraded a missing device fails the mount, named, with the way out" \
	grep -q "lower directory $MS_TMP/d1 (device 1) holds no .morphstore/device while device 0 does: its file system is probably not mounted; or mount with -o degraded" "$MS_TMP/daemon.log"
ms_mount "$M" "degraded,replicate_bps=0" || { fail "mount -o degraded"; ms_summary; exit 1; }
check "with -o degraded every two-copy file reads back byte-identical" all_intact
check "statfs of the volume works with a device missing" \
	bash -c "stat -f '$M' >/dev/null"
check "a -o degraded mount leaves the empty mount point of device 1 alone" \
	[ ! -e "$MS_TMP/d1/.morphstore" ]
check "a file whose only copy is on the missing device is not served" \
	bash -c "! cat '$M/single_1' >/dev/null 2>&1"
ms_umount "$M"
mount "${DEV_LOOP[1]}" "$MS_TMP/d1"
check "the degraded mount left device 1 marked behind on device 0" \
	[ "$(getfattr --only-values -n user.morphstore.behind "$MS_TMP/d0/.morphstore" 2>/dev/null)" = 1 ]

# ---- a crash during the repair ----
ms_mount "$M" "replicate_bps=0" && wait_repaired && ms_umount "$M"
ms_mount "$M" "copies=2,replicate_bps=0,seed=5" || { fail "mount"; ms_summary; exit 1; }
head -c 6000000 /dev/urandom >"$M/big"
ms_wait_idle "$M"
big_dev=$(master_of big)
other=$((1 - big_dev))
lose_dev "$other"
head -c 6000000 /dev/urandom >"$MS_TMP/big.new"
cp "$MS_TMP/big.new" "$M/big"
ms_umount "$M"
return_dev "$other"
# the copy the repair owes runs at 1 MiB/s: kill the daemon in the middle
ms_mount "$M" "replicate_bps=1048576"
ms_kill_while_copying "$M" "$MS_TMP/d$other/.morphstore/replicas"
check "the daemon was killed while the repair was copying" [ "$MS_TMP_SEEN" -ge 1 ]
check "after the crash both devices still say the device is behind" \
	bash -c "for d in d0 d1; do [ \"\$(getfattr --only-values -n user.morphstore.behind '$MS_TMP'/\$d/.morphstore 2>/dev/null)\" = $other ] || exit 1; done"
ms_mount "$M" "replicate_bps=0" || { fail "mount after the crash"; ms_summary; exit 1; }
check "the next mount repeats the repair and finishes it" wait_repaired
check "after the interrupted repair the big file has two identical copies" \
	bash -c "grep -q 'copies=2 .*stale=0x0' <<<\"\$1\" && cmp -s '$M/big' '$MS_TMP/big.new'" _ "$(status_of big)"
check "after the interrupted repair every replica equals its master" verify

# ---- a device that missed writes never stands in with old data ----
# device 1 misses a write to a file mastered on device 0, comes back, but
# the repair cannot copy yet (1 byte/s); then device 0 is missing
f=$(on_dev 0 | sed -n 1p)
ms_umount "$M"
ms_mount "$M" "replicate_bps=0"
lose_dev 1
echo "written while device 1 was lost" | dd of="$M/$f" bs=1 seek=10 conv=notrunc status=none
sed -i "\|  $f\$|d" "$MS_TMP/sums"
(cd "$M" && md5sum "$f" >>"$MS_TMP/sums")
ms_umount "$M"
return_dev 1
ms_mount "$M" "replicate_bps=1" && ms_umount "$M"
umount "$MS_TMP/d0"
ms_mount "$M" "degraded,replicate_bps=0"
check "a replica that missed writes is refused (EIO) instead of serving old data" eio "$f"
check "and the refusal says its replica is stale" \
	grep -q "/$f cannot be read: its master's device is lost and its replica on device 1 ($MS_TMP/d1) is stale" "$MS_TMP/daemon.log"
ms_umount "$M"
mount "${DEV_LOOP[0]}" "$MS_TMP/d0"
ms_mount "$M" "replicate_bps=0"
check "with both devices back the repair completes" wait_repaired
check "and every replica equals its master" verify
check "after the last repair every file reads back as last written" all_intact
ms_umount "$M"

# ---- a volume written before replica names (label version 1) ----
# what an older daemon, or the kernel module, leaves: no names, no replica
# states, labels of version 1
for i in 0 1; do
	sed -i 's/^morphstore 2 /morphstore 1 /' "$MS_TMP/d$i/.morphstore/device"
	rm -rf "$MS_TMP/d$i/.morphstore/names"
	for r in "$MS_TMP/d$i/.morphstore/replicas"/*; do
		setfattr -x user.morphstore.rstate "$r"
	done
done
f1=$(for f in $BLOCKS blocks/renamed big; do [ -e "$MS_TMP/d1/$f" ] && echo "$f"; done | head -1)
umount "$MS_TMP/d1"
ms_mount "$M" "degraded,replicate_bps=0"
check "a version 1 volume mounts degraded and serves what its devices present hold" \
	[ "$(md5sum <"$M/single_0")" = "$(md5sum <<<"only copy 0")" ]
check "but a file whose master is missing cannot be found (no replica names yet)" \
	bash -c "! stat '$M/$f1' >/dev/null 2>&1"
ms_umount "$M"
mount "${DEV_LOOP[1]}" "$MS_TMP/d1"
: >"$MS_TMP/daemon.log"
ms_mount "$M" "replicate_bps=0"
check "its first complete mount builds the names (a repair pass)" \
	grep -q "repair pass done: .* [1-9][0-9]* replica names and [1-9][0-9]* replica states rewritten" "$MS_TMP/daemon.log"
check "and labels every device version 2" \
	bash -c "grep -q '^morphstore 2 device 0 of 2' '$MS_TMP/d0/.morphstore/device' && grep -q '^morphstore 2 device 1 of 2' '$MS_TMP/d1/.morphstore/device'"
check "after the upgrade every replica is named and every file intact" \
	bash -c "'$MS_ROOT/tests/verify-replicas' '$MS_TMP/d0' '$MS_TMP/d1' && (cd '$M' && md5sum --quiet -c '$MS_TMP/sums')"
ms_umount "$M"
ms_summary
