#!/usr/bin/env bash
# Runs the rdma test set inside the soft-RoCE VM (started by .ci/rdma-smoke.sh, which builds the jars and the
# class path on the host first: Maven under emulation would rebuild the reactor).
#   rdma-tests.sh smoke     the bindings, remote memory, the light cases of the transport contract (what CI runs)
#   rdma-tests.sh contract  the whole transport contract (2, 3 and 5 ranks)
#   rdma-tests.sh axis [PATTERN..]  core's point-to-point, one-sided and collective suites with every peer on verbs
#                           (or only the classes named: CLASS, CLASS#method or pattern:REGEX)
#   rdma-tests.sh jmpirun   real multi-JVM jobs through bin/jmpirun forced onto verbs, and a killed rank (jmpirun-verbs.sh)
#   rdma-tests.sh full      smoke, contract, axis, jmpirun (each runs even when an earlier one failed)
#   rdma-tests.sh bench     perftest's ib_send_lat and ib_write_bw, then VerbsFrameBench (transport frames)
#   rdma-tests.sh rndv-bench [ITERATIONS [SIZES..]]  rendezvous by RDMA read against write (RdmaRendezvousBench)
#   rdma-tests.sh CLASS.. the named test classes (or pattern:REGEX)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
root=$(cd "$module/.." && pwd)
: "${JAVA_HOME:?JAVA_HOME must name a JDK 21+ (the host /usr/lib/jvm is shared into the VM)}"
[ -f "$module/target/test-classpath" ] || { echo "rdma-tests.sh: $module/target/test-classpath missing: run .ci/rdma-smoke.sh (it builds on the host)" >&2; exit 2; }
flags=(--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -ea -Xss1m -Xmx1g
       "-Djmpi.test.jvmFlags=--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED")
cp="$module/target/test-classes:$module/target/classes:$root/native/target/test-classes:$(cat "$module/target/test-classpath")"
run() { echo "rdma-tests.sh: $*" >&2; (cd "$module" && "$JAVA_HOME/bin/java" "${flags[@]}" "$@"); }
contract=org.jmpi.transport.verbs.VerbsTransportContractTest
smoke() {
  run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner org.jmpi.transport.verbs.ibv.VerbsLoopbackTest \
    org.jmpi.transport.verbs.VerbsRemoteMemoryTest org.jmpi.transport.verbs.VerbsStagedMemoryTest \
    org.jmpi.transport.verbs.VerbsDeadPeerTest "$contract#shouldReachEveryPeer(int)" \
    "$contract#shouldRefuseOffersUnderBackPressureAndDeliverEverythingOnceAfterDraining" \
    "$contract#shouldSendNothingWhenTheWriterThrows" "$contract#shouldReturnZeroFromProgressWhenIdle(int)"
}
contract() {
  run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "$contract"
}
axis() {
  local selected=("$@")
  [ ${#selected[@]} -gt 0 ] || selected=('pattern:org\.jmpi\.PointToPoint.*Test' 'pattern:org\.jmpi\.internal\.pt2pt\..*Test' \
    'pattern:org\.jmpi\.internal\.rma\..*Test' 'pattern:org\.jmpi\.coll\.CollectivesTest')
  run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "${selected[@]}"
}
bench() {
  # perftest and jmpi's frames on the same device in the same VM session (docs/verbs.md, "Figures").
  for t in "ib_send_lat -n 2000" "ib_write_bw -D 4"; do
    $t -d "${RXE_DEV:-rxe0}" -x 1 >/tmp/perftest-server.log 2>&1 & server=$!
    sleep 1.5
    echo "== $t"; $t -d "${RXE_DEV:-rxe0}" -x 1 "${RXE_IP:-127.0.0.1}" 2>&1 | grep -A1 -E '#bytes' | tail -1
    wait $server || true
  done
  run -cp "$cp" org.jmpi.transport.verbs.VerbsFrameBench "$@"
}
case "${1:-smoke}" in
  smoke) smoke ;;
  full) status=0; smoke || status=1; contract || status=1; axis || status=1; "$here/jmpirun-verbs.sh" || status=1; exit $status ;;
  jmpirun) "$here/jmpirun-verbs.sh" ;;
  contract) contract ;;
  bench) shift; bench "$@" ;;
  axis) shift; axis "$@" ;;
  rndv-bench) shift; run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -cp "$cp" org.jmpi.transport.verbs.RdmaRendezvousBench "$@" ;;
  *) run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "$@" ;;
esac
