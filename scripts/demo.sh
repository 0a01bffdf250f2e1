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

# A port nothing listens on now (the kernel picks it).
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# gpsfake and the gpsd it starts get a process group of their own, so cleanup stops both.
setsid /usr/bin/gpsfake -1 -q -P "$port" -c 0.1 "$log" </dev/null >/dev/null 2>&1 &
fake=$!
cleanup() {
    kill -TERM -- "-$fake" 2>/dev/null || true
    # gpsfake may outlive SIGTERM once its log is done: give it 2 s, then kill the group.
    for _ in $(seq 1 20); do kill -0 "$fake" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$fake" 2>/dev/null || true
    wait "$fake" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" auth grant >/dev/null
echo "demo: location access granted ahead of time (geotrack auth grant, in a throwaway state directory)"

# Wait (up to 30 s) until gpsd accepts connections.
for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    kill -0 "$fake" 2>/dev/null || { echo "demo: gpsfake exited before gpsd listened" >&2; exit 69; }
    sleep 0.1
done

echo "demo: gpsd (via gpsfake) on 127.0.0.1:$port replaying $(basename "$log"); geotrack watch, $fixes fixes, recording demo.gpx:"
timeout 60 "$bin" watch --gpsd "127.0.0.1:$port" --count "$fixes" --timeout 30 --gpx "$work/demo.gpx" </dev/null
echo "demo: demo.gpx has $(grep -c '<trkpt' "$work/demo.gpx") track points$(command -v xmllint >/dev/null && xmllint --noout "$work/demo.gpx" && echo ', valid XML')"
echo "demo: geotrack replay demo.gpx --json, the first two fixes:"
"$bin" replay "$work/demo.gpx" --json | head -n 2 || true
echo "demo: done"
