#!/usr/bin/env python3
"""fio_report.py RAW OUT - turn what bench/vm-fio-guest left in RAW (fio
JSON, /proc/diskstats around each run, LAAS modes, capacity.tsv,
bench.conf, guest.txt) into OUT/vm-fio.tsv, OUT/vm-fio.md and
OUT/vm-fio.png; print the tables and the goal lines.
fio_report.py --run RAW/CONFIG/WORKLOAD-STREAMS - one run's throughput,
MiB/s, and its LAAS mode if it has one (bench/vm-fio's progress lines).

Throughput of a run: the bytes every job read and wrote (fio's io_bytes)
over the longest job's run time, MiB/s.  Harmonic mean over the load
levels, as seed 001 section 3.6.1 averages.  Capacity: bytes the layout
took on the four disks per byte of user data.  Exit 1 if RAW lacks a run
bench.conf asks for, 2 on a usage error."""
import json
import os
import shlex
import sys
from statistics import harmonic_mean

# (config, label, layout): the order of the tables and the chart
CONFIGS = [
    ("md-raid0", "md RAID-0", "md-raid0"),
    ("md-raid10", "md RAID-10 far 2", "md-raid10"),
    ("md-raid1", "md RAID-1 (4-way)", "md-raid1"),
    ("kmod-stripe", "MorphStore stripe-only", "morphstore"),
    ("kmod-mirror", "MorphStore mirror-only", "morphstore"),
    ("kmod-laas", "MorphStore LAAS", "morphstore"),
    ("fuse-laas", "MorphStore LAAS, FUSE", "morphstore"),
    ("kmod-udr", "MorphStore LAAS, UDR copies", "morphstore-udr"),
]
LABEL = {c: label for c, label, _ in CONFIGS}
LAYOUT = {c: layout for c, _, layout in CONFIGS}
MD = ["md-raid0", "md-raid10", "md-raid1"]
# the LAAS configurations the goals are checked for, with the word that
# names them in the goal lines and the ratio columns
LAAS = [("kmod-laas", "LAAS"), ("kmod-udr", "LAAS with UDR copies")]
WORKLOAD_TITLE = {
    "video": "video server: sequential 1 MiB reads, one file at a time per stream",
    "mongo": "MongoDB-like: random 4-64 KiB, 70 % reads, O_DSYNC writes",
}
GOAL = 0.90  # issue 13: LAAS >= 0.90 of the best md layout at every level


class RunError(Exception):
    pass


def fio_jobs(path):
    """The jobs of one fio JSON output."""
    text = open(path).read()
    if "{" not in text:
        raise RunError("%s holds no fio JSON" % path)
    doc = json.loads(text[text.index("{"):])  # fio may print notes before it
    return doc.get("jobs") or []


def read_fio(path):
    """(read bytes, written bytes, I/Os, seconds) of one fio JSON output."""
    jobs = fio_jobs(path)
    if not jobs:
        raise RunError("%s has no jobs" % path)
    for j in jobs:
        if j.get("error"):
            raise RunError("%s: job %s ended with error %d" % (path, j["jobname"], j["error"]))
    rb = sum(j["read"]["io_bytes"] for j in jobs)
    wb = sum(j["write"]["io_bytes"] for j in jobs)
    ios = sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in jobs)
    secs = max(j["job_runtime"] for j in jobs) / 1000.0
    if secs <= 0:
        raise RunError("%s: run time 0" % path)
    return rb, wb, ios, secs


def run_line(base):
    rb, wb, _, secs = read_fio(base + ".json")
    line = "%.1f MiB/s" % ((rb + wb) / 1048576.0 / secs)
    if os.path.exists(base + ".mode"):
        line += " (LAAS mode %s)" % (read_mode(base + ".mode") or "?")
    return line


