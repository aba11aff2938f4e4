#!/bin/bash
# t_cross_guest.sh WORK - inside the VM: the volume the host wrote through
# FUSE (virtio disks /dev/vde..vdh, md5 list in WORK/fuse.md5) is mounted
# by the module and read back byte-identical; then the module writes files
# whose md5 lines it prints as "XSUM <md5>  <path>" for the host to check
# through FUSE after the VM has stopped.
WORK=$1
source "$(dirname "$0")/../tests/lib.sh"
ms_setup
MS_DEV=()
for i in 0 1 2 3; do
	mkdir -p "$MS_TMP/x$i"
	mount "/dev/vd$(printf "\\x$(printf %x $((101 + i)))")" "$MS_TMP/x$i" || { fail "mount lower $i"; ms_summary; exit 1; }
	MS_MOUNTS+=("$MS_TMP/x$i")
	MS_DEV+=("$MS_TMP/x$i")
done
MS_LOWER=$(IFS=:; echo "${MS_DEV[*]}")
M=$MS_TMP/mnt
ms_mount "$M" "seed=5" || { fail "the module mounts the volume FUSE wrote"; ms_summary; exit 1; }
pass "the module mounts the volume FUSE wrote"
check "every file FUSE wrote reads back byte-identical through the module" \
	bash -c "cd '$M' && md5sum --quiet -c '$WORK/fuse.md5'"
check "the FUSE-made replicas are served: 3 copies" \
	grep -q "wanted=3 copies=3 " <<<"$(getfattr --only-values -n user.morphstore.status "$M/fbig")"
echo 3 >/proc/sys/vm/drop_caches
check "a split read over the 3 copies returns the same bytes" \
	bash -c "cd '$M' && grep ' ./fbig\$' '$WORK/fuse.md5' | md5sum --quiet -c"
check "a symlink FUSE made resolves" [ "$(cat "$M/flink")" = hello ]
check "a user attribute FUSE set is read" [ "$(getfattr --only-values -n user.color "$M/fdir/hello")" = green ]
mkdir -p "$M/kdir"
dd if=/dev/urandom of="$M/kdir/kbig" bs=1M count=2 status=none
dd if=/dev/urandom of="$M/kdir/ksmall" bs=999 count=13 status=none
echo appended >>"$M/fdir/hello"
setfattr -n user.morphstore.replicas -v 2 "$M/kdir/kbig"
kbig_sum=$(md5sum <"$M/kdir/kbig")
check "the module makes 2 copies of a file it wrote" \
	grep -q "wanted=2 copies=2 " <<<"$(getfattr --only-values -n user.morphstore.status "$M/kdir/kbig")"
(cd "$M" && find . -type f | sort | xargs md5sum) | sed 's/^/XSUM /'
check "the module logged no error" bash -c "! grep -q 'error:' '$MS_TMP/daemon.log'"
ms_umount "$M"
check "every fresh replica equals its master after the module's writes" \
	"$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
# the fstab line of docs/morphstore.md, from a private fstab file
echo "none  $M  morphstore  lower=$MS_LOWER,nofail  0  0" >"$MS_TMP/fstab"
check "the documented fstab line mounts the volume" mount -T "$MS_TMP/fstab" "$M"
check "through it the module's files read back" [ "$(md5sum <"$M/kdir/kbig")" = "$kbig_sum" ]
umount "$M"
ms_summary
