#!/usr/bin/env bash
# Builds the OwnTracks Recorder (ot-recorder and ocat) from its source tarball, for the tests
# that check what GeoTrack publishes against the real consumer (make test-recorder).
#
# Usage: scripts/build-recorder.sh TARBALL PREFIX
#
# PREFIX gets sbin/ot-recorder, bin/ocat and share/docroot (the HTTP API's document root).
# Options as shared/owntracks-recorder/README.md gives them: no Lua, no encryption, no
# time-zone database (none here); the default store, document root and configuration file
# point under PREFIX, so the binaries never read /etc or /var. A PREFIX that already holds a
# complete build (its .geotrack-built stamp names the same tarball and this script) is kept: a
# second run builds nothing.
set -euo pipefail
tarball=$1 prefix=$2
[ -f "$tarball" ] || { echo "build-recorder: $tarball is missing" >&2; exit 1; }
prefix=$(mkdir -p "$prefix" && cd "$prefix" && pwd)
stamp="$prefix/.geotrack-built"
name="$(basename "$tarball") $(sha256sum "$0" | cut -c1-16)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$name" ] &&
   [ -x "$prefix/sbin/ot-recorder" ] && [ -x "$prefix/bin/ocat" ] && [ -d "$prefix/share/docroot" ]; then
    echo "build-recorder: $prefix already holds $(basename "$tarball")"
    exit 0
fi
# A stale or half-done build is removed first: what is left there is only this build's.
rm -rf "$prefix" && mkdir -p "$prefix"
for library in libmosquitto libcurl libconfig uuid lmdb; do
    pkg-config --exists "$library" || { echo "build-recorder: $library's headers are missing: run make deps" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xf "$tarball" -C "$work"
source=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
sed -e 's|^WITH_LUA ?= .*|WITH_LUA ?= no|' \
    -e 's|^WITH_ENCRYPT ?= .*|WITH_ENCRYPT ?= no|' \
    -e 's|^WITH_TZ ?= .*|WITH_TZ ?= no|' \
    -e "s|^STORAGEDEFAULT = .*|STORAGEDEFAULT = $prefix/store|" \
    -e "s|^DOCROOT = .*|DOCROOT = $prefix/share/docroot|" \
    -e "s|^CONFIGFILE = .*|CONFIGFILE = $prefix/etc/ot-recorder|" \
    "$source/config.mk.in" >"$source/config.mk"
log="$prefix.build.log"
echo "build-recorder: building $(basename "$tarball") into $prefix (log: $log)"
if ! (cd "$source" && make -j2 ot-recorder ocat) >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "build-recorder: building $(basename "$tarball") failed (whole log: $log)" >&2
    exit 1
fi
mkdir -p "$prefix/sbin" "$prefix/bin" "$prefix/share" "$prefix/etc"
install -m 0755 "$source/ot-recorder" "$prefix/sbin/ot-recorder"
install -m 0755 "$source/ocat" "$prefix/bin/ocat"
cp -R "$source/docroot" "$prefix/share/docroot"
echo "$name" >"$stamp"
echo "build-recorder: built $(basename "$tarball") into $prefix"
