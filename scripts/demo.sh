#!/usr/bin/env bash
# make demo: a real gpsd, fed a recorded receiver by gpsfake on a free loopback port, tracked by
# `geotrack watch` on its status line (redrawn in place on a terminal, plain lines otherwise),
# recorded to GPX, and the GPX replayed back as gpsd JSON. It asks nothing: authorization is
# granted ahead of time in a throwaway XDG_STATE_HOME. Cleans up and exits 0.
# Usage: scripts/demo.sh BIN LOG
set -euo pipefail

bin=${1:?usage: scripts/demo.sh BIN LOG}
log=${2:?usage: scripts/demo.sh BIN LOG}
fixes=${DEMO_FIXES:-4}

for tool in /usr/bin/gpsfake /usr/bin/python3; do
    [ -x "$tool" ] || { echo "demo: $tool is missing: sudo apt-get install gpsd gpsd-clients" >&2; exit 69; }
done
[ -x "$bin" ] || { echo "demo: $bin is not built: run 'make demo' (or swift build --product geotrack)" >&2; exit 66; }
[ -r "$log" ] || { echo "demo: cannot read the log $log" >&2; exit 66; }

work=$(mktemp -d)
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"

# gpsfake on a free port, its receiver listed by gpsd (scripts/gpsfake-up: a watch sent before
# that may go unanswered). gpsfake and its gpsd have a process group of their own.
read -r port fake < <("$(dirname "$0")/gpsfake-up" "$log" "$work/gpsfake.log" -1 -c 0.1) || true
if [ -z "${fake:-}" ]; then
    rm -rf "$work"
    echo "demo: gpsfake did not start a gpsd (above): check that gpsd is installed (sudo apt-get install gpsd)" >&2
    exit 69
fi
cleanup() {
    "$(dirname "$0")/gpsfake-up" --stop "$fake"
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" auth grant >/dev/null
echo "demo: location access granted ahead of time (geotrack auth grant, in a throwaway state directory)"

echo "demo: gpsd (via gpsfake) on 127.0.0.1:$port replaying $(basename "$log"); geotrack watch, $fixes fixes, recording demo.gpx:"
timeout 60 "$bin" watch --gpsd "127.0.0.1:$port" --count "$fixes" --timeout 30 --gpx "$work/demo.gpx" </dev/null
echo "demo: demo.gpx has $(grep -c '<trkpt' "$work/demo.gpx") track points, one per receiver time (gpsd may report one time twice, as its sentences come)$(command -v xmllint >/dev/null && xmllint --noout "$work/demo.gpx" && echo '; valid XML')"
echo "demo: geotrack replay demo.gpx --json, the first two fixes:"
"$bin" replay "$work/demo.gpx" --json | head -n 2 || true
echo "demo: done. Next: make install PREFIX=~/.local puts geotrack in ~/.local/bin (see the README's quick start)"
