#!/bin/bash
# The FUSE daemon as an operator starts it: without -f it forks into the
# background before serving the mount, and its worker threads (replicator,
# split readers) must run in the process that serves it. They were once
# started before the fork, so a background daemon never made a replica.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 3 64 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
mkdir -p "$M"
MS_MOUNTS+=("$M")
"$MS_FUSE" -o "lower=$MS_LOWER,replicate_bps=0,laas=stripe,stripe_chunk=65536" "$M" \
	2>>"$MS_TMP/daemon.log"
check "the daemon forks into the background and mounts the volume" \
	bash -c "getfattr -n user.morphstore.volume \"\$1\" >/dev/null 2>&1" _ "$M"
daemon=$(grep -l -a -F -- "lower=$MS_LOWER" /proc/[0-9]*/cmdline 2>/dev/null | head -1 | cut -d/ -f3)
check "the background daemon runs" [ -n "$daemon" ]

dd if=/dev/urandom of="$M/f" bs=1M count=4 status=none
sum=$(md5sum <"$MS_TMP/d0/f" 2>/dev/null || md5sum <"$MS_TMP/d1/f" 2>/dev/null ||
	md5sum <"$MS_TMP/d2/f")
setfattr -n user.morphstore.replicas -v 3 "$M/f"
ms_wait_idle "$M" 20
check "the background daemon's replicator makes the copies asked for" \
	grep -q "wanted=3 copies=3" <<<"$(getfattr --only-values -n user.morphstore.status "$M/f")"
echo 3 >/proc/sys/vm/drop_caches
# striped over three copies in 64 KiB pieces: the split readers serve it
check "a striped read through the background daemon's readers is intact" \
	[ "$(timeout 20 md5sum <"$M/f")" = "$sum" ]
check "every copy is identical to its master" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"

fusermount3 -u "$M"
for i in $(seq 100); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.05; done
check "the daemon exits when the volume is unmounted" bash -c "! kill -0 $daemon 2>/dev/null"
ms_summary
[ "$MS_FAILED" -eq 0 ]
