#!/usr/bin/env bash
# Stops what slurm-up.sh STATE_DIR started (slurmd, slurmctld, munged: by the pids they wrote there)
# and waits up to 10 s for them to go. The state directory is left for its logs; delete it yourself.
set -uo pipefail
state=$(realpath -m "${1:?usage: slurm-down.sh STATE_DIR}")
for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"; do
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
