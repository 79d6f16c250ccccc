#!/usr/bin/env bash
# OSU-style collective latencies (org.jmpi.bench.coll.OsuCollective) for the issue-4 set, and persistent
# against blocking bcast and allreduce, run alternately (blocking, persistent, blocking, persistent) in one
# invocation so that both see the same machine. Prints markdown tables (average over ranks, us per call).
# Needs: mvn -B package -DskipTests (bench/target/classes, launcher jar for bin/jmpirun).
# Usage: bench/coll-osu.sh [np] [--threads] [maxBytes]
#        bench/coll-osu.sh --vs-c [np] [--threads] [maxBytes] [rounds] [warmup]
#        bench/coll-osu.sh --targets [maxBytes] [rounds] [longWarmup]
#        bench/coll-osu.sh --rooted [np] [maxBytes] [rounds] [warmup]
# --vs-c: the issue-16 set (barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall) against C
# Open MPI's (bench/c/osu_coll.c, --mca btl self,vader, --bind-to core, or none with more ranks than cores),
# alternated per collective (C, jmpi, C, jmpi ...) in one invocation; warmup = calls before each size up to
# 64 KiB on both sides (1000 = OSU's default), with the harness's own barrier and three reductions after every 1000
# of them (so that jmpi's compiled code has seen them before the timer starts; docs/collectives.md, "Where a small
# call's time goes"). Prints per size the medians over rounds and the median of the per-round ratios jmpi / C.
# Where a mean looks wrong, bench/coll CollTrace splits a size's time into p50, tails, stalls, JIT, GC and parks.
# --targets: every run issue 16's targets need, in one command: --vs-c at 2 and 4 JVMs and at 2, 4 and 8 ranks as
# threads, each with the long warm-up (default 20000 calls per size) and with OSU's default (1000), maxBytes
# (default 1024) and rounds (default 2) as given; then, per configuration, jmpi's OSU-warm-up figure over its
# long-warm-up figure per size (item 4: at most 2); then CollTrace at 2 JVMs and 2 threads (p50 and stalls per block);
# last, the plots (CollReport) into bench/target/coll-targets/img. About 35 minutes at the defaults on a 2-vCPU machine.
# --rooted: the selection across JVMs for the rooted calls (bcast, reduce, gather, scatter): np JVMs (default 4),
# per round and collective C Open MPI, jmpi with `auto` and jmpi forced through the node region, alternated in one
# invocation; two tables (auto against C, node against C). Default warm-up 20000 calls per size.
set -euo pipefail
cd "$(dirname "$0")/.."
# The reports, one python program: "vs-c" (jmpi against C), "warmup" (OSU warm-up against the long one) or
# "blocking" (the issue-4 tables).
report=$(cat <<'PY'
import sys, statistics
def load(name, where=None):
    rows = {}
    for line in open(f"{where or out}/{name}"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        rows[int(f[0])] = float(f[1])
    return rows
SIZES = (4, 64, 1024, 16384, 65536, 262144, 1048576)
def table(ops, rounds, header, left, right):
    """One row per op: per size "left / right (median of per-round right/left)" from two lists of rounds' files."""
    print("| collective | " + " | ".join(f"{s} B {header}" for s in SIZES) + " |")
    print("|---|" + "---:|" * len(SIZES))
    for op in ops:
        a, b = left(op), right(op)
        cells = []
        for s in ((0,) if op == "barrier" else SIZES):
            if all(s in x for x in a + b):
                am = statistics.median(x[s] for x in a)
                bm = statistics.median(x[s] for x in b)
                ratio = statistics.median(y[s] / x[s] for x, y in zip(a, b))
                cells.append(f"{am:.2f} / {bm:.2f} ({ratio:.2f})")
            else:
                cells.append("-")
        cells += [""] * (len(SIZES) - len(cells))
        print(f"| {op} | " + " | ".join(cells) + " |")
if sys.argv[1] == "vs-c":
    out, np, mode, ops, rounds, warmup = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split(), int(sys.argv[6]), sys.argv[7]
    where = f"{np} ranks as threads of one JVM" if mode else f"{np} JVMs"
    print(f"Average latency in us per call (OSU method), jmpi with {where} against C Open MPI with {np} processes, {rounds} "
          f"alternated rounds, {warmup} warm-up calls per size; medians over rounds; ratio = jmpi / C, the median of the per-round ratios.\n")
    table(ops, rounds, "C / jmpi (ratio)", lambda op: [load(f"c-{op}-{r}.txt") for r in range(1, rounds + 1)],
          lambda op: [load(f"jmpi-{op}-{r}.txt") for r in range(1, rounds + 1)])
elif sys.argv[1] == "warmup":
    long_dir, short_dir, where, ops, rounds = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split(), int(sys.argv[6])
    print(f"jmpi, {where}: average latency with the long warm-up and with OSU's default (1000 calls per size), median "
          f"over {rounds} rounds each; ratio = OSU warm-up / long warm-up, the median of the per-round ratios (item 4's target: at most 2).\n")
    table(ops, rounds, "long / OSU (ratio)", lambda op: [load(f"jmpi-{op}-{r}.txt", long_dir) for r in range(1, rounds + 1)],
          lambda op: [load(f"jmpi-{op}-{r}.txt", short_dir) for r in range(1, rounds + 1)])
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
ops_vs_c="barrier bcast reduce allreduce gather scatter allgather alltoall"
# vs_c np mode max rounds warmup out [jmpirun args...]: the --vs-c runs into out, then their table.
vs_c() {
  local np=$1 mode=$2 max=$3 rounds=$4 warmup=$5 out=$6
  shift 6
  local extra=("$@")
  mkdir -p "$out"
  if ! command -v mpicc >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
  fi
  mpicc -O2 -o "$out/osu_coll" bench/c/osu_coll.c
  local bind=(--bind-to core)
  if [ "$np" -gt "$(nproc)" ]; then bind=(--bind-to none); fi   # Open MPI refuses to bind two ranks to one core
  for r in $(seq 1 "$rounds"); do
    for op in $ops_vs_c; do
      mpirun --allow-run-as-root --oversubscribe -np "$np" "${bind[@]}" --mca btl self,vader "$out/osu_coll" "$op" "$max" "$warmup" \
        > "$out/c-$op-$r.txt"
      bin/jmpirun -np "$np" $mode ${extra[@]+"${extra[@]}"} -cp bench/target/classes org.jmpi.bench.coll.OsuCollective "$op" "$max" \
        --warmup "$warmup" > "$out/jmpi-$op-$r.txt"
    done
  done
  python3 -c "$report" vs-c "$out" "$np" "$mode" "$ops_vs_c" "$rounds" "$warmup"
}
if [ "${1:-}" = "--vs-c" ]; then
  shift
  vs_c "${1:-2}" "${2:-}" "${3:-1048576}" "${4:-2}" "${5:-1000}" bench/target/coll-vs-c
  exit 0
fi
if [ "${1:-}" = "--rooted" ]; then
  shift
  np=${1:-4} max=${2:-1024} rounds=${3:-2} warmup=${4:-20000}
  out=bench/target/coll-rooted-$np
  mkdir -p "$out/auto" "$out/node"
  mpicc -O2 -o "$out/osu_coll" bench/c/osu_coll.c
  bind=(--bind-to core)
  if [ "$np" -gt "$(nproc)" ]; then bind=(--bind-to none); fi
  rooted="bcast reduce gather scatter"
  for r in $(seq 1 "$rounds"); do
    for op in $rooted; do
      mpirun --allow-run-as-root --oversubscribe -np "$np" "${bind[@]}" --mca btl self,vader "$out/osu_coll" "$op" "$max" "$warmup" \
        > "$out/auto/c-$op-$r.txt"
      cp "$out/auto/c-$op-$r.txt" "$out/node/c-$op-$r.txt"
      bin/jmpirun -np "$np" -cp bench/target/classes org.jmpi.bench.coll.OsuCollective "$op" "$max" --warmup "$warmup" \
        > "$out/auto/jmpi-$op-$r.txt"
      bin/jmpirun -np "$np" --param "coll.$op.algorithm=node" -cp bench/target/classes org.jmpi.bench.coll.OsuCollective "$op" \
        "$max" --warmup "$warmup" > "$out/node/jmpi-$op-$r.txt"
    done
  done
  echo "### auto"; echo
  python3 -c "$report" vs-c "$out/auto" "$np" "" "$rooted" "$rounds" "$warmup"; echo
  echo "### forced through the node region"; echo
  python3 -c "$report" vs-c "$out/node" "$np" "" "$rooted" "$rounds" "$warmup"
  exit 0
fi
if [ "${1:-}" = "--targets" ]; then
  shift
  max=${1:-1024}
  rounds=${2:-2}
  long=${3:-20000}
  for config in "2 jvm" "4 jvm" "2 threads" "4 threads" "8 threads"; do
    set -- $config
    np=$1
    mode=""
    where="$np JVMs"
    if [ "$2" = threads ]; then mode=--threads; where="$np ranks as threads"; fi
    base=bench/target/coll-targets/$np-$2
    echo "## $where, long warm-up ($long calls per size)"; echo
    vs_c "$np" "$mode" "$max" "$rounds" "$long" "$base-long"; echo
    echo "## $where, OSU's default warm-up (1000 calls per size)"; echo
    vs_c "$np" "$mode" "$max" "$rounds" 1000 "$base-osu"; echo
    python3 -c "$report" warmup "$base-long" "$base-osu" "$where" "$ops_vs_c" "$rounds"; echo
  done
  # Where the small sizes' time goes (CollTrace: per block of 10,000 calls the p50, p99, the calls over 20 us and
  # their share, compilation, collections and context switches), 2 JVMs and 2 threads, 4 B and 1 KiB, long warm-up
  # (docs/collectives.md, "Where a small call's time goes"). The rooted calls' selection at 4 JVMs: --rooted 4.
  for mode in "" --threads; do
    where="2 JVMs" kind=jvm
    if [ -n "$mode" ]; then where="2 ranks as threads" kind=threads; fi
    trace=bench/target/coll-targets/trace-2-$kind.txt
    : > "$trace"
    for op in $ops_vs_c; do
      for bytes in 4 1024; do
        [ "$op" = barrier ] && [ "$bytes" != 4 ] && continue
        bin/jmpirun -np 2 $mode -cp bench/target/classes org.jmpi.bench.coll.CollTrace "$op" "$bytes" "$long" 3 10000 \
          --warm-harness >> "$trace"
      done
    done
    echo "## $where, CollTrace (per block: mean, p50, p99, max us; calls over 20 us and their share)"; echo
    echo '```'; cat "$trace"; echo '```'; echo
  done
  # The plots (latency by size per collective, jmpi as JVMs and threads against C; the barrier by rank count).
  source bench/java21.sh
  "$java" -cp 'bench/target/classes:bench/target/lib/*' org.jmpi.bench.coll.CollReport bench/target/coll-targets "$rounds" \
    bench/target/coll-targets/img
  echo; echo "Plots: bench/target/coll-targets/img/coll-*.png"
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
