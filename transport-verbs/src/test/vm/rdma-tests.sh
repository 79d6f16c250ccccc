#!/usr/bin/env bash
# Runs the rdma test set inside the soft-RoCE VM (started by .ci/rdma-smoke.sh, which builds the jars and the
# class path on the host first: Maven under emulation would rebuild the reactor).
#   rdma-tests.sh smoke     the bindings, remote memory, the light cases of the transport contract (what CI runs)
#   rdma-tests.sh contract  the whole transport contract (2, 3 and 5 ranks)
#   rdma-tests.sh axis      core's point-to-point, one-sided and collective suites with every peer on verbs
#   rdma-tests.sh full      smoke, contract, axis
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
    org.jmpi.transport.verbs.VerbsRemoteMemoryTest "$contract#shouldReachEveryPeer(int)" \
    "$contract#shouldRefuseOffersUnderBackPressureAndDeliverEverythingOnceAfterDraining" \
    "$contract#shouldSendNothingWhenTheWriterThrows" "$contract#shouldReturnZeroFromProgressWhenIdle(int)"
}
contract() {
  run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "$contract"
}
axis() {
  run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -cp "$cp" org.jmpi.transport.verbs.VmTestRunner \
    'pattern:org\.jmpi\.PointToPoint.*Test' 'pattern:org\.jmpi\.internal\.pt2pt\..*Test' 'pattern:org\.jmpi\.internal\.rma\..*Test' \
    'pattern:org\.jmpi\.coll\.CollectivesTest'
}
case "${1:-smoke}" in
  smoke) smoke ;;
  full) smoke; contract; axis ;;
  contract) contract ;;
  axis) axis ;;
  *) run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "$@" ;;
esac
