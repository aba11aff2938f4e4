# Helpers for test scripts (sourced).  They print stable lines that the
# expect files compare.

# free blocks in the superblock
free_count() {
	dumpe2fs -h "${1:-$IMG}" 2>/dev/null | awk -F: '/^Free blocks/ {gsub(/ /, "", $2); print $2}'
}

# fsck_clean [IMG]: e2fsck -fn must report nothing
fsck_clean() {
	local out
	if out=$(e2fsck -fn "${1:-$IMG}" 2>&1); then
		echo "e2fsck -fn clean"
	else
		echo "e2fsck -fn NOT clean"
		echo "$out" >&2
	fi
}

# all physical blocks of a file (data, indirect and extent-tree blocks),
# from debugfs stat: entries like (0-11):1234-1245, (IND):1246, (ETB0):99
file_blocks() {
	debugfs -R "stat $2" "$1" 2>/dev/null |
		sed -n '/^\(BLOCKS\|EXTENTS\):/,$p' | tr ',' '\n' |
		sed -n 's/.*):\([0-9]*\)\(-\([0-9]*\)\)\{0,1\}.*/\1 \3/p'
}

# in_area IMG FILE START END: every block of FILE in [START, END)
in_area() {
	local img=$1 f=$2 s=$3 e=$4
	file_blocks "$img" "$f" | awk -v s="$s" -v e="$e" -v f="$f" '
		{ a = $1; b = ($2 == "") ? $1 : $2; n += b - a + 1
		  if (a < s || b >= e) bad = bad " " a "-" b }
		END { if (n == 0) print f ": NO BLOCKS FOUND"
		      else if (bad == "") print f ": all blocks in the allowed area"
		      else print f ": blocks outside [" s "," e "):" bad }'
}

# debugfs_write IMG NAME MiB: write a file of random data offline
debugfs_write() {
	head -c "$(($3 * 1048576))" /dev/urandom >"$T/src.$2"
	debugfs -w -R "write $T/src.$2 $2" "$1" >/dev/null 2>&1
	rm -f "$T/src.$2"
}

# area_of IMG: "start end" of the active reservation in file system blocks
# (zonectl counts in bitmap bits, clusters on bigalloc: start and end are
# scaled by block_size / the file system's block size)
area_of() {
	local bs
	bs=$(dumpe2fs -h "${1:-$IMG}" 2>/dev/null | awk -F: '/^Block size/ {print $2 + 0}')
	"$Z" status -p "${1:-$IMG}" |
		sed -n 's/.* start=\([0-9]*\) end=\([0-9]*\) block_size=\([0-9]*\).*/\1 \2 \3/p' |
		awk -v bs="$bs" '{ r = $3 / bs; printf "%.0f %.0f\n", $1 * r, $2 * r }'
}

# takes_layout: does this back end take $IMG's layout (a dry-run reserve)?
# If it refuses it (the default back end refuses bigalloc and meta_bg),
# print its message, its exit code, that nothing was written, and end the
# script.
takes_layout() {
	local sum rc
	sum=$(md5sum < "$IMG")
	"$Z" reserve "$IMG" --keep-outer 8M -n >/dev/null 2>"$T/refusal" && return 0
	rc=$?
	head -1 "$T/refusal" | sed "s#$T/##"
	echo "refused rc=$rc"
	[ "$(md5sum < "$IMG")" = "$sum" ] && echo "image unchanged"
	ls "$ZONECTL_STATE_DIR" 2>/dev/null | wc -l | sed 's/^/journal files: /'
	exit 0
}

# roundtrip INNER OUTER: the offline acceptance cycle on $IMG
roundtrip() {
	local orig s e
	orig=$(free_count)
	"$Z" reserve "$IMG" --keep-inner "$1" -p >/dev/null && echo "reserve --keep-inner ok"
	read -r s e < <(area_of)
	debugfs_write "$IMG" f1 6
	in_area "$IMG" f1 "$s" "$e"
	"$Z" reserve "$IMG" --keep-outer "$2" -p >/dev/null && echo "reserve --keep-outer ok"
	read -r s e < <(area_of)
	debugfs_write "$IMG" f2 6
	in_area "$IMG" f2 "$s" "$e"
	"$Z" reserve "$IMG" --groups 1-1 >/dev/null && echo "reserve --groups 1-1 ok"
	read -r s e < <(area_of)
	debugfs_write "$IMG" f3 2
	in_area "$IMG" f3 "$s" "$e"
	debugfs -w -R "rm f1" "$IMG" >/dev/null 2>&1
	debugfs -w -R "rm f2" "$IMG" >/dev/null 2>&1
	debugfs -w -R "rm f3" "$IMG" >/dev/null 2>&1
	"$Z" release "$IMG" >/dev/null && echo "release ok"
	"$Z" status -p "$IMG" | cut -d' ' -f1
	fsck_clean
	[ "$(free_count)" = "$orig" ] && echo "free blocks equal the original" ||
		echo "free blocks $(free_count) differ from the original $orig"
}

