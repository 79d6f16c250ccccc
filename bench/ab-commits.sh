#!/usr/bin/env bash
# Before/after: runs the same benchmarks against two builds of jmpi, alternately (A B A B ...) in one
# invocation, so a change of the machine's load or CPU placement hits both alike (see
# ../shared/baseline/README.md), and prints per-metric medians over rounds and the ratio B/A.
# The benchmark programs are this tree's (they use only the public API), compiled against each build's
# API and run on its runtime.
# Usage: bench/ab-commits.sh BASE_COMMIT [rounds]   (B is this working tree, built by mvn package first)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/ab-commits.sh BASE_COMMIT [rounds]}
rounds=${2:-3}
out=bench/target/ab
tree=$out/base-tree
mkdir -p "$out"
if [ ! -d "$tree" ] || [ "$(git -C "$tree" rev-parse HEAD 2>/dev/null)" != "$(git rev-parse "$base")" ]; then
  rm -rf "$tree"
  git worktree prune
  git worktree add --detach "$tree" "$base" >/dev/null
  (cd "$tree" && mvn -B -q package -DskipTests)
fi
source bench/java21.sh
javac=$(dirname "$java")/javac
harness=(bench/src/main/java/org/jmpi/bench/OsuLatency.java bench/src/main/java/org/jmpi/bench/HaloWarmup.java
  bench/src/main/java/org/jmpi/bench/coll/PersistentBcastTimer.java bench/src/main/java/org/jmpi/bench/BenchArgs.java
  bench/src/main/java/org/jmpi/bench/Percentiles.java bench/src/main/java/org/jmpi/bench/JitWarmup.java
  bench/src/main/java/org/jmpi/bench/PingPong.java)
lib=$PWD/bench/target/lib   # HdrHistogram, copied there by this tree's mvn package
for side in A B; do
  dir=$tree; [ $side = B ] && dir=$PWD
  rm -rf "$out/classes-$side"
  "$javac" --release 21 -nowarn -cp "$dir/core/target/classes:$dir/datatype/target/classes:$lib/*" -d "$out/classes-$side" "${harness[@]}"
done
run() { # label tree args...
  local label=$1 dir=$2; shift 2
  (cd "$dir" && timeout 600 bin/jmpirun "$@") > "$out/$label.txt" 2>&1 || echo "failed: $label" >&2
}
for r in $(seq 1 "$rounds"); do
  for side in A B; do
    dir=$tree; [ $side = B ] && dir=$PWD
    bench="$PWD/$out/classes-$side:$lib/*"
    run "$side-$r-lat-jvms" "$dir" -np 2 -cp "$bench" org.jmpi.bench.OsuLatency 4194304
    run "$side-$r-lat-threads" "$dir" --threads -np 2 -cp "$bench" org.jmpi.bench.OsuLatency 4194304
    run "$side-$r-bcast4" "$dir" --threads -np 4 -cp "$bench" org.jmpi.bench.coll.PersistentBcastTimer 8192 20000
    run "$side-$r-halo-jvms" "$dir" -np 2 -cp "$bench" org.jmpi.bench.HaloWarmup 128 3 20000
    run "$side-$r-halo-threads" "$dir" --threads -np 2 -cp "$bench" org.jmpi.bench.HaloWarmup 128 3 20000
  done
done
python3 - "$out" "$rounds" <<'PY'
import sys, statistics, re
out, rounds = sys.argv[1], int(sys.argv[2])
def rows(name):
    vals = {}
    try:
        lines = open(f"{out}/{name}.txt").read().splitlines()
    except FileNotFoundError:
        return vals
    for line in lines:
        line = re.sub(r"^\[\d+\] ", "", line)
        if not line.strip() or line.startswith("#"): continue
        parts = line.split()
        try: nums = [float(p) for p in parts]
        except ValueError: continue
        vals[parts[0]] = nums
    return vals
def metric(kind, key, col):
    res = {}
    for side in "AB":
        xs = [rows(f"{side}-{r}-{kind}").get(key, [None]*(col+1))[col] for r in range(1, rounds + 1)]
        res[side] = [x for x in xs if x is not None]
    return res
print(f"A = base build, B = this tree; medians over {rounds} rounds (us); ratio = B / A")
print(f"| metric | A | B | B/A |\n|---|---|---|---|")
def show(label, m):
    if m["A"] and m["B"]:
        a, b = statistics.median(m["A"]), statistics.median(m["B"])
        print(f"| {label} | {a:.2f} | {b:.2f} | {b / a:.2f} |")
for kind in ("lat-jvms", "lat-threads"):
    for size in ("8", "4096", "65536", "1048576", "4194304"):
        show(f"{kind} {size} B mean", metric(kind, size, 1))
        show(f"{kind} {size} B median", metric(kind, size, 3))
m = {}
for side in "AB":
    m[side] = []
    for r in range(1, rounds + 1):
        try:
            lines = [l for l in open(f"{out}/{side}-{r}-bcast4.txt").read().splitlines() if re.match(r"^(\[\d+\] )?[0-9.]+ [0-9.]+$", l)]
            if lines: m[side].append([float(x) for x in re.sub(r"^\[\d+\] ", "", lines[-1]).split()])
        except FileNotFoundError: pass
show("put/get bcast 8 KiB, 4 threads, mean", {s: [x[0] for x in m[s]] for s in m})
show("put/get bcast 8 KiB, 4 threads, median", {s: [x[1] for x in m[s]] for s in m})
for kind in ("halo-jvms", "halo-threads"):
    for block in ("0", "2"):
        show(f"{kind} block {block} (exchanges {int(block) * 20000}-) mean", metric(kind, block, 2))
PY
