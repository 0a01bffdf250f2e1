#!/usr/bin/env bash
# Holds the release binary to its memory and size budgets (make test runs it after
# check-install, which has built that binary). Memory and size are stable from run to run, so
# they are checked here; times vary with the machine's load and stay in the benchmarks
# (benchmarks/compare-builds.sh, benchmarks/footprint.sh).
#
#   - the binary's size;
#   - peak RSS (VmHWM) of `geotrack --version`: the start-up every command pays;
#   - peak RSS of `geotrack watch` (the status line, in a tmux terminal) on a real gpsd that
#     gpsfake feeds about 10 fixes a second, read once gpsd has sent WATCH_FIXES fixes;
#   - peak RSS of `geotrack replay --json` of the corpus, repeated to REPLAY_MB.
#
# Each budget is the figure docs/PERFORMANCE.md measured (benchmarks/compare-builds.sh) with
# about a tenth of headroom. A figure over its budget fails, saying which and by how much;
# change a budget only with a new measurement in docs/PERFORMANCE.md that explains it.
#
# Usage: scripts/check-budgets.sh [BINARY]   (default: the release build, SCRATCH/release/geotrack)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${GEOTRACK_SCRATCH:-.build}
# geotrack warns about GEOTRACK_ variables it does not know, on the screen watch draws.
unset GEOTRACK_SCRATCH
BIN=$(readlink -f "${1:-$scratch/release/geotrack}")
# Budgets, in KiB of memory and bytes of binary.
SIZE_BUDGET=${SIZE_BUDGET:-69600000}
VERSION_RSS_BUDGET=${VERSION_RSS_BUDGET:-12800}
WATCH_RSS_BUDGET=${WATCH_RSS_BUDGET:-18944}
REPLAY_RSS_BUDGET=${REPLAY_RSS_BUDGET:-17408}
WATCH_FIXES=200
REPLAY_MB=20
LOG=Tests/GPSDTests/Logs/garmin15x.nmea

[ -x "$BIN" ] || { echo "check-budgets: $BIN is missing: make release-geotrack" >&2; exit 2; }
for tool in tmux gpspipe /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "check-budgets: $tool is missing: run make deps" >&2; exit 2; }
done
work=$(mktemp -d)
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"
gpsfake_group=""
cleanup() {
    tmux -S "$work/tmux.sock" kill-server 2>/dev/null || true
    [ -n "$gpsfake_group" ] && scripts/gpsfake-up --stop "$gpsfake_group"
    rm -rf "$work"
}
trap cleanup EXIT

failures=()
mb() { awk -v k="$1" 'BEGIN { printf "%.2f MB", k / 1024 }'; }
# check NAME FIGURE BUDGET SHOWN_FIGURE SHOWN_BUDGET
check() {
    if [ "$2" -gt "$3" ]; then
        failures+=("$1 is $4, over its budget of $5 by $(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.0f%%", 100 * (a - b) / b }')")
        echo "check-budgets: $1: $4 (budget $5): OVER"
    else
        echo "check-budgets: $1: $4 (budget $5)"
    fi
}

size=$(stat -c %s "$BIN")
check "the binary's size" "$size" "$SIZE_BUDGET" "$(awk -v b="$size" 'BEGIN { printf "%.1f MB", b / 1e6 }')" \
    "$(awk -v b="$SIZE_BUDGET" 'BEGIN { printf "%.1f MB", b / 1e6 }')"

# The binary's pages as after a reboot: how the page cache holds it changes what a process maps
# (scripts/uncache.py), and the build, an install or a copy leave it in different states.
scripts/uncache.py "$BIN"
/usr/bin/time -f %M -o "$work/rss" "$BIN" --version >/dev/null
rss=$(cat "$work/rss")
check "peak RSS of --version" "$rss" "$VERSION_RSS_BUDGET" "$(mb "$rss")" "$(mb "$VERSION_RSS_BUDGET")"

# replay --json of the corpus, repeated: its memory must not grow with the input either.
: >"$work/big.nmea"
while [ "$(stat -c %s "$work/big.nmea")" -lt $((REPLAY_MB * 1000 * 1000)) ]; do
    cat Tests/Fixtures/nmea-corpus/*.nmea >>"$work/big.nmea"
done
/usr/bin/time -f %M -o "$work/rss" "$BIN" replay "$work/big.nmea" --json >/dev/null
rss=$(cat "$work/rss")
check "peak RSS of replay --json ($REPLAY_MB MB)" "$rss" "$REPLAY_RSS_BUDGET" "$(mb "$rss")" "$(mb "$REPLAY_RSS_BUDGET")"
rm -f "$work/big.nmea"

# watch: gpsfake loops over the log (no -1) at about 10 fixes a second.
"$BIN" auth grant >/dev/null
read -r port gpsfake_group < <(scripts/gpsfake-up "$LOG" "$work/gpsfake.log" -c 0.01) || true
if [ -z "$gpsfake_group" ]; then
    echo "check-budgets: gpsfake did not start a gpsd (above): watch's memory was not measured" >&2
    exit 1
fi
tmux -S "$work/tmux.sock" new-session -d -s watch -x 80 -y 24 "exec '$BIN' watch --gpsd 127.0.0.1:$port"
watch_pid=$(tmux -S "$work/tmux.sock" list-panes -t watch -F '#{pane_pid}')
# Counted by a second client of the same gpsd: the fixes watch has been sent meanwhile. A
# generous deadline, for a loaded machine; gpsfake sends about ten a second.
if ! timeout 300 gpspipe -w "127.0.0.1:$port" 2>/dev/null | grep --line-buffered '"class":"TPV".*"mode":[23]' |
        head -n "$WATCH_FIXES" >"$work/fixes"; then
    :
fi
fixes=$(wc -l <"$work/fixes")
if [ "$fixes" -lt "$WATCH_FIXES" ]; then
    echo "check-budgets: gpsd sent $fixes of $WATCH_FIXES fixes within 300 s: watch's memory was not measured (gpsfake said: $(tail -3 "$work/gpsfake.log" | tr '\n' ' '))" >&2
    exit 1
fi
if ! kill -0 "$watch_pid" 2>/dev/null; then
    echo "check-budgets: geotrack watch ended before its memory was read" >&2
    exit 1
fi
screen=$(tmux -S "$work/tmux.sock" capture-pane -p -t watch | grep -v '^$' | tail -1)
rss=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$watch_pid/status")
# A watch that drew no position measured an idle client, not one following fixes.
if [[ "$screen" != *°[NS]* ]]; then
    echo "check-budgets: geotrack watch shows no position after gpsd sent $WATCH_FIXES fixes: '$screen'" >&2
    exit 1
fi
check "peak RSS of watch after $WATCH_FIXES fixes" "$rss" "$WATCH_RSS_BUDGET" "$(mb "$rss")" "$(mb "$WATCH_RSS_BUDGET")"
echo "check-budgets: watch showed: $screen"

if [ ${#failures[@]} -gt 0 ]; then
    printf 'check-budgets: %s\n' "${failures[@]}" >&2
    exit 1
fi
