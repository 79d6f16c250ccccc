#!/usr/bin/env bash
# The PVAS evaluation (issue 11; docs/pvas.md), one command for every table docs/pvas.md shows:
#  1. the DDTBench exchange harness (DdtPingPong: 16 patterns at DDTBench's middle and largest sizes, the
#     applications' datatypes against hand packing) in three forms: ranks as threads of one JVM (heap
#     arrays), two JVMs with arena buffers (allocMem), two JVMs with heap buffers;
#  2. Figure 5 of the PVAS paper: eager limit 0, every pattern's layout cut to 1 KiB ... 1 MiB, staged
#     (pvas.mode=staged) with fragments of 4, 8, 16, 32 and 64 KiB, direct and auto, threads and arena; all seven in
#     one job per form and round, alternated at each point (SWEEP_ALTERNATIONS rounds of SWEEP_ITERATIONS / that many
#     ping-pongs per variant, the order rotating), medians and means reported;
#  3. Figure 15: direct (eager limit 0) against eager (eager limit and window raised), same sweep;
#  4. the fft2d mini-app (Fft2d: transpose by alltoall with vector types of different block sizes) at two
#     problem sizes, per pvas.mode, between threads and between two JVMs (heap: staged);
#  5. large messages (OsuLatency, 1-4 MiB one-way): C Open MPI (bench/c/pingpong.c over vader, its single-copy
#     path) against two JVMs with allocMem buffers in the arena and two threads of one JVM, each receiver-only
#     and with the split copy: the issue's 4 MiB targets (arena <= 0.67x C and <= 1.2x threads; split <= 0.7x
#     receiver-only between threads).
# Every variant runs once per round, alternated within the round, so load changes hit all alike. auto
# reads a calibration written once at the start (jmpirun --calibrate), as every run does. Then bench's PvasReport prints the
# Markdown tables (medians over rounds; the auto rule checked point by point) and writes exchange.png and
# fig5-FORM.png into the output directory.
# Needs: mvn -B package -DskipTests done (bench/ and examples/target/classes, bench/target/lib, the launcher's jars).
# Usage: bench/pvas-eval.sh [rounds] [outDir]
#   environment: PRESET: full (the default: 3 rounds, the defaults below), quiet (2 rounds, fewer iterations and sweep
#   points: meant for about 20-30 minutes on the quiet 2-vCPU machine), ci (1 round at the smallest sizes, to prove
#   it runs); any variable below overrides the preset:
#   PARTS (default "exchange fig5 fig15 fft2d latency"), FFT_N (512,1024), FFT_ITERATIONS (20), ITERATIONS (exchange,
#   default 200), WARMUP (100; it was 20, quiet 10: a new pattern's copy kernels were still being compiled by C2 in
#   the timed iterations, whose compiler thread shares a core with a bound rank), SWEEP_ITERATIONS (figures, default 100), SWEEP_ALTERNATIONS (Figure 5's rounds within a point, 10), SWEEP_WARMUP (figures' warm-up per point, default
#   WARMUP; quiet 100: at 10 a small point measured the JIT more than the path), SWEEP (default 1k,2k,...,1m), FIG15_SWEEP
#   (1k,...,512k), SIZES (default middle,largest), PATTERNS (default all 16), PARTITION (arena partition per rank,
#   default 512m: the sweep cuts NAS_MG's largest layout, whose buffer of 273 MB is allocated in the arena),
#   LAT_FROM and LAT_MAX (latency sizes, default 1 MiB to 4 MiB), JIT_WARMUP (latency's warm-up round trips, 400000),
#   LAT_WARMUP (warm-up round trips at each latency size, default 2000: JIT_WARMUP's sizes stop at 32 KiB, so the split
#   copy, from 1 MiB, used to be compiled during the timed 1 MiB iterations: docs/pvas.md, session 10),
#   PARAMS (jmpirun options added to every jmpi run, for an A/B of a parameter: PARAMS="--param idle.spins=200000"),
#   JFR (1: record the threads exchange with bench/jfr/stalls.jfc and print StallReport's table of what overlapped
#   its slow iterations: compilations, GC pauses, late wake-ups; docs/pvas.md, "The millisecond stalls between threads").
#   The latency part needs Open MPI's mpicc and mpirun (installed with apt-get when missing, as bench/latency-vs-c.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-full}
case $preset in
  full) default_rounds=3;;
  quiet)
    default_rounds=2
    : "${ITERATIONS:=60}" "${WARMUP:=100}" "${SWEEP_ITERATIONS:=100}" "${SWEEP_WARMUP:=100}" "${FFT_ITERATIONS:=10}"
    : "${SWEEP:=1k,4k,16k,64k,256k,1m}" "${FIG15_SWEEP:=1k,4k,16k,64k,256k,512k}";;
  ci)
    default_rounds=1
    : "${ITERATIONS:=4}" "${WARMUP:=2}" "${SWEEP_ITERATIONS:=3}" "${SWEEP_ALTERNATIONS:=1}" "${FFT_ITERATIONS:=2}" "${FFT_N:=128}" "${SIZES:=middle}"
    : "${SWEEP:=1k,64k}" "${FIG15_SWEEP:=1k,64k}" "${PATTERNS:=NAS_MG_x LAMMPS_full}" "${PARTITION:=64m}"
    : "${LAT_FROM:=1048576}" "${LAT_MAX:=1048576}" "${JIT_WARMUP:=1000}" "${LAT_WARMUP:=20}";;
  *) echo "PRESET must be full, quiet or ci, not $preset" >&2; exit 2;;
