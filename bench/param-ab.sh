#!/usr/bin/env bash
# One build, two settings: runs the ping-pong latency benchmark (OsuLatency, every size to 4 MiB) with
# jmpirun options A and with options B alternately (A B A B ...) in one invocation, and prints per size
# the medians over rounds of each round's p50, p99 and mean, with the ratio B/A. For costs that a
# parameter switches on or off (for example --param shm.checksum=true), where bench/ab-commits.sh
# compares two commits.
# Usage: bench/param-ab.sh ROUNDS "A options" "B options" [extra jmpirun options...]
#   e.g. bench/param-ab.sh 5 "--param shm.checksum=false" "--param shm.checksum=true" -np 2
# Needs: mvn package done (bench/target/classes and bench/target/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:?usage: bench/param-ab.sh ROUNDS "A options" "B options" [jmpirun options...]}
a_opts=$2
b_opts=$3
shift 3
extra=("$@")
[[ ${#extra[@]} -gt 0 ]] || extra=(-np 2)
out=bench/target/param-ab
rm -rf "$out"
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for side in A B; do
    opts=$a_opts; [[ $side == B ]] && opts=$b_opts
    # shellcheck disable=SC2086 # the options are words on purpose
    timeout 600 bin/jmpirun $opts "${extra[@]}" -cp "bench/target/classes:bench/target/lib/*" \
      org.jmpi.bench.OsuLatency 4194304 > "$out/$side-$r.txt" 2>&1 || echo "failed: $side-$r" >&2
  done
done
echo "A: $a_opts   B: $b_opts   jmpirun ${extra[*]}; medians over $rounds rounds (us)"
python3 - "$out" "$rounds" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(side):
    by_size = {}
    for r in range(1, rounds + 1):
        try:
            lines = open(f"{out}/{side}-{r}.txt").read().splitlines()
        except FileNotFoundError:
            continue
        for line in lines:
            parts = re.sub(r"^\[\d+\] ", "", line).split()
            if len(parts) < 6 or not parts[0].isdigit():
                continue
            mean, p50, p99 = float(parts[1]), float(parts[3]), float(parts[5])
            by_size.setdefault(int(parts[0]), []).append((p50, p99, mean))
    return by_size
a, b = load("A"), load("B")
m = statistics.median
print("| size (B) | p50 A | p50 B | B/A | p99 A | p99 B | mean A | mean B | B/A |")
print("|---|---|---|---|---|---|---|---|---|")
for size in sorted(set(a) & set(b)):
    col = lambda rows, i: m([row[i] for row in rows])
    pa, pb, qa, qb, ma, mb = col(a[size], 0), col(b[size], 0), col(a[size], 1), col(b[size], 1), col(a[size], 2), col(b[size], 2)
    print(f"| {size} | {pa:.3f} | {pb:.3f} | {pb / pa:.2f} | {qa:.2f} | {qb:.2f} | {ma:.2f} | {mb:.2f} | {mb / ma:.2f} |")
PY
