#!/bin/bash
# POSIX behaviour of a mounted volume, replica management through the
# user.morphstore.* attributes, and statistics that persist on close.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 4 64 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
ms_mount "$M" "replicate_bps=0,seed=7" || { fail "mount"; ms_summary; exit 1; }

# where is the master of a volume path? prints the device number
master_of() { getfattr 2>/dev/null --only-values -n user.morphstore.status "$M/$1" | sed 's/.*master=\([0-9]*\).*/\1/'; echo; }
status_of() { getfattr --only-values -n user.morphstore.status "$M/$1" 2>/dev/null; }

echo hello >"$M/a"
check "a written file reads back" [ "$(cat "$M/a")" = hello ]
check "its master lives on exactly one device" \
	[ "$(ls "${MS_DEV[@]/%//a}" 2>/dev/null | wc -l)" -eq 1 ]
for i in 1 2 3 4 5 6 7 8; do echo "$i" >"$M/spread$i"; done
devs=$(for i in 1 2 3 4 5 6 7 8; do master_of "spread$i"; done | sort -u | wc -l)
check "new files are spread over all four devices" [ "$devs" -eq 4 ]
mkdir -p "$M/x/y"
check "a directory exists on every device" \
	[ "$(ls -d "${MS_DEV[@]/%//x/y}" 2>/dev/null | wc -l)" -eq 4 ]
echo z >"$M/x/y/z"
check "the volume lists a directory's entries once" [ "$(ls "$M/x/y")" = z ]
check "the reserved .morphstore directory is hidden" bash -c "! ls -a '$M' | grep -q morphstore"
check "the reserved .morphstore name cannot be created" bash -c "! mkdir '$M/.morphstore' 2>/dev/null"
check "rmdir of a non-empty directory fails with ENOTEMPTY" \
	bash -c "rmdir '$M/x/y' 2>&1 | grep -q 'not empty'"
mv "$M/x" "$M/x2"
check "a renamed directory keeps its contents" [ "$(cat "$M/x2/y/z")" = z ]
check "a renamed directory is renamed on every device" \
	[ "$(ls -d "${MS_DEV[@]/%//x2/y}" 2>/dev/null | wc -l)" -eq 4 ]
mv "$M/a" "$M/x2/y/a2"
check "a file renamed into another directory keeps its data" [ "$(cat "$M/x2/y/a2")" = hello ]
echo new >"$M/over"
mv "$M/spread1" "$M/over"
check "rename replaces an existing file, wherever it lives" [ "$(cat "$M/over")" = 1 ]
check "the replaced file is gone from every device" \
	[ "$(ls "${MS_DEV[@]/%//over}" 2>/dev/null | wc -l)" -eq 1 ]
ln "$M/spread2" "$M/hard"
check "a hard link shares data and counts links" \
	bash -c "[ \"\$(cat '$M/hard')\" = 2 ] && [ \$(stat -c %h '$M/spread2') -eq 2 ]"
echo more >>"$M/hard"
check "a write through one link is seen through the other" [ "$(tail -1 "$M/spread2")" = more ]
ln -s spread3 "$M/sym"
check "a symlink resolves" bash -c "[ \"\$(readlink '$M/sym')\" = spread3 ] && [ \"\$(cat '$M/sym')\" = 3 ]"
mkfifo "$M/fifo"
check "a fifo can be created" [ -p "$M/fifo" ]
chmod 600 "$M/spread4"
check "chmod changes the mode" [ "$(stat -c %a "$M/spread4")" = 600 ]
touch -d '2001-02-03 04:05:06' "$M/spread4"
check "utimens sets the modification time" [ "$(stat -c %Y "$M/spread4")" = "$(date -d '2001-02-03 04:05:06' +%s)" ]
truncate -s 3 "$M/spread5"; printf 'abcdef' >"$M/t"; truncate -s 2 "$M/t"
check "truncate shortens a file" [ "$(cat "$M/t")" = ab ]
setfattr -n user.color -v blue "$M/spread6"
check "user attributes are stored and read back" [ "$(getfattr --only-values -n user.color "$M/spread6")" = blue ]
check "listxattr shows user attributes and the volume's, not the raw state" \
	bash -c "l=\$(getfattr -d -m - '$M/spread6'); grep -q user.color <<<\"\$l\" && grep -q user.morphstore.replicas <<<\"\$l\" && ! grep -q user.morphstore.state <<<\"\$l\""
setfattr -x user.color "$M/spread6"
check "removexattr removes a user attribute" bash -c "! getfattr -n user.color '$M/spread6' 2>/dev/null"
setfattr -n user.dir -v 1 "$M/x2"
check "directory attributes are kept" [ "$(getfattr --only-values -n user.dir "$M/x2")" = 1 ]
exec 7<"$M/spread7"; rm "$M/spread7"
check "an unlinked open file stays readable" bash -c "[ \"\$(cat <&7)\" = 7 ]"
exec 7<&-
check "statfs adds up the devices" \
	[ "$(stat -f -c %b "$M")" -ge $(( $(stat -f -c %b "${MS_DEV[0]}") * 3 )) ]

# replicas
dd if=/dev/urandom of="$M/big" bs=1M count=6 status=none
sum=$(md5sum <"$M/big")
setfattr -n user.morphstore.replicas -v 3 "$M/big"
ms_wait_idle "$M"
check "asking for 3 copies makes 3 complete copies" grep -q "wanted=3 copies=3" <<<"$(status_of big)"
check "replicas are identical to the master" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
check "replicas sit in the per-device replica directory" \
	[ "$(ls "${MS_DEV[@]/%//.morphstore/replicas}" | grep -c '^[0-9a-f]\{16\}$')" -eq 2 ]
echo 3 >/proc/sys/vm/drop_caches
check "a replicated file reads back intact (split over copies)" [ "$(md5sum <"$M/big")" = "$sum" ]
dd if=/dev/urandom of="$M/big" bs=64K count=3 seek=5 conv=notrunc status=none
sum=$(md5sum <"$M/big")
check "a write reaches every copy" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
echo 3 >/proc/sys/vm/drop_caches
check "after a write every copy serves the new data" [ "$(md5sum <"$M/big")" = "$sum" ]
truncate -s 1M "$M/big"
check "a truncate reaches every copy" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
setfattr -n user.morphstore.replicas -v 1 "$M/big"
ms_wait_idle "$M"
replica_files() { find "${MS_DEV[@]/%//.morphstore/replicas}" -type f | wc -l; }
check "lowering the count removes replicas" \
	bash -c "grep -q 'wanted=1 copies=1' <<<\"\$1\" && [ $(replica_files) -eq 0 ]" _ "$(status_of big)"
setfattr -n user.morphstore.replicas -v 4 "$M/big"
ms_wait_idle "$M"
n_before=$(replica_files)
rm "$M/big"
check "the file had 3 replicas before it was unlinked" [ "$n_before" -eq 3 ]
check "unlinking a file removes its replicas" [ "$(replica_files)" -eq 0 ]

# statistics persist on close, and across a remount
dd if=/dev/zero of="$M/stats" bs=4k count=4 status=none
for i in 1 2 3; do cat "$M/stats" >/dev/null; done
r=$(status_of stats | sed 's/.*reads=\([0-9]*\).*/\1/')
ms_umount "$M"
ms_mount "$M" "replicate_bps=0"
check "read and write counts survive a remount" \
	bash -c "s=\$(getfattr --only-values -n user.morphstore.status '$M/stats'); grep -q 'reads=$r writes=' <<<\"\$s\" && [ $r -ge 3 ] && ! grep -q 'writes=0 ' <<<\"\$s\""
# UDR on the volume's own statistics: plan, apply, and apply again
mkdir "$M/udr"
for f in hot warm cold; do dd if=/dev/urandom of="$M/udr/$f" bs=1M count=2 status=none; done
for i in $(seq 12); do cat "$M/udr/hot" >/dev/null; done
for i in $(seq 4); do cat "$M/udr/warm" >/dev/null; done
plan=$("$MS_CTL" plan "$M" --capacity 4M 2>/dev/null | grep '^/udr/')
check "plan on a mount gives the hottest file the first copy" \
	bash -c "head -1 <<<\"\$1\" | grep -q '^/udr/hot 2 '" _ "$plan"
check "plan on a mount stays within 4 MiB: two more copies of 2 MiB" \
	[ "$(wc -l <<<"$plan")" -eq 2 ]
"$MS_CTL" apply "$M" --capacity 4M --wait 60 >/dev/null
want_of() {	# copies the plan gives /udr/$1: its last decision, or 1
	local n
	n=$(grep "^/udr/$1 " <<<"$plan" | tail -1 | cut -d' ' -f2)
	echo "${n:-1}"
}
applied_ok() {
	local f
	for f in hot warm cold; do
		grep -q "wanted=$(want_of $f) copies=$(want_of $f) " <<<"$(status_of udr/$f)" || return 1
	done
}
check "apply makes exactly the planned copies" applied_ok
"$MS_CTL" apply "$M" --capacity 0 --wait 60 >/dev/null
check "apply with no capacity removes every replica" [ "$(replica_files)" -eq 0 ]
check "morphctl status lists devices and files" \
	bash -c "'$MS_CTL' status '$M' | grep -q '^dev=3 ' && '$MS_CTL' status '$M' | grep -q '^/stats '"
check "the daemon logged no error" bash -c "! grep -q 'error:' '$MS_TMP/daemon.log'"
ms_summary