# kernel_roundtrip INNER: reserve offline, then let the kernel allocate
# through a loop mount; its blocks must land in the allowed area.
kernel_roundtrip() {
	local orig s e L
	orig=$(free_count)
	"$Z" reserve "$IMG" --keep-inner "$1" >/dev/null && echo "reserve --keep-inner ok"
	read -r s e < <(area_of)
	L=$(losetup -f --show "$IMG")
	mkdir -p "$T/mnt" && mount "$L" "$T/mnt"
	mkdir "$T/mnt/job"
	dd if=/dev/urandom of="$T/mnt/job/k1" bs=1M count=8 status=none
	dd if=/dev/urandom of="$T/mnt/k2" bs=1M count=3 status=none
	sync
	umount "$T/mnt"
	losetup -d "$L"
	in_area "$IMG" job/k1 "$s" "$e"
	in_area "$IMG" k2 "$s" "$e"
	debugfs -w -R "rm job/k1" "$IMG" >/dev/null 2>&1
	debugfs -w -R "rm k2" "$IMG" >/dev/null 2>&1
	debugfs -w -R "rmdir job" "$IMG" >/dev/null 2>&1
	"$Z" release "$IMG" >/dev/null && echo "release ok"
	fsck_clean
	[ "$(free_count)" = "$orig" ] && echo "free blocks equal the original" ||
		echo "free blocks $(free_count) differ from the original $orig"
}

