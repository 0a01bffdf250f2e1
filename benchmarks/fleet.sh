#!/usr/bin/env bash
# The fleet benchmark (issue 12): at least 200 trackers publishing to one mosquitto, one
# `geotrack fleet --json` subscriber, then the same with the broker stopped for 60 s in the
# middle, then the outbox's drain rate and size on disk per 100 000 messages.
#
# Usage: benchmarks/fleet.sh [TRACKERS] [DURATION_SECONDS] [OUTAGE_SECONDS]   (default 200 120 60)
set -euo pipefail
cd "$(dirname "$0")/.."
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
