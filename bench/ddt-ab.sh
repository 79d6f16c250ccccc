#!/usr/bin/env bash
# DDTBench patterns, datatype path against the hand-written loop, A/B interleaved in one JVM per pattern
# and size (org.jmpi.bench.ddt.DdtAbRatio): robust to a shared machine, where the JMH forks of the two
# variants run minutes apart. Prints a markdown table: median of per-round ratios (manual time / datatype
# time; above 1 the datatype path is faster) and the best batch of each variant.
# The JVM gets a fixed, pre-touched heap, as DdtBenchmark's forks do (docs/ddtbench.md, "Heap").
# Needs: mvn -B -pl bench -am package -DskipTests (bench/target/benchmarks.jar).
# Usage: bench/ddt-ab.sh [MIDDLE|LARGEST|both] [pattern...]
set -euo pipefail
cd "$(dirname "$0")/.."
jar=bench/target/benchmarks.jar
. bench/java21.sh
sizes=${1:-both}; shift || true
[ "$sizes" = both ] && sizes="MIDDLE LARGEST"
patterns=${*:-WRF_x_vec WRF_y_vec WRF_x_sa WRF_y_sa MILC_su3_zd NAS_MG_x NAS_MG_y NAS_MG_z NAS_LU_x NAS_LU_y FFT SPECFEM3D_mt LAMMPS_full LAMMPS_atomic SPECFEM3D_oc SPECFEM3D_cm}
echo "| pattern | size | pack ratio (p25-p75) | pack datatype / manual us | unpack ratio (p25-p75) | unpack datatype / manual us |"
echo "|---|---|---:|---:|---:|---:|"
for p in $patterns; do
  for s in $sizes; do
    "$java" -Xms1g -Xmx1g -XX:+AlwaysPreTouch --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp "$jar" org.jmpi.bench.ddt.DdtAbRatio "$p" "$s" |
      python3 -c '
import re, sys
pat = r"median ratio ([0-9.]+) +\(p25 ([0-9.]+), p75 ([0-9.]+)\) +best: datatype ([0-9.]+) us, manual ([0-9.]+) us"
cells = []
for l in sys.stdin:
    m = re.search(pat, l)
    if m:
        cells += ["%s (%s-%s)" % m.group(1, 2, 3), "%s / %s" % m.group(4, 5)]
print("| %s | %s | %s |" % (sys.argv[1], sys.argv[2].lower(), " | ".join(cells)))' "$p" "$s"
  done
done
