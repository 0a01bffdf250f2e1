#!/usr/bin/env bash
# Where `geotrack watch`'s memory goes: its peak RSS split by mapping (the binary's code, its
# data, the shared libraries, anonymous memory), and the binary's code mapped split by the
# module it belongs to (benchmarks/watch-code-pages.py). gpsfake feeds a real gpsd about 10
# fixes a second, as in check-budgets; the figures are read after gpsd has sent FIXES fixes.
#
# Usage: benchmarks/watch-code-pages.sh [FIXES]   (release build; needs root for pagemap)
set -euo pipefail
cd "$(dirname "$0")/.."
FIXES=${1:-200}
OUT=benchmarks/out
mkdir -p "$OUT"
make --no-print-directory release-geotrack >/dev/null
BIN=$(readlink -f .build/release/geotrack)
source benchmarks/work.sh
"$BIN" auth grant >/dev/null
read -r port group < <(scripts/gpsfake-up Tests/GPSDTests/Logs/garmin15x.nmea "$WORK/gpsfake.log" -c 0.01)
trap 'scripts/gpsfake-up --stop "$group"; cleanup' EXIT
tmux -S "$SOCK" new-session -d -s watch -x 80 -y 24 "exec '$BIN' watch --gpsd 127.0.0.1:$port"
pid=$(tmux -S "$SOCK" list-panes -t watch -F '#{pane_pid}')
timeout 300 gpspipe -w "127.0.0.1:$port" 2>/dev/null | grep --line-buffered '"class":"TPV".*"mode":[23]' |
    head -n "$FIXES" >/dev/null || true
{
    echo "geotrack watch after $FIXES fixes ($(git rev-parse --short HEAD), kernel $(uname -r)):"
    awk '$1 == "VmHWM:" { printf "peak RSS %.1f MB\n", $2 / 1024 }' "/proc/$pid/status"
    awk '/^[0-9a-f]+-/ { name = ($6 == "" ? "[anonymous]" : $6) " " $2 } $1 == "Rss:" { rss[name] += $2 }
         END { for (n in rss) if (rss[n] >= 128) printf "%8.2f MB  %s\n", rss[n] / 1024, n }' "/proc/$pid/smaps" | sort -rn
    python3 benchmarks/watch-code-pages.py "$pid" "$BIN"
} | tee "$OUT/watch-code-pages.txt"
