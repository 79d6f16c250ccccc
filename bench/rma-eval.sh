#!/usr/bin/env bash
# The RMA and coarray evaluation (issue 18, item 6 and the targets; docs/rma.md, "Figures"), one command:
#  1. the mini-apps, each in every version of its exchange (two-sided, rma = get-based, coarray, coarray-nb =
#     nonblocking puts), the versions alternated in rounds within one invocation (--rounds), so load changes hit
#     all alike:
#       Himeno (19-point Jacobi, 2-D process grid) at Himeno's sizes,
#       cg (NPB-CG-like, rows in blocks, p gathered) and cg2d (NPB CG's 2-D process grid: row reduction and
#       transpose exchange) on n^3 rows at NPB-like classes (S n=11: 1,331 rows, W n=19: 6,859, A n=24: 13,824
#       against NPB's 14,000, B n=42: 74,088 against 75,000);
#     at 1, 2, 4 and 8 ranks as threads of one JVM, and at 2 and 4 JVMs with the PVAS arena on
#     (--param pvas.partition.size=...) and without it (shm);
#  2. ExchangeCost (what one halo step costs per version: barrier, fence, syncAll alone; a plane two-sided, by
#     get in a fence epoch, by coarray put and putAsync, strided) at 2 and 4 ranks as threads;
#  3. RmaTargets (put/get latency against the two-sided one-way, 1 MiB put against System.arraycopy, fetch_and_op
#     against a contended AtomicLong) at 2 and 4 ranks as threads and at 2 JVMs through the arena.
# Then bench's RmaReport prints the Markdown tables (median run time and MFLOPS over rounds, the median of the
# per-round ratios to two-sided beside the paper's: Himeno 85% blocking, 89% nonblocking; CG 97%; lines of code
# per version) and writes rma-APP-SIZE.png into PLOTS (default docs/img).
# Needs: mvn -B package -DskipTests done (bench/target/classes, bench/target/lib, the launcher's jars).
# Usage: bench/rma-eval.sh [rounds] [outDir]
#   environment: SIZE = quick (XS Himeno and classes S/W: a check in a few minutes) or full (default: Himeno S and
#   M, classes A and B; about 20-30 minutes on a quiet 2-core machine), or set the lists yourself:
#   HIMENO (sizes, e.g. "S M"), HIMENO_ITERATIONS (per size, e.g. "S:100 M:20"), CG (classes, e.g. "A B"),
#   CG_SOLVES (outer iterations per class, "class:count ...", default NPB's own: "S:15 W:15 A:15 B:75 C:75" for cg2d,
#   NPB CG's scheme; quick: 3 each), CG1D_SOLVES (the same for the 1-D cg, default "S:15 W:15 A:15 B:15 C:15": it meets
#   its target by far at every length, and at 75 it would double the eval's time), THREADS (rank counts as threads, default "1 2 4 8"), JVMS (default "2 4"),
#   FORMS (JVM forms, default "arena heap"), PARTITION (arena partition per rank, default 256m),
#   APPS (default "himeno cg cg2d costs targets"), ADDS (RmaTargets fetch_and_ops per rank, default 2000000),
#   PLOTS (where the PNGs go, default docs/img).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
out=${2:-bench/target/rma-eval}
mkdir -p "$out"
source bench/java21.sh
cp='bench/target/classes:bench/target/lib/*'
size=${SIZE:-full}
case $size in
  quick) himeno_default="XS"; iterations_default="XS:60"; cg_default="S W"; solves_default="S:3 W:3"; solves1d_default="S:3 W:3";;
  full) himeno_default="S M"; iterations_default="XS:60 S:100 M:20"; cg_default="A B"; solves_default="S:15 W:15 A:15 B:75 C:75"
    solves1d_default="S:15 W:15 A:15 B:15 C:15";;
  *) echo "SIZE is quick or full, not $size" >&2; exit 2;;
