# Where the threads of a JFR recording spend their samples (rdma-tests.sh lat-warm): reads
# `jfr print --stack-depth 64 --events jdk.ExecutionSample,jdk.NativeMethodSample FILE` and prints, per event kind,
# the share of samples whose stack holds each part of the 8 B round trip (inclusive; a sample may count in several),
# then the most frequent top frames. -v threads=REGEX: only samples of threads whose name matches (the ranks: jmpi-rank-).
/^jdk\.(ExecutionSample|NativeMethodSample)/ { ev = $1; sub(/ .*/, "", ev); depth = 0; top = ""; delete seen; next }
/sampledThread = / { th = $0; sub(/.*sampledThread = "/, "", th); sub(/".*/, "", th); next }
/stackTrace = \[/ { instack = 1; next }
instack && /^[ \t]*\]/ {
  instack = 0
  if (threads != "" && th !~ threads) next
  total[ev]++; tops[ev SUBSEP top]++
  for (c in seen) part[ev SUBSEP c]++
  next
}
instack {
  f = $0; sub(/^[ \t]+/, "", f); sub(/[ \t]+line:.*/, "", f); sub(/\(.*/, "", f)
  if (f == "...") next
  if (depth++ == 0) top = f
  if (f ~ /ibv\.CompletionQueue\.poll/) seen["poll_cq (CompletionQueue.poll)"] = 1
  if (f ~ /ibv\.QueuePair\.post/) seen["post_send/post_recv (QueuePair.post)"] = 1
  if (f ~ /^com\.sun\.jna\./) seen["in JNA (com.sun.jna.*)"] = 1
  if (f ~ /verbs\.VerbsTransport\.progress/) seen["transport progress (VerbsTransport.progress)"] = 1
  if (f ~ /verbs\.VerbsTransport\.offer|verbs\.Peer\.offer/) seen["transport offer (frame out)"] = 1
  if (f ~ /internal\.pt2pt\.(Matcher|MatchList|RecvSide)/) seen["matching (Matcher, MatchList, RecvSide)"] = 1
  if (f ~ /internal\.pt2pt\./) seen["protocol (internal.pt2pt.*)"] = 1
  if (f ~ /internal\.engine\.ProgressEngine/) seen["progress engine (ProgressEngine)"] = 1
  if (f ~ /Thread\.yield|Thread\.onSpinWait|LockSupport\.park|Unsafe\.park/) seen["idle (spin wait, yield, park)"] = 1
  if (f ~ /VerbsMpiBench/) seen["the bench loop (VerbsMpiBench)"] = 1
}
END {
  for (k in part) { split(k, a, SUBSEP); printf "jfr %s: %5.1f%% %s\n", a[1], 100 * part[k] / total[a[1]], a[2] | "sort -k2,2 -k3,3nr" }
  close("sort -k2,2 -k3,3nr")
  for (k in tops) { split(k, a, SUBSEP); printf "jfr top %s: %5d %s\n", a[1], tops[k], a[2] | "sort -k3,3 -k4,4nr | awk '{ if (++n[$3] <= 8) print }'" }
  close("sort -k3,3 -k4,4nr | awk '{ if (++n[$3] <= 8) print }'")
  for (e in total) printf "jfr %s: %d samples\n", e, total[e]
}
