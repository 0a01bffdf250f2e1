#!/usr/bin/env bash
# Builds geotrack on Swift's default executors (Dispatch) instead of its own, as any compiler
# other than the one the custom executors' SPI was written for builds it
# (Sources/Executors/GeoTrackExecutors.swift), and checks that the commands still work on them:
#
#   - replay through LocationManager and the service (tasks, the main actor) prints the same
#     fixes as the bulk path;
#   - watch --json against a real gpsd (gpsfake) prints fixes, and Ctrl-C (SIGINT, delivered by
#     SignalWatch to the main actor through MainQueue) ends it with status 0;
#   - devices --json lists gpsfake's receiver.
#
# The build has a scratch path of its own (.build-default-executors), so .build keeps the
# custom executors. Exits non-zero, saying why, on the first failure.
#
# Usage: scripts/check-default-executors.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
scratch=.build-default-executors
for tool in tmux /usr/bin/gpsfake; do
    command -v "$tool" >/dev/null || { echo "check-default-executors: $tool is missing: run make deps" >&2; exit 2; }
done
$SWIFT build --product geotrack --scratch-path "$scratch" -Xswiftc -DGEOTRACK_DEFAULT_EXECUTORS
BIN=$PWD/$scratch/debug/geotrack

work=$(mktemp -d)
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"
gpsfake_group=""
cleanup() {
    [ -n "$gpsfake_group" ] && scripts/gpsfake-up --stop "$gpsfake_group"
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-default-executors: $*" >&2; exit 1; }
"$BIN" auth grant >/dev/null

# The bulk path and the path through the main actor, on the same log.
log=Tests/GPSDTests/Logs/garmin15x.nmea
"$BIN" replay "$log" --json >"$work/bulk.jsonl" || fail "replay --json failed (status $?)"
"$BIN" replay "$log" --json --visits >"$work/service.jsonl" || fail "replay --json --visits failed (status $?)"
bulk=$(grep -c '"class":"TPV"' "$work/bulk.jsonl" || true)
service=$(grep -c '"class":"TPV"' "$work/service.jsonl" || true)
[ "$bulk" -gt 0 ] || fail "replay --json of $log printed no TPV"
[ "$bulk" -eq "$service" ] || fail "replay --json printed $bulk TPVs, through the service $service"

read -r port gpsfake_group < <(scripts/gpsfake-up "$log" "$work/gpsfake.log" -c 0.05) || true
[ -n "$gpsfake_group" ] || fail "gpsfake did not start a gpsd (above)"

devices=$("$BIN" devices --json --gpsd "127.0.0.1:$port" --timeout 30) || fail "devices --json failed against gpsfake"
[[ "$devices" == *'"class":"DEVICE"'* ]] || fail "devices --json listed no receiver: '$devices'"

"$BIN" watch --json --gpsd "127.0.0.1:$port" >"$work/watch.jsonl" 2>"$work/watch.err" &
watch_pid=$!
# Fixes, with a generous deadline for a loaded machine.
for _ in $(seq 600); do
    [ "$(grep -c '"class":"TPV".*"mode":[23]' "$work/watch.jsonl" || true)" -ge 5 ] && break
    kill -0 "$watch_pid" 2>/dev/null || break
    sleep 0.1
done
fixes=$(grep -c '"class":"TPV".*"mode":[23]' "$work/watch.jsonl" || true)
if [ "$fixes" -lt 5 ]; then
    kill "$watch_pid" 2>/dev/null || true
    fail "watch --json printed $fixes fixes in 60 s: $(tail -3 "$work/watch.err")"
fi
# The define took effect: no thread of geotrack's worker pool (WorkerPool names them).
if grep -qx 'geotrack.worker' /proc/"$watch_pid"/task/*/comm 2>/dev/null; then
    kill "$watch_pid" 2>/dev/null || true
    fail "the build has geotrack's own worker pool: GEOTRACK_DEFAULT_EXECUTORS did not reach Sources/Executors"
fi
kill -INT "$watch_pid"
for _ in $(seq 300); do kill -0 "$watch_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$watch_pid" 2>/dev/null; then
    kill -KILL "$watch_pid"
    fail "watch did not end within 30 s of SIGINT"
fi
status=0
wait "$watch_pid" || status=$?
[ "$status" -eq 0 ] || fail "watch ended with status $status after SIGINT (expected 0): $(tail -3 "$work/watch.err")"
echo "check-default-executors: on Swift's default executors, replay ($bulk fixes both ways), devices and watch ($fixes fixes, SIGINT → 0) work"
