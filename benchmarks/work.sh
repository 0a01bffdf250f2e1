# Sourced by the benchmarks and scripts that start gpsd, gpsfake or tmux: a work directory
# removed on exit, a tmux socket in it, and every child registered with stop_on_exit stopped.
# Sets WORK and SOCK, and points XDG_STATE_HOME and XDG_CONFIG_HOME into WORK so that a run
# never touches the user's authorization or configuration.
WORK=$(mktemp -d)
SOCK="$WORK/tmux.sock"
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
CHILDREN=()
stop_on_exit() { CHILDREN+=("$@"); }
cleanup() {
    tmux -S "$SOCK" kill-server 2>/dev/null || true
    for pid in "${CHILDREN[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# feed_gpsd NAME PORT DELAY LOG: gpsfake looping LOG into a gpsd on PORT, DELAY seconds a
# sentence, stopped on exit; returns once gpsd delivers fixes, with RATE_SAMPLE set to the fix
# rate it actually delivers, counted by gpspipe over 5 s. Without fixes every figure a benchmark
# reports would describe idle clients: NAME refuses then, with gpsfake's last words, and exits 1.
feed_gpsd() {
    local name=$1 port=$2 delay=$3 log=$4
    # A TMPDIR of its own: gpsd leaves its control socket, named after gpsfake's PID, behind,
    # and a later gpsfake with that PID finds it, fails to connect and never adds its receiver.
    TMPDIR=$(mktemp -d -p "$WORK") /usr/bin/gpsfake -q -P "$port" -c "$delay" "$log" >"$WORK/gpsfake.log" 2>&1 &
    stop_on_exit $!
    for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    RATE_SAMPLE=$(timeout 5 gpspipe -w "127.0.0.1:$port" 2>/dev/null | grep -c '"class":"TPV".*"mode":[23]' || true)
    if [ "$RATE_SAMPLE" -eq 0 ]; then
        echo "$name: gpsd on port $port delivered no fix in 5 s; gpsfake said: $(tail -3 "$WORK/gpsfake.log" | tr '\n' ' ')" >&2
        exit 1
    fi
}
