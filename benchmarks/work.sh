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
