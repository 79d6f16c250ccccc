#!/usr/bin/env bash
# Point-to-point against C Open MPI, alternately (C jmpi C jmpi ...) in one invocation, as
# ../shared/baseline/README.md asks (the two vCPUs' placement changes small-message latency about
# fourfold, so only same-round ratios mean much): per round, ping-pong latency with percentiles
# (OsuLatency / c/pingpong.c), osu_bw-, osu_bibw- and osu_mbw_mr-like windowed benchmarks, window 64
# (OsuBandwidth / c/bandwidth.c). Then bench's P2pReport prints Markdown tables (medians over rounds,
# median per-round ratios) and writes latency.png, bandwidth.png and message-rate.png into the output
# directory. docs/performance.md shows a run.
# Needs: mvn package done (bench/target/classes and bench/target/lib); Debian's openmpi-bin and
# libopenmpi-dev (installed here if missing).
# Usage: bench/p2p-vs-c.sh [rounds] [maxLatencyBytes] [maxWindowBytes] [outDir]
#   environment: JMPI_ARGS (extra harness arguments, e.g. "--jit-warmup 20000"), BENCHES (default
#   "latency bw bibw mbw_mr"), C_BIND (mpirun binding, default "--bind-to core").
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
max_lat=${2:-65536}
max_win=${3:-4194304}
out=${4:-bench/target/p2p}
benches=${BENCHES:-latency bw bibw mbw_mr}
mkdir -p "$out"
if ! command -v mpicc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
fi
source bench/java21.sh
mpicc -O2 -o "$out/pingpong" bench/c/pingpong.c
mpicc -O2 -o "$out/bandwidth" bench/c/bandwidth.c
cp='bench/target/classes:bench/target/lib/*'
mpi=(mpirun --allow-run-as-root --oversubscribe -np 2 ${C_BIND:---bind-to core} --mca btl self,vader)
run() { # label command...
  local label=$1; shift
  timeout 900 "$@" > "$out/$label.txt" 2> "$out/$label.err" || echo "failed: $label (see $out/$label.err)" >&2
}
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" > "$out/load.txt"
for r in $(seq 1 "$rounds"); do
  for b in $benches; do
    if [ "$b" = latency ]; then
      run "c-$b-$r" "${mpi[@]}" "$out/pingpong" "$max_lat"
      # shellcheck disable=SC2086 # JMPI_ARGS is a list of arguments
      run "jmpi-$b-$r" bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuLatency "$max_lat" ${JMPI_ARGS:-}
    else
      run "c-$b-$r" "${mpi[@]}" "$out/bandwidth" "$b" "$max_win"
      # shellcheck disable=SC2086
      run "jmpi-$b-$r" bin/jmpirun -np 2 -cp "$cp" org.jmpi.bench.OsuBandwidth "$b" "$max_win" ${JMPI_ARGS:-}
    fi
  done
  echo "# round $r done $(date -u +%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
done
cat "$out/load.txt"
"$java" -cp "$cp" org.jmpi.bench.report.P2pReport "$out" "$rounds"
echo "plots: $out/latency.png $out/bandwidth.png $out/message-rate.png"
