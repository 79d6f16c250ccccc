#!/usr/bin/env bash
# Start-up: wall time of `jmpirun -np 2` of a hello world (org.jmpi.bench.Hello) against Open MPI's
# `mpirun -np 2` of the C one (bench/c/hello.c), run alternately (C, jmpi, C, jmpi...) in one invocation
# as bench/latency-vs-c.sh does, so the shared machine's slow moments fall on both alike.
# Needs: mvn package done; Debian's openmpi-bin and libopenmpi-dev (installed here if missing).
# Usage: bench/startup-vs-c.sh [rounds] [extra jmpirun options...]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
shift || true
out=bench/target/startup
mkdir -p "$out"
if ! command -v mpicc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
fi
mpicc -O2 -o "$out/hello" bench/c/hello.c
# One untimed run of each: page cache, and jmpirun's class-data archives (made on first use).
mpirun --allow-run-as-root --oversubscribe -np 2 "$out/hello" > /dev/null
bin/jmpirun "$@" -np 2 -cp bench/target/classes org.jmpi.bench.Hello > /dev/null
: > "$out/times.txt"
for r in $(seq 1 "$rounds"); do
  for who in c jmpi; do
    start=$(date +%s%N)
    if [[ $who == c ]]; then
      mpirun --allow-run-as-root --oversubscribe -np 2 "$out/hello" > "$out/$who.out"
    else
      bin/jmpirun "$@" -np 2 -cp bench/target/classes org.jmpi.bench.Hello > "$out/$who.out"
    fi
    end=$(date +%s%N)
    grep -q "hello from rank 1 of 2" "$out/$who.out" || { echo "startup: $who printed no hello from rank 1" >&2; exit 1; }
    echo "$r $who $(( (end - start) / 1000000 ))" >> "$out/times.txt"
  done
done
python3 - "$out/times.txt" <<'PY'
import sys, statistics
rows = [line.split() for line in open(sys.argv[1])]
c = {int(r): int(ms) for r, who, ms in rows if who == "c"}
j = {int(r): int(ms) for r, who, ms in rows if who == "jmpi"}
ratios = [j[r] / c[r] for r in sorted(c)]
print(f"wall time in ms over {len(c)} alternated rounds: median (min..max)")
print(f"  Open MPI mpirun -np 2 hello: {statistics.median(c.values()):.0f} ({min(c.values())}..{max(c.values())})")
print(f"  jmpirun -np 2 Hello:         {statistics.median(j.values()):.0f} ({min(j.values())}..{max(j.values())})")
print(f"  ratio jmpi / C, median of per-round ratios: {statistics.median(ratios):.2f} (" + " ".join(f"{x:.2f}" for x in ratios) + ")")
PY
