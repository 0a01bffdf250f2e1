#!/usr/bin/env bash
# geotrack serve with 50 browsers' worth of event streams, beside geotrack watch, on one gpsd.
#
# gpsfake feeds gpsd a looping NMEA log at about 10 fixes per second (as cli-vs-cgps.sh does).
# For DURATION seconds (default 60) `geotrack watch` (status line, in tmux) and
# `geotrack serve --tiles none` follow it; CLIENTS (default 50) Server-Sent-Events clients read
# serve's /events as fast as it sends, and one more sends its request and never reads (a 1 KiB
# receive buffer). Reported for watch and serve: CPU seconds, peak RSS and RSS first→last;
# for the clients: events received; and serve's /stats (events skipped for the stalled client,
# clients dropped). The stalled client may hold at most serve's per-client bound (256 KiB of
# unsent events, plus one snapshot): serve's RSS must not grow with it.
#
# Usage: benchmarks/serve-clients.sh [DURATION_SECONDS] [CLIENTS]      (release build of geotrack)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60}
CLIENTS=${2:-50}
PORT=${BENCH_PORT:-29490}
HTTP_PORT=${BENCH_HTTP_PORT:-29491}
LOG=${BENCH_LOG:-Tests/GPSDTests/Logs/garmin15x.nmea}
SENTENCE_DELAY=${BENCH_SENTENCE_DELAY:-0.01}
OUT=benchmarks/out
mkdir -p "$OUT"

make --no-print-directory release-geotrack >/dev/null
BIN=$PWD/.build/release/geotrack
source benchmarks/work.sh

"$BIN" auth grant >/dev/null
feed_gpsd serve-clients "$PORT" "$SENTENCE_DELAY" "$LOG"

tmux -S "$SOCK" new-session -d -s bench -x 80 -y 24 "exec $BIN watch --gpsd 127.0.0.1:$PORT"
"$BIN" serve --gpsd "127.0.0.1:$PORT" --listen "127.0.0.1:$HTTP_PORT" --tiles none 2>"$WORK/serve.err" &
SERVE_PID=$!
stop_on_exit "$SERVE_PID"
for _ in $(seq 1 100); do grep -q "serving http" "$WORK/serve.err" 2>/dev/null && break; sleep 0.1; done
grep -q "serving http" "$WORK/serve.err" || { echo "serve-clients: serve did not start: $(cat "$WORK/serve.err")" >&2; exit 1; }
sleep 1
WATCH_PID=$(tmux -S "$SOCK" list-panes -t bench:0 -F '#{pane_pid}')

cpu_seconds() { awk -v tck="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); split($0, f, " "); printf "%.2f", (f[12] + f[13]) / tck }' "/proc/$1/stat"; }
kib() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status"; }

# serve's memory before any client, to see what the clients (and the stalled one) add.
SERVE_IDLE=$(kib "$SERVE_PID" VmRSS)
python3 benchmarks/sse-clients.py 127.0.0.1 "$HTTP_PORT" "$CLIENTS" 1 "$DURATION" >"$WORK/clients.json" &
CLIENTS_PID=$!
stop_on_exit "$CLIENTS_PID"
sleep 1
declare -A START
START_NS=$(date +%s%N)
START[watch]=$(cpu_seconds "$WATCH_PID")
START[serve]=$(cpu_seconds "$SERVE_PID")
SAMPLES="$OUT/serve-rss-samples.txt"
echo "t_s watch_rss_kib serve_rss_kib" >"$SAMPLES"
for ((t = 0; t <= DURATION - 5; t += 5)); do
  echo "$t $(kib "$WATCH_PID" VmRSS) $(kib "$SERVE_PID" VmRSS)" >>"$SAMPLES"
  sleep 5
done
wait "$CLIENTS_PID"
STATS=$(python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' "http://127.0.0.1:$HTTP_PORT/stats")
# The clock time the CPU figures cover: from the first reading to the last, taken just below.
ELAPSED=$(awk -v ns=$(($(date +%s%N) - START_NS)) 'BEGIN { printf "%.1f", ns / 1e9 }')

{
  echo "geotrack serve (${CLIENTS} event-stream clients + 1 that never reads) beside geotrack watch, ${ELAPSED} s measured, one gpsd fed by gpsfake at ${SENTENCE_DELAY} s per sentence"
  echo "measured fix rate: $(awk -v n="$RATE_SAMPLE" 'BEGIN { printf "%.1f", n / 5 }') fixes/s"
  printf "%-8s %8s %14s %16s %20s\n" process "CPU s" "CPU % of run" "peak RSS (KiB)" "RSS first→last (KiB)"
  for name in watch serve; do
    case $name in watch) p=$WATCH_PID; col=2;; serve) p=$SERVE_PID; col=3;; esac
    used=$(awk -v a="$(cpu_seconds "$p")" -v b="${START[$name]}" 'BEGIN { printf "%.2f", a - b }')
    pct=$(awk -v u="$used" -v d="$ELAPSED" 'BEGIN { printf "%.2f", 100 * u / d }')
    printf "%-8s %8s %14s %16s %20s\n" "$name" "$used" "$pct" "$(kib "$p" VmHWM)" \
      "$(awk -v c=$col 'NR == 2 { print $c }' "$SAMPLES")→$(awk -v c=$col 'END { print $c }' "$SAMPLES")"
  done
  echo "serve's RSS before any client: $SERVE_IDLE KiB"
  echo "clients: $(cat "$WORK/clients.json")"
  echo "serve's /stats at the end: $STATS"
} | tee "$OUT/serve-clients.txt"
