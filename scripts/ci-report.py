#!/usr/bin/env python3
"""Prints what .ci/run's stages did: wall time, status and test counts per stage, and the slowest
test classes of the run, from the surefire and failsafe XML reports each stage wrote.

Usage: ci-report.py STAGES_TSV

STAGES_TSV has one line per stage: name, seconds, exit status, start (epoch seconds) and the
directory the stage ran in, tab-separated. A stage counts the reports under its directory written
after its start, so that reports an earlier run left behind are never counted again.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

SLOWEST = 10


def reports(root, since):
    # modules sit one or two levels down (fs-core, e2e/tests); a stage's copies of the tree for
    # the other lines (target/ci/...) are stages of their own and are not among these
    for pattern in ("*/target/*-reports/TEST-*.xml", "*/*/target/*-reports/TEST-*.xml"):
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            kind = os.path.basename(os.path.dirname(path))
            if kind in ("surefire-reports", "failsafe-reports") and os.path.getmtime(path) >= since:
                yield path


def suite(path):
    """The totals of one report: name, tests, failures, errors, skipped, seconds."""
    root = ET.parse(path).getroot()
    count = lambda k: int(float(root.get(k, "0") or 0))
    return (
        root.get("name", os.path.basename(path)),
        count("tests"),
        count("failures"),
        count("errors"),
        count("skipped"),
        float(root.get("time", "0") or 0),
    )


def main(tsv):
    stages = []
    with open(tsv, encoding="utf-8") as f:
        for line in f:
            name, seconds, status, start, root = line.rstrip("\n").split("\t")
            stages.append((name, int(seconds), int(status), int(start), root))
    rows = []
    classes = []
    for name, seconds, status, start, root in stages:
        totals = [0, 0, 0, 0, 0]
        for path in reports(root, start):
            try:
                cls, tests, failures, errors, skipped, secs = suite(path)
            except ET.ParseError:
                # a report cut short by a killed JVM: the stage failed and says so
                continue
            for i, v in enumerate((1, tests, failures, errors, skipped)):
                totals[i] += v
            classes.append((secs, name, cls, tests))
        rows.append((name, seconds, "ok" if status == 0 else "FAILED (%d)" % status, *totals))
    print("================ CI stages ================")
    head = ("stage", "wall", "status", "classes", "tests", "failures", "errors", "skipped")
    table = [head] + [
        (n, "%d:%02d" % (s // 60, s % 60), st, *map(str, t)) for n, s, st, *t in rows
    ]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print("================ the %d slowest test classes ================" % SLOWEST)
    for secs, stage, cls, tests in sorted(classes, reverse=True)[:SLOWEST]:
        print("%8.1f s  %-20s %s (%d tests)" % (secs, stage, cls, tests))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
