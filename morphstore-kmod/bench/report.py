#!/usr/bin/env python3
"""report.py OUT BPS IOPS FILE_MB SECONDS LAYOUT - turn bench/run's
morphstore-bench.tsv (config, level, MiB/s, LAAS mode) into
morphstore-bench.md and morphstore-bench.png, print the table and the
acceptance checks; exit 1 if a check fails."""
import os, sys
from statistics import harmonic_mean

CONFIGS = [("jbod", "JBOD (1 copy)"), ("stripe", "stripe-only"),
           ("mirror", "mirror-only"), ("laas", "LAAS")]

def main(out, bps, iops, file_mb, secs, layout):
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "morphstore-bench.tsv"))]
    tput, mode = {}, {}
    for config, level, mibs, m in rows:
        tput[config, int(level)] = float(mibs)
        if config == "laas":
            mode[int(level)] = m
    levels = sorted({int(r[1]) for r in rows})
    copies = [int(l.split()[2]) for l in open(layout) if l.startswith("/f")]
    cap = {"jbod": 1.0}
    for c in ("stripe", "mirror", "laas"):
        cap[c] = sum(copies) / len(copies)
    hm = {c: harmonic_mean([tput[c, l] for l in levels]) for c, _ in CONFIGS}

    lines = ["| readers | " + " | ".join(n for _, n in CONFIGS) +
             " | LAAS mode | LAAS / best of stripe, mirror |",
             "|---:|" + "---:|" * len(CONFIGS) + "---|---:|"]
    checks = []
    for l in levels:
        best = max(tput["stripe", l], tput["mirror", l])
        ratio = tput["laas", l] / best
        lines.append("| %d | " % l + " | ".join("%.1f" % tput[c, l] for c, _ in CONFIGS) +
                     " | %s | %.2f |" % (mode.get(l, "?"), ratio))
        checks.append(("LAAS within 10 %% of the better of stripe/mirror at %d readers" % l,
                       ratio >= 0.90, "%.2f" % ratio))
    lines.append("| harmonic mean | " + " | ".join("%.1f" % hm[c] for c, _ in CONFIGS) + " | | |")
    lines.append("| capacity used (x masters) | " +
                 " | ".join("%.1f" % cap[c] for c, _ in CONFIGS) + " | | |")
    one = tput["jbod", levels[0]]
    for c in ("laas", "stripe"):
        r = tput[c, levels[0]] / one
        checks.append(("one reader of a 2-copy file, %s (low-load mode) >= 1.7x one device"
                       % c, r >= 1.7, "%.2fx" % r))
    table = "\n".join(lines)

    png = os.path.join(out, "morphstore-bench.png")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        groups = [str(l) for l in levels] + ["HM"]
        width = 0.2
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for k, (c, name) in enumerate(CONFIGS):
            vals = [tput[c, l] for l in levels] + [hm[c]]
            ax.bar([i + (k - 1.5) * width for i in range(len(groups))], vals, width, label=name)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups)
        ax.set_xlabel("concurrent readers (HM = harmonic mean)")
        ax.set_ylabel("read throughput, MiB/s")
        ax.set_title("MorphStore on 4 throttled devices (%.0f MiB/s, %d IO/s each)"
                     % (bps / 1048576, iops))
        ax.legend()
        fig.tight_layout()
        fig.savefig(png, dpi=100)
    except ImportError:
        print("report.py: matplotlib is missing (apt-get install python3-matplotlib): no chart",
              file=sys.stderr)
        png = None

    verdicts = "\n".join("- %s: %s (%s)" % (n, "PASS" if ok else "FAIL", v) for n, ok, v in checks)
    md = f"""# MorphStore bench

Four loop-backed ext4 lower devices, each throttled with cgroup v1 blkio to
behave like a small HDD: `blkio.throttle.read_bps_device` = {bps} B/s
({bps / 1048576:.0f} MiB/s) and `blkio.throttle.read_iops_device` = {iops} IO/s on
each loop device's `7:N`; the FUSE daemon (`-o direct_io`, so every read()
reaches the scheduler) runs in that cgroup.  Eight files of {file_mb} MiB, two
masters per device.  At each load level N readers each read their own file
sequentially in 1 MiB requests for {secs} s, page caches of the lower files
dropped before each level; throughput is the sum over readers, MiB/s.

JBOD has one copy per file; stripe-only, mirror-only and LAAS share one
layout with two copies of every file (replica devices chosen at random,
seed 1), so they differ only in scheduling (seed 001 section 3.6.3, isolating
LAAS).  LAAS threshold: 1 x devices = 4 open files.

{table}

![throughput per load level]({os.path.basename(png) if png else "(matplotlib missing)"})

Acceptance checks:

{verdicts}

Command: `morphstore-kmod/bench/run --out {out}`
"""
    open(os.path.join(out, "morphstore-bench.md"), "w").write(md)
    print(table)
    print(verdicts)
    print("report: %s" % os.path.join(out, "morphstore-bench.md"))
    return 0 if all(ok for _, ok, _ in checks) else 1

if __name__ == "__main__":
    if len(sys.argv) != 7:
        print(__doc__)
        sys.exit(2)
    a = sys.argv
    sys.exit(main(a[1], int(a[2]), int(a[3]), int(a[4]), float(a[5]), a[6]))