esac
himeno=${HIMENO:-$himeno_default}
himeno_iterations=${HIMENO_ITERATIONS:-$iterations_default}
cg=${CG:-$cg_default}
cg_solves=${CG_SOLVES:-$solves_default}
cg1d_solves=${CG1D_SOLVES:-$solves1d_default}
threads=${THREADS:-1 2 4 8}
jvms=${JVMS:-2 4}
forms=${FORMS:-arena heap}
partition=${PARTITION:-256m}
apps=${APPS:-himeno cg cg2d costs targets}
adds=${ADDS:-2000000}
plots=${PLOTS:-docs/img}
n_of() { case $1 in S) echo 11;; W) echo 19;; A) echo 24;; B) echo 42;; C) echo 53;; *) echo "class $1: S, W, A, B or C" >&2; exit 2;; esac; }
iterations_of() { # size
  local entry
  for entry in $himeno_iterations; do [ "${entry%%:*}" = "$1" ] && { echo "${entry#*:}"; return; }; done
  echo 100
}
solves_of() { # "class:count ..." class: NPB's outer iterations of a CG class (a bare number: for every class)
  local entry
  for entry in $1; do
    case $entry in *:*) [ "${entry%%:*}" = "$2" ] && { echo "${entry#*:}"; return; };; *) echo "$entry"; return;; esac
  done
  echo 15
}
run() { # label np jmpirun-options... -- class args...
  local label=$1 np=$2; shift 2
  local launch=()
  while [ "$1" != -- ]; do launch+=("$1"); shift; done
  shift
  echo "# $(date -u +%TZ) $label (load $(cut -d' ' -f1-3 /proc/loadavg))" >> "$out/load.txt"
  timeout 3600 bin/jmpirun "${launch[@]}" -np "$np" -cp "$cp" "$@" < /dev/null > "$out/$label.txt" 2> "$out/$label.err" \
    || echo "failed: $label (see $out/$label.err)" >&2
}
layouts() { # every layout as "label np options..." lines
  local n form
  for n in $threads; do echo "threads $n --threads"; done
  for form in $forms; do
    for n in $jvms; do
      if [ "$form" = arena ]; then echo "arena $n --param pvas.partition.size=$partition"; else echo "heap $n"; fi
    done
  done
}
echo "# $(date -u +%FT%TZ) rma-eval: SIZE=$size rounds=$rounds" > "$out/load.txt"
for app in $apps; do
  case $app in
    himeno)
      for s in $himeno; do
        while read -r form n opts; do
          # shellcheck disable=SC2086 # opts is a list of options
          run "himeno-$s-$form-$n" "$n" $opts -- org.jmpi.bench.rma.Himeno --size "$s" --iterations "$(iterations_of "$s")" --rounds "$rounds"
        done < <(layouts)
      done;;
    cg|cg2d)
      class=org.jmpi.bench.rma.ConjugateGradient
      solves=$cg1d_solves
      [ "$app" = cg2d ] && { class=org.jmpi.bench.rma.ConjugateGradient2D; solves=$cg_solves; }
      for c in $cg; do
        while read -r form n opts; do
          # shellcheck disable=SC2086
          run "$app-$c-$form-$n" "$n" $opts -- "$class" --n "$(n_of "$c")" --solves "$(solves_of "$solves" "$c")" --rounds "$rounds"
        done < <(layouts)
      done;;
    costs)
      for n in 2 4; do
        run "costs-threads-$n" "$n" --threads -- org.jmpi.bench.rma.ExchangeCost --rounds "$rounds"
      done;;
    targets)
      for n in 2 4; do
        run "targets-threads-$n" "$n" --threads -- org.jmpi.bench.rma.RmaTargets --rounds "$rounds" --adds "$adds"
      done
      # unbound: bound, each JVM has one CPU, and the AtomicLong baseline's threads (in rank 0's JVM) would take turns on
      # it instead of contending from two CPUs as the two ranks do
      run "targets-arena-2" 2 --bind-to none --param pvas.partition.size="$partition" -- org.jmpi.bench.rma.RmaTargets --rounds "$rounds" --adds "$adds";;
    *) echo "unknown app $app (himeno, cg, cg2d, costs, targets)" >&2; exit 2;;
  esac
done
echo "# $(date -u +%TZ) done (load $(cut -d' ' -f1-3 /proc/loadavg))" >> "$out/load.txt"
cat "$out/load.txt"
mkdir -p "$plots"
"$java" -cp "$cp" org.jmpi.bench.report.RmaReport "$out" "$plots" | tee "$out/report.md"
echo "tables: $out/report.md; plots: $plots/rma-*.png; logs: $out/*.err"
