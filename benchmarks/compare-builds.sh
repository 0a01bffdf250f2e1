#!/usr/bin/env bash
# Two or more geotrack binaries side by side, in one run, on the figures that the release build's
# budgets are set from (scripts/check-budgets.sh):
#
#   1. the binary: size, and the shared libraries it names (NEEDED);
#   2. start-up: the mean wall time of STARTS runs of `--version` (and of `gpspipe -V`, the bar),
#      in ROUNDS rounds, the binaries taking turns; the median round is reported;
#   3. peak RSS (VmHWM) and CPU time (user + system, start to exit) of `watch` at about 10
#      fixes/s: every binary's watch in its own tmux terminal on one gpsd fed by gpsfake, for
#      WATCH seconds, then SIGTERM; ROUNDS times; the median;
#   4. wake-ups: context switches of every thread of each binary's `watch` over IDLE seconds,
#      all on one gpsd that has no receiver (once, past start-up);
#   5. replay --json of a ≥ MIN_MB log next to gpsdecode: ROUNDS rounds, each running gpsdecode
#      and then every binary once; the median time, the median of each round's ratio to
#      gpsdecode (so a slow round for gpsdecode does not flatter one binary), and peak RSS.
#
# The binaries' pages are dropped from the page cache first (scripts/uncache.py), so that each is
# read in by its own page faults, as after a reboot.
#
# Other processes share this machine's cores, so each figure is taken in rounds, interleaved.
# The table is written to benchmarks/out/compare-builds.txt as well.
#
# Usage: benchmarks/compare-builds.sh NAME=BINARY NAME=BINARY...
#   environment: ROUNDS (5), STARTS (50), WATCH (20), IDLE (30), MIN_MB (100),
#                CORPUS (../shared/nmea-corpus, else Tests/Fixtures/nmea-corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
STARTS=${STARTS:-50}
WATCH=${WATCH:-20}
IDLE=${IDLE:-30}
MIN_MB=${MIN_MB:-100}
CORPUS=${CORPUS:-../shared/nmea-corpus}
[ -d "$CORPUS" ] || CORPUS=Tests/Fixtures/nmea-corpus
PORT=${BENCH_PORT:-29500}
LOG=Tests/GPSDTests/Logs/garmin15x.nmea
OUT=benchmarks/out
mkdir -p "$OUT"
for tool in gpspipe gpsdecode tmux; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: make deps" >&2; exit 2; }
done
[ -x /usr/sbin/gpsd ] && [ -x /usr/bin/gpsfake ] || { echo "gpsd or gpsfake is missing: make deps" >&2; exit 2; }
[ $# -ge 2 ] || { echo "usage: benchmarks/compare-builds.sh NAME=BINARY NAME=BINARY..." >&2; exit 2; }

NAMES=()
declare -A BIN
for pair in "$@"; do
    name=${pair%%=*}
    path=$(readlink -f "${pair#*=}")
    [ -x "$path" ] || { echo "compare-builds: $path is not an executable" >&2; exit 2; }
    NAMES+=("$name")
    BIN[$name]=$path
done
source benchmarks/work.sh
# Every binary's pages as after a reboot, so that no binary's memory depends on how it was last
# read (a copy or a `cat` leaves large folios that a page fault maps whole): scripts/uncache.py.
scripts/uncache.py "${BIN[@]}"
"${BIN[${NAMES[0]}]}" auth grant >/dev/null

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The names in round r's order: each round starts one further along, so no binary always goes first.
rotated() {
    local r=$1 n=${#NAMES[@]} i
    for ((i = 0; i < n; i++)); do echo "${NAMES[$(((i + r) % n))]}"; done
}
declare -A RESULT
results() { tr ' ' '\n' <<<"${RESULT[$1]}" | grep -v '^$' | median; }

echo "== 1. the binaries =="
for name in "${NAMES[@]}"; do
    bytes=$(stat -c %s "${BIN[$name]}")
    RESULT[size,$name]=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
    RESULT[needed,$name]=$(readelf -d "${BIN[$name]}" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    printf '%-16s %12s bytes  NEEDED: %s\n' "$name" "$bytes" "${RESULT[needed,$name]}"
done

echo
echo "== 2. start-up: mean of $STARTS runs of --version, $ROUNDS rounds =="
mean_ms() {
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$STARTS"); do "$@" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    awk -v ns=$((end - start)) -v runs="$STARTS" 'BEGIN { printf "%.3f", ns / runs / 1e6 }'
}
for name in "${NAMES[@]}"; do "${BIN[$name]}" --version >/dev/null; done
for ((r = 0; r < ROUNDS; r++)); do
    line="round $r:"
    ms=$(mean_ms gpspipe -V); RESULT[start,gpspipe]+=" $ms"; line+=" gpspipe -V $ms"
    for name in $(rotated "$r"); do
        ms=$(mean_ms "${BIN[$name]}" --version); RESULT[start,$name]+=" $ms"; line+=", $name $ms"
    done
    echo "$line ms"
done
for name in "${NAMES[@]}"; do
    /usr/bin/time -f %M -o "$WORK/rss" "${BIN[$name]}" --version >/dev/null 2>&1
    RESULT[startrss,$name]=$(cat "$WORK/rss")
done

echo
echo "== 3. peak RSS of watch at about 10 fixes/s, $WATCH s, $ROUNDS rounds =="
kib() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status"; }
pane_pid() { tmux -S "$SOCK" list-panes -t "$1" -F '#{pane_pid}'; }
# Each watch runs under benchmarks/rusage.py, which writes its exact CPU time (every thread's,
# user + system) once it has exited: /proc's clock ticks of 10 ms are a tenth of the figure.
await_file() { for _ in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done; echo "compare-builds: $1 never appeared" >&2; exit 1; }
for ((r = 0; r < ROUNDS; r++)); do
    # A TMPDIR of its own, as in work.sh's feed_gpsd.
    TMPDIR=$(mktemp -d -p "$WORK") /usr/bin/gpsfake -q -P "$PORT" -c 0.01 "$LOG" >"$WORK/gpsfake.log" 2>&1 &
    fake=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
    fixes=$(timeout 3 gpspipe -w "127.0.0.1:$PORT" 2>/dev/null | grep -c '"class":"TPV".*"mode":[23]' || true)
    if [ "$fixes" -eq 0 ]; then
        echo "round $r: gpsd on port $PORT delivered no fix in 3 s; skipped"
        kill "$fake" 2>/dev/null || true; wait "$fake" 2>/dev/null || true
        continue
    fi
    i=0
    for name in $(rotated "$r"); do
        rm -f "$WORK/usage$i" "$WORK/usage$i.pid"
        tmux -S "$SOCK" new-session -d -s "w$i" -x 80 -y 24 \
            "exec $PWD/benchmarks/rusage.py $WORK/usage$i ${BIN[$name]} watch --gpsd 127.0.0.1:$PORT"
        i=$((i + 1))
    done
    sleep "$WATCH"
    line="round $r ($(awk -v n="$fixes" 'BEGIN { printf "%.1f", n / 3 }') fixes/s):"
    i=0
    for name in $(rotated "$r"); do
        await_file "$WORK/usage$i.pid"
        p=$(cat "$WORK/usage$i.pid")
        hwm=$(kib "$p" VmHWM); anon=$(kib "$p" RssAnon)
        RESULT[watch,$name]+=" $hwm"; RESULT[anon,$name]+=" $anon"
        line+=" $name ${hwm} KiB (anon ${anon}"
        kill -TERM "$p"
        await_file "$WORK/usage$i"
        read -r cpu <"$WORK/usage$i"
        RESULT[cpu,$name]+=" $cpu"
        line+=", CPU ${cpu} s),"
        tmux -S "$SOCK" kill-session -t "w$i" 2>/dev/null || true
        i=$((i + 1))
    done
    echo "$line"
    kill "$fake" 2>/dev/null || true; wait "$fake" 2>/dev/null || true
    sleep 1
done

echo
echo "== 4. wake-ups of watch over $IDLE s, gpsd without a receiver =="
/usr/sbin/gpsd -N -n -S "$PORT" -F "$WORK/gpsd.sock" >"$WORK/gpsd.log" 2>&1 &
stop_on_exit $!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
i=0
for name in "${NAMES[@]}"; do
    tmux -S "$SOCK" new-session -d -s "i$i" -x 100 -y 5 "exec ${BIN[$name]} watch --gpsd 127.0.0.1:$PORT"
    i=$((i + 1))
done
# Past start-up: watch settles within about 12 s (connecting, learning there is no receiver).
sleep 15
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { sum += $2 } END { print sum + 0 }'; }
declare -A BEFORE
i=0
for name in "${NAMES[@]}"; do BEFORE[$name]=$(switches "$(pane_pid "i$i")"); i=$((i + 1)); done
sleep "$IDLE"
i=0
for name in "${NAMES[@]}"; do
    p=$(pane_pid "i$i")
    RESULT[idle,$name]=$(($(switches "$p") - BEFORE[$name]))
    RESULT[threads,$name]=$(ls /proc/"$p"/task | wc -l)
    printf '%-16s %6s switches, %s threads\n' "$name" "${RESULT[idle,$name]}" "${RESULT[threads,$name]}"
    tmux -S "$SOCK" kill-session -t "i$i"
    i=$((i + 1))
done

echo
echo "== 5. replay --json next to gpsdecode, $ROUNDS rounds =="
cat "$CORPUS"/*.nmea > "$WORK/one.nmea"
: > "$WORK/big.nmea"
while [ "$(stat -c %s "$WORK/big.nmea")" -lt $((MIN_MB * 1000 * 1000)) ]; do cat "$WORK/one.nmea" >> "$WORK/big.nmea"; done
echo "log: $(awk -v b="$(stat -c %s "$WORK/big.nmea")" 'BEGIN { printf "%.1f", b / 1e6 }') MB from $CORPUS"
cat "$WORK/big.nmea" >/dev/null
timed() { # seconds of one run of the command, its peak RSS in $WORK/rss
    local started ended
    started=$EPOCHREALTIME
    /usr/bin/time -f %M -o "$WORK/rss" bash -c "$1" >/dev/null 2>&1
    ended=$EPOCHREALTIME
    awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.4f", b - a }'
}
for ((r = 0; r < ROUNDS; r++)); do
    g=$(timed "gpsdecode < '$WORK/big.nmea' > /dev/null")
    RESULT[replay,gpsdecode]+=" $g"
    line="round $r: gpsdecode $g s"
    for name in $(rotated "$r"); do
        s=$(timed "'${BIN[$name]}' replay '$WORK/big.nmea' --json > /dev/null")
        RESULT[replay,$name]+=" $s"
        RESULT[replayrss,$name]+=" $(cat "$WORK/rss")"
        RESULT[ratio,$name]+=" $(awk -v g="$g" -v s="$s" 'BEGIN { printf "%.1f", g / s }')"
        line+=", $name $s s"
    done
    echo "$line"
done

mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }
# cell FIGURE NAME: one binary's figure, as the table shows it.
cell() {
    case $1 in
    size) echo "${RESULT[size,$2]} MB" ;;
    needed) echo "$(wc -w <<<"${RESULT[needed,$2]}")" ;;
    start) echo "$(results "start,$2") ms" ;;
    startrss) mb "${RESULT[startrss,$2]}" ;;
    watch | anon | replayrss) [ -n "${RESULT[$1,$2]:-}" ] && mb "$(results "$1,$2")" || echo "?" ;;
    idle) echo "${RESULT[idle,$2]} (${RESULT[threads,$2]} threads)" ;;
    replay) echo "$(results "replay,$2") s" ;;
    cpu) [ -n "${RESULT[cpu,$2]:-}" ] && printf "%.3f s\n" "$(results "cpu,$2")" || echo "?" ;;
    ratio) echo "$(results "ratio,$2")x" ;;
    esac
}
{
    echo
    echo "== side by side: $(date -u +%FT%TZ), $(nproc) cores, medians of $ROUNDS rounds =="
    printf '| %-44s |' "figure"; for name in "${NAMES[@]}"; do printf ' %-20s |' "$name"; done; echo
    printf '| %-44s |' "---"; for _ in "${NAMES[@]}"; do printf ' %-20s |' "---"; done; echo
    while IFS='|' read -r figure label; do
        printf '| %-44s |' "$label"
        for name in "${NAMES[@]}"; do printf ' %-20s |' "$(cell "$figure" "$name")"; done
        echo
    done <<EOF_ROWS
size|binary size
needed|shared libraries named (NEEDED)
start|--version (gpspipe -V: $(results start,gpspipe) ms)
startrss|peak RSS of --version
watch|peak RSS of watch, ~10 fixes/s
anon|  of which anonymous (RssAnon at the end)
cpu|CPU time of watch over ${WATCH} s
idle|context switches in ${IDLE} s, idle watch
replay|replay --json, ${MIN_MB} MB (gpsdecode: $(results replay,gpsdecode) s)
ratio|  its ratio to gpsdecode
replayrss|peak RSS of replay --json
EOF_ROWS
} | tee "$OUT/compare-builds.txt"
