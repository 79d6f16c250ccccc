#!/usr/bin/env bash
# OSU-style collective latencies (org.jmpi.bench.coll.OsuCollective) for the issue-4 set, and persistent
# against blocking bcast and allreduce, run alternately (blocking, persistent, blocking, persistent) in one
# invocation so that both see the same machine. Prints markdown tables (average over ranks, us per call).
# Needs: mvn -B package -DskipTests (bench/target/classes, launcher jar for bin/jmpirun).
# Usage: bench/coll-osu.sh [np] [--threads] [maxBytes]
set -euo pipefail
cd "$(dirname "$0")/.."
np=${1:-4}
mode=${2:-}
max=${3:-1048576}
out=bench/target/coll-osu
mkdir -p "$out"
run() { # op persistent? file
  bin/jmpirun -np "$np" $mode -cp bench/target/classes org.jmpi.bench.coll.OsuCollective "$1" "$max" $2 > "$out/$3"
}
ops="barrier bcast reduce allreduce allgather alltoall gather scatter reduce_scatter"
for op in $ops; do run "$op" "" "$op.txt"; done
for r in 1 2; do
  for op in bcast allreduce; do
    run "$op" "" "$op-blocking-$r.txt"
    run "$op" --persistent "$op-persistent-$r.txt"
  done
done
python3 - "$out" "$np" "$mode" "$ops" <<'PY'
import sys, statistics
out, np, mode, ops = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        rows[int(f[0])] = float(f[1])
    return rows
where = f"{np} ranks as threads of one JVM" if mode else f"{np} JVMs"
print(f"Average latency in us per call, {where}; sizes are bytes per rank (per block for allgather, alltoall, gather, scatter, reduce_scatter).\n")
tables = {op: load(f"{op}.txt") for op in ops}
sizes = sorted(set(s for op in ops if op != "barrier" for s in tables[op]))
show = [s for s in sizes if s in (4, 64, 1024, 16384, 65536, 262144, 1048576)]
print("| collective | " + " | ".join(f"{s} B" for s in show) + " |")
print("|---|" + "---:|" * len(show))
print(f"| barrier | {tables['barrier'][0]:.2f} |" + " |" * (len(show) - 1))
for op in ops:
    if op != "barrier":
        print(f"| {op} | " + " | ".join(f"{tables[op].get(s, float('nan')):.2f}" for s in show) + " |")
print("\nPersistent (start + wait of one request made once) against blocking; ratio = persistent / blocking, median of 2 alternated rounds.\n")
print("| size | bcast blocking | bcast persistent | ratio | allreduce blocking | allreduce persistent | ratio |")
print("|---:|---:|---:|---:|---:|---:|---:|")
b = {op: [load(f"{op}-blocking-{r}.txt") for r in (1, 2)] for op in ("bcast", "allreduce")}
p = {op: [load(f"{op}-persistent-{r}.txt") for r in (1, 2)] for op in ("bcast", "allreduce")}
for s in show:
    cells = []
    for op in ("bcast", "allreduce"):
        bb = statistics.median(x[s] for x in b[op]); pp = statistics.median(x[s] for x in p[op])
        cells += [f"{bb:.2f}", f"{pp:.2f}", f"{statistics.median(y[s] / x[s] for x, y in zip(b[op], p[op])):.2f}"]
    print(f"| {s} | " + " | ".join(cells) + " |")
PY
