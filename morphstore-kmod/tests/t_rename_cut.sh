#!/bin/bash
# A power cut in the middle of a rename over a file whose master is on
# another device: the renamed file has its new name on its own device
# (made durable first) and the file it replaces is still there on the
# other; the name is on two devices.  Made here without a cut, by doing
# the rename's first step on the lower directly (FUSE: after a kill -9 of
# the daemon, as a cut leaves it; the module: unmounted).  At the next
# mount (FUSE: its repair pass) or the name's first lookup (the module)
# one file keeps the name, that of the lowest device (morph_name_keeper in
# core/replica.h), and the other is set aside in .morphstore/lost+found on
# its device, unchanged, without its state and its replicas.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 4 64 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
status_of() { getfattr --only-values -n user.morphstore.status "$M/$1" 2>/dev/null; }
device_of() {	# the devices where volume path $1 is a file on its lower
	local i
	for i in "${!MS_DEV[@]}"; do [ -f "${MS_DEV[i]}/$1" ] && echo "$i"; done
}
id_and_mask() {	# the file id (16 hex digits) and replica mask of a master
	python3 -c 'import os, struct, sys
st = struct.unpack("<HHIIIIIQQQ", os.getxattr(sys.argv[1], "user.morphstore.state")[:48])
print("%016x %d" % (st[7], st[4]))' "$1"
}
replicas_of() {	# ID MASK: the replica files of a master, one a line
	local i
	for i in "${!MS_DEV[@]}"; do
		(($2 >> i & 1)) && echo "${MS_DEV[i]}/.morphstore/replicas/$1"
	done
}

ms_mount "$M" "replicate_bps=0,seed=7" || { fail mount; ms_summary; exit 1; }
mkdir "$M/r"
for i in 0 1 2 3; do
	head -c $((100000 + i)) /dev/urandom >"$M/r/c$i"
	setfattr -n user.morphstore.replicas -v 2 "$M/r/c$i"
done
ms_wait_idle "$M"
old= new=
for i in 1 2 3; do
	if [ "$(device_of r/c$i)" != "$(device_of r/c0)" ]; then old=c0 new=c$i; break; fi
done
[ -n "$new" ] || { fail "two files with masters on different devices"; ms_summary; exit 1; }
check "both files start with 2 copies" \
	bash -c "grep -q 'wanted=2 copies=2 ' <<<'$(status_of r/$old)' && grep -q 'wanted=2 copies=2 ' <<<'$(status_of r/$new)'"
d_old=$(device_of "r/$old") d_new=$(device_of "r/$new")
read -r id_old mask_old <<<"$(id_and_mask "${MS_DEV[d_old]}/r/$old")"
read -r id_new mask_new <<<"$(id_and_mask "${MS_DEV[d_new]}/r/$new")"
sum_old=$(md5sum <"$M/r/$old") sum_new=$(md5sum <"$M/r/$new")
ino_new=$(stat -c %i "${MS_DEV[d_new]}/r/$new")

# the cut: the daemon dies with the volume mounted; the module's volume
# simply is not mounted when the lowers come back
if [ "$MS_FRONT" = kmod ]; then
	ms_umount "$M"
else
	kill -9 "$MS_PID"
	wait "$MS_PID" 2>/dev/null
	umount -l "$M"
fi
# the rename's first step: $new takes the name $old on its own device
mv "${MS_DEV[d_new]}/r/$new" "${MS_DEV[d_new]}/r/$old"
sync
check "the name is on two devices before the repair" [ "$(device_of "r/$old" | wc -l)" -eq 2 ]

if ((d_new < d_old)); then
	keep=$d_new lose=$d_old sum_keep=$sum_new sum_lose=$sum_old lost_id=$id_old lost_mask=$mask_old
	kept_id=$id_new kept_mask=$mask_new lost_ino=$(stat -c %i "${MS_DEV[d_old]}/r/$old")
else
	keep=$d_old lose=$d_new sum_keep=$sum_old sum_lose=$sum_new lost_id=$id_new lost_mask=$mask_new
	kept_id=$id_old kept_mask=$mask_old lost_ino=$ino_new
fi
lost=${MS_DEV[lose]}/.morphstore/lost+found/$old.$lost_ino

ms_mount "$M" "replicate_bps=0" || { fail remount; ms_summary; exit 1; }
check "the name reads as the file of the lowest device (device $keep of $d_old and $d_new)" \
	[ "$(md5sum <"$M/r/$old")" = "$sum_keep" ]
check "the other file is set aside unchanged in .morphstore/lost+found on its device" \
	[ "$(md5sum <"$lost" 2>/dev/null)" = "$sum_lose" ]
check "the file set aside has no state" \
	bash -c "! getfattr -n user.morphstore.state '$lost' >/dev/null 2>&1"
ms_wait_idle "$M"
check "the replicas the file set aside listed are removed" \
	bash -c "! ls $(replicas_of "$lost_id" "$lost_mask" | tr '\n' ' ') 2>/dev/null | grep -q ."
check "the replicas of the file kept are still there" \
	ls $(replicas_of "$kept_id" "$kept_mask") >/dev/null
check "the file kept still has its 2 copies" grep -q "wanted=2 copies=2 .*stale=0x0" <<<"$(status_of "r/$old")"
check "the name is on one device after the repair" [ "$(device_of "r/$old")" = "$keep" ]
check "the directory lists the name once" [ "$(ls "$M/r" | grep -c "^$old\$")" -eq 1 ]
check "the log names both devices and where the other file went" \
	grep -q "was on device $keep and on device $lose; kept the one on device $keep, moved the other to ${MS_DEV[lose]}/.morphstore/lost+found/$old.$lost_ino" "$MS_TMP/daemon.log"
check "verify-replicas: the copies of the file kept equal it" \
	bash -c "'$MS_ROOT/tests/verify-replicas' ${MS_DEV[*]} | grep -q '^verify-replicas: [1-9][0-9]* fresh replicas checked, .* 0 problems'"
check "the directory can be removed" rm -r "$M/r"
ms_umount "$M"
check "verify-replicas after the removal: no copy is left that disagrees" \
	"$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
ms_summary
