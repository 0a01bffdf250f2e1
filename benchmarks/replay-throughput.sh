#!/usr/bin/env bash
# Replay throughput, side by side with gpsd's own decoder, on the same ≥100 MB log.
#
#   benchmarks/replay-throughput.sh [CORPUS_DIR] [MIN_MB] [RSS_MB]
#
# Builds BIG.nmea (≥ MIN_MB, default 100) by concatenating the corpus .nmea files into a
# temporary directory (removed afterwards), then in the same run times:
#   geotrack replay BIG --json > /dev/null      (full decoding + gpsd TPV JSON: the bulk fast path)
#   geotrack replay BIG --json --visits         (the same output through LocationManager and the service)
#   gpsdecode < BIG > /dev/null                  (gpsd 3.22's decoder, the bar)
#   wc -l BIG                                    (reading the bytes, the floor)
# and prints MB/s and sentences/s for each, the ratio to gpsdecode (issue 14's goal: at least
# 70), and the peak RSS of geotrack at MIN_MB and on a RSS_MB log (default 1000: the goal is at
# most 10 MB for 1 GB), which must stay flat (streaming, bounded buffers).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${1:-../shared/nmea-corpus}"
MIN_MB="${2:-100}"
RSS_MB="${3:-1000}"
TARGET_RATIO=70

command -v gpsdecode >/dev/null || { echo "gpsdecode is missing: apt-get install gpsd-clients" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install time" >&2; exit 2; }
ls "$CORPUS"/*.nmea >/dev/null 2>&1 || { echo "no .nmea files in $CORPUS" >&2; exit 2; }

make --no-print-directory release-geotrack >/dev/null
BIN=.build/release/geotrack
scripts/uncache.py "$BIN"   # its pages as after a reboot: see scripts/uncache.py

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cat "$CORPUS"/*.nmea > "$WORK/one.nmea"
build_log() { # OUT MB
    : > "$1"
    while [ "$(stat -c %s "$1")" -lt $(( $2 * 1000 * 1000 )) ]; do cat "$WORK/one.nmea" >> "$1"; done
}
build_log "$WORK/big.nmea" "$MIN_MB"
build_log "$WORK/huge.nmea" "$RSS_MB"
BYTES=$(stat -c %s "$WORK/big.nmea")
SENTENCES=$(grep -c '^[$!]' "$WORK/big.nmea" || true)
MB=$(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "log: $MB MB, $SENTENCES sentences ($(nproc) cores, $(gpsdecode -V 2>&1 | head -1))"
cat "$WORK/big.nmea" > /dev/null   # warm the page cache for everyone

# run NAME COMMAND...: best elapsed of 5 runs (1 for gpsdecode) and its peak RSS. The time is
# bash's microsecond clock around the run: /usr/bin/time's own counts in steps of 10 ms, which
# is a tenth of geotrack's time for 100 MB (0.100 and 0.110 s were 54.5x and 49.5x).
declare -A SECONDS_OF RSS_OF
run() {
    local name="$1"; shift
    local runs=5; [ "$name" = gpsdecode ] && runs=1
    local best="" rss="" started ended s m
    for _ in $(seq "$runs"); do
        started=$EPOCHREALTIME
        /usr/bin/time -f "%M" -o "$WORK/time" bash -c "$*" > /dev/null 2>&1
        ended=$EPOCHREALTIME
        s=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.4f", b - a }')
        read -r m < "$WORK/time"
        if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; rss=$m; fi
    done
    SECONDS_OF[$name]=$best
    RSS_OF[$name]=$rss
    awk -v n="$name" -v s="$best" -v b="$BYTES" -v c="$SENTENCES" -v r="$rss" 'BEGIN {
        if (s <= 0) s = 0.001
        printf "%-22s %8.4f s %9.1f MB/s %12.0f sentences/s  peak RSS %6.1f MB\n", n, s, b / 1e6 / s, c / s, r / 1024 }'
}

run "geotrack --json" "$BIN replay '$WORK/big.nmea' --json > /dev/null"
run "geotrack service path" "$BIN replay '$WORK/big.nmea' --json --visits > /dev/null"
run "gpsdecode" "gpsdecode < '$WORK/big.nmea' > /dev/null"
run "wc -l" "wc -l '$WORK/big.nmea'"

RATIO=$(awk -v g="${SECONDS_OF[gpsdecode]}" -v s="${SECONDS_OF[geotrack --json]}" 'BEGIN { printf "%.1f", g / s }')
SERVICE_RATIO=$(awk -v g="${SECONDS_OF[gpsdecode]}" -v s="${SECONDS_OF[geotrack service path]}" 'BEGIN { printf "%.1f", g / s }')
echo "geotrack --json is ${RATIO}x gpsdecode's throughput (through the service: ${SERVICE_RATIO}x); target ${TARGET_RATIO}x"

/usr/bin/time -f "%M" -o "$WORK/rss2" "$BIN" replay "$WORK/huge.nmea" --json > /dev/null
RSS1=${RSS_OF[geotrack --json]}
RSS2=$(cat "$WORK/rss2")
awk -v a="$RSS1" -v b="$RSS2" -v m="$MIN_MB" -v h="$(awk -v b="$(stat -c %s "$WORK/huge.nmea")" 'BEGIN { printf "%.0f", b / 1e6 }')" \
    'BEGIN { printf "peak RSS of geotrack --json: %.1f MB at %s MB, %.1f MB at %s MB (goal: at most 10 MB at 1 GB)\n", a / 1024, m, b / 1024, h }'
rm -f "$WORK/huge.nmea"

status=0
if awk -v r="$RATIO" -v t="$TARGET_RATIO" 'BEGIN { exit !(r < t) }'; then
    echo "FAIL: below ${TARGET_RATIO}x gpsdecode"; status=1
fi
if [ $(( RSS2 )) -gt $(( RSS1 + RSS1 / 4 + 4096 )) ]; then
    echo "FAIL: memory grows with the input"; status=1
fi
[ $status -eq 0 ] && echo "OK"
exit $status
