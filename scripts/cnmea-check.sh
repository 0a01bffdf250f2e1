#!/usr/bin/env bash
# Checks the one-pass framing kernel (Sources/CNMEA/shim.h) against a byte-by-byte reading of
# its rule, built natively and for AArch64 (a Raspberry Pi's architecture, run under
# qemu-user), on every sentence of the test logs, random mutations of them and long lines: the
# kernel's bit masks compile to different instructions on each. `make test` runs the native
# check; `make check-aarch64` (which CI runs too) installs qemu-user and the AArch64 C library,
# about 100 MB a user running the tests need not have, and runs the AArch64 one.
#
#   scripts/cnmea-check.sh native|aarch64 [LOG...]
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:-}
case "$arch" in
    native|aarch64) shift ;;
    *) echo "usage: scripts/cnmea-check.sh native|aarch64 [LOG...]" >&2; exit 64 ;;
esac
if [ $# -eq 0 ]; then set -- Tests/NMEATests/Logs/*.nmea Tests/NMEATests/Logs/*.raw.log; fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ "$arch" = native ]; then
    clang -O2 -Wall -Wextra -Werror -I Sources/CNMEA -o "$WORK/check" scripts/cnmea/check.c
    echo "cnmea-check $(uname -m): $("$WORK/check" "$@")"
    exit 0
fi
if ! command -v qemu-aarch64 >/dev/null || [ ! -d /usr/aarch64-linux-gnu/lib ] || [ ! -d /usr/lib/gcc-cross/aarch64-linux-gnu/12 ]; then
    echo "cnmea-check: qemu-user or the AArch64 C library is missing: make check-aarch64 installs them (apt install qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross)" >&2
    exit 2
fi
GCC=/usr/lib/gcc-cross/aarch64-linux-gnu/12
clang -O2 -Wall -Wextra -Werror --target=aarch64-linux-gnu --sysroot=/usr/aarch64-linux-gnu -static -fuse-ld=lld \
    -B "$GCC" -L "$GCC" -I Sources/CNMEA -o "$WORK/check-aarch64" scripts/cnmea/check.c
echo "cnmea-check aarch64 (qemu): $(qemu-aarch64 "$WORK/check-aarch64" "$@")"
