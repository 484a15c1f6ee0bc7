#!/usr/bin/env python3
"""Draws docs/bench/<name>.png from the JMH JSON results scripts/bench-run.sh wrote.

Each chart shows every measured combination of a benchmark's parameters as one bar (the mean,
with whiskers from the lowest to the highest measured iteration), and under it the command, date and machine from <name>.txt. Prints the Markdown
summary table (one row per chart) that heads docs/benchmarks.md.

Usage: python3 scripts/bench-charts.py [docs/bench]   (needs matplotlib: pip install matplotlib)
"""
import json
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TITLES = {
    "readpath": "Read path: sequential and 64 KiB random reads of one object (higher is better)",
    "overhead": "Tap overhead: metadata calls, local file vs dtap over it (lower is better)",
    "placement": "Placement: one file's block locations, computed locally (lower is better)",
    "split": "Split planning: FileInputFormat.getSplits over many files (lower is better)",
    "commit": "Job commit on MinIO: 8 MiB files, dtap magic vs S3A magic; putAll: the floors through"
              " S3A's client, single PUTs or multipart uploads (lower is better)",
    "cnode": "Host cache service: warm reads vs the in-process cache and a local file (higher is"
    " better); four cold task JVMs and a peer host (time; store bytes in the text)",
    "cnode-memory0": "Host cache service with no memory tier: what a new task JVM gets from the host",
}


def label(result):
    params = result.get("params") or {}
    parts = [
        "%s=%s" % (k, v) if v[:1].isdigit() else v  # a bare number needs its name
        for k, v in sorted(params.items())
        if k not in ("scheme",) + GROUP_PARAMS
    ]
    return " ".join(parts) or method_of(result)


GROUP_PARAMS = ("pattern",)  # one panel per value: scores of different patterns differ by orders


def method_of(result):
    return result["benchmark"].rsplit(".", 1)[1]


def group_of(result, methods=1):
    """The panel of a result: its method when the benchmark has several, and its pattern."""
    params = result.get("params") or {}
    parts = [method_of(result)] if methods > 1 else []
    return " ".join(parts + ["%s=%s" % (k, params[k]) for k in GROUP_PARAMS if k in params])


def chart(directory, name):
    with open(os.path.join(directory, name + ".json")) as f:
        results = json.load(f)
    meta = ""
    meta_file = os.path.join(directory, name + ".txt")
    if os.path.exists(meta_file):
        with open(meta_file) as f:
            meta = f.read().strip()
    methods = len({method_of(r) for r in results})
    groups = []
    for r in results:
        g = group_of(r, methods)
        if g not in groups:
            groups.append(g)
    unit = results[0]["primaryMetric"]["scoreUnit"]
    rows = max(sum(1 for r in results if group_of(r, methods) == g) for g in groups)
    height = max(3.0, 0.38 * rows + 2.4)
    fig, axes = plt.subplots(1, len(groups), figsize=(4.6 * len(groups) + 2.5, height), squeeze=False)
    for ax, g in zip(axes[0], groups):
        part = [r for r in results if group_of(r, methods) == g]
        unit = part[0]["primaryMetric"]["scoreUnit"]
        labels = [label(r) for r in part]
        scores = [r["primaryMetric"]["score"] for r in part]
        # whiskers: the lowest and highest measured iteration (JMH's 99.9 % interval explodes with
        # the few single-shot samples of the commit and split runs)
        lows, highs = [], []
        for r, sc in zip(part, scores):
            raw = [v for fork in r["primaryMetric"].get("rawData", []) for v in fork] or [sc]
            lows.append(max(0.0, sc - min(raw)))
            highs.append(max(0.0, max(raw) - sc))
        errors = highs
        y = list(range(len(part)))
        ax.barh(y, scores, xerr=[lows, highs], color="#4878a8", ecolor="#333333", capsize=3)
        ax.set_yticks(y)
        ax.set_yticklabels(labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        if g:
            ax.set_title(g, fontsize=9)
        if min(scores) > 0 and max(scores) / min(scores) > 50:
            ax.set_xscale("log")  # bars that differ by orders of magnitude
            ax.set_xlabel(unit + " (log scale)")
        for i, (sc, er) in enumerate(zip(scores, errors)):
            ax.text(sc + er, i, "  %.3g" % sc, va="center", fontsize=7)
        ax.set_xlim(right=max(sc + er for sc, er in zip(scores, errors)) * (3 if ax.get_xscale() == "log" else 1.25))
    fig.suptitle(TITLES.get(name, name), fontsize=10)
    meta = "\n".join(textwrap.fill(line, int(fig.get_figwidth() * 17), subsequent_indent="    ") for line in meta.splitlines())
    meta += "\nbars: mean of the measured iterations; whiskers: lowest and highest iteration"
    fig.text(0.01, 0.005, meta, fontsize=6, family="monospace", va="bottom")
    fig.tight_layout(rect=(0, 0.07 + 0.02 * meta.count("\n"), 1, 0.95))
    png = os.path.join(directory, name + ".png")
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return results, unit, png


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "docs/bench"
    # a run is complete once bench-run.sh wrote its .txt beside the JSON
    names = sorted(
        n[:-5]
        for n in os.listdir(directory)
        if n.endswith(".json") and os.path.exists(os.path.join(directory, n[:-5] + ".txt"))
    )
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
