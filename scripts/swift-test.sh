#!/usr/bin/env bash
# Runs `swift test` with the given arguments. When it fails, the failed tests' issues are
# printed again at the very end, where the tail of a CI log shows them: a failure in a suite
# that ran early is otherwise buried under the output of the suites that ran after it.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"${SWIFT:-swift}" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo "---- the failures above, repeated ----"
    grep -E '✘|↳|error:' "$log" | grep -v '^✘ Suite ' | head -80
fi
exit "$status"
