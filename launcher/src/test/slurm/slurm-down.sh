#!/usr/bin/env bash
# Stops what slurm-up.sh STATE_DIR started (slurmd(s), slurmctld, munged: by the pids they wrote there),
# waiting up to 10 s for each, then kills what is left in the cluster's network namespaces (a two-node
# cluster's) and deletes them with their /etc/netns entries. The state directory is left for its logs;
# delete it yourself.
set -uo pipefail
state=$(realpath -m "${1:?usage: slurm-down.sh STATE_DIR}")
for pidfile in "$state"/slurmd*.pid "$state/slurmctld.pid" "$state/munge/munged.pid"; do
  [ -s "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || continue
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidfile"
done
if [ -s "$state/netns" ]; then
  while read -r ns; do
    [ -n "$ns" ] || continue
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    # shellcheck disable=SC2086 # a list of pids
    [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
    ip netns delete "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done < "$state/netns"
  rm -f "$state/netns"
fi
