#!/bin/bash
# Renames racing the replicator.  A file renamed over another whose copies
# the replicator is adding at that moment: the replaced file's replicas and
# their names go with it, and no name is left behind that says fresh for a
# file that is gone.  A directory renamed while copies of its files are
# being named: every name ends under the new path.  The replicator pauses
# 3 ms between finding a master at its path and naming its new copy there
# (a test hook, in the test build of the daemon only), so that renames fall
# into that window often.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 4 96 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
MS_FUSE=$MS_ROOT/build/test/morphstore-fuse MORPHSTORE_TEST_NAMING_PAUSE_US=3000 \
	ms_mount "$M" "replicate_bps=0,seed=5" || { fail mount; ms_summary; exit 1; }
mkdir "$M/r"
python3 - "$M/r" <<'PY'
import os, sys
d = sys.argv[1]
for i in range(300):
    victim, mover = os.path.join(d, "v%d" % (i % 7)), os.path.join(d, "m")
    with open(victim, "wb") as f:
        f.write(os.urandom(4096 + i))
    # the replicator starts adding copies of the victim at once ...
    os.setxattr(victim, "user.morphstore.replicas", b"4")
    with open(mover, "wb") as f:
        f.write(b"m%d" % i)
    # ... while another file takes its name
    os.rename(mover, victim)
print("renamed 300 files over files being replicated")
PY
check "300 renames over files being replicated succeed" [ $? -eq 0 ]
ms_wait_idle "$M" 60
check "no name of a replaced file is left saying fresh" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
# the files left hold one copy each, so no device keeps any replica
left=$(find "${MS_DEV[@]/%//.morphstore/replicas}" -type f | wc -l)
check "no replica of a replaced file is left behind ($left found)" [ "$left" -eq 0 ]
# a directory renamed back and forth while its files get their copies
mkdir "$M/a"
python3 - "$M" <<'PY'
import os, sys
m = sys.argv[1]
for i in range(60):
    here, there = ("a", "b") if i % 2 == 0 else ("b", "a")
    for k in range(3):
        f = os.path.join(m, here, "f%d" % k)
        with open(f, "wb") as out:
            out.write(os.urandom(8192 + i))
        os.setxattr(f, "user.morphstore.replicas", b"3")
    os.rename(os.path.join(m, here), os.path.join(m, there))
print("renamed a directory 60 times while its files were being replicated")
PY
check "60 directory renames while copies are made succeed" [ $? -eq 0 ]
ms_wait_idle "$M" 60
out=$("$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}")
rc=$?
echo "$out" | tail -3
check "every copy is named under the directory's last path, none under an old one" [ $rc -eq 0 ]
check "the directory's 3 files hold 3 copies each" \
	bash -c "[ \$('$MS_CTL' status '$M' | awk '\$1 ~ /^\/a\// && \$3 == 3 { n++ } END { print n + 0 }') -eq 3 ]"
check "the daemon logged no error" bash -c "! grep -q 'error:' '$MS_TMP/daemon.log'"
ms_summary
