#!/usr/bin/env bash
# Installs geotrack into a scratch prefix with `make install`, then checks what a user would:
# `man geotrack` shows the generated page (its name, every subcommand, the exit codes and the
# environment), the third-party notices are beside it, and the installed binary runs. Exits non-zero, saying why, on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make --no-print-directory install PREFIX="$prefix" >/dev/null
page=$(MANPATH="$prefix/share/man" MANWIDTH=100 LANG=C.UTF-8 man -P cat geotrack 2>/dev/null)
# The page renders without a warning from man or groff (mdoc complains of blank input lines).
warnings=$(MANPATH="$prefix/share/man" LANG=C.UTF-8 man geotrack 2>&1 >/dev/null)
if [ -n "$warnings" ]; then
    echo "check-install: 'man geotrack' warns: $warnings" >&2
    exit 1
fi
for expected in "geotrack" "NAME" "watch" "replay" "auth" "devices" "--approximate" "GEOTRACK_CONFIG" "XDG_STATE_HOME" "Exit status" "74  reading or writing failed" "79  location access undecided"; do
    if ! grep -qF -- "$expected" <<<"$page"; then
        echo "check-install: 'man geotrack' after make install lacks '$expected'" >&2
        exit 1
    fi
done
# The BSD licence of gpsd's tables asks a binary to carry its notice.
notices="$prefix/share/doc/geotrack/THIRD-PARTY-NOTICES.md"
if ! grep -qF "Copyright 2010 by the GPSD project" "$notices" 2>/dev/null; then
    echo "check-install: make install left no third-party notices at $notices" >&2
    exit 1
fi
version=$("$prefix/bin/geotrack" --version)
# make check-install GPSD_PREFIX=DIR builds in a scratch path of its own (Makefile: SCRATCH).
scratch=${GEOTRACK_SCRATCH:-.build}
if [ "$version" != "$("$scratch/release/geotrack" --version)" ]; then
    echo "check-install: the installed geotrack says '$version'" >&2
    exit 1
fi
# The footprint the release link promises (Makefile's RELEASE_FLAGS): no Swift library, and
# libsqlite3, libgps, libmosquitto and libcurl are opened when first used, never at every start.
# The shared libraries a binary names (readelf's NEEDED entries), on one line.
needed_by() {
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '
}
needed=$(needed_by "$prefix/bin/geotrack")
for library in libsqlite3 libgps libmosquitto libcurl libswiftCore libFoundation libdispatch; do
    if [[ " $needed" == *" $library"* ]]; then
        echo "check-install: the installed geotrack loads $library at every start (NEEDED: $needed)" >&2
        exit 1
    fi
done
echo "check-install: man geotrack and $prefix/bin/geotrack --version ($version) work after make install; it loads $needed"
