#!/usr/bin/env bash
# Regenerates scripts/geotrack.order: the functions geotrack runs when it starts and while it
# watches or replays, which the release link (Makefile's RELEASE_FLAGS) places side by side at
# the start of the binary's code. The kernel maps at least 64 KB around each page of code
# touched (the whole cached folio where the file system caches large ones); spread over 21 MB of
# code, those functions put most of it in `watch`'s memory. Together they take a few MB.
#
# It runs the release binary under callgrind (valgrind: apt install valgrind):
#   --version, auth status, watch on a gpsfake at about 10 fixes/s for WATCH seconds (default
#   20), replay --json and replay of a slice of the NMEA corpus.
# Regenerate it after large changes: a function the file does not name still works, it is
# only placed elsewhere (ld.lld skips names it does not find).
#
# Usage: scripts/order-file.sh [WATCH_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
WATCH=${1:-20}
PORT=${ORDER_PORT:-29495}
for tool in valgrind gpsfake tmux; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt install valgrind, or make deps" >&2; exit 2; }
done
source benchmarks/work.sh
# Relinked with a map: which sections hold the names the binary defines more than once.
rm -f .build/release/geotrack
make --no-print-directory release-geotrack LINK_MAP="$WORK/geotrack.map" >/dev/null
# Valgrind 3.19 cannot read the toolchain's DWARF 5; the symbol table is all it needs.
BIN="$WORK/geotrack"
strip --strip-debug -o "$BIN" .build/release/geotrack
"$BIN" auth grant >/dev/null
profile() { # NAME ARGUMENTS...
    local name=$1; shift
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/$name.out" "$BIN" "$@" >/dev/null 2>"$WORK/$name.err"
}
profile version --version
profile auth auth status
cat ../shared/nmea-corpus/*.nmea | head -c 3000000 > "$WORK/log.nmea"
/usr/bin/gpsfake -q -P "$PORT" -c 0.01 Tests/GPSDTests/Logs/garmin15x.nmea >"$WORK/gpsfake.log" 2>&1 &
stop_on_exit $!
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
tmux -S "$SOCK" new-session -d -s order -x 80 -y 24 \
    "valgrind --tool=callgrind --demangle=no --callgrind-out-file=$WORK/watch.out $BIN watch --gpsd 127.0.0.1:$PORT 2>$WORK/watch.err"
sleep "$WATCH"
tmux -S "$SOCK" send-keys -t order C-c
for _ in $(seq 1 100); do tmux -S "$SOCK" has-session -t order 2>/dev/null || break; sleep 0.1; done
profile replay-json replay "$WORK/log.nmea" --json
head -c 300000 "$WORK/log.nmea" > "$WORK/short.nmea"
profile replay replay "$WORK/short.nmea"
for name in version auth watch replay-json replay; do
    [ -s "$WORK/$name.out" ] || { echo "no profile for $name: $(tail -1 "$WORK/$name.err" 2>/dev/null)" >&2; exit 1; }
done
{
    echo "# The functions geotrack runs at start-up, then while watching and replaying, in that order:"
    echo "# ld.lld's --symbol-ordering-file for the release binary. Made by scripts/order-file.sh."
    python3 scripts/callgrind-functions.py --map "$WORK/geotrack.map" "$BIN" "$WORK"/{version,auth,watch,replay-json,replay}.out
    # Then the descriptors the Swift runtime scans, gathered at the front of .rodata: each cast
    # to a protocol not seen before reads every conformance descriptor (Mc), and each lookup of
    # a type by name every type descriptor (Mn) and its parents (modules, extensions: MXM, MXE,
    # MXX; protocols: Mp). Spread over the 2 MB of .rodata they lay on 300 of its pages, and
    # side by side on 200.
    nm --defined-only "$BIN" | awk '$2 ~ /^[rRdD]$/ && $3 ~ /^\$s.*(Mc|Mn|Mp|MXM|MXE|MXX)$/ { print $3 }' | sort -u |
        awk '{ print ($0 ~ /Mc$/ ? 0 : $0 ~ /Mn$/ ? 1 : 2), $0 }' | sort -k1,1n -s | cut -d' ' -f2
} > scripts/geotrack.order
echo "scripts/geotrack.order: $(grep -vc '^#' scripts/geotrack.order) functions and descriptors"
# ld.lld reads the order file, but swift build does not know it as an input: relink now.
rm -f .build/release/geotrack
make --no-print-directory release-geotrack >/dev/null
