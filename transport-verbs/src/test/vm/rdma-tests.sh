#!/usr/bin/env bash
# Runs the rdma test set inside the soft-RoCE VM (started by .ci/rdma-smoke.sh, which builds the jars and the
# class path on the host first: Maven under emulation would rebuild the reactor).
#   rdma-tests.sh smoke     the bindings, remote memory, the light cases of the transport contract (what CI runs)
#   rdma-tests.sh contract  the whole transport contract (2, 3 and 5 ranks)
#   rdma-tests.sh axis [PATTERN..]  core's point-to-point, one-sided and collective suites with every peer on verbs
#                           (or only the classes named: CLASS, CLASS#method or pattern:REGEX)
#   rdma-tests.sh jmpirun   real multi-JVM jobs through bin/jmpirun forced onto verbs, and a killed rank (jmpirun-verbs.sh)
#   rdma-tests.sh full      smoke, contract, axis, jmpirun (each runs even when an earlier one failed)
#   rdma-tests.sh bench [ROUNDS]  perftest's ib_send_lat and ib_write_bw against VerbsMpiBench (MPI level), ratios
#   rdma-tests.sh frame-bench [ARGS]  VerbsFrameBench (the transport's frames, no MPI)
#   rdma-tests.sh rndv-bench [ITERATIONS [SIZES..]]  rendezvous by RDMA read against write (RdmaRendezvousBench)
#   rdma-tests.sh lat-ab [ROUNDS]  where the 8 B latency goes: ib_send_lat, transport frames (VerbsFrameBench), MPI with
#                           the default idle strategy, and MPI spinning only (jmpi.idle.spins past the run), alternating
#   rdma-tests.sh putget-bench [RANKS..]  put- and get-based broadcast against the model calibrated on the device (PutGetBcastBench)
#   rdma-tests.sh lat-warm [ROUNDS [WARMUP [TIMED]]]  the 8 B latency with C2 in place (long warm-up, compilations in the timed
#                           loop counted) and a JFR breakdown of the round trip, beside ib_send_lat
#   rdma-tests.sh putget-choice [RANKS..]  the calibration PutGetBcastBench writes, fed to core's persistent bcast between JVMs
#                           (jmpirun, every peer on verbs): put, get, and auto with jmpi.coll.persistent.calibration.remote
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
    org.jmpi.transport.verbs.VerbsDeadPeerTest org.jmpi.transport.verbs.VerbsConnectTest org.jmpi.transport.verbs.VerbsScatterGatherTest \
    "$contract#shouldReachEveryPeer(int)" \
    "$contract#shouldRefuseOffersUnderBackPressureAndDeliverEverythingOnceAfterDraining" \
    "$contract#shouldSendNothingWhenTheWriterThrows" "$contract#shouldReturnZeroFromProgressWhenIdle(int)"
}
contract() {
  run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "$contract"
}
axis() {
  local selected=("$@")
  [ ${#selected[@]} -gt 0 ] || selected=('pattern:org\.jmpi\.PointToPoint.*Test' 'pattern:org\.jmpi\.internal\.pt2pt\..*Test' \
    'pattern:org\.jmpi\.internal\.rma\..*Test' 'pattern:org\.jmpi\.coll\.(Reduction)?CollectivesTest')
  run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "${selected[@]}"
}
perftest() { # TOOL ARGS...: server and client on rxe0 in this VM; prints the client's result line
  local tool=$1; shift
  "$tool" -d "${RXE_DEV:-rxe0}" -x 1 "$@" >/tmp/perftest-server.log 2>&1 & local server=$!
  sleep 1.5
  "$tool" -d "${RXE_DEV:-rxe0}" -x 1 "$@" "${RXE_IP:-127.0.0.1}" 2>&1 | grep -A1 -E '#bytes' | tail -1
  wait $server || true
}
bench() {
  # perftest and jmpi on the same device in the same VM session, alternating ROUNDS times (docs/verbs.md, "Figures"):
  # ib_send_lat against MPI ping-pong at 8 B, ib_write_bw against MPI windows of isends at each size.
  local rounds=${1:-1} sizes=(65536 1048576 4194304) r s line
  for r in $(seq 1 "$rounds"); do
    line=$(perftest ib_send_lat -s 8 -n 2000); echo "perftest lat 8 B: $line"
    line=$(perftest ib_write_lat -s 8 -n 2000); echo "perftest write_lat 8 B: $line"
    line=$(perftest ib_read_lat -s 8 -n 2000); echo "perftest read_lat 8 B: $line"
    # A fixed amount (64 MiB, at least 20 messages) rather than -D: under load a 4 s run completed no 4 MiB message.
    for s in "${sizes[@]}"; do
      line=$(perftest ib_write_bw -s "$s" -n $(( 67108864 / s > 20 ? 67108864 / s : 20 ))); echo "perftest bw $s B: $line"
    done
    run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -cp "$cp" org.jmpi.transport.verbs.VerbsMpiBench 2000 8 "${sizes[@]}"
  done 2>&1 | tee /tmp/bench.log
  # Ratios per round: perftest lat line "bytes iters t_min t_max t_typical t_avg ...", bw line "bytes iters peak average ...".
  awk '/^perftest lat/ { typ = $9; avg = $10 }
       /^perftest bw/ { pbw[$3] = $8 }
       /^mpi lat 8 B/ { gsub(",", ""); mean = $8; p50 = $11
                    printf "ratio lat 8 B: jmpi mean / ib_send_lat t_avg = %.2f, jmpi p50 / t_typical = %.2f\n", mean / avg, p50 / typ }
       /^mpi bw/ { gsub(":", ""); if (pbw[$3] > 0) printf "ratio bw %s B: jmpi / ib_write_bw = %.2f\n", $3, $5 / pbw[$3] }
       /^mpi strided bw/ { gsub(":", ""); st[$6] = $7; if ($6 == "packed" && st["lists"] > 0)
                           printf "ratio strided bw %s B: lists / packed = %.2f, lists / ib_write_bw = %.2f\n", $4, st["lists"] / $7, st["lists"] / pbw[$4] }' /tmp/bench.log
}
lat_ab() {
  local rounds=${1:-1} r
  for r in $(seq 1 "$rounds"); do
    echo "perftest lat 8 B: $(perftest ib_send_lat -s 8 -n 2000)"
    run -cp "$cp" org.jmpi.transport.verbs.VerbsFrameBench 2000 1048576 | grep -i -E 'latency|ping|one way' || true
    run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -Dverbs.bench.contiguous=true -cp "$cp" org.jmpi.transport.verbs.VerbsMpiBench 2000 2 65536 \
      | sed 's/^mpi /mpi default idle: /'
    run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -Dverbs.bench.contiguous=true -Djmpi.idle.spins=2000000000 -cp "$cp" \
      org.jmpi.transport.verbs.VerbsMpiBench 2000 2 65536 | sed 's/^mpi /mpi spin only: /'
    run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -Dverbs.bench.contiguous=true -Djmpi.idle.spins=2000000000       -XX:TieredStopAtLevel=1 -cp "$cp" org.jmpi.transport.verbs.VerbsMpiBench 2000 2 65536 | sed 's/^mpi /mpi spin only, C1 only: /'
  done 2>&1 | grep -v '^WARNING'
}
lat_warm() {
  # The 8 B latency once the JIT is done (docs/verbs.md, "Warm"): ib_send_lat, then VerbsMpiBench with WARMUP warm-up
  # round trips before TIMED timed ones, -XX:+PrintCompilation (compilations inside the timed loop are counted) and a JFR
  # recording of the timed loop broken down by jfr-breakdown.awk; ROUNDS times, perftest again at the end.
  local rounds=${1:-1} warm=${2:-20000} timed=${3:-5000} r out=${LAT_WARM_OUT:-/tmp}/lat-warm
  echo "perftest lat 8 B: $(perftest ib_send_lat -s 8 -n 20000)"
  for r in $(seq 1 "$rounds"); do
    # The VM's output (PrintCompilation) to stderr, apart from the bench's lines; the markers carry the JVM's uptime, the
    # time base of PrintCompilation's first column.
    run -XX:+PrintCompilation -XX:+DisplayVMOutputToStderr -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -Dverbs.bench.contiguous=true \
      -Dverbs.bench.warmup="$warm" -Dverbs.bench.jfr=/tmp/lat-warm-$r.jfr -cp "$cp" org.jmpi.transport.verbs.VerbsMpiBench "$timed" 1 65536 \
      > "$out-$r.out" 2> "$out-$r.jit" || { tail -20 "$out-$r.out" "$out-$r.jit"; return 1; }
    grep '^mpi lat' "$out-$r.out"
    local from to
    from=$(sed -n 's/^mpi lat timed phase begins at \([0-9]*\) ms/\1/p' "$out-$r.out"); to=$(sed -n 's/^mpi lat timed phase ends at \([0-9]*\) ms/\1/p' "$out-$r.out")
    awk -v from="$from" -v to="$to" '/::/ && $1 + 0 >= from + 0 && $1 + 0 <= to + 0 {
           n++; if ($0 ~ /^ *[0-9]+ +[0-9]+ +[ %sbn!]* 4 /) c2++; if (shown++ < 12) print "  compiled in the timed loop:" $0 }
         END { printf "compilations during the timed loop (%d-%d ms of uptime): %d (C2: %d)\n", from, to, n, c2 }' "$out-$r.jit"
    "$JAVA_HOME/bin/jfr" print --stack-depth 64 --events jdk.ExecutionSample,jdk.NativeMethodSample "/tmp/lat-warm-$r.jfr" | awk -v threads=jmpi-rank- -f "$here/jfr-breakdown.awk"
    echo "perftest lat 8 B: $(perftest ib_send_lat -s 8 -n 20000)"
  done 2>&1 | grep -v '^WARNING'
}
putget_choice() {
  # 1. Calibrate on the device (t_put, t_get; t_sync at each P) into a file; 2. per P, core's persistent bcast between JVMs
  # under put, get and auto fed that file (docs/verbs.md, "Put/get broadcast on the device"): does auto pick the faster?
  local ranks=("$@") p schedule calibration=/tmp/verbs-putget-calibration.properties
  [ ${#ranks[@]} -gt 0 ] || ranks=(2 4)
  run -Dverbs.bench.calibration.out="$calibration" -cp "$cp" org.jmpi.transport.verbs.PutGetBcastBench "${ranks[@]}"
  cat "$calibration"
  for p in "${ranks[@]}"; do
    for schedule in put get auto; do
      "$root/bin/jmpirun" --param transports=verbs,jvm --param bootstrap.handshake.timeout=120000 --param init.timeout=300000 \
        --param coll.persistent.schedule=$schedule --param coll.persistent.calibration.remote="$calibration" --timeout 900 \
        -np "$p" -cp "$module/target/test-classes" org.jmpi.transport.verbs.VerbsPersistentBcastJob 2>&1 | grep -E '^persistent bcast|rror|xception' \
        | sed "s/^/asked $schedule: /"
    done
  done
}
case "${1:-smoke}" in
  smoke) smoke ;;
  full) status=0; smoke || status=1; contract || status=1; axis || status=1; "$here/jmpirun-verbs.sh" || status=1; exit $status ;;
  jmpirun) "$here/jmpirun-verbs.sh" ;;
  contract) contract ;;
  bench) shift; bench "$@" ;;
  frame-bench) shift; run -cp "$cp" org.jmpi.transport.verbs.VerbsFrameBench "$@" ;;
  axis) shift; axis "$@" ;;
  lat-ab) shift; lat_ab "$@" ;;
  putget-choice) shift; putget_choice "$@" ;;
  lat-warm) shift; lat_warm "$@" ;;
  putget-bench) shift; run -cp "$cp" org.jmpi.transport.verbs.PutGetBcastBench "$@" ;;
  rndv-bench) shift; run -Djmpi.transports=verbs,jvm -Djmpi.jvm.isolate=true -cp "$cp" org.jmpi.transport.verbs.RdmaRendezvousBench "$@" ;;
  *) run -cp "$cp" org.jmpi.transport.verbs.VmTestRunner "$@" ;;
esac
