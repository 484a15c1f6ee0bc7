#!/usr/bin/env bash
# The read path's guard: ReadPathBenchmark and CacheNodeBenchmark in a short mode (about 10 minutes
# on 2 cores), then every ratio against its target (scripts/bench-check.py). Exits non-zero when
# one falls below it. Run it before resolving any change to the read path or the cache, on a quiet
# machine (nothing else running). JSON and logs go to target/bench-check/.
#
# Usage: scripts/bench-check.sh            (builds jmh/target/benchmarks.jar when missing)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
jar=jmh/target/benchmarks.jar
[ -f "$jar" ] || ./mvnw -B -q -pl jmh -am package -DskipTests
out=target/bench-check
mkdir -p "$out"
run() {
  local name=$1
  shift
  echo ">> java -jar $jar $* -rf json -rff $out/$name.json" >&2
  if ! java -jar "$jar" "$@" -rf json -rff "$out/$name.json" > "$out/$name.log" 2>&1; then
    echo "bench-check: $name failed; see $out/$name.log" >&2
    exit 1
  fi
}
# whole-file scans warm up in seconds; a random read's stack (S3A's and the cache's) needs ~30 s
run readpath-seq ReadPathBenchmark -p pattern=seq -f 1 -wi 2 -w 3s -i 3 -r 3s
run readpath-rand ReadPathBenchmark -p pattern=rand64k \
  -p impl=local,s3a,dtap-cold,dtap-warm,dtap-disk,cnode-disk -f 1 -wi 2 -w 15s -i 3 -r 2s
run cnode 'CacheNodeBenchmark\.(fourProcessesReadOneColdObject|peerRead)' -f 1 -wi 1 -i 2
python3 scripts/bench-check.py "$out/readpath-seq.json" "$out/readpath-rand.json" "$out/cnode.json"
