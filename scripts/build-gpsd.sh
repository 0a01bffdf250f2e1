#!/usr/bin/env bash
# Builds and installs one gpsd release from its source tarball, for the tests against several
# gpsd versions (make test-gpsd-versions).
#
# Usage: scripts/build-gpsd.sh TARBALL PREFIX
#
# PREFIX gets sbin/gpsd, bin/{gpsfake,gpspipe}, lib/libgps.{so,a}, include/gps.h and the
# Python `gps` module in lib/python (gpsfake and gpspipe's Python parts need
# PYTHONPATH=PREFIX/lib/python). A PREFIX that already holds a complete install (its
# .geotrack-built stamp names the same tarball and this script) is kept: a second run builds
# nothing.
# Options as shared/gpsd/README.md gives them, the same for every version: no D-Bus, systemd,
# Qt, xgps or man pages; and the Python programs (gpsfake) built and run by the system's
# /usr/bin/python3, as Debian's own gpsfake is, where pyserial is installed (the default, `env
# python`, may be another Python or none, and `python3` on PATH may be a pyenv one).
set -euo pipefail
tarball=$1 prefix=$2
[ -f "$tarball" ] || { echo "build-gpsd: $tarball is missing" >&2; exit 1; }
prefix=$(mkdir -p "$prefix" && cd "$prefix" && pwd)
stamp="$prefix/.geotrack-built"
name="$(basename "$tarball") $(sha256sum "$0" | cut -c1-16)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$name" ] &&
   [ -x "$prefix/sbin/gpsd" ] && [ -x "$prefix/bin/gpsfake" ] && [ -f "$prefix/include/gps.h" ]; then
    echo "build-gpsd: $prefix already holds $(basename "$tarball")"
    exit 0
fi
# A stale or half-done install is removed first: what is left there is only this build's.
rm -rf "$prefix" && mkdir -p "$prefix"
command -v scons >/dev/null || { echo "build-gpsd: scons is missing (apt-get install scons)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xf "$tarball" -C "$work"
source=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
options=(prefix="$prefix" python_libdir="$prefix/lib/python" dbus_export=no systemd=no qt=no
         xgps=no manbuild=no target_python=/usr/bin/python3 python_shebang=/usr/bin/python3)
log="$prefix.build.log"
echo "build-gpsd: building $(basename "$tarball") into $prefix (log: $log)"
if ! (cd "$source" && scons -j2 "${options[@]}" && scons -j2 "${options[@]}" install) >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "build-gpsd: building $(basename "$tarball") failed (whole log: $log)" >&2
    exit 1
fi
echo "$name" >"$stamp"
echo "build-gpsd: installed $(basename "$tarball") into $prefix"
