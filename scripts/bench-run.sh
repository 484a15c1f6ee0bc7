#!/usr/bin/env bash
# Runs the JMH benchmarks whose results docs/benchmarks.md charts, one at a time, writing JMH's
# JSON to docs/bench/<name>.json and, beside it, <name>.txt: the exact command, the date and the
# machine. Then: python3 scripts/bench-charts.py (needs matplotlib) draws docs/bench/*.png.
#
# Usage: scripts/bench-run.sh [name ...]   (default: all; names: readpath overhead placement split commit cnode)
# Shorter runs than the documented full ones (fewer iterations): compare ratios within one run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
jar=jmh/target/benchmarks.jar
[ -f "$jar" ] || ./mvnw -B -q -pl jmh -am package -DskipTests
out=docs/bench
mkdir -p "$out"

declare -A args=(
  [readpath]="ReadPathBenchmark -wi 2 -i 5 -f 1"
  [overhead]="TapOverheadBenchmark -f 1 -wi 3 -i 5"
  [placement]="PlacementBenchmark -f 1 -wi 3 -i 5"
  [split]="SplitPlanningBenchmark -f 1 -wi 1 -i 4"
  [commit]="CommitBenchmark|UploadFloorBenchmark -p fileSize=8m -p committer=dtap-magic,s3a-magic -wi 1 -i 4"
  [cnode]="CacheNodeBenchmark -f 1"
)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(readpath overhead placement split commit cnode)
for name in "${names[@]}"; do
  [ -n "${args[$name]:-}" ] || { echo "unknown benchmark '$name'" >&2; exit 2; }
  cmd="java -jar $jar ${args[$name]} -rf json -rff $out/$name.json"
  echo ">> $cmd" >&2
  # shellcheck disable=SC2086
  java -jar "$jar" ${args[$name]} -rf json -rff "$out/$name.json" > "$out/$name.log" 2>&1
  {
    echo "command: $cmd"
    echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "code: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs/bench' || echo ' (with local changes)')"
    echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $(java -version 2>&1 | head -1)"
  } > "$out/$name.txt"
done
