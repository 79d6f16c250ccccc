#!/usr/bin/env bash
# Starts a private single-host Slurm for jmpi's tests: munged, slurmctld and slurmd from Debian's
# packages (slurm-wlm, munge; installed here if missing, which needs root), with every file under one
# state directory and ports of their own, so a Slurm already on the machine is neither used nor disturbed.
#
# Usage: slurm-up.sh STATE_DIR [CTLD_PORT]
#   Writes STATE_DIR/slurm.conf and STATE_DIR/env (source it: SLURM_CONF and PATH for srun/salloc),
#   starts the daemons, and waits (at most 60 s) until the node answers "idle". slurm-down.sh STATE_DIR
#   stops them. Exit codes: 0 up, 2 not root, 3 packages missing and not installable, 1 anything else.
#   The node has 8 CPUs whatever the machine has (SlurmdParameters=config_overrides), so a
#   4-rank step fits on a 2-vCPU machine.
# Needs root (slurmd starts steps as the submitting user; munged runs with --force as root).
set -euo pipefail
state=$(realpath -m "${1:?usage: slurm-up.sh STATE_DIR [CTLD_PORT]}")
ctld_port=${2:-26817}
slurmd_port=$((ctld_port + 1))
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-up: needs root (slurmd and munged)" >&2; exit 2
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >/dev/null; then
    echo "slurm-up: cannot install slurm-wlm and munge (apt-get failed)" >&2; exit 3
  fi
fi
node=$(hostname -s)
mkdir -p "$state"/{munge,ctld,spool,log}
chmod 700 "$state/munge"
if [ ! -s "$state/munge/munge.key" ]; then
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
fi
socket=$state/munge/munge.socket
munged --force --key-file="$state/munge/munge.key" --socket="$socket" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/log/munged.log" --seed-file="$state/munge/seed"

cat > "$state/slurm.conf" <<CONF
# Written by launcher/src/test/slurm/slurm-up.sh for jmpi's tests: one node, this host.
ClusterName=jmpitest
SlurmctldHost=$node
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=10
NodeName=$node CPUs=8 RealMemory=1000 State=UNKNOWN
PartitionName=jmpi Nodes=$node Default=YES MaxTime=30 State=UP OverSubscribe=YES
CONF
cat > "$state/env" <<ENV
export SLURM_CONF=$state/slurm.conf
ENV
export SLURM_CONF=$state/slurm.conf
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
    echo "slurm-up: node $node idle (SLURM_CONF=$SLURM_CONF)"
    exit 0
  fi
  sleep 1
done
echo "slurm-up: the node did not become idle within 60 s; logs in $state/log" >&2
sinfo -N -l >&2 || true
exit 1
