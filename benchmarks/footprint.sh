#!/usr/bin/env bash
# geotrack's footprint next to gpsd's own clients, in one run (issue 14's goals):
#
#   1. start-up: wall time of `geotrack --version` and `geotrack auth status` next to
#      `gpspipe -V`, the mean of RUNS runs each (default 50);
#   2. wake-ups while gpsd has no receiver: context switches (voluntary + involuntary, every
#      thread) of `geotrack watch` and of `cgps`, each in its own tmux terminal on the same
#      gpsd, over IDLE seconds (default 30), read from /proc/PID/task/*/status;
#   3. the binary: size, and the shared libraries it loads (ldd).
#
# Peak RSS at 10 fixes/s is benchmarks/cli-vs-cgps.sh; replay throughput is
# benchmarks/replay-throughput.sh.
#
# Usage: benchmarks/footprint.sh [RUNS] [IDLE_SECONDS]      (release build of geotrack)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-50}
IDLE=${2:-30}
PORT=${BENCH_PORT:-29490}
for tool in gpspipe cgps tmux; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: make deps" >&2; exit 2; }
done
GPSD=/usr/sbin/gpsd
[ -x "$GPSD" ] || { echo "$GPSD is missing: make deps" >&2; exit 2; }

swift build -c release --product geotrack >/dev/null
BIN=$PWD/.build/release/geotrack
WORK=$(mktemp -d)
SOCK="$WORK/tmux.sock"
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
GPSD_PID=""
cleanup() {
    tmux -S "$SOCK" kill-server 2>/dev/null || true
    [ -n "$GPSD_PID" ] && kill "$GPSD_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
"$BIN" auth grant >/dev/null

# Mean wall time in milliseconds of RUNS runs of a command (output discarded).
mean_ms() {
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$RUNS"); do "$@" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    awk -v ns=$((end - start)) -v runs="$RUNS" 'BEGIN { printf "%.2f", ns / runs / 1e6 }'
}

echo "== start-up: mean of $RUNS runs =="
# One warm-up each, so the page cache holds every binary.
"$BIN" --version >/dev/null; gpspipe -V >/dev/null 2>&1 || true
gpspipe_ms=$(mean_ms gpspipe -V)
version_ms=$(mean_ms "$BIN" --version)
auth_ms=$(mean_ms "$BIN" auth status)
printf '%-28s %8s ms\n' "gpspipe -V" "$gpspipe_ms" "geotrack --version" "$version_ms" "geotrack auth status" "$auth_ms"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
printf 'ratio to gpspipe -V: --version %s, auth status %s (goal: at most 2)\n' \
    "$(ratio "$version_ms" "$gpspipe_ms")" "$(ratio "$auth_ms" "$gpspipe_ms")"

echo
echo "== wake-ups over $IDLE s while gpsd has no receiver =="
"$GPSD" -N -n -S "$PORT" -F "$WORK/gpsd.sock" >"$WORK/gpsd.log" 2>&1 &
GPSD_PID=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
tmux -S "$SOCK" new-session -d -s geotrack -x 100 -y 5 "$BIN watch --gpsd 127.0.0.1:$PORT"
tmux -S "$SOCK" new-session -d -s cgps -x 100 -y 30 "cgps 127.0.0.1:$PORT"
# The client's process: the pane's shell may have exec'd it, or run it as its child.
pid_of() {
    local pane child
    pane=$(tmux -S "$SOCK" display-message -p -t "$1" '#{pane_pid}')
    child=$(pgrep -P "$pane" | head -1 || true)
    echo "${child:-$pane}"
}
sleep 2
GEOTRACK_PID=$(pid_of geotrack)
CGPS_PID=$(pid_of cgps)
# Sum of voluntary and involuntary context switches over every thread of a process.
switches() {
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { sum += $2 } END { print sum + 0 }'
}
threads() { ls /proc/"$1"/task | wc -l; }
g0=$(switches "$GEOTRACK_PID"); c0=$(switches "$CGPS_PID")
sleep "$IDLE"
g1=$(switches "$GEOTRACK_PID"); c1=$(switches "$CGPS_PID")
printf '%-16s %8s switches  %6s per s  %3s threads\n' \
    "geotrack watch" "$((g1 - g0))" "$(ratio $((g1 - g0)) "$IDLE")" "$(threads "$GEOTRACK_PID")" \
    "cgps" "$((c1 - c0))" "$(ratio $((c1 - c0)) "$IDLE")" "$(threads "$CGPS_PID")"
echo "what geotrack shows: $(tmux -S "$SOCK" capture-pane -p -t geotrack | grep -v '^$' | head -1)"

echo
echo "== the binary =="
printf 'size: %s bytes (%s)\n' "$(stat -c %s "$BIN")" "$BIN"
echo "shared libraries:"
ldd "$BIN" | awk '{ print "  " $1 }'
