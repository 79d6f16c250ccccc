#!/usr/bin/env bash
# Real multi-JVM jobs through bin/jmpirun in the soft-RoCE VM with every peer forced onto verbs
# (--param transports=verbs,jvm): the examples' Demo and PointToPointTour at 2 ranks, CollectiveSelfCheck at
# 2 and 4, and KillOneRank (a rank kill -9s itself mid-job: the job must end, naming it, within 5 s).
# Needs the launcher and examples built on the host (.ci/rdma-smoke.sh full builds them). Exit 1 on any miss.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
root=$(cd "$module/.." && pwd)
# The launcher's lib/ ships transport-verbs, jmpi-native and JNA: only the examples go on -cp.
cp="$root/examples/target/jmpi-examples-0.1.0-SNAPSHOT.jar"
failed=0
# Emulation is slow: the launcher's 5 s handshake limit turned JVMs away while they were still starting.
slow=(--param transports=verbs,jvm --param bootstrap.handshake.timeout=120000 --param init.timeout=300000)
job() { # expected-text timeout args...
  local want=$1 limit=$2; shift 2
  local out rc
  out=$("$root/bin/jmpirun" "${slow[@]}" --timeout "$limit" "$@" 2>&1); rc=$?
  printf '%s\n' "$out" | tail -8
  if [[ $rc -ne 0 || "$out" != *"$want"* ]]; then echo "jmpirun-verbs: FAILED (rc=$rc, wanted '$want'): $*"; failed=1; else echo "jmpirun-verbs: OK: $*"; fi
}
job "demo done" 600 -np 2 -cp "$cp" org.jmpi.examples.Demo
info=$("$root/bin/jmpirun" --info -np 2 --param transports=verbs,jvm 2>&1)
if grep -q 'here: .*rxe0.*PORT_ACTIVE' <<< "$info" && grep -q ': 0=jvm 1=verbs' <<< "$info"; then echo "jmpirun-verbs: OK: --info shows rxe0 and verbs to the peer"
else printf '%s\n' "$info" | grep -A3 '  verbs'; printf '%s\n' "$info" | grep 'rank 0'; echo "jmpirun-verbs: FAILED: --info"; failed=1; fi
job "collectives OK (2 ranks)" 600 -np 2 -cp "$cp" org.jmpi.examples.coll.CollectiveSelfCheck
job "collectives OK (4 ranks)" 900 -np 4 -cp "$cp" org.jmpi.examples.coll.CollectiveSelfCheck
job "" 600 -np 2 -cp "$cp" org.jmpi.examples.PointToPointTour
out=$("$root/bin/jmpirun" "${slow[@]}" --timeout 120 -np 2 -cp "$cp" org.jmpi.examples.KillOneRank 1 2>&1); rc=$?
end=$(date +%s%3N)
printf '%s\n' "$out" | tail -8
killed=$(sed -n 's/.*kills itself at \([0-9]*\).*/\1/p' <<< "$out" | head -1)
if [[ $rc -ne 0 && "$out" == *"rank 1"* && -n "$killed" ]]; then
  echo "jmpirun-verbs: OK: KillOneRank ended $(( end - killed )) ms after the kill (rc=$rc)"
  (( end - killed < 5000 )) || { echo "jmpirun-verbs: FAILED: more than 5 s"; failed=1; }
else
  echo "jmpirun-verbs: FAILED: KillOneRank (rc=$rc)"; failed=1
fi
exit $failed
