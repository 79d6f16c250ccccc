#!/usr/bin/env bash
# OSU-style collective latencies (org.jmpi.bench.coll.OsuCollective) for the issue-4 set, and persistent
# against blocking bcast and allreduce, run alternately (blocking, persistent, blocking, persistent) in one
# invocation so that both see the same machine. Prints markdown tables (average over ranks, us per call).
# Needs: mvn -B package -DskipTests (bench/target/classes, launcher jar for bin/jmpirun).
# Usage: bench/coll-osu.sh [np] [--threads] [maxBytes]
#        bench/coll-osu.sh --vs-c [np] [--threads] [maxBytes] [rounds] [warmup]
# --vs-c: the issue-16 set (barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall) against C
# Open MPI's (bench/c/osu_coll.c, --mca btl self,vader, --bind-to core, or none with more ranks than cores),
# alternated per collective (C, jmpi, C, jmpi ...) in one invocation; warmup = calls before each size up to
# 64 KiB on both sides (1000 = OSU's default). Prints per size the medians over rounds and the median of
# the per-round ratios jmpi / C.
set -euo pipefail
cd "$(dirname "$0")/.."
# The two reports, one python program: "vs-c" (jmpi against C) or "blocking" (the issue-4 tables).
report=$(cat <<'PY'
import sys, statistics
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        rows[int(f[0])] = float(f[1])
    return rows
if sys.argv[1] == "vs-c":
    out, np, mode, ops, rounds, warmup = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split(), int(sys.argv[6]), sys.argv[7]
    where = f"{np} ranks as threads of one JVM" if mode else f"{np} JVMs"
    print(f"Average latency in us per call (OSU method), jmpi with {where} against C Open MPI with {np} processes, {rounds} "
          f"alternated rounds, {warmup} warm-up calls per size; medians over rounds; ratio = jmpi / C, the median of the per-round ratios.\n")
    sizes = (4, 64, 1024, 16384, 65536, 262144, 1048576)
    print("| collective | " + " | ".join(f"{s} B C / jmpi (ratio)" for s in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for op in ops:
        c = [load(f"c-{op}-{r}.txt") for r in range(1, rounds + 1)]
        j = [load(f"jmpi-{op}-{r}.txt") for r in range(1, rounds + 1)]
        cells = []
        for s in ((0,) if op == "barrier" else sizes):
            if all(s in x for x in c + j):
                cm = statistics.median(x[s] for x in c)
                jm = statistics.median(x[s] for x in j)
                ratio = statistics.median(jj[s] / cc[s] for cc, jj in zip(c, j))
                cells.append(f"{cm:.2f} / {jm:.2f} ({ratio:.2f})")
            else:
                cells.append("-")
        cells += [""] * (len(sizes) - len(cells))
        print(f"| {op} | " + " | ".join(cells) + " |")
else:
    out, np, mode, ops = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split()
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
)
if [ "${1:-}" = "--vs-c" ]; then
  shift
  np=${1:-2}
  mode=${2:-}
  max=${3:-1048576}
  rounds=${4:-2}
  warmup=${5:-1000}
  out=bench/target/coll-vs-c
  mkdir -p "$out"
  if ! command -v mpicc >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
  fi
  mpicc -O2 -o "$out/osu_coll" bench/c/osu_coll.c
  ops="barrier bcast reduce allreduce gather scatter allgather alltoall"
  bind=(--bind-to core)
  if [ "$np" -gt "$(nproc)" ]; then bind=(--bind-to none); fi   # Open MPI refuses to bind two ranks to one core
  for r in $(seq 1 "$rounds"); do
    for op in $ops; do
      mpirun --allow-run-as-root --oversubscribe -np "$np" "${bind[@]}" --mca btl self,vader "$out/osu_coll" "$op" "$max" "$warmup" \
        > "$out/c-$op-$r.txt"
      bin/jmpirun -np "$np" $mode -cp bench/target/classes org.jmpi.bench.coll.OsuCollective "$op" "$max" --warmup "$warmup" \
        > "$out/jmpi-$op-$r.txt"
    done
  done
  python3 -c "$report" vs-c "$out" "$np" "$mode" "$ops" "$rounds" "$warmup"
  exit 0
fi
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
python3 -c "$report" blocking "$out" "$np" "$mode" "$ops"