# synth_check SIZE: while --keep-outer SIZE is reserved, e2fsck -fn may only
# report our blocks: "-" bitmap differences (marked used, not in use) past
# the area.  A "+" (in use but marked free) would mean a bitmap we built for
# a BLOCK_UNINIT group missed metadata.
synth_check() {
	local s e diffs
	"$Z" reserve "$IMG" --keep-outer "$1" >/dev/null && echo "reserve ok"
	read -r s e < <(area_of)
	diffs=$(e2fsck -fn "$IMG" 2>&1 |
		awk '/^Block bitmap differences:/ { on = 1; sub(/^Block bitmap differences:/, "") }
		     /^Fix\?/ { on = 0 } on')
	echo "$diffs" | tr ' ' '\n' | grep -v '^$' | awk -v s="$s" -v e="$e" '
		/^\+/ { plus++ }
		/^-/ { r = substr($0, 2); gsub(/[()]/, "", r); n = split(r, a, "--")
		       lo = a[1]; hi = (n > 1) ? a[2] : a[1]
		       if (lo + 0 < e + 0 && hi + 0 >= s + 0) inside++; minus++ }
		END { printf "differences: %d ours (-), %d inside the area, %d missing metadata (+)\n",
		             (minus > 0) ? 1 : 0, inside, plus }'
	"$Z" release "$IMG" >/dev/null && echo "release ok"
	fsck_clean
}

# ---- online (mounted) helpers: the hold file ----

# online_mount [OPTS]: mount $IMG on $T/mnt through a loop device; sets L, M
online_mount() {
	L=$(losetup -f --show "$IMG")
	M="$T/mnt"
	mkdir -p "$M" && mount ${1:+-o "$1"} "$L" "$M"
}

online_umount() {
	umount "$M" && losetup -d "$L"
}

# hold_area: "start end" of the held area of $M
hold_area() {
	"$Z" hold-status -p "$M" | sed -n 's/.* start=\([0-9]*\) end=\([0-9]*\).*/\1 \2/p'
}

# write_mix PREFIX MiB: what a job writes: one large file in a new
# directory, 40 small files in another, one file grown by appends at the root
write_mix() {
	mkdir -p "$M/$1-big" "$M/$1-small"
	dd if=/dev/urandom of="$M/$1-big/data" bs=1M count="$2" status=none
	for i in $(seq 40); do
		head -c $((i * 3000)) /dev/urandom >"$M/$1-small/f$i"
	done
	for i in $(seq 16); do
		head -c 65536 /dev/urandom >>"$M/$1-log"
	done
	sync
}

# share_in START END FILE...: blocks of the files (FIEMAP) inside [START,
# END); prints the verdict line, the numbers go to stderr
share_in() {
	local s=$1 e=$2
	shift 2
	filefrag -v "$@" 2>/dev/null | awk -v s="$s" -v e="$e" '
		/^ *[0-9]+: / { gsub(/\.\./, " "); gsub(/:/, " ")
			p = $4; n = $6
			a = (p > s) ? p : s; b = (p + n < e) ? p + n : e
			i = (b > a) ? b - a : 0; in_ += i; all += n }
		END { printf "%d of %d new blocks in [%d,%d)\n", in_, all, s, e > "/dev/stderr"
		      if (all == 0) print "no blocks found"
		      else if (in_ * 100 >= 95 * all) print "new blocks in the area: >= 95 %"
		      else printf "new blocks in the area: only %.1f %%\n", 100 * in_ / all }'
}

# files_of PREFIX: the files write_mix wrote
files_of() {
	echo "$M/$1-big/data" "$M/$1-small"/f* "$M/$1-log"
}

# hold_cycle ARGS...: hold, write, measure, delete, release, fsck, count
hold_cycle() {
	local orig s e
	orig=$(free_count)
	online_mount
	"$Z" hold "$M" "$@" -p >/dev/null && echo "hold $* ok"
	read -r s e < <(hold_area)
	write_mix job 24
	share_in "$s" "$e" $(files_of job)
	rm -rf "$M"/job-*
	"$Z" hold-release "$M" -p | cut -d' ' -f1
	[ -e "$M/.zonectl-hold" ] && echo "hold file still there"
	online_umount
	fsck_clean
	[ "$(free_count)" = "$orig" ] && echo "free blocks equal the original" ||
		echo "free blocks $(free_count) differ from the original $orig"
}

# hold_crash POINT WHAT: with a hold of the outer 100M in place, kill
# zonectl (SIGKILL) at POINT during WHAT (move: hold --keep-inner 100M;
# release: hold-release), optionally remount (REMOUNT=1: a reboot), then
# recover twice and check the area, reserved_clusters, new writes, release.
hold_crash() {
	local point=$1 what=$2 orig resv s e
	orig=$(free_count)
	online_mount
	resv=$(cat "/sys/fs/ext4/$(basename "$L")/reserved_clusters")
	"$Z" hold "$M" --keep-outer 100M >/dev/null && echo "hold --keep-outer 100M ok"
	if [ "$what" = move ]; then
		ZONECTL_CRASH_AT=$point "$Z" hold "$M" --keep-inner 100M >/dev/null 2>&1
	else
		ZONECTL_CRASH_AT=$point "$Z" hold-release "$M" >/dev/null 2>&1
	fi
	echo "$what killed rc=$?"
	"$Z" hold-status -p "$M" | cut -d' ' -f1
	"$Z" hold "$M" --keep-outer 100M >/dev/null 2>&1
	echo "hold refused rc=$?"
	if [ "${REMOUNT:-0}" = 1 ]; then
		online_umount && online_mount && echo "remounted"
	fi
	"$Z" hold-recover "$M" | sed "s#$M: ##"
	"$Z" hold-recover "$M" | sed "s#$M: ##"
	"$Z" hold-status -p "$M" | cut -d' ' -f1-4
	[ "$(cat "/sys/fs/ext4/$(basename "$L")/reserved_clusters")" = "$resv" ] &&
		echo "reserved_clusters as before"
	[ -e "$M/.zonectl-hold" ] || echo "no hold file"
	read -r s e < <(hold_area)
	if [ "${e:-0}" != 0 ]; then
		write_mix job 16
		share_in "$s" "$e" $(files_of job)
		rm -rf "$M"/job-*
	fi
	"$Z" hold-release "$M" -p | cut -d' ' -f1
	online_umount
	fsck_clean
	[ "$(free_count)" = "$orig" ] && echo "free blocks equal the original" ||
		echo "free blocks $(free_count) differ from the original $orig"
}

# ---- the emulated zoned HDD (zonedisk/, simulated hardware) ----

ZONEDISK="$(dirname "$Z")/zonedisk/zonedisk"

# zonedisk_up SIZE OUTER-MBPS [ARGS]: serve $T/zd/disk, loop device ZL over
# it (direct I/O, so requests reach the daemon)
zonedisk_up() {
	mkdir -p "$T/zd"
	"$ZONEDISK" --backing="$T/zd.back" --size="$1" --outer-mbps="$2" "${@:3}" "$T/zd" -f \
		2>"$T/zonedisk.log" &
	ZD_PID=$!
	local i
	for i in $(seq 100); do
		[ -e "$T/zd/disk" ] && break
		sleep 0.1
	done
	[ -e "$T/zd/disk" ] || { echo "zonedisk did not start" >&2; cat "$T/zonedisk.log" >&2; return 1; }
	ZL=$(losetup -f --show --direct-io=on "$T/zd/disk")
}

zonedisk_down() {
	losetup -d "$ZL"
	fusermount3 -u "$T/zd"
	wait "$ZD_PID"
}

# mbps_at read|write DEV OFFSET-MiB MiB: MB/s of one O_DIRECT pass
mbps_at() {
	local t0 t1
	t0=$(date +%s.%N)
	if [ "$1" = read ]; then
		dd if="$2" of=/dev/null bs=1M skip="$3" count="$4" iflag=direct status=none
	else
		dd if=/dev/zero of="$2" bs=1M seek="$3" count="$4" oflag=direct,dsync status=none
	fi
	t1=$(date +%s.%N)
	echo "$4 $t0 $t1" | awk '{ printf "%.3f\n", $1 * 1048576 / 1e6 / ($3 - $2) }'
}
