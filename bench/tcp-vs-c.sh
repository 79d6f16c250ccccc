#!/usr/bin/env bash
# tcp between two "hosts" against C Open MPI's tcp BTL over the same link, alternately (C jmpi C jmpi ...)
# in one invocation (../shared/baseline/README.md: only same-round ratios mean much). The hosts are two
# network namespaces joined by one veth pair with private addresses that exist only inside them; both
# are created here and deleted on exit (also on failure or Ctrl-C).
#   C:    mpirun (in namespace A) --host IP_A,IP_B --mca btl tcp,self, the second rank's orted started in
#         namespace B by a launch agent script (ip netns exec), c/pingpong.c and c/bandwidth.c;
#   jmpi: bin/jmpirun (in namespace A) --host A,B --launch-agent 'ip netns exec', tcp.if on the link,
#         bench's OsuLatency and OsuBandwidth.
# Both unbound (--bind-to none: the two "hosts" share this machine's cores). Then bench's P2pReport
# prints Markdown tables (medians over rounds, median per-round ratios) as docs/tcp.md shows.
# Needs: root and iproute2; mvn package done (bench/target/classes, bench/target/lib, launcher/target);
# Debian's openmpi-bin and libopenmpi-dev (installed here if missing).
# Usage: bench/tcp-vs-c.sh [rounds] [maxLatencyBytes] [maxWindowBytes] [outDir]
#   environment: BENCHES (default "latency bw"; "nio" adds bench/tcp/NioPingPong.java, the JDK's own floor:
#   a plain NIO ping-pong over one connection and over two, one per direction); LAT_FROM (the first ping-pong size, a power of two or 0,
#   default 0); WARMUP (ping-pong warm-up round trips before the first
#   size, both sides, default the harnesses' 400000); BW_ITER (windows per size up to 8 KiB, a tenth
#   above, both sides, default 1000); BW_WARMUP (warm-up windows, both sides, default 6000); JMPI_ARGS
#   (extra harness arguments). On a loaded machine WARMUP=100000 BW_ITER=100 BW_WARMUP=600 keeps a
#   round within minutes,
#   and LAT_FROM=8 with maxLatencyBytes 8 measures only the issue's 8 B.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
max_lat=${2:-65536}
max_win=${3:-4194304}
out=$(realpath -m "${4:-bench/target/tcp}")
benches=${BENCHES:-latency bw}
warmup=${WARMUP:-400000}
lat_from=${LAT_FROM:-0}
bw_iter=${BW_ITER:-1000}
bw_warmup=${BW_WARMUP:-6000}
[ "$(id -u)" -eq 0 ] || { echo "tcp-vs-c: needs root (network namespaces)" >&2; exit 2; }
mkdir -p "$out"
if ! command -v mpicc >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev >/dev/null
fi
source bench/java21.sh
mpicc -O2 -o "$out/pingpong" bench/c/pingpong.c
mpicc -O2 -o "$out/bandwidth" bench/c/bandwidth.c

# 1. Two namespaces, one veth pair, a /24 of 10.213.0.0/16 that only they know.
ns_a=jmpitcpA$$; ns_b=jmpitcpB$$; link_a=jtA$$; link_b=jtB$$
net=10.213.$(( $$ % 250 + 1 ))
ip_a=$net.1; ip_b=$net.2
cleanup() {
  ip netns delete "$ns_a" 2>/dev/null || true
  ip netns delete "$ns_b" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ip netns add "$ns_a"; ip netns add "$ns_b"
ip link add "$link_a" type veth peer name "$link_b"
ip link set "$link_a" netns "$ns_a"; ip link set "$link_b" netns "$ns_b"
ip -n "$ns_a" addr add "$ip_a/24" dev "$link_a"; ip -n "$ns_b" addr add "$ip_b/24" dev "$link_b"
for nl in "$ns_a $link_a" "$ns_a lo" "$ns_b $link_b" "$ns_b lo"; do
  set -- $nl; ip -n "$1" link set "$2" up
done

# 2. Open MPI's launch agent: "agent HOST command..." runs the command in HOST's namespace.
agent=$out/netns-agent.sh
cat > "$agent" <<AGENT
#!/bin/sh
host=\$1; shift
case "\$host" in
  $ip_a) ns=$ns_a ;;
  $ip_b) ns=$ns_b ;;
  *) echo "netns-agent: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec "\$ns" /bin/sh -c "\$*"
AGENT
chmod +x "$agent"
mpi=(ip netns exec "$ns_a" mpirun --allow-run-as-root -np 2 --host "$ip_a,$ip_b" --bind-to none
  --mca plm_rsh_agent "$agent" --mca btl tcp,self --mca btl_tcp_if_include "$net.0/24" --mca oob_tcp_if_include "$net.0/24")
cp='bench/target/classes:bench/target/lib/*'
jmpi=(ip netns exec "$ns_a" bin/jmpirun -np 2 --host "$ns_a,$ns_b" --launch-agent "ip netns exec"
  --param "tcp.if=$net.0/24" --param "bootstrap.if=$net.0/24" --param transports.show=true -cp "$cp")

run() { # label command...
  local label=$1; shift
  timeout 900 "$@" > "$out/$label.txt" 2> "$out/$label.err" || echo "failed: $label (see $out/$label.err)" >&2
}
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg) link: veth $ip_a <-> $ip_b" > "$out/load.txt"
for r in $(seq 1 "$rounds"); do
  for b in $benches; do
    if [ "$b" = nio ]; then
      for mode in one two; do
        ip netns exec "$ns_b" "$java" bench/tcp/NioPingPong.java server 5999 "$mode" > /dev/null 2>&1 & nio_server=$!
        sleep 2
        run "nio-$mode-$r" ip netns exec "$ns_a" "$java" bench/tcp/NioPingPong.java client "$ip_b" 5999 "$mode" 20000 "$warmup"
        kill "$nio_server" 2>/dev/null || true; wait "$nio_server" 2>/dev/null || true
        cat "$out/nio-$mode-$r.txt"
      done
    elif [ "$b" = latency ]; then
      run "c-$b-$r" "${mpi[@]}" "$out/pingpong" "$max_lat" "$warmup" "$lat_from"
      # shellcheck disable=SC2086 # JMPI_ARGS is a list of arguments
      run "jmpi-$b-$r" "${jmpi[@]}" org.jmpi.bench.OsuLatency "$max_lat" --jit-warmup "$warmup" --from "$lat_from" ${JMPI_ARGS:-}
    else
      run "c-$b-$r" "${mpi[@]}" "$out/bandwidth" "$b" "$max_win" 64 "$bw_iter" "$bw_warmup"
      # shellcheck disable=SC2086
      run "jmpi-$b-$r" "${jmpi[@]}" org.jmpi.bench.OsuBandwidth "$b" "$max_win" --iterations "$bw_iter" --jit-warmup "$bw_warmup" \
        ${JMPI_ARGS:-}
    fi
  done
  echo "# round $r done $(date -u +%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
done
cat "$out/load.txt"
grep -h "peers" "$out"/jmpi-*-1.err | sort -u || true
"$java" -cp "$cp" org.jmpi.bench.report.P2pReport "$out" "$rounds"
