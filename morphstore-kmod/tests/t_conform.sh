#!/bin/bash
# POSIX conformance against ext4 as the reference: tests/conform.c runs the
# same cases (hard links of every file type, modes at creation and after
# chmod, writes to other users' files, set-group-ID directories, chown,
# rename/unlink permissions including sticky directories, names longer than
# 255 bytes, symlink targets up to and beyond PATH_MAX, device nodes, a
# DataNode-style hard-linked block tree) on a MorphStore volume (copies=2,
# as a REPLICATED volume) and on a plain ext4 file system, as root and as
# an unprivileged user; every line of results must be the same.
source "$(dirname "$0")/lib.sh"
ms_setup
USER_UID=4242	# no passwd entry needed: conform switches uid itself
OTHER_UID=4343
chmod 0755 "$MS_TMP"	# the unprivileged user walks into it
export MS_MKFS_ARGS="-b 4096"	# a DataNode's disks: 4 KiB blocks, as ext4 makes them
for i in 0 1 2; do
	ms_device "d$i" 64 ext4 || { fail "set up devices"; ms_summary; exit 1; }
	MS_DEV+=("$MS_TMP/d$i")
done
MS_LOWER=$(IFS=:; echo "${MS_DEV[*]}")
ms_device ref 64 ext4 || { fail "set up the reference ext4"; ms_summary; exit 1; }
M=$MS_TMP/mnt
ms_mount "$M" "replicate_bps=0,seed=5,copies=2" || { fail "mount"; ms_summary; exit 1; }

# compare WHO: conform's lines on the volume and on ext4, one check each
compare() {
	local who=$1 args=$2 n i
	mkdir "$M/$who" "$MS_TMP/ref/$who"
	chmod 0755 "$M/$who" "$MS_TMP/ref/$who"
	# shellcheck disable=SC2086
	"$MS_ROOT/build/conform" --dir "$MS_TMP/ref/$who" $args >"$MS_TMP/$who.ref" 2>&1
	# shellcheck disable=SC2086
	"$MS_ROOT/build/conform" --dir "$M/$who" $args >"$MS_TMP/$who.ms" 2>&1
	mapfile -t want <"$MS_TMP/$who.ref"
	mapfile -t got <"$MS_TMP/$who.ms"
	n=${#want[@]}
	check "$who: conform ran to the end on ext4 ($n results)" \
		bash -c "[ $n -gt 100 ] && ! grep -q '^conform:' '$MS_TMP/$who.ref'"
	check "$who: as many results on MorphStore as on ext4" [ "${#got[@]}" -eq "$n" ]
	for ((i = 0; i < n; i++)); do
		if [ "${got[i]}" = "${want[i]}" ]; then
			pass "$who: ${want[i]}"
		else
			fail "$who: ${want[i]}" "MorphStore: ${got[i]}"
		fi
	done
}

compare root ""
compare user "--uid $USER_UID --gid $USER_UID --other $OTHER_UID"

# what docs/morphstore.md ("POSIX behaviour") says is not supported: the
# errno a program gets, for each front end
unsupported() {	# DIR: one line per feature, "name=errno" (0: works)
	/usr/bin/python3 - "$1" <<'PY'
import ctypes, errno, mmap, os, struct, sys
d = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
def res(fn):
    try:
        fn()
        return "0"
    except OSError as e:	# Linux's ENOTSUP is EOPNOTSUPP
        return "EOPNOTSUPP" if e.errno == errno.EOPNOTSUPP else \
               errno.errorcode.get(e.errno, str(e.errno))
def rename2(flag):
    def go():
        if libc.renameat2(-100, (d + "/a").encode(), -100, (d + "/b").encode(), flag):
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))
    return go
for n in ("a", "b", "c"):
    with open(d + "/" + n, "wb") as f:
        f.write(b"data")
print("rename-exchange=" + res(rename2(2)))
print("rename-whiteout=" + res(rename2(4)))
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, 0xffffffff)
      for t, p in ((1, 6), (4, 4), (0x10, 6), (0x20, 4)))
print("acl=" + res(lambda: os.setxattr(d + "/c", "system.posix_acl_access", acl)))
def mapped():
    with open(d + "/c", "r+b") as f:
        mmap.mmap(f.fileno(), 4)
print("mmap=" + res(mapped))
def deeper():	# one 250-byte directory in another, 17 deep: past PATH_MAX
    os.chdir(d)
    for _ in range(17):
        os.mkdir("q" * 250)
        os.chdir("q" * 250)
    open("leaf", "w").close()
print("beyond-path-max=" + res(deeper))
PY
}
mkdir "$M/unsupported" "$MS_TMP/ref/unsupported"
got=$(unsupported "$M/unsupported" | tr '\n' ' ')
ref=$(unsupported "$MS_TMP/ref/unsupported" | tr '\n' ' ')
want="rename-exchange=EINVAL rename-whiteout=EINVAL acl=EOPNOTSUPP mmap=0 beyond-path-max=ENAMETOOLONG "
[ "$MS_FRONT" = kmod ] && want="rename-exchange=EINVAL rename-whiteout=EINVAL acl=EOPNOTSUPP mmap=ENODEV beyond-path-max=0 "
check "ext4 itself supports all of: $ref" \
	[ "$ref" = "rename-exchange=0 rename-whiteout=0 acl=0 mmap=0 beyond-path-max=0 " ]
check "what MorphStore ($MS_FRONT) does not support fails as documented: $want" [ "$got" = "$want" ]
[ "$got" = "$want" ] || echo "  MorphStore: $got"
# a replicated file whose volume path is near PATH_MAX: its replica and the
# replica's names go with it (the lower directory's path joined to the
# volume path is past PATH_MAX; the daemon once read the state that way).
# Relative to the mount: the absolute path is past PATH_MAX too.
f=$(/usr/bin/python3 -c 'print("deep-replica" + ("/" + "r" * 250) * 16 + "/" + "f" * (4070 - 12 - 16 * 251 - 1))')
replicas() { find "${MS_DEV[@]/%//.morphstore/replicas}" -type f | wc -l; }
(cd "$M" && mkdir -p "${f%/*}" && echo deep >"$f")
ms_wait_idle "$M"
before=$(replicas)
check "a file at a volume path of ${#f} bytes has its 2 copies" \
	bash -c "cd '$M' && getfattr --only-values -n user.morphstore.status '$f' | grep -q copies=2"
(cd "$M" && rm "$f")
check "unlinking it removes its replica" [ "$(replicas)" -eq $((before - 1)) ]
ms_wait_idle "$M"
check "every fresh replica equals its master" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
check "the daemon logged no error" bash -c "! grep -q 'error:' '$MS_TMP/daemon.log'"
ms_summary
