#!/bin/bash
# t_vm_fio.sh - what can be checked of bench/vm-fio (the fio bench against
# md RAID in a VM) without booting it: its options and refusals, the job
# files of bench/fio_jobs.py, the report bench/fio_report.py makes of a
# recorded run (tests/data/vm-fio: real fio output, see its README), and
# bench/qmp_throttle.py against a paused qemu.  The expected numbers below
# were worked out from the recorded JSON with jq, not with fio_report.py.
source "$(dirname "$0")/lib.sh"
ms_setup
B=$MS_ROOT/bench
DATA=$MS_ROOT/tests/data/vm-fio
# the chart needs matplotlib (Debian's python3-matplotlib): a python with it, as bench/vm-fio picks
PY=python3
python3 -c 'import matplotlib' 2>/dev/null || { [ -x /usr/bin/python3 ] && PY=/usr/bin/python3; }

# ---- options ----
"$B/vm-fio" --help >"$MS_TMP/help" 2>&1
check "--help exits 0" [ $? -eq 0 ]
missing=
for o in --out --seconds --levels --size --bps --iops --configs --workloads --accel --timeout --report-only; do
	grep -q -- "$o" "$MS_TMP/help" || missing="$missing $o"
done
check "--help names every option${missing:+ (missing:$missing)}" [ -z "$missing" ]

refused() {	# refused PATTERN ARG...: exit 2, the message matches PATTERN
	local out rc
	out=$("$B/vm-fio" "${@:2}" 2>&1)
	rc=$?
	[ $rc -eq 2 ] && grep -q -- "$1" <<<"$out"
}
check "a stream count above 16 is refused, naming --levels" refused "levels: 17 is not a stream count" --levels "1 17"
check "a non-numeric level is refused" refused "levels: x" --levels "1,x"
check "an unknown configuration is refused, naming it" refused "unknown md-raid5" --configs "md-raid0 md-raid5"
check "an unknown workload is refused" refused "unknown oltp" --workloads oltp
check "--seconds 0 is refused" refused "seconds 0: expected a whole number >= 1" --seconds 0
check "a size that is not a multiple of 8 is refused" refused "multiple of 8" --size 20
check "an option without its value is refused" refused "--size needs a value" --size
check "an unknown option is refused" refused "unknown argument --frob" --frob
check "an unknown accelerator is refused" refused "accel xen" --accel xen
check "--report-only without a run says so" refused "no .*bench.conf" --report-only --out "$MS_TMP/none"
check "a user other than root is told it needs root" \
	bash -c "setpriv --reuid=65534 --regid=65534 --clear-groups '$B/vm-fio' --seconds 1 2>&1 | grep -q 'needs root'"

# ---- job files ----
python3 "$B/fio_jobs.py" video 4 /d 10 >"$MS_TMP/v4.fio"
check "video at 4 streams: 4 jobs" [ "$(grep -c '^\[s[0-9]*\]$' "$MS_TMP/v4.fio")" -eq 4 ]
check "video: stream 1 of 4 plays files 1, 5, 9, 13" grep -qx 'filename=/d/v01:/d/v05:/d/v09:/d/v13' "$MS_TMP/v4.fio"
check "video: sequential 1 MiB reads, one file open at a time" \
	bash -c "grep -qx rw=read '$MS_TMP/v4.fio' && grep -qx bs=1M '$MS_TMP/v4.fio' && grep -qx openfiles=1 '$MS_TMP/v4.fio'"
python3 "$B/fio_jobs.py" mongo 16 /d 7 >"$MS_TMP/m16.fio"
check "mongo at 16 streams: one database file each" grep -qx 'filename=/d/db15' "$MS_TMP/m16.fio"
check "mongo: random 70/30 mix of 4-64 KiB, O_DSYNC writes, 7 s" \
	bash -c "grep -qx rw=randrw '$MS_TMP/m16.fio' && grep -qx rwmixread=70 '$MS_TMP/m16.fio' &&
		grep -qx bssplit=4k/20:8k/20:16k/20:32k/20:64k/20 '$MS_TMP/m16.fio' &&
		grep -qx sync=dsync '$MS_TMP/m16.fio' && grep -qx runtime=7 '$MS_TMP/m16.fio'"
check "fio accepts the job files (--parse-only)" \
	bash -c "fio --parse-only '$MS_TMP/v4.fio' >/dev/null 2>&1 && fio --parse-only '$MS_TMP/m16.fio' >/dev/null 2>&1"
check "17 streams are refused (16 files)" bash -c "! python3 '$B/fio_jobs.py' video 17 /d 10 2>/dev/null"

# ---- who used the CPU during a run (bench/taskcpu.py) ----
python3 "$B/taskcpu.py" snapshot >"$MS_TMP/tasks-now"
check "taskcpu snapshot lists this shell's thread with its name" \
	grep -qE "^$$ [0-9]+ [0-9]+ bash$" "$MS_TMP/tasks-now"
