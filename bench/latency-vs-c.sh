#!/usr/bin/env bash
# Ping-pong latency, jmpi (two JVMs over shared memory) against C Open MPI on the same machine, run
# alternately (A B A B ...) in one invocation, as ../shared/baseline/README.md asks: the two vCPUs'
# placement changes small-message latency about fourfold, so only same-invocation ratios mean much.
# Needs: mvn package done; Debian's openmpi-bin and libopenmpi-dev (installed here if missing).
# bench/p2p-vs-c.sh is the fuller sibling: percentiles, bandwidth, message rate and plots.
# Usage: bench/latency-vs-c.sh [rounds] [maxBytes]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
max=${2:-4194304}
out=bench/target/latency
mkdir -p "$out"
if ! command -v mpicc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
fi
mpicc -O2 -o "$out/pingpong" bench/c/pingpong.c
for r in $(seq 1 "$rounds"); do
  mpirun --allow-run-as-root --oversubscribe -np 2 --bind-to core --mca btl self,vader "$out/pingpong" "$max" > "$out/c-$r.txt"
  bin/jmpirun -np 2 -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.OsuLatency "$max" > "$out/jmpi-$r.txt"
done
python3 - "$out" "$rounds" <<'PY'
import sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip(): continue
        size, mean, bw, median = line.split()[:4]   # then p90, p99, p99.9, max: bench/p2p-vs-c.sh reports those
        rows[int(size)] = (float(mean), float(median))
    return rows
c = [load(f"c-{r}.txt") for r in range(1, rounds + 1)]
j = [load(f"jmpi-{r}.txt") for r in range(1, rounds + 1)]
print("one-way latency in us, medians over rounds; ratio = jmpi / C, per round, then the median of those")
print(f"{'size':>9} | {'C mean':>8} {'jmpi mean':>9} {'ratio':>6} | {'C median':>8} {'jmpi median':>11} {'ratio':>6} | per-round median ratios")
for s in sorted(c[0]):
    mean_ratios = [jj[s][0] / cc[s][0] for jj, cc in zip(j, c)]
    median_ratios = [jj[s][1] / cc[s][1] for jj, cc in zip(j, c)]
    print(f"{s:>9} | {statistics.median(x[s][0] for x in c):>8.2f} {statistics.median(x[s][0] for x in j):>9.2f} "
          f"{statistics.median(mean_ratios):>6.2f} | {statistics.median(x[s][1] for x in c):>8.2f} "
          f"{statistics.median(x[s][1] for x in j):>11.2f} {statistics.median(median_ratios):>6.2f} | "
          + " ".join(f"{x:.2f}" for x in median_ratios))
PY
