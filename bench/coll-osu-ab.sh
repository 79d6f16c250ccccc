#!/usr/bin/env bash
# Before/after for small collectives: the per-call time of barrier, bcast and allreduce (4 B by default) against two
# builds of jmpi, alternated (A B A B ...) in one invocation so that the machine's load hits both alike, at 2 JVMs and
# at 2 ranks as threads. Each run is bench/coll CollTrace (every call timed on its own, blocks of calls after a
# warm-up); per op and axis it prints the medians over rounds of the blocks' p50 and mean (ns per call) and B/A.
# The harness is this tree's (public API only), compiled against each build.
# Usage: bench/coll-osu-ab.sh BASE_COMMIT [rounds] [bytes] [warmup] [ops...]
#   BASE_TREE=dir: use an already built checkout of BASE_COMMIT instead of bench/target/coll-ab/base-tree.
#   BLOCKS, CALLS: timed blocks per run and calls per block (default 5 and 10000). OSU's default warm-up, as issue 16's
#   item 4 measures it: warmup 1000, BLOCKS=10 CALLS=1000 (then "run mean" is OSU's mean over 10,000 calls and "jit-ms"
#   the JIT's compilation time inside them).
# Needs: mvn -B package -DskipTests in this tree (launcher jar, bench/target/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/coll-osu-ab.sh BASE_COMMIT [rounds] [bytes] [warmup] [ops...]}
rounds=${2:-3}
bytes=${3:-4}
warmup=${4:-20000}
shift $(( $# < 4 ? $# : 4 ))
ops=("$@")
blocks=${BLOCKS:-5}
calls=${CALLS:-10000}
[ ${#ops[@]} -gt 0 ] || ops=(barrier bcast allreduce)
out=bench/target/coll-ab
mkdir -p "$out"
tree=${BASE_TREE:-$out/base-tree}
if [ -z "${BASE_TREE:-}" ] && { [ ! -d "$tree" ] || [ "$(git -C "$tree" rev-parse HEAD 2>/dev/null)" != "$(git rev-parse "$base")" ]; }; then
  rm -rf "$tree"
  git worktree prune
  git worktree add --detach "$tree" "$base" >/dev/null
  (cd "$tree" && mvn -B -q package -DskipTests -Dmaven.javadoc.skip=true)
fi
source bench/java21.sh
javac=$(dirname "$java")/javac
harness=(bench/src/main/java/org/jmpi/bench/coll/CollTrace.java bench/src/main/java/org/jmpi/bench/coll/OsuCollective.java)
lib=$PWD/bench/target/lib
classes=$PWD/$out
for side in A B; do
  dir=$tree; [ $side = B ] && dir=$PWD
  rm -rf "$out/classes-$side"
  "$javac" --release 21 -nowarn -cp "$dir/core/target/classes:$dir/datatype/target/classes:$lib/*" -d "$out/classes-$side" "${harness[@]}"
done
rm -f "$out"/[AB]-*.txt
for r in $(seq 1 "$rounds"); do
  for op in "${ops[@]}"; do
    for axis in jvms threads; do
      for side in A B; do
        dir=$tree; [ $side = B ] && dir=$PWD
        mode=(); [ $axis = threads ] && mode=(--threads)
        (cd "$dir" && timeout 600 bin/jmpirun "${mode[@]}" -np 2 -cp "$classes/classes-$side:$lib/*" org.jmpi.bench.coll.CollTrace \
          "$op" "$bytes" "$warmup" "$blocks" "$calls" --warm-harness) > "$out/$side-$r-$op-$axis.txt" 2>&1 || echo "failed: $side $r $op $axis" >&2
      done
    done
  done
done
python3 - "$out" "$rounds" "$bytes" "${ops[@]}" <<'PY'
import sys, statistics, re
out, rounds, size, ops = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def blocks(name):
    rows = []
    try:
        for line in open(f"{out}/{name}.txt"):
            line = re.sub(r"^\[\d+\] ", "", line)
            f = line.split()
            if len(f) >= 4 and not line.lstrip().startswith("#") and f[0].isdigit():
                rows.append((float(f[1]), float(f[2]), float(f[7])))
    except FileNotFoundError:
        pass
    return rows
print(f"A = base build, B = this tree; {size} B; p50 and mean: per round the median over the blocks, then the median over "
      f"{rounds} rounds; run mean: the mean over all blocks (OSU's figure), median over rounds; jit-ms: compilation in the "
      f"timed blocks (rank 0's JVM), median over rounds; ns per call; B/A")
print("| op | axis | p50 A | p50 B | B/A | mean A | mean B | B/A | run mean A | run mean B | B/A | jit-ms A | jit-ms B |")
print("|---|---|" + "---:|" * 11)
for op in ops:
    for axis in ("jvms", "threads"):
        cell = {}
        for side in "AB":
            p50s, means, runs, jits = [], [], [], []
            for r in range(1, rounds + 1):
                b = blocks(f"{side}-{r}-{op}-{axis}")
                if b:
                    means.append(statistics.median(x[0] for x in b) * 1000)
                    p50s.append(statistics.median(x[1] for x in b) * 1000)
                    runs.append(statistics.mean(x[0] for x in b) * 1000)
                    jits.append(sum(x[2] for x in b))
            cell[side] = tuple(statistics.median(v) for v in (p50s, means, runs, jits)) if p50s else None
        if cell["A"] and cell["B"]:
            (pa, ma, ra, ja), (pb, mb, rb, jb) = cell["A"], cell["B"]
            print(f"| {op} | {axis} | {pa:.0f} | {pb:.0f} | {pb / pa:.2f} | {ma:.0f} | {mb:.0f} | {mb / ma:.2f} | {ra:.0f} | {rb:.0f} | "
                  f"{rb / ra:.2f} | {ja:.0f} | {jb:.0f} |")
PY