esac
rounds=${1:-$default_rounds}
out=${2:-bench/target/pvas-eval}
mkdir -p "$out"
source bench/java21.sh
# DdtPingPong uses the DDTBench patterns of examples/ (not among the launcher's jars).
cp='bench/target/classes:examples/target/classes:bench/target/lib/*'
parts=${PARTS:-exchange fig5 fig15 fft2d latency}
lat_from=${LAT_FROM:-1048576}
lat_max=${LAT_MAX:-4194304}
jit_warmup=${JIT_WARMUP:-400000}
fft_n=${FFT_N:-512,1024}
fft_iterations=${FFT_ITERATIONS:-20}
iterations=${ITERATIONS:-200}
warmup=${WARMUP:-100}
lat_warmup=${LAT_WARMUP:-2000}
sweep_warmup=${SWEEP_WARMUP:-$warmup}
sweep_iterations=${SWEEP_ITERATIONS:-100}
sweep_alternations=${SWEEP_ALTERNATIONS:-10}
sweep=${SWEEP:-1k,2k,4k,8k,16k,32k,64k,128k,256k,512k,1m}
# Eager needs the message in one frame (at most 1 MiB less the envelope): Figure 15 stops at 512 KiB.
fig15_sweep=${FIG15_SWEEP:-1k,2k,4k,8k,16k,32k,64k,128k,256k,512k}
sizes=${SIZES:-middle,largest}
partition=${PARTITION:-512m}
# shellcheck disable=SC2206 # PATTERNS and PARAMS are lists
patterns=(${PATTERNS:-})
# shellcheck disable=SC2206
extra=(${PARAMS:-})
harness=org.jmpi.bench.ddt.DdtPingPong
run() { # label jmpirun-options... -- harness-options...
  local label=$1; shift
  local launch=()
  while [ "$1" != -- ]; do launch+=("$1"); shift; done
  shift
  local jfr=""
  if [ "${JFR:-0}" = 1 ] && [[ $label == exchange-threads-* ]]; then
    jfr="-XX:StartFlightRecording=filename=$out/$label.jfr,settings=bench/jfr/stalls.jfc"
  fi
  JMPIRUN_JAVA_OPTS="${JMPIRUN_JAVA_OPTS:-} $jfr" timeout 3600 bin/jmpirun "${launch[@]}" "${extra[@]}" -np 2 --param pvas.stats=true --param pvas.calibration="$out/calibration.properties" \
    -cp "$cp" "$harness" "$@" "${patterns[@]}" \
    > "$out/$label.txt" 2> "$out/$label.err" || echo "failed: $label (see $out/$label.err)" >&2
}
# Forms: threads of one JVM; two JVMs with the arena (64 KiB fragments fit a 64 KiB + 256 B shm slot).
threads=(--threads)
arena=(--param pvas.partition.size="$partition" --param shm.slot.size=65792)
if [[ " $parts " == *" latency "* ]]; then
  if ! command -v mpicc >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
  fi
  mpicc -O2 -o "$out/pingpong" bench/c/pingpong.c