def read_diskstats(path):
    """{disk: (bytes read, bytes written)} between the before and after blocks."""
    blocks, cur = {}, None
    for line in open(path):
        f = line.split()
        if len(f) == 1:
            cur = blocks.setdefault(f[0], {})
        elif len(f) >= 10 and cur is not None:
            cur[f[2]] = (int(f[5]) * 512, int(f[9]) * 512)
    before, after = blocks.get("before"), blocks.get("after")
    if not before or not after:
        raise RunError("%s lacks a before or after block" % path)
    return {d: (after[d][0] - before[d][0], after[d][1] - before[d][1]) for d in sorted(after)}


def read_streams(path, file_mb):
    """(slowest stream MiB/s, fastest stream MiB/s, streams that read more
    than their files hold, i.e. started a file again) of one fio output."""
    rates, wrapped = [], 0
    for j in fio_jobs(path):
        moved = j["read"]["io_bytes"] + j["write"]["io_bytes"]
        rates.append(moved / 1048576.0 / max(j["job_runtime"] / 1000.0, 1e-3))
        files = j.get("job options", {}).get("filename", "").split(":")
        if file_mb and j["read"]["io_bytes"] > len(files) * file_mb * 1048576:
            wrapped += 1
    return min(rates), max(rates), wrapped


def read_mode(path):
    """The LAAS mode of a run from its samples ("load=N mode=M", one a
    second): the mode most samples with files open saw, then any other seen."""
    seen = {}
    for line in open(path):
        f = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "mode" in f and int(f.get("load", "1")) > 0:
            seen[f["mode"]] = seen.get(f["mode"], 0) + 1
    return "/".join(sorted(seen, key=lambda m: -seen[m]))


def read_cpu(path):
    """Share of the guest's CPU time (all vCPUs) that was busy between the two
    /proc/stat "cpu" lines of path: near 1, the emulated CPU bound the run."""
    lines = [l.split() for l in open(path) if l.startswith("cpu ")]
    if len(lines) != 2:
        raise RunError("%s: expected two cpu lines" % path)
    a, b = ([int(x) for x in l[1:9]] for l in lines)  # user .. steal
    total = sum(b) - sum(a)
    idle = (b[3] + b[4]) - (a[3] + a[4])  # idle + iowait
    return 1.0 - idle / total if total > 0 else None


def read_kstat(path):
    """Growth of the guest's /proc/vmstat counters between the "before" and
    "after" sections of path (lines "name value"; the jbd2 lines between
    them are skipped)."""
    sec, seen = None, {"before": {}, "after": {}}
    for line in open(path):
        f = line.split()
        if len(f) == 1 and f[0] in seen:
            sec = f[0]
        elif sec and len(f) == 2 and f[1].isdigit() and not line.startswith(" "):
            seen[sec][f[0]] = int(f[1])
    return {k: v - seen["before"].get(k, 0) for k, v in seen["after"].items()
            if k in seen["before"]}


def read_conf(raw):
    conf = {}
    for line in open(os.path.join(raw, "bench.conf")):
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            conf[k] = " ".join(shlex.split(v))  # bench/vm-fio writes printf %q
    return conf


def read_tsv_pairs(path):
    if not os.path.exists(path):
        return {}
    return {l.split("\t", 1)[0]: l.rstrip("\n").split("\t", 1)[1] for l in open(path) if "\t" in l}


