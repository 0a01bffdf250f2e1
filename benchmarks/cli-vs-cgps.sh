#!/usr/bin/env bash
# geotrack watch vs cgps on the same gpsd, side by side, each in its own tmux terminal.
#
# gpsfake feeds gpsd a looping NMEA log at about 10 fixes per second. For DURATION seconds
# (default 45) three clients watch it: `geotrack watch` (status line), `cgps` (gpsd's curses
# client) and `gpspipe -w > /dev/null` (the cost of merely reading gpsd's JSON, for reference).
# Reported per client: CPU seconds (utime+stime from /proc/PID/stat) and peak RSS (VmHWM),
# plus RSS sampled every 5 s to show whether memory stays flat.
#
# Usage: benchmarks/cli-vs-cgps.sh [DURATION_SECONDS]      (release build of geotrack)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-45}
PORT=${BENCH_PORT:-29480}
LOG=${BENCH_LOG:-Tests/GPSDTests/Logs/garmin15x.nmea}
# The log has 8 sentences per reporting cycle; gpsfake adds its own overhead per sentence,
# so one every 10 ms comes out at about 10 fixes/s (the script measures and prints the rate).
SENTENCE_DELAY=${BENCH_SENTENCE_DELAY:-0.01}
OUT=benchmarks/out
mkdir -p "$OUT"

make --no-print-directory release-geotrack >/dev/null
BIN=$PWD/.build/release/geotrack
source benchmarks/work.sh

"$BIN" auth grant >/dev/null
# Without -1 gpsfake loops over the log for as long as the run lasts.
feed_gpsd cli-vs-cgps "$PORT" "$SENTENCE_DELAY" "$LOG"

tmux -S "$SOCK" new-session -d -s bench -x 80 -y 24 "exec $BIN watch --gpsd 127.0.0.1:$PORT"
tmux -S "$SOCK" new-window -t bench "exec cgps 127.0.0.1:$PORT"
gpspipe -w "127.0.0.1:$PORT" >/dev/null 2>&1 &
PIPE_PID=$!
stop_on_exit "$PIPE_PID"
sleep 1
GEO_PID=$(tmux -S "$SOCK" list-panes -t bench:0 -F '#{pane_pid}')
CGPS_PID=$(tmux -S "$SOCK" list-panes -t bench:1 -F '#{pane_pid}')

cpu_seconds() { # utime+stime, in seconds (clock ticks: 10 ms steps, but counts threads that ended)
  awk -v tck="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); split($0, f, " "); printf "%.2f", (f[12] + f[13]) / tck }' "/proc/$1/stat"
}
run_ms() { # time on CPU, in ms, summed over the threads alive now (schedstat: nanoseconds)
  cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ ns += $1 } END { printf "%.1f", ns / 1e6 }'
}
threads() { ls /proc/"$1"/task | sort | tr '\n' ' '; }
kib() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status"; }

declare -A START START_MS START_THREADS
for name in geotrack cgps gpspipe; do
  case $name in geotrack) p=$GEO_PID;; cgps) p=$CGPS_PID;; gpspipe) p=$PIPE_PID;; esac
  START[$name]=$(cpu_seconds "$p")
  START_MS[$name]=$(run_ms "$p")
  START_THREADS[$name]=$(threads "$p")
done
SAMPLES="$OUT/rss-samples.txt"
echo "t_s geotrack_rss_kib cgps_rss_kib gpspipe_rss_kib" >"$SAMPLES"
for ((t = 0; t <= DURATION; t += 5)); do
  echo "$t $(kib "$GEO_PID" VmRSS) $(kib "$CGPS_PID" VmRSS) $(kib "$PIPE_PID" VmRSS)" >>"$SAMPLES"
  [ "$t" -lt "$DURATION" ] && sleep 5
done
SCREEN=$(tmux -S "$SOCK" capture-pane -p -t bench:0 | grep -v '^$' | tail -1)

{
  echo "geotrack watch vs cgps, ${DURATION} s, gpsd fed by gpsfake at ${SENTENCE_DELAY} s per sentence"
  echo "measured fix rate: $(awk -v n="$RATE_SAMPLE" 'BEGIN { printf "%.1f", n / 5 }') fixes/s"
  printf "%-10s %12s %10s %14s %18s %18s %16s\n" client "CPU s" "CPU ms" "CPU % of run" "peak RSS (KiB)" "RSS first→last" "anon RSS (KiB)"
  for name in geotrack cgps gpspipe; do
    case $name in geotrack) p=$GEO_PID; col=2;; cgps) p=$CGPS_PID; col=3;; gpspipe) p=$PIPE_PID; col=4;; esac
    used=$(awk -v a="$(cpu_seconds "$p")" -v b="${START[$name]}" 'BEGIN { printf "%.2f", a - b }')
    # The precise figure only counts threads alive at both ends; say so if one came or went.
    precise=$(awk -v a="$(run_ms "$p")" -v b="${START_MS[$name]}" 'BEGIN { printf "%.1f", a - b }')
    [ "$(threads "$p")" = "${START_THREADS[$name]}" ] || precise="$precise*"
    pct=$(awk -v u="$used" -v d="$DURATION" 'BEGIN { printf "%.2f", 100 * u / d }')
    first=$(awk -v c=$col 'NR == 2 { print $c }' "$SAMPLES")
    last=$(awk -v c=$col 'END { print $c }' "$SAMPLES")
    printf "%-10s %12s %10s %14s %18s %18s %16s\n" "$name" "$used" "$precise" "$pct" "$(kib "$p" VmHWM)" "$first→$last" "$(kib "$p" RssAnon)"
  done
  echo "CPU s: utime+stime in clock ticks; CPU ms: schedstat run time over the run (* = threads came or went, so it is partial)"
  echo "anon RSS: the process's own memory at the end (RssAnon); the rest of RSS is pages of its binary and libraries, shared and reclaimable"
  echo "geotrack's status line at the end: $SCREEN"
} | tee "$OUT/cli-vs-cgps.txt"
