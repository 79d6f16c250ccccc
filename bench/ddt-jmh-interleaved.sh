#!/usr/bin/env bash
# One DDTBench cell through JMH with the datatype and the manual fork interleaved: round k runs one fork of each
# (order alternating), so a shared machine's slow minutes fall on both variants alike instead of on whichever
# method JMH runs second; prints each round's ratio (datatype score / manual score) and their median.
# Needs: mvn -B -pl bench -am package -DskipTests (bench/target/benchmarks.jar).
# Usage: bench/ddt-jmh-interleaved.sh PATTERN MIDDLE|LARGEST pack|unpack [ROUNDS, default 6]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: $0 PATTERN MIDDLE|LARGEST pack|unpack [ROUNDS]" >&2; exit 2; }
pattern=$1 size=$2 dir=$3 rounds=${4:-6}
jar=bench/target/benchmarks.jar
. bench/java21.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
  order="Datatype Manual"
  [ $((r % 2)) -eq 0 ] && order="Manual Datatype"
  for m in $order; do
    "$java" -jar "$jar" "DdtBenchmark.${dir}${m}\$" -p pattern="$pattern" -p size="$size" -f 1 -wi 3 -w 500ms \
      -i 5 -r 500ms -rf json -rff "$out/$r-$m.json" > /dev/null 2>&1
  done
done
python3 - "$out" "$rounds" "$pattern $size $dir" <<'PY'
import json, statistics, sys
d, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
score = lambda f: json.load(open(f))[0]['primaryMetric']['score']
ratios = [score("%s/%d-Datatype.json" % (d, r)) / score("%s/%d-Manual.json" % (d, r)) for r in range(1, n + 1)]
print("%s: round ratios %s, median %.2f" % (what, " ".join("%.2f" % x for x in ratios), statistics.median(ratios)))
PY