def load(raw):
    conf = read_conf(raw)
    levels = [int(x) for x in conf["LEVELS"].split()]
    configs = [c for c, _, _ in CONFIGS if c in conf["CONFIGS"].split()]
    workloads = conf["WORKLOADS"].split()
    runs, missing = {}, []
    for c in configs:
        for w in workloads:
            for n in levels:
                base = os.path.join(raw, c, "%s-%d" % (w, n))
                if not os.path.exists(base + ".json"):
                    missing.append(base + ".json")
                    continue
                rb, wb, ios, secs = read_fio(base + ".json")
                disks = read_diskstats(base + ".diskstats")
                cpu = read_cpu(base + ".cpu") if os.path.exists(base + ".cpu") else None
                mode = read_mode(base + ".mode") if os.path.exists(base + ".mode") else ""
                kstat = read_kstat(base + ".kstat") if os.path.exists(base + ".kstat") else {}
                hostload = None
                if os.path.exists(base + ".hostload"):
                    hostload = float(open(base + ".hostload").read().split()[0])
                slow, fast, wrapped = read_streams(
                    base + ".json", int(conf["SIZE_MB"]) if w == "video" else 0)
                runs[c, w, n] = {"read": rb, "write": wb, "ios": ios, "secs": secs,
                                 "mibs": (rb + wb) / 1048576.0 / secs, "disks": disks,
                                 "mode": mode, "cpu": cpu, "slow": slow, "fast": fast,
                                 "wrapped": wrapped, "hostload": hostload, "kstat": kstat}
    if missing:
        raise RunError("missing runs (did the VM stop early?): " + ", ".join(missing))
    capacity = {}
    cap_path = os.path.join(raw, "capacity.tsv")
    if os.path.exists(cap_path):
        for line in open(cap_path):
            f = line.rstrip("\n").split("\t")
            if len(f) == 4:
                capacity[f[0]] = (int(f[1]), int(f[3]))
    guest = read_tsv_pairs(os.path.join(raw, "guest.txt"))
    return conf, levels, configs, workloads, runs, capacity, guest


def ratio_str(x):
    return "%.2f" % x if x is not None else "-"


def analyse(levels, configs, workloads, runs):
    """Per workload: harmonic means, best md and each LAAS configuration's
    ratio to it per level, module/FUSE per level, and the goal checks."""
    result, checks = {}, []
    laas = [(c, word) for c, word in LAAS if c in configs]
    for w in workloads:
        hm = {c: harmonic_mean([runs[c, w, n]["mibs"] for n in levels]) for c in configs}
        mds = [c for c in MD if c in configs]
        per_level = {}
        for n in levels:
            row = {"laas_best": {}}
            if mds:
                best = max(mds, key=lambda c: runs[c, w, n]["mibs"])
                row["best"] = best
                for c, _ in laas:
                    row["laas_best"][c] = runs[c, w, n]["mibs"] / runs[best, w, n]["mibs"]
            if "kmod-laas" in configs and "fuse-laas" in configs:
                row["kmod_fuse"] = runs["kmod-laas", w, n]["mibs"] / runs["fuse-laas", w, n]["mibs"]
            per_level[n] = row
        res = {"hm": hm, "levels": per_level, "laas_best_hm": {}}
        if laas and mds:
            res["hm_best"] = max(mds, key=lambda c: hm[c])
        for c, word in laas if mds else []:
            res["laas_best_hm"][c] = hm[c] / hm[res["hm_best"]]
            for n in levels:
                r = per_level[n]["laas_best"][c]
                checks.append(("%s: %s >= %.2f of the best md layout (%s) at %d stream(s)"
                               % (w, word, GOAL, LABEL[per_level[n]["best"]], n), r >= GOAL,
                               "%.2f" % r))
            if "md-raid1" in configs:
                r = hm[c] / hm["md-raid1"]
                checks.append(("%s: %s above md RAID-1 in harmonic mean" % (w, word), r > 1.0,
                               "%.2fx" % r))
        if "kmod-laas" in configs and "fuse-laas" in configs:
            res["kmod_fuse_hm"] = hm["kmod-laas"] / hm["fuse-laas"]
        result[w] = res
    return result, checks


def disk_ratio(run, kind):
    """Bytes the four disks moved per byte fio moved (kind 0: reads, 1: writes)."""
    user = run["read"] if kind == 0 else run["write"]
    dev = sum(v[kind] for v in run["disks"].values())
    return dev / user if user else None


def served_from_cache(run, workload):
    """A video run whose disks read less than 0.9 of what fio read: part came
    from the guest's page cache, so its throughput is not the disks'."""
    return workload == "video" and run["read"] and disk_ratio(run, 0) < 0.9