printf '10 5 7 kworker/u4:2-flush-254:0\n11 100 40 fio\n12 1 1 bash\n' >"$MS_TMP/tasks-a"
printf '10 5 207 kworker/u4:2-flush-254:0\n11 130 90 fio\n12 1 1 bash\n13 0 3 jbd2/vdb-8\n' >"$MS_TMP/tasks-b"
python3 "$B/taskcpu.py" top "$MS_TMP/tasks-a" "$MS_TMP/tasks-b" 2 >"$MS_TMP/tasks-top"
check "taskcpu top: the most system ticks first, at most N, idle threads left out" \
	[ "$(cat "$MS_TMP/tasks-top")" = "$(printf '200 0 kworker/u4:2-flush-254:0 10\n50 30 fio 11')" ]
check "taskcpu with no command is refused" bash -c "! python3 '$B/taskcpu.py' 2>/dev/null"

# ---- the report of a recorded run ----
R=$MS_TMP/report
"$PY" "$B/fio_report.py" "$DATA/raw" "$R" >"$MS_TMP/report.out" 2>&1
check "the report of the recorded run is made (exit 0)" [ $? -eq 0 ]
row() { grep -q -F -- "$1" "$R/vm-fio.md"; }
# throughput = sum of io_bytes over the longest job_runtime (jq)
check "video, 1 stream: RAID-0 585.4, RAID-1 111.1, LAAS 416.2, FUSE 946.0, UDR 421.3; best md RAID-0, LAAS/best 0.71, UDR/best 0.72, module/FUSE 0.44, modes stripe" \
	row "| 1 | 585.4 | 111.1 | 416.2 | 946.0 | 421.3 | md RAID-0 | 0.71 | 0.72 | 0.44 | stripe | stripe |"
check "video, 2 streams: LAAS/best md 0.99, UDR/best 0.70, module/FUSE 0.90, LAAS mode mostly mirror, also stripe" \
	row "| 2 | 1055.9 | 953.3 | 1041.9 | 1164.0 | 741.6 | md RAID-0 | 0.99 | 0.70 | 0.90 | mirror/stripe | stripe |"
check "video harmonic means 753.2, 199.0, 594.8, 1043.7, 537.3; LAAS/best 0.79, UDR/best 0.71, module/FUSE 0.57" \
	row "| harmonic mean | 753.2 | 199.0 | 594.8 | 1043.7 | 537.3 | md RAID-0 | 0.79 | 0.71 | 0.57 |  |  |"
check "mongo, 1 stream: best md is RAID-1 (27.4), LAAS/best 0.46, UDR 119.0 and 4.34 of it" \
	row "| 1 | 12.4 | 27.4 | 12.7 | 59.7 | 119.0 | md RAID-1 (4-way) | 0.46 | 4.34 | 0.21 | stripe | stripe |"
check "mongo harmonic means: LAAS/best 0.39, UDR/best 2.42, module/FUSE 0.18" \
	row "| harmonic mean | 16.2 | 41.9 | 16.3 | 90.9 | 101.2 | md RAID-1 (4-way) | 0.39 | 2.42 | 0.18 |  |  |"
check "capacity per user byte: RAID-0 1.01, RAID-1 4.02, MorphStore 2.01, the UDR layout 3.33" \
	row "| capacity used (x user data) | 1.01 | 4.02 | 2.01 | 2.01 | 3.33 |"
check "the UDR layout's copies per kind of file are stated" \
	grep -q "(video files 4 copies; database files 2 copies;" "$R/vm-fio.md"
check "goal lines: 0.90 missed at 1 stream (0.71), met at 2 (0.99)" \
	bash -c "grep -q 'video: LAAS >= 0.90 of the best md layout (md RAID-0) at 1 stream(s): MISSED (0.71)' '$R/vm-fio.md' &&
		grep -q 'video: LAAS >= 0.90 of the best md layout (md RAID-0) at 2 stream(s): met (0.99)' '$R/vm-fio.md'"
check "goal line: LAAS above RAID-1 in harmonic mean, video 2.99x met, mongo 0.39x missed" \
	bash -c "grep -q 'video: LAAS above md RAID-1 in harmonic mean: met (2.99x)' '$R/vm-fio.md' &&
		grep -q 'mongo: LAAS above md RAID-1 in harmonic mean: MISSED (0.39x)' '$R/vm-fio.md'"
check "goal lines for the UDR layout: video 0.90 missed at 2 streams (0.70), above RAID-1 2.70x" \
	bash -c "grep -q 'video: LAAS with UDR copies >= 0.90 of the best md layout (md RAID-0) at 2 stream(s): MISSED (0.70)' '$R/vm-fio.md' &&
		grep -q 'video: LAAS with UDR copies above md RAID-1 in harmonic mean: met (2.70x)' '$R/vm-fio.md'"
