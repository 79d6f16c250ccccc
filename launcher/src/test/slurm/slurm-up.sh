#!/usr/bin/env bash
# Starts a private Slurm for jmpi's tests: munged, slurmctld and slurmd from Debian's packages (slurm-wlm,
# munge; installed here if missing, which needs root), with every file under one state directory and ports
# of their own, so a Slurm already on the machine is neither used nor disturbed.
#
# Usage: slurm-up.sh STATE_DIR [CTLD_PORT] [NODES]
#   NODES = 1 (the default): one node, this host, slurmctld and slurmd in the host's network.
#   NODES = 2: two nodes, each a network namespace of its own joined by one veth pair (private 10.216.x
#     addresses that exist only in them), with its own host name (a UTS namespace), address, slurmd
#     (`slurmd -N`), spool directory, pid and log file; slurmctld runs in the first node's namespace, which
#     is the cluster's login node: run srun, salloc, sbatch there (STATE_DIR/login does it). The node names
#     resolve inside the namespaces through /etc/netns/NS/hosts, bound over /etc/hosts there (by
#     `ip netns exec` for the login node's commands, by a mount namespace of its own for each slurmd).
#   Writes STATE_DIR/slurm.conf, STATE_DIR/env (source it: SLURM_CONF) and STATE_DIR/login (`login CMD...`
#   runs CMD where the cluster's commands work, with SLURM_CONF set), starts the daemons, and waits (at
#   most 60 s) until every node answers "idle". slurm-down.sh STATE_DIR stops them and removes the
#   namespaces. Exit codes: 0 up, 2 not root, 3 packages missing and not installable, 1 anything else.
#   Each node has 8 CPUs whatever the machine has (SlurmdParameters=config_overrides), so a 4-rank step
#   fits on a 2-vCPU machine.
# Needs root (slurmd starts steps as the submitting user; munged runs with --force as root; namespaces).
set -euo pipefail
state=$(realpath -m "${1:?usage: slurm-up.sh STATE_DIR [CTLD_PORT] [NODES]}")
ctld_port=${2:-26817}
nodes=${3:-1}
slurmd_port=$((ctld_port + 1))
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-up: needs root (slurmd and munged)" >&2; exit 2
fi
case "$nodes" in
  1|2) ;;
  *) echo "slurm-up: NODES must be 1 or 2, not $nodes" >&2; exit 1 ;;
esac
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
   { [ "$nodes" -gt 1 ] && { ! command -v ip >/dev/null || ! command -v unshare >/dev/null || ! command -v nsenter >/dev/null; }; }; then
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge iproute2 util-linux >/dev/null; then
    echo "slurm-up: cannot install slurm-wlm, munge and iproute2 (apt-get failed)" >&2; exit 3
  fi
fi
mkdir -p "$state"/{munge,ctld,spool,log}
chmod 700 "$state/munge"
if [ ! -s "$state/munge/munge.key" ]; then
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
fi
socket=$state/munge/munge.socket
munged --force --key-file="$state/munge/munge.key" --socket="$socket" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/log/munged.log" --seed-file="$state/munge/seed"

ctld_host=$(hostname -s)
if [ "$nodes" -eq 1 ]; then
  node_names=("$ctld_host")
  node_lines="NodeName=$ctld_host CPUs=8 RealMemory=1000 State=UNKNOWN"
  ctld_addr=""
  login=()
else
  # Two namespaces (names from the port, so clusters of concurrent test runs do not meet), one veth pair.
  tag=js$ctld_port
  net=10.216.$((ctld_port % 250 + 1))
  node_names=(jn1 jn2)
  namespaces=("${tag}n1" "${tag}n2")
  addrs=("$net.1" "$net.2")
  printf '%s\n' "${namespaces[@]}" > "$state/netns"
  for ns in "${namespaces[@]}"; do ip netns add "$ns"; done
  ip link add "${tag}a" type veth peer name "${tag}b"
  ip link set "${tag}a" netns "${namespaces[0]}"
  ip link set "${tag}b" netns "${namespaces[1]}"
  ip -n "${namespaces[0]}" addr add "${addrs[0]}/24" dev "${tag}a"
  ip -n "${namespaces[1]}" addr add "${addrs[1]}/24" dev "${tag}b"
  for i in 0 1; do
    ns=${namespaces[$i]}
    ip -n "$ns" link set lo up
    ip -n "$ns" link set "${tag}$([ "$i" -eq 0 ] && echo a || echo b)" up
    mkdir -p "/etc/netns/$ns"
    { cat /etc/hosts; echo "${addrs[0]} ${node_names[0]}"; echo "${addrs[1]} ${node_names[1]}"; } > "/etc/netns/$ns/hosts"
  done
  node_lines="NodeName=${node_names[0]} NodeAddr=${addrs[0]} CPUs=8 RealMemory=1000 State=UNKNOWN
NodeName=${node_names[1]} NodeAddr=${addrs[1]} CPUs=8 RealMemory=1000 State=UNKNOWN"
  ctld_addr="(${addrs[0]})"
  login=(ip netns exec "${namespaces[0]}")
fi

cat > "$state/slurm.conf" <<CONF
# Written by launcher/src/test/slurm/slurm-up.sh for jmpi's tests: $nodes node(s).
ClusterName=jmpitest
SlurmctldHost=$ctld_host$ctld_addr
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool/%n
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd-%n.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd-%n.log
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
$node_lines
PartitionName=jmpi Nodes=$(IFS=,; echo "${node_names[*]}") Default=YES MaxTime=30 State=UP OverSubscribe=YES
CONF
cat > "$state/env" <<ENV
export SLURM_CONF=$state/slurm.conf
ENV
cat > "$state/login" <<LOGIN
#!/bin/sh
# Runs a command where this test cluster's srun, salloc, sbatch and sinfo work (written by slurm-up.sh).
export SLURM_CONF=$state/slurm.conf
exec ${login[*]} "\$@"
LOGIN
chmod +x "$state/login"
export SLURM_CONF=$state/slurm.conf
"${login[@]}" slurmctld -f "$SLURM_CONF" -i
if [ "$nodes" -eq 1 ]; then
  slurmd -f "$SLURM_CONF"
else
  for i in 0 1; do
    mkdir -p "$state/spool/${node_names[$i]}"
    # The node's network, its own host name (tasks see it as their host: jmpi's processor name) and hosts
    # file, in a mount namespace of its own. Not `ip netns exec`, whose fresh /sys hides /sys/fs/cgroup,
    # which slurmd's cgroup plugin needs even with proctrack/pgid.
    ns=${namespaces[$i]}
    nsenter --net="/run/netns/$ns" unshare --mount --uts /bin/sh -c \
      "mount --bind /etc/netns/$ns/hosts /etc/hosts && echo ${node_names[$i]} > /proc/sys/kernel/hostname &&
       exec slurmd -f '$SLURM_CONF' -N ${node_names[$i]}"
  done
fi
for _ in $(seq 1 60); do
  if [ "$("$state/login" sinfo -h -N -o '%N %T' 2>/dev/null | grep -c ' idle$')" -eq "$nodes" ]; then
    echo "slurm-up: $nodes node(s) idle: ${node_names[*]} (SLURM_CONF=$SLURM_CONF; commands through $state/login)"
    exit 0
  fi
  sleep 1
done
echo "slurm-up: the nodes did not become idle within 60 s; logs in $state/log" >&2
"$state/login" sinfo -N -l >&2 || true
exit 1
