#!/usr/bin/env python3
"""Builds docs/reliability.md from the results of a test run.

Fault tests (integration-tests, ITest*Faults, ITestLoad; e2e, the engines' fault tests) write
every case they run to <module>/target/reliability/<area>.tsv (dev.dtap.it.fixtures.ReliabilityLog):
a `begin` line when the case starts (operation, fault), then a `held` line (what was checked, the
outcome, data lost) or a `failed` line (what was checked, the failure). A case with neither is shown
without a result: its JVM ended first. Property
tests of bad input (Test*Properties) leave JUnit XML reports under <module>/target/surefire-reports.
This script turns both into one document; it invents nothing: a missing result file is reported as
missing, and a property test that failed or did not run makes the script fail.

Usage, after `./mvnw -B verify` (or the fault and property tests alone):
    python3 scripts/reliability-report.py [--out docs/reliability.md]
"""
import argparse
import datetime
import glob
import os
import platform
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

AREAS = [
    ("reads", "Reads through an S3 tap (ITestReadFaults)",
     "A fault-injecting proxy sits between S3A and MinIO. Each case reads a 1 MiB object "
     "sequentially, at random positions or as a vectored read; the fault starts part-way "
     "through, or MinIO's process is killed (SIGKILL) part-way and restarted afterwards. After "
     "the store is healthy again, the object is read back whole twice, and at random positions, "
     "and must be exact (no torn cache page)."),
    ("writes", "Writes through an S3 tap (ITestWriteFaults)",
     "S3A's block output stream: one PUT for 700 KB, a multipart upload (5 MiB parts) for "
     "12 MiB, under proxy faults or with MinIO's process killed as the upload's data starts "
     "(restarted afterwards). Afterwards the object is read straight from MinIO."),
    ("commits", "Task and job commit (ITestCommitFaults)",
     "200 files from 20 tasks through the committer API as MapReduce drives it: a failed task "
     "attempt is aborted and run again as a new attempt; a job commit that fails is recovered "
     "with `dtap committer recover`'s code (or, where the store lost an upload in its crash, rolled "
     "back with `dtap committer abort`'s). Afterwards every part file is compared byte for byte, "
     "every upload the tasks left is asked for by its id (completed or aborted), and every "
     "multipart upload pending in the bucket is listed: none may be under the destination. "
     "(MinIO lists pending uploads of one object key or of a whole bucket, and answers an empty "
     "list for a directory prefix; rows before 2026-12-07 came from such a listing and saw "
     "none.)"),
    ("cache-disk", "The cache's own disk (ITestCacheDiskFaults)",
     "The cache directory is a real 3 MiB tmpfs: it fills up, then is remounted read-only."),
    ("load", "Load (ITestLoad, as CI runs it)",
     "Client JVMs (-Xmx512m) reading objects of MinIO through an S3 tap, each with its own "
     "cache, then all through the host cache service (cnode), which is killed with SIGKILL "
     "under load and restarted; every byte is checked against the content's formula."),
    ("load-soak", "Load soak (ITestLoad -Ddtap.load.seconds=60 -Ddtap.load.mib=1024)",
     "The same, at the size the issue names. Run by hand; not part of CI."),
    ("engines-mapreduce", "MapReduce under faults (e2e: ITestMapReduceDropIn)",
     "Hadoop's TeraSort run as users run it (the dtap-hadoop jar, configuration only), with the "
     "job's store traffic through the fault proxy. Either the whole output is committed and equal "
     "to the job on hdfs:// (TeraValidate's checksum), or the job fails and no output file is "
     "visible; no multipart upload is left pending.", "e2e/tests"),
    ("engines-spark", "Spark under faults (e2e: ITestSparkDropIn)",
     "A partitioned Parquet write through spark-submit with the dtap-hadoop jar, the job's store "
     "traffic through the fault proxy. Either the whole table is committed and reads back equal "
     "to what was written, or the job fails and no data file is visible; no multipart upload is "
     "left pending.", "e2e/tests"),
    ("commits-soak", "Commit soak (ITestCommitFaults -Ddtap.commit.tasks=100 -Ddtap.commit.files=100)",
     "10,000 files from 100 tasks with a connection reset on 1 % of requests. Run by hand; not "
     "part of CI."),
]

PROPERTIES = [
    ("fs-core", "dev.dtap.fs.TestBadPathProperties",
     "Path spellings (`..`, encoded dots and slashes, backslashes, look-alike Unicode dots, NUL, "
     "300-character names) on a read-write and a read-only local tap; tap names of any text."),
    ("fs-s3cache", "dev.dtap.cache.TestReadArgumentProperties",
     "Read calls with negative, past-EOF and huge positions, negative lengths and buffer "
     "offsets outside the buffer, on a cached and an uncached stream of the same file."),
    ("integration-tests", "dev.dtap.it.build.TestConfigValueProperties",
     "Bad values (negative, overflowing, unparsable, empty, wrong kind) for every declared key "
     "of fs-core, the cache, locality and the committers."),
    ("fs-s3cache", "dev.dtap.cache.cnode.TestCacheNode",
     "The host cache service (not jqwik): 300 connections of random bytes (some with plausible "
     "frame lengths), a lookup that skips the handshake, a client with the wrong secret; the "
     "service must close each, count it, leave no session behind and go on serving."),
]


