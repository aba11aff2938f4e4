#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Where the data lies on the emulated zoned disk while `locus bench zone-jobs` runs the job
set (docs/zone.md, "Measured with Hadoop jobs"): every 3 s, the physical extents of the
DataNode's block files (permanent) and of the NodeManager's map outputs and spills
(temporary), by FIEMAP (filefrag). Root; one 512 MiB disk at 20 MB/s outer per strategy.

usage: zonectl/experiments/hadoop-positions.py normal proposed [existing]
environment: OUTPUT_SHARE (reduce-heavy outputs' share of the disk, default 0.45)"""
import os, sys, subprocess, tempfile, shutil, re, threading, time
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
from emulated_disk import Disk  # noqa: E402
if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    raise SystemExit(__doc__)
SIZE = 512 << 20
N = SIZE // 4096
EXT = re.compile(r"^\s*\d+:\s+\d+\.\.\s*\d+:\s+(\d+)\.\.\s*(\d+):", re.M)

def extents(path):
    out = subprocess.run(["filefrag", "-e", path], capture_output=True, text=True).stdout
    return [(int(a), int(b) - int(a) + 1) for a, b in EXT.findall(out)]

def scan(top):
    perm, temp = {}, {}
    for root, dirs, files in os.walk(top):
        for f in files:
            p = os.path.join(root, f)
            if "/dfs/data/" in p and f.startswith("blk_") and not f.endswith(".meta"):
                perm[p] = extents(p)
            elif "/usercache/" in p and (f.startswith("file.out") or f.startswith("spill")
                                         or f.startswith("map_") or f.endswith(".out")):
                temp[p] = extents(p)
    return perm, temp

for strategy in sys.argv[1:]:
    work = tempfile.mkdtemp(prefix="zpos.", dir="/tmp")
    disk = Disk(work, SIZE, 20, "-t ext4 -b 4096 -O ^flex_bg -m 0", dirty_bytes=16 << 20)
    last_perm, temp_seen = {}, {}
    done = threading.Event()
    def poll():
        global last_perm
        while not done.is_set():
            try:
                perm, temp = scan(os.path.join(disk.mnt, "cluster"))
            except Exception:
                perm, temp = {}, {}
            if perm:
                last_perm.clear(); last_perm.update(perm)
            for p, e in temp.items():
                if e:
                    temp_seen[p] = e
            time.sleep(3)
    t = threading.Thread(target=poll); t.start()
    try:
        r = subprocess.run([os.path.join(ROOT, "bin", "locus"), "bench", "zone-jobs", "--dir", disk.mnt, "--device", disk.loop,
            "--strategy", strategy, "--disk-bytes", str(SIZE), "--groups", "9",
            "--output-share", os.environ.get("OUTPUT_SHARE", "0.45"), "--state-dir", work + "/state",
            "--out", work + "/jobs.tsv", "--log", os.path.join(tempfile.gettempdir(), "hadoop-positions-%s.log" % strategy)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        done.set(); t.join()
        for name, files in (("permanent (HDFS blocks at the end)", last_perm), ("temporary (map outputs seen)", temp_seen)):
            ext = [x for e in files.values() for x in e]
            tot = sum(l for _, l in ext)
            if not tot:
                print(strategy, name, "none seen"); continue
            mean = sum((a + l / 2) * l for a, l in ext) / tot / N
            outer = sum(l for a, l in ext if a < N // 4) / tot
            print("%s rc=%d %s: %d MiB in %d files, mean position %.3f, %.0f %% in the outer quarter"
                  % (strategy, r.returncode, name, tot * 4096 >> 20, len(files), mean, 100 * outer), flush=True)
    finally:
        done.set()
        disk.close()
        shutil.rmtree(work, ignore_errors=True)
