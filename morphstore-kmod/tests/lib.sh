# shellcheck shell=bash
# lib.sh - fixture for the integration tests: loop-backed lower file
# systems, a mounted volume, and cleanup that runs even when a test fails.
# Every test script sources this, calls ms_setup, and reports with pass/fail.
#
# MS_FRONT=kmod (set by vm/guest inside the qemu VM) runs the same tests
# against the kernel module: lower devices are the VM's virtio disks
# (MS_DISKS), formatted to the size asked, and the volume is mounted with
# "mount -t morphstore"; the module's kernel log lines stand in for the
# daemon's log.

MS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MS_FUSE=$MS_ROOT/build/morphstore-fuse
MS_CTL=$MS_ROOT/build/morphctl
MS_PASSED=0
MS_FAILED=0
MS_LOOPS=()
MS_MOUNTS=()
MS_PIDS=()
MS_FRONT=${MS_FRONT:-fuse}
MS_DISKS=(${MS_DISKS:-})
MS_NDISK=0

ms_cleanup() {
	local m l p i
	for ((i = ${#MS_MOUNTS[@]} - 1; i >= 0; i--)); do	# the volume before its lowers
		m=${MS_MOUNTS[i]}
		mountpoint -q "$m" 2>/dev/null && { fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; }
		grep -q " $m " /proc/mounts && umount -l "$m" 2>/dev/null
	done
	for p in "${MS_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${MS_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	for l in "${MS_LOOPS[@]}"; do
		umount -l "$l" 2>/dev/null
		[ "$MS_FRONT" = kmod ] || losetup -d "$l" 2>/dev/null
	done
	[ -n "$MS_TMP" ] && rm -rf "$MS_TMP"
}

ms_setup() {
	MS_TMP=$(mktemp -d /tmp/morphstore-test.XXXXXX)
	trap ms_cleanup EXIT
	trap 'exit 130' INT TERM
}

# ms_device NAME SIZE_MB FSTYPE [MOUNT_OPTS]: a loop-backed file system
# mounted at $MS_TMP/NAME (not in a subshell: cleanup must see it);
# MS_MKFS_ARGS, if set, are passed to mkfs (e.g. "-b 4096")
ms_device() {
	local name=$1 size=$2 fs=$3 opts=${4:-} img loop
	if [ "$MS_FRONT" = kmod ]; then	# the next virtio disk, at the size asked
		loop=${MS_DISKS[MS_NDISK]}
		[ -n "$loop" ] || { echo "no virtio disk left for $name" >&2; return 1; }
		MS_NDISK=$((MS_NDISK + 1))
		"mkfs.$fs" -q -F $MS_MKFS_ARGS "$loop" "${size}M" >/dev/null 2>&1 || { echo "mkfs.$fs failed" >&2; return 1; }
	else
		img=$MS_TMP/$name.img
		truncate -s "${size}M" "$img"
		"mkfs.$fs" -q -F $MS_MKFS_ARGS "$img" >/dev/null 2>&1 || { echo "mkfs.$fs failed" >&2; return 1; }
		loop=$(losetup -f --show "$img") || return 1
	fi
	MS_LOOPS+=("$loop")
	mkdir -p "$MS_TMP/$name"
	mount ${opts:+-o "$opts"} "$loop" "$MS_TMP/$name" || return 1
	MS_MOUNTS+=("$MS_TMP/$name")
}

# ms_devices N SIZE_MB: N devices, the last one ext2, the others ext4;
# sets MS_LOWER (colon-separated) and MS_DEV (array)
ms_devices() {
	local n=$1 size=$2 i fs
	MS_DEV=()
	for ((i = 0; i < n; i++)); do
		fs=ext4
		((i == n - 1)) && fs=ext2
		ms_device "d$i" "$size" "$fs" || return 1
		MS_DEV+=("$MS_TMP/d$i")
	done
	MS_LOWER=$(IFS=:; echo "${MS_DEV[*]}")
}

# ms_mount MNT [extra -o options]: start the daemon in the foreground,
# in the background of this shell; waits until the mount is live
ms_mount() {
	local mnt=$1 opts=${2:-} i
	mkdir -p "$mnt"
	if [ "$MS_FRONT" = kmod ]; then
		MS_MOUNTS+=("$mnt")
		if ! mount -t morphstore -o "lower=$MS_LOWER${opts:+,$opts}" none "$mnt" 2>>"$MS_TMP/daemon.log"; then
			dmesg | grep 'morphstore:' | tail -3 >>"$MS_TMP/daemon.log"
			return 1
		fi
		# the module's log lines stand in for the daemon's log
		dmesg | grep -c . >"$MS_TMP/dmesg.mark"
		return 0
	fi
	"$MS_FUSE" -f -o "lower=$MS_LOWER${opts:+,$opts}" "$mnt" 2>>"$MS_TMP/daemon.log" &
	MS_PID=$!
	MS_PIDS+=("$MS_PID")
	MS_MOUNTS+=("$mnt")
	for ((i = 0; i < 100; i++)); do
		getfattr -n user.morphstore.volume "$mnt" >/dev/null 2>&1 && return 0
		kill -0 "$MS_PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# kmod: append the module's kernel log lines since the last mark
ms_kmsg() {
	[ "$MS_FRONT" = kmod ] || return 0
	local from
	from=$(cat "$MS_TMP/dmesg.mark" 2>/dev/null || echo 0)
	dmesg | tail -n +"$((from + 1))" | grep 'morphstore:' >>"$MS_TMP/daemon.log"
	dmesg | grep -c . >"$MS_TMP/dmesg.mark"
}

ms_umount() {
	local mnt=$1
	if [ "$MS_FRONT" = kmod ]; then
		ms_kmsg
		umount "$mnt"
		return
	fi
	fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt"
	wait "$MS_PID" 2>/dev/null
	return 0
}

# ms_wait_idle MNT [SECONDS]: until the replicator has nothing queued
ms_wait_idle() {
	local i
	for ((i = 0; i < ${2:-30} * 20; i++)); do
		getfattr --only-values -n user.morphstore.volume "$1" 2>/dev/null |
			grep -q ' pending=0$' && return 0
		sleep 0.05
	done
	return 1
}

# ms_kill_while_copying MNT DIR...: waits (bounded, 10 s) until a replica is being copied
# into one of the replica directories DIR..., then kills the daemon with SIGKILL and detaches
# MNT; MS_TMP_SEEN is how many partial replicas it saw
ms_kill_while_copying() {
	local mnt=$1 i
	shift
	for i in $(seq 200); do
		MS_TMP_SEEN=$(find "$@" -name '*.tmp' | wc -l)
		[ "$MS_TMP_SEEN" -ge 1 ] && break
		sleep 0.05
	done
	kill -9 "$MS_PID"
	wait "$MS_PID" 2>/dev/null
	umount -l "$mnt"
}

pass() { MS_PASSED=$((MS_PASSED + 1)); echo "ok   $1"; }
fail() { MS_FAILED=$((MS_FAILED + 1)); echo "FAIL $1${2:+: $2}"; }
# check NAME COMMAND...: one behaviour, passes when COMMAND succeeds
check() { local n=$1; shift; [[ "$*" == *daemon.log* ]] && ms_kmsg; if "$@"; then pass "$n"; else fail "$n"; fi; }
ms_summary() { echo "$MS_PASSED passed, $MS_FAILED failed"; }