def tables(conf, levels, configs, workloads, runs, capacity, analysis):
    out = []
    for w in workloads:
        a = analysis[w]
        head = ["streams"] + [LABEL[c] for c in configs]
        laas = [(c, word) for c, word in LAAS if c in configs]
        extra = []
        if any("best" in a["levels"][n] for n in levels):
            extra.append("best md")
        if "best" in a["levels"][levels[0]]:
            extra += ["%s / best md" % word for _, word in laas]
        if "kmod-laas" in configs and "fuse-laas" in configs:
            extra.append("module / FUSE")
        extra += ["%s mode" % word for _, word in laas]
        ratio_of = {"%s / best md" % word: c for c, word in laas}
        mode_of = {"%s mode" % word: c for c, word in laas}
        lines = ["**%s** (MiB/s, fio's bytes read and written per second, all streams)"
                 % WORKLOAD_TITLE.get(w, w), "",
                 "| " + " | ".join(head + extra) + " |",
                 "|---:|" + "---:|" * len(configs) + "".join(
                     "---|" if e == "best md" or e in mode_of else "---:|" for e in extra)]
        for n in levels:
            lv = a["levels"][n]
            cells = [str(n)] + ["%.1f" % runs[c, w, n]["mibs"] for c in configs]
            for e in extra:
                if e == "best md":
                    cells.append(LABEL[lv["best"]])
                elif e in ratio_of:
                    cells.append(ratio_str(lv["laas_best"].get(ratio_of[e])))
                elif e == "module / FUSE":
                    cells.append(ratio_str(lv.get("kmod_fuse")))
                else:
                    cells.append(runs[mode_of[e], w, n]["mode"] or "?")
            lines.append("| " + " | ".join(cells) + " |")
        cells = ["harmonic mean"] + ["%.1f" % a["hm"][c] for c in configs]
        for e in extra:
            if e == "best md":
                cells.append(LABEL[a["hm_best"]] if "hm_best" in a else "")
            elif e in ratio_of:
                cells.append(ratio_str(a["laas_best_hm"].get(ratio_of[e])))
            elif e == "module / FUSE":
                cells.append(ratio_str(a.get("kmod_fuse_hm")))
            else:
                cells.append("")
        lines.append("| " + " | ".join(cells) + " |")
        cap = ["capacity used (x user data)"]
        for c in configs:
            u = capacity.get(LAYOUT[c])
            cap.append("%.2f" % (u[1] / u[0]) if u else "?")
        lines.append("| " + " | ".join(cap + [""] * len(extra)) + " |")
        # where the bytes went: disk bytes per byte fio asked for
        kind, what = (0, "read") if w == "video" else (None, "read + written")
        lines += ["", "Disk bytes %s per byte fio %s (all four disks, /proc/diskstats):" % (
            what, what), "",
            "| streams | " + " | ".join(LABEL[c] for c in configs) + " |",
            "|---:|" + "---:|" * len(configs)]
        for n in levels:
            cells = [str(n)]
            for c in configs:
                r = runs[c, w, n]
                if kind is None:
                    dev = sum(v[0] + v[1] for v in r["disks"].values())
                    user = r["read"] + r["write"]
                    cells.append(ratio_str(dev / user if user else None))
                else:
                    cells.append(ratio_str(disk_ratio(r, kind)))
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "Guest CPU busy, % of both vCPUs (/proc/stat; near 100, the emulated CPU "
                  "and not the disks bound the run):", "",
                  "| streams | " + " | ".join(LABEL[c] for c in configs) + " |",
                  "|---:|" + "---:|" * len(configs)]
        for n in levels:
            lines.append("| %d | " % n + " | ".join(
                "%.0f" % (100 * runs[c, w, n]["cpu"]) if runs[c, w, n]["cpu"] is not None else "-"
                for c in configs) + " |")
        if any("pgmajfault" in runs[c, w, n].get("kstat", {}) for c in configs for n in levels):
            lines += ["", "Guest major page faults / page-cache refaults during the run "
                      "(/proc/vmstat; a major fault stops the thread that takes it until "
                      "the page is read back):", "",
                      "| streams | " + " | ".join(LABEL[c] for c in configs) + " |",
                      "|---:|" + "---:|" * len(configs)]
            for n in levels:
                cells = [str(n)]
                for c in configs:
                    k = runs[c, w, n].get("kstat", {})
                    cells.append("%s / %s" % (k.get("pgmajfault", "-"),
                                              k.get("workingset_refault_file", "-")))
                lines.append("| " + " | ".join(cells) + " |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def capacity_table(configs, capacity):
    lines = ["| layout | configurations | user data, MiB | on the disks, MiB | x user data |",
             "|---|---|---:|---:|---:|"]
    seen = []
    for c in configs:
        if LAYOUT[c] in seen:
            continue
        seen.append(LAYOUT[c])
        u = capacity.get(LAYOUT[c])
        users = ", ".join(LABEL[x] for x in configs if LAYOUT[x] == LAYOUT[c])
        if u:
            lines.append("| %s | %s | %.0f | %.0f | %.2f |" % (LAYOUT[c], users, u[0] / 1048576.0,
                                                             u[1] / 1048576.0, u[1] / u[0]))
        else:
            lines.append("| %s | %s | ? | ? | ? |" % (LAYOUT[c], users))
    return "\n".join(lines)


def tsv(path, levels, configs, workloads, runs):
    with open(path, "w") as f:
        f.write("workload\tconfig\tstreams\tMiB_s\tread_MiB_s\twrite_MiB_s\tIOPS\tseconds"
                "\tdisk_read_MiB\tdisk_write_MiB\tdisk_read_per_read\tlaas_mode"
                "\tguest_cpu_busy\tslowest_stream_MiB_s\tfastest_stream_MiB_s\twrapped_streams"
                "\thost_load_1min\tper_disk_read_MiB\n")
        for w in workloads:
            for c in configs:
                for n in levels:
                    r = runs[c, w, n]
                    dr = sum(v[0] for v in r["disks"].values())
                    dw = sum(v[1] for v in r["disks"].values())
                    f.write("%s\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.1f\t%.2f\t%.1f\t%.1f\t%s\t%s\t%s\t%.2f\t%.2f\t%d\t%s\t%s\n" % (
                        w, c, n, r["mibs"], r["read"] / 1048576.0 / r["secs"],
                        r["write"] / 1048576.0 / r["secs"], r["ios"] / r["secs"], r["secs"],
                        dr / 1048576.0, dw / 1048576.0, ratio_str(disk_ratio(r, 0)),
                        r["mode"] or "-", ratio_str(r["cpu"]), r["slow"], r["fast"], r["wrapped"],
                        "-" if r["hostload"] is None else "%.1f" % r["hostload"],
                        ",".join("%s:%.1f" % (d, v[0] / 1048576.0) for d, v in r["disks"].items())))


def chart(path, conf, levels, configs, workloads, runs, analysis):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("fio_report.py: matplotlib is missing (apt-get install python3-matplotlib): no chart",
              file=sys.stderr)
        return None
    colors = {"md-raid0": "#9ecae1", "md-raid10": "#4292c6", "md-raid1": "#08306b",
              "kmod-stripe": "#fdd0a2", "kmod-mirror": "#fd8d3c", "kmod-laas": "#d94801",
              "fuse-laas": "#74c476", "kmod-udr": "#7f2704"}
    fig, axes = plt.subplots(len(workloads), 1, figsize=(10, 4.2 * len(workloads)), squeeze=False)
    groups = [str(n) for n in levels] + ["HM"]
    width = 0.8 / len(configs)
    for ax, w in zip(axes[:, 0], workloads):
        # a run served partly from the page cache is drawn hatched and cut at the axis top
        # (its figure written on it), so it does not set the scale for the disks' runs
        honest = [runs[c, w, n]["mibs"] for c in configs for n in levels
                  if not served_from_cache(runs[c, w, n], w)]
        top = 1.15 * max(honest + [analysis[w]["hm"][c] for c in configs] + [1e-9])
        for k, c in enumerate(configs):
            vals = [runs[c, w, n]["mibs"] for n in levels] + [analysis[w]["hm"][c]]
            xs = [i + (k - (len(configs) - 1) / 2.0) * width for i in range(len(groups))]
            bars = ax.bar(xs, [min(v, top) for v in vals], width, label=LABEL[c],
                          color=colors.get(c))
            for i, n in enumerate(levels):
                if served_from_cache(runs[c, w, n], w):
                    bars[i].set_hatch("///")
                    bars[i].set_edgecolor("black")
                    ax.annotate("%.0f MiB/s, partly page cache" % vals[i],
                                xy=(xs[i] + width / 2, min(vals[i], top)), xytext=(3, -3),
                                textcoords="offset points", ha="left", va="top", fontsize=7,
                                bbox=dict(boxstyle="square,pad=0.2", fc="white", ec="none"))
        ax.set_ylim(0, top)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups)
        ax.set_xlabel("concurrent streams (HM = harmonic mean over the levels)")
        ax.set_ylabel("MiB/s")
        ax.set_title(WORKLOAD_TITLE.get(w, w), fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
    if conf.get("DISK_MODEL") == "hdd":
        title = ("4 virtio disks on the emulated HDD (modelled Seagate ES.3), qemu %s"
                 % conf.get("ACCEL", "?"))
    else:
        title = ("4 virtio disks throttled to %.0f MiB/s and %s IO/s each, qemu %s"
                 % (int(conf["BPS"]) / 1048576.0, conf["IOPS"], conf.get("ACCEL", "?")))
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=90)
    return path