check "the TSV has one row per run (2 workloads x 5 configurations x 2 levels) and a header" \
	[ "$(wc -l <"$R/vm-fio.tsv")" -eq 21 ]
check "the TSV row of RAID-0 video at 1 stream reads 585.39 MiB/s" \
	grep -q "^video	md-raid0	1	585.39	" "$R/vm-fio.tsv"
check "the disk/fio read ratio of RAID-0 video at 1 stream is 0.93 (disk counters, not fio)" \
	grep -q "^| 1 | 0.93 | 1.01 | 1.00 | 1.00 | 0.91 |$" "$R/vm-fio.md"
check "a stream that read more than its files hold is counted (the recorded runs wrapped)" \
	grep -q "md-raid1 video 2 (2 stream(s))" "$R/vm-fio.md"
check "the report names the command, the throttle and the accelerator" \
	bash -c "grep -q 'Command: .fixture' '$R/vm-fio.md' && grep -q '20 MiB/s (20971520 B/s) and 100 IO/s' '$R/vm-fio.md' &&
		grep -q 'accelerator: tcg' '$R/vm-fio.md'"
if "$PY" -c 'import matplotlib' 2>/dev/null; then
	check "the chart is a PNG" python3 -c 'import sys; sys.exit(open(sys.argv[1], "rb").read(8) != b"\x89PNG\r\n\x1a\n")' "$R/vm-fio.png"
fi
check "--run prints one run's MiB/s" \
	[ "$(python3 "$B/fio_report.py" --run "$DATA/raw/md-raid1/video-1")" = "111.1 MiB/s" ]
check "--run adds a MorphStore run's LAAS mode" \
	[ "$(python3 "$B/fio_report.py" --run "$DATA/raw/kmod-laas/video-2")" = "1041.9 MiB/s (LAAS mode mirror/stripe)" ]
cp -r "$DATA/raw" "$MS_TMP/short"
rm "$MS_TMP/short/kmod-laas/mongo-2.json"
"$PY" "$B/fio_report.py" "$MS_TMP/short" "$MS_TMP/short-report" >"$MS_TMP/short.out" 2>&1
check "a missing run fails the report (exit 1), naming the file" \
	bash -c "[ $? -eq 1 ] && grep -q 'kmod-laas/mongo-2.json' '$MS_TMP/short.out'"
mkdir -p "$MS_TMP/again"
cp -r "$DATA/raw" "$MS_TMP/again/raw"
check "--report-only rebuilds the report from OUT/raw" \
	bash -c "'$B/vm-fio' --report-only --out '$MS_TMP/again' >/dev/null 2>&1 && [ -s '$MS_TMP/again/vm-fio.md' ]"

# ---- the throttle over QMP, on a paused qemu with a null disk ----
if command -v qemu-system-x86_64 >/dev/null; then
	qemu-system-x86_64 -S -accel tcg -m 32 -nic none -display none -monitor none \
		-drive driver=null-co,if=none,id=d0 -qmp "unix:$MS_TMP/qmp.sock,server=on,wait=off" \
		</dev/null >/dev/null 2>&1 &
	qpid=$!
	MS_PIDS+=("$qpid")
	for i in $(seq 100); do [ -S "$MS_TMP/qmp.sock" ] && break; sleep 0.05; done
	check "qmp_throttle.py sets a drive's throttle" \
		python3 "$B/qmp_throttle.py" "$MS_TMP/qmp.sock" 1048576 50 d0
	check "qemu reports the throttle set: 1048576 B/s, 50 IO/s" python3 -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rw")
f.readline()
for cmd in ({"execute": "qmp_capabilities"}, {"execute": "query-block"}):
    f.write(json.dumps(cmd) + "\n"); f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r: break
d = [b for b in r["return"] if b["device"] == "d0"][0]["inserted"]
sys.exit(0 if (d["bps"], d["iops"]) == (1048576, 50) else 1)' "$MS_TMP/qmp.sock"
	python3 "$B/qmp_throttle.py" "$MS_TMP/qmp.sock" 0 0 nosuch >"$MS_TMP/qmp.out" 2>&1
	check "an unknown drive fails, naming it" bash -c "[ $? -eq 1 ] && grep -q \"Device 'nosuch' not found\" '$MS_TMP/qmp.out'"
	python3 "$B/qmp_throttle.py" "$MS_TMP/no.sock" 0 0 d0 >"$MS_TMP/qmp.out" 2>&1
	check "a missing QMP socket fails, naming it" bash -c "[ $? -eq 1 ] && grep -q 'no.sock' '$MS_TMP/qmp.out'"
	kill "$qpid" 2>/dev/null
fi
ms_summary
