#!/usr/bin/env bash
# The cost of jmpi-compat (the Open MPI Java API) over jmpi core: OsuLatency (core) and CompatLatency (compat,
# the same ping-pong written as OMB-J's osu_latency is) alternated in one invocation (A B A B ...), two JVMs over
# shared memory, as ../shared/baseline/README.md asks; both with direct ByteBuffers, then both with byte[].
# Needs: mvn package done (bench and compat). Usage: bench/compat-vs-core.sh [rounds] [size...]
# (default sizes 8 and 1048576; each run measures one size).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(8 1048576); fi
out=bench/target/compat
mkdir -p "$out"
cp="bench/target/classes:bench/target/lib/*:compat/target/classes"
rm -f "$out"/*.txt
for r in $(seq 1 "$rounds"); do
  for s in "${sizes[@]}"; do
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuLatency "$s" --from "$s" --direct --jit-warmup 0 >> "$out/core-buffer-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatLatency "$s" --from "$s" -a buffer >> "$out/compat-buffer-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuLatency "$s" --from "$s" --jit-warmup 0 >> "$out/core-arrays-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatLatency "$s" --from "$s" -a arrays >> "$out/compat-arrays-$r.txt"
  done
done
python3 - "$out" "$rounds" <<'PY'
import sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip(): continue
        size, mean, bw, median = line.split()[:4]   # OsuLatency adds p90, p99, p99.9, max
        rows[int(size)] = (float(mean), float(median))
    return rows
for kind in ("buffer", "arrays"):
    core = [load(f"core-{kind}-{r}.txt") for r in range(1, rounds + 1)]
    comp = [load(f"compat-{kind}-{r}.txt") for r in range(1, rounds + 1)]
    print(f"{kind}: one-way latency in us, medians over {rounds} rounds; ratio = compat / core per round, then the median")
    print(f"{'size':>9} | {'core mean':>9} {'compat mean':>11} {'ratio':>6} | {'core median':>11} {'compat median':>13} {'ratio':>6}")
    for s in sorted(core[0]):
        mr = statistics.median(b[s][0] / a[s][0] for a, b in zip(core, comp))
        dr = statistics.median(b[s][1] / a[s][1] for a, b in zip(core, comp))
        print(f"{s:>9} | {statistics.median(x[s][0] for x in core):>9.2f} {statistics.median(x[s][0] for x in comp):>11.2f} {mr:>6.3f} | "
              f"{statistics.median(x[s][1] for x in core):>11.2f} {statistics.median(x[s][1] for x in comp):>13.2f} {dr:>6.3f}")
PY
