#!/bin/bash
# Concurrent readers of replicated files (direct_io: every read is routed
# by LAAS), across the LAAS threshold, while
# copy counts go up and down: every byte read must be right.
source "$(dirname "$0")/lib.sh"
ms_setup
ms_devices 4 96 || { fail "set up devices"; ms_summary; exit 1; }
M=$MS_TMP/mnt
ms_mount "$M" "replicate_bps=0,seed=9,laas_window_ms=100,stripe_chunk=65536,direct_io" || { fail mount; ms_summary; exit 1; }
for i in 0 1 2 3 4 5; do
	dd if=/dev/urandom of="$MS_TMP/ref$i" bs=1M count=6 status=none
	cp "$MS_TMP/ref$i" "$M/f$i"
	setfattr -n user.morphstore.replicas -v 2 "$M/f$i"
done
ms_wait_idle "$M"

# copy counts change in the background for the whole run
(
	for round in $(seq 40); do
		for i in 0 1 2 3 4 5; do
			setfattr -n user.morphstore.replicas -v $(( (round + i) % 4 + 1 )) "$M/f$i"
		done
		sleep 0.1
	done
) &
changer=$!

python3 - "$M" "$MS_TMP" >"$MS_TMP/readers.out" 2>&1 <<'PY'
import os, random, sys, threading, time
mnt, tmp = sys.argv[1], sys.argv[2]
refs = [open(os.path.join(tmp, "ref%d" % i), "rb").read() for i in range(6)]
errors, reads = [], [0]
lock = threading.Lock()

# a reader runs for its wave's time and at least MIN_READS reads, however slow the machine
MIN_READS = 40

def reader(seed, until):
    rnd = random.Random(seed)
    done = 0
    while (time.monotonic() < until or done < MIN_READS) and not errors:
        i = rnd.randrange(6)
        fd = os.open(os.path.join(mnt, "f%d" % i), os.O_RDONLY)
        for _ in range(rnd.randrange(1, 8)):
            off = rnd.randrange(len(refs[i]))
            n = rnd.choice([4096, 65536, 200000, 1 << 20])
            got = os.pread(fd, n, off)
            if got != refs[i][off:off + n]:
                errors.append("f%d at %d+%d: wrong data" % (i, off, n))
            done += 1
            with lock:
                reads[0] += 1
        os.close(fd)

# waves of 1, 8 and 2 readers: striped, bound, striped again
t0 = time.monotonic()
for width, secs in ((1, 2), (8, 3), (2, 2)):
    until = time.monotonic() + secs
    ts = [threading.Thread(target=reader, args=(width * 100 + k, until)) for k in range(width)]
    for t in ts: t.start()
    for t in ts: t.join()
print("reads=%d errors=%d" % (reads[0], len(errors)))
for e in errors[:5]:
    print(e)
PY
wait "$changer"
cat "$MS_TMP/readers.out"
check "concurrent readers always read the right bytes while copies change" \
	grep -q "errors=0$" "$MS_TMP/readers.out"
# 11 readers of at least 40 reads each: fewer means a reader died before its share
check "every reader did its share of reads" \
	bash -c "[ \$(sed -n 's/reads=\([0-9]*\).*/\1/p' '$MS_TMP/readers.out') -ge 440 ]"
ms_wait_idle "$M" 60
check "every fresh replica equals its master afterwards" "$MS_ROOT/tests/verify-replicas" "${MS_DEV[@]}"
check "the daemon logged no error" bash -c "! grep -q 'error:' '$MS_TMP/daemon.log'"
ms_summary
