#!/usr/bin/env bash
# The fleet benchmark (issue 12): at least 200 trackers publishing to one mosquitto, one
# `geotrack fleet --json` subscriber, then the same with the broker stopped for 60 s in the
# middle, then the outbox's drain rate and size on disk per 100 000 messages.
#
# Usage: benchmarks/fleet.sh [TRACKERS] [DURATION_SECONDS] [OUTAGE_SECONDS]   (default 200 120 60)
#        benchmarks/fleet.sh once [TRACKERS] [ROUNDS] [--fast]                (default 200 10)
# `once`: ROUNDS times over, TRACKERS replays at once against a broker that stays up; each
# round must lose nothing, leave no message in any outbox and print no note about waiting
# messages (fleet.py --once). With --fast, the replays run as fast as they can rather than at
# their logs' pace. Exits 1 if a round did not.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = once ]; then
    TRACKERS=${2:-200} ROUNDS=${3:-10} FAST=${4:-}
    case "$FAST" in ""|--fast) ;; *) echo "usage: benchmarks/fleet.sh once [TRACKERS] [ROUNDS] [--fast]" >&2; exit 64 ;; esac
    LOGS=${BENCH_LOGS:-Tests/Fixtures/nmea-corpus}
    make --no-print-directory release-geotrack >/dev/null
    ulimit -n 65536 2>/dev/null || true
    failed=0
    for round in $(seq 1 "$ROUNDS"); do
        echo "== round $round of $ROUNDS: $TRACKERS replays at once =="
        python3 benchmarks/fleet.py "$PWD/.build/release/geotrack" --logs "$LOGS" --trackers "$TRACKERS" --once $FAST || failed=$((failed + 1))
    done
    echo "== $failed of $ROUNDS rounds failed =="
    [ "$failed" -eq 0 ]
    exit
fi
TRACKERS=${1:-200}
DURATION=${2:-120}
OUTAGE=${3:-60}
LOGS=${BENCH_LOGS:-../shared/nmea-corpus}
for tool in /usr/sbin/mosquitto mosquitto_sub; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: make deps" >&2; exit 2; }
done
make --no-print-directory release-geotrack >/dev/null
BIN=$PWD/.build/release/geotrack
# Many processes, each with a few descriptors, and a broker with 200 connections.
ulimit -n 65536 2>/dev/null || true

echo "== $TRACKERS trackers, broker up =="
python3 benchmarks/fleet.py "$BIN" --logs "$LOGS" --trackers "$TRACKERS" --duration "$DURATION"
echo
echo "== $TRACKERS trackers, broker stopped for $OUTAGE s =="
python3 benchmarks/fleet.py "$BIN" --logs "$LOGS" --trackers "$TRACKERS" --duration "$DURATION" --outage "$OUTAGE"
echo
echo "== outbox: 100 000 messages =="
python3 benchmarks/outbox-drain.py "$BIN" --log "$LOGS/quectel-l76k-nmea.nmea" --messages 100000
