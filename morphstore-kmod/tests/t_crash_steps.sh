#!/bin/bash
# A crash at each step of a rename of a replicated file over another
# replicated file whose master is on another device, and of an unlink of a
# replicated file (FUSE only: the replica names are the daemon's).  The test daemon (build/test/
# morphstore-fuse) exits at the step named by MORPHSTORE_TEST_EXIT_AT, so
# the lowers hold every step before it and none after, as a power cut
# that caught the rename there would leave them.  At every step the lowers
# must pass tests/verify-replicas before any repair: every copy a master
# lists has its name at the master's path (or the master says it may lack
# names, MORPH_STATE_LINKED) and no name no master backs says fresh.
# After the next mount (its repair pass) the name holds the old file or the
# new one, whole (an unlinked file: itself or nothing), and verify-replicas
# passes again.
source "$(dirname "$0")/lib.sh"
[ "$MS_FRONT" = kmod ] && { echo "0 passed, 0 failed"; exit 0; }
MS_FUSE=$MS_ROOT/build/test/morphstore-fuse
ms_setup
ms_devices 4 64 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
device_of() {	# the devices where volume path $1 is a file on its lower
	local i
	for i in "${!MS_DEV[@]}"; do [ -f "${MS_DEV[i]}/$1" ] && echo "$i"; done
}
verify() { "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}" >>"$MS_TMP/verify.log" 2>&1; }

for step in rename-marked rename-master rename-old-names rename-old-master rename-new-names; do
	ms_mount "$M" "replicate_bps=0" || { fail "mount before $step"; break; }
	rm -rf "$M/r"
	mkdir "$M/r"
	# the new file's master on another device than the old one's
	head -c 100000 /dev/urandom >"$M/r/old"
	for i in 1 2 3 4 5 6 7 8; do
		head -c $((90000 + i)) /dev/urandom >"$M/r/new"
		[ "$(device_of r/new)" != "$(device_of r/old)" ] && break
		rm "$M/r/new"
	done
	setfattr -n user.morphstore.replicas -v 2 "$M/r/old"
	setfattr -n user.morphstore.replicas -v 3 "$M/r/new"
	ms_wait_idle "$M"
	sum_old=$(md5sum <"$M/r/old") sum_new=$(md5sum <"$M/r/new")
	check "$step: the two files have their copies, on different devices" \
		bash -c "[ '$(device_of r/old)' != '$(device_of r/new)' ] && [ -n '$(device_of r/new)' ] &&
			getfattr --only-values -n user.morphstore.status '$M/r/new' | grep -q 'copies=3 '"
	ms_umount "$M"

	MORPHSTORE_TEST_EXIT_AT=$step ms_mount "$M" "replicate_bps=0" || { fail "mount at $step"; break; }
	mv "$M/r/new" "$M/r/old" 2>/dev/null
	wait "$MS_PID" 2>/dev/null
	check "$step: the daemon stopped at the step" grep -q "exiting at $step" "$MS_TMP/daemon.log"
	umount -l "$M" 2>/dev/null
	echo "== $step" >>"$MS_TMP/verify.log"
	check "$step: verify-replicas passes on the lowers as the crash left them" verify

	ms_mount "$M" "replicate_bps=0" || { fail "mount after $step"; break; }
	ms_wait_idle "$M"
	sum=$(md5sum <"$M/r/old" 2>/dev/null)
	check "$step: after the repair the name holds the old file or the new one" \
		[ "$sum" = "$sum_old" -o "$sum" = "$sum_new" ]
	ms_umount "$M"
	check "$step: verify-replicas passes after the repair" verify
done

for step in unlink-marked unlink-master; do
	ms_mount "$M" "replicate_bps=0" || { fail "mount before $step"; break; }
	rm -rf "$M/r"
	mkdir "$M/r"
	head -c 100000 /dev/urandom >"$M/r/gone"
	setfattr -n user.morphstore.replicas -v 3 "$M/r/gone"
	ms_wait_idle "$M"
	sum_gone=$(md5sum <"$M/r/gone")
	check "$step: the file has its copies" \
		bash -c "getfattr --only-values -n user.morphstore.status '$M/r/gone' | grep -q 'copies=3 '"
	ms_umount "$M"
	MORPHSTORE_TEST_EXIT_AT=$step ms_mount "$M" "replicate_bps=0" || { fail "mount at $step"; break; }
	rm "$M/r/gone" 2>/dev/null
	wait "$MS_PID" 2>/dev/null
	check "$step: the daemon stopped at the step" grep -q "exiting at $step" "$MS_TMP/daemon.log"
	umount -l "$M" 2>/dev/null
	echo "== $step" >>"$MS_TMP/verify.log"
	check "$step: verify-replicas passes on the lowers as the crash left them" verify
	ms_mount "$M" "replicate_bps=0" || { fail "mount after $step"; break; }
	ms_wait_idle "$M"
	sum=$(md5sum <"$M/r/gone" 2>/dev/null)
	check "$step: after the repair the file is whole or gone" \
		[ ! -e "$M/r/gone" -o "$sum" = "$sum_gone" ]
	ms_umount "$M"
	check "$step: verify-replicas passes after the repair" verify
done

# without a crash: the names follow, say fresh, and the mark goes
flags_of() {	# the flags of a master's state
	python3 -c 'import os, struct, sys
print(struct.unpack("<HHIIIIIQQQ", os.getxattr(sys.argv[1], "user.morphstore.state")[:48])[6])' "$1"
}
fresh_names() {	# the names of r/old's replicas that say fresh on themselves
	python3 -c 'import os, struct, sys
for p in sys.argv[1:]:
    if os.path.exists(p):
        r = struct.unpack("<HHIIIIIQQQ", os.getxattr(p, "user.morphstore.rstate")[:48])
        print(p if r[5] == 0 else "stale " + p)' "${MS_DEV[@]/%//.morphstore/names/r/old}"
}
ms_mount "$M" "replicate_bps=0" || fail "mount for a whole rename"
head -c 70000 /dev/urandom >"$M/r/old"
setfattr -n user.morphstore.replicas -v 2 "$M/r/old"
head -c 80000 /dev/urandom >"$M/r/x"
setfattr -n user.morphstore.replicas -v 3 "$M/r/x"
ms_wait_idle "$M"
sum_x=$(md5sum <"$M/r/x")
mv "$M/r/x" "$M/r/old"
check "a whole rename: the name holds the renamed file" [ "$(md5sum <"$M/r/old")" = "$sum_x" ]
ms_umount "$M"
check "a whole rename: verify-replicas passes" verify
d=$(device_of r/old)
check "a whole rename: the master no longer says it may lack names" [ "$(flags_of "${MS_DEV[d]}/r/old")" = 0 ]
check "a whole rename: both replica names say fresh at the new path" \
	[ "$(fresh_names | grep -vc '^stale')" = 2 -a "$(fresh_names | grep -c '^stale')" = 0 ]
[ "$MS_FAILED" -gt 0 ] && cat "$MS_TMP/verify.log" "$MS_TMP/daemon.log" | grep -v '^verify-replicas: .* 0 problems$' | tail -40
ms_summary
