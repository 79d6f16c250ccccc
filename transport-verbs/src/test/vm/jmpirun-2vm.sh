#!/usr/bin/env bash
# jmpirun jobs across the two soft-RoCE VMs of `rxe-vm-run.sh --nodes 2` (rxevm0 = 192.168.77.1, rxevm1 = .2),
# one rank per VM, so verbs is chosen for the peer by the usual rule (another node), not forced:
#   PointToPointTour and CollectiveSelfCheck at 2 ranks (each rank's transports.show line must say verbs),
#   KillMidTransfer (rank 1 on rxevm1 kill -9s itself in the middle of 4 MiB RDMA exchanges) and KillOneRank
#   (rank 1 killed while rank 0 waits): the job must end non-zero naming rank 1; the time from the kill to jmpirun's
#   end is reported (rxevm1's clock corrected by the offset measured right after the job: under TCG the two guests'
#   clocks drift apart by minutes on a loaded host): over 5 s is reported SLOW (both VMs crawl there), over 30 s fails.
# The VMs have no ssh: node 1 serves VmExecAgent (test tooling, docs/verbs.md "Two VMs"), node 0 runs jmpirun
# with `--launch-agent 'java ... VmExecAgent --port P'`. Run by `.ci/rdma-smoke.sh 2vm` (and `full`), which
# builds everything on the host first. Exit 1 on any miss.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
root=$(cd "$module/.." && pwd)
: "${RXE_NODE:?run through rxe-vm-run.sh --nodes 2}" "${JAVA_HOME:?}"
port=7700
java=$JAVA_HOME/bin/java
agent_cp=$module/target/test-classes
log() { echo "jmpirun-2vm: $*"; }

if [ "$RXE_NODE" = 1 ]; then
  # Serve until node 0 sends --shutdown (the VM's own timeout bounds it).
  exec "$java" -cp "$agent_cp" org.jmpi.transport.verbs.VmExecAgent --serve "$port"
fi

agent=(-cp "$agent_cp" org.jmpi.transport.verbs.VmExecAgent --port "$port")
peer=rxevm1
for i in $(seq 1 240); do
  "$java" "${agent[@]}" "$peer" /bin/true 2>/dev/null && break
  [ "$i" = 240 ] && { log "FAILED: no agent on $peer after 240 tries"; exit 1; }
  sleep 1
done
log "agent on $peer answers; rxe0 here: $(ibv_devinfo -d rxe0 | grep -m1 state)"
offset=$("$java" "${agent[@]}" "$peer" --clock) || offset=0
log "$peer's clock minus this one's: $offset ms"

cp="$root/examples/target/jmpi-examples-0.1.0-SNAPSHOT.jar:$module/target/test-classes"
failed=0
# Emulation is slow: generous handshake, init and heartbeat limits (the heartbeat only matters for a silent
# host; a killed rank is seen through its agent's exit).
base=(--host rxevm0,rxevm1 -np 2 --launch-agent "$java ${agent[*]}" --param transports.show=true
      --param bootstrap.handshake.timeout=120000 --param init.timeout=300000 --param bootstrap.heartbeat.timeout=60000)
verbs_both() { # every rank's peer line says verbs to the other
  [ "$(grep -cE 'jmpi: rank [01] on node rxevm[01]: peers [01]=\w+ [01]=verbs|jmpi: rank [01] on node rxevm[01]: peers [01]=verbs [01]=\w+' <<< "$1")" = 2 ]
}
job() { # expected-text timeout main args...
  local want=$1 limit=$2 out rc start; shift 2
  start=$(date +%s)
  out=$("$root/bin/jmpirun" "${base[@]}" --timeout "$limit" -cp "$cp" "$@" 2>&1); rc=$?
  printf '%s\n' "$out" | grep -E 'jmpi: rank|OK|FAIL|rror' | tail -10
  if [[ $rc -ne 0 || "$out" != *"$want"* ]] || ! verbs_both "$out"; then
    printf '%s\n' "$out" | tail -30; log "FAILED (rc=$rc, wanted '$want' and verbs both ways): $*"; failed=1
  else log "OK ($(( $(date +%s) - start )) s): $*"; fi
}
# jmpirun's --timeout runs on rxevm0's clock, which under TCG on a loaded host ran several times faster than the
# host's: generous limits here, the VM's own timeout (host clock) bounds the run.
job "" 3600 org.jmpi.examples.PointToPointTour
job "collectives OK (2 ranks)" 3600 org.jmpi.examples.coll.CollectiveSelfCheck

kill_job() { # main: rank 1 (on rxevm1) kills itself; the job must end non-zero naming it within 5 s
  local out rc end killed
  out=$("$root/bin/jmpirun" "${base[@]}" --timeout 1200 -cp "$cp" "$@" 1 2>&1); rc=$?
  end=$(date +%s%3N)
  printf '%s\n' "$out" | tail -8
  killed=$(sed -n 's/.*kill.* at \([0-9]*\).*/\1/p' <<< "$out" | head -1)
  # The kill time is rxevm1's clock, the end rxevm0's: corrected by the offset measured now (the clocks drift).
  offset=$("$java" "${agent[@]}" "$peer" --clock) || offset=0
  if [[ $rc -ne 0 && "$out" == *"rank 1"* && -n "$killed" ]]; then
    local took=$(( end - (killed - offset) ))
    log "OK: $1 ended $took ms after the kill (rc=$rc; clock offset $offset ms)"
    (( took < 5000 )) || log "SLOW: $1: more than 5 s"
    (( took < 30000 )) || { log "FAILED: $1: more than 30 s"; failed=1; }
  else
    log "FAILED: $1 (rc=$rc)"; failed=1
  fi
}
kill_job org.jmpi.transport.verbs.KillMidTransfer
kill_job org.jmpi.examples.KillOneRank

"$java" "${agent[@]}" "$peer" --shutdown || true
exit $failed
