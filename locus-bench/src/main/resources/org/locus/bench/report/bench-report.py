#!/usr/bin/env python3
"""Draws report.html and its PNG charts from results.json (locus-bench-results/1)."""
import html
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

out = sys.argv[1]
with open(os.path.join(out, "results.json")) as f:
    data = json.load(f)
jobs, features = data["jobs"], data["features"]
ok = [r for r in data["results"] if r["succeeded"]]


def values(job, feature, pick):
    return [pick(r) for r in ok if r["job"] == job and r["feature"] == feature]


def bars(name, title, ylabel, pick, ratio=False):
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(jobs) * len(features)), 4.5))
    width = 0.8 / len(features)
    for i, feature in enumerate(features):
        means, low, high = [], [], []
        for job in jobs:
            v = values(job, feature, pick)
            base = values(job, "none", pick) if ratio else None
            if ratio and base and v:
                b = statistics.mean(base)
                v = [x / b for x in v] if b else []
            m = statistics.mean(v) if v else 0
            means.append(m)
            low.append(m - min(v) if v else 0)
            high.append(max(v) - m if v else 0)
        xs = [j + (i - (len(features) - 1) / 2) * width for j in range(len(jobs))]
        ax.bar(xs, means, width, yerr=[low, high], capsize=2, label=feature)
    if ratio:
        ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(jobs)))
    ax.set_xticklabels(jobs, rotation=45, ha="right", fontsize=8)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=100)
    plt.close(fig)


bars("time.png", "Wall time per job (mean, min-max bars)", "seconds",
     lambda r: r["wallMillis"] / 1000)
charts = ["time.png"]
if "none" in features and len(features) > 1:
    bars("ratio.png", "Wall time relative to 'none' (mean, min-max bars)", "ratio",
         lambda r: r["wallMillis"], ratio=True)
    charts.append("ratio.png")
bars("shuffle.png", "Map output (shuffle) bytes per job", "MiB",
     lambda r: r["counters"].get("MAP_OUTPUT_BYTES", 0) / 2**20)
charts.append("shuffle.png")

rows = []
for job in jobs:
    base = values(job, "none", lambda r: r["wallMillis"] / 1000)
    for feature in features:
        v = values(job, feature, lambda r: r["wallMillis"] / 1000)
        failed = len([r for r in data["results"] if r["job"] == job
                      and r["feature"] == feature and not r["succeeded"]])
        key_aware = any(r.get("keyAware") for r in ok
                        if r["job"] == job and r["feature"] == feature)
        ratio = ("%.3f" % (statistics.mean(v) / statistics.mean(base))
                 if v and base and statistics.mean(base) else "-")
        rows.append("<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td>"
                    "<td>%s</td><td>%s</td></tr>" % (
                        html.escape(job),
                        html.escape(feature) + (" (key-aware)" if key_aware else ""),
                        len(v), failed,
                        "%.1f" % statistics.mean(v) if v else "-",
                        "%.1f" % min(v) if v else "-", "%.1f" % max(v) if v else "-", ratio))
page = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Locus bench: %s</title>
<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:right}</style></head>
<body><h1>Locus bench: suite %s on cluster %s</h1>
<p>Features: %s. Runs per (job, feature): %d. Data: results.json.</p>
%s
<table><tr><th>job</th><th>feature</th><th>runs ok</th><th>failed</th><th>mean s</th>
<th>min s</th><th>max s</th><th>mean / none</th></tr>%s</table></body></html>
""" % (html.escape(data["suite"]), html.escape(data["suite"]), html.escape(data["cluster"]),
       html.escape(", ".join(features)), data["runs"],
       "".join('<p><img src="%s"></p>' % c for c in charts), "".join(rows))
with open(os.path.join(out, "report.html"), "w") as f:
    f.write(page)