fi
bin/jmpirun --calibrate --param pvas.calibration="$out/calibration.properties" > "$out/calibration.txt"
cat "$out/calibration.txt"
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" > "$out/load.txt"
for r in $(seq 1 "$rounds"); do
  for part in $parts; do
    case $part in
      exchange)
        # --samples: every iteration on a comment line, to tell a stalled cell from a slow path.
        run "exchange-threads-$r" "${threads[@]}" -- --label threads --samples --sizes "$sizes" --iterations "$iterations" --warmup "$warmup"
        run "exchange-arena-$r" "${arena[@]}" -- --label arena --buffers arena --samples --sizes "$sizes" --iterations "$iterations" --warmup "$warmup"
        run "exchange-heap-$r" -- --label heap --samples --sizes "$sizes" --iterations "$iterations" --warmup "$warmup";;
      fig5)
        for form in threads arena; do
          if [ "$form" = threads ]; then launch=("${threads[@]}"); buffers=heap; else launch=("${arena[@]}"); buffers=arena; fi
          # Every variant in one job, alternated per point (communicators with the pvas.mode and fragment.size hints):
          # the auto rule then compares the paths under one JIT state, placement and load (docs/pvas.md, session 11).
          run "fig5-$form-$r" "${launch[@]}" --param eager.limit=0 --param pvas.mode=auto -- --label "$form" --buffers "$buffers" \
            --sweep "$sweep" --iterations "$sweep_iterations" --warmup "$sweep_warmup" --alternations "$sweep_alternations" \
            --modes staged-4k,staged-8k,staged-16k,staged-32k,staged-64k,direct,auto
        done;;
      fig15)
        for form in threads arena; do
          # Eager up to the frame: 1 MiB between threads; across JVMs a 1 MiB + 256 B shm slot.
          if [ "$form" = threads ]; then launch=(--threads); buffers=heap
          else launch=(--param pvas.partition.size="$partition" --param shm.slot.size=1048832); buffers=arena; fi
          sw=(--label "$form" --buffers "$buffers" --sweep "$fig15_sweep" --iterations "$sweep_iterations" --warmup "$sweep_warmup")
          run "fig15-$form-eager-$r" "${launch[@]}" --param eager.limit=1m --param eager.window=8m -- "${sw[@]}"
          run "fig15-$form-direct-$r" "${launch[@]}" --param eager.limit=0 --param pvas.mode=direct -- "${sw[@]}"
        done;;
      fft2d)
        for form in threads heap; do
          if [ "$form" = threads ]; then launch=(--threads); else launch=(); fi
          for mode in auto direct staged; do
            timeout 3600 bin/jmpirun "${launch[@]}" "${extra[@]}" -np 2 --param pvas.mode="$mode" --param pvas.calibration="$out/calibration.properties" \
              -cp "$cp" org.jmpi.bench.ddt.Fft2d --n "$fft_n" --iterations "$fft_iterations" \
              > "$out/fft2d-$form-$mode-$r.txt" 2> "$out/fft2d-$form-$mode-$r.err" || echo "failed: fft2d-$form-$mode-$r" >&2
          done
        done;;
      latency)
        # One invocation per variant, alternated: C Open MPI, then jmpi's forms (osu = OsuLatency 1-4 MiB).
        osu=(-cp "$cp" org.jmpi.bench.OsuLatency "$lat_max" --from "$lat_from" --jit-warmup "$jit_warmup" --large-warmup "$lat_warmup")
        mpirun --allow-run-as-root --oversubscribe -np 2 --bind-to core --mca btl self,vader "$out/pingpong" "$lat_max" "$jit_warmup" "$lat_from" \
          > "$out/latency-c-$r.txt" 2> "$out/latency-c-$r.err" || echo "failed: latency-c-$r" >&2
        for variant in arena threads threads-split arena-split; do
          case $variant in
            arena) launch=(--param pvas.partition.size=64m); buf=(--arena);;
            threads) launch=(--threads); buf=();;
            threads-split) launch=(--threads --param pvas.split.min="$lat_from"); buf=();;
            arena-split) launch=(--param pvas.partition.size=64m --param pvas.split.min="$lat_from"); buf=(--arena);;
          esac
          timeout 1800 bin/jmpirun "${launch[@]}" "${extra[@]}" -np 2 --param pvas.stats=true --param pvas.calibration="$out/calibration.properties" \
            "${osu[@]}" "${buf[@]}" \
            > "$out/latency-$variant-$r.txt" 2> "$out/latency-$variant-$r.err" || echo "failed: latency-$variant-$r" >&2
        done;;
      *) echo "unknown part $part (exchange, fig5, fig15, fft2d, latency)" >&2; exit 2;;
    esac
  done
  echo "# round $r done $(date -u +%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
done
cat "$out/load.txt"
if [ "${JFR:-0}" = 1 ]; then
  for r in $(seq 1 "$rounds"); do
    [ -f "$out/exchange-threads-$r.jfr" ] && "$java" -cp "$cp" org.jmpi.bench.report.StallReport "$out/exchange-threads-$r.txt" \
      "$out/exchange-threads-$r.jfr" | tee "$out/stalls-threads-$r.txt"
  done
fi
"$java" -cp "$cp" org.jmpi.bench.report.PvasReport "$out" "$rounds" | tee "$out/report.md"
echo "tables: $out/report.md; plots: $out/exchange.png $out/fig5-threads.png $out/fig5-arena.png; per-path counts: $out/*.err"