def udr_text(raw, configs):
    """What the UDR layout's plan gave each kind of file (kmod-udr)."""
    if "kmod-udr" not in configs:
        return ""
    copies = {}
    path = os.path.join(raw, "morphstore-udr-copies.txt")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            want = [x for x in f if x.startswith("want=")]
            if f and want:
                kind = "video" if f[0].startswith("v") else "database"
                copies.setdefault(kind, []).append(int(want[0][5:]))
    said = "; ".join("%s files %s copies" % (k, "/".join(str(c) for c in sorted(set(v))))
                     for k, v in sorted(copies.items(), reverse=True))
    return ("  *LAAS, UDR copies*: a second MorphStore volume, every file first one copy; "
            "a profiling pass ran each workload once at the highest level with the throttle "
            "lifted, and `morphctl apply` planned every file's copies from the read and write "
            "counts the volume recorded (seed 001 Algorithm 1), with no capacity limit but the "
            "disks, as the seed's main comparison (%s; `morphstore-udr-plan.txt`); then the "
            "module with `laas=adaptive`." % (said or "copies not recorded"))


def report(raw, out):
    conf, levels, configs, workloads, runs, capacity, guest = load(raw)
    analysis, checks = analyse(levels, configs, workloads, runs)
    os.makedirs(out, exist_ok=True)
    tsv(os.path.join(out, "vm-fio.tsv"), levels, configs, workloads, runs)
    png = chart(os.path.join(out, "vm-fio.png"), conf, levels, configs, workloads, runs, analysis)
    body = tables(conf, levels, configs, workloads, runs, capacity, analysis)
    verdicts = "\n".join("- %s: %s (%s)" % (n, "met" if ok else "MISSED", v) for n, ok, v in checks)
    cached = [(c, w, n) for (c, w, n), r in sorted(runs.items()) if served_from_cache(r, w)]
    wrapped = [(c, w, n, r["wrapped"]) for (c, w, n), r in sorted(runs.items()) if r["wrapped"]]
    notes = ""
    if cached:
        notes += ("\nRuns whose disks read less than 0.9 of what fio read (part served from the "
                  "guest's page cache; their throughput is not the disks'): " +
                  ", ".join("%s %s %d" % x for x in cached) + ".\n")
    if wrapped:
        notes += ("\nRuns in which streams read past the end of their files and started them "
                  "again (fio drops a file's cached pages when it reopens it, but not the lower "
                  "files' under MorphStore; the disk/fio read ratio above shows whether the "
                  "disks still delivered): " +
                  ", ".join("%s %s %d (%d stream(s))" % x for x in wrapped) + ".\n")
    loads = [r["hostload"] for r in runs.values() if r["hostload"] is not None]
    if loads:
        notes += ("\nThe host (2 cores, shared) had a 1-minute load average of %.1f to %.1f "
                  "when the runs ended: qemu's emulated CPUs and disks competed with other "
                  "work, so runs vary by more than the throttle alone explains.\n"
                  % (min(loads), max(loads)))
    bps = int(conf["BPS"])
    if conf.get("DISK_MODEL") == "hdd":
        disks = (f"""Four virtio disks of {conf.get("DISK_MB", "?")} MiB each, **on the emulated HDD
(modelled Seagate ES.3 {conf.get("HDD_DRIVE", "?")}; simulated hardware)**: each disk is a
drive file served by `zonedisk --drive={conf.get("HDD_DRIVE", "?")}`, which times every
request by the drive's datasheet (seek by head travel, rotation, a read-ahead cache,
175 MB/s outer to 83 MB/s inner; docs/zone.md), unthrottled by qemu: interleaved streams
pay for moving the head, as on a spinning disk.""")
    else:
        disks = (f"""Four virtio disks of {conf.get("DISK_MB", "?")} MiB each, throttled by qemu to
{bps / 1048576:.0f} MiB/s ({bps} B/s) and {conf["IOPS"]} IO/s each, reads and writes
together (`throttling.bps-total`, `throttling.iops-total`; a request of any size
counts one IO, as a seek does on a disk, but a request that continues the
last one costs as much as one that does not: the emulated disks have no seek
time, so interleaved streams cost striped layouts nothing extra).""")
    md = f"""# MorphStore against md RAID in a VM (fio)

{disks}  qemu accelerator: {conf.get("ACCEL", "?")}
({conf.get("ACCEL_WHY", "")}).  Guest: Linux {guest.get("kernel", "?")}, {guest.get("cpus", "?")} vCPUs,
{int(guest.get("memory_kib", "0")) >> 10} MiB, {guest.get("fio", "fio ?")}, {" ".join(guest.get("mdadm", "mdadm ?").split(" - ")[:2])}.
Every layout uses ext4 (`-T largefile`, no lazy init) and read_ahead_kb
{conf["RA_KB"]} on every block device it reads through; md chunk
{conf["CHUNK_KB"]} KiB (RAID-0, RAID-10), arrays built with `--assume-clean`
(no resync behind the runs).  Data set, laid out with the throttle lifted:
16 video files of {conf["SIZE_MB"]} MiB and 16 database files of {conf["DB_MB"]} MiB;
stream j of N takes files j, j+N, ... (`bench/fio_jobs.py`).  Each run: page
cache dropped, {conf["SECS"]} s of fio, all streams together.  MorphStore:
every file 2 copies (replica devices at random, seed 1); the module with
`laas=adaptive` (LAAS), `stripe` or `mirror`; FUSE with `laas=adaptive,direct_io`
on the same volume in the same guest; LAAS defaults (threshold 4 open files,
1 s window, 256 KiB stripe chunk).{udr_text(raw, configs)}

{body}

{capacity_table(configs, capacity)}

Goals (issue 13):

{verdicts}
{notes}
![throughput per load level]({os.path.basename(png) if png else "(matplotlib missing: no chart)"})

Command: `{conf.get("COMMAND", "bench/vm-fio")}`
"""
    open(os.path.join(out, "vm-fio.md"), "w").write(md)
    print(body)
    print()
    print(capacity_table(configs, capacity))
    print(verdicts)
    if notes:
        print(notes.strip())
    print("report: %s" % os.path.join(out, "vm-fio.md"))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--run":
        try:
            print(run_line(argv[2]))
        except (OSError, ValueError, KeyError, RunError) as e:
            print("fio_report.py: %s" % e, file=sys.stderr)
            return 1
        return 0
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2
    try:
        return report(argv[1], argv[2])
    except (OSError, RunError) as e:
        print("fio_report.py: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
