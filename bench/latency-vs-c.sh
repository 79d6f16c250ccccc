#!/usr/bin/env bash
# Ping-pong latency, jmpi (two JVMs over shared memory) against C Open MPI on the same machine, run
# alternately (A B A B ...) in one invocation, as ../shared/baseline/README.md asks: the two vCPUs'
# placement changes small-message latency about fourfold, so only same-invocation ratios mean much.
# Needs: mvn package done; Debian's openmpi-bin and libopenmpi-dev (installed here if missing).
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
  bin/jmpirun -np 2 -cp bench/target/classes org.jmpi.bench.OsuLatency "$max" > "$out/jmpi-$r.txt"
done
python3 - "$out" "$rounds" <<'PY'
import sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip(): continue
        size, lat, bw = line.split()
        rows[int(size)] = float(lat)
    return rows
print(f"{'size':>9} {'C Open MPI us':>14} {'jmpi us':>10} {'ratio':>7}   (per-round ratios)")
sizes = sorted(load("c-1.txt"))
for s in sizes:
    c = [load(f"c-{r}.txt")[s] for r in range(1, rounds + 1)]
    j = [load(f"jmpi-{r}.txt")[s] for r in range(1, rounds + 1)]
    ratios = [jj / cc for jj, cc in zip(j, c)]
    print(f"{s:>9} {statistics.median(c):>14.2f} {statistics.median(j):>10.2f} {statistics.median(ratios):>7.2f}   " + " ".join(f"{x:.2f}" for x in ratios))
PY
