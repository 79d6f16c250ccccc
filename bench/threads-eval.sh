#!/usr/bin/env bash
# The offloading evaluation (issue 12, item 6; docs/threads.md), every variant alternated within each
# round so that load changes hit all alike: concurrent ping-pongs (ConcurrentLatency: virtual threads
# and platform threads under MULTIPLE, one thread per rank under SINGLE), overlap of a blocking
# communication thread with computation (Overlap: virtual and platform communication thread), and the
# halo mini-app (HaloApp: nonblocking from one thread at SINGLE and at MULTIPLE, one virtual thread per
# neighbour). Then bench's ThreadsReport prints Markdown tables and writes concurrent-latency.png,
# concurrent-rate.png, overlap.png and halo.png into the output directory.
# Needs: mvn package done (bench/target/classes and bench/target/lib).
# Usage: bench/threads-eval.sh [rounds] [outDir]
#   environment: THREADS (default 1,4,16,64,256,1000), PLATFORM_THREADS (default 1,4,16,64,256: every
#   thread blocked under MULTIPLE wakes each millisecond to re-check, so 1,000 platform threads per rank
#   took the shared 2-core machine's load average to 1,600 and starved everyone's work; set it to
#   $THREADS on a machine of your own), ROUND_TRIPS (per point, default 4000),
#   HALO_N (default 32,128,512), HALO_ITERATIONS (default 2000), NP (ranks, default 2),
#   LAUNCH (extra jmpirun options, e.g. --threads to run the ranks as threads of one JVM).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
out=${2:-bench/target/threads-eval}
mkdir -p "$out"
source bench/java21.sh
cp='bench/target/classes:bench/target/lib/*'
np=${NP:-2}
threads=${THREADS:-1,4,16,64,256,1000}
platform_threads=${PLATFORM_THREADS:-1,4,16,64,256}
round_trips=${ROUND_TRIPS:-4000}
halo_n=${HALO_N:-32,128,512}
halo_iterations=${HALO_ITERATIONS:-2000}
run() { # label class args...
  local label=$1; shift
  # shellcheck disable=SC2086 # LAUNCH is a list of options
  timeout 900 bin/jmpirun ${LAUNCH:-} -np "$np" -cp "$cp" "$@" > "$out/$label.txt" 2> "$out/$label.err" \
    || echo "failed: $label (see $out/$label.err)" >&2
}
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" > "$out/load.txt"
for r in $(seq 1 "$rounds"); do
  for mode in virtual platform single; do
    counts=$threads; [ "$mode" = platform ] && counts=$platform_threads
    run "concurrent-$mode-$r" org.jmpi.bench.threads.ConcurrentLatency "$mode" --threads "$counts" --round-trips "$round_trips"
  done
  for comm in virtual platform; do
    run "overlap-$comm-$r" org.jmpi.bench.threads.Overlap --comm "$comm"
  done
  run "halo-nonblocking-single-$r" org.jmpi.bench.threads.HaloApp nonblocking --n "$halo_n" --iterations "$halo_iterations"
  run "halo-nonblocking-multiple-$r" org.jmpi.bench.threads.HaloApp nonblocking --level multiple --n "$halo_n" --iterations "$halo_iterations"
  run "halo-virtual-$r" org.jmpi.bench.threads.HaloApp virtual --n "$halo_n" --iterations "$halo_iterations"
  echo "# round $r done $(date -u +%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
done
cat "$out/load.txt"
"$java" -cp "$cp" org.jmpi.bench.report.ThreadsReport "$out" "$rounds"
echo "plots: $out/concurrent-latency.png $out/concurrent-rate.png $out/overlap.png $out/halo.png"
