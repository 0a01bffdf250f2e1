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
# Then the data: the descriptors the Swift runtime scans, and the data symbols the same commands
# touch under valgrind's lackey (watch for LACKEY_WATCH seconds, default 60), which the linker
# gathers at the front of .rodata and .bss. It needs a C compiler for scripts/lackey-addresses.c.
# Last, where perf is installed, the functions a `watch` at full speed runs that the callgrind
# runs did not see (scripts/fault-functions.py), pass after pass until a pass finds none.
# Regenerate it after large changes: a function the file does not name still works, it is
# only placed elsewhere (ld.lld skips names it does not find).
#
# Usage: scripts/order-file.sh [WATCH_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
WATCH=${1:-20}
LACKEY_WATCH=${LACKEY_WATCH:-60}
PORT=${ORDER_PORT:-29495}
for tool in valgrind gpsfake tmux cc; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt install valgrind gcc, and make deps for gpsfake and tmux" >&2; exit 2; }
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
cat Tests/Fixtures/nmea-corpus/*.nmea | head -c 3000000 > "$WORK/log.nmea"
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

# The data the same runs touch, from valgrind's lackey (every load and store), which is slower
# still: its `watch` reads a second gpsfake at a fifth of the pace, for LACKEY_WATCH seconds.
# Valgrind loads a position-independent executable at 0x108000; the addresses kept are those of
# the writable segments (.data, .rodata, .bss), whose sections the order file can move.
LOAD_BASE=0x108000
cc -O2 -o "$WORK/lackey-addresses" scripts/lackey-addresses.c
data_low="" data_high=""
while read -r _ _ address _ _ size _; do
    [ -n "$data_low" ] || data_low=$(printf '%x' $((LOAD_BASE + address)))
    data_high=$(printf '%x' $((LOAD_BASE + address + size)))
done < <(readelf -lW "$BIN" | awk '$1 == "LOAD" && $7 ~ /W/')
trace() { # NAME ARGUMENTS...
    local name=$1; shift
    valgrind --tool=lackey --trace-mem=yes --log-fd=9 "$BIN" "$@" 9>&1 >/dev/null 2>"$WORK/$name.lackey.err" |
        "$WORK/lackey-addresses" "$data_low" "$data_high" > "$WORK/$name.data"
}
trace version --version
trace auth auth status
/usr/bin/gpsfake -q -P "$((PORT + 1))" -c 0.05 Tests/GPSDTests/Logs/garmin15x.nmea >"$WORK/gpsfake-slow.log" 2>&1 &
stop_on_exit $!
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$((PORT + 1))") 2>/dev/null && break; sleep 0.1; done
mkfifo "$WORK/lackey.fifo"
"$WORK/lackey-addresses" "$data_low" "$data_high" < "$WORK/lackey.fifo" > "$WORK/watch.data" &
filter=$!
tmux -S "$SOCK" new-session -d -s lackey -x 80 -y 24 \
    "valgrind --tool=lackey --trace-mem=yes --log-file=$WORK/lackey.fifo $BIN watch --gpsd 127.0.0.1:$((PORT + 1)) 2>$WORK/watch.lackey.err"
sleep "$LACKEY_WATCH"
tmux -S "$SOCK" send-keys -t lackey C-c
for _ in $(seq 1 100); do tmux -S "$SOCK" has-session -t lackey 2>/dev/null || break; sleep 0.1; done
wait "$filter"
trace replay-json replay "$WORK/short.nmea" --json
trace replay replay "$WORK/short.nmea"
python3 scripts/callgrind-functions.py --map "$WORK/geotrack.map" "$BIN" "$WORK"/{version,auth,watch,replay-json,replay}.out \
    > "$WORK/functions"
# Then the descriptors the Swift runtime scans, gathered at the front of .rodata: each cast to a
# protocol not seen before reads every conformance descriptor (Mc), and each lookup of a type by
# name every type descriptor (Mn) and its parents (modules, extensions: MXM, MXE, MXX; protocols:
# Mp). Spread over the 2 MB of .rodata they lay on 300 of its pages, and side by side on 200.
nm --defined-only "$BIN" | awk '$2 ~ /^[rRdD]$/ && $3 ~ /^\$s.*(Mc|Mn|Mp|MXM|MXE|MXX)$/ { print $3 }' | sort -u |
    awk '{ print ($0 ~ /Mc$/ ? 0 : $0 ~ /Mn$/ ? 1 : 2), $0 }' | sort -k1,1n -s | cut -d' ' -f2 > "$WORK/descriptors"
# Then the rest of the data the runs touched, side by side at the front of .rodata and .bss,
# first touched first: the runtime's metadata caches, constants, lazy witness tables.
python3 scripts/data-symbols.py "$BIN" "$LOAD_BASE" "$WORK"/{version,auth,watch,replay-json,replay}.data |
    awk 'NR == FNR { listed[$0] = 1; next } !($0 in listed)' "$WORK/descriptors" - > "$WORK/data"
write_order() {
    {
        echo "# The functions geotrack runs at start-up, then while watching and replaying, in that order,"
        echo "# then the data they read: ld.lld's --symbol-ordering-file for the release binary."
        echo "# Made by scripts/order-file.sh."
        cat "$WORK/functions" "$WORK/descriptors" "$WORK/data"
    } > scripts/geotrack.order
    # ld.lld reads the order file, but swift build does not know it as an input: relink now.
    rm -f .build/release/geotrack
    make --no-print-directory release-geotrack >/dev/null
}
write_order

# Last, what callgrind's slowness hid: code whose running depends on timing. `watch`, at full
# speed under perf, faults on its code; a fault outside the ordered functions names one that
# ran alone among code that did not, and the kernel mapped 64 KB or more around it. A fault
# names only the first function to run in those 64 KB, so the pass repeats on the relinked
# binary until it finds none (at most FAULT_PASSES times, default 5): once the first have
# moved, the next fault names their neighbours that ran too. Skipped when perf is missing or
# not allowed to record.
FAULT_PASSES=${FAULT_PASSES:-5}
if command -v perf >/dev/null; then
    for pass in $(seq "$FAULT_PASSES"); do
        tmux -S "$SOCK" new-session -d -s faults -x 80 -y 24 \
            "perf record -q -e page-faults -c 1 -d -o $WORK/faults.data $PWD/.build/release/geotrack watch --gpsd 127.0.0.1:$PORT 2>$WORK/faults.err"
        sleep "$WATCH"
        tmux -S "$SOCK" send-keys -t faults C-c
        for _ in $(seq 1 100); do tmux -S "$SOCK" has-session -t faults 2>/dev/null || break; sleep 0.1; done
        if ! perf script -i "$WORK/faults.data" -F addr,ip --show-mmap-events > "$WORK/faults.txt" 2>/dev/null; then
            echo "perf could not record page faults; the order file has callgrind's functions only" >&2
            break
        fi
        python3 scripts/fault-functions.py .build/release/geotrack "$WORK/faults.txt" |
            awk 'NR == FNR { listed[$0] = 1; next } !($0 in listed)' "$WORK/functions" - > "$WORK/faulted"
        echo "perf, pass $pass: $(wc -l < "$WORK/faulted") functions ran outside the ordered ones: $(head -c 300 "$WORK/faulted" | tr '\n' ' ')"
        [ -s "$WORK/faulted" ] || break
        cat "$WORK/faulted" >> "$WORK/functions"
        write_order
    done
fi
echo "scripts/geotrack.order: $(wc -l < "$WORK/functions") functions, $(cat "$WORK/descriptors" "$WORK/data" | wc -l) data symbols"