NO_RESULT = "no result: the test's JVM ended first"


def read_rows(area, module="integration-tests"):
    """The area's cases in the order they began: operation, fault, checked, outcome, lost, result."""
    path = os.path.join(ROOT, module, "target", "reliability", area + ".tsv")
    if not os.path.isfile(path):
        return None, path
    cases = {}
    order = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            fields = line.split("\t")
            kind, case_id = fields[0], fields[1] if len(fields) > 1 else ""
            if kind == "begin" and len(fields) == 4:
                cases[case_id] = [fields[2], fields[3], "", "", "unknown", NO_RESULT]
                order.append(case_id)
            elif kind == "held" and len(fields) == 5 and case_id in cases:
                cases[case_id][2:6] = [fields[2], fields[3], fields[4], "held"]
            elif kind == "failed" and len(fields) == 4 and case_id in cases:
                cases[case_id][2:6] = [fields[2], "", "unknown", "FAILED: " + fields[3]]
            else:
                raise SystemExit("%s:%d: not a line of ReliabilityLog: %r" % (path, n, line))
    return [cases[i] for i in order], path


def cell(text):
    return text.replace("|", "\\|")


def property_result(module, cls):
    report = os.path.join(ROOT, module, "target", "surefire-reports", "TEST-" + cls + ".xml")
    if not os.path.isfile(report):
        return None
    suite = ET.parse(report).getroot()
    cases = []
    for case in suite.iter("testcase"):
        failed = any(child.tag in ("failure", "error", "skipped") for child in case)
        cases.append((case.get("name"), failed))
    return cases


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "reliability.md"))
    args = parser.parse_args()

    out = []
    out.append("# Reliability")
    out.append("")
    out.append("Every fault and bad input below was tried on real components on "
               + datetime.date.today().isoformat() + " (" + platform.system() + ", "
               + str(os.cpu_count()) + " cores): MinIO, Hadoop's S3A and local filesystems, and "
               "dtap's committers. Every case a test ran has a row, written when the case started; "
               "its result says whether the test's assertions held, and what was checked. "
               "Generated by `python3 scripts/reliability-report.py` after "
               "`./mvnw -B verify`; do not edit by hand.")
    out.append("")
    out.append("Faults between client and store come from `ShapingProxy` (integration-tests "
               "fixtures) with a deterministic `FaultPlan`: an answer reset (RST) or cut short "
               "(FIN) part-way, a request swallowed, a request answered in the store's place with "
               "503 SlowDown (throttling) or 500 InternalError, or the store going away as a killed "
               "server does (open connections reset, new ones refused). Cases marked so kill MinIO's process "
               "itself with SIGKILL and restart it over its data.")
    total = 0
    lost = 0
    not_held = []
    missing = []
    for entry in AREAS:
        area, title, about = entry[:3]
        rows, path = read_rows(area, *entry[3:])
        out.append("")
        out.append("## " + title)
        out.append("")
        out.append(about)
        out.append("")
        if rows is None:
            out.append("_No results: " + os.path.relpath(path, ROOT) + " is missing (the test did not run)._")
            missing.append(area)
            continue
        out.append("| Operation | Fault | Checked | Outcome | Data lost | Result |")
        out.append("|---|---|---|---|---|---|")
        for r in rows:
            out.append("| " + " | ".join(cell(c) for c in r) + " |")
            total += 1
            if r[5] != "held":
                not_held.append(area + ": " + r[0] + ", " + r[1] + ": " + r[5])
            elif r[4].strip() not in ("0", ""):
                lost += 1
    out.append("")
    out.append("## Bad input (property-based, jqwik) and the cache service's refusals")
    out.append("")
    out.append("| Test | What is generated | Properties | Result |")
    out.append("|---|---|---|---|")
    bad = []
    for module, cls, what in PROPERTIES:
        cases = property_result(module, cls)
        if cases is None:
            bad.append(cls + " has no report")
            out.append("| `" + cls.split(".")[-1] + "` | " + what + " | - | no report |")
            continue
        names = ", ".join("`" + n + "`" for n, _ in cases)
        failed = [n for n, f in cases if f]
        if failed:
            bad.append(cls + " failed " + ", ".join(failed))
        out.append("| `" + cls.split(".")[-1] + "` | " + what + " | " + names + " | "
                   + ("all held" if not failed else "FAILED: " + ", ".join(failed)) + " |")
    out.append("")
    out.append("Each property's tries and the outcomes it collected are printed in the test's "
               "output (`target/surefire-reports/*-output.txt`).")
    out.append("")
    out.append("## Summary")
    out.append("")
    out.append("%d fault cases ran: %d held, %d did not; data lost in %d of those that held."
               % (total, total - len(not_held), len(not_held), lost))
    for case in not_held:
        out.append("")
        out.append("- Did not hold: " + cell(case))
    if missing:
        out.append("")
        out.append("Missing areas: " + ", ".join(missing) + ".")
    out.append("")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print("wrote %s: %d fault cases, %d not held, %d with data lost, missing %s"
          % (args.out, total, len(not_held), lost, missing or "none"))
    if not_held:
        print("fault cases that did not hold: " + "; ".join(not_held), file=sys.stderr)
    if bad:
        print("property tests: " + "; ".join(bad), file=sys.stderr)
    if bad or not_held:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
