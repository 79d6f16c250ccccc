#!/usr/bin/env bash
# The cost of jmpi-compat (the Open MPI Java API) over jmpi core, alternated in one invocation (A B A B ...), two
# JVMs over shared memory, as ../shared/baseline/README.md asks:
#  - latency:   OsuLatency (core) and CompatLatency (the same ping-pong written as OMB-J's osu_latency is), both
#               with direct ByteBuffers, then both with byte[]; each run measures one size;
#  - bandwidth: OsuBandwidth bw and bibw (core) and CompatBandwidth bw and bibw (osu_bw's and osu_bibw's window of 64
#               through compat), direct and byte[];
#               each run measures every size up to the largest asked, the table shows the sizes asked;
#  - allreduce: OsuCollective allreduce (core) and CompatAllreduce, int[] on both sides (core's harness has no
#               direct form), every size from 4 B up to the largest asked.
#  - alternating: CompatAlternating, 8-byte allreduce, ping-pong, bw window and barrier, and bcast, reduce, allreduce,
#               gather, scatter, allgather and alltoall at 8 B and 1 MiB, through core and through compat in
#               blocks alternated within the same two JVMs (byte[] and direct buffers): the layer's own cost, without
#               the difference between two pairs of JVMs that the parts above also measure.
# Needs: mvn package done (bench and compat). Usage: bench/compat-vs-core.sh [rounds] [size...]
# (default sizes 8 and 1048576). PARTS="latency bandwidth allreduce" (the default) chooses the parts.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(8 1048576); fi
out=bench/target/compat
mkdir -p "$out"
cp="bench/target/classes:bench/target/lib/*:compat/target/classes"
parts=${PARTS:-latency bandwidth allreduce alternating}
# Untimed round trips before a latency size above 64 KiB: 20 in a single run (OSU's way) leave a 1 MiB
# ping-pong's 200 timed round trips mostly in the JIT's first tiers, and core and compat then differ by which
# of them the compiler reached first; LARGE_WARMUP=2000 (the default here) compares warm paths.
large_warmup=${LARGE_WARMUP:-2000}
# Likewise up to 64 KiB: 5,000 untimed round trips leave the mean to the cold start's tail (3-4 us at 8 B against
# a 0.25 us median); SMALL_WARMUP=200000 (the default here) compares warm means.
small_warmup=${SMALL_WARMUP:-200000}
# Allreduce calls before each size up to 64 KiB (a fiftieth above, at least 20), both harnesses: OSU's 1,000
# leave an 8-byte allreduce at 6-14 us against about 1 us warm.
coll_warmup=${COLL_WARMUP:-20000}
max=$(printf '%s\n' "${sizes[@]}" | sort -n | tail -1)
rm -f "$out"/*.txt
for r in $(seq 1 "$rounds"); do
  if [[ " $parts " == *" latency "* ]]; then
    for s in "${sizes[@]}"; do
      bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuLatency "$s" --from "$s" --direct --jit-warmup 0 --small-warmup "$small_warmup" --large-warmup "$large_warmup" >> "$out/core-buffer-$r.txt"
      bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatLatency "$s" --from "$s" -a buffer --small-warmup "$small_warmup" --large-warmup "$large_warmup" >> "$out/compat-buffer-$r.txt"
      bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuLatency "$s" --from "$s" --jit-warmup 0 --small-warmup "$small_warmup" --large-warmup "$large_warmup" >> "$out/core-arrays-$r.txt"
      bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatLatency "$s" --from "$s" -a arrays --small-warmup "$small_warmup" --large-warmup "$large_warmup" >> "$out/compat-arrays-$r.txt"
    done
  fi
  if [[ " $parts " == *" bandwidth "* ]]; then
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuBandwidth bw "$max" --direct > "$out/bw-core-buffer-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatBandwidth "$max" -a buffer > "$out/bw-compat-buffer-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuBandwidth bw "$max" > "$out/bw-core-arrays-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatBandwidth "$max" -a arrays > "$out/bw-compat-arrays-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuBandwidth bibw "$max" --direct > "$out/bibw-core-buffer-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatBandwidth bibw "$max" -a buffer > "$out/bibw-compat-buffer-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuBandwidth bibw "$max" > "$out/bibw-core-arrays-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatBandwidth bibw "$max" -a arrays > "$out/bibw-compat-arrays-$r.txt"
  fi
  if [[ " $parts " == *" allreduce "* ]]; then
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.coll.OsuCollective allreduce "$max" --warmup "$coll_warmup" > "$out/ar-core-arrays-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatAllreduce "$max" -a arrays --warmup "$coll_warmup" > "$out/ar-compat-arrays-$r.txt"
  fi
  if [[ " $parts " == *" alternating "* ]]; then
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatAlternating 21 20000 -a arrays > "$out/alt-arrays-$r.txt"
    bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.CompatAlternating 21 20000 -a buffer > "$out/alt-buffer-$r.txt"
  fi
done
python3 - "$out" "$rounds" "$parts" "${sizes[@]}" <<'PY'
import sys, statistics
out, rounds, parts, asked = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), [int(a) for a in sys.argv[4:]]
def columns(name, col):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip(): continue
        f = line.split()
        rows[int(f[0])] = float(f[col])
    return rows
def table(title, core_name, compat_name, col, unit):
    core = [columns(core_name % r, col) for r in range(1, rounds + 1)]
    comp = [columns(compat_name % r, col) for r in range(1, rounds + 1)]
    print(f"{title}: {unit}, medians over {rounds} rounds; ratio = compat / core per round, then the median")
    print(f"{'size':>9} | {'core':>10} {'compat':>10} {'ratio':>6}")
    for s in asked:
        if s not in core[0]: continue
        ratio = statistics.median(b[s] / a[s] for a, b in zip(core, comp))
        print(f"{s:>9} | {statistics.median(x[s] for x in core):>10.2f} {statistics.median(x[s] for x in comp):>10.2f} {ratio:>6.3f}")
def load(name):
    rows = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#") or not line.strip(): continue
        size, mean, bw, median = line.split()[:4]   # OsuLatency adds p90, p99, p99.9, max
        rows[int(size)] = (float(mean), float(median))
    return rows
for kind in ("buffer", "arrays") if "latency" in parts else ():
    core = [load(f"core-{kind}-{r}.txt") for r in range(1, rounds + 1)]
    comp = [load(f"compat-{kind}-{r}.txt") for r in range(1, rounds + 1)]
    print(f"{kind}: one-way latency in us, medians over {rounds} rounds; ratio = compat / core per round, then the median")
    print(f"{'size':>9} | {'core mean':>9} {'compat mean':>11} {'ratio':>6} | {'core median':>11} {'compat median':>13} {'ratio':>6}")
    for s in sorted(core[0]):
        mr = statistics.median(b[s][0] / a[s][0] for a, b in zip(core, comp))
        dr = statistics.median(b[s][1] / a[s][1] for a, b in zip(core, comp))
        print(f"{s:>9} | {statistics.median(x[s][0] for x in core):>9.2f} {statistics.median(x[s][0] for x in comp):>11.2f} {mr:>6.3f} | "
              f"{statistics.median(x[s][1] for x in core):>11.2f} {statistics.median(x[s][1] for x in comp):>13.2f} {dr:>6.3f}")
for kind in ("buffer", "arrays") if "bandwidth" in parts else ():
    table(f"bw {kind}", f"bw-core-{kind}-%d.txt", f"bw-compat-{kind}-%d.txt", 1, "MB/s")
    table(f"bibw {kind}", f"bibw-core-{kind}-%d.txt", f"bibw-compat-{kind}-%d.txt", 1, "MB/s")
if "allreduce" in parts:
    table("allreduce int[] (2 ranks)", "ar-core-arrays-%d.txt", "ar-compat-arrays-%d.txt", 1, "average latency in us")
for kind in ("arrays", "buffer") if "alternating" in parts else ():
    runs = [{l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(f"{out}/alt-{kind}-{r}.txt") if l.strip() and not l.startswith("#")}
            for r in range(1, rounds + 1)]
    print(f"alternating, {kind} (CompatAlternating, 21 blocks per side per run; parts without a size are 8 B): medians over {rounds} runs")
    print(f"{'part':>9} | {'core ns':>9} {'compat ns':>9} {'ratio p50':>9} {'B/call core':>11} {'compat':>8}")
    for part in runs[0]:
        col = lambda i: statistics.median(run[part][i] for run in runs)
        print(f"{part:>9} | {col(0):>9.1f} {col(1):>9.1f} {col(2):>9.3f} {col(5):>11.1f} {col(6):>8.1f}")
PY
