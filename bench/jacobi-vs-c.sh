#!/usr/bin/env bash
# The small-message issue's real-code target: the 2-D Jacobi solver (bench/.../jacobi/Jacobi2d.java)
# against its C twin (bench/c/jacobi.c) under Open MPI, alternated in one invocation (C, jmpi as JVMs,
# jmpi as threads, per grid, per round), at 2 ranks on the issue's two grids: 512 x 512 for 2,000
# sweeps and 128 x 128 for 10,000. Each run is a fresh job, so the time includes the cold start.
# Also the sweep alone on one rank (no communication), Java against C: the floor of the compute part.
# Prints per round and a summary: median time per version and the median of the per-round ratios
# jmpi / C, and fails if a residual differs from C's.
# Needs: mvn package done (bench/target/classes and bench/target/lib); Debian's openmpi-bin and
# libopenmpi-dev (installed here if missing).
# Usage: bench/jacobi-vs-c.sh [rounds] [grids]   grids default "512:2000 128:10000"
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
grids=${2:-512:2000 128:10000}
out=bench/target/jacobi
mkdir -p "$out"
if ! command -v mpicc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
fi
mpicc -O2 -o "$out/jacobi" bench/c/jacobi.c -lm
cp='bench/target/classes:bench/target/lib/*'
main=org.jmpi.bench.jacobi.Jacobi2d
mpi=(mpirun --allow-run-as-root --oversubscribe -np 2 --bind-to core --mca btl self,vader)
: > "$out/runs.txt"
run() { # label command...
  local label=$1 line; shift
  line=$(timeout 900 "$@" | grep '^jacobi') || { echo "failed: $label" >&2; return; }
  echo "$label $line" | tee -a "$out/runs.txt"
}
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  for g in $grids; do
    n=${g%%:*} sweeps=${g##*:}
    run "c-sweep-$n-$r" "$out/jacobi" "$n" "$sweeps" --sweep-only
    run "java-sweep-$n-$r" bin/jmpirun -np 1 -cp "$cp" "$main" "$n" "$sweeps" --sweep-only
    run "c-$n-$r" "${mpi[@]}" "$out/jacobi" "$n" "$sweeps"
    run "jvms-$n-$r" bin/jmpirun -np 2 -cp "$cp" "$main" "$n" "$sweeps"
    run "threads-$n-$r" bin/jmpirun --threads -np 2 -cp "$cp" "$main" "$n" "$sweeps"
  done
  echo "# round $r done $(date -u +%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
python3 - "$out/runs.txt" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, rest = line.split(" ", 1)
    version, n, r = label.rsplit("-", 2)
    t = float(re.search(r"time=(\S+)", rest).group(1))
    res = re.search(r"residual=(\S+)", rest).group(1)
    runs[(version, int(n), int(r))] = (t, res)
bad = 0
print("\n| grid | version | time, median (s) | per-round times (s) | ratio to C, median of rounds | residual |")
print("|---|---|---|---|---|---|")
for n in sorted({k[1] for k in runs}, reverse=True):
    for version, base in (("c-sweep", "c-sweep"), ("java-sweep", "c-sweep"), ("c", "c"), ("jvms", "c"), ("threads", "c")):
        rs = sorted(k[2] for k in runs if k[0] == version and k[1] == n)
        if not rs:
            continue
        times = [runs[(version, n, r)][0] for r in rs]
        ratios = [runs[(version, n, r)][0] / runs[(base, n, r)][0] for r in rs if (base, n, r) in runs]
        residuals = {runs[(version, n, r)][1] for r in rs}
        want = {runs[(base, n, r)][1] for r in rs if (base, n, r) in runs}
        if residuals != want:
            bad += 1
        print(f"| {n} x {n} | {version} | {statistics.median(times):.4f} | {' '.join(f'{t:.4f}' for t in times)} | "
              f"{statistics.median(ratios):.2f} | {' '.join(sorted(residuals))}{'' if residuals == want else ' (differs from C)'} |")
if bad:
    sys.exit(f"{bad} version(s) ended with a residual other than C's")
PY
