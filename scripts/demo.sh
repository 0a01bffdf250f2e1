#!/usr/bin/env bash
# make demo: a simulated receiver (gpsfake replaying an NMEA log through a real gpsd), tracked
# by `geotrack watch` on its status line, recorded to GPX, and the GPX replayed back as JSON.
# It asks nothing: authorization is granted ahead of time in a throwaway XDG_STATE_HOME.
set -euo pipefail
BIN=${1:?usage: demo.sh GEOTRACK_BINARY NMEA_LOG}
LOG=${2:?usage: demo.sh GEOTRACK_BINARY NMEA_LOG}
PORT=${DEMO_PORT:-29470}
WORK=$(mktemp -d)
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
GPSFAKE_PID=""
cleanup() {
  if [ -n "$GPSFAKE_PID" ]; then kill "$GPSFAKE_PID" 2>/dev/null || true; wait "$GPSFAKE_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== geotrack auth grant (in a throwaway state directory)"
"$BIN" auth grant

echo "== gpsfake replays $LOG at 127.0.0.1:$PORT, one sentence every 0.1 s"
/usr/bin/gpsfake -1 -q -P "$PORT" -c 0.1 "$LOG" >"$WORK/gpsfake.log" 2>&1 &
GPSFAKE_PID=$!
for _ in $(seq 1 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
  sleep 0.1
done

echo "== geotrack watch: the status line (redrawn in place on a terminal, plain lines otherwise)"
"$BIN" watch --gpsd "127.0.0.1:$PORT" --count 5 --timeout 30 --gpx "$WORK/demo.gpx"

echo "== the GPX track it recorded"
grep -c '<trkpt' "$WORK/demo.gpx" | sed 's/$/ track points/'
if command -v xmllint >/dev/null; then xmllint --noout "$WORK/demo.gpx" && echo "valid XML"; fi

echo "== geotrack replay demo.gpx --json: the track back as gpsd TPV lines"
"$BIN" replay "$WORK/demo.gpx" --json | head -3
