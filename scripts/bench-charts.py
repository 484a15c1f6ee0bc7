#!/usr/bin/env python3
"""Draws docs/bench/<name>.png from the JMH JSON results scripts/bench-run.sh wrote.

Each chart shows every measured combination of a benchmark's parameters as one bar (score with
JMH's error), and under it the command, date and machine from <name>.txt. Prints the Markdown
summary table (one row per chart) that heads docs/benchmarks.md.

Usage: python3 scripts/bench-charts.py [docs/bench]   (needs matplotlib: pip install matplotlib)
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TITLES = {
    "readpath": "Read path: sequential and 64 KiB random reads of one object (higher is better)",
    "overhead": "Tap overhead: metadata calls, local file vs dtap over it (lower is better)",
    "placement": "Placement: one file's block locations, computed locally (lower is better)",
    "split": "Split planning: FileInputFormat.getSplits over many files (lower is better)",
    "commit": "Job commit on MinIO: 8 MiB files, dtap magic vs S3A magic (lower is better)",
}


def label(result):
    method = result["benchmark"].rsplit(".", 1)[1]
    params = result.get("params") or {}
    parts = [v for k, v in sorted(params.items()) if k not in ("scheme",)]
    return " ".join(([method] if method not in ("read", "commitJob", "locate", "getSplits") else []) + parts)


def chart(directory, name):
    with open(os.path.join(directory, name + ".json")) as f:
        results = json.load(f)
    meta = ""
    meta_file = os.path.join(directory, name + ".txt")
    if os.path.exists(meta_file):
        with open(meta_file) as f:
            meta = f.read().strip()
    labels = [label(r) for r in results]
    scores = [r["primaryMetric"]["score"] for r in results]
    errors = [
        r["primaryMetric"]["scoreError"] if r["primaryMetric"]["scoreError"] == r["primaryMetric"]["scoreError"] else 0
        for r in results
    ]
    unit = results[0]["primaryMetric"]["scoreUnit"]
    height = max(3.0, 0.38 * len(results) + 2.2)
    fig, ax = plt.subplots(figsize=(10, height))
    y = range(len(results))
    ax.barh(list(y), scores, xerr=errors, color="#4878a8", ecolor="#333333", capsize=3)
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    ax.set_title(TITLES.get(name, name), fontsize=10)
    for i, s in enumerate(scores):
        ax.text(s, i, " %.3g" % s, va="center", fontsize=7)
    fig.text(0.01, 0.005, meta, fontsize=6, family="monospace", va="bottom")
    fig.tight_layout(rect=(0, 0.07 + 0.01 * meta.count("\n"), 1, 1))
    png = os.path.join(directory, name + ".png")
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return results, unit, png


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "docs/bench"
    names = sorted(n[:-5] for n in os.listdir(directory) if n.endswith(".json"))
    if not names:
        sys.exit("no JMH results (*.json) in %s: run scripts/bench-run.sh first" % directory)
    print("| Chart | Results | Unit |")
    print("|---|---|---|")
    for name in names:
        results, unit, png = chart(directory, name)
        best = ", ".join("%s %.3g" % (label(r), r["primaryMetric"]["score"]) for r in results[:8])
        print("| [%s](bench/%s.png) | %s | %s |" % (name, name, best, unit))


if __name__ == "__main__":
    main()
